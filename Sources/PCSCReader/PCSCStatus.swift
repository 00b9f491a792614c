#if os(Linux)
    import ReaderSimulator

    /// pcsc-lite's return codes that mean something to a transaction. pcsc-lite writes them as
    /// casts (`((LONG)0x80100069)`), which Swift does not import.
    enum PCSCStatus {
        static let success: UInt32 = 0x0000_0000
        static let timeout: UInt32 = 0x8010_000A
        static let noSmartCard: UInt32 = 0x8010_000C
        static let readerUnavailable: UInt32 = 0x8010_0017
        static let noReaders: UInt32 = 0x8010_002E
        /// `SCARD_E_NO_SERVICE`: pcscd is not running, or (as the calls answer it here)
        /// libpcsclite is not installed.
        static let noService: UInt32 = 0x8010_001D
        static let unpoweredCard: UInt32 = 0x8010_0067
        static let resetCard: UInt32 = 0x8010_0068
        static let removedCard: UInt32 = 0x8010_0069

        static let scopeSystem: DWORD = 0x0002
        static let shareShared: DWORD = 0x0002
        static let protocolT0: DWORD = 0x0001
        static let protocolT1: DWORD = 0x0002
        static let leaveCard: DWORD = 0x0000
        static let stateChanged: DWORD = 0x0002
        static let statePresent: DWORD = 0x0020

        /// The code as pcsc-lite defines it (a `LONG` holding an unsigned 32-bit value).
        static func code(_ value: LONG) -> UInt32 { UInt32(truncatingIfNeeded: value) }

        /// The card error for a failed call: the card gone, or the reader failing.
        static func error(_ value: LONG, _ call: String) -> CardError {
            let code = code(value)
            let hex = String(code, radix: 16, uppercase: true)
            switch code {
            case noSmartCard, removedCard, unpoweredCard, resetCard:
                return CardError(.removed, "\(call): no card in the reader (0x\(hex))")
            case noService:
                return CardError(
                    .transport,
                    "\(call): PC/SC is not there (0x\(hex)): pcscd must run and libpcsclite1 be installed")
            default:
                return CardError(.transport, "\(call) failed: 0x\(hex)")
            }
        }
    }
#endif
