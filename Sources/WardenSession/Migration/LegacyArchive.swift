import Foundation

/// A reader of `NSKeyedArchiver` archives in Apple's binary property-list format (`bplist00`), for the items other
/// SDKs archived: it reads the object table and follows `CF$UID` references on request, and never instantiates a
/// class. Written here because Foundation's unarchiver cannot read another SDK's archive safely on every platform:
/// swift-corelibs-foundation aborts the process on a class it was not told to expect under secure coding
/// (`NSKeyedUnarchiver.swift`, `_isClassAllowed`: `fatalError("Value was of unexpected class")`), and without secure
/// coding instantiates whatever class an archive names. Every read is bounds-checked; a malformed archive is a
/// ``MigrationError`` (`unreadable`), never a trap.
///
/// The layout (Apple's `CFBinaryPList.c`, swift-corelibs-foundation's `NSKeyedArchiver.swift`): a `bplist00` header,
/// objects, an offset table, and a 32-byte trailer (offset size, reference size, object count, top object, table
/// offset); the archive is a dictionary of `$archiver`, `$version`, `$top` (`root` → a UID) and `$objects`, where UID 0
/// is `$null`, strings and numbers are inline, objects are dictionaries with a `$class` UID naming a record with
/// `$classname`, dates are `NS.time` (seconds since 2001), and URLs `NS.base`/`NS.relative`.
struct LegacyArchive {
    /// One archived object: its class name and its encoded keys (to property-list references).
    struct Object {
        let className: String
        fileprivate let fields: [String: Int]
    }

    private let plist: BinaryPropertyList
    /// `$objects`: the property-list reference of each archive object, indexed by UID.
    private let objects: [Int]

    init(_ data: Data) throws(MigrationError) {
        plist = try BinaryPropertyList(Array(data))
        guard let top = plist.dictionary(plist.top), plist.string(top["$archiver"]) == "NSKeyedArchiver",
            let table = top["$objects"].flatMap(plist.array), !table.isEmpty
        else { throw MigrationError(.unreadable, "the item is not a keyed archive") }
        objects = table
    }

    /// The root object, which must be of one of `classNames`.
    func root(_ classNames: Set<String>) throws(MigrationError) -> Object {
        guard let top = plist.dictionary(plist.top), let roots = top["$top"].flatMap(plist.dictionary),
            let root = object(uid: plist.uid(roots["root"])), classNames.contains(root.className)
        else {
            throw MigrationError(
                .unreadable, "the archive's root is not \(classNames.sorted().joined(separator: " or "))")
        }
        return root
    }

    private func object(uid: Int?) -> Object? {
        guard let uid, uid > 0, uid < objects.count, let record = plist.dictionary(objects[uid]),
            let classUID = plist.uid(record["$class"]), classUID > 0, classUID < objects.count,
            let classRecord = plist.dictionary(objects[classUID]),
            let name = plist.string(classRecord["$classname"])
        else { return nil }
        return Object(className: name, fields: record)
    }

    /// The object `key` refers to, when it is of one of `classNames`.
    func object(_ key: String, of owner: Object, _ classNames: Set<String>) -> Object? {
        guard let found = object(uid: plist.uid(owner.fields[key])), classNames.contains(found.className) else {
            return nil
        }
        return found
    }

    /// Whether `key` was encoded (a reference to `$null` counts: the archiver wrote nil).
    func contains(_ key: String, in owner: Object) -> Bool { owner.fields[key] != nil }

    /// A string: inline, or an `NSString`/`NSMutableString` record's `NS.string`; nil for `$null` or anything else.
    func string(_ key: String, of owner: Object) -> String? {
        guard let uid = plist.uid(owner.fields[key]), uid > 0, uid < objects.count else { return nil }
        if let inline = plist.string(objects[uid]) { return inline }
        guard let record = object(uid: uid), record.className.hasSuffix("String") else { return nil }
        return plist.string(record.fields["NS.string"])
    }

    /// An `NSDate` (`NS.time`, seconds since 2001).
    func date(_ key: String, of owner: Object) -> Date? {
        guard let record = object(uid: plist.uid(owner.fields[key])), record.className.hasSuffix("Date"),
            let time = plist.real(record.fields["NS.time"]), time.isFinite
        else { return nil }
        return Date(timeIntervalSinceReferenceDate: time)
    }

    /// An `NSURL` (`NS.relative` against `NS.base`, which the SDKs leave nil).
    func url(_ key: String, of owner: Object) -> URL? {
        guard let record = object(uid: plist.uid(owner.fields[key])), record.className.hasSuffix("URL"),
            let relative = string("NS.relative", of: record)
        else { return nil }
        guard let baseRecord = object(uid: plist.uid(record.fields["NS.base"])) else { return URL(string: relative) }
        guard let base = string("NS.relative", of: baseRecord).flatMap(URL.init(string:)) else { return nil }
        return URL(string: relative, relativeTo: base)?.absoluteURL
    }
}

/// Apple's binary property list, read lazily by object reference with every offset and length checked.
struct BinaryPropertyList {
    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int
    /// The top object's reference.
    let top: Int

