#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON coding conventions of the gateway API, shared by client and server.
///
/// Dates are written as ISO 8601 strings in UTC without fractional seconds
/// (`"2026-11-23T09:00:00Z"`) and read as any RFC 3339 date-time (``GatewayTimestamp``);
/// amounts are integers in minor units; enums are their case names; byte strings (EMV data,
/// encrypted card data, key serial numbers, issuer authentication data) are upper- or
/// lower-case hex strings.
public enum GatewayJSON {
    /// A new encoder: ISO 8601 dates, sorted keys (so equal values give equal bytes).
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A new decoder: RFC 3339 date-times, every field range-checked (``GatewayTimestamp``).
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = GatewayTimestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Not an RFC 3339 date-time (\"2026-11-23T09:00:00Z\") with fields in range")
            }
            return date
        }
        return decoder
    }

    /// One configured encoder for a whole process: configuring an encoder costs more than
    /// encoding a small value, and a configured one is safe to share.
    public static let encoder = makeEncoder()

    /// One configured decoder for a whole process, as ``encoder``.
    public static let decoder = makeDecoder()
}
