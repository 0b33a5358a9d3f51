import Foundation
import Testing

@_spi(Fuzzing) @testable import WardenCrypto

/// The portable DER code (used by the Apple backend) must agree byte for byte with OpenSSL's encodings.
@Suite("Portable DER agrees with OpenSSL")
struct DERTests {
    @Test func spkiBuildersMatchOpenSSL() throws {
        for curve in EllipticCurve.allCases {
            let key = try ECPrivateKey(curve: curve).publicKey
            let parsed = try DER.parseSPKI(key.spkiDER)
            #expect(parsed.algorithm == DER.ecPublicKey)
            #expect(parsed.parameter == DER.curveOID(curve))
            #expect(DER.ecSPKI(curve: curve, uncompressedPoint: parsed.key) == key.spkiDER)
        }
        let ed = try Ed25519PrivateKey().publicKey
        #expect(DER.ed25519SPKI(try DER.parseSPKI(ed.spkiDER).key) == ed.spkiDER)
        let rsa = try RSAPrivateKey(generatingBits: 2048).publicKey
        let parsed = try DER.parseSPKI(rsa.spkiDER)
        #expect(parsed.algorithm == DER.rsaEncryption)
        let (n, e) = try DER.parseRSAPublicKey(parsed.key)
        #expect(DER.rsaSPKI(modulus: n, exponent: e) == rsa.spkiDER)
    }

    @Test func certificateSPKIMatchesOpenSSL() throws {
        for name in ["rsa.pem", "p256.pem", "p384.pem", "ed25519.pem"] {
            let pem = String(decoding: try CertificatePinTests.fixture(name), as: UTF8.self)
            let der = try PEM.decodeSingle(pem, label: "CERTIFICATE")
            #expect(try DER.spki(ofCertificate: der) == CertificatePin.subjectPublicKeyInfos(fromCertificates: der)[0])
        }
    }

    @Test func rejectsMalformedDER() {
        for bad: [UInt8] in [
            [], [0x30], [0x30, 0x05, 0x01], [0x30, 0x80, 0x00, 0x00], [0x30, 0x81, 0x05, 1, 2, 3, 4, 5],
            [0x1F, 0x01, 0x00], [0x30, 0x00, 0x00],
        ] {
            #expect(throws: CryptoError(.malformedInput)) { try DER.single(bad) }
        }
    }
}
