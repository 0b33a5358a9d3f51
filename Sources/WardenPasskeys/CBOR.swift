import WardenCore

/// A CBOR value (RFC 8949) of the subset WebAuthn uses: integers, byte and text strings, arrays, maps, booleans
/// and null. Tags, floats, `undefined` and indefinite lengths do not appear in WebAuthn data and are refused.
public indirect enum CBORValue: Sendable, Hashable {
    /// A non-negative integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer, stored as its value (`-1 - n` in CBOR terms).
    case negative(Int64)
    /// A byte string (major type 2).
    case bytes([UInt8])
    /// A text string (major type 3), valid UTF-8.
    case text(String)
    /// An array of items (major type 4).
    case array([CBORValue])
    /// Map entries in encoded order (canonical, no duplicates).
    case map([CBORMapEntry])
    /// `true` or `false` (simple values 21 and 20).
    case bool(Bool)
    /// `null` (simple value 22).
    case null

    /// The integer value when it fits in `Int64`.
    public var integer: Int64? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): value
        default: nil
        }
    }

    /// The value for an integer key in a map.
    public subscript(key: Int64) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key.integer == key }?.value
    }

    /// The value for a text key in a map.
    public subscript(key: String) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }
}

/// One map entry.
public struct CBORMapEntry: Sendable, Hashable {
    /// The entry's key.
    public let key: CBORValue
    /// The entry's value.
    public let value: CBORValue

    /// An entry with `key` and `value`.
    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}

/// Why CBOR input was refused: always `malformed_cbor`, rejected, with the byte offset where decoding stopped.
public struct CBORError: WardenError, Equatable {
    public let reason: String
    /// The offset of the byte where the input stopped being strict CBOR.
    public let offset: Int
    public var codeName: String { "malformed_cbor" }
    public var failureKind: FailureKind { .rejected }
    /// The offset, in place of a source location: it is what a bug report about an input needs.
    public var location: String? { "byte \(offset)" }
    public var description: String { "CBOR: \(reason) at byte \(offset)" }
}

/// A strict CBOR decoder for WebAuthn (attestation objects, COSE keys): definite lengths only, minimal
/// ("preferred") encodings of integers and lengths, map keys unique and in CTAP2 canonical order (shorter
/// encodings first, then bytewise), valid UTF-8 text, and caps on size, depth and item count.
///
/// ```swift
/// let attestation = try CBORDecoder().decode(attestationObjectBytes)
/// let format = attestation["fmt"]
/// ```
public struct CBORDecoder: Sendable {
    /// The largest input accepted, in bytes (default 1 MiB).
    public var maximumBytes: Int
    /// The deepest nesting accepted, with the top-level item at depth 0 (default 16).
    public var maximumDepth: Int
    /// The most items accepted in one input, counting map keys and nested items (default 65,536).
    public var maximumItems: Int

