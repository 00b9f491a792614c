import ArgumentParser
import Foundation
import MPOSCore
import MPOSKit

/// How the payment commands report a ``PaymentResult``: text or JSON, and the exit code
/// (0 approved, approved offline or a refund received to decide later, 2 declined, 3 cancelled,
/// 1 failed).
enum PaymentOutput {
    /// The process exit code of a result's status.
    static func exitCode(_ status: PaymentStatus) -> Int32 {
        switch status {
        // A refund the gateway received and decides later: the request succeeded.
        case .approved, .approvedOffline, .pending: 0
        case .declined: 2
        case .cancelled: 3
        case .failed: 1
        }
    }

    /// Prints `result` (with the customer receipt when `receipt`), then ends with its exit
    /// code; exit 1 after an approval whose receipt did not print (`printFailure`, one line).
    static func finish(_ result: PaymentResult, json: Bool, receipt: Bool, printFailure: String? = nil) throws -> Never {
        if json {
            CLIOutput.line(Self.json(result))
        } else {
            CLIOutput.line(summary(result))
            if receipt { CLIOutput.line("\n" + result.customerReceipt) }
        }
        if let error = result.error, result.status == .failed {
            CLIOutput.error("error: \(error.message)")
        }
        if let printFailure {
            CLIOutput.error(printFailure)
            throw ExitCode(1)
        }
        throw ExitCode(exitCode(result.status))
    }

    /// One line: status, kind, amount, ids.
    static func summary(_ result: PaymentResult) -> String {
        let amount = result.status == .approved || result.status == .approvedOffline
            ? result.approvedAmount : result.requestedAmount
        var parts = [
            result.status.rawValue.uppercased(), result.kind.rawValue,
            Receipt.format(amount, result.currency),
        ]
        if result.tipAmount > 0 { parts.append("tip \(Receipt.format(result.tipAmount, result.currency))") }
        if let id = result.transactionID { parts.append(id.rawValue) }
        if let code = result.authorizationCode { parts.append("auth \(code)") }
        if let responseCode = result.responseCode, result.status != .approved {
            parts.append("response \(responseCode)")
        }
        if result.reversed { parts.append("reversed") }
        if let offlineID = result.offlineID { parts.append("stored \(offlineID.uuidString)") }
        return parts.joined(separator: "  ")
    }

    /// The result as one JSON object with sorted, always-present keys (null when unknown).
    static func json(_ result: PaymentResult) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(JSONResult(result)) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The JSON shape of a result. Amounts are minor units.
    struct JSONResult: Encodable {
        let result: PaymentResult

        init(_ result: PaymentResult) { self.result = result }

        private enum Keys: String, CodingKey {
            case status, kind, requestedAmount, approvedAmount, currency, transactionID, idempotencyKey
            case authorizationCode, responseCode, cvm, entryMode, maskedPAN, scheme, pinVerified, reversed
            case recovered, error, date, offlineID
            case batchID, acquirerMessage, cardholderName, expiryMonth, expiryYear, applicationPreferredName
            case authorizationResponseMessage, tipAmount, tipPercentage, totalAmount, accountType
        }

        private struct ErrorJSON: Encodable {
            let code: Int
            let message: String
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(result.status.rawValue, forKey: .status)
            try c.encode(result.kind.rawValue, forKey: .kind)
            try c.encode(result.requestedAmount, forKey: .requestedAmount)
            try c.encode(result.approvedAmount, forKey: .approvedAmount)
            try c.encode(result.currency.code, forKey: .currency)
            try c.encode(result.transactionID?.rawValue, forKey: .transactionID)
            try c.encode(result.idempotencyKey.rawValue, forKey: .idempotencyKey)
            try c.encode(result.authorizationCode, forKey: .authorizationCode)
            try c.encode(result.responseCode, forKey: .responseCode)
            try c.encode(result.cvm?.rawValue, forKey: .cvm)
            try c.encode(result.entryMode?.rawValue, forKey: .entryMode)
            try c.encode(result.maskedPAN, forKey: .maskedPAN)
            try c.encode(result.scheme, forKey: .scheme)
            try c.encode(result.pinVerified, forKey: .pinVerified)
            try c.encode(result.reversed, forKey: .reversed)
            try c.encode(result.recovered, forKey: .recovered)
            try c.encode(result.error.map { ErrorJSON(code: $0.code, message: $0.message) }, forKey: .error)
            try c.encode(ISO8601DateFormatter().string(from: result.date), forKey: .date)
            try c.encode(result.offlineID?.uuidString, forKey: .offlineID)
            try c.encode(result.batchID, forKey: .batchID)
            try c.encode(result.acquirerMessage, forKey: .acquirerMessage)
            try c.encode(result.cardholderName, forKey: .cardholderName)
            try c.encode(result.expiryMonth, forKey: .expiryMonth)
            try c.encode(result.expiryYear, forKey: .expiryYear)
            try c.encode(result.emv?.applicationPreferredName, forKey: .applicationPreferredName)
            try c.encode(result.authorizationResponseMessage, forKey: .authorizationResponseMessage)
            try c.encode(result.tipAmount, forKey: .tipAmount)
            try c.encode(result.tipPercentage, forKey: .tipPercentage)
            try c.encode(result.totalAmount, forKey: .totalAmount)
            try c.encode(result.emv?.accountType.map(AccountTypeArgument.name(of:)), forKey: .accountType)
        }
    }
}
