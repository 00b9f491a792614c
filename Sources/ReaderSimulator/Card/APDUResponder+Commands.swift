import CardCrypto
import EMV
import SandboxCards

/// The commands, each answered from the ``SimulatedCard``'s Swift calls.
extension APDUResponder {
    /// SFI 1 holds the card's two records.
    static let afl: [UInt8] = [0x08, 0x01, 0x02, 0x00]
    /// The terminal data the sandbox card MACs, then the CVM results.
    static let cdol1: [UInt8] = [
        0x9F, 0x02, 0x06, 0x9F, 0x03, 0x06, 0x9F, 0x1A, 0x02, 0x95, 0x05, 0x5F, 0x2A, 0x02, 0x9A, 0x03, 0x9C,
        0x01,
        0x9F, 0x37, 0x04, 0x9F, 0x34, 0x03,
    ]
    /// The authorisation response code, then as CDOL1.
    static let cdol2: [UInt8] = [0x8A, 0x02] + cdol1

    mutating func select(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard apdu.p1 == 0x04 else { return ResponseAPDU(sw: 0x6A86) }
        var chip = card
        defer { card = chip }
        if apdu.data == APDUCard.ppse {
            let applications: [SandboxApplication]
            do {
                applications = try chip.selectPaymentSystem()
            } catch {
                return ResponseAPDU(sw: error.kind == .blocked ? 0x6A81 : 0x6A82)
            }
            let entries = applications.map { application in
                TLV(0x61, children: Self.directoryEntry(application))
            }
            return encoded(
                TLV(
                    0x6F,
                    children: [
                        TLV(0x84, value: APDUCard.ppse),
                        TLV(0xA5, children: [TLV(0xBF0C, children: entries)]),
                    ]))
        }
        guard let application = chip.card.applications.first(where: { $0.aid == apdu.data }) else {
            return ResponseAPDU(sw: 0x6A82)
        }
        do {
            try chip.selectApplication(application.aid)
        } catch {
            return ResponseAPDU(sw: error.kind == .blocked ? 0x6283 : 0x6A82)
        }
        return encoded(
            TLV(
                0x6F,
                children: [
                    TLV(0x84, value: application.aid),
                    TLV(0xA5, children: Self.directoryEntry(application).dropFirst().map { $0 }),
                ]))
    }

    static func directoryEntry(_ application: SandboxApplication) -> [TLV] {
        var objects = [
            TLV(0x4F, value: application.aid), TLV(0x50, value: Array(application.label.utf8)),
            TLV(0x87, value: [application.priority]),
        ]
        if let name = application.preferredName { objects.append(TLV(0x9F12, value: Array(name.utf8))) }
        return objects
    }

    mutating func getProcessingOptions() -> ResponseAPDU {
        do {
            let records = try card.readApplicationData(contactless: false)
            return encoded(TLV(0x77, children: [TLV(0x82, value: records.aip), TLV(0x94, value: Self.afl)]))
        } catch {
            return ResponseAPDU(sw: 0x6985)
        }
    }

    func readRecord(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard apdu.p2 == 0x0C else { return ResponseAPDU(sw: 0x6A82) }
        let sandbox = card.card
        switch apdu.p1 {
        case 1:
            return encoded(
                TLV(
                    0x70,
                    children: [
                        TLV(0x57, value: sandbox.track2Equivalent),
                        TLV(0x5F20, value: Array(sandbox.cardholderName.utf8)),
                    ]))
        case 2:
            return encoded(
                TLV(
                    0x70,
                    children: [
                        TLV(0x5A, value: Self.bcd(sandbox.pan.unmaskedDigits)),
                        TLV(0x5F24, value: Self.bcd(sandbox.expiry + Self.lastDay(of: sandbox.expiry))),
                        TLV(0x5F34, value: [sandbox.panSequenceNumberBCD]), TLV(0x8C, value: Self.cdol1),
                        TLV(0x8D, value: Self.cdol2), TLV(0x8E, value: Self.cvmList(sandbox.cvm)),
                    ]))
        default:
            return ResponseAPDU(sw: 0x6A83)
        }
    }

