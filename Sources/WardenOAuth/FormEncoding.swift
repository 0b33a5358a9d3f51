import WardenCore

/// `application/x-www-form-urlencoded` and query encoding with RFC 3986 percent-encoding: only unreserved
/// characters stay literal, so `+`, `&`, `=` and spaces inside values can never change the structure.
package enum FormEncoding {
    /// Percent-encodes `value` (UTF-8), keeping only `A-Z a-z 0-9 - . _ ~`.
    package static func percentEncode(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            if PKCE.isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `name=value&...` in the given order.
    package static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { percentEncode($0.0) + "=" + percentEncode($0.1) }.joined(separator: "&")
    }

    /// Decodes a query or form body into ordered pairs (`+` is a space, as in form encoding). Throws on
    /// malformed percent escapes and invalid UTF-8.
    package static func decode(_ text: String) throws(OAuthError) -> [(String, String)] {
        guard !text.isEmpty else { return [] }
        var pairs: [(String, String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try unescape(pieces[0])
            let value = pieces.count > 1 ? try unescape(pieces[1]) : ""
            pairs.append((name, value))
        }
        return pairs
    }

    static func unescape(_ text: Substring) throws(OAuthError) -> String {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let c = iterator.next() {
            switch c {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw OAuthError(.malformedResponse, "malformed percent escape")
                }
                bytes.append(high << 4 | low)
            default: bytes.append(c)
            }
        }
        guard let string = UTF8Validation.string(bytes) else {
            throw OAuthError(.malformedResponse, "parameter is not valid UTF-8")
        }
        return string
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x37
        case 0x61...0x66: c - 0x57
        default: nil
        }
    }
}
