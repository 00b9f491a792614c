/// What the reader part tells the rest of the terminal. The link publishes each piece of news
/// on ``CardReaderLink/news`` and waits until it is taken in: the facade (``PaymentTerminal``)
/// takes it and passes it to the parts it concerns, and its answer comes back to the link.
enum ReaderLinkNews: Sendable, Equatable {
    /// A reader paired and was admitted (by the app's connect, a reconnection or an update's
    /// restart), with its description when it gave one.
    case paired(DeviceInfo?)
    /// The app's connect paired: what the terminal does before the connect returns (updates
    /// on connect). A failure fails the connect.
    case connectedByApp
    /// The app let the reader go, or is replacing it.
    case letGo
}

/// One piece of the reader part's news, with where its taker answers.
struct ReaderLinkMessage: Sendable {
    let news: ReaderLinkNews
    private let taken: CheckedContinuation<Result<Void, MPOSError>, Never>

    init(_ news: ReaderLinkNews, taken: CheckedContinuation<Result<Void, MPOSError>, Never>) {
        self.news = news
        self.taken = taken
    }

    /// Answers the link, which goes on (a failure fails an app's connect).
    func taken(_ result: Result<Void, MPOSError> = .success(())) { taken.resume(returning: result) }
}
