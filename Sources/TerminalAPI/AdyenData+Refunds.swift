extension KeyValueData where Kind == AdditionalResponseKind {
    /// `acquirerResponseCode`: present when a refund was decided at once (synchronously); a
    /// refund only received, whose outcome comes later by webhook, has none.
    public var acquirerResponseCode: String? { self["acquirerResponseCode"] }
}