    init(_ bytes: [UInt8]) throws(MigrationError) {
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
            throw MigrationError(.unreadable, "the item is not a binary property list")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = Self.integer(bytes, at: trailer + 8, size: 8)
        let top = Self.integer(bytes, at: trailer + 16, size: 8)
        let table = Self.integer(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), let count, let top, let table,
            count > 0, count <= trailer, top < count, table >= 8, table <= trailer,
            count <= (trailer - table) / offsetSize
        else { throw MigrationError(.unreadable, "the property list's trailer is malformed") }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for index in 0..<count {
            guard let offset = Self.integer(bytes, at: table + index * offsetSize, size: offsetSize), offset >= 8,
                offset < table
            else { throw MigrationError(.unreadable, "the property list's offset table is malformed") }
            offsets.append(offset)
        }
        self.bytes = bytes
        self.offsets = offsets
        self.referenceSize = referenceSize
        self.top = top
    }

    /// A big-endian unsigned integer of `size` bytes at `position`, nil past the end or beyond `Int`.
    private static func integer(_ bytes: [UInt8], at position: Int, size: Int) -> Int? {
        guard position >= 0, size >= 1, size <= 8, position <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for byte in bytes[position..<position + size] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    /// The object's marker, and where its payload starts and how many items or bytes it has.
    private func header(_ reference: Int) -> (type: UInt8, start: Int, count: Int)? {
        guard reference >= 0, reference < offsets.count else { return nil }
        let position = offsets[reference]
        let marker = bytes[position]
        let type = marker >> 4
        var count = Int(marker & 0x0F)
        var start = position + 1
        if count == 0x0F, [0x4, 0x5, 0x6, 0xA, 0xD].contains(type) {
            guard start < bytes.count, bytes[start] >> 4 == 0x1 else { return nil }
            let size = 1 << Int(bytes[start] & 0x0F)
            guard let length = Self.integer(bytes, at: start + 1, size: size) else { return nil }
            count = length
            start += 1 + size
        }
        return (type, start, count)
    }

    /// The payload of `count` units of `width` bytes at `start`, when it fits.
    private func payload(_ start: Int, _ count: Int, width: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= (bytes.count - start) / width else { return nil }
        return bytes[start..<start + count * width]
    }

    private func references(_ start: Int, _ count: Int) -> [Int]? {
        guard let slice = payload(start, count, width: referenceSize) else { return nil }
        var result: [Int] = []
        result.reserveCapacity(count)
        var position = slice.startIndex
        while position < slice.endIndex {
            guard let reference = Self.integer(bytes, at: position, size: referenceSize), reference < offsets.count
            else { return nil }
            result.append(reference)
            position += referenceSize
        }
        return result
    }

    func string(_ reference: Int?, maximumBytes: Int = Int.max) -> String? {
        guard let reference, let (type, start, count) = header(reference), count <= maximumBytes else { return nil }
        switch type {
        case 0x5:
            guard let slice = payload(start, count, width: 1), slice.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(decoding: slice, as: UTF8.self)
        case 0x6:
            guard let slice = payload(start, count, width: 2) else { return nil }
            let units = stride(from: slice.startIndex, to: slice.endIndex, by: 2).map {
                UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
            }
            return String(utf16CodeUnits: units, count: units.count)
        default: return nil
        }
    }

    func real(_ reference: Int?) -> Double? {
        guard let reference, let (type, start, count) = header(reference), type == 0x2 else { return nil }
        switch count {
        case 2: return Self.integer(bytes, at: start, size: 4).map { Double(Float(bitPattern: UInt32($0))) }
        case 3:
            guard start <= bytes.count - 8 else { return nil }
            var value: UInt64 = 0
            for byte in bytes[start..<start + 8] { value = value << 8 | UInt64(byte) }
            return Double(bitPattern: value)
        default: return nil
        }
    }

    func uid(_ reference: Int?) -> Int? {
        guard let reference, reference >= 0, reference < offsets.count else { return nil }
        let position = offsets[reference]
        guard bytes[position] >> 4 == 0x8 else { return nil }
        return Self.integer(bytes, at: position + 1, size: Int(bytes[position] & 0x0F) + 1)
    }

    func array(_ reference: Int) -> [Int]? {
        guard let (type, start, count) = header(reference), type == 0xA else { return nil }
        return references(start, count)
    }

    /// The most entries a dictionary may have, and the longest key: an archive object has a few dozen keys of a few
    /// dozen bytes, and the bounds keep each read of one linear in a small size.
    static let maximumEntries = 1024
    static let maximumKeyBytes = 256

    /// A dictionary with string keys, to its values' references; nil for a duplicate key, an over-long key or more
    /// than ``maximumEntries`` entries.
    func dictionary(_ reference: Int) -> [String: Int]? {
        guard let (type, start, count) = header(reference), type == 0xD, count <= Self.maximumEntries,
            let all = references(start, count * 2)
        else { return nil }
        var result: [String: Int] = [:]
        for index in 0..<count {
            guard let key = string(all[index], maximumBytes: Self.maximumKeyBytes), result[key] == nil else {
                return nil
            }
            result[key] = all[count + index]
        }
        return result
    }
}
