#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension GatewayValidation {
    /// The longest callback URL, in Unicode scalars (the webhook configuration's limit).
    public static let callbackURLMaximumLength = 2048

    /// The problem with a payment's callback URL, or `nil` when the gateway may post to it: an
    /// absolute `https` URL with a host, or `http` to a loopback host only (`localhost`,
    /// `127.0.0.1`, `::1`), so that a payment's details never cross a network in clear; no
    /// user or password in it (they would be stored and logged with the payment); at most
    /// ``callbackURLMaximumLength`` characters. The message never echoes the URL.
    public static func callbackURLProblem(_ text: String) -> String? {
        guard text.unicodeScalars.count <= callbackURLMaximumLength else {
            return "callbackURL has more than \(callbackURLMaximumLength) characters"
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            let host = url.host(percentEncoded: false), !host.isEmpty
        else { return "callbackURL must be an absolute URL with a host" }
        if url.user(percentEncoded: false) != nil || url.password(percentEncoded: false) != nil {
            return "callbackURL may not carry a user or password"
        }
        switch scheme {
        case "https": return nil
        case "http" where ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased()): return nil
        case "http": return "callbackURL must be https (http is allowed to a loopback host only)"
        default: return "callbackURL must be an https URL"
        }
    }
}
