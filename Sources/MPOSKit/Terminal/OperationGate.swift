import MPOSCore
import Synchronization

/// The terminal's one busy rule: one operation at a time, whichever part starts it. A card
/// payment, a follow-up, a recovery, an update, a Terminal API request, a networked payment
/// and a forward the app asked for each hold the gate while they run, and every other is
/// refused with ``MPOSError/terminalBusy`` until it is let go.
///
/// The parts share the facade's gate (it is a reference, and thread-safe), so none of them
/// reads another part's flags to learn whether the terminal is free.
///
/// An operation that runs another inside it (a Terminal API Payment request runs a card
/// payment) does so through ``nested(in:isolation:_:)``: within it, `begin` grants the inner
/// operation without taking the gate again, and only to the task that holds it.
final class OperationGate: Sendable {
    /// What occupies the terminal.
    enum Operation: String, Sendable, Hashable, CaseIterable {
        case cardPayment, followUp, recovery, update
        case networkedPayment, networkedFollowUp
        case terminalAPIRequest, offlineForward
        case customerQuestion
    }

    /// One holding of the gate; letting it go twice, or after another took the gate, changes nothing.
    final class Hold: Sendable {
        let operation: Operation
        /// Whether this hold took the gate (false: it runs inside the operation that did).
        let isOuter: Bool

        init(_ operation: Operation, isOuter: Bool) {
            self.operation = operation
            self.isOuter = isOuter
        }
    }

    private let holder = Mutex<Hold?>(nil)

    /// The hold a task runs inside, and which task that is: set by ``nested(in:isolation:_:)``
    /// for its own task only, so that a task it starts (which inherits task-locals) gets no
    /// share of the hold.
    private struct Enclosure: Sendable {
        let hold: Hold
        let task: Int
    }

    @TaskLocal private static var enclosing: Enclosure?

    /// The running task's identity, while it runs.
    private static var currentTask: Int? { withUnsafeCurrentTask { $0?.hashValue } }

    /// The operation running, if any.
    var operation: Operation? { holder.withLock { $0?.operation } }

    /// Whether an operation runs.
    var isBusy: Bool { operation != nil }

    /// Takes the gate for `operation`.
    ///
    /// - Throws: ``MPOSError/terminalBusy`` while another operation holds it, unless the
    ///   calling task runs inside that operation (see ``nested(in:isolation:_:)``).
    func begin(_ operation: Operation) throws(MPOSError) -> Hold {
        let enclosing = Self.enclosing.flatMap { $0.task == Self.currentTask ? $0.hold : nil }
        return try holder.withLock { current throws(MPOSError) -> Hold in
            if let current {
                guard let enclosing, enclosing === current else { throw MPOSError.terminalBusy }
                return Hold(operation, isOuter: false)
            }
            let hold = Hold(operation, isOuter: true)
            current = hold
            return hold
        }
    }

    /// Lets the gate go, if `hold` still holds it.
    func end(_ hold: Hold) {
        guard hold.isOuter else { return }
        holder.withLock { current in
            if current === hold { current = nil }
        }
    }

    /// Runs `body` inside `hold`: the operations it begins run within it.
    func nested<Result>(
        in hold: Hold, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(MPOSError) -> Result
    ) async throws(MPOSError) -> Result {
        let enclosure = Self.currentTask.map { Enclosure(hold: hold, task: $0) }
        let outcome: Swift.Result<Result, MPOSError> = await Self.$enclosing.withValue(enclosure) {
            do throws(MPOSError) { return .success(try await body()) } catch { return .failure(error) }
        }
        return try outcome.get()
    }
}
