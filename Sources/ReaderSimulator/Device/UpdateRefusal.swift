import MPOSCore

/// A refusal an update step meets on purpose: a reader whose flash fails, or one that explains
/// itself in other words, to test that the SDK goes by the status code alone.
public struct UpdateRefusal: Sendable, Hashable {
    /// The update request refused.
    public enum Step: Sendable, Hashable {
        case begin, chunk, verify, commit
    }

    /// The request refused.
    public var step: Step
    /// The status of the `error` answer.
    public var status: ReaderStatusCode
    /// The detail text of the `error` answer.
    public var detail: String
    /// How many requests of that step are refused before the reader answers as usual again;
    /// nil refuses every one.
    public var times: Int?

    /// A refusal of `times` requests of `step` (every one when nil).
    public init(_ step: Step, status: ReaderStatusCode, detail: String, times: Int? = nil) {
        self.step = step
        self.status = status
        self.detail = detail
        self.times = times
    }
}
