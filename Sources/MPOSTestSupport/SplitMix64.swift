/// A small seeded random number generator (SplitMix64): the same seed gives the same
/// sequence, so a randomized test that fails can be replayed from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence `seed` fixes.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// The seed of a randomized test: `MPOS_TEST_SEED` in `environment` when it is set (to
    /// replay a failure), a fresh one otherwise. Put it in the test's failure messages.
    ///
    /// ```swift
    /// let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
    /// var generator = SplitMix64(seed: seed)
    /// #expect(check(&generator), "seed \(seed) (MPOS_TEST_SEED replays it)")
    /// ```
    public static func testSeed(environment: [String: String]) -> UInt64 {
        if let text = environment["MPOS_TEST_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: .min ... .max)
    }
}
