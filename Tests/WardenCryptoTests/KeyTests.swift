import Foundation
import Testing
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenCrypto

@Suite("Keys: construction, validation, bad input")
struct KeyTests {
    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)!, encoding: .utf8)
    }

    @Test func signAndVerifyRoundTrips() throws {
        let message = Array("the signing input".utf8)
        let ec = try ECPrivateKey()
        let ecSignature = try ec.signature(for: message)
        #expect(ecSignature.count == 64)
        #expect(try ec.publicKey.isValidSignature(ecSignature, for: message, algorithm: .ecdsa(.sha256)))
        #expect(try !ec.publicKey.isValidSignature(ecSignature, for: message + [0], algorithm: .ecdsa(.sha256)))

        for curve in [EllipticCurve.p384, .p521] {
            let key = try ECPrivateKey(curve: curve)
            let signature = try key.signature(for: message)
            #expect(signature.count == 2 * curve.fieldByteCount)
            #expect(
                try key.publicKey.isValidSignature(
                    signature, for: message, algorithm: .ecdsa(curve == .p384 ? .sha384 : .sha512)))
        }

        let ed = try Ed25519PrivateKey()
        let edSignature = try ed.signature(for: message)
        #expect(try ed.publicKey.isValidSignature(edSignature, for: message, algorithm: .ed25519))

        let rsa = try RSAPrivateKey(pem: try Self.fixture("rsa.key"))
        for hash in [HashFunction.sha1, .sha256] {
            let signature = try rsa.signature(for: message, hash: hash)
            #expect(try rsa.publicKey.isValidSignature(signature, for: message, algorithm: .rsaPKCS1v15(hash)))
            #expect(try !rsa.publicKey.isValidSignature(signature, for: message, algorithm: .rsaPSS(hash)))
        }
        let pss = try rsa.pssSignature(for: message, hash: .sha256)
        #expect(try rsa.publicKey.isValidSignature(pss, for: message, algorithm: .rsaPSS(.sha256)))
    }

    /// RFC 8032 §7.1 TEST 1: the seed gives the published public key and signature.
    @Test func ed25519RFC8032() throws {
        let key = try Ed25519PrivateKey(
            seed: Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        #expect(
            Array(key.publicKey.spkiDER.suffix(32))
                == Hex.decode("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let published = Hex.decode(
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        )
        // The published signature verifies under the derived key on every backend...
        #expect(try key.publicKey.isValidSignature(published, for: [UInt8](), algorithm: .ed25519))
        // ...and our own signature verifies too. CryptoKit randomizes Ed25519 signatures (a hedged variant), so
        // byte equality with RFC 8032's deterministic signature is expected from the OpenSSL backend only.
        let signature = try key.signature(for: [UInt8]())
        #expect(try key.publicKey.isValidSignature(signature, for: [UInt8](), algorithm: .ed25519))
        #if WARDEN_OPENSSL
            #expect(signature == published)
        #endif
    }

    @Test func privateKeysNeverPrint() throws {
        let key = try ECPrivateKey()
        #expect(!"\(key)".contains("BEGIN"))
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!dumped.contains("backing"))
        #expect("\(key.pkcs8PEM())" == "<redacted>")
        #expect(key.pkcs8PEM().unredacted().contains("BEGIN PRIVATE KEY"))
        let reread = try ECPrivateKey(pem: key.pkcs8PEM().unredacted())
        #expect(reread.publicKey.spkiDER == key.publicKey.spkiDER)
    }

    @Test func pemPublicKey() throws {
        let key = try PublicKey(pem: try Self.fixture("p256-public.pem"))
        #expect(key.kind == .ec(.p256))
    }

    // MARK: - Bad input: every rejection has a test that feeds it.

    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        let expected: CryptoError.Code
        let make: @Sendable () throws -> PublicKey
        var testDescription: String { name }
    }

    static let p256x = Hex.decode("2927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838")
    static let p256y = Hex.decode("c7787964eaac00e5921fb1498a60f4606766b3d9685001558d1a974e7341513e")

    static let bad: [Bad] = [
        Bad(name: "off-curve point", expected: .invalidKey) {
            var y = p256y
            y[31] ^= 1
            return try PublicKey(curve: .p256, x: p256x, y: y)
        },
        Bad(name: "P-256 coordinates on P-384", expected: .invalidKey) {
            try PublicKey(curve: .p384, x: p256x, y: p256y)
        },
        Bad(name: "short coordinate", expected: .invalidKey) {
            try PublicKey(curve: .p256, x: Array(p256x.dropFirst()), y: p256y)
        },
        Bad(name: "zero point", expected: .invalidKey) {
            try PublicKey(curve: .p256, x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32))
        },
        Bad(name: "1024-bit RSA modulus", expected: .weakKey) {
            try PublicKey(rsaModulus: [0xC1] + [UInt8](repeating: 0x55, count: 126) + [0x01], exponent: [1, 0, 1])
        },
        Bad(name: "RSA exponent 1", expected: .weakKey) {
            try PublicKey(rsaModulus: [0xC1] + [UInt8](repeating: 0x55, count: 254) + [0x01], exponent: [1])
        },
        Bad(name: "RSA even exponent", expected: .weakKey) {
            try PublicKey(rsaModulus: [0xC1] + [UInt8](repeating: 0x55, count: 254) + [0x01], exponent: [1, 0, 0])
        },
        Bad(name: "RSA huge exponent", expected: .weakKey) {
            try PublicKey(
                rsaModulus: [0xC1] + [UInt8](repeating: 0x55, count: 254) + [0x01],
                exponent: [UInt8](repeating: 0xFF, count: 9))
        },
        Bad(name: "RSA even modulus", expected: .invalidKey) {
            try PublicKey(rsaModulus: [0xC1] + [UInt8](repeating: 0x55, count: 254) + [0x54], exponent: [1, 0, 1])
        },
        Bad(name: "RSA zero modulus", expected: .invalidKey) {
            try PublicKey(rsaModulus: [0, 0], exponent: [1, 0, 1])
        },
        Bad(name: "Ed25519 31 bytes", expected: .invalidKey) {
            try PublicKey(ed25519: [UInt8](repeating: 1, count: 31))
        },
        Bad(name: "empty SPKI", expected: .malformedInput) { try PublicKey(spkiDER: []) },
        Bad(name: "random bytes as SPKI", expected: .invalidKey) {
            try PublicKey(spkiDER: (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        },
        Bad(name: "truncated SPKI", expected: .invalidKey) {
            let der = try PublicKey(curve: .p256, x: p256x, y: p256y).spkiDER
            return try PublicKey(spkiDER: Array(der.dropLast(3)))
        },
        Bad(name: "SPKI with trailing bytes", expected: .invalidKey) {
            let der = try PublicKey(curve: .p256, x: p256x, y: p256y).spkiDER
            return try PublicKey(spkiDER: der + [0])
        },
        Bad(name: "oversized SPKI (2 MiB)", expected: .inputTooLarge) {
            try PublicKey(spkiDER: [UInt8](repeating: 0x30, count: 2 << 20))
        },
        Bad(name: "secp256k1 SPKI (wrong curve)", expected: .unsupportedKey) {
            try PublicKey(pem: try KeyTests.fixture("secp256k1-public.pem"))
        },
        Bad(name: "1024-bit RSA SPKI", expected: .weakKey) {
            try PublicKey(pem: try KeyTests.fixture("rsa1024-public.pem"))
        },
        Bad(name: "PEM without a PUBLIC KEY block", expected: .malformedInput) {
            try PublicKey(pem: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
        },
        Bad(name: "unterminated PEM", expected: .malformedInput) {
            try PublicKey(pem: "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQ\n")
        },
        Bad(name: "PEM with invalid base64", expected: .malformedInput) {
            try PublicKey(pem: "-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n")
        },
    ]

    @Test(arguments: bad)
    func rejects(_ bad: Bad) {
        #expect(throws: CryptoError(bad.expected)) { try bad.make() }
    }

    @Test func signatureShapeAndAlgorithmChecks() throws {
        let key = try PublicKey(curve: .p256, x: Self.p256x, y: Self.p256y)
        let message: [UInt8] = [1, 2, 3]
        #expect(throws: CryptoError(.malformedSignature)) {
            try key.isValidSignature([UInt8](repeating: 1, count: 63), for: message, algorithm: .ecdsa(.sha256))
        }
        #expect(throws: CryptoError(.malformedSignature)) {
            try key.isValidSignature([UInt8](repeating: 0, count: 64), for: message, algorithm: .ecdsa(.sha256))
        }
        #expect(throws: CryptoError(.malformedSignature)) {  // r = n
            try key.isValidSignature(
                ECDSAScalars.order(of: .p256) + [UInt8](repeating: 1, count: 32), for: message,
                algorithm: .ecdsa(.sha256))
        }
        #expect(throws: CryptoError(.algorithmMismatch)) {
            try key.isValidSignature([UInt8](repeating: 1, count: 64), for: message, algorithm: .ecdsa(.sha384))
        }
        #expect(throws: CryptoError(.algorithmMismatch)) {
            try key.isValidSignature([UInt8](repeating: 1, count: 64), for: message, algorithm: .rsaPKCS1v15(.sha256))
        }
        let ed = try Ed25519PrivateKey().publicKey
        #expect(throws: CryptoError(.malformedSignature)) {
            try ed.isValidSignature([UInt8](repeating: 1, count: 65), for: message, algorithm: .ed25519)
        }
        #expect(throws: CryptoError(.algorithmMismatch)) {
            try ed.isValidSignature([UInt8](repeating: 1, count: 64), for: message, algorithm: .ecdsa(.sha256))
        }
    }

    @Test func privateKeyBadInput() throws {
        #expect(throws: CryptoError(.malformedInput)) { try RSAPrivateKey(pem: "not a key") }
        #expect(throws: CryptoError(.algorithmMismatch)) { try RSAPrivateKey(pem: try Self.fixture("p256.key")) }
        #expect(throws: CryptoError(.unsupportedKey)) {
            try RSAPrivateKey(pem: "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n")
        }
        #expect(throws: CryptoError(.weakKey)) { try RSAPrivateKey(generatingBits: 1024) }
        #expect(throws: CryptoError(.invalidKey)) { try Ed25519PrivateKey(seed: [1, 2, 3]) }
    }
}
