import WardenCore
import WardenCrypto
import WardenJOSE

/// PKCE with S256 only (RFC 7636; RFC 9700 §2.1.1). `plain` is never used, even when a server lists it.
///
/// ```swift
/// let pkce = try PKCE()                       // verifier from 32 CSPRNG bytes: 43 characters
/// request.codeChallenge = pkce.challenge      // BASE64URL(SHA256(verifier))
/// ```
///
/// The verifier is a secret: it prints `<redacted>`.
public struct PKCE: Sendable, CustomStringConvertible {
    /// The code verifier.
    public let verifier: Redacted<String>
    /// `BASE64URL(SHA256(ASCII(verifier)))`.
    public let challenge: String
    /// Always `S256`.
    public let method = "S256"

    /// A fresh verifier from the system CSPRNG.
    public init() throws { try self.init(random: SecureRandom()) }

    /// A fresh verifier from `random` (tests).
    package init(random: some RandomSource) throws {
        let bytes = try random.bytes(count: 32)
        try self.init(verifier: Base64URL.encode(bytes))
    }

    /// PKCE for a given verifier; it must be 43–128 characters of `[A-Z a-z 0-9 - . _ ~]` (RFC 7636 §4.1).
    public init(verifier: String) throws(OAuthError) {
        let bytes = Array(verifier.utf8)
        guard (43...128).contains(bytes.count) else {
            throw OAuthError(.invalidVerifier, "a code verifier has 43 to 128 characters (RFC 7636 §4.1)")
        }
        guard bytes.allSatisfy(Self.isUnreserved) else {
            throw OAuthError(.invalidVerifier, "a code verifier uses only A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)")
        }
        self.verifier = Redacted(verifier)
        challenge = Base64URL.encode(HashFunction.sha256.hash(bytes))
    }

    static func isUnreserved(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    public var description: String { "PKCE(S256, challenge: \(challenge), verifier: <redacted>)" }
}
