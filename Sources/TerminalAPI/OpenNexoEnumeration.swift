/// A nexo enumeration that Adyen extends: a value this version does not name decodes as
/// `.other(String)` instead of being refused, and encodes back unchanged.
public protocol OpenNexoEnumeration: RawRepresentable, Codable, Sendable, Hashable where RawValue == String {
    /// The case for a JSON value; never fails.
    init(rawValue: String)
}

extension OpenNexoEnumeration {
    /// Decodes the JSON string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
