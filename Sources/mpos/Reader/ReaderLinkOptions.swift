import ArgumentParser
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator

/// Where a `mpos reader …` command finds its reader, and the secret it pairs with.
struct ReaderLinkOptions: ParsableArguments {
    @Option(help: "The reader's address, HOST:PORT.")
    var reader: String

    @Option(help: "The shared secret, 64 hex characters.")
    var secret: String = SimulatedReaderConfiguration.sandboxSecretHex

    /// Connects and pairs, each within `timeout`; failures are one line naming the reader, and
    /// a malformed secret or address fails before anything connects.
    func connect(timeout: Duration) async throws -> ReaderConnection {
        let sharedSecret: SharedSecret
        do { sharedSecret = try SharedSecret(hex: secret) } catch {
            throw CLIFailure("the shared secret is invalid: it must be 64 hex characters (32 bytes)")
        }
        let (host, port) = try ReaderAddress.parse(reader)
        let transport: TCPTransport
        do {
            transport = try await TCPTransport.connect(host: host, port: port, connectTimeout: timeout)
        } catch {
            throw CLIFailure("cannot connect to the reader at \(reader): \(error)")
        }
        do {
            return try await ReaderConnection.open(
                transport: transport, secret: sharedSecret, timeout: timeout)
        } catch .sharedSecretInvalid {
            await transport.close()
            throw CLIFailure("pairing failed: the shared secret is invalid (the reader holds another one)")
        } catch .readerInUse(let holder) {
            await transport.close()
            throw ReaderAddress.inUse(reader, ReaderLinkError.readerInUse(by: holder).mposError)
        } catch {
            await transport.close()
            throw CLIFailure("pairing with the reader at \(reader) failed: \(error)")
        }
    }

    /// Runs `body` on a connection opened within `timeout`, and closes it whatever happens.
    func withConnection<T>(timeout: Duration, _ body: (ReaderConnection) async throws -> T) async throws -> T
    {
        let connection = try await connect(timeout: timeout)
        do {
            let value = try await body(connection)
            await connection.close()
            return value
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Sends `request` and returns the answer, or a one-line failure naming `what` was asked.
    func ask(_ connection: ReaderConnection, _ request: ReaderMessage, _ what: String) async throws
        -> ReaderMessage
    {
        do { return try await connection.request(request) } catch {
            throw CLIFailure("\(what) to the reader at \(reader) failed: \(error)")
        }
    }

    /// Sends `request`, whose answer must be an acknowledgement.
    func askForAck(_ connection: ReaderConnection, _ request: ReaderMessage, _ what: String) async throws {
        let answer = try await ask(connection, request, what)
        guard case .ack = answer else { throw CLIFailure("the reader answered \(answer) to \(what)") }
    }
}
