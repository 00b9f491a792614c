// EMV Contactless Book B (Entry Point) data that is not specific to one kernel.

extension TagDictionary {
    static let contactlessEntries: [TagInfo] = [
        entry(0x9F29, "Extended Selection", .card, .b, .upTo(11), in: 0x61, .emvContactless),
        entry(0x9F2A, "Kernel Identifier", .card, .b, .range(1...8), in: 0x61, .emvContactless),
    ]
}
