import Foundation

/// Reads and writes Terminal API messages in Adyen's JSON dialect.
///
/// ```swift
/// let request = try NexoCoder.decodeRequest(data)   // {"SaleToPOIRequest": {…}}
/// let reply = try NexoCoder.encode(response)         // {"SaleToPOIResponse": {…}}
/// ```
///
/// Unknown fields are ignored. A missing mandatory field, a field name in the wrong case, a
/// wrong JSON type or an unknown value of a closed enumeration is refused with a `NexoError`
/// whose condition is `MessageFormat` and whose `field` is the JSON path, such as
/// `SaleToPOIRequest.MessageHeader.ServiceID`.
public enum NexoCoder {
    /// Decodes `{"SaleToPOIRequest": {…}}` and checks the message's shape: a header, and either
    /// exactly one body matching the header's category or `NexoBlob` with `SecurityTrailer`.
    ///
    /// - Throws: `NexoError` naming the field at fault.
    public static func decodeRequest(_ data: Data) throws(NexoError) -> SaleToPOIRequest {
        let message = try decode(RequestEnvelope.self, from: data).saleToPOIRequest
        try MessageShape.check(message)
        return message
    }

    /// Decodes `{"SaleToPOIResponse": {…}}` and checks the message's shape as
    /// `decodeRequest` does.
    ///
    /// - Throws: `NexoError`; `.rejected` when the terminal answered with a `Reject` event
    ///   notification (it could not read the request), carrying the terminal's reason.
    public static func decodeResponse(_ data: Data) throws(NexoError) -> SaleToPOIResponse {
        if let rejection = try rejection(in: data) { throw rejection }
        let message = try decode(ResponseEnvelope.self, from: data).saleToPOIResponse
        try MessageShape.check(message)
        return message
    }

    /// Encodes a request as `{"SaleToPOIRequest": {…}}`.
    public static func encode(_ request: SaleToPOIRequest) -> Data {
        encodeValue(RequestEnvelope(saleToPOIRequest: request))
    }

    /// Encodes a response as `{"SaleToPOIResponse": {…}}`.
    public static func encode(_ response: SaleToPOIResponse) -> Data {
        encodeValue(ResponseEnvelope(saleToPOIResponse: response))
    }

    /// Decodes any Terminal API structure (a header, a body, a fragment) with the same rules
    /// as whole messages; the field paths start at the structure.
    ///
    /// - Throws: `NexoError` naming the field at fault.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(NexoError) -> T {
        let raw: Any
        do {
            raw = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw NexoError(.notJSON, message: "not JSON")
        }
        guard raw is [String: Any] else { throw NexoError(.notJSON, message: "not a JSON object") }
        try FieldCasing.check(raw, path: [])
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw DecodingErrorMapping.nexoError(error)
        } catch let error as NexoError {
            throw error
        } catch {
            throw NexoError(.invalidValue, message: "\(error)")
        }
    }

    /// Encodes any Terminal API structure with sorted keys, so equal values give equal bytes.
    public static func encodeValue<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The types hold strings, booleans, integers and finite decimals only: encoding cannot fail.
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    /// A `Reject` notification where a response was expected, as the error it stands for.
    private static func rejection(in data: Data) throws(NexoError) -> NexoError? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["SaleToPOIRequest"] != nil
        else { return nil }
        let notification = try decode(RequestEnvelope.self, from: data).saleToPOIRequest
        guard let event = notification.eventNotification else {
            throw NexoError(
                .bodyMismatch, field: "SaleToPOIRequest", message: "a request where a response was expected")
        }
        let details = event.eventDetails.map { KeyValueText(text: $0) }
        let reason = details?.value("message") ?? event.eventDetails ?? "no details"
        return NexoError(
            .rejected, field: "SaleToPOIRequest.EventNotification",
            message: "the terminal rejected the message (\(event.eventToNotify.rawValue)): \(reason)")
    }
}

/// `{"SaleToPOIRequest": {…}}`.
struct RequestEnvelope: Codable, Sendable {
    var saleToPOIRequest: SaleToPOIRequest
    enum CodingKeys: String, CodingKey { case saleToPOIRequest = "SaleToPOIRequest" }
}

/// `{"SaleToPOIResponse": {…}}`.
struct ResponseEnvelope: Codable, Sendable {
    var saleToPOIResponse: SaleToPOIResponse
    enum CodingKeys: String, CodingKey { case saleToPOIResponse = "SaleToPOIResponse" }
}
