import MPOSCore

extension FinancialStatus {
    /// Whether money was approved (fully or in part).
    var isApproval: Bool { self == .approved || self == .partiallyApproved }
}
