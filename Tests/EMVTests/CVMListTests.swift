import EMV
import Testing

@Suite(.timeLimit(.minutes(2)))
struct CVMListTests {
    // X = 0, Y = 0; 42 03: online PIN if supported, else next; 5E 03: signature if supported,
    // else next; 1F 03: no CVM if supported, else fail.
    let typical: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0x42, 0x03, 0x5E, 0x03, 0x1F, 0x03]

    @Test func readsAmountsAndRulesInOrder() throws {
        let list = try CVMList(typical)
        #expect(list.amountX == 0)
        #expect(list.amountY == 0)
        #expect(list.rules.map(\.method) == [.encipheredPINOnline, .signature, .noCVMRequired])
        #expect(list.rules.allSatisfy { $0.condition == .terminalSupportsCVM })
        #expect(list.rules.map(\.appliesNextRuleOnFailure) == [true, true, false])
    }

    @Test func statesEachRuleAsASentence() throws {
        let list = try CVMList(typical)
        #expect(list.statements.dropFirst(2) == [
            "Enciphered PIN verified online, if terminal supports the CVM; if unsuccessful, apply the next rule",
            "Signature (paper), if terminal supports the CVM; if unsuccessful, apply the next rule",
            "No CVM required, if terminal supports the CVM; if unsuccessful, fail cardholder verification",
        ])
    }

    @Test func ruleWithoutBit7FailsVerification() {
        let rule = CardholderVerificationRule(methodByte: 0x01, conditionByte: 0x00)
        #expect(rule.statement() == "Plaintext PIN verification performed by ICC, always; if unsuccessful, fail cardholder verification")
    }

    @Test func amountConditionsNameXAndY() throws {
        // X = 5000, Y = 10000; 44 06: offline enciphered PIN if under X; 5E 09: signature if over Y.
        let bytes: [UInt8] = [0, 0, 0x13, 0x88, 0, 0, 0x27, 0x10, 0x44, 0x06, 0x5E, 0x09]
        let list = try CVMList(bytes)
        #expect(list.amountX == 5000)
        #expect(list.amountY == 10000)
        let money = list.statements(currencyExponent: 2, currencyCode: "EUR")
        #expect(money[0] == "Amount X is 50.00 EUR")
        #expect(money[1] == "Amount Y is 100.00 EUR")
        #expect(money[2] == "Enciphered PIN verification performed by ICC, if transaction is in the application currency and is under X (50.00 EUR); if unsuccessful, apply the next rule")
        #expect(money[3] == "Signature (paper), if transaction is in the application currency and is over Y (100.00 EUR); if unsuccessful, apply the next rule")
    }

    @Test func decodesEveryConditionCode() {
        let phrases = (0...9).map { CVMCondition(code: UInt8($0)).phrase() }
        #expect(Set(phrases).count == 10)
        #expect(CVMCondition(code: 0x0A) == .reserved(0x0A))
        #expect(CVMCondition(code: 0x80) == .paymentSystem(0x80))
    }

    @Test func classifiesMethodRanges() {
        #expect(CardholderVerificationMethod(code: 0x00) == .failCVMProcessing)
        #expect(CardholderVerificationMethod(code: 0x45) == .encipheredPINByICCAndSignature)
        #expect(CardholderVerificationMethod(code: 0x03) == .plaintextPINByICCAndSignature)
        #expect(CardholderVerificationMethod(code: 0x21) == .paymentSystem(0x21))
        #expect(CardholderVerificationMethod(code: 0x30) == .issuer(0x30))
        #expect(CardholderVerificationMethod(code: 0x06) == .reserved(0x06))
    }

    @Test func rejectsShortListsAndOddRules() throws {
        #expect(throws: EMVValueError.wrongLength(expected: .range(8...252), got: 3)) { try CVMList([1, 2, 3]) }
        #expect(throws: EMVValueError.self) { try CVMList([0, 0, 0, 0, 0, 0, 0, 0, 0x1F]) }
        #expect(try CVMList([0, 0, 0, 0, 0, 0, 0, 0]).statements.last == "The list holds no CV Rules")
    }
}
