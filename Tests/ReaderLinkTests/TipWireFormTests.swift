import MPOSCore
import Testing

@testable import ReaderLink

/// The tip on the wire: a start's custom-tip flag, written only when true, and the reader's
/// `tipEntered` report.
@Suite(.timeLimit(.minutes(1)))
struct TipWireFormTests {
    static func start(tipAmounts: [Int64] = [], tipPercentages: [UInt8] = [], custom: Bool = false) -> StartTransaction {
        StartTransaction(
            transactionID: "T", kind: .sale, amountMinorUnits: 1_00, currency: .numeric(978),
            tipAmounts: tipAmounts, tipPercentages: tipPercentages, allowsCustomTip: custom)
    }

    @Test func aStartWithoutTipsKeepsItsOlderWireForm() throws {
        let bytes = ReaderMessage.startTransaction(Self.start()).encoded()
        // type ‖ "T" ‖ kind ‖ amount ‖ numeric 978 ‖ no amounts ‖ no percentages ‖ present ‖ no original.
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        #expect(hex == "3000015401" + "0000000000000064" + "0103D2" + "0000" + "0000" + "01" + "00")
        #expect(try ReaderMessage(decoding: bytes) == .startTransaction(Self.start()))
    }

    @Test func aStartAllowingACustomTipCarriesTheFlagLast() throws {
        let custom = Self.start(tipPercentages: [15], custom: true)
        let bytes = ReaderMessage.startTransaction(custom).encoded()
        #expect(bytes.last == 0x01)
        #expect(try ReaderMessage(decoding: bytes) == .startTransaction(custom))
        // A custom tip alone is an offer too.
        let onlyCustom = Self.start(custom: true)
        #expect(onlyCustom.offersTip)
        #expect(try ReaderMessage(decoding: ReaderMessage.startTransaction(onlyCustom).encoded()) == .startTransaction(onlyCustom))
        // Presets without a custom tip keep the older form: no flag, and a 00 flag is refused.
        let presetsOnly = ReaderMessage.startTransaction(Self.start(tipAmounts: [2_00])).encoded()
        let presetsAndCustom = ReaderMessage.startTransaction(Self.start(tipAmounts: [2_00], custom: true)).encoded()
        #expect(presetsAndCustom == presetsOnly + [0x01])
        #expect(throws: ReaderLinkError.self) { try ReaderMessage(decoding: presetsOnly + [0x00]) }
    }

    @Test func theTipReportRoundTripsWithAndWithoutAPercentage() throws {
        for entry in [
            TipEntry(transactionID: "T", tipAmountMinorUnits: 6_30, percentage: 15),
            TipEntry(transactionID: "T", tipAmountMinorUnits: 0),
        ] {
            let bytes = ReaderMessage.tipEntered(entry).encoded()
            #expect(bytes.first == 0x3E)
            #expect(try ReaderMessage(decoding: bytes) == .tipEntered(entry))
        }
        let truncated = Array(ReaderMessage.tipEntered(TipEntry(transactionID: "T", tipAmountMinorUnits: 1)).encoded().dropLast(2))
        #expect(throws: ReaderLinkError.self) { try ReaderMessage(decoding: truncated) }
    }
}
