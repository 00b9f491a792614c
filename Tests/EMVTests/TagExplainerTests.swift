import EMV
import Foundation
import MPOSTestSupport
import Testing

@Suite(.timeLimit(.minutes(2)))
struct TagExplainerTests {
    @Test func explainsTheTVRVector() {
        #expect(TagExplainer.explain(0x95, value: [0x00, 0x00, 0x08, 0x00, 0x00])
            == ["PIN entry required, PIN pad present, but PIN was not entered"])
    }

    @Test func reportsMalformedLengthsInsteadOfTrapping() {
        #expect(TagExplainer.explain(0x95, value: [0x00, 0x00, 0x08]) == ["malformed: expected 5 bytes, got 3"])
        #expect(TagExplainer.explain(0x9F27, value: []) == ["malformed: expected 1 byte, got 0"])
        #expect(TagExplainer.explain(0x9A, value: [0x24, 0x1A, 0x01])
            == ["malformed: byte 2 (1A) is not two decimal digits"])
    }

    @Test func returnsNothingForTagsWithoutDecoder() {
        #expect(TagExplainer.explain(0x9F26, value: [1, 2, 3, 4, 5, 6, 7, 8]).isEmpty)
        #expect(!TagExplainer.hasDecoder(for: 0x9F26))
        #expect(TagExplainer.hasDecoder(for: 0x95))
        #expect(TagExplainer.hasDecoder(for: 0x9F02))
    }

    @Test func amountsFindTheirCurrencyInTheContext() {
        let context: [EMVTag: [UInt8]] = [0x5F2A: [0x09, 0x78], 0x9F42: [0x08, 0x40]]
        let amount: [UInt8] = [0, 0, 0, 0, 0x12, 0x34]
        #expect(TagExplainer.explain(0x9F02, value: amount, context: { context[$0] }) == ["Amount: 12.34 EUR"])
        #expect(TagExplainer.explain(0x9F5D, value: amount, context: { context[$0] }) == ["Amount: 12.34 USD"])
        #expect(TagExplainer.explain(0x9F02, value: amount) == ["Amount: 1234 minor units"])
        let yen: [EMVTag: [UInt8]] = [0x5F2A: [0x03, 0x92]]
        #expect(TagExplainer.explain(0x9F02, value: amount, context: { yen[$0] }) == ["Amount: 1234 JPY"])
        let exponent: [EMVTag: [UInt8]] = [0x5F2A: [0x09, 0x78], 0x5F36: [0x03]]
        #expect(TagExplainer.explain(0x9F02, value: amount, context: { exponent[$0] }) == ["Amount: 1.234 EUR"])
    }

    @Test func cvmListAmountsUseTheApplicationCurrency() {
        let list: [UInt8] = [0, 0, 0x13, 0x88, 0, 0, 0, 0, 0x1E, 0x06]
        let context: [EMVTag: [UInt8]] = [0x9F42: [0x09, 0x78]]
        let out = TagExplainer.explain(0x8E, value: list, context: { context[$0] })
        #expect(out.first == "Amount X is 50.00 EUR")
        #expect(out.last?.contains("under X (50.00 EUR)") == true)
    }

    @Test func explainsDatesTimesAndCodes() {
        #expect(TagExplainer.explain(0x9A, value: [0x24, 0x03, 0x15]) == ["Transaction date: 15 March 2024 (2024-03-15)"])
        #expect(TagExplainer.explain(0x9F21, value: [0x09, 0x05, 0x00]) == ["Transaction time: 09:05:00"])
        #expect(TagExplainer.explain(0x9C, value: [0x20]) == ["Transaction type 20 refund"])
        #expect(TagExplainer.explain(0x9F35, value: [0x22]) == ["Attended, offline with online capability, operated by merchant"])
        #expect(TagExplainer.explain(0x9F1A, value: [0x08, 0x26]) == ["GB (United Kingdom), numeric 826"])
        #expect(TagExplainer.explain(0x5F2A, value: [0x09, 0x78]) == ["EUR (Euro), numeric 978, 2 minor units"])
        #expect(TagExplainer.explain(0x9F34, value: [0x1E, 0x00, 0x02]).last == "Result: successful")
        #expect(TagExplainer.explain(0x9F0E, value: [0, 0, 0x08, 0, 0])
            == ["PIN entry required, PIN pad present, but PIN was not entered"])
    }

    @Test func notesAnExpiredApplication() {
        let context: [EMVTag: [UInt8]] = [0x9A: [0x25, 0x01, 0x01]]
        let out = TagExplainer.explain(0x5F24, value: [0x24, 0x12, 0x31], context: { context[$0] })
        #expect(out == ["Expires on 31 December 2024 (2024-12-31)", "The application had expired on the transaction date, 2025-01-01"])
    }

    @Test func neverTrapsOnAnyLengthOrContentForAnyKnownTag() {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var generator = SplitMix64(seed: seed)
        let garbage: [EMVTag: [UInt8]] = [0x5F2A: [0xFF], 0x5F36: [0xAA, 0xBB], 0x9F42: [0x0A, 0xBC], 0x9A: [0x99]]
        for info in TagDictionary.all {
            for count in 0...12 {
                let value = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let out = TagExplainer.explain(info.tag, value: value, context: { garbage[$0] })
                if TagExplainer.hasDecoder(for: info.tag) {
                    // No decoder accepts an empty value, so it must say so.
                    if count == 0 { #expect(out.first?.hasPrefix("malformed: ") == true, "\(info.tag)") }
                } else {
                    #expect(out.isEmpty, "\(info.tag) \(value), seed \(seed) (MPOS_TEST_SEED replays it)")
                }
            }
            for fill in [UInt8(0x00), 0xFF] {
                for count in [0, 1, 2, 3, 5, 6, 8, 9, 10] {
                    _ = TagExplainer.explain(info.tag, value: [UInt8](repeating: fill, count: count))
                }
            }
        }
    }
}
