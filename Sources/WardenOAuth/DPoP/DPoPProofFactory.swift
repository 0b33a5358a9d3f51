import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

/// Makes DPoP proof JWTs (RFC 9449 §4.2): header `typ: dpop+jwt`, `alg: ES256`, `jwk` (public members only);
/// claims `jti` (128 bits from the CSPRNG), `htm`, `htu` (scheme and host lowercased, default port dropped, no query or fragment), `iat`, `ath` (base64url
/// SHA-256 of the access token) when one is presented, and `nonce` when the server gave one.
///
/// ```swift
/// let proof = try DPoPProofFactory(key: key).proof(method: "POST", url: tokenEndpoint, nonce: nonces.nonce(for: tokenEndpoint))
/// request.headers["DPoP"] = proof
/// ```
public struct DPoPProofFactory: Sendable {
    /// The key that signs the proofs; its public JWK goes into each proof's header.
    public let key: any DPoPKey
    let random: any RandomSource
    let now: NowProvider

    /// A factory signing with `key`; `random` makes each `jti` and `now` gives `iat`.
    public init(key: any DPoPKey, random: some RandomSource = SecureRandom(), now: @escaping NowProvider = systemNow) {
        self.key = key
        self.random = random
        self.now = now
    }

    private struct Claims: Encodable {
        let jti: String
        let htm: String
        let htu: String
        let iat: Int64
        let ath: String?
        let nonce: String?
    }

    /// The proof for one request.
    public func proof(method: String, url: URL, accessToken: String? = nil, nonce: String? = nil) throws -> String {
        guard let htu = DPoPURL.normalize(url) else { throw DPoPError(.malformed, "htu must be an http(s) URL") }
        let claims = Claims(
            jti: Base64URL.encode(try random.bytes(count: 16)), htm: method.uppercased(), htu: htu,
            iat: Int64(now().timeIntervalSince1970.rounded(.down)), ath: accessToken.map(Self.ath), nonce: nonce)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = #"{"alg":"ES256","jwk":\#(key.publicJWK),"typ":"dpop+jwt"}"#
        let input =
            Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(try encoder.encode(claims)))
        return input + "." + Base64URL.encode(try key.sign(Array(input.utf8)))
    }

    /// `ath`: base64url(SHA-256(ASCII(access token))) (RFC 9449 §4.2).
    public static func ath(_ accessToken: String) -> String {
        Base64URL.encode(HashFunction.sha256.hash(Array(accessToken.utf8)))
    }
}
