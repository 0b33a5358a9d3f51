/// A verified-shape JWS protected header.
public struct JOSEHeader: Sendable {
    /// `alg`, already known to be supported.
    public let algorithm: JWSAlgorithm
    /// `kid`, if any.
    public let keyID: String?
    /// `typ`, if any.
    public let type: String?
    /// Every member, for application-specific checks.
    public let object: JSONObject

    /// Header members that would change how the JWS must be processed and that Warden does not implement.
    static let refused: [String: JOSEError] = [
        "crit": JOSEError(.critUnsupported, "the header has crit; Warden understands no critical extensions"),
        "b64": JOSEError(.unsupportedHeader, "unencoded payloads (b64, RFC 7797) are not accepted"),
        "zip": JOSEError(.unsupportedHeader, "compressed payloads (zip) are not accepted"),
        "enc": JOSEError(.unsupportedSerialization, "the header has enc: this is JWE, not JWS"),
    ]

    /// Reads a protected header (what ``JWSVerifier`` does for every token; public for an app's tests of its own
    /// ``ClaimPolicy``): `alg` required, and `crit`, `zip`, `enc` and the key-carrying members refused.
    public init(object: JSONObject) throws(JOSEError) {
        if object.contains("crit") { throw Self.refused["crit"]! }
        for member in object.members {
            switch member.name {
            case "b64", "zip", "enc": throw Self.refused[member.name]!
            default: continue
            }
        }
        guard let alg = object["alg"] else { throw JOSEError(.malformed, "the header has no alg") }
        guard let name = alg.stringValue else { throw JOSEError(.malformed, "the header alg is not a string") }
        algorithm = try JWSAlgorithm.parse(name)
        if let kid = object["kid"] {
            guard let text = kid.stringValue else { throw JOSEError(.malformed, "the header kid is not a string") }
            keyID = text
        } else {
            keyID = nil
        }
        if let typ = object["typ"] {
            guard let text = typ.stringValue else { throw JOSEError(.malformed, "the header typ is not a string") }
            type = text
        } else {
            type = nil
        }
        self.object = object
    }
}
