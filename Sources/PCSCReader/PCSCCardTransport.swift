#if os(Linux)
    import ReaderSimulator
    import Synchronization

    /// A connection to the card in one PC/SC reader: the kernel's ``APDUTransport`` through
    /// pcsc-lite (`SCardTransmit`). It owns its PC/SC context and handle and lets go of both
    /// when released, leaving the card powered for the next transaction.
    ///
    /// A transmit blocks its thread until the card answers, as PC/SC does: a slow card holds the
    /// thread for as long as it takes.
    public final class PCSCCardTransport: APDUTransport {
        private struct Connection {
            var context: SCARDCONTEXT
            var handle: SCARDHANDLE
            var activeProtocol: DWORD
        }

        private let connection: Mutex<Connection>
        /// The reader's name, as PC/SC lists it.
        public let readerName: String
        /// Whether the card speaks T=0 (else T=1).
        public let isT0: Bool

        /// Connects to the card in `readerName` (nil: the first reader PC/SC lists).
        /// - Throws: ``CardError``: ``CardError/Kind/removed`` when the reader holds no card,
        ///   ``CardError/Kind/transport`` when pcscd or the reader cannot be reached.
        public init(readerName: String?) throws(CardError) {
            var context: SCARDCONTEXT = 0
            let established = SCardEstablishContext(PCSCStatus.scopeSystem, nil, nil, &context)
            guard PCSCStatus.code(established) == PCSCStatus.success else {
                throw PCSCStatus.error(established, "SCardEstablishContext")
            }
            var chosen = readerName
            if chosen == nil {
                do {
                    chosen = try Self.readers(context).first
                } catch {
                    SCardReleaseContext(context)
                    throw error
                }
            }
            guard let name = chosen else {
                SCardReleaseContext(context)
                throw CardError(.transport, "PC/SC lists no reader")
            }
            var handle: SCARDHANDLE = 0
            var active: DWORD = 0
            let connected = SCardConnect(
                context, name, PCSCStatus.shareShared, PCSCStatus.protocolT0 | PCSCStatus.protocolT1, &handle,
                &active)
            guard PCSCStatus.code(connected) == PCSCStatus.success else {
                SCardReleaseContext(context)
                throw PCSCStatus.error(connected, "SCardConnect to \(name)")
            }
            connection = Mutex(Connection(context: context, handle: handle, activeProtocol: active))
            self.readerName = name
            isT0 = active == PCSCStatus.protocolT0
        }

        deinit {
            connection.withLock { connection in
                SCardDisconnect(connection.handle, PCSCStatus.leaveCard)
                SCardReleaseContext(connection.context)
            }
        }

        /// The readers PC/SC knows, in its order.
        /// - Throws: ``CardError/Kind/transport`` when pcscd cannot be reached.
        public static func readers() throws(CardError) -> [String] {
            var context: SCARDCONTEXT = 0
            let established = SCardEstablishContext(PCSCStatus.scopeSystem, nil, nil, &context)
            guard PCSCStatus.code(established) == PCSCStatus.success else {
                throw PCSCStatus.error(established, "SCardEstablishContext")
            }
            defer { SCardReleaseContext(context) }
            return try readers(context)
        }

        private static func readers(_ context: SCARDCONTEXT) throws(CardError) -> [String] {
            var length: DWORD = 0
            var listed = SCardListReaders(context, nil, nil, &length)
            if PCSCStatus.code(listed) == PCSCStatus.noReaders { return [] }
            guard PCSCStatus.code(listed) == PCSCStatus.success, length > 0 else {
                throw PCSCStatus.error(listed, "SCardListReaders")
            }
            var buffer = [CChar](repeating: 0, count: Int(length))
            listed = SCardListReaders(context, nil, &buffer, &length)
            guard PCSCStatus.code(listed) == PCSCStatus.success else {
                throw PCSCStatus.error(listed, "SCardListReaders")
            }
            // A multi-string: names ended by NUL, the list by an empty name.
            return buffer.split(separator: 0).map {
                String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }

        /// Sends one APDU with `SCardTransmit` and returns the card's answer.
        /// - Throws: ``CardError/Kind/removed`` when the card left the reader.
        public func transmit(_ command: [UInt8]) throws(CardError) -> [UInt8] {
            let result = connection.withLock { connection -> Result<[UInt8], CardError> in
                var request = SCARD_IO_REQUEST(
                    dwProtocol: connection.activeProtocol,
                    cbPciLength: DWORD(MemoryLayout<SCARD_IO_REQUEST>.size))
                var answer = [UInt8](repeating: 0, count: 1_024)
                var length = DWORD(answer.count)
                let sent = SCardTransmit(
                    connection.handle, &request, command, DWORD(command.count), nil, &answer, &length)
                guard PCSCStatus.code(sent) == PCSCStatus.success else {
                    return .failure(PCSCStatus.error(sent, "SCardTransmit"))
                }
                return .success(Array(answer.prefix(Int(length))))
            }
            return try result.get()
        }
    }
#endif
