import Foundation
import Testing
import WardenCore

@_spi(Fuzzing) @testable import WardenCrypto

/// One fixture set of private-key PEM inputs (Fixtures/private-keys, made by OpenSSL) for both backends: the
/// portable reader decides, and the backend in this build (OpenSSL here, CryptoKit/Security on Apple) must agree.
@Suite("Private-key PEM inputs (both backends)")
struct PrivateKeyPEMTests {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/private-keys")
    static func names(_ prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".pem") }.sorted()
    }
    static func text(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
    }
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Loads through the public type the key's algorithm calls for; returns its public key.
    static func load(_ pem: String) throws -> PublicKey {
        switch try PrivateKeyMaterial.parse(pem: pem) {
        case .rsa: return try RSAPrivateKey(pem: pem).publicKey
        case .ec: return try ECPrivateKey(pem: pem).publicKey
        case .ed25519(let seed): return try Ed25519PrivateKey(seed: seed).publicKey
        }
    }

    @Test func theFixtureSetIsThere() {
        #expect(Self.names("accept-").count == 9)
        #expect(Self.names("refuse-").count == 9)
    }

    @Test(arguments: names("accept-"))
    func acceptedInputsLoadWithOpenSSLsPublicKey(_ name: String) throws {
        let publicKey = try Self.load(try Self.text(name))
        #expect(publicKey.spkiDER == (try Self.bytes(name.replacingOccurrences(of: ".pem", with: ".spki.der"))))
    }

    @Test(arguments: names("refuse-unsupported-"))
    func unsupportedKeysAreRefused(_ name: String) throws {
        #expect(throws: CryptoError(.unsupportedKey)) { try Self.load(try Self.text(name)) }
    }

    @Test(arguments: names("refuse-malformed-"))
    func malformedInputsAreRefused(_ name: String) throws {
        #expect(throws: CryptoError(.malformedInput)) { try Self.load(try Self.text(name)) }
    }

    /// The portable PKCS#8 encoder (what the Apple backend prints for every key, generated ones included) writes
    /// exactly what OpenSSL writes.
    @Test(arguments: ["accept-pkcs1-rsa2048", "accept-pkcs8-ed25519"])
    func pkcs8MatchesOpenSSL(_ name: String) throws {
        let material = try PrivateKeyMaterial.parse(pem: try Self.text(name + ".pem"))
        #expect(material.pkcs8DER == (try Self.bytes(name + ".pkcs8.der")))
    }

    /// Every key type round-trips through pkcs8PEM(), generated keys included (the Apple backend used to return "").
    @Test func generatedKeysPrintAReadablePKCS8() throws {
        let rsa = try RSAPrivateKey(generatingBits: 2048)
        #expect(try RSAPrivateKey(pem: rsa.pkcs8PEM().unredacted()).publicKey.spkiDER == rsa.publicKey.spkiDER)
        for curve in EllipticCurve.allCases {
            let ec = try ECPrivateKey(curve: curve)
            let pem = ec.pkcs8PEM().unredacted()
            #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            #expect(try ECPrivateKey(pem: pem).publicKey.spkiDER == ec.publicKey.spkiDER)
        }
        for name in Self.names("accept-") {
            let material = try PrivateKeyMaterial.parse(pem: try Self.text(name))
            #expect(try PrivateKeyMaterial.parse(pem: material.pkcs8PEM) == material, "\(name)")
        }
    }

    @Test func aScalarOfZeroIsRefused() throws {
        let zero = DER.sequence([
            DER.integer([1]), DER.encode(tag: 0x04, [0]), DER.encode(tag: 0xA0, DER.encode(tag: 0x06, DER.p256)),
        ])
        let pem = "-----BEGIN EC PRIVATE KEY-----\n\(Data(zero).base64EncodedString())\n-----END EC PRIVATE KEY-----\n"
        #expect(throws: CryptoError(.malformedInput)) { try PrivateKeyMaterial.parse(pem: pem) }
    }
}
