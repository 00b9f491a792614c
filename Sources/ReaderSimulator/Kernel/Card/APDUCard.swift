import CardCrypto
import EMV
import SandboxCards

/// A chip the kernel reaches by ISO 7816-4 commands: a card in a PC/SC reader, or the sandbox
/// card's ``APDUResponder`` behind an in-memory or socket transport.
///
/// It reads what EMV Book 3 puts on a contact card: the PPSE's directory, the application's FCI
/// (label, priority, PDOL), the records the AFL names (5A, 5F24, 5F34, 5F20, 57, 8C, 8D, 8E), and
/// it answers GENERATE AC in response format 1 or 2. What it does not do: offline data
/// authentication (SDA, DDA, CDA), enciphered offline PIN, a contact card with a PSE but no
/// PPSE, and the contactless kernels.
public struct APDUCard: EMVCard {
    let channel: ISO7816Channel
    /// The Data Object Lists the selected application asked for.
    var pdol = DataObjectList(entries: [])
    var cdol1 = DataObjectList(entries: [])
    var cdol2 = DataObjectList(entries: [])
    var generatedFirstAC = false

    /// A card behind `transport`.
    public init(transport: any APDUTransport) {
        channel = ISO7816Channel(transport: transport)
    }

    /// A chip in a contact reader: chip only, no stripe.
    public var surface: CardSurface { CardSurface(interfaces: .chip) }

    static let ppse = Array("2PAY.SYS.DDF01".utf8)

    /// SELECT `2PAY.SYS.DDF01`: the directory entries (61) of the FCI.
    public mutating func selectPaymentSystem() throws(CardError) -> [SandboxApplication] {
        let response = try channel.transmit(
            CommandAPDU(cla: 0x00, ins: 0xA4, p1: 0x04, p2: 0x00, data: Self.ppse, le: 0))
        switch response.sw {
        case 0x9000: break
        case 0x6A81, 0x6283: throw CardError(.blocked, "SELECT PPSE: SW \(hex(response.sw))")
        default: throw CardError(.mute, "SELECT PPSE: SW \(hex(response.sw))")
        }
        let tree = try decode(response.data, "SELECT PPSE")
        return tree.all(0x61).compactMap { entry in
            var aid: [UInt8]?
            var label = ""
            var preferredName: String?
            var priority: UInt8 = 1
            for child in entry.children {
                switch child.tag {
                case 0x4F: aid = Array(child.value)
                case 0x50: label = String(decoding: child.value, as: UTF8.self)
                case 0x9F12: preferredName = String(decoding: child.value, as: UTF8.self)
                case 0x87: priority = child.value.first.map { $0 & 0x0F } ?? 1
                default: break
                }
            }
            return aid.map {
                SandboxApplication(aid: $0, label: label, preferredName: preferredName, priority: priority)
            }
        }
    }

    /// SELECT the application by its AID; keeps the PDOL of its FCI.
    public mutating func selectApplication(_ aid: [UInt8]) throws(CardError) {
        generatedFirstAC = false
        let response = try channel.transmit(
            CommandAPDU(cla: 0x00, ins: 0xA4, p1: 0x04, p2: 0x00, data: aid, le: 0))
        switch response.sw {
        case 0x9000: break
        case 0x6283, 0x6A81: throw CardError(.blocked, "SELECT AID: SW \(hex(response.sw))")
        default: throw CardError(.unexpectedAnswer, "SELECT AID: SW \(hex(response.sw))")
        }
        let tree = try decode(response.data, "SELECT AID")
        pdol = tree[0x9F38].flatMap { try? DataObjectList(bytes: $0) } ?? DataObjectList(entries: [])
    }

