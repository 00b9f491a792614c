import SandboxCards

/// Faults the device layer injects into the simulated reader's link, as data: which message
/// to drop the link at, how long to delay, which frame to corrupt, when to reboot.
///
/// Message numbers count the reader's outgoing messages from 1 within a connection.
public struct FaultPlan: Sendable, Hashable {
    /// One fault.
    public enum Fault: Sendable, Hashable {
        /// Close the link instead of sending message `n`.
        case dropLink(atMessage: Int)
        /// Hold message `n` back for `delay` before sending it.
        case delay(atMessage: Int, by: Duration)
        /// Flip bits of message `n`'s frame (its authentication must then fail).
        case corruptFrame(atMessage: Int)
        /// Reboot instead of sending message `n`: the link drops and the reader loses its
        /// volatile state but keeps what a real reader keeps in flash.
        case reboot(atMessage: Int)
        /// Stop answering from message `n` on without closing the link.
        case stopResponding(fromMessage: Int)

        /// The message the fault applies to.
        public var message: Int {
            switch self {
            case .dropLink(let n), .delay(let n, _), .corruptFrame(let n), .reboot(let n),
                .stopResponding(let n):
                n
            }
        }
    }

    /// The faults, in any order.
    public var faults: [Fault]

    /// A plan.
    public init(_ faults: [Fault] = []) { self.faults = faults }

    /// No faults.
    public static let none = FaultPlan()

    /// The faults that apply to outgoing message `n` (and, for `stopResponding`, every later
    /// one).
    public func faults(forMessage n: Int) -> [Fault] {
        faults.filter { fault in
            if case .stopResponding(let from) = fault { return n >= from }
            return fault.message == n
        }
    }

    /// The plan for a sandbox link-error scenario (amounts 90.01–90.05). `authorizationMessage`
    /// is the number of the reader's message carrying the authorization request, and
    /// `completionMessage` the one carrying the final result.
    public static func forLinkError(
        _ error: SandboxScenario.LinkError, authorizationMessage: Int, completionMessage: Int
    ) -> FaultPlan {
        switch error {
        case .dropBeforeAuthorization: FaultPlan([.dropLink(atMessage: authorizationMessage)])
        case .dropAfterAuthorization: FaultPlan([.dropLink(atMessage: completionMessage)])
        case .corruptFrame: FaultPlan([.corruptFrame(atMessage: authorizationMessage)])
        case .readerReboot: FaultPlan([.reboot(atMessage: authorizationMessage)])
        case .readerUnresponsive: FaultPlan([.stopResponding(fromMessage: authorizationMessage)])
        }
    }
}
