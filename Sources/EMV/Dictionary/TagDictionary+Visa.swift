// Visa: VSDC (VIS) card data and payWave / qVSDC (Kernel 3, EMV Book C-3).

extension TagDictionary {
    static let visaEntries: [TagInfo] = [
        entry(0x9F52, "Application Default Action (ADA)", .card, .b, .fixed(2), in: nil, .visa,
              aka: ["Terminal Compatibility Indicator (JCB)"]),
        entry(0x9F55, "Geographic Indicator", .card, .b, .fixed(1), in: nil, .visa),
        entry(0x9F56, "Issuer Authentication Indicator", .card, .b, .fixed(1), in: nil, .visa),
        entry(0x9F57, "Issuer Country Code", .card, .n, .fixed(2), in: nil, .visa),
        entry(0x9F58, "Lower Consecutive Offline Limit (Card Check)", .card, .b, .fixed(1), in: nil, .visa),
        entry(0x9F59, "Upper Consecutive Offline Limit (Card Check)", .card, .b, .fixed(1), in: nil, .visa),
        entry(0x9F5A, "Application Program Identifier (Program ID)", .card, .b, .range(1...16), in: 0xBF0C, .visa),
        entry(0x9F5D, "Available Offline Spending Amount (AOSA)", .card, .n, .fixed(6), in: 0x77, .visa,
              aka: ["Application Capabilities Information (Mastercard)"]),
        entry(0x9F66, "Terminal Transaction Qualifiers (TTQ)", .terminal, .b, .fixed(4), in: nil, .visa,
              aka: ["PUNATC(Track2) (Mastercard)"]),
        entry(0x9F68, "Card Additional Processes", .card, .b, .fixed(4), in: 0x70, .visa),
        entry(0x9F6C, "Card Transaction Qualifiers (CTQ)", .card, .b, .fixed(2), in: 0x77, .visa,
              aka: ["Mag-stripe Application Version Number (Card) (Mastercard)"]),
        entry(0x9F7A, "VLP Terminal Support Indicator", .terminal, .b, .fixed(1), in: nil, .visa,
              aka: ["Electronic Cash Terminal Support Indicator (UnionPay)"]),
        entry(0x9F7B, "VLP Terminal Transaction Limit", .terminal, .n, .fixed(6), in: nil, .visa,
              aka: ["Electronic Cash Terminal Transaction Limit (UnionPay)"]),
    ]
}
