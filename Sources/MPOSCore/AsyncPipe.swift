#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An unbounded queue from any number of producers to a consumer that awaits: what
/// `AsyncStream` does between MPOSKit's own actors (reader bytes, reader messages, the
/// payment engine's inbox), written so that it specializes.
///
/// `AsyncStream`'s storage is generic code in the standard library that is not specialized
/// for its element: every yield and every `next` looks type metadata up and goes through
/// witness tables. On a sale's path, where each reader message crosses several such hops,
/// that bookkeeping was about 7 % of the CPU of the whole sale (SDK, emulated reader and
/// gateway together; 3.5 % with this type). Everything here is inlinable, so each element
/// type gets its own code; it is public for that reason (inlinable `package` code was not
/// specialized across modules), and apps are welcome to it.
///
/// `next(isolation:)` resumes on the caller's actor, like `AsyncStream` iterated from an
/// actor: a loop on an actor costs no hop off it per element. An element yielded before
/// `finish()` is still delivered; `next` returns nil once the pipe is finished and empty, and
/// when the awaiting task is cancelled. Several tasks may wait at once; each element goes
/// to one of them, first come first served.
public final class AsyncPipe<Element: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property below is only touched with `mutex` held.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var buffer: [Element] = []
    /// Index of the first element in `buffer` not yet taken.
    @usableFromInline var head = 0
    @usableFromInline var waiters: [(id: UInt64, continuation: UnsafeContinuation<Element?, Never>)] = []
    @usableFromInline var nextWaiterID: UInt64 = 0
    @usableFromInline var finished = false
    /// How many elements the pipe keeps while nobody takes them; older ones are dropped.
    @usableFromInline let newest: Int

    /// An empty pipe.
    ///
    /// - Parameter limit: when set, the pipe keeps only the newest `limit` elements (at
    ///   least one) while nobody takes them, as `AsyncStream`'s `.bufferingNewest` does.
    @inlinable public init(keepingNewest limit: Int? = nil) {
        newest = max(1, limit ?? .max)
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Queues `element` for the consumer, or hands it to a consumer already waiting.
    /// Returns false, dropping it, once the pipe is finished.
    @inlinable @discardableResult
    public func yield(_ element: Element) -> Bool {
        pthread_mutex_lock(mutex)
        if finished {
            pthread_mutex_unlock(mutex)
            return false
        }
        if !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            pthread_mutex_unlock(mutex)
            waiter.continuation.resume(returning: element)
            return true
        }
        buffer.append(element)
        if buffer.count - head > newest { advanceHeadLocked() }
        pthread_mutex_unlock(mutex)
        return true
    }

    /// Ends the pipe: what is queued is still delivered, then `next` returns nil. Idempotent.
    @inlinable public func finish() {
        pthread_mutex_lock(mutex)
        finished = true
        let woken = waiters
        waiters = []
        pthread_mutex_unlock(mutex)
        for waiter in woken { waiter.continuation.resume(returning: nil) }
    }

    /// Whether `finish()` was called.
    @inlinable public var isFinished: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return finished
    }

    /// The next element, waiting for one if none is queued; nil once the pipe is finished
    /// and drained, or when the calling task is cancelled. Resumes on `actor`.
    @inlinable
    public func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
        pthread_mutex_lock(mutex)
        if let element = takeLocked() {
            pthread_mutex_unlock(mutex)
            return element
        }
        if finished {
            pthread_mutex_unlock(mutex)
            return nil
        }
        let id = nextWaiterID
        nextWaiterID &+= 1
        pthread_mutex_unlock(mutex)
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Element?, Never>) in
                pthread_mutex_lock(mutex)
                // Something may have arrived, or the pipe ended, since the check above.
                if let element = takeLocked() {
                    pthread_mutex_unlock(mutex)
                    continuation.resume(returning: element)
                } else if finished || Task.isCancelled {
                    pthread_mutex_unlock(mutex)
                    continuation.resume(returning: nil)
                } else {
                    waiters.append((id, continuation))
                    pthread_mutex_unlock(mutex)
                }
            }
        } onCancel: {
            pthread_mutex_lock(mutex)
            let index = waiters.firstIndex { $0.id == id }
            let cancelled = index.map { waiters.remove(at: $0) }
            pthread_mutex_unlock(mutex)
            cancelled?.continuation.resume(returning: nil)
        }
    }

    /// Takes the first queued element; the caller holds `mutex`.
    @inlinable func takeLocked() -> Element? {
        guard head < buffer.count else { return nil }
        let element = buffer[head]
        advanceHeadLocked()
        return element
    }

    /// Moves past the first queued element; the caller holds `mutex`.
    @inlinable func advanceHeadLocked() {
        head += 1
        if head == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= buffer.count {
            // A consumer that never quite catches up: drop the taken prefix now and then.
            buffer.removeFirst(head)
            head = 0
        }
    }

    /// The pipe as an `AsyncStream`, for public API that promises one. Each element goes to
    /// whichever reads first, this stream or `next`.
    public func stream() -> AsyncStream<Element> {
        AsyncStream(unfolding: { [self] in await next(isolation: nil) })
    }
}
