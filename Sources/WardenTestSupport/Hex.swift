/// Hexadecimal for test vectors (RFC examples, Wycheproof, CBOR appendix values).
package enum Hex {
    /// The bytes of `text`; characters that are not hex digits (spaces, colons, line breaks) are skipped, so vectors
    /// can be pasted as printed.
    package static func decode(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for c in text.utf8 {
            let value: UInt8
            switch c {
            case 48...57: value = c - 48
            case 97...102: value = c - 87
            case 65...70: value = c - 55
            default: continue
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        precondition(high == nil, "an odd number of hex digits")
        return bytes
    }

    /// Lowercase hex of `bytes`.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: out, as: UTF8.self)
    }
}
