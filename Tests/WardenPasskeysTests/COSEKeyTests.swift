import Foundation
import Testing
import WardenCore
import WardenJOSE

@_spi(Fuzzing) @testable import WardenCrypto
@testable import WardenPasskeys

@Suite("COSE keys (RFC 9053)")
struct COSEKeyTests {
    static func key(_ pairs: [(CBORValue, CBORValue)]) -> [UInt8] { CBOREncoder.encode(CBOREncoder.map(pairs)) }

    static let p256 = try! ECPrivateKey(curve: .p256).publicKey.components
    static let ed = try! Ed25519PrivateKey().publicKey.components.first

    static func ec2(
        alg: Int64 = -7, crv: UInt64 = 1, x: [UInt8] = p256.first, y: [UInt8]? = p256.second,
        extra: [(CBORValue, CBORValue)] = []
    ) -> [UInt8] {
        var pairs: [(CBORValue, CBORValue)] = [
            (.unsigned(1), .unsigned(2)), (.unsigned(3), CBOREncoder.int(alg)), (.negative(-1), .unsigned(crv)),
            (.negative(-2), .bytes(x)),
        ]
        if let y { pairs.append((.negative(-3), .bytes(y))) }
        return key(pairs + extra)
    }

    @Test func validKeysConvert() throws {
        #expect(try COSEKey(bytes: Self.ec2()).publicKey.kind == .ec(.p256))
        let okp = Self.key([
            (.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(-8)), (.negative(-1), .unsigned(6)),
            (.negative(-2), .bytes(Self.ed)),
        ])
        #expect(try COSEKey(bytes: okp).publicKey.kind == .ed25519)
        // The identity point: with it one constant signature verifies for every assertion.
        let identity = Self.key([
            (.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(-8)), (.negative(-1), .unsigned(6)),
            (.negative(-2), .bytes([1] + [UInt8](repeating: 0, count: 31))),
        ])
        #expect(throws: PasskeyError.self) { try COSEKey(bytes: identity) }
        // Unrelated labels (kid) are allowed.
        #expect(try COSEKey(bytes: Self.ec2(extra: [(.unsigned(2), .bytes([1]))])).algorithm == .es256)
    }

    /// Re-encoding recorded keys (real authenticators' COSE_Key bytes from py_webauthn's fixtures) gives the same
    /// bytes: the encoder writes the canonical form authenticators use.
    @Test func encodingMatchesRecordedKeys() throws {
        let assertions = try #require(try PasskeyFixtures.recorded()["assertions"]?.arrayValue)
        var checked = 0
        for item in assertions.compactMap(\.objectValue) {
            let bytes = try Base64URL.decode(item["publicKey"]!.stringValue!)
            let key = try COSEKey(bytes: bytes)
            #expect(try COSEKey(publicKey: key.publicKey, algorithm: key.algorithm).encoded == bytes)
            checked += 1
        }
        #expect(checked == 6)
        #expect(throws: PasskeyError(.invalidKey)) {
            try COSEKey(publicKey: try ECPrivateKey(curve: .p384).publicKey, algorithm: .es256)
        }
        #expect(throws: PasskeyError(.invalidKey)) {
            try COSEKey(publicKey: try Ed25519PrivateKey().publicKey, algorithm: .rs256)
        }
    }

    @Test(
        arguments: [
            ("ES384 alg on a P-256 key", ec2(alg: -35), "invalid_key"),
            ("ES256 alg on P-384 crv", ec2(crv: 2), "invalid_key"),
            ("unknown curve", ec2(crv: 9), "invalid_key"),
            ("short x", ec2(x: Array(p256.first.dropFirst())), "invalid_key"),
            ("compressed point (y missing)", ec2(y: nil), "invalid_key"),
            (
                "y as a boolean",
                key([
                    (.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(-7)), (.negative(-1), .unsigned(1)),
                    (.negative(-2), .bytes(p256.first)), (.negative(-3), .bool(true)),
                ]), "invalid_key"
            ),
            ("point not on the curve", ec2(y: p256.first), "invalid_key"),
            ("private key d", ec2(extra: [(.negative(-4), .bytes(Array(repeating: 1, count: 32)))]), "invalid_key"),
            (
                "no alg",
                key([
                    (.unsigned(1), .unsigned(2)), (.negative(-1), .unsigned(1)), (.negative(-2), .bytes(p256.first)),
                    (.negative(-3), .bytes(p256.second)),
                ]), "invalid_key"
            ),
            ("RS1 alg", ec2(alg: -65535), "unsupported_algorithm"),
            ("EdDSA alg on EC2", ec2(alg: -8), "invalid_key"),
            (
                "ES256 alg on OKP",
                key([
                    (.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(-7)), (.negative(-1), .unsigned(6)),
                    (.negative(-2), .bytes(ed)),
                ]), "invalid_key"
            ),
            (
                "X25519 curve",
                key([
                    (.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(-8)), (.negative(-1), .unsigned(4)),
                    (.negative(-2), .bytes(ed)),
                ]), "invalid_key"
            ),
            ("RS256 on EC2", ec2(alg: -257), "invalid_key"),
            (
                "RSA 1024-bit",
                key([
                    (.unsigned(1), .unsigned(3)), (.unsigned(3), CBOREncoder.int(-257)),
                    (.negative(-1), .bytes([0xC1] + Array(repeating: 0x11, count: 127))),
                    (.negative(-2), .bytes([1, 0, 1])),
                ]), "invalid_key"
            ),
            // Registered by anyone and paid at every sign-in: RSA over 4096 bits or with another exponent than 65537.
            (
                "RSA 8192-bit",
                key([
                    (.unsigned(1), .unsigned(3)), (.unsigned(3), CBOREncoder.int(-257)),
                    (.negative(-1), .bytes([0xC1] + Array(repeating: 0x11, count: 1023))),
                    (.negative(-2), .bytes([1, 0, 1])),
                ]), "invalid_key"
            ),
            (
                "RSA 64-bit exponent",
                key([
                    (.unsigned(1), .unsigned(3)), (.unsigned(3), CBOREncoder.int(-257)),
                    (.negative(-1), .bytes([0xC1] + Array(repeating: 0x11, count: 255))),
                    (.negative(-2), .bytes(Array(repeating: 0xFF, count: 8))),
                ]), "invalid_key"
            ),
            (
                "symmetric kty", key([(.unsigned(1), .unsigned(4)), (.unsigned(3), .negative(-7))]),
                "unsupported_algorithm"
            ),
            ("not a map", [0x80], "invalid_key"),
            ("trailing bytes", ec2() + [0], "invalid_key"),
        ] as [(String, [UInt8], String)])
    func rejects(name: String, bytes: [UInt8], code: String) {
        #expect(throws: (any Error).self, "\(name)") { try COSEKey(bytes: bytes) }
        do {
            _ = try COSEKey(bytes: bytes)
        } catch {
            #expect(error.codeName == code, "\(name): \(error.reason)")
        }
    }
}
