import Foundation
import MPOSCore
import Testing

@testable import MPOSKit

/// The reader part tells the terminal its news over a stream the terminal takes in: no part
/// holds the terminal, so letting the terminal go lets its parts go, and a part that outlives
/// its terminal is never left waiting for an answer.
@Suite(.timeLimit(.minutes(1)))
struct ReaderLinkNewsTests {
    private static func terminal(in directory: URL) throws -> PaymentTerminal {
        try PaymentTerminal(
            environment: URL(string: "http://127.0.0.1:9")!, credentials: .login(user: "u", password: "p"),
            journalPath: directory.appendingPathComponent("journal.sqlite").path, transport: DroppingTransport())
    }

    private static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("mposkit-\(UUID().uuidString)")
    }

    @Test func aTerminalLetGoIsReleasedWithItsParts() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var terminal: PaymentTerminal? = try Self.terminal(in: directory)
        weak let released = terminal
        weak let reader = terminal?.reader
        weak let terminalAPI = terminal?.terminalAPI
        await terminal?.disconnect()
        #expect(released != nil)
        terminal = nil
        #expect(released == nil)
        #expect(reader == nil)
        #expect(terminalAPI == nil)
    }

    @Test func aReaderPartThatOutlivesItsTerminalIsNotLeftWaiting() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var terminal: PaymentTerminal? = try Self.terminal(in: directory)
        let reader = try #require(terminal?.reader)
        weak let released = terminal
        terminal = nil
        #expect(released == nil)
        // Its news has nobody to take it: it is answered at once, and the call returns.
        await reader.letGo()
        #expect(await reader.connectionState == .notConnected)
    }
}
