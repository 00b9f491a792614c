import EMV

/// One payment application on a sandbox card's chip, as the reader's application selection
/// sees it.
public struct SandboxApplication: Sendable, Hashable, CustomStringConvertible {
    /// The Application Identifier (tag 4F / 84): RID then PIX, 5 to 16 bytes.
    public let aid: [UInt8]
    /// The Application Label (tag 50), printed on receipts.
    public let label: String
    /// The Application Preferred Name (tag 9F12), shown in selection menus when present.
    public let preferredName: String?
    /// The Application Priority Indicator (tag 87) order: 1 is the highest priority.
    public let priority: UInt8

    /// Creates an application.
    public init(aid: [UInt8], label: String, preferredName: String? = nil, priority: UInt8 = 1) {
        self.aid = aid
        self.label = label
        self.preferredName = preferredName
        self.priority = priority
    }

    /// The AID as upper-case hex, such as `A0000000031010`.
    public var aidHex: String { Hex.encode(aid) }

    /// What a selection menu shows: the preferred name, else the label.
    public var displayName: String { preferredName ?? label }

    /// `label (AID)`.
    public var description: String { "\(label) (\(aidHex))" }
}

extension SandboxApplication {
    /// Visa Credit or Debit, `A0000000031010`.
    public static func visa(_ label: String = "VISA CREDIT", priority: UInt8 = 1) -> SandboxApplication {
        SandboxApplication(aid: [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10], label: label, priority: priority)
    }
    /// Mastercard credit or debit, `A0000000041010`.
    public static func mastercard(_ label: String = "MASTERCARD", priority: UInt8 = 1) -> SandboxApplication {
        SandboxApplication(aid: [0xA0, 0x00, 0x00, 0x00, 0x04, 0x10, 0x10], label: label, priority: priority)
    }
    /// Maestro, `A0000000043060`.
    public static func maestro(priority: UInt8 = 1) -> SandboxApplication {
        SandboxApplication(
            aid: [0xA0, 0x00, 0x00, 0x00, 0x04, 0x30, 0x60], label: "MAESTRO", priority: priority)
    }
    /// American Express, `A00000002501`.
    public static let amex = SandboxApplication(
        aid: [0xA0, 0x00, 0x00, 0x00, 0x25, 0x01], label: "AMERICAN EXPRESS")
    /// Discover, `A0000001523010`.
    public static let discover = SandboxApplication(
        aid: [0xA0, 0x00, 0x00, 0x01, 0x52, 0x30, 0x10], label: "DISCOVER")
    /// JCB, `A0000000651010`.
    public static let jcb = SandboxApplication(aid: [0xA0, 0x00, 0x00, 0x00, 0x65, 0x10, 0x10], label: "JCB")
    /// UnionPay Debit, `A000000333010101`.
    public static let unionPay = SandboxApplication(
        aid: [0xA0, 0x00, 0x00, 0x03, 0x33, 0x01, 0x01, 0x01], label: "UNIONPAY DEBIT",
        preferredName: "UnionPay")
}
