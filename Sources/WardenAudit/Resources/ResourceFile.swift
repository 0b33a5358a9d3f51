import Foundation
import WardenCore

/// A resource the auditor reads besides source files: a property list (Info.plist, entitlements, configuration
/// plists), a JSON file or an `.xcconfig` build setting file. Rules see its typed contents (``propertyList``) and
/// every string value under its key with a line (``entries``), for hard-coded credentials.
struct ResourceFile {
    enum Kind: Sendable { case propertyList, json, xcconfig, xcodeProject }

    /// A string value and the key it is stored under.
    struct Entry: Sendable, Equatable {
        let key: String
        let value: String
        let line: Int
    }

    let path: String
    let kind: Kind
    /// The parsed property list (for property lists).
    let propertyList: PropertyListFile?
    /// Every string value with its key (for arrays: the key of the array) and line.
    let entries: [Entry]
    /// The native targets (for Xcode project files).
    var targets: [XcodeTarget] = []

    /// The file name without folders.
    var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// Reads `bytes` as the resource kind its extension names; `nil` (with a reason) when it is not one.
    static func read(path: String, bytes: [UInt8]) -> Result<ResourceFile, Unreadable> {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "plist", "entitlements":
            guard let plist = PropertyListFile(path: path, bytes: bytes) else {
                return .failure(Unreadable(reason: "not a property list with a dictionary at the top"))
            }
            let entries = plist.isBinary ? Self.entries(of: plist.root) : PropertyListScanner.entries(bytes)
            return .success(ResourceFile(path: path, kind: .propertyList, propertyList: plist, entries: entries))
        case "json":
            guard UTF8Validation.isValid(bytes) else { return .failure(Unreadable(reason: "not UTF-8")) }
            return .success(
                ResourceFile(path: path, kind: .json, propertyList: nil, entries: JSONScanner.entries(bytes)))
        case "xcconfig":
            guard UTF8Validation.isValid(bytes) else { return .failure(Unreadable(reason: "not UTF-8")) }
            return .success(
                ResourceFile(path: path, kind: .xcconfig, propertyList: nil, entries: XCConfigScanner.entries(bytes)))
        case "pbxproj":
            guard UTF8Validation.isValid(bytes) else { return .failure(Unreadable(reason: "not UTF-8")) }
            return .success(
                ResourceFile(
                    path: path, kind: .xcodeProject, propertyList: nil, entries: XcodeProjectScanner.entries(bytes),
                    targets: XcodeTargets.targets(bytes)))
        default:
            return .failure(Unreadable(reason: "not a resource file"))
        }
    }

    struct Unreadable: Error {
        let reason: String
    }

    /// The string values of a parsed (binary) property list, all on line 1.
    private static func entries(of value: Any, key: String = "", depth: Int = 0) -> [Entry] {
        guard depth < 64 else { return [] }
        if let text = value as? String { return [Entry(key: key, value: text, line: 1)] }
        if let dictionary = value as? [String: Any] {
            return dictionary.keys.sorted().flatMap { entries(of: dictionary[$0]!, key: $0, depth: depth + 1) }
        }
        if let array = value as? [Any] { return array.flatMap { entries(of: $0, key: key, depth: depth + 1) } }
        return []
    }
}

