/// How the card's data reached the terminal.
///
/// The raw values are the case names and are stable: they appear in stored records and
/// on the wire.
public enum CardEntryMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The magnetic stripe was swiped.
    case magstripe
    /// The magnetic stripe was swiped after the chip could not be read (fallback); issuers
    /// treat this differently from an ordinary swipe.
    case magstripeFallback
    /// The chip was read in contact mode (card inserted).
    case chip
    /// The card or a device holding it was tapped (NFC).
    case contactless
    /// The card number was keyed in on the terminal.
    case manual
    /// The card was not present: card data came from a stored credential or another
    /// channel.
    case cardNotPresent
}
