import Foundation
import Testing

/// Every payment command refuses every malformed value the same way, before it starts
/// anything: exit 1, one line on standard error, nothing on standard output.
@Suite(.timeLimit(.minutes(3))) struct MalformedArgumentTests {
    /// A valid command line of each payment command; its `1.00` is the amount a case replaces.
    static let commands: [[String]] = [
        ["sale", "--amount", "1.00"],
        ["authorize", "--amount", "1.00"],
        ["cash", "--amount", "1.00"],
        ["sepa", "--amount", "1.00"],
        ["refund", "--transaction", "txn_1", "--amount", "1.00"],
        ["capture", "--transaction", "txn_1", "--amount", "1.00"],
        ["tip", "--transaction", "txn_1", "--amount", "1.00"],
        ["void", "--transaction", "txn_1"],
    ]

    /// A malformed amount, as the user may type it.
    enum Amount: String, CaseIterable, Sendable {
        case negative = "-5.00"
        case attachedNegative = "=-5"
        case empty = ""
        case tooManyDecimals = "12.345"
        case words = "twelve"
    }

    /// The command line with its amount replaced by `amount`.
    static func replacingAmount(in command: [String], with amount: Amount) -> [String] {
        guard let index = command.firstIndex(of: "1.00") else { return command }
        var arguments = command
        if amount == .attachedNegative {
            arguments.replaceSubrange((index - 1)...index, with: ["--amount=-5"])
        } else {
            arguments[index] = amount.rawValue
        }
        return arguments
    }

    /// Options with a malformed value, each valid on every payment command.
    static let badOptions: [[String]] = [
        ["--gateway", "ftp://127.0.0.1:9"],
        ["--gateway", "not a url"],
        ["--secret", "zz"],
        ["--secret", ""],
        ["--reader", "nowhere"],
        ["--reader", "127.0.0.1:99999"],
        ["--currency", "XYZ"],
    ]

    static func expectRefused(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try EMVDecodeBinaryTests.run(arguments)
        #expect(run.status == 1, "\(arguments): exit \(run.status)", sourceLocation: sourceLocation)
        #expect(run.out.isEmpty, "\(arguments) printed: \(run.out)", sourceLocation: sourceLocation)
        let lines = run.err.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments) said: \(run.err)", sourceLocation: sourceLocation)
    }

    @Test(arguments: Amount.allCases) func everyCommandRefusesAMalformedAmount(_ amount: Amount) throws {
        for command in Self.commands where command.contains("1.00") {
            try Self.expectRefused(Self.replacingAmount(in: command, with: amount))
        }
    }

    @Test(arguments: 0..<badOptions.count) func everyCommandRefusesAMalformedOption(_ option: Int) throws {
        let bad = Self.badOptions[option]
        for command in Self.commands {
            // `void` takes no currency: the parser's refusal of an unknown option is the case there.
            try Self.expectRefused(command + bad)
        }
    }
}
