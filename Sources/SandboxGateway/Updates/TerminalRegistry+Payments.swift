import Foundation
import GRDB
import GatewayAPI

extension TerminalRegistry {
    /// Checks a payment's reader fields as an initialization's.
    ///
    /// - Throws: ``GatewayError`` 4001 naming the first field that is not 1 to 64 printable
    ///   ASCII characters without a space at either end.
    static func validate(_ reader: PaymentReader) throws(GatewayError) {
        try UpdateText.require(reader.model, "reader.model")
        try UpdateText.require(reader.serialNumber, "reader.serialNumber")
        try UpdateText.require(reader.firmwareVersion, "reader.firmwareVersion")
        try UpdateText.require(reader.configurationVersion, "reader.configurationVersion")
    }

    /// Judges the reader a card-present payment was taken on, inside the payment's own
    /// transaction, so that a refusal leaves nothing charged and is stored with the
    /// idempotency key like any answer.
    ///
    /// - A reader this merchant never saw is registered with the versions it reports, as its
    ///   first initialization would (the TSM seed: "new terminals become auto-registered when
    ///   used to take their first transaction"); its three days of grace start now, so it is
    ///   never refused at that payment. A request refused for another reason (its rules, the
    ///   issuer's verification, a duplicate) registers nothing: its transaction is rolled back.
    /// - A known reader keeps its registration; the versions recorded at initialization and
    ///   installs are not overwritten, as a forwarded offline sale reports the versions of the
    ///   day it was taken.
    /// - The deadline rule is ``UpdatePending``'s, over the versions the payment reports, at
    ///   `takenAt`: the gateway's now, or when a forwarded offline sale was stored (never
    ///   later than now), so a sale taken before the deadline is not refused after it.
    ///
    /// - Throws: ``GatewayError`` 4001 for a reader field that is not 1 to 64 printable
    ///   characters; 4092 when the serial number is registered for this merchant with another
    ///   model or channel; 4221 (``GatewayErrorCode/terminalDeactivated``) when the reader was
    ///   past a deadline at `takenAt`.
    static func admitPayment(
        merchant: String, reader: PaymentReader, takenAt: Date, now: Date, in db: any SQLSession
    ) throws {
        try validate(reader)
        let request = reader
        let channel = request.channel ?? .production
        let registeredAt: Date
        if let row = try Self.reader(merchant: merchant, serial: request.serialNumber, in: db) {
            let model: String = row["model"]
            let registered: String = row["channel"]
            guard model == request.model, registered == channel.rawValue else {
                throw GatewayError.invalidState(
                    "Reader \(request.serialNumber) is registered as a \(model) on the \(registered) channel."
                )
            }
            registeredAt = row["registered_at"]
        } else {
            try Self.register(merchant: merchant, request, channel: channel, at: now, in: db)
            registeredAt = now
        }
        let images = try UpdateCatalogueService.images(model: request.model, channel: channel, in: db)
        let answer = UpdatePending.answer(
            for: UpdatePending.Reader(
                firmwareVersion: request.firmwareVersion, configurationVersion: request.configurationVersion,
                registeredAt: registeredAt),
            images: images, now: min(takenAt, now))
        guard answer.blocked, let deadline = answer.updateDeadline else { return }
        let pending = answer.pending.map { "\($0.kind.rawValue) \($0.version)" }.joined(separator: ", ")
        throw GatewayError(
            code: GatewayErrorCode.terminalDeactivated,
            "Reader \(request.serialNumber) is deactivated: its update deadline "
                + "(\(deadline.formatted(.iso8601))) has passed. Install \(pending) to take payments; "
                + "nothing was charged.")
    }
}
