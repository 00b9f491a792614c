/// What the simulated terminal is and can do: the values it puts into every transaction.
public struct TerminalConfiguration: Sendable, Hashable {
    /// Terminal Country Code (9F1A), ISO 3166 numeric. Default 528, the Netherlands.
    public var countryCode: Int
    /// Terminal Capabilities (9F33), 3 bytes. Default `E0F8C8`: stripe, chip and keyed entry;
    /// plaintext and enciphered offline PIN, enciphered online PIN, signature, no CVM; SDA, DDA,
    /// card capture, CDA.
    public var capabilities: [UInt8]
    /// Terminal Type (9F35). Default `22`: attended, merchant-operated, online with offline
    /// capability.
    public var terminalType: UInt8
    /// Terminal floor limit in minor units: at or under it the terminal asks the card for a TC
    /// (offline approval), over it for an ARQC. Default 100.00.
    public var floorLimit: Int64
    /// Whether a PIN pad is present and working.
    public var supportsPIN: Bool
    /// Whether the sandbox amount scenarios the kernel plays (20.00 cancelled, 30.00 signature)
    /// apply. Default on.
    public var appliesScenarios: Bool

    /// Creates a configuration.
    public init(
        countryCode: Int = 528, capabilities: [UInt8] = [0xE0, 0xF8, 0xC8], terminalType: UInt8 = 0x22,
        floorLimit: Int64 = 10_000, supportsPIN: Bool = true, appliesScenarios: Bool = true
    ) {
        self.countryCode = countryCode
        self.capabilities = capabilities
        self.terminalType = terminalType
        self.floorLimit = floorLimit
        self.supportsPIN = supportsPIN
        self.appliesScenarios = appliesScenarios
    }
}