    /// A decoder with caps on input size, nesting depth and item count.
    public init(maximumBytes: Int = 1 << 20, maximumDepth: Int = 16, maximumItems: Int = 65_536) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumItems = maximumItems
    }

    /// Decodes exactly one item filling `bytes`.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, consumed) = try decodePrefix(bytes)
        guard consumed == bytes.count else {
            throw CBORError(reason: "trailing bytes after the item", offset: consumed)
        }
        return value
    }

    /// Decodes one item at the start of `bytes` and returns how many bytes it used (authenticator data holds a
    /// COSE key followed by extensions).
    public func decodePrefix(_ bytes: [UInt8]) throws(CBORError) -> (CBORValue, Int) {
        guard bytes.count <= maximumBytes else {
            throw CBORError(reason: "input over \(maximumBytes) bytes", offset: 0)
        }
        var reader = Reader(bytes: bytes, maximumDepth: maximumDepth, maximumItems: maximumItems)
        let value = try reader.item(depth: 0)
        return (value, reader.offset)
    }

    struct Reader {
        let bytes: [UInt8]
        let maximumDepth: Int
        let maximumItems: Int
        var offset = 0
        var items = 0

        mutating func byte() throws(CBORError) -> UInt8 {
            guard offset < bytes.count else { throw CBORError(reason: "truncated", offset: offset) }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// The argument of a head: the value for additional info < 24, else the following 1/2/4/8 bytes, which
        /// must be minimal.
        mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
            let start = offset - 1
            switch info {
            case 0..<24: return UInt64(info)
            case 24, 25, 26, 27:
                let count = 1 << Int(info - 24)
                guard bytes.count - offset >= count else {
                    throw CBORError(reason: "truncated argument", offset: offset)
                }
                var value: UInt64 = 0
                for _ in 0..<count {
                    value = value << 8 | UInt64(bytes[offset])
                    offset += 1
                }
                let minimum: UInt64 = [24, 256, 65_536, 4_294_967_296][Int(info - 24)]
                guard value >= minimum || (info == 24 && value >= 24) else {
                    throw CBORError(reason: "non-minimal encoding", offset: start)
                }
                if info == 24, value < 24 { throw CBORError(reason: "non-minimal encoding", offset: start) }
                return value
            case 31: throw CBORError(reason: "indefinite lengths are not allowed", offset: start)
            default: throw CBORError(reason: "reserved additional information", offset: start)
            }
        }

        mutating func length(_ info: UInt8) throws(CBORError) -> Int {
            let value = try argument(info)
            guard value <= UInt64(bytes.count - offset) else {
                throw CBORError(reason: "length beyond the input", offset: offset)
            }
            return Int(value)
        }

        mutating func item(depth: Int) throws(CBORError) -> CBORValue {
            guard depth <= maximumDepth else {
                throw CBORError(reason: "nested deeper than \(maximumDepth)", offset: offset)
            }
            items += 1
            guard items <= maximumItems else {
                throw CBORError(reason: "more than \(maximumItems) items", offset: offset)
            }
            let start = offset
            let head = try byte()
            let major = head >> 5
            let info = head & 0x1F
            switch major {
            case 0: return .unsigned(try argument(info))
            case 1:
                let n = try argument(info)
                guard n <= UInt64(Int64.max) else {
                    throw CBORError(reason: "negative integer out of range", offset: start)
                }
                return .negative(-1 - Int64(n))
            case 2:
                let count = try length(info)
                defer { offset += count }
                return .bytes(Array(bytes[offset..<(offset + count)]))
            case 3:
                let count = try length(info)
                let slice = Array(bytes[offset..<(offset + count)])
                guard let text = UTF8Validation.string(slice) else {
                    throw CBORError(reason: "text is not valid UTF-8", offset: offset)
                }
                offset += count
                return .text(text)
            case 4:
                let count = try argument(info)
                guard count <= UInt64(bytes.count - offset) else {
                    throw CBORError(reason: "array longer than the input", offset: start)
                }
                var values: [CBORValue] = []
                for _ in 0..<count { values.append(try item(depth: depth + 1)) }
                return .array(values)
            case 5:
                let count = try argument(info)
                guard count <= UInt64(bytes.count - offset) / 2 else {
                    throw CBORError(reason: "map longer than the input", offset: start)
                }
                var entries: [CBORMapEntry] = []
                var previousKey: ArraySlice<UInt8>?
                for _ in 0..<count {
                    let keyStart = offset
                    let key = try item(depth: depth + 1)
                    let encodedKey = bytes[keyStart..<offset]
                    if let previous = previousKey {
                        // CTAP2 canonical order: shorter encodings first, then bytewise; equal means duplicate.
                        if previous.elementsEqual(encodedKey) {
                            throw CBORError(reason: "duplicate map key", offset: keyStart)
                        }
                        let ordered =
                            previous.count < encodedKey.count
                            || (previous.count == encodedKey.count && previous.lexicographicallyPrecedes(encodedKey))
                        guard ordered else {
                            throw CBORError(reason: "map keys are not in canonical order", offset: keyStart)
                        }
                    }
                    previousKey = encodedKey
                    entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
                }
                return .map(entries)
            case 6: throw CBORError(reason: "tags are not used in WebAuthn data", offset: start)
            default:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                default: throw CBORError(reason: "floats, undefined and simple values are not allowed", offset: start)
                }
            }
        }
    }
}
