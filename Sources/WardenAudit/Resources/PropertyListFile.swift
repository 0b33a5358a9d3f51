import Foundation

/// An Info.plist or `.entitlements` file, XML or binary, read with Foundation's `PropertyListSerialization`;
/// findings point at the line of the key in XML files (line 1 for binary ones).
package struct PropertyListFile: @unchecked Sendable {
    package let path: String
    /// The top-level dictionary.
    package let root: [String: Any]
    package let isBinary: Bool
    private let text: String?

    /// Parses `bytes`; `nil` when they are not a property list with a dictionary at the top.
    package init?(path: String, bytes: [UInt8]) {
        // Only what starts like a property list reaches Foundation's parser (it leaks an error object per rejected
        // input on Linux): a binary plist, or XML (optionally after a BOM and whitespace).
        let start = bytes.drop {
            $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D
        }
        guard bytes.starts(with: Array("bplist".utf8)) || start.first == UInt8(ascii: "<") else { return nil }
        var value = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        if value == nil, let preprocessed = Self.withoutPreprocessorLines(bytes) {
            // An Info.plist Xcode preprocesses (INFOPLIST_PREPROCESS): `#ifdef` lines between its elements. Read with
            // both branches of each conditional, as an audit should.
            value = try? PropertyListSerialization.propertyList(from: Data(preprocessed), options: [], format: nil)
        }
        guard let root = value as? [String: Any] else { return nil }
        self.path = path
        self.root = root
        isBinary = bytes.starts(with: Array("bplist".utf8))
        text = isBinary ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// `bytes` with each C preprocessor line (`#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`, `#endif`, `#define`,
    /// `#undef`, `#include`) emptied, line numbers kept; nil when there is none.
    static func withoutPreprocessorLines(_ bytes: [UInt8]) -> [UInt8]? {
        let directives = ["if", "ifdef", "ifndef", "elif", "else", "endif", "define", "undef", "include"]
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var changed = false
        for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            if number > 0 { output.append(0x0A) }
            let text = line.drop { $0 == 0x20 || $0 == 0x09 }
            if text.first == UInt8(ascii: "#") {
                let word = text.dropFirst().drop { $0 == 0x20 || $0 == 0x09 }.prefix { $0 >= 0x61 && $0 <= 0x7A }
                if directives.contains(String(decoding: word, as: UTF8.self)) {
                    changed = true
                    continue
                }
            }
            output.append(contentsOf: line)
        }
        return changed ? output : nil
    }

    /// The 1-based line of the first `<key>name</key>`, or 1 (binary lists have no lines).
    package func line(ofKey name: String) -> Int {
        guard let text, let range = text.range(of: "<key>\(name)</key>") else { return 1 }
        return text[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    /// A boolean value (`<true/>`, or a string "YES"/"true").
    package static func isTrue(_ value: Any?) -> Bool {
        if let flag = value as? Bool { return flag }
        if let number = value as? NSNumber { return number.boolValue }
        if let text = value as? String { return ["yes", "true", "1"].contains(text.lowercased()) }
        return false
    }
}
