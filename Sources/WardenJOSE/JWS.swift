/// A JWS in compact serialization (RFC 7515 §7.1), split and decoded but **not verified**.
///
/// Parsing enforces the shape rules: a size cap checked before any decoding, exactly three segments (five is
/// JWE and is refused), strict base64url, a header that is a JSON object with a supported `alg` and none of
/// `crit`, `b64`, `zip`, `enc`. The `jku`, `x5u`, `jwk` and `x5c` headers are kept in ``header`` but never used to
/// find a key.
public struct JWSCompact: Sendable {
    /// The default size cap: 64 KiB.
    public static let defaultMaximumBytes = 64 * 1024

    /// The decoded header.
    public let header: JOSEHeader
    /// The decoded payload bytes.
    public let payload: [UInt8]
    /// The decoded signature bytes.
    public let signature: [UInt8]
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`, the bytes that were signed.
    public let signingInput: [UInt8]

    /// Splits and decodes `token`.
    public init(_ token: String, maximumBytes: Int = JWSCompact.defaultMaximumBytes) throws(JOSEError) {
        guard token.utf8.count <= maximumBytes else {
            throw JOSEError(.tooLarge, "token of \(token.utf8.count) bytes is over the \(maximumBytes)-byte cap")
        }
        var text = token
        let result = text.withUTF8 { bytes -> Result<JWSCompact, JOSEError> in
            do throws(JOSEError) { return .success(try JWSCompact(bytes: bytes)) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    init(bytes: UnsafeBufferPointer<UInt8>) throws(JOSEError) {
        guard let first = bytes.first else { throw JOSEError(.malformed, "empty token") }
        if first == UInt8(ascii: "{") {
            throw JOSEError(.unsupportedSerialization, "JWS JSON serialization is not accepted")
        }
        var dots: [Int] = []
        for index in 0..<bytes.count where bytes[index] == UInt8(ascii: ".") {
            dots.append(index)
            if dots.count > 4 { break }
        }
        if dots.count == 4 { throw JOSEError(.unsupportedSerialization, "five segments: this is JWE, not JWS") }
        guard dots.count == 2 else { throw JOSEError(.malformed, "a compact JWS has exactly three segments") }
        let headerBytes = try Self.decode(bytes, 0, dots[0], "header")
        let object: JSONObject
        do {
            object = try JSONReader(maximumBytes: 16 * 1024, maximumDepth: 8).parseObject(headerBytes)
        } catch {
            throw JOSEError(error.code == .invalidJSON ? .malformed : error.code, "header: \(error.reason)")
        }
        header = try JOSEHeader(object: object)
        payload = try Self.decode(bytes, dots[0] + 1, dots[1], "payload")
        signature = try Self.decode(bytes, dots[1] + 1, bytes.count, "signature")
        signingInput = Array(UnsafeBufferPointer(rebasing: bytes[0..<dots[1]]))
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ what: String)
        throws(JOSEError) -> [UInt8]
    {
        do {
            return try Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        } catch {
            throw JOSEError(.invalidBase64, "\(what): \(error.reason)")
        }
    }

    /// Decodes header and payload of `token` without any verification (for `warden jwt decode`).
    public static func decodeUnverified(_ token: String, maximumBytes: Int = defaultMaximumBytes) throws(JOSEError)
        -> (header: JSONObject, payload: JSONValue?)
    {
        let jws = try JWSCompact(token, maximumBytes: maximumBytes)
        return (jws.header.object, try? JSONReader().parse(jws.payload))
    }
}
