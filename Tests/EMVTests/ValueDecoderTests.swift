import EMV
import Testing

@Suite(.timeLimit(.minutes(2)))
struct EMVDateTests {
    @Test func readsYYMMDDWithTheEMVCentury() throws {
        let date = try EMVDate([0x24, 0x03, 0x15])
        #expect(date.year == 2024 && date.month == 3 && date.day == 15)
        #expect(date.description == "2024-03-15")
        #expect(date.statements == ["15 March 2024 (2024-03-15)"])
        #expect(try EMVDate([0x99, 0x12, 0x31]).year == 1999)
        #expect(try EMVDate([0x49, 0x01, 0x01]).year == 2049)
    }

    @Test func rejectsImpossibleDatesAndBadDigits() throws {
        #expect(throws: EMVValueError.self) { try EMVDate([0x24, 0x13, 0x01]) }
        #expect(throws: EMVValueError.self) { try EMVDate([0x23, 0x02, 0x29]) }
        #expect(try EMVDate([0x24, 0x02, 0x29]).day == 29)
        #expect(throws: EMVValueError.invalidDigit(byteOffset: 1, byte: 0x1A)) { try EMVDate([0x24, 0x1A, 0x01]) }
    }
}

@Suite(.timeLimit(.minutes(2)))
struct EMVTimeTests {
    @Test func readsHHMMSS() throws {
        #expect(try EMVTime([0x14, 0x30, 0x05]).description == "14:30:05")
        #expect(throws: EMVValueError.self) { try EMVTime([0x24, 0x00, 0x00]) }
    }
}

@Suite(.timeLimit(.minutes(2)))
struct TransactionTypeTests {
    @Test func namesTheCommonCodes() throws {
        #expect(try TransactionType([0x00]).statements == ["Transaction type 00 goods and services"])
        #expect(try TransactionType([0x01]) == .cash)
        #expect(try TransactionType([0x09]).meaning == "goods and services with cashback")
        #expect(try TransactionType([0x20]) == .refund)
        #expect(try TransactionType([0x45]).description == "45 (not a known transaction type)")
    }
}

@Suite(.timeLimit(.minutes(2)))
struct EMVAmountTests {
    @Test func readsNumericAmountsAsMinorUnits() throws {
        let amount = try EMVAmount(numeric: [0x00, 0x00, 0x00, 0x01, 0x23, 0x45])
        #expect(amount.minorUnits == 12345)
        #expect(amount.formatted(exponent: 2) == "123.45")
        #expect(amount.formatted(exponent: 0) == "12345")
        #expect(amount.formatted(exponent: 3) == "12.345")
        #expect(EMVAmount(minorUnits: 5).formatted(exponent: 2) == "0.05")
        #expect(try EMVAmount(numeric: [0x99, 0x99, 0x99, 0x99, 0x99, 0x99]).minorUnits == 999_999_999_999)
    }

    @Test func readsBinaryAmounts() throws {
        #expect(try EMVAmount(binary: [0x00, 0x00, 0x04, 0xD2]).minorUnits == 1234)
    }

    @Test func formatsWithTheCurrency() {
        let eur = ISO4217Numeric.currency(numericCode: 978)
        #expect(EMVAmount(minorUnits: 1234).formatted(currency: eur) == "12.34 EUR")
        #expect(EMVAmount(minorUnits: 1234).formatted(currency: nil) == "1234 minor units")
    }

    @Test func rejectsNonBCDNibbles() {
        #expect(throws: EMVValueError.invalidDigit(byteOffset: 5, byte: 0x0F)) {
            try EMVAmount(numeric: [0, 0, 0, 0, 0, 0x0F])
        }
    }
}

@Suite(.timeLimit(.minutes(2)))
struct CurrencyAndCountryCodeTests {
    @Test func namesCurrencies() throws {
        let euro = try CurrencyCode([0x09, 0x78])
        #expect(euro.numericCode == 978)
        #expect(euro.currency?.code == "EUR")
        #expect(euro.statements == ["EUR (Euro), numeric 978, 2 minor units"])
        #expect(try CurrencyCode([0x00, 0x36]).statements.first?.hasPrefix("AUD") == true)
        #expect(try CurrencyCode([0x00, 0x01]).statements == ["Currency 001 is not an ISO 4217 currency"])
    }

    @Test func namesCountries() throws {
        #expect(try CountryCode([0x08, 0x26]).statements == ["GB (United Kingdom), numeric 826"])
        #expect(try CountryCode([0x00, 0x40]).country?.alpha2 == "AT")
        #expect(throws: EMVValueError.self) { try CountryCode([0x08, 0x2F]) }
    }
}
