import Foundation

/// An Info.plist or `.entitlements` file, XML or binary, read with Foundation's `PropertyListSerialization`;
/// findings point at the line of the key in XML files (line 1 for binary ones).
package struct PropertyListFile: @unchecked Sendable {
    package let path: String
    /// The top-level dictionary.
    package let root: [String: Any]
    package let isBinary: Bool
    /// The 1-based line of each key's first `<key>name</key>` (XML only), found in one pass: the ATS rule asks for
    /// every exception domain, and a search from the top per key was quadratic (4,000 domains: 31 s).
    private let keyLines: [String: Int]
    /// Bytes indexed and keys looked up: the work this file cost, counted in ``AuditReport/steps``.
    private let counter = StepCounter()
    package var steps: Int { counter.steps }

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
        let index = isBinary ? (lines: [:], steps: 0) : Self.keyLines(bytes)
        keyLines = index.lines
        counter.steps = index.steps
    }

    /// Each `<key>…</key>`'s text (as written: entities are not decoded, as in the search this replaces) and the
    /// line of its first occurrence; `steps` counts every byte the scan looks at, where it looks.
    static func keyLines(_ bytes: [UInt8]) -> (lines: [String: Int], steps: Int) {
        let open = Array("<key>".utf8)
        let close = Array("</key>".utf8)
        var lines: [String: Int] = [:]
        var line = 1
        var index = 0
        var steps = 0
        while index < bytes.count {
            steps += 1
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
            } else if byte == 0x3C, bytes[index...].starts(with: open) {
                let start = index + open.count
                var end = start
                while end < bytes.count, bytes[end] != 0x3C, bytes[end] != 0x0A {
                    end += 1
                    steps += 1
                }
                if bytes[end...].starts(with: close) {
                    let key = String(decoding: bytes[start..<end], as: UTF8.self)
                    if lines[key] == nil { lines[key] = line }
                    index = end + close.count
                    continue
                }
            }
            index += 1
        }
        return (lines, steps)
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

    /// The 1-based line of the first `<key>name</key>`, or 1 (binary lists have no lines). One step: a probe of the
    /// index the init built.
    package func line(ofKey name: String) -> Int {
        counter.steps += 1
        return keyLines[name] ?? 1
    }

    /// A boolean value (`<true/>`, or a string "YES"/"true").
    package static func isTrue(_ value: Any?) -> Bool {
        if let flag = value as? Bool { return flag }
        if let number = value as? NSNumber { return number.boolValue }
        if let text = value as? String { return ["yes", "true", "1"].contains(text.lowercased()) }
        return false
    }
}

/// A count of work done, for a value that is read by one worker at a time (a file is scanned by one thread).
package final class StepCounter: @unchecked Sendable {
    package var steps = 0
}
