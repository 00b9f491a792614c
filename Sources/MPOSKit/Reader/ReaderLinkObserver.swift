/// What the reader part tells the rest of the terminal. The facade (``PaymentTerminal``)
/// implements it and passes each word on to the part it concerns.
protocol ReaderLinkObserver: AnyObject, Sendable {
    /// A reader paired and was admitted (by the app's connect, a reconnection or an update's
    /// restart), with its description when it gave one.
    func readerPaired(_ info: DeviceInfo?) async
    /// The app's connect paired; what the terminal does before the connect returns (updates
    /// on connect). Throwing fails the connect.
    func readerConnectedByApp() async throws(MPOSError)
    /// The app let the reader go, or is replacing it.
    func readerLetGo() async
}
