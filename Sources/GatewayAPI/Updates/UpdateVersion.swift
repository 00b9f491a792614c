/// How the gateway orders image versions, so that the SDK and the gateway agree on what is
/// newer.
///
/// Versions are split at `.` and compared component by component: two all-digit components
/// compare as numbers (`1.10` is newer than `1.9`), otherwise as text by their UTF-8 bytes, and
/// an all-digit component sorts before any other. A missing component counts as `0`, so `2.1`
/// and `2.1.0` are the same version.
public enum UpdateVersion {
    /// Whether `version` is newer than `other` by the rule above.
    public static func isNewer(_ version: String, than other: String) -> Bool {
        compare(version, other) > 0
    }

    /// -1, 0 or 1 as `a` is older than, the same as or newer than `b`.
    public static func compare(_ a: String, _ b: String) -> Int {
        let left = a.split(separator: ".", omittingEmptySubsequences: false)
        let right = b.split(separator: ".", omittingEmptySubsequences: false)
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? left[index] : "0"
            let y = index < right.count ? right[index] : "0"
            let order = compareComponent(x, y)
            if order != 0 { return order }
        }
        return 0
    }

    private static func compareComponent(_ x: Substring, _ y: Substring) -> Int {
        let xDigits = !x.isEmpty && x.utf8.allSatisfy { (48...57).contains($0) }
        let yDigits = !y.isEmpty && y.utf8.allSatisfy { (48...57).contains($0) }
        switch (xDigits, yDigits) {
        case (true, true):
            // Compare as numbers of any length: strip leading zeros, then length, then digits.
            let xs = x.drop { $0 == "0" }
            let ys = y.drop { $0 == "0" }
            if xs.count != ys.count { return xs.count < ys.count ? -1 : 1 }
            return bytewise(xs, ys)
        case (true, false): return -1
        case (false, true): return 1
        case (false, false): return bytewise(x, y)
        }
    }

    private static func bytewise(_ x: Substring, _ y: Substring) -> Int {
        if x == y { return 0 }
        return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
    }
}
