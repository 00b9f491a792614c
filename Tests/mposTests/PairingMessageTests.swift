import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `mpos` says when the reader does not pair: a wrong secret points at `--secret`, a
/// link that drops during pairing points at the link.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PairingMessageTests {
    /// A TCP peer on 127.0.0.1 (port 0) that accepts one connection, reads what arrives
    /// first (the SDK's hello) and closes it, as a reader that resets mid-pairing.
    final class DroppingPeer: @unchecked Sendable {
        let socketFD: Int32
        let port: Int
        private let done = DispatchSemaphore(value: 0)

        init() throws {
            #if canImport(Glibc)
                let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let listener = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let size = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) }
            }
            var length = size
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
            }
            guard listener >= 0, bound == 0, listen(listener, 1) == 0, named == 0 else {
                close(listener)
                throw POSIXError(.EADDRNOTAVAIL)
            }
            socketFD = listener
            port = Int(UInt16(bigEndian: address.sin_port))
            let done = self.done
            Thread.detachNewThread {
                let connection = accept(listener, nil, nil)
                if connection >= 0 {
                    var buffer = [UInt8](repeating: 0, count: 256)
                    _ = read(connection, &buffer, buffer.count)
                    close(connection)
                }
                done.signal()
            }
        }

        /// Stops listening (ending a wait in `accept`) and waits for the peer's thread.
        func stop() {
            shutdown(socketFD, Int32(SHUT_RDWR))
            close(socketFD)
            done.wait()
        }
    }

    @Test func aLinkDroppedDuringPairingIsReportedAsALinkFailure() throws {
        let peer = try DroppingPeer()
        defer { peer.stop() }
        let run = try EMVDecodeBinaryTests.run(["sale", "--amount", "1.00", "--reader", "127.0.0.1:\(peer.port)"])
        #expect(run.status == 1 && run.out.isEmpty)
        #expect(
            run.err
                == "Error: the reader at 127.0.0.1:\(peer.port) did not pair: The reader could not be paired: "
                + "the link closed during pairing (the reader or the network dropped it).\n")
    }

    @Test func aReaderHoldingAnotherSecretSaysToCheckTheSecret() throws {
        let emulator = try ReaderCommandTests.Emulator.start(["--secret", String(repeating: "b2", count: 32)])
        defer { _ = emulator.stop() }
        let run = try EMVDecodeBinaryTests.run(["sale", "--amount", "1.00", "--reader", "127.0.0.1:\(emulator.port)"])
        #expect(run.status == 1 && run.out.isEmpty)
        #expect(
            run.err
                == "Error: the reader at 127.0.0.1:\(emulator.port) did not pair (check --secret): "
                + "The reader holds a different shared secret; check the secret configured for it.\n")
    }
}
