import Foundation
import Testing
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenCrypto

@Suite("Wycheproof vectors")
struct WycheproofTests {
    static func hash(_ name: String?) -> HashFunction {
        switch name {
        case "SHA-256": .sha256
        case "SHA-384": .sha384
        case "SHA-512": .sha512
        default: .sha1
        }
    }

    @Test(arguments: [
        "ecdsa_secp256r1_sha256_p1363_test.json", "ecdsa_secp384r1_sha384_p1363_test.json",
        "ecdsa_secp521r1_sha512_p1363_test.json",
    ])
    func ecdsaP1363(file: String) throws {
        let count = try Wycheproof.run(file) { item in
            let info = item.group["publicKey"] as! [String: Any]
            let curve: EllipticCurve =
                switch info["curve"] as? String {
                case "secp256r1": .p256
                case "secp384r1": .p384
                default: .p521
                }
            let point = Hex.decode(info["uncompressed"] as! String)
            let size = curve.fieldByteCount
            let key = try PublicKey(curve: curve, x: Array(point[1...size]), y: Array(point[(size + 1)...]))
            if let jwk = item.group["publicKeyJwk"] as? [String: String] {  // the JWK form is the same key
                let fromJWK = try PublicKey(
                    curve: EllipticCurve(jwkName: jwk["crv"]!)!, x: [UInt8](base64URL: jwk["x"]!),
                    y: [UInt8](base64URL: jwk["y"]!))
                #expect(fromJWK.spkiDER == key.spkiDER)
            }
            // The same key through SPKI must agree byte for byte.
            #expect(key.spkiDER == Hex.decode(item.group["publicKeyDer"] as! String), "\(item.label)")
            return try key.isValidSignature(
                item.hex("sig"), for: item.hex("msg"), algorithm: .ecdsa(Self.hash(item.group["sha"] as? String)))
        }
        #expect(count > 200)
    }

    @Test(arguments: [
        "rsa_signature_2048_sha256_test.json", "rsa_signature_2048_sha384_test.json",
        "rsa_signature_2048_sha512_test.json", "rsa_signature_3072_sha256_test.json",
        "rsa_signature_3072_sha384_test.json", "rsa_signature_3072_sha512_test.json",
        "rsa_signature_4096_sha256_test.json", "rsa_signature_4096_sha384_test.json",
        "rsa_signature_4096_sha512_test.json",
    ])
    func rsaPKCS1(file: String) throws {
        var keys: [String: PublicKey] = [:]
        let count = try Wycheproof.run(file) { item in
            let der = item.group["publicKeyDer"] as! String
            let key = try keys[der] ?? PublicKey(spkiDER: Hex.decode(der))
            keys[der] = key
            return try key.isValidSignature(
                item.hex("sig"), for: item.hex("msg"), algorithm: .rsaPKCS1v15(Self.hash(item.group["sha"] as? String)))
        }
        #expect(count > 200)
    }

    @Test(arguments: [
        "rsa_pss_2048_sha256_mgf1_32_test.json", "rsa_pss_3072_sha256_mgf1_32_test.json",
        "rsa_pss_4096_sha384_mgf1_48_test.json", "rsa_pss_4096_sha512_mgf1_64_test.json",
    ])
    func rsaPSS(file: String) throws {
        let count = try Wycheproof.run(file) { item in
            let jwk = item.group["publicKeyJwk"] as! [String: String]
            let key = try PublicKey(rsaModulus: [UInt8](base64URL: jwk["n"]!), exponent: [UInt8](base64URL: jwk["e"]!))
            #expect(key.spkiDER == Hex.decode(item.group["publicKeyDer"] as! String))
            return try key.isValidSignature(
                item.hex("sig"), for: item.hex("msg"), algorithm: .rsaPSS(Self.hash(item.group["sha"] as? String)))
        }
        #expect(count > 100)
    }

    @Test func ed25519() throws {
        let count = try Wycheproof.run("ed25519_test.json") { item in
            let jwk = item.group["publicKeyJwk"] as! [String: String]
            let key = try PublicKey(ed25519: [UInt8](base64URL: jwk["x"]!))
            #expect(key.spkiDER == Hex.decode(item.group["publicKeyDer"] as! String))
            return try key.isValidSignature(item.hex("sig"), for: item.hex("msg"), algorithm: .ed25519)
        }
        #expect(count > 100)
    }

    @Test(arguments: [
        ("hmac_sha256_test.json", HashFunction.sha256), ("hmac_sha384_test.json", .sha384),
        ("hmac_sha512_test.json", .sha512),
    ])
    func hmac(file: String, hash: HashFunction) throws {
        let count = try Wycheproof.run(file) { item in
            let full = HMAC.authenticationCode(for: item.hex("msg"), key: item.hex("key"), hash: hash)
            let tag = item.hex("tag")
            // Wycheproof also lists truncated tags; compare the prefix the vector gives.
            return ConstantTime.equals(Array(full.prefix(tag.count)), tag) && !tag.isEmpty
        }
        #expect(count > 100)
    }
}