    func getData(_ apdu: CommandAPDU) -> ResponseAPDU {
        switch (apdu.p1, apdu.p2) {
        case (0x9F, 0x17): return encoded(TLV(0x9F17, value: [UInt8(clamping: card.pinTriesRemaining)]))
        case (0x9F, 0x36):
            return encoded(TLV(0x9F36, value: [UInt8(card.atc >> 8), UInt8(truncatingIfNeeded: card.atc)]))
        default: return ResponseAPDU(sw: 0x6A88)
        }
    }

    mutating func verify(_ apdu: CommandAPDU) -> ResponseAPDU {
        // Plaintext PIN block: 2L, then L digits, then F padding.
        guard apdu.p2 == 0x80, apdu.data.count == 8, apdu.data[0] >> 4 == 0x02 else {
            return ResponseAPDU(sw: 0x6A86)
        }
        let length = Int(apdu.data[0] & 0x0F)
        let nibbles = apdu.data.dropFirst().flatMap { [$0 >> 4, $0 & 0x0F] }
        guard (4...12).contains(length), nibbles.prefix(length).allSatisfy({ $0 <= 9 }) else {
            return ResponseAPDU(sw: 0x6A80)
        }
        let pin = String(nibbles.prefix(length).map { Character(String($0)) })
        switch card.verifyOfflinePIN(pin) {
        case .correct: return ResponseAPDU(sw: 0x9000)
        case .wrong(let left): return ResponseAPDU(sw1: 0x63, sw2: 0xC0 | UInt8(clamping: min(left, 15)))
        case .blocked: return ResponseAPDU(sw: 0x6983)
        }
    }

    mutating func generateAC(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard let requested = CryptogramType(cryptogramInformationData: apdu.p1) else {
            return ResponseAPDU(sw: 0x6A86)
        }
        let second = card.transaction?.cvr != nil
        guard let dol = try? DataObjectList(bytes: second ? Self.cdol2 : Self.cdol1),
            let fields = dol.split(apdu.data)
        else { return ResponseAPDU(sw: 0x6700) }
        var values: [EMVTag: [UInt8]] = [:]
        for field in fields { values[field.tag] = field.value }
        do {
            let response = try card.generateAC(GenerateACCommand(requested: requested, values: values))
            return encoded(
                TLV(
                    0x77,
                    children: [
                        TLV(0x9F27, value: [response.type.rawValue]),
                        TLV(
                            0x9F36,
                            value: [UInt8(response.atc >> 8), UInt8(truncatingIfNeeded: response.atc)]),
                        TLV(0x9F26, value: response.cryptogram),
                        TLV(0x9F10, value: response.issuerApplicationData),
                    ]))
        } catch {
            return ResponseAPDU(sw: 0x6985)
        }
    }

    mutating func externalAuthenticate(_ apdu: CommandAPDU) -> ResponseAPDU {
        do {
            return ResponseAPDU(sw: try card.externalAuthenticate(apdu.data) ? 0x9000 : 0x6300)
        } catch {
            return ResponseAPDU(sw: 0x6985)
        }
    }

    // MARK: - Encoding

    func encoded(_ object: TLV) -> ResponseAPDU {
        guard let bytes = try? object.encoded() else { return ResponseAPDU(sw: 0x6F00) }
        return ResponseAPDU(data: bytes, sw: 0x9000)
    }

    /// Digits as BCD, padded with `F`.
    static func bcd(_ digits: String) -> [UInt8] {
        var nibbles = digits.utf8.map { $0 &- 0x30 }
        if nibbles.count % 2 == 1 { nibbles.append(0x0F) }
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    /// The last day of a `YYMM` month, two digits.
    static func lastDay(of yymm: String) -> String {
        let year = 2000 + (Int(yymm.prefix(2)) ?? 0)
        let month = Int(yymm.suffix(2)) ?? 1
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][max(0, min(11, month - 1))]
        return String(days)
    }

    /// A CVM list (8E) of one rule, always applied: the card's preference.
    static func cvmList(_ preference: CVMPreference) -> [UInt8] {
        let code: UInt8 =
            switch preference {
            case .offlinePIN: 0x01
            case .onlinePIN: 0x02
            case .signature: 0x1E
            case .noCVM: 0x1F
            }
        return [0, 0, 0, 0, 0, 0, 0, 0, code, 0x00]
    }
}
