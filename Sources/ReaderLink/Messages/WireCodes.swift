import MPOSCore

extension ByteWriter {
    mutating func battery(_ battery: BatteryStatus) {
        u8(battery.percentage)
        bool(battery.isCharging)
        bool(battery.hasExternalPower)
        u16(battery.millivolts)
    }
}

extension ByteReader {
    mutating func battery() throws(ReaderLinkError) -> BatteryStatus {
        BatteryStatus(
            percentage: try u8(), isCharging: try bool(), hasExternalPower: try bool(), millivolts: try u16())
    }
    mutating func status() throws(ReaderLinkError) -> ReaderStatusCode {
        let raw = try u16()
        guard let status = ReaderStatusCode(rawValue: raw) else {
            throw .malformed(detail: "unknown status code \(raw)")
        }
        return status
    }
    mutating func enumeration<E: RawRepresentable<UInt8>>(_: E.Type) throws(ReaderLinkError) -> E {
        let raw = try u8()
        guard let value = E(rawValue: raw) else { throw .malformed(detail: "unknown \(E.self) value \(raw)") }
        return value
    }
}

/// Fixed wire numbers for MPOSCore's string-backed enumerations, so that reordering or adding
/// cases there never changes the protocol.
enum WireCodes {
    static func code(of kind: TransactionKind) -> UInt8 {
        switch kind {
        case .sale: 1
        case .refund: 2
        case .saleVoid: 3
        case .refundVoid: 4
        case .authorization: 5
        case .preAuthorization: 6
        case .capture: 7
        case .tipAdjustment: 8
        case .cash: 9
        case .sepa: 10
        }
    }
    static func transactionKind(_ code: UInt8) throws(ReaderLinkError) -> TransactionKind {
        guard let kind = TransactionKind.allCases.first(where: { self.code(of: $0) == code }) else {
            throw .malformed(detail: "unknown transaction kind \(code)")
        }
        return kind
    }
    static func code(of mode: CardEntryMode) -> UInt8 {
        switch mode {
        case .magstripe: 1
        case .magstripeFallback: 2
        case .chip: 3
        case .contactless: 4
        case .manual: 5
        case .cardNotPresent: 6
        }
    }
    static func entryMode(_ code: UInt8) throws(ReaderLinkError) -> CardEntryMode {
        guard let mode = CardEntryMode.allCases.first(where: { self.code(of: $0) == code }) else {
            throw .malformed(detail: "unknown entry mode \(code)")
        }
        return mode
    }
    static func code(of cvm: CardholderVerification) -> UInt8 {
        switch cvm {
        case .signature: 1
        case .pin: 2
        case .pinAndSignature: 3
        case .onDevice: 4
        case .failed: 5
        case .notRequired: 6
        }
    }
    static func verification(_ code: UInt8) throws(ReaderLinkError) -> CardholderVerification {
        guard let cvm = CardholderVerification.allCases.first(where: { self.code(of: $0) == code }) else {
            throw .malformed(detail: "unknown cardholder verification \(code)")
        }
        return cvm
    }
}
