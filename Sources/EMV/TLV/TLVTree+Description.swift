extension TLVTree.Element: CustomStringConvertible, CustomDebugStringConvertible {
    /// One line a person can read: the tag, its name in the EMV dictionary and the value, as
    /// hex, or masked for card data (``SensitiveData``); a constructed object says how many
    /// objects it holds. `"9F02 Amount, Authorised (Numeric): 000000001234"`,
    /// `"5A Application Primary Account Number (PAN): 411111******1111"`.
    public var description: String {
        let name = TagDictionary.name(of: tag).map { " " + $0 } ?? ""
        if isConstructed {
            let count = children.reduce(0) { count, _ in count + 1 }
            return "\(tag)\(name): \(count) \(count == 1 ? "object" : "objects")"
        }
        guard length > 0 else { return "\(tag)\(name): empty" }
        return "\(tag)\(name): \(SensitiveData.displayValue(tag, value))"
    }

    /// The ``description`` with where the object sits: its path of tags and value length.
    public var debugDescription: String {
        "TLVTree.Element(\(description); path \(path.map(\.description).joined(separator: "/")), \(length) bytes)"
    }
}

extension TLVTree: CustomStringConvertible {
    /// How many objects the tree holds and its size: `"TLVTree(3 objects, 2 at the top, 45 bytes)"`.
    /// Values are not printed (they may be card data); print the elements for those.
    public var description: String {
        let top = roots.reduce(0) { count, _ in count + 1 }
        return "TLVTree(\(nodes.count) objects, \(top) at the top, \(bytes.count) bytes)"
    }
}
