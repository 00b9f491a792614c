import Foundation
import TerminalAPI

/// A payment terminal on the shop's network that runs its own payment application and takes
/// Terminal API (nexo) requests over HTTP(S), as Adyen's terminals do: what
/// ``PaymentTerminal/connect(_:)`` drives in place of a ReaderLink reader.
///
/// ```swift
/// let lan = NetworkedTerminal(
///     url: URL(string: "https://192.168.1.20:8443")!, poiID: "V400m-123456789", saleID: "till-1",
///     key: NexoSecurityKey(keyIdentifier: "mykey", keyVersion: 1, passphrase: "…"))
/// try await terminal.connect(lan)
/// let result = try await terminal.sale(PaymentParameters(amount: 1234, currency: .eur))
/// ```
///
/// Requests are posted to `url` + `/nexo`, encrypted under `key` when one is given (and the
/// answers then must decrypt and authenticate under it).
public struct NetworkedTerminal: Sendable {
    /// The terminal's base URL, such as `https://192.168.1.20:8443`.
    public var url: URL
    /// The terminal's POIID (`V400m-123456789`): every request names it.
    public var poiID: String
    /// This sale system's `SaleID`; with each request's `ServiceID` it identifies the request,
    /// and the attempt's idempotency key is derived from both.
    public var saleID: String
    /// Adyen's local encryption key shared with the terminal; nil sends clear messages.
    public var key: NexoSecurityKey?
    /// The HTTP seam. Its timeout bounds one request, a whole card payment included.
    public var transport: any GatewayTransport
    /// How long an outcome lost on the way is asked for with TransactionStatus (the pauses
    /// between asks: 0.5 s, 1 s, 2 s, 4 s, then 8 s) before the attempt is left to
    /// ``Recovery/recoverUnfinishedAttempts()``. Zero asks once.
    public var settlementDeadline: Duration

    /// Describes a networked terminal.
    ///
    /// - Parameters:
    ///   - url: the terminal's base URL; requests go to `url/nexo`.
    ///   - poiID: its POIID.
    ///   - saleID: this sale system's SaleID.
    ///   - key: the encryption key, or nil for clear messages.
    ///   - transport: the HTTP seam; URLSession with a 180 s timeout by default, since one
    ///     request lasts as long as the cardholder takes.
    ///   - settlementDeadline: 120 s by default.
    public init(
        url: URL, poiID: String, saleID: String, key: NexoSecurityKey? = nil,
        transport: any GatewayTransport = URLSessionGatewayTransport(timeout: 180),
        settlementDeadline: Duration = .seconds(120)
    ) {
        self.url = url
        self.poiID = poiID
        self.saleID = saleID
        self.key = key
        self.transport = transport
        self.settlementDeadline = settlementDeadline
    }
}
