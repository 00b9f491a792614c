import EMV
import Foundation
import GatewayAPI
import MPOSCore
import MPOSKit
import MPOSKitNIO
import ReaderSimulator
import SandboxCards
import Synchronization

/// The gateway instances as the bank test's clients see them, and how the clients talk to them:
/// one idempotency key per operation, sent again to the other instance whenever a connection
/// fails or a 5xx (or "still in progress") comes back, as the SDK recovers.
final class BankInstances: Sendable {
    /// Why an operation got an answer the test cannot go on from.
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Where one instance listens now and how many times it was started.
    struct Address: Sendable {
        var port: Int
        var generation: Int
    }

    /// One answered request: the transaction, and the instance (index, generation) that answered.
    struct Answer: Sendable {
        let transaction: Transaction
        let instance: Int
        let generation: Int
    }

    private let addresses: Mutex<[Address]>
    private let transport = NIOGatewayTransport(timeout: .seconds(20), connectTimeout: .seconds(5), idleConnections: 64)
    /// Requests sent again to the other instance after a failed connection or a 5xx.
    let failovers = Atomic<Int>(0)
    /// Requests sent again because the key was still in progress (409/4091).
    let inProgressRetries = Atomic<Int>(0)
    /// Answers by instance 0 after its restart.
    let answersByRestarted = Atomic<Int>(0)

    init(ports: [Int]) {
        addresses = Mutex(ports.map { Address(port: $0, generation: 1) })
    }

    /// Points instance `index` at `port` after a restart.
    func restarted(_ index: Int, port: Int) {
        addresses.withLock { $0[index] = Address(port: port, generation: $0[index].generation + 1) }
    }

    func address(_ index: Int) -> Address { addresses.withLock { $0[index] } }

    func shutdown() async { await transport.shutdown() }

