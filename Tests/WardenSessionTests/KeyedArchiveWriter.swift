import Foundation

/// A binary property list (`bplist00`, Apple's format as CoreFoundation writes it: objects, an offset table, a 32-byte
/// trailer) and, over it, `NSKeyedArchiver`'s layout (`$archiver`, `$version`, `$top`, `$objects` with `CF$UID`
/// references, `$null` at 0, class records with `$classname`/`$classes`), so tests build each other SDK's archive
/// byte for byte as its classes write it — swift-corelibs-foundation's archiver ignores `setClassName`, so it cannot
/// write another SDK's class names on Linux.
indirect enum PlistValue {
    case string(String)
    case int(Int)
    case real(Double)
    case bool(Bool)
    case uid(Int)
    case data([UInt8])
    case array([PlistValue])
    case dictionary([(String, PlistValue)])

    /// The value as `bplist00` bytes.
    func binary() -> Data {
        var objects: [[UInt8]] = []
        var pending: [(index: Int, value: PlistValue)] = []
        // Object references are one byte when there are fewer than 256 objects, else two.
        func count(_ value: PlistValue) -> Int {
            switch value {
            case .array(let items): 1 + items.map(count).reduce(0, +)
            case .dictionary(let pairs): 1 + pairs.map { 1 + count($0.1) }.reduce(0, +)
            default: 1
            }
        }
        let total = count(self)
        let refSize = total < 256 ? 1 : 2
        func ref(_ n: Int) -> [UInt8] { refSize == 1 ? [UInt8(n)] : [UInt8(n >> 8), UInt8(n & 0xFF)] }
        func marker(_ high: UInt8, _ length: Int) -> [UInt8] {
            length < 15 ? [high << 4 | UInt8(length)] : [high << 4 | 0x0F] + int(length)
        }
        func int(_ value: Int) -> [UInt8] {
            if value >= 0, value < 256 { return [0x10, UInt8(value)] }
            if value >= 0, value < 65536 { return [0x11, UInt8(value >> 8), UInt8(value & 0xFF)] }
            return [0x13] + withUnsafeBytes(of: Int64(value).bigEndian, Array.init)
        }
        func add(_ value: PlistValue) -> Int {
            objects.append([])
            pending.append((objects.count - 1, value))
            return objects.count - 1
        }
        _ = add(self)
        while !pending.isEmpty {
            let (index, value) = pending.removeFirst()
            var bytes: [UInt8]
            switch value {
            case .string(let text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) {
                    bytes = marker(0x5, text.utf8.count) + Array(text.utf8)
                } else {
                    let units = Array(text.utf16)
                    bytes = marker(0x6, units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                }
            case .int(let value): bytes = int(value)
            case .real(let value): bytes = [0x23] + withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init)
            case .bool(let value): bytes = [value ? 0x09 : 0x08]
            case .uid(let value):
                bytes = value < 256 ? [0x80, UInt8(value)] : [0x81, UInt8(value >> 8), UInt8(value & 0xFF)]
            case .data(let value): bytes = marker(0x4, value.count) + value
            case .array(let items):
                bytes = marker(0xA, items.count) + items.flatMap { ref(add($0)) }
            case .dictionary(let pairs):
                let keys = pairs.map { add(.string($0.0)) }
                let values = pairs.map { add($0.1) }
                bytes = marker(0xD, pairs.count) + keys.flatMap(ref) + values.flatMap(ref)
            }
            objects[index] = bytes
        }
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(out.count)
            out += object
        }
        let tableOffset = out.count
        let offsetSize = tableOffset < 256 ? 1 : tableOffset < 65536 ? 2 : 4
        for offset in offsets {
            out += (0..<offsetSize).reversed().map { UInt8((offset >> ($0 * 8)) & 0xFF) }
        }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        out += withUnsafeBytes(of: UInt64(objects.count).bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
        out += withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init)
        return Data(out)
    }
}

/// `NSKeyedArchiver`'s object table, built the way it encodes: strings and numbers inline, objects as dictionaries
/// with a `$class` reference, `NSDate` as `NS.time` (seconds since 2001), `NSURL` as `NS.base`/`NS.relative`, nil as
/// a reference to `$null`.
final class KeyedArchive {
    enum Field {
        case string(String?)
        case date(Date)
        case url(String)
        case object(Int)
        case bool(Bool)
        case dictionary([String: String])
    }

    private(set) var objects: [PlistValue] = [.string("$null")]
    private var classes: [String: Int] = [:]

    func append(_ value: PlistValue) -> Int {
        objects.append(value)
        return objects.count - 1
    }

    /// A class record; `renamed` leaves out `$classes`, as an archiver does for a class renamed with `setClassName`.
    func classRecord(_ name: String, renamed: Bool = false) -> Int {
        if let known = classes[name] { return known }
        var record: [(String, PlistValue)] = [("$classname", .string(name))]
        if !renamed { record.append(("$classes", .array([.string(name), .string("NSObject")]))) }
        let index = append(.dictionary(record))
        classes[name] = index
        return index
    }

    /// An archived object of class `name` with `fields` (the keys its `encode(with:)` writes).
    func object(_ name: String, renamed: Bool = false, _ fields: [(String, Field)]) -> Int {
        let index = append(.string("placeholder"))
        var record: [(String, PlistValue)] = []
        for (key, field) in fields {
            switch field {
            case .string(let text): record.append((key, .uid(text.map { append(.string($0)) } ?? 0)))
            case .date(let date):
                let time = date.timeIntervalSinceReferenceDate
                record.append(
                    (
                        key,
                        .uid(append(.dictionary([("$class", .uid(classRecord("NSDate"))), ("NS.time", .real(time))])))
                    )
                )
            case .url(let text):
                record.append(
                    (
                        key,
                        .uid(
                            append(
                                .dictionary([
                                    ("$class", .uid(classRecord("NSURL"))), ("NS.base", .uid(0)),
                                    ("NS.relative", .uid(append(.string(text)))),
                                ])))
                    ))
            case .object(let reference): record.append((key, .uid(reference)))
            case .bool(let value): record.append((key, .bool(value)))
            case .dictionary(let pairs):
                let keys = pairs.keys.sorted()
                record.append(
                    (
                        key,
                        .uid(
                            append(
                                .dictionary([
                                    ("$class", .uid(classRecord("NSDictionary"))),
                                    ("NS.keys", .array(keys.map { .uid(append(.string($0))) })),
                                    ("NS.objects", .array(keys.map { .uid(append(.string(pairs[$0]!))) })),
                                ])))
                    ))
            }
        }
        record.append(("$class", .uid(classRecord(name, renamed: renamed))))
        objects[index] = .dictionary(record)
        return index
    }

    /// The archive with `root` as its root object.
    func data(root: Int) -> Data {
        PlistValue.dictionary([
            ("$version", .int(100000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary([("root", .uid(root))])), ("$objects", .array(objects)),
        ]).binary()
    }
}
