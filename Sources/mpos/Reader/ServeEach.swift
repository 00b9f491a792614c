import ReaderLinkTCP
import ReaderSimulator

/// Serves each connection the emulated reader's server accepts, each in a child task, until
/// the server closes; cancelling the caller ends every connection's task with it.
func serveEach(_ connections: AsyncStream<TCPTransport>, with reader: SimulatedReader) async {
    await withDiscardingTaskGroup { group in
        for await link in connections {
            group.addTask { await reader.serve(link) }
        }
    }
}