    /// Sends `body` to `path` with one new idempotency key, first to instance `first`, until an
    /// instance answers with a status below 500 other than "in progress".
    ///
    /// - Throws: ``Failure`` when the answer is an error, or no instance answered in 400 tries.
    func send<Body: Encodable>(_ path: String, token: String, body: Body, first: Int) async throws -> Answer {
        let request = GatewayHTTPRequest(
            method: "POST", path: path,
            headers: [
                GatewayHeaders.authorization: GatewayHeaders.bearerPrefix + token,
                "Content-Type": "application/json",
                GatewayHeaders.idempotencyKey: IdempotencyKey().rawValue,
            ],
            body: try GatewayJSON.makeEncoder().encode(body))
        var index = first
        var lastProblem = ""
        for _ in 0..<400 {
            let address = address(index)
            do {
                let response = try await transport.send(
                    request, to: URL(string: "http://127.0.0.1:\(address.port)")!)
                let error = try? GatewayJSON.makeDecoder().decode(GatewayErrorBody.self, from: response.body)
                if response.status < 300 {
                    if index == 0 && address.generation > 1 { answersByRestarted.add(1, ordering: .relaxed) }
                    let transaction = try GatewayJSON.makeDecoder().decode(Transaction.self, from: response.body)
                    return Answer(transaction: transaction, instance: index, generation: address.generation)
                } else if response.status == 409 && error?.code == GatewayErrorCode.idempotencyInProgress {
                    inProgressRetries.add(1, ordering: .relaxed)
                    lastProblem = "409/4091 on instance \(index)"
                    await Task.yield()
                    continue
                } else if response.status < 500 {
                    throw Failure(
                        description: "\(path) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
                }
                lastProblem = "\(response.status) from instance \(index)"
            } catch let failure as Failure {
                throw failure
            } catch {
                lastProblem = "\(error) from instance \(index)"
            }
            failovers.add(1, ordering: .relaxed)
            index = 1 - index
            await Task.yield()
        }
        throw Failure(description: "no instance answered \(path); last: \(lastProblem)")
    }

    /// Sends a GET with `headers` to instance `index` and returns status and body.
    func get(_ path: String, headers: [String: String] = [:], on index: Int) async throws -> (Int, String) {
        let response = try await transport.send(
            GatewayHTTPRequest(method: "GET", path: path, headers: headers),
            to: URL(string: "http://127.0.0.1:\(address(index).port)")!)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// Mints a client token with the merchant's API key on instance `index`.
    func clientToken(apiKey: String, on index: Int) async throws -> String {
        let response = try await transport.send(
            GatewayHTTPRequest(
                method: "POST", path: GatewayPaths.clientTokens,
                headers: [GatewayHeaders.apiKey: apiKey, "Content-Type": "application/json"],
                body: try GatewayJSON.makeEncoder().encode(ClientTokenRequest(lifetimeSeconds: 3600))),
            to: URL(string: "http://127.0.0.1:\(address(index).port)")!)
        guard response.status < 300 else {
            throw Failure(description: "client token: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
        return try GatewayJSON.makeDecoder().decode(ClientToken.self, from: response.body).token
    }
}

/// Card sales with genuine cryptograms from the simulator's EMV kernel, as readers would send
/// them: client `c` owns chip `c` (a catalog card on a transaction date of its own, so no two
/// clients share an ATC sequence) and its sales come in ATC order.
enum BankSales {
    static let cardIDs = ["visa-credit", "mastercard-2series", "discover", "unionpay", "amex", "signature"]

    /// `perClient` sales for each of `clients`, each with an amount of its own that triggers no
    /// sandbox scenario; `result[c][i]` is client `c`'s `i`-th sale.
    static func requests(clients: Int, perClient: Int) throws -> [[AuthorizeCardRequest]] {
        let cards = cardIDs.compactMap { SandboxCards.card(id: $0) }
        guard cards.count == cardIDs.count else { throw BankInstances.Failure(description: "a catalog card is missing") }
        var amounts: [Int64] = []
        var next: Int64 = 2_00
        while amounts.count < clients * perClient {
            if SandboxScenario.forAmount(minor: next) == nil { amounts.append(next) }
            next += 1
        }
        let now = Date()
        return try (0..<clients).map { client in
            var kernel = EMVKernel(
                card: try SimulatedCard(card: cards[client % cards.count], atc: 100),
                reader: try EMVKernel.sandboxReader(derivationID: 5_000 + UInt32(client)),
                terminal: TerminalConfiguration(floorLimit: 0, appliesScenarios: false))
            let date = now.addingTimeInterval(-86_400 * Double(client / cards.count))
            return try (0..<perClient).map { operation in
                let amount = amounts[client * perClient + operation]
                let data = try goOnline(&kernel, KernelTransaction(amount: amount, currency: .eur, date: date, entryMode: .chip))
                return AuthorizeCardRequest(
                    kind: .sale, parameters: PaymentParameters(amount: amount, currency: .eur),
                    emvData: Hex.encode(data.emvData), encryptedCardData: Hex.encode(data.encryptedCardData),
                    ksn: Hex.encode(data.ksn), maskedPAN: data.maskedPAN, entryMode: data.entryMode, cvm: data.cvm)
            }
        }
    }

    /// Runs the kernel until it asks to go online, choosing the first application and
    /// entering the sandbox PIN.
    private static func goOnline(_ kernel: inout EMVKernel, _ transaction: KernelTransaction) throws -> AuthorizationData {
        var step = kernel.start(transaction)
        for _ in 0..<5 {
            switch step {
            case .selectApplication: step = kernel.selectApplication(at: 0)
            case .enterPIN: step = kernel.enterPIN(SandboxCards.pin)
            case .goOnline(let data):
                kernel.cancel()
                return data
            default:
                throw BankInstances.Failure(description: "the kernel did not go online: \(step)")
            }
        }
        throw BankInstances.Failure(description: "the kernel took too many steps")
    }
}