    /// GET PROCESSING OPTIONS, then every record the AFL names.
    public mutating func readApplicationData(contactless: Bool) throws(CardError) -> CardRecords {
        let pdolData = pdol.fill { _ in nil }
        let gpo = try expectSuccess(
            CommandAPDU(
                cla: 0x80, ins: 0xA8, p1: 0, p2: 0, data: [0x83, UInt8(pdolData.count)] + pdolData, le: 0),
            "GET PROCESSING OPTIONS")
        var aip: [UInt8] = []
        var afl: [UInt8] = []
        if gpo.first == 0x80, gpo.count >= 2 {
            // Format 1: 80 L, AIP (2 bytes), AFL.
            let value = try decode(gpo, "GET PROCESSING OPTIONS")[0x80].map(Array.init) ?? []
            aip = Array(value.prefix(2))
            afl = Array(value.dropFirst(2))
        } else {
            let tree = try decode(gpo, "GET PROCESSING OPTIONS")
            aip = tree[0x82].map(Array.init) ?? []
            afl = tree[0x94].map(Array.init) ?? []
        }
        guard aip.count == 2, afl.count % 4 == 0, !afl.isEmpty else {
            throw CardError(.unexpectedAnswer, "GET PROCESSING OPTIONS: no AIP or AFL")
        }
        var values: [EMVTag: [UInt8]] = [:]
        for entry in stride(from: 0, to: afl.count, by: 4) {
            let sfi = afl[entry] >> 3
            guard afl[entry + 1] > 0, afl[entry + 1] <= afl[entry + 2] else { continue }
            for record in afl[entry + 1]...afl[entry + 2] {
                let data = try expectSuccess(
                    CommandAPDU(cla: 0x00, ins: 0xB2, p1: record, p2: sfi << 3 | 0x04, le: 0), "READ RECORD")
                for element in try decode(data, "READ RECORD").all where !element.isConstructed {
                    if values[element.tag] == nil { values[element.tag] = Array(element.value) }
                }
            }
        }
        return try records(values, aip: aip)
    }

    /// GET DATA 9F17; `nil` when the card does not give it.
    public mutating func pinTryCounter() throws(CardError) -> Int? {
        let response = try channel.transmit(CommandAPDU(cla: 0x80, ins: 0xCA, p1: 0x9F, p2: 0x17, le: 0))
        guard response.isSuccess, let tree = try? TLVTree(decoding: response.data),
            let value = tree[0x9F17]?.first
        else { return nil }
        return Int(value)
    }

