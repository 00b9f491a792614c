import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension TerminalCatalogue {
    /// The largest file read: a catalogue lists a handful of models.
    static let maximumXMLSize = 256 * 1024

    /// Reads a `paymentmethods.xml` (the shape is in ``TerminalCatalogue``).
    ///
    /// - Throws: ``MPOSError/invalidCatalogue`` with the line for malformed XML, an unknown
    ///   element, a terminal without a model or name, a model listed twice, a blacklist entry
    ///   that is not one scheme, BIN (1–8 digits) or AID (10–32 hex digits), or a file over 256 KiB.
    public init(xml: Data) throws(MPOSError) {
        guard xml.count <= Self.maximumXMLSize else {
            throw MPOSError.invalidCatalogue.withMessage("The catalogue is over \(Self.maximumXMLSize / 1024) KiB.")
        }
        let reader = CatalogueXMLReader()
        let parser = XMLParser(data: xml)
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let problem = reader.problem {
            throw MPOSError.invalidCatalogue.withMessage("Line \(problem.line): \(problem.message)")
        }
        // An element left open at the end is malformed, whatever the parser said.
        guard parsed, reader.sawRoot, reader.isBalanced else {
            throw MPOSError.invalidCatalogue.withMessage(
                "Line \(parser.lineNumber): the catalogue is not well-formed XML with a <paymentmethods> root.")
        }
        self.init(terminals: reader.terminals)
    }
}

/// The SAX side of ``TerminalCatalogue/init(xml:)``: collects terminals, stops at the first problem.
private final class CatalogueXMLReader: NSObject, XMLParserDelegate {
    struct Problem {
        let line: Int
        let message: String
    }

    var terminals: [TerminalCatalogue.Terminal] = []
    var problem: Problem?
    var sawRoot = false
    private var path: [String] = []
    private var ended = false
    /// Whether every element opened was closed and the document ended.
    var isBalanced: Bool { path.isEmpty && ended }

    func parserDidEndDocument(_ parser: XMLParser) { ended = true }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let parent = path.last
        path.append(element)
        switch (parent, element) {
        case (nil, "paymentmethods"):
            sawRoot = true
        case ("paymentmethods", "terminal"):
            guard let model = attributes["model"]?.trimmingCharacters(in: .whitespaces), !model.isEmpty else {
                return fail(parser, "a <terminal> needs a model attribute.")
            }
            guard terminals.allSatisfy({ $0.model != model }) else {
                return fail(parser, "the model \"\(model)\" is listed twice.")
            }
            let name = attributes["name"]?.trimmingCharacters(in: .whitespaces) ?? ""
            guard !name.isEmpty else { return fail(parser, "the terminal \"\(model)\" needs a name attribute.") }
            terminals.append(TerminalCatalogue.Terminal(model: model, name: name))
        case ("terminal", "blacklist"):
            break
        case ("blacklist", "card"):
            guard let entry = Self.card(attributes) else {
                return fail(
                    parser, "a <card> names one scheme, bin (1 to 8 digits) or aid (10 to 32 hex digits).")
            }
            terminals[terminals.count - 1].blacklist.append(entry)
        default:
            fail(parser, "<\(element)> is not expected \(parent.map { "inside <\($0)>" } ?? "as the root").")
        }
    }

    func parser(
        _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
    ) {
        path.removeLast()
    }

    static func card(_ attributes: [String: String]) -> TerminalCatalogue.BlacklistedCard? {
        guard attributes.count == 1, let (key, raw) = attributes.first else { return nil }
        let value = raw.trimmingCharacters(in: .whitespaces)
        switch key {
        case "scheme" where !value.isEmpty && value.count <= 32:
            return .scheme(value)
        case "bin" where (1...8).contains(value.count) && value.allSatisfy(\.isASCIIDigit):
            return .bin(value)
        case "aid" where (10...32).contains(value.count) && value.count % 2 == 0 && value.allSatisfy(\.isHexDigit):
            return .aid(value.uppercased())
        default:
            return nil
        }
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        guard problem == nil else { return }
        problem = Problem(line: parser.lineNumber, message: message)
        parser.abortParsing()
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
