import MPOSCore

extension ReaderConnection {
    /// Where the answers of a window of requests go, each with its request id.
    typealias WindowSink = AsyncStream<(UInt32, Result<ReaderMessage, ReaderLinkError>)>.Continuation

    /// Sends `messages` in order, keeping up to `window` of them unanswered, and returns their
    /// answers in the same order: a transfer does not wait a round trip per piece. The reader
    /// handles a link's requests in order, so a pipelined request is answered as if sent alone.
    ///
    /// An `.error` answer to any of them throws `.rejected` (the rest are abandoned: their late
    /// answers are ignored); so does a timeout or a closed link, as for ``request(_:)``.
    /// `timeout` applies to each request (the link's own when nil); `onAnswer` sees each answer,
    /// in order, as soon as it and those before it have come (for progress).
    public func requestWindowed(
        _ messages: [ReaderMessage], window: Int, timeout: Duration? = nil,
        onAnswer: (@Sendable (_ index: Int, _ answer: ReaderMessage) -> Void)? = nil
    ) async throws(ReaderLinkError) -> [ReaderMessage] {
        let (answers, sink) = AsyncStream.makeStream(of: (UInt32, Result<ReaderMessage, ReaderLinkError>).self)
        var ids: [UInt32] = []
        var arrived: [UInt32: Result<ReaderMessage, ReaderLinkError>] = [:]
        var collected: [ReaderMessage] = []
        collected.reserveCapacity(messages.count)
        var iterator = answers.makeAsyncIterator()
        do throws(ReaderLinkError) {
            while collected.count < messages.count {
                while ids.count < messages.count, ids.count - collected.count < max(1, window) {
                    ids.append(try sendInWindow(messages[ids.count], to: sink, timeout: timeout))
                }
                guard let (id, result) = await iterator.next(isolation: self) else { throw closeReason ?? .linkClosed }
                arrived[id] = result
                while collected.count < ids.count, let result = arrived.removeValue(forKey: ids[collected.count]) {
                    switch result {
                    case .success(.error(let status, let detail)): throw ReaderLinkError.rejected(status, detail: detail)
                    case .success(let answer):
                        onAnswer?(collected.count, answer)
                        collected.append(answer)
                    case .failure(let error): throw error
                    }
                }
            }
        } catch {
            abandonWindow(ids.dropFirst(collected.count))
            sink.finish()
            throw error
        }
        sink.finish()
        return collected
    }
}
