import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

/// The key a client proves possession of (RFC 9449): ES256 on P-256.
///
/// On Apple platforms `SecureEnclaveDPoPKey` (WardenApple) keeps the private key in the Secure Enclave; here
/// ``SoftwareDPoPKey`` keeps it in memory and in the credential store.
public protocol DPoPKey: Sendable {
    /// The public key as a JWK (`kty`, `crv`, `x`, `y` only).
    var publicJWK: String { get }
    /// The RFC 7638 thumbprint of ``publicJWK`` (what a bound token's `cnf.jkt` must equal).
    var thumbprint: String { get }
    /// An ES256 signature (raw `r || s`) over `input`.
    func sign(_ input: [UInt8]) throws -> [UInt8]
}

/// A software P-256 DPoP key, for Linux and for Apple devices without a Secure Enclave (the simulator).
///
/// ```swift
/// let key = try SoftwareDPoPKey()
/// try await store.save(Data(key.pkcs8PEM().unredacted().utf8), service: "com.example.dpop", account: "alice")
/// ```
///
/// Thread-safety: immutable.
public struct SoftwareDPoPKey: DPoPKey, CustomStringConvertible {
    let key: ECPrivateKey
    public let publicJWK: String
    public let thumbprint: String

    /// A fresh key from the system CSPRNG.
    public init() throws { try self.init(key: ECPrivateKey(curve: .p256)) }

    /// A key read back from its PKCS#8 / SEC 1 PEM.
    public init(pem: String) throws { try self.init(key: ECPrivateKey(pem: pem)) }

    init(key: ECPrivateKey) throws {
        guard key.curve == .p256 else { throw CryptoError(.unsupportedKey, "DPoP keys are P-256 (ES256)") }
        self.key = key
        let jwk = try JWK(publicKey: key.publicKey, keyID: nil, algorithm: nil)
        // Only the members RFC 7638 hashes: kty, crv, x, y (no use, no kid).
        guard let json = jwk.publicJSON,
            let object = try? JSONReader(maximumBytes: 4096, maximumDepth: 2).parseObject(Array(json.utf8)),
            let x = object["x"]?.stringValue, let y = object["y"]?.stringValue
        else { throw CryptoError(.invalidKey, "no public JWK") }
        publicJWK = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        thumbprint = jwk.thumbprint
    }

    public func sign(_ input: [UInt8]) throws -> [UInt8] { try key.signature(for: input) }

    /// The private key as PKCS#8 PEM, to keep it in a ``CredentialStore``-like place. A secret.
    public func pkcs8PEM() -> Redacted<String> { key.pkcs8PEM() }

    public var description: String { "SoftwareDPoPKey(jkt: \(thumbprint))" }
}
