/// Byte-level substring checks for the scanner's hot paths (Foundation's `contains`/`range(of:)` go through
/// NSString on Linux and dominated the profile).
enum FastText {
    /// Whether `text` contains `needle` (ASCII), ignoring ASCII case when `caseInsensitive`.
    @inline(__always)
    static func contains(_ text: String, _ needle: String, caseInsensitive: Bool = false) -> Bool {
        var text = text
        var needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { pattern in find(haystack, pattern, caseInsensitive: caseInsensitive) != nil }
        }
    }

    /// Whether `text` starts with `prefix` (ASCII), ignoring ASCII case when `caseInsensitive`.
    static func hasPrefix(_ text: String, _ prefix: String, caseInsensitive: Bool = false) -> Bool {
        var text = text
        var prefix = prefix
        return text.withUTF8 { haystack in
            prefix.withUTF8 { pattern in
                guard haystack.count >= pattern.count else { return false }
                for index in 0..<pattern.count where !same(haystack[index], pattern[index], caseInsensitive) {
                    return false
                }
                return true
            }
        }
    }

    /// The offset of the first occurrence of `pattern` in `haystack`.
    static func find(
        _ haystack: UnsafeBufferPointer<UInt8>, _ pattern: UnsafeBufferPointer<UInt8>, caseInsensitive: Bool
    )
        -> Int?
    {
        guard !pattern.isEmpty else { return 0 }
        guard haystack.count >= pattern.count else { return nil }
        let first = pattern[0]
        var index = 0
        let last = haystack.count - pattern.count
        while index <= last {
            if same(haystack[index], first, caseInsensitive) {
                var offset = 1
                while offset < pattern.count, same(haystack[index + offset], pattern[offset], caseInsensitive) {
                    offset += 1
                }
                if offset == pattern.count { return index }
            }
            index += 1
        }
        return nil
    }

    @inline(__always)
    static func same(_ a: UInt8, _ b: UInt8, _ caseInsensitive: Bool) -> Bool {
        if a == b { return true }
        guard caseInsensitive else { return false }
        let lower = a | 0x20
        return lower == (b | 0x20) && lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }
}

/// A fixed set of lower-case ASCII words found anywhere in a text, ignoring ASCII case, in one pass over the text
/// (one scan per word would read a name as many times as there are words).
struct StemSet: Sendable {
    /// The stems by their first byte.
    private let byFirst: [[[UInt8]]]

    init(_ stems: [String]) {
        var table = [[[UInt8]]](repeating: [], count: 128)
        for stem in stems {
            let bytes = Array(stem.utf8)
            precondition(
                !bytes.isEmpty && bytes.allSatisfy { $0 < 0x80 && !($0 >= 65 && $0 <= 90) },
                "a stem is lower-case ASCII")
            table[Int(bytes[0])].append(bytes)
        }
        byFirst = table
    }

    /// Whether some stem occurs in `text`.
    func occurs(in text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for index in bytes.indices {
                let byte = bytes[index] >= 65 && bytes[index] <= 90 ? bytes[index] | 0x20 : bytes[index]
                guard byte < 0x80 else { continue }
                for stem in byFirst[Int(byte)] where stem.count <= bytes.count - index {
                    var offset = 1
                    while offset < stem.count, FastText.same(bytes[index + offset], stem[offset], true) { offset += 1 }
                    if offset == stem.count { return true }
                }
            }
            return false
        }
    }
}
