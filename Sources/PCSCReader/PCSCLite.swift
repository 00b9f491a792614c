#if os(Linux)
    import Foundation
    import Glibc

    // pcsc-lite's PC/SC API, reached at run time (dlopen of libpcsclite.so.1) rather than linked:
    // building MPOSKit's tools needs no PC/SC headers, and `mpos reader pcsc` says what is missing
    // when the library is not installed. The types are pcsc-lite's on Linux (wintypes.h, where
    // DWORD is an unsigned long and LONG a long; pcsclite.h for the structures).

    typealias DWORD = UInt
    typealias LONG = Int
    typealias SCARDCONTEXT = Int
    typealias SCARDHANDLE = Int

    /// pcsc-lite's `SCARD_IO_REQUEST`.
    struct SCARD_IO_REQUEST {
        var dwProtocol: DWORD
        var cbPciLength: DWORD
    }

    /// pcsc-lite's `SCARD_READERSTATE` (its ATR buffer is `MAX_ATR_SIZE`, 33 bytes).
    struct SCARD_READERSTATE {
        var szReader: UnsafePointer<CChar>?
        var pvUserData: UnsafeMutableRawPointer?
        var dwCurrentState: DWORD = 0
        var dwEventState: DWORD = 0
        var cbAtr: DWORD = 0
        var rgbAtr:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// The entry points of libpcsclite, looked up once. Pointers to the structures above pass
    /// as raw pointers: a Swift structure is not a C type, though these have pcsc-lite's layout.
    private struct PCSCLibrary: Sendable {
        typealias Establish = @convention(c) (DWORD, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeMutablePointer<SCARDCONTEXT>?) -> LONG
        typealias Release = @convention(c) (SCARDCONTEXT) -> LONG
        typealias Connect = @convention(c) (
            SCARDCONTEXT, UnsafePointer<CChar>?, DWORD, DWORD, UnsafeMutablePointer<SCARDHANDLE>?,
            UnsafeMutablePointer<DWORD>?
        ) -> LONG
        typealias Disconnect = @convention(c) (SCARDHANDLE, DWORD) -> LONG
        typealias Transmit = @convention(c) (
            SCARDHANDLE, UnsafeRawPointer?, UnsafePointer<UInt8>?, DWORD, UnsafeMutableRawPointer?,
            UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
        typealias ListReaders = @convention(c) (
            SCARDCONTEXT, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
        typealias GetStatusChange = @convention(c) (
            SCARDCONTEXT, DWORD, UnsafeMutableRawPointer?, DWORD
        ) -> LONG
        typealias Cancel = @convention(c) (SCARDCONTEXT) -> LONG

        let establish: Establish
        let release: Release
        let connect: Connect
        let disconnect: Disconnect
        let transmit: Transmit
        let listReaders: ListReaders
        let getStatusChange: GetStatusChange
        let cancel: Cancel

        /// The library's file name (the run-time package's, not the -dev symlink).
        static let file = "libpcsclite.so.1"

        /// The library, or nil when it is not installed.
        static let loaded: PCSCLibrary? = {
            guard let handle = dlopen(file, RTLD_NOW) else { return nil }
            func symbol<T>(_ name: String, as type: T.Type) -> T? {
                dlsym(handle, name).map { unsafeBitCast($0, to: type) }
            }
            guard let establish = symbol("SCardEstablishContext", as: Establish.self),
                let release = symbol("SCardReleaseContext", as: Release.self),
                let connect = symbol("SCardConnect", as: Connect.self),
                let disconnect = symbol("SCardDisconnect", as: Disconnect.self),
                let transmit = symbol("SCardTransmit", as: Transmit.self),
                let listReaders = symbol("SCardListReaders", as: ListReaders.self),
                let getStatusChange = symbol("SCardGetStatusChange", as: GetStatusChange.self),
                let cancel = symbol("SCardCancel", as: Cancel.self)
            else { return nil }
            return PCSCLibrary(
                establish: establish, release: release, connect: connect, disconnect: disconnect, transmit: transmit,
                listReaders: listReaders, getStatusChange: getStatusChange, cancel: cancel)
        }()
    }

    /// Answered by every call when libpcsclite is not installed: pcsc-lite's `SCARD_E_NO_SERVICE`.
    private let noLibrary = LONG(PCSCStatus.noService)

    func SCardEstablishContext(
        _ scope: DWORD, _ reserved1: UnsafeRawPointer?, _ reserved2: UnsafeRawPointer?,
        _ context: UnsafeMutablePointer<SCARDCONTEXT>
    ) -> LONG {
        PCSCLibrary.loaded?.establish(scope, reserved1, reserved2, context) ?? noLibrary
    }

    @discardableResult
    func SCardReleaseContext(_ context: SCARDCONTEXT) -> LONG { PCSCLibrary.loaded?.release(context) ?? noLibrary }

    func SCardConnect(
        _ context: SCARDCONTEXT, _ reader: UnsafePointer<CChar>, _ share: DWORD, _ protocols: DWORD,
        _ handle: UnsafeMutablePointer<SCARDHANDLE>, _ active: UnsafeMutablePointer<DWORD>
    ) -> LONG {
        PCSCLibrary.loaded?.connect(context, reader, share, protocols, handle, active) ?? noLibrary
    }

    @discardableResult
    func SCardDisconnect(_ handle: SCARDHANDLE, _ disposition: DWORD) -> LONG {
        PCSCLibrary.loaded?.disconnect(handle, disposition) ?? noLibrary
    }

    func SCardTransmit(
        _ handle: SCARDHANDLE, _ sendPCI: UnsafePointer<SCARD_IO_REQUEST>, _ command: UnsafePointer<UInt8>,
        _ commandLength: DWORD, _ receivePCI: UnsafeMutablePointer<SCARD_IO_REQUEST>?,
        _ answer: UnsafeMutablePointer<UInt8>, _ answerLength: UnsafeMutablePointer<DWORD>
    ) -> LONG {
        PCSCLibrary.loaded?.transmit(
            handle, UnsafeRawPointer(sendPCI), command, commandLength, receivePCI.map(UnsafeMutableRawPointer.init),
            answer, answerLength) ?? noLibrary
    }

    func SCardListReaders(
        _ context: SCARDCONTEXT, _ groups: UnsafePointer<CChar>?, _ readers: UnsafeMutablePointer<CChar>?,
        _ length: UnsafeMutablePointer<DWORD>
    ) -> LONG {
        PCSCLibrary.loaded?.listReaders(context, groups, readers, length) ?? noLibrary
    }

    func SCardGetStatusChange(
        _ context: SCARDCONTEXT, _ timeout: DWORD, _ states: UnsafeMutablePointer<SCARD_READERSTATE>, _ count: DWORD
    ) -> LONG {
        PCSCLibrary.loaded?.getStatusChange(context, timeout, UnsafeMutableRawPointer(states), count) ?? noLibrary
    }

    @discardableResult
    func SCardCancel(_ context: SCARDCONTEXT) -> LONG { PCSCLibrary.loaded?.cancel(context) ?? noLibrary }
#endif
