import EMV
import Testing

@Suite(.timeLimit(.minutes(2)))
struct TerminalVerificationResultsTests {
    @Test func pinNotEnteredIsTheOnlyStatementFor0000080000() throws {
        let tvr = try TerminalVerificationResults([0x00, 0x00, 0x08, 0x00, 0x00])
        #expect(tvr.statements == ["PIN entry required, PIN pad present, but PIN was not entered"])
        #expect(tvr.contains(.pinNotEntered))
        #expect(tvr.flags == [.pinNotEntered])
    }

    @Test func allZeroBytesSayNothing() throws {
        #expect(try TerminalVerificationResults([0, 0, 0, 0, 0]).statements.isEmpty)
    }

    @Test func explainsEveryByteInBitOrder() throws {
        let tvr = try TerminalVerificationResults([0x80, 0x40, 0x80, 0x80, 0x40])
        #expect(tvr.statements == [
            "Offline data authentication was not performed",
            "Expired application",
            "Cardholder verification was not successful",
            "Transaction exceeds floor limit",
            "Issuer authentication failed",
        ])
    }

    @Test func everyBitSetNamesEachDefinedFlagAndEachReservedBit() throws {
        let tvr = try TerminalVerificationResults([0xFF, 0xFF, 0xFF, 0xFF, 0xFC])
        #expect(tvr.flags.count == TerminalVerificationResults.Flag.allCases.count)
        #expect(tvr.statements.contains("Byte 1 bit 1 is set but is reserved for future use"))
        #expect(tvr.statements.contains("Byte 2 bit 3 is set but is reserved for future use"))
        #expect(!tvr.statements.contains { $0.hasPrefix("Byte 5") })
    }

    @Test func readsTheRelayResistanceField() throws {
        let tvr = try TerminalVerificationResults([0, 0, 0, 0, 0x02])
        #expect(tvr.relayResistance == .performed)
        #expect(tvr.statements == ["Relay resistance protocol performed"])
    }

    @Test func flagPositionsFollowEMVNumbering() {
        #expect(TerminalVerificationResults.Flag.pinNotEntered.byte == 3)
        #expect(TerminalVerificationResults.Flag.pinNotEntered.bit == 4)
    }

    @Test func rejectsWrongLength() {
        #expect(throws: EMVValueError.wrongLength(expected: .fixed(5), got: 3)) {
            try TerminalVerificationResults([0, 0, 0])
        }
        #expect(EMVValueError.wrongLength(expected: .fixed(5), got: 3).description
            == "malformed: expected 5 bytes, got 3")
    }
}
