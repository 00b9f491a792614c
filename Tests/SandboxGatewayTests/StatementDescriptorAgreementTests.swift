import GatewayAPI
import Testing

@testable import SandboxGateway

/// The SDK checks a statement descriptor with `GatewayValidation.statementDescriptorProblem`
/// before any I/O and the gateway builds the stored text with `PaymentRules.statementDescriptor`;
/// the two must agree on every input, or a payment the SDK let through fails at the gateway.
@Suite("Statement descriptor: SDK and gateway agree", .timeLimit(.minutes(2)))
struct StatementDescriptorAgreementTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var descriptor: String?
        var suffix: String?
        /// The text the gateway stores, `.some(nil)` for no descriptor, `nil` when refused.
        var stored: String??

        var testDescription: String {
            "\(descriptor.map { "\"\($0)\"" } ?? "nil") + \(suffix.map { "\"\($0)\"" } ?? "nil")"
        }
    }

    static let cases: [Case] = [
        Case(descriptor: "Coffee Shop", suffix: "Table 4", stored: "COFFEE SHOP* TABLE 4"),
        Case(descriptor: nil, suffix: nil, stored: .some(nil)),
        // 14 + "* " + 7 = 23 characters.
        Case(descriptor: "ABCDEFGHIJKLMN", suffix: "1234567", stored: nil),
        Case(descriptor: "ABCDEFGHIJKLMN", suffix: "123456", stored: "ABCDEFGHIJKLMN* 123456"),
        Case(
            descriptor: String(repeating: "A", count: 22), suffix: nil,
            stored: .some(String(repeating: "A", count: 22))),
        Case(descriptor: String(repeating: "A", count: 23), suffix: nil, stored: nil),
        Case(descriptor: nil, suffix: "Table 4", stored: nil),
        Case(descriptor: "", suffix: nil, stored: nil),
        Case(descriptor: "   ", suffix: nil, stored: nil),
        // An empty suffix is no suffix, with or without a descriptor.
        Case(descriptor: "Shop", suffix: "", stored: "SHOP"),
        Case(descriptor: nil, suffix: "", stored: .some(nil)),
        Case(descriptor: "12345", suffix: nil, stored: nil),
        Case(descriptor: "Joe's", suffix: nil, stored: nil),
        Case(descriptor: "A<B>", suffix: nil, stored: nil),
        Case(descriptor: "Shop", suffix: "say \"4\"", stored: nil),
        // Non-ASCII characters are stripped before any rule: no letter remains here.
        Case(descriptor: "ÄÖÜ", suffix: nil, stored: nil),
        Case(descriptor: "Ä 123", suffix: nil, stored: nil),
        Case(descriptor: "Café Shop", suffix: nil, stored: "CAF SHOP"),
        Case(descriptor: "Shop", suffix: "Ä", stored: "SHOP"),
        // 20 ASCII letters and 3 stripped ones fit; so do 20 letters between spaces.
        Case(descriptor: "ABCDEFGHIJKLMNOPQRSTÄÖÜ", suffix: nil, stored: "ABCDEFGHIJKLMNOPQRST"),
        Case(descriptor: "  ABCDEFGHIJKLMNOPQRST  ", suffix: nil, stored: "ABCDEFGHIJKLMNOPQRST"),
        Case(descriptor: "  Shop ", suffix: " Table 4 ", stored: "SHOP* TABLE 4"),
        // Control characters inside the text never reach a statement.
        Case(descriptor: "Shop\nLine", suffix: nil, stored: nil),
        Case(descriptor: "Shop", suffix: "Table\t4", stored: nil),
        Case(descriptor: "Shop\u{7F}", suffix: nil, stored: nil),
    ]

    @Test(arguments: cases)
    func theSDKAcceptsExactlyWhatTheGatewayStores(_ input: Case) {
        let problem = GatewayValidation.statementDescriptorProblem(input.descriptor, suffix: input.suffix)
        let gateway: Result<String?, PaymentRuleViolation> = Result { () throws(PaymentRuleViolation) in
            try PaymentRules.statementDescriptor(input.descriptor, suffix: input.suffix)
        }
        switch gateway {
        case .success(let stored):
            #expect(problem == nil, "the SDK refuses what the gateway stores as \(stored ?? "nil")")
            #expect(input.stored == .some(stored))
            #expect(GatewayValidation.statementDescriptor(input.descriptor, suffix: input.suffix) == stored)
        case .failure(let violation):
            #expect(problem != nil, "the SDK accepts what the gateway refuses: \(violation.message)")
            #expect(violation.reason == .invalidDescriptor)
            #expect(input.stored == nil, "refused: \(violation.message)")
        }
        if let problem {
            #expect(problem.contains("statementDescriptor"), "\(problem)")
        }
    }
}
