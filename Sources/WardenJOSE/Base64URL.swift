/// Strict base64url (RFC 4648 §5) without padding, as JOSE and WebAuthn use it.
///
/// Decoding rejects `=` padding, the standard alphabet's `+` and `/`, whitespace, impossible lengths and
/// non-canonical trailing bits (so every value has exactly one encoding).
///
/// ```swift
/// let bytes = try Base64URL.decode("eyJhbGciOiJFUzI1NiJ9")
/// let text = Base64URL.encode(bytes)
/// ```
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, c) in alphabet.enumerated() { table[Int(c)] = UInt8(index) }
        return table
    }()

    /// Encodes without padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output += [
                alphabet[Int(value >> 18)], alphabet[Int(value >> 12 & 63)], alphabet[Int(value >> 6 & 63)],
                alphabet[Int(value & 63)],
            ]
            index += 3
        }
        let rest = input.count - index
        if rest == 1 {
            let value = UInt32(input[index]) << 16
            output += [alphabet[Int(value >> 18)], alphabet[Int(value >> 12 & 63)]]
        } else if rest == 2 {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output += [alphabet[Int(value >> 18)], alphabet[Int(value >> 12 & 63)], alphabet[Int(value >> 6 & 63)]]
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes strictly; throws ``JOSEErrorDomain/Code/invalidBase64``.
    public static func decode(_ text: some StringProtocol) throws(JOSEError) -> [UInt8] {
        var text = String(text)
        let result = text.withUTF8 { input -> Result<[UInt8], JOSEError> in
            do throws(JOSEError) { return .success(try decode(bytes: input)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Decodes a base64url byte span strictly.
    public static func decode(bytes input: UnsafeBufferPointer<UInt8>) throws(JOSEError) -> [UInt8] {
        let count = input.count
        guard count % 4 != 1 else { throw JOSEError(.invalidBase64, "impossible base64url length") }
        let outputCount = count / 4 * 3 + (count % 4 == 0 ? 0 : count % 4 - 1)
        var failure: JOSEError?
        let output = reverse.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
                var index = 0
                var out = 0
                while index + 4 <= count {
                    let a = table[Int(input[index])]
                    let b = table[Int(input[index + 1])]
                    let c = table[Int(input[index + 2])]
                    let d = table[Int(input[index + 3])]
                    guard (a | b | c | d) & 0xC0 == 0 else {
                        failure = JOSEError(.invalidBase64, "character outside the base64url alphabet")
                        return
                    }
                    let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    buffer[out] = UInt8(value >> 16)
                    buffer[out + 1] = UInt8(value >> 8 & 0xFF)
                    buffer[out + 2] = UInt8(value & 0xFF)
                    out += 3
                    index += 4
                }
                let rest = count - index
                if rest >= 2 {
                    let a = table[Int(input[index])]
                    let b = table[Int(input[index + 1])]
                    let c = rest == 3 ? table[Int(input[index + 2])] : 0
                    guard (a | b | c) & 0xC0 == 0 else {
                        failure = JOSEError(.invalidBase64, "character outside the base64url alphabet")
                        return
                    }
                    if rest == 2 {
                        guard b & 0x0F == 0 else {
                            failure = JOSEError(.invalidBase64, "non-canonical trailing bits")
                            return
                        }
                        buffer[out] = a << 2 | b >> 4
                        out += 1
                    } else {
                        guard c & 0x03 == 0 else {
                            failure = JOSEError(.invalidBase64, "non-canonical trailing bits")
                            return
                        }
                        buffer[out] = a << 2 | b >> 4
                        buffer[out + 1] = (b & 0x0F) << 4 | c >> 2
                        out += 2
                    }
                }
                initialized = out
            }
        }
        if let failure { throw failure }
        return output
    }
}
