import CardCrypto
import EMV
import Testing

/// Building the application cryptogram input from EMV data.
@Suite(.timeLimit(.minutes(2))) struct CryptogramInputTests {
    @Test func concatenatesValuesInBookTwoOrder() throws {
        let input = try CryptogramInput(values: EMVTestData.values)
        #expect(
            input.bytes
                == bytes(
                    "000000001234 000000000000 0250 0000008000 0978 250314 00 9BADBCAB 1800 002A 06010A03A00000"
                ))
        #expect(input.atc == 0x002A)
    }

    @Test func buildsTheSameInputFromATLVTree() throws {
        var children: [TLV] = []
        for (tag, value) in EMVTestData.values.sorted(by: { $0.key < $1.key }) {
            children.append(TLV(tag, value: value))
        }
        let encoded = try TLV(0x77, children: children).encoded()
        let tree = try TLVTree(decoding: encoded)
        #expect(try CryptogramInput(tree: tree) == CryptogramInput(values: EMVTestData.values))
    }

    @Test(arguments: CryptogramInput.layout.map(\.tag))
    func missingTagIsNamedInTheError(tag: EMVTag) {
        var values = EMVTestData.values
        values[tag] = nil
        do {
            _ = try CryptogramInput(values: values)
            Issue.record("expected an error for missing \(tag.hex)")
        } catch {
            #expect(error.kind == .missingDataElement)
            #expect(error.message.contains(tag.hex))
        }
    }

    @Test func wrongLengthIsRejected() {
        var values = EMVTestData.values
        values[0x9F02] = bytes("001234")
        #expect(throws: CardCryptoError(.invalidDataElementLength, "")) {
            try CryptogramInput(values: values)
        }
        values = EMVTestData.values
        values[0x9F10] = []
        #expect(throws: CardCryptoError(.invalidDataElementLength, "")) {
            try CryptogramInput(values: values)
        }
    }
}
