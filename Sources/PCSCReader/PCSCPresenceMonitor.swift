#if os(Linux)
    import Foundation
    import Synchronization

    /// Watches one PC/SC reader for cards coming and going (`SCardGetStatusChange`) on a thread
    /// of its own, since the call blocks, and reports whether a card is present: first as it
    /// stands, then at each change.
    final class PCSCPresenceMonitor: Sendable {
        private struct State {
            var stopped = false
            var context: SCARDCONTEXT?
        }

        private let readerName: String?
        private let continuation: AsyncStream<Bool>.Continuation
        private let state = Mutex(State())

        init(readerName: String?, continuation: AsyncStream<Bool>.Continuation) {
            self.readerName = readerName
            self.continuation = continuation
        }

        /// Watches until ``stop()``; meant for a thread of its own.
        func run() {
            var context: SCARDCONTEXT = 0
            guard
                PCSCStatus.code(SCardEstablishContext(PCSCStatus.scopeSystem, nil, nil, &context))
                    == PCSCStatus.success
            else { return continuation.finish() }
            let proceed = state.withLock { state -> Bool in
                state.context = context
                return !state.stopped
            }
            defer {
                state.withLock { $0.context = nil }
                SCardReleaseContext(context)
                continuation.finish()
            }
            guard proceed else { return }
            var known: DWORD = 0  // SCARD_STATE_UNAWARE: the first call answers at once.
            var present: Bool?
            while !state.withLock({ $0.stopped }) {
                guard let name = readerName ?? (try? PCSCCardTransport.readers())?.first else {
                    Thread.sleep(forTimeInterval: 0.5)
                    continue
                }
                var reader = SCARD_READERSTATE()
                reader.dwCurrentState = known
                let result = name.withCString { pointer -> LONG in
                    reader.szReader = pointer
                    return SCardGetStatusChange(context, 1_000, &reader, 1)
                }
                switch PCSCStatus.code(result) {
                case PCSCStatus.success:
                    known = reader.dwEventState & ~PCSCStatus.stateChanged
                    let now = reader.dwEventState & PCSCStatus.statePresent != 0
                    if now != present {
                        present = now
                        continuation.yield(now)
                    }
                case PCSCStatus.timeout:
                    continue
                default:
                    // Cancelled by stop(), or the reader went away: look again shortly.
                    if !state.withLock({ $0.stopped }) { Thread.sleep(forTimeInterval: 0.5) }
                    known = 0
                }
            }
        }

        /// Ends the watch: interrupts a waiting `SCardGetStatusChange`.
        func stop() {
            let context = state.withLock { state -> SCARDCONTEXT? in
                state.stopped = true
                return state.context
            }
            if let context { SCardCancel(context) }
        }
    }
#endif
