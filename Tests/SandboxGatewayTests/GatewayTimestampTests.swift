import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import Testing

@Suite("Gateway timestamps: RFC 3339, every field in range", .timeLimit(.minutes(1)))
struct GatewayTimestampTests {
    @Test(arguments: [
        ("2026-11-23T09:00:00Z", 1_795_424_400.0), ("1970-01-01T00:00:00Z", 0),
        ("2024-02-29T23:59:59Z", 1_709_251_199), ("2026-11-23t09:00:00z", 1_795_424_400),
        ("2026-11-23T10:30:00+01:30", 1_795_424_400), ("2026-11-23T07:00:00-02:00", 1_795_424_400),
        ("2026-11-23T09:00:00.25Z", 1_795_424_400.25), ("1900-03-01T00:00:00Z", -2_203_891_200),
    ])
    func readsValidDateTimes(text: String, seconds: Double) {
        #expect(GatewayTimestamp.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: [
        "2024-01-01T12:99:00Z", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z",
        "2024-01-01T24:00:00Z", "2024-01-01T00:00:60Z", "2024-01-00T00:00:00Z", "2024-01-01T00:00:00",
        "2024-01-01 00:00:00Z", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+0100", "2024-01-01T00:00:00+24:00",
        "24-01-01T00:00:00Z", "2024-01-01T00:00:00Zjunk", "２０２４-01-01T00:00:00Z", "",
    ])
    func refusesAnythingElse(text: String) throws {
        #expect(GatewayTimestamp.parse(text) == nil)
        let json = Data(#"{"from":"\#(text)","to":"2024-01-01T00:00:00Z","grouping":"day"}"#.utf8)
        #expect(throws: DecodingError.self) { try GatewayJSON.makeDecoder().decode(StatisticsRequest.self, from: json) }
    }

    /// What the encoder writes, the decoder reads back to the same second, over many dates.
    @Test func roundTripsWhatTheEncoderWrites() throws {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var generator = SplitMix64(seed: seed)
        var mismatches: [String] = []
        for _ in 0..<2_000 {
            let seconds = Double(Int64.random(in: -2_208_988_800...10_413_792_000, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            let data = try GatewayJSON.encoder.encode([date])
            let back = try GatewayJSON.decoder.decode([Date].self, from: data)
            if back != [date] { mismatches.append(String(decoding: data, as: UTF8.self)) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5)), seed \(seed) (MPOS_TEST_SEED replays it)")
    }
}
