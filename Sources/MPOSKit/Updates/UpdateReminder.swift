import Foundation

/// The reminder the TSM seed suggests showing the merchant each time the terminal checks and
/// finds updates pending: its message, and the two choices with what each should do.
///
/// ```swift
/// if let reminder = try await terminal.updates.check().reminder {
///     // Show reminder.message with a button per choice (choice.title).
///     if merchantChose == .beginUpdatesNow { _ = terminal.updates.respond(to: .beginUpdatesNow) }
/// }
/// ```
public struct UpdateReminder: Sendable, Hashable {
    /// A button of the reminder.
    public enum Choice: String, Sendable, Hashable, CaseIterable {
        /// Install now (``TerminalUpdates/respond(to:)`` starts the update).
        case beginUpdatesNow
        /// Not now: the reminder comes again at the next check.
        case remindMeLater

        /// The button's text, as the seed suggests it.
        public var title: String {
            switch self {
            case .beginUpdatesNow: "Begin updates now"
            case .remindMeLater: "Remind me later"
            }
        }

        /// What the choice does and what to tell the merchant about it, after the seed.
        public var advice: String {
            switch self {
            case .beginUpdatesNow:
                "Begins the updates at once. They can take up to 30 minutes, so choose this only when "
                    + "the terminal can be out of use for about half an hour, and do not disrupt the "
                    + "terminal while it applies them: that could break it completely, and a new "
                    + "terminal would have to be sent."
            case .remindMeLater:
                "The reminder shows again each time the terminal checks for updates; offer a way to "
                    + "start the updates at any time too, such as a menu item."
            }
        }
    }

    /// The seed's suggested message.
    public static let message =
        "Terminal updates not installed by their deadline will result in a deactivation of your terminal. "
        + "Would you like to begin the updates?"

    /// The message to show (``message``).
    public var message: String { Self.message }
    /// The choices to offer, in the seed's order.
    public var choices: [Choice] { Choice.allCases }
    /// The deadline of the pending updates, when they have one.
    public var deadline: Date?
}
