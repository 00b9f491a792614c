import Foundation
import TerminalAPI
import Testing

/// The public Adyen messages in Fixtures/ (see Fixtures/README.md), each with what it is: a
/// whole request or response, or one structure of a message.
enum Fixture {
    /// How a fixture is read.
    enum Kind {
        case request
        case response
        /// A `Reject` notification: well formed as a request, refused where a response is due.
        case rejection
        case fragment(any Decodable.Type)
    }

    static let root = "Fixtures"

    /// Every fixture file, relative to Fixtures/.
    static func allFiles() throws -> [String] {
        let base = try #require(Bundle.module.url(forResource: root, withExtension: nil))
        var files: [String] = []
        for folder in ["adyen-java-api-library", "adyen-mock-terminal-api"] {
            let names = try FileManager.default.contentsOfDirectory(
                atPath: base.appendingPathComponent(folder).path)
            files += names.filter { $0.hasSuffix(".json") }.map { "\(folder)/\($0)" }
        }
        return files.sorted()
    }

    static func data(_ file: String) throws -> Data {
        let base = try #require(Bundle.module.url(forResource: root, withExtension: nil))
        return try Data(contentsOf: base.appendingPathComponent(file))
    }

    /// Whether the fixture README names the file as deliberately malformed.
    static func isMalformed(_ file: String) -> Bool {
        let name = (file as NSString).lastPathComponent
        return name.contains("-missing-") || name.contains("-wrong-case") || name.contains("-error-empty")
            || name.hasPrefix("notification__invalidJsonObject")
    }

    /// What each file holds.
    static func kind(_ file: String) -> Kind {
        let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        if name == "payment-sync-error-empty" || name.hasPrefix("notification__invalidJsonObject") {
            return .rejection
        }
        if file.hasPrefix("adyen-mock-terminal-api/") {
            return name.hasSuffix("Request") ? .request : .response
        }
        switch name {
        case _ where name.hasPrefix("abort-request"): return .fragment(AbortRequest.self)
        case _ where name.hasPrefix("authenticated-data"): return .fragment(AuthenticatedData.self)
        case "display-request": return .fragment(DisplayRequest.self)
        case _ where name.hasPrefix("event-notification"): return .fragment(EventNotification.self)
        case "login-request": return .fragment(LoginRequest.self)
        case "message-header": return .fragment(MessageHeader.self)
        case "message-reference": return .fragment(MessageReference.self)
        case _ where name.hasPrefix("sale-terminal-data"): return .fragment(SaleTerminalData.self)
        case _ where name.hasPrefix("sale-to-poi-response"): return .fragment(SaleToPOIResponse.self)
        default: return .response
        }
    }

    /// The field each malformed file must be refused for, with the refusal's code.
    static let refusals: [String: (NexoError.Code, String)] = [
        "abort-request-missing-abort-reason": (.missingField, "AbortReason"),
        "abort-request-missing-message-reference": (.missingField, "MessageReference"),
        "authenticated-data-missing-encapsulated-content": (.missingField, "EncapsulatedContent"),
        "authenticated-data-missing-mac-algorithm": (.missingField, "MACAlgorithm"),
        "authenticated-data-missing-mac": (.missingField, "MAC"),
        "authenticated-data-missing-version": (.missingField, "Version"),
        // Keys are checked in sorted order; "KeyTransportOrKEK" sorts before the lowercase ones.
        "authenticated-data-wrong-case": (.wrongCase, "keyTransportOrKEK"),
        "event-notification-missing-event-to-notify": (.missingField, "EventToNotify"),
        "event-notification-missing-timestamp": (.missingField, "TimeStamp"),
        "sale-to-poi-response-missing-message-header": (.missingField, "MessageHeader"),
        "payment-sync-error-empty": (.rejected, "SaleToPOIRequest.EventNotification"),
        "notification__invalidJsonObjectNotificationResponse": (
            .rejected, "SaleToPOIRequest.EventNotification"
        ),
    ]

    /// Decodes a fixture as its kind says, returning the value re-encoded.
    static func decodeAndEncode(_ file: String) throws -> Data {
        let data = try data(file)
        switch kind(file) {
        case .request, .rejection: return NexoCoder.encode(try NexoCoder.decodeRequest(data))
        case .response: return NexoCoder.encode(try NexoCoder.decodeResponse(data))
        case .fragment(let type): return try reencode(type, data)
        }
    }

    /// Decodes a structure and encodes it again (every Terminal API type is Codable).
    static func reencode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> Data {
        let value = try NexoCoder.decode(type, from: data)
        let encodable = try #require(value as? any Encodable)
        return NexoCoder.encodeValue(encodable)
    }
}
