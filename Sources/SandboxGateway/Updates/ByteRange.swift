/// A download's `Range` header, resolved against the file's size (RFC 9110 §14).
///
/// One range is served: `bytes=a-b`, `bytes=a-` and the suffix form `bytes=-n`. A header that
/// does not parse, names several ranges or another unit is ignored, and the whole file is
/// served, as the RFC allows; a range starting at or past the end is unsatisfiable (416).
enum ByteRange: Equatable {
    /// No usable `Range`: serve the whole file with 200.
    case whole
    /// Serve `offset ..< offset + length` with 206.
    case part(offset: Int64, length: Int64)
    /// 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// Resolves `header` for a file of `size` bytes.
    static func resolve(_ header: String?, size: Int64) -> ByteRange {
        guard let header else { return .whole }
        let text = header.trimmingSpaces
        guard text.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = text.dropFirst("bytes=".count).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingSpaces
        let last = spec[spec.index(after: dash)...].trimmingSpaces
        if first.isEmpty {
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0 else { return .unsatisfiable }
            let length = min(suffix, size)
            return .part(offset: size - length, length: length)
        }
        guard let start = number(first) else { return .whole }
        var end = size - 1
        if !last.isEmpty {
            guard let stated = number(last), stated >= start else { return .whole }
            end = min(stated, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .part(offset: start, length: end - start + 1)
    }

    /// A decimal number of at most 18 digits (so it fits an `Int64`).
    private static func number(_ text: Substring) -> Int64? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return nil
        }
        return Int64(text)
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: Substring {
        let scalars = self[...]
        let start = scalars.firstIndex { $0 != " " && $0 != "\t" } ?? scalars.endIndex
        let end = scalars.lastIndex { $0 != " " && $0 != "\t" }.map { scalars.index(after: $0) } ?? start
        return Substring(scalars[start..<Swift.max(start, end)])
    }
}
