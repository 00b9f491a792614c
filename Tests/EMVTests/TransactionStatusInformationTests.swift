import EMV
import Testing

@Suite(.timeLimit(.minutes(2)))
struct TransactionStatusInformationTests {
    @Test func explainsTheUsualContactChipTransaction() throws {
        let tsi = try TransactionStatusInformation([0xE8, 0x00])
        #expect(tsi.statements == [
            "Offline data authentication was performed",
            "Cardholder verification was performed",
            "Card risk management was performed",
            "Terminal risk management was performed",
        ])
        #expect(tsi.contains(.cardRiskManagementPerformed))
        #expect(!tsi.contains(.scriptProcessingPerformed))
    }

    @Test func namesReservedBits() throws {
        #expect(try TransactionStatusInformation([0x00, 0x01]).statements
            == ["Byte 2 bit 1 is set but is reserved for future use"])
    }

    @Test func rejectsWrongLength() {
        #expect(throws: EMVValueError.wrongLength(expected: .fixed(2), got: 1)) {
            try TransactionStatusInformation([0xE8])
        }
    }
}
