import EMV

/// Turns hex into the text or JSON that `mpos emv decode` prints.
enum EMVDecodeOutput {
    /// A failure is one line naming the problem and its offset.
    enum Result: Equatable {
        case success(String)
        case failure(String)
    }

    static func render(hex: String, json: Bool) -> Result {
        let bytes: [UInt8]
        do {
            bytes = try Hex.decode(hex)
        } catch {
            return .failure(error.description)
        }
        guard !bytes.isEmpty else { return .failure("no data: give hex digits or - to read stdin") }
        let tree: TLVTree
        do {
            tree = try TLVTree(decoding: bytes)
        } catch {
            return .failure(error.description)
        }
        let nodes = tree.roots.map { DecodedObject($0, in: tree) }
        return .success(json ? DecodedObject.json(nodes) : DecodedObject.text(nodes))
    }
}

/// One object as the tool shows it, values already masked where they are card data.
struct DecodedObject: Equatable {
    let tag: String
    let name: String
    let length: Int
    /// Hex (or masked text) of a primitive value; `nil` for constructed objects, whose
    /// contents appear as children.
    let value: String?
    let children: [DecodedObject]
    let meaning: [String]

    init(_ element: TLVTree.Element, in tree: TLVTree) {
        tag = element.tag.hex
        name = TagDictionary.info(for: element.tag)?.name ?? "Unknown tag"
        length = element.length
        if element.isConstructed {
            value = nil
            children = element.children.map { DecodedObject($0, in: tree) }
            meaning = []
        } else {
            value = SensitiveData.displayValue(element.tag, element.value)
            children = []
            if SensitiveData.isSensitive(element.tag) {
                meaning = SensitiveData.maskedMeaning(element.tag, element.value)
            } else {
                meaning = TagExplainer.explain(element.tag, value: element.value) { tag in
                    tree.first(tag).map { Array($0.value) }
                }
            }
        }
    }

    /// An indented tree, one object a line, meanings beneath.
    static func text(_ objects: [DecodedObject]) -> String {
        var lines: [String] = []
        func add(_ object: DecodedObject, indent: Int) {
            let pad = String(repeating: "  ", count: indent)
            var line = "\(pad)\(object.tag)  \(object.name)  [\(object.length)]"
            if let value = object.value, !value.isEmpty { line += "  \(value)" }
            lines.append(line)
            for statement in object.meaning { lines.append("\(pad)    - \(statement)") }
            for child in object.children { add(child, indent: indent + 1) }
        }
        for object in objects { add(object, indent: 0) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A JSON array, keys in a fixed order: tag, name, length, value, children, meaning.
    static func json(_ objects: [DecodedObject]) -> String {
        func encode(_ object: DecodedObject) -> String {
            let value = object.value.map(jsonString) ?? "null"
            return "{\"tag\":\(jsonString(object.tag)),\"name\":\(jsonString(object.name)),"
                + "\"length\":\(object.length),\"value\":\(value),"
                + "\"children\":[\(object.children.map(encode).joined(separator: ","))],"
                + "\"meaning\":[\(object.meaning.map(jsonString).joined(separator: ","))]}"
        }
        return "[" + objects.map(encode).joined(separator: ",") + "]\n"
    }
}

/// A JSON string literal with the escapes RFC 8259 requires.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