/// `<key>K</key> <string>V</string>` pairs of an XML property list, with lines, in one pass over the bytes.
enum PropertyListScanner {
    static func entries(_ bytes: [UInt8]) -> [ResourceFile.Entry] {
        var entries: [ResourceFile.Entry] = []
        var line = 1
        var index = 0
        var key: String?
        var arrayKeys: [String?] = []
        func starts(_ text: StaticString, at position: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            return text.withUTF8Buffer { pattern in
                for offset in 0..<count where bytes[position + offset] != pattern[offset] { return false }
                return true
            }
        }
        // A closing tag searched for and not found is never found later: one failed search per tag at most.
        var missing = Set<String>()
        func content(from start: Int, until close: StaticString) -> (String, Int)? {
            let name = close.description
            guard !missing.contains(name) else { return nil }
            var end = start
            while end < bytes.count, !starts(close, at: end) { end += 1 }
            guard end < bytes.count else {
                missing.insert(name)
                return nil
            }
            return (unescape(String(decoding: bytes[start..<end], as: UTF8.self)), end + close.utf8CodeUnitCount)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 10 {
                line += 1
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if starts("<key>", at: index), let (text, next) = content(from: index + 5, until: "</key>") {
                key = text
                line += text.utf8.reduce(0) { $1 == 10 ? $0 + 1 : $0 }
                index = next
            } else if starts("<string>", at: index), let (text, next) = content(from: index + 8, until: "</string>") {
                let owner = key ?? arrayKeys.last ?? nil
                entries.append(ResourceFile.Entry(key: owner ?? "", value: text, line: line))
                line += text.utf8.reduce(0) { $1 == 10 ? $0 + 1 : $0 }
                if arrayKeys.isEmpty || key != nil { key = nil }
                index = next
            } else if starts("<array>", at: index) {
                arrayKeys.append(key)
                key = nil
                index += 7
            } else if starts("</array>", at: index) {
                _ = arrayKeys.popLast()
                index += 8
            } else {
                // Any other value ends the pending key (<true/>, <integer>, <dict>).
                if !starts("<!--", at: index), !starts("<?", at: index), !starts("<!", at: index) { key = nil }
                index += 1
            }
        }
        return entries
    }

    static func unescape(_ text: String) -> String {
        guard FastText.contains(text, "&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// `"key": "value"` pairs of a JSON document (and the strings of arrays under a key), with lines; tolerant of
/// malformed input, which simply yields fewer entries.
enum JSONScanner {
    static func entries(_ bytes: [UInt8]) -> [ResourceFile.Entry] {
        var entries: [ResourceFile.Entry] = []
        var line = 1
        var index = 0
        // The key of each open container (the array's key for its strings).
        var containers: [String] = []
        var pendingKey: String?
        func string() -> String? {
            // At the opening quote.
            var scalars: [UInt8] = []
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: scalars, as: UTF8.self)
                }
                if byte == 10 { return nil }  // JSON strings never span lines
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    let escaped = bytes[index + 1]
                    switch escaped {
                    case UInt8(ascii: "n"): scalars.append(10)
                    case UInt8(ascii: "t"): scalars.append(9)
                    case UInt8(ascii: "u"): scalars.append(UInt8(ascii: "?"))
                    default: scalars.append(escaped)
                    }
                    index += escaped == UInt8(ascii: "u") ? 6 : 2
                    continue
                }
                scalars.append(byte)
                index += 1
            }
            return nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 10:
                line += 1
                index += 1
            case UInt8(ascii: "\""):
                let startLine = line
                guard let text = string() else { continue }
                var look = index
                while look < bytes.count, bytes[look] == 32 || bytes[look] == 9 || bytes[look] == 13 { look += 1 }
                if look < bytes.count, bytes[look] == UInt8(ascii: ":") {
                    pendingKey = text
                    index = look + 1
                } else {
                    let key = pendingKey ?? containers.last ?? ""
                    entries.append(ResourceFile.Entry(key: key, value: text, line: startLine))
                    pendingKey = nil
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                containers.append(pendingKey ?? containers.last ?? "")
                if containers.count > 256 { return entries }
                pendingKey = nil
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = containers.popLast()
                pendingKey = nil
                index += 1
            case UInt8(ascii: ","):
                pendingKey = nil
                index += 1
            default:
                index += 1
            }
        }
        return entries
    }
}

/// `NAME = value` build settings of an `.xcconfig` file (`NAME[sdk=*] = value` included), with lines; comments
/// (`//`) and `#include` lines are skipped.
enum XCConfigScanner {
    static func entries(_ bytes: [UInt8]) -> [ResourceFile.Entry] {
        var entries: [ResourceFile.Entry] = []
        let text = String(decoding: bytes, as: UTF8.self)
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            // A `//` starts a comment unless it is part of a URL (`https://`).
            var search = line.startIndex
            while let range = line[search...].range(of: "//") {
                if range.lowerBound > line.startIndex, line[line.index(before: range.lowerBound)] == ":" {
                    search = range.upperBound
                    continue
                }
                line = line[..<range.lowerBound]
                break
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            var name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            if let bracket = name.firstIndex(of: "[") { name = String(name[..<bracket]) }
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !value.isEmpty else { continue }
            entries.append(ResourceFile.Entry(key: name, value: value, line: number + 1))
        }
        return entries
    }
}

/// The generated-Info.plist build settings of an Xcode project (`project.pbxproj`): `INFOPLIST_KEY_<key> = value;`,
/// which Xcode (13 and later, the default for new projects) writes into the app's Info.plist at build time. Only
/// those settings are read; the rest of the project file is not a resource.
enum XcodeProjectScanner {
    static func entries(_ bytes: [UInt8]) -> [ResourceFile.Entry] {
        var entries: [ResourceFile.Entry] = []
        let text = String(decoding: bytes, as: UTF8.self)
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("INFOPLIST_KEY_"), line.hasSuffix(";"), let equals = line.range(of: " = ") else {
                continue
            }
            let name = String(line[..<equals.lowerBound])
            var value = Substring(line[equals.upperBound...].dropLast())
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            entries.append(ResourceFile.Entry(key: name, value: String(value), line: number + 1))
        }
        return entries
    }
}
