import Foundation
import MPOSCore
import ReaderLink

/// A byte link to a receipt printer: a raw TCP socket (port 9100), Bluetooth, USB or a file.
///
/// ``ReceiptPrinter`` sends jobs through it and reads the printer's one-byte status answers
/// from ``incoming``. MPOSKit has no networking of its own: wrap any ReaderLink transport
/// (``TransportPrinterConnection``, such as ReaderLinkTCP's `TCPTransport`) or implement the
/// protocol for an accessory.
public protocol PrinterConnection: Sendable {
    /// Bytes the printer sends back (status answers), in order; finishes when the link closes.
    var incoming: AsyncStream<[UInt8]> { get }
    /// Whether the other end answers `DLE EOT` status requests (a file does not).
    var answersStatus: Bool { get }
    /// Sends bytes to the printer, in call order.
    ///
    /// - Throws: ``MPOSError/printerUnreachable`` once the link is gone.
    func send(_ bytes: [UInt8]) async throws(MPOSError)
    /// Closes the link. Idempotent.
    func close() async
}

/// A ``PrinterConnection`` over a ReaderLink transport: the bytes go through unframed, as
/// ESC/POS wants them.
///
/// ```swift
/// let printer = ReceiptPrinter(profile: .paper80mm) {
///     let socket = try await TCPTransport.connect(host: "192.168.1.20", port: ReceiptPrinter.defaultPort)
///     return TransportPrinterConnection(socket)
/// }
/// ```
public struct TransportPrinterConnection: PrinterConnection {
    /// The transport that carries the bytes.
    public let transport: any ReaderTransport

    /// Wraps `transport`.
    public init(_ transport: any ReaderTransport) { self.transport = transport }

    /// The transport's incoming bytes.
    public var incoming: AsyncStream<[UInt8]> { transport.incoming }

    /// True: a printer on a socket or a serial link answers status requests.
    public var answersStatus: Bool { true }

    /// Sends the bytes in pieces no larger than the transport's write limit.
    public func send(_ bytes: [UInt8]) async throws(MPOSError) {
        let limit = max(1, transport.maximumWriteLength ?? bytes.count)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + limit)
            do { try transport.send(Array(bytes[start..<end])) } catch {
                throw MPOSError.printerUnreachable.withMessage(
                    "The link to the printer closed while sending.")
            }
            start = end
        }
    }

    /// Closes the transport.
    public func close() async { await transport.close() }
}

/// A ``PrinterConnection`` that writes the job to a file (created or replaced), for a printer
/// shared as a device file or to keep the bytes; nothing answers status requests.
public final class FilePrinterConnection: PrinterConnection {
    /// The file the bytes go to.
    public let path: String
    private let handle: FileHandle

    /// Creates or truncates the file at `path`.
    ///
    /// - Throws: ``MPOSError/printerUnreachable`` when the file cannot be written.
    public init(path: String) throws(MPOSError) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw MPOSError.printerUnreachable.withMessage("Cannot write the print file \(path).") }
        self.path = path
        self.handle = handle
    }

    /// An empty stream: a file never answers.
    public var incoming: AsyncStream<[UInt8]> { AsyncStream { $0.finish() } }

    /// False: there is no printer to ask.
    public var answersStatus: Bool { false }

    /// Appends the bytes to the file.
    public func send(_ bytes: [UInt8]) async throws(MPOSError) {
        do { try handle.write(contentsOf: Data(bytes)) } catch {
            throw MPOSError.printerUnreachable.withMessage("Cannot write the print file \(path).")
        }
    }

    /// Closes the file.
    public func close() async { try? handle.close() }  // Each send wrote through; nothing is left to lose.
}
