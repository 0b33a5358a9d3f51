/// One native target of an Xcode project (`project.pbxproj`): its name, the Info.plist its build settings name
/// (`INFOPLIST_FILE`, relative to the project's folder), whether its settings generate the Face ID usage text
/// (`INFOPLIST_KEY_NSFaceIDUsageDescription`), and the file names its Sources phase compiles. An app and each of its
/// extensions are targets: an extension that compiles the app's LocalAuthentication code needs the key in its own
/// Info.plist.
struct XcodeTarget: Sendable, Equatable {
    let name: String
    let infoPlist: String?
    let generatesFaceIDUsage: Bool
    let sources: Set<String>
    /// `com.apple.product-type.application`, `...app-extension`, `...framework`...
    var productType = ""

    /// An app or an app extension: a bundle whose own Info.plist the system reads for usage descriptions (a
    /// framework's is not; its code runs in the app or extension that links it).
    var isAppOrExtension: Bool {
        productType.hasPrefix("com.apple.product-type.application") || productType.contains("extension")
    }
}

/// Reads the targets of a project file: a bounded reader of the old-style (OpenStep) property list Xcode writes —
/// dictionaries `{ key = value; }`, arrays `( a, b, )`, quoted and bare strings, `/* */` and `//` comments. Input that
/// is not one gives no targets; nesting deeper than ``maximumDepth`` is cut off, so any input stays linear.
enum XcodeTargets {
    static let maximumDepth = 32

    indirect enum Value {
        case string(String)
        case array([Value])
        case dictionary([String: Value])

        var string: String? { if case .string(let text) = self { text } else { nil } }
        var array: [Value] { if case .array(let items) = self { items } else { [] } }
        var dictionary: [String: Value] { if case .dictionary(let entries) = self { entries } else { [:] } }
    }

    static func targets(_ bytes: [UInt8]) -> [XcodeTarget] {
        var reader = Reader(bytes: bytes)
        guard let root = reader.value(depth: 0)?.dictionary, let objects = root["objects"]?.dictionary else {
            return []
        }
        func object(_ id: Value?) -> [String: Value] { id?.string.flatMap { objects[$0]?.dictionary } ?? [:] }
        var targets: [XcodeTarget] = []
        for (_, value) in objects.sorted(by: { $0.key < $1.key }) {
            let target = value.dictionary
            guard target["isa"]?.string == "PBXNativeTarget" else { continue }
            var infoPlist: String?
            var generates = false
            for configuration in object(target["buildConfigurationList"])["buildConfigurations"]?.array ?? [] {
                let settings = object(configuration)["buildSettings"]?.dictionary ?? [:]
                if infoPlist == nil, let file = settings["INFOPLIST_FILE"]?.string { infoPlist = file }
                if let text = settings["INFOPLIST_KEY_NSFaceIDUsageDescription"]?.string, !text.isEmpty {
                    generates = true
                }
            }
            var sources = Set<String>()
            for phase in target["buildPhases"]?.array ?? [] {
                let phase = object(phase)
                guard phase["isa"]?.string == "PBXSourcesBuildPhase" else { continue }
                for file in phase["files"]?.array ?? [] {
                    let reference = object(object(file)["fileRef"])
                    guard let path = reference["path"]?.string ?? reference["name"]?.string else { continue }
                    sources.insert(String(path.split(separator: "/").last ?? Substring(path)))
                }
            }
            targets.append(
                XcodeTarget(
                    name: target["name"]?.string ?? "", infoPlist: infoPlist.map(Self.relative),
                    generatesFaceIDUsage: generates, sources: sources,
                    productType: target["productType"]?.string ?? ""))
        }
        return targets
    }

    /// `$(SRCROOT)/App/Info.plist` and `App/Info.plist` alike: relative to the project's folder.
    static func relative(_ path: String) -> String {
        var path = Substring(path)
        for prefix in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/", "./"]
        where path.hasPrefix(prefix) {
            path = path.dropFirst(prefix.count)
        }
        return String(path)
    }

    struct Reader {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while position < bytes.count {
                let byte = bytes[position]
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    position += 1
                } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count,
                    bytes[position + 1] == UInt8(ascii: "*")
                {
                    position += 2
                    while position + 1 < bytes.count,
                        !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/"))
                    {
                        position += 1
                    }
                    position = min(bytes.count, position + 2)
                } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count,
                    bytes[position + 1] == UInt8(ascii: "/")
                {
                    while position < bytes.count, bytes[position] != 0x0A { position += 1 }
                } else {
                    return
                }
            }
        }

        mutating func symbol(_ character: Unicode.Scalar) -> Bool {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// A value; nil at the end of the input, on a byte no value starts with, or below ``maximumDepth``.
        mutating func value(depth: Int) -> Value? {
            skipSpace()
            guard position < bytes.count, depth < XcodeTargets.maximumDepth else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var entries: [String: Value] = [:]
                while !symbol("}") {
                    guard let key = value(depth: depth + 1)?.string, symbol("="),
                        let item = value(depth: depth + 1), symbol(";")
                    else { return nil }
                    entries[key] = item
                }
                return .dictionary(entries)
            case UInt8(ascii: "("):
                position += 1
                var items: [Value] = []
                while !symbol(")") {
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                    if !symbol(",") {
                        guard symbol(")") else { return nil }
                        break
                    }
                }
                return .array(items)
            case UInt8(ascii: "\""):
                position += 1
                var text: [UInt8] = []
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    if bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count { position += 1 }
                    text.append(bytes[position])
                    position += 1
                }
                guard position < bytes.count else { return nil }
                position += 1
                return .string(String(decoding: text, as: UTF8.self))
            default:
                let start = position
                while position < bytes.count, Self.isBare(bytes[position]) { position += 1 }
                guard position > start else { return nil }
                return .string(String(decoding: bytes[start..<position], as: UTF8.self))
            }
        }

        static func isBare(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "_$./-+:@".utf8.contains(byte)
            }
        }
    }
}
