/// The one error type every MPOSKit module throws.
///
/// An `MPOSError` is a struct, not an enum, so modules can add codes without breaking
/// anyone's `switch`. Each error carries:
///
/// - `code`: a stable number that never changes meaning once released. The thousands
///   digit says who has to act; see ``Category`` for the ranges.
/// - `category`: derived from the code's range.
/// - `message`: for the developer and the logs.
/// - `customerMessage`: optional wording safe to show the customer or merchant on screen.
///
/// Errors compare equal, and hash, by code alone, so a specific error can be caught by
/// its constant or by its code:
///
/// ```swift
/// do {
///     let total = try Money.parse(input, currency: .eur)
/// } catch MPOSError.tooManyDecimals {
///     // ...
/// } catch let error where error.code == MPOSError.Code.amountOverflow {
///     // ...
/// } catch let error where error.category == .integration {
///     // ...
/// }
/// ```
///
/// ## No sensitive data
///
/// Messages are logged, shown and sent to support. They must never contain card data
/// (PAN, track data, expiry date, CVV, PIN or PIN blocks), cryptographic keys or shared
/// secrets, and should not echo raw user input, which may hold any of these. Describe the
/// problem instead: "3 decimal places where EUR allows 2", not the text that was typed.
/// Every module's error constructors follow this rule.
///
/// ## Defining codes in another module
///
/// Declare the code in ``Code`` and a constant next to it, inside the range of the
/// matching category. MPOSCore uses 1000 to 1099; pick a block of one hundred per module
/// within the range and keep it.
///
/// ```swift
/// extension MPOSError.Code {
///     public static let readerNotConnected = 3101
/// }
/// extension MPOSError {
///     public static let readerNotConnected = MPOSError(
///         code: Code.readerNotConnected,
///         message: "No card reader is connected.",
///         customerMessage: "Connect the card reader and try again.")
/// }
/// ```
public struct MPOSError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stable numeric code; its range gives the ``category``.
    public let code: Int

    /// What went wrong, for the developer and the logs. Never contains card data.
    public let message: String

    /// Wording that is safe and meaningful to show the customer or merchant, when there
    /// is any; `nil` for problems only a developer can act on.
    public let customerMessage: String?

    /// Creates an error. The category follows from the code's range, so a module can
    /// define its own codes; codes outside every range fall into ``Category/unassigned``.
    public init(code: Int, message: String, customerMessage: String? = nil) {
        self.code = code
        self.message = message
        self.customerMessage = customerMessage
    }

    /// Who is expected to act on the error, derived from ``code``.
    public var category: Category { Category(code: code) }

    /// Returns the same error (code and customer message) with a more specific developer
    /// message. The message must follow the no-sensitive-data rule.
    public func withMessage(_ message: String) -> MPOSError {
        MPOSError(code: code, message: message, customerMessage: customerMessage)
    }

    /// `MPOSError <code> (<category>): <message>`.
    public var description: String { "MPOSError \(code) (\(category.rawValue)): \(message)" }

    /// Two errors are equal when their codes are equal, whatever their messages.
    public static func == (lhs: MPOSError, rhs: MPOSError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
