import EMV
import Testing

@Suite(.timeLimit(.minutes(2)))
struct ApplicationInterchangeProfileTests {
    @Test func readsSupportedFunctions() throws {
        let aip = try ApplicationInterchangeProfile([0x39, 0x00])  // DDA, CVM, TRM, CDA
        #expect(aip.flags == [.ddaSupported, .cardholderVerificationSupported, .terminalRiskManagementRequired, .cdaSupported])
        #expect(aip.statements == [
            "DDA supported", "Cardholder verification is supported", "Terminal risk management is to be performed",
            "CDA supported",
        ])
    }

    @Test func readsContactlessBitsAndReservedBits() throws {
        let aip = try ApplicationInterchangeProfile([0x00, 0x81])
        #expect(aip.contains(.emvModeSupported))
        #expect(aip.contains(.relayResistanceProtocolSupported))
        #expect(try ApplicationInterchangeProfile([0x80, 0x00]).statements
            == ["Byte 1 bit 8 is set but is reserved for future use"])
    }
}

@Suite(.timeLimit(.minutes(2)))
struct ApplicationUsageControlTests {
    @Test func readsUsageRestrictions() throws {
        let auc = try ApplicationUsageControl([0xFF, 0xC0])
        #expect(auc.flags.count == 10)
        #expect(auc.statements.first == "Valid for domestic cash transactions")
        #expect(auc.statements.last == "International cashback allowed")
        #expect(try ApplicationUsageControl([0x3D, 0x00]).contains(.atms) == false)
    }
}

@Suite(.timeLimit(.minutes(2)))
struct TerminalCapabilitiesTests {
    @Test func readsAnAttendedPOSProfile() throws {
        let caps = try TerminalCapabilities([0xE0, 0xF8, 0xC8])
        #expect(caps.statements == [
            "Card data input: manual key entry", "Card data input: magnetic stripe", "Card data input: IC with contacts",
            "CVM: plaintext PIN for ICC verification", "CVM: enciphered PIN for online verification",
            "CVM: signature (paper)", "CVM: enciphered PIN for offline verification", "CVM: no CVM required",
            "Security: SDA", "Security: DDA", "Security: CDA",
        ])
    }
}

@Suite(.timeLimit(.minutes(2)))
struct AdditionalTerminalCapabilitiesTests {
    @Test func readsTransactionTypesAndCodeTables() throws {
        let caps = try AdditionalTerminalCapabilities([0x60, 0x00, 0xF0, 0xA0, 0x01])
        #expect(caps.contains(.goods))
        #expect(caps.contains(.services))
        #expect(caps.contains(.printAttendant))
        #expect(caps.codeTables == [1])
        #expect(caps.statements.count == 9)
        #expect(caps.statements.last == "Data output: code table 1")
    }
}

@Suite(.timeLimit(.minutes(2)))
struct CryptogramInformationDataTests {
    @Test func readsCryptogramTypes() throws {
        #expect(try CryptogramInformationData([0x80]).cryptogramType == .arqc)
        #expect(try CryptogramInformationData([0x40]).cryptogramType == .tc)
        #expect(try CryptogramInformationData([0x00]).cryptogramType == .aac)
        #expect(try CryptogramInformationData([0x80]).statements
            == ["Authorisation Request Cryptogram (ARQC): online authorisation requested"])
    }

    @Test func readsAdviceAndReason() throws {
        let cid = try CryptogramInformationData([0x0A])
        #expect(cid.adviceRequired)
        #expect(cid.reason == .pinTryLimitExceeded)
        #expect(cid.statements == [
            "Application Authentication Cryptogram (AAC): declined by the card", "Advice required",
            "Reason: PIN Try Limit exceeded",
        ])
    }
}

@Suite(.timeLimit(.minutes(2)))
struct TerminalTypeTests {
    @Test func attendedMerchantOfflineWithOnline() throws {
        let type = try TerminalType([0x22])
        #expect(type.operatedBy == .merchant)
        #expect(type.attended)
        #expect(type.connectivity == .offlineWithOnlineCapability)
        #expect(type.statements == ["Attended, offline with online capability, operated by merchant"])
    }

    @Test func unattendedCardholderOnlineOnly() throws {
        #expect(try TerminalType([0x34]).statements == ["Unattended, online only, operated by cardholder"])
        #expect(try TerminalType([0x16]).statements == ["Unattended, offline only, operated by financial institution"])
    }

    @Test func rejectsUndefinedAndNonDecimalCodes() {
        #expect(throws: EMVValueError.invalidValue("terminal type 27 is not defined")) { try TerminalType([0x27]) }
        #expect(throws: EMVValueError.invalidDigit(byteOffset: 0, byte: 0x2A)) { try TerminalType([0x2A]) }
    }
}
