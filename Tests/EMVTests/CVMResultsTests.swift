import EMV
import Testing

@Suite(.timeLimit(.minutes(2)))
struct CVMResultsTests {
    @Test func signatureAlwaysSuccessfulFor1E0002() throws {
        let results = try CVMResults([0x1E, 0x00, 0x02])
        #expect(results.method == .signature)
        #expect(results.condition == .always)
        #expect(results.result == .successful)
        #expect(results.statements == ["CVM performed: Signature (paper)", "Condition: Always", "Result: successful"])
    }

    @Test func onlinePINIfSupportedUnknownFor420300() throws {
        let results = try CVMResults([0x42, 0x03, 0x00])
        #expect(results.method == .encipheredPINOnline)
        #expect(results.appliesNextRuleOnFailure)
        #expect(results.condition == .terminalSupportsCVM)
        #expect(results.result == .unknown)
        #expect(results.statements == [
            "CVM performed: Enciphered PIN verified online", "Condition: If terminal supports the CVM", "Result: unknown",
        ])
    }

    @Test func noCVMPerformedFor3F() throws {
        let results = try CVMResults([0x3F, 0x00, 0x01])
        #expect(results.method == .noCVMPerformed)
        #expect(results.result == .failed)
    }

    @Test func rejectsWrongLength() {
        #expect(throws: EMVValueError.wrongLength(expected: .fixed(3), got: 2)) { try CVMResults([0x1E, 0x00]) }
    }
}
