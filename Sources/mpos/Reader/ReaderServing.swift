import Foundation
import ReaderLinkTCP
import ReaderSimulator

/// How `mpos reader emulate` and `mpos reader pcsc` serve their reader: ReaderLink on
/// 127.0.0.1:PORT (first line `listening on …`), discovery on its UDP port (second line), one
/// terminal at a time, until SIGINT or SIGTERM.
struct ReaderServing {
    /// The TCP port; 0 picks a free one.
    let port: Int
    /// The UDP port that answers discovery probes; 0 picks a free one.
    let discoveryPort: Int

    /// Serves `reader` until a signal arrives, feeding it `barcodes` while a terminal scans.
    func run(_ reader: SimulatedReader, barcodes: EmulatedBarcodes) async throws {
        // Catch the signals before binding, so one sent as soon as the port is printed still
        // shuts down cleanly.
        let signals = TerminationSignals()
        let server: TCPReaderServer
        do { server = try await TCPReaderServer.bind(host: "127.0.0.1", port: port) } catch {
            throw CLIFailure("cannot listen on 127.0.0.1:\(port): \(error)")
        }
        CLIOutput.line("listening on 127.0.0.1:\(server.port)")
        let responder = await announce(reader, tcpPort: server.port)
        let connections = server.connections
        // Unstructured: the emulator serves until a signal arrives; cancelled then.
        let accepting = Task {
            async let scanning: Void = barcodes.feed(to: reader)
            await serveEach(connections, with: reader)
            await scanning
        }
        let signal = await signals.wait()
        CLIOutput.error("received \(signal), shutting down")
        await responder?.close()
        await server.close()
        accepting.cancel()
    }

    /// Answers discovery probes on the discovery port, or says why it cannot.
    private func announce(_ reader: SimulatedReader, tcpPort: Int) async -> ReaderDiscoveryResponder? {
        do {
            let responder = try await ReaderDiscoveryResponder.bind(
                host: "127.0.0.1", port: discoveryPort, announcement: reader.announcement, tcpPort: tcpPort)
            CLIOutput.line("discovery on 127.0.0.1:\(responder.port)")
            return responder
        } catch {
            CLIOutput.error("discovery unavailable (\(error)); serving without it")
            return nil
        }
    }
}
