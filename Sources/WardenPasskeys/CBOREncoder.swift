/// A CBOR encoder producing the canonical form ``CBORDecoder`` requires (CTAP2: preferred integer and length
/// encodings, map keys ordered shorter-first then bytewise). Used for COSE keys and by authenticator tests.
///
/// ```swift
/// let bytes = CBOREncoder.encode(CBOREncoder.map([(.unsigned(1), .unsigned(2))]))
/// ```
public enum CBOREncoder {
    /// The canonical encoding of `value`.
    public static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let n): return head(0, n)
        case .negative(let n): return head(1, UInt64(-1 - n))
        case .bytes(let bytes): return head(2, UInt64(bytes.count)) + bytes
        case .text(let text): return head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): return head(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let entries):
            let encoded = entries.map { (encode($0.key), encode($0.value)) }.sorted {
                $0.0.count != $1.0.count ? $0.0.count < $1.0.count : $0.0.lexicographicallyPrecedes($1.0)
            }
            return head(5, UInt64(entries.count)) + encoded.flatMap { $0.0 + $0.1 }
        case .bool(let flag): return [flag ? 0xF5 : 0xF4]
        case .null: return [0xF6]
        }
    }

    /// A map from `(key, value)` pairs (ordered canonically when encoded).
    public static func map(_ pairs: [(CBORValue, CBORValue)]) -> CBORValue {
        .map(pairs.map { CBORMapEntry(key: $0.0, value: $0.1) })
    }

    /// An integer value.
    public static func int(_ value: Int64) -> CBORValue { value >= 0 ? .unsigned(UInt64(value)) : .negative(value) }

    private static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let top = major << 5
        switch argument {
        case 0..<24: return [top | UInt8(argument)]
        case 24...0xFF: return [top | 24, UInt8(argument)]
        case 0x100...0xFFFF: return [top | 25] + bytes(argument, 2)
        case 0x1_0000...0xFFFF_FFFF: return [top | 26] + bytes(argument, 4)
        default: return [top | 27] + bytes(argument, 8)
        }
    }

    private static func bytes(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