    /// VERIFY with a plaintext PIN block (format 2: `2L`, the digits, `F` padding).
    public mutating func verifyOfflinePIN(_ pin: String) throws(CardError) -> PINVerification {
        let digits = pin.utf8.map { $0 &- 0x30 }
        guard (4...12).contains(digits.count), digits.allSatisfy({ $0 <= 9 }) else {
            return .wrong(triesRemaining: (try? pinTryCounter()).flatMap { $0 } ?? 0)
        }
        var nibbles = digits + [UInt8](repeating: 0x0F, count: 14 - digits.count)
        nibbles.insert(UInt8(digits.count), at: 0)
        nibbles.insert(0x02, at: 0)
        let block = stride(from: 0, to: 16, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
        let response = try channel.transmit(
            CommandAPDU(cla: 0x00, ins: 0x20, p1: 0x00, p2: 0x80, data: block))
        switch response.sw1 {
        case 0x90 where response.sw2 == 0: return .correct
        case 0x63 where response.sw2 & 0xF0 == 0xC0: return .wrong(triesRemaining: Int(response.sw2 & 0x0F))
        case 0x69 where response.sw2 == 0x83 || response.sw2 == 0x84: return .blocked
        default: throw CardError(.unexpectedAnswer, "VERIFY: SW \(hex(response.sw))")
        }
    }

    /// GENERATE AC with the CDOL1 data (first) or the CDOL2 data (second).
    public mutating func generateAC(_ command: GenerateACCommand) throws(CardError) -> GenerateACResponse {
        let dol = generatedFirstAC ? cdol2 : cdol1
        let data = dol.fill { command.values[$0] }
        let answer = try expectSuccess(
            CommandAPDU(cla: 0x80, ins: 0xAE, p1: command.requested.rawValue, p2: 0, data: data, le: 0),
            "GENERATE AC")
        generatedFirstAC = true
        let tree = try decode(answer, "GENERATE AC")
        var cid: UInt8?
        var atc: [UInt8] = []
        var cryptogram: [UInt8] = []
        var iad: [UInt8] = []
        if let format1 = tree[0x80].map(Array.init), format1.count >= 11 {
            cid = format1[0]
            atc = Array(format1[1..<3])
            cryptogram = Array(format1[3..<11])
            iad = Array(format1[11...])
        } else {
            cid = tree[0x9F27]?.first
            atc = tree[0x9F36].map(Array.init) ?? []
            cryptogram = tree[0x9F26].map(Array.init) ?? []
            iad = tree[0x9F10].map(Array.init) ?? []
        }
        guard let type = cid.flatMap(CryptogramType.init(cryptogramInformationData:)), atc.count == 2,
            cryptogram.count == 8
        else { throw CardError(.unexpectedAnswer, "GENERATE AC: no CID, ATC or cryptogram") }
        return GenerateACResponse(
            type: type, atc: UInt16(atc[0]) << 8 | UInt16(atc[1]), cryptogram: cryptogram,
            issuerApplicationData: iad)
    }

    /// EXTERNAL AUTHENTICATE: `9000` authenticated, `6300` not.
    public mutating func externalAuthenticate(_ issuerAuthenticationData: [UInt8]) throws(CardError) -> Bool {
        let response = try channel.transmit(
            CommandAPDU(cla: 0x00, ins: 0x82, p1: 0, p2: 0, data: issuerAuthenticationData))
        switch response.sw {
        case 0x9000: return true
        case 0x6300, 0x6985: return false
        default: throw CardError(.unexpectedAnswer, "EXTERNAL AUTHENTICATE: SW \(hex(response.sw))")
        }
    }

    // MARK: - Reading answers

    private mutating func records(_ values: [EMVTag: [UInt8]], aip: [UInt8]) throws(CardError) -> CardRecords
    {
        let track2 = values[0x57]
        // Track 2 equivalent: PAN, `D`, YYMM, service code, discretionary data, `F` padding.
        var track2Text = ""
        for nibble in (track2 ?? []).flatMap({ [$0 >> 4, $0 & 0x0F] }) {
            if nibble <= 9 { track2Text.append(Character(String(nibble))) }
            if nibble == 0x0D { track2Text.append("D") }
        }
        let parts = track2Text.split(separator: "D", maxSplits: 1).map(String.init)
        let afterSeparator: String? = parts.count > 1 ? parts[1] : nil
        var pan: PAN?
        if let bcd = values[0x5A] { pan = PAN(bcd: bcd) }
        if pan == nil, let digits = parts.first { pan = PAN(digits) }
        guard let pan else { throw CardError(.unexpectedAnswer, "READ RECORD: no PAN") }
        var expiry: String?
        if let date = values[0x5F24], date.count >= 2 {
            expiry = date.prefix(2).map { String($0 >> 4) + String($0 & 0x0F) }.joined()
        } else if let afterSeparator {
            expiry = String(afterSeparator.prefix(4))
        }
        guard let expiry, expiry.count == 4 else {
            throw CardError(.unexpectedAnswer, "READ RECORD: no expiry")
        }
        var serviceCode: String?
        if let afterSeparator, afterSeparator.count >= 7 {
            serviceCode = String(afterSeparator.dropFirst(4).prefix(3))
        }
        cdol1 = values[0x8C].flatMap { try? DataObjectList(bytes: $0) } ?? DataObjectList(entries: [])
        cdol2 = values[0x8D].flatMap { try? DataObjectList(bytes: $0) } ?? DataObjectList(entries: [])
        let name = values[0x5F20].map { String(decoding: $0, as: UTF8.self).trimmingSpaces }
        return CardRecords(
            pan: pan, expiry: expiry, panSequenceNumberBCD: values[0x5F34]?.first,
            cardholderName: name?.isEmpty == false ? name : nil, track2Equivalent: track2,
            serviceCode: serviceCode,
            cvm: Self.preference(cvmList: values[0x8E] ?? []), aip: aip)
    }

    /// The first rule of a CVM list (8E), as the sandbox's preference.
    static func preference(cvmList: [UInt8]) -> CVMPreference {
        guard cvmList.count >= 10 else { return .signature }
        switch cvmList[8] & 0x3F {
        case 0x01, 0x03, 0x04, 0x05: return .offlinePIN
        case 0x02: return .onlinePIN
        case 0x1F: return .noCVM
        default: return .signature
        }
    }

    private func expectSuccess(_ command: CommandAPDU, _ name: String) throws(CardError) -> [UInt8] {
        let response = try channel.transmit(command)
        guard response.isSuccess else {
            throw CardError(.unexpectedAnswer, "\(name): SW \(hex(response.sw))")
        }
        return response.data
    }

    private func decode(_ bytes: [UInt8], _ name: String) throws(CardError) -> TLVTree {
        do {
            return try TLVTree(decoding: bytes)
        } catch {
            throw CardError(.unexpectedAnswer, "\(name): malformed TLV")
        }
    }
}

private func hex(_ sw: UInt16) -> String {
    let text = String(sw, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
