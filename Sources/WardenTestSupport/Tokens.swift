import Foundation
import WardenCrypto
import WardenJOSE

/// Mints test tokens from raw JSON text, so tests can craft exactly the bytes an attacker would.
package enum Mint {
    package enum Signer {
        case hmac([UInt8], HashFunction)
        case ec(ECPrivateKey)
        case rsa(RSAPrivateKey, pss: Bool, HashFunction)
        case ed(Ed25519PrivateKey)
        case raw([UInt8])
    }

    package static func token(header: String, payload: String, signer: Signer) -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        let bytes = Array(input.utf8)
        let signature: [UInt8]
        switch signer {
        case .hmac(let key, let hash): signature = HMAC.authenticationCode(for: bytes, key: key, hash: hash)
        case .ec(let key): signature = try! key.signature(for: bytes)
        case .rsa(let key, let pss, let hash):
            signature = pss ? try! key.pssSignature(for: bytes, hash: hash) : try! key.signature(for: bytes, hash: hash)
        case .ed(let key): signature = try! key.signature(for: bytes)
        case .raw(let raw): signature = raw
        }
        return input + "." + Base64URL.encode(signature)
    }
}

/// Shared keys for the suites (generated once per run).
package enum Keys {
    package static let ec = try! ECPrivateKey()
    package static let ec384 = try! ECPrivateKey(curve: .p384)
    package static let ed = try! Ed25519PrivateKey()
    package static let rsa = try! RSAPrivateKey(generatingBits: 2048)
    package static let hmacSecret = Array("0123456789abcdef0123456789abcdef".utf8)

    package static func jwk(_ key: PublicKey, kid: String? = "k1", alg: JWSAlgorithm? = nil) -> JWK {
        try! JWK(publicKey: key, keyID: kid, algorithm: alg)
    }

    package static let ecSet = try! JWKSet(keys: [jwk(ec.publicKey, kid: "ec1")])
    package static let rsaSet = try! JWKSet(keys: [jwk(rsa.publicKey, kid: "rsa1")])
    package static let edSet = try! JWKSet(keys: [jwk(ed.publicKey, kid: "ed1")])
    package static let hmacSet = try! JWKSet(
        json: #"{"keys":[{"kty":"oct","kid":"h1","k":"\#(Base64URL.encode(hmacSecret))"}]}"#)
}

extension Date {
    package static let fixed = Date(timeIntervalSince1970: 1_800_000_000)
}
