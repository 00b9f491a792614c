/// The troubles the TSM seed lists under "Troubleshooting Common Errors", seen after updates.
/// The terminal detects the two it can see (``isDetectable``) and reports them in
/// ``TerminalUpdates/troubles``; the others show only on the reader's screen.
public enum UpdateTrouble: String, Sendable, Hashable, CaseIterable {
    /// The reader keeps rebooting: the same update restarted it again and again without staying
    /// installed (it fails to boot, or falls back to the old image after it was confirmed).
    case keepsRebooting
    /// The reader starts in its low-level (LLT) mode.
    case loadsInLLTMode
    /// The reader starts, but its text is distorted or absent.
    case distortedOrAbsentText
    /// The reader starts with a blank default screen.
    case blankDefaultScreen
    /// The reader starts showing "Waiting for download…" with file names and versions.
    case waitingForDownload
    /// The reader starts correctly, but every transaction declines before it asks for a card.
    case decliningBeforeCardPrompt

    /// The symptom, as the seed words it.
    public var symptom: String {
        switch self {
        case .keepsRebooting: "The terminal keeps rebooting."
        case .loadsInLLTMode: "The terminal starts in its LLT (local load) mode."
        case .distortedOrAbsentText:
            "The terminal starts, but its text is garbled or missing."
        case .blankDefaultScreen: "The terminal starts on an empty home screen."
        case .waitingForDownload:
            "The terminal starts and shows 'Waiting for download…' with file names and versions."
        case .decliningBeforeCardPrompt:
            "Terminal loads correctly, but all transactions are declining before prompting for a card."
        }
    }

    /// What to do, the same for each as the seed says.
    public var advice: String {
        "Direct the merchant to contact your technical support, who should then contact the payment "
            + "provider's support for further assistance if needed."
    }

    /// Whether the terminal can see it for itself (the others only show on the reader's screen).
    public var isDetectable: Bool { self == .keepsRebooting || self == .decliningBeforeCardPrompt }
}
