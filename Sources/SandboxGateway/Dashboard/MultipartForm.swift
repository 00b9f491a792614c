import Foundation

/// A `multipart/form-data` body as a browser sends a form with a file input (RFC 7578): each
/// part's name, its file name when it is a file, and its bytes. Only what the dashboard's
/// forms send is read: no nested multiparts, no transfer encodings.
struct MultipartForm: Sendable {
    /// One field or file.
    struct Part: Sendable, Hashable {
        var name: String
        var filename: String?
        var data: [UInt8]
        /// The part as text (fields are UTF-8).
        var text: String { String(decoding: data, as: UTF8.self) }
    }

    /// The parts, in the body's order; the first of repeated names wins in ``subscript(_:)``.
    var parts: [Part]

    subscript(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// The boundary a `Content-Type: multipart/form-data; boundary=…` header names.
    static func boundary(contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2
                ? String(pair[1].dropFirst().dropLast()) : pair[1]
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// Parses `body` split by `boundary`.
    ///
    /// - Throws: ``GatewayError`` 4001 for a body that is not such a form (no opening boundary,
    ///   a part without its blank line or its `Content-Disposition: form-data; name=…`, no
    ///   closing boundary).
    init(body: [UInt8], boundary: String) throws(GatewayError) {
        let delimiter = Array(("--" + boundary).utf8)
        let malformed = GatewayError.invalid("The form is not multipart/form-data as its boundary says.")
        guard body.starts(with: delimiter) else { throw malformed }
        var parts: [Part] = []
        var position = delimiter.count
        while true {
            // After a delimiter: "--" closes the body, CRLF opens a part.
            if body[position...].starts(with: [45, 45]) { break }
            guard body[position...].starts(with: [13, 10]) else { throw malformed }
            position += 2
            guard let headerEnd = Self.find([13, 10, 13, 10], in: body, from: position) else { throw malformed }
            let headers = String(decoding: body[position..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let next = Self.find([13, 10] + delimiter, in: body, from: contentStart) else { throw malformed }
            guard let (name, filename) = Self.disposition(headers) else { throw malformed }
            parts.append(Part(name: name, filename: filename, data: Array(body[contentStart..<next])))
            position = next + 2 + delimiter.count
        }
        self.parts = parts
    }

    /// The name and file name of a part's `Content-Disposition: form-data` header.
    static func disposition(_ headers: String) -> (name: String, filename: String?)? {
        for line in headers.split(separator: "\r\n") {
            let header = line.split(separator: ":", maxSplits: 1)
            guard header.count == 2, header[0].lowercased() == "content-disposition" else { continue }
            var name: String?
            var filename: String?
            for parameter in header[1].split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2
                    ? String(pair[1].dropFirst().dropLast()) : pair[1]
                switch pair[0].lowercased() {
                case "name": name = value
                case "filename": filename = value
                default: break
                }
            }
            return name.map { ($0, filename) }
        }
        return nil
    }

    /// The index of the first `needle` in `haystack` at or after `start`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
