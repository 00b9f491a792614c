extension KeyedDecodingContainer {
    /// A nexo boolean: JSON `true`/`false`, or the same words as a string in any case, which
    /// Adyen's mock terminal writes (`"OnlineFlag": "True"`). Anything else is refused.
    func decodeNexoFlag(forKey key: Key) throws -> Bool {
        if let flag = try? decode(Bool.self, forKey: key) { return flag }
        let text = try decode(String.self, forKey: key)
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default:
            throw DecodingError.typeMismatch(
                Bool.self,
                DecodingError.Context(
                    codingPath: codingPath + [key], debugDescription: "not a boolean"))
        }
    }

    /// `decodeNexoFlag` for an optional field.
    func decodeNexoFlagIfPresent(forKey key: Key) throws -> Bool? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeNexoFlag(forKey: key)
    }
}
