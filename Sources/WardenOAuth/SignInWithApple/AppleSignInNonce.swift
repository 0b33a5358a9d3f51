import WardenCore
import WardenCrypto
import WardenJOSE

/// The nonce convention of Sign in with Apple: the app keeps a random raw nonce (a secret) and puts its SHA-256,
/// as lowercase hex, in `ASAuthorizationAppleIDRequest.nonce`; Apple echoes the hash in the identity token; the
/// app sends the raw nonce with the token to its server, which hashes and compares
/// (``AppleIdentityTokenVerifier``).
public struct AppleSignInNonce: Sendable, CustomStringConvertible {
    /// The raw nonce: send it to your server with the identity token, never put it in the request.
    public let raw: Redacted<String>
    /// What goes into the request.
    public let hashed: String

    /// 32 CSPRNG bytes, base64url.
    public init(random: some RandomSource = SecureRandom()) throws {
        let raw = Base64URL.encode(try random.bytes(count: 32))
        self.raw = Redacted(raw)
        hashed = AppleIdentityTokenVerifier.hashedNonce(raw)
    }

    public var description: String { "AppleSignInNonce(hashed: \(hashed), raw: <redacted>)" }
}
