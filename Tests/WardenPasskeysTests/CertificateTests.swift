import Foundation
import Testing
import WardenCore
import WardenJOSE

@_spi(Fuzzing) @testable import WardenCrypto
@testable import WardenPasskeys

@Suite("X.509 certificates and ECDSA DER signatures")
struct CertificateTests {
    @Test func readsTheYubicoRoot() throws {
        let root = try #require(
            try X509Certificate.certificates(pemOrDER: PasskeyFixtures.data("yubico-u2f-root.pem")).first)
        #expect(root.version == 3)
        #expect(root.subject(.commonName) == "Yubico U2F Root CA Serial 457200631")
        #expect(try root.basicConstraintsCA == true)
        #expect(try root.publicKey.kind == .rsa(modulusBits: 2048))
        // Self-signed and inside its validity: it verifies as its own anchor.
        try X509Certificate.verifyChain([root], roots: [root], at: Date())
        let apple = try #require(AttestationPolicy.appleWebAuthnRoots.first)
        #expect(apple.subject(.commonName) == "Apple WebAuthn Root CA")
        #expect(try apple.publicKey.kind == .ec(.p384))
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain([apple], roots: [root], at: Date())
        }
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain([root], roots: [root], at: Date(timeIntervalSince1970: 2_600_000_000))
        }
    }

    @Test func rejectsMalformedCertificates() throws {
        let der = try X509Certificate.certificates(pemOrDER: PasskeyFixtures.data("yubico-u2f-root.pem"))[0].der
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate(der: der + [0]) }
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate(der: Array(der.dropLast())) }
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate(der: [0x30, 0x00]) }
        #expect(throws: CryptoError(.inputTooLarge)) { try X509Certificate(der: Array(repeating: 0x30, count: 70_000)) }
        // A leaf whose signed part changed after signing: parses, but never verifies.
        let pki = try PasskeyFixtures.PKI()
        let (_, leaf) = try pki.leaf()
        try X509Certificate.verifyChain(
            [X509Certificate(der: leaf), X509Certificate(der: pki.intermediateDER)], roots: pki.roots, at: Date())
        var flipped = leaf
        let index = try #require(flipped.firstIndex(of: UInt8(ascii: "W")))  // inside the issuer name
        flipped[index] = UInt8(ascii: "X")
        let broken = try X509Certificate(der: flipped)
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain(
                [broken, X509Certificate(der: pki.intermediateDER)], roots: pki.roots, at: Date())
        }
    }

    @Test func certificateInputShapes() throws {
        let pem = try PasskeyFixtures.data("yubico-u2f-root.pem")
        let der = try X509Certificate.certificates(pemOrDER: pem)[0].der
        #expect(try X509Certificate.certificates(pemOrDER: der).map(\.der) == [der])
        #expect(try X509Certificate.certificates(pemOrDER: pem + pem).count == 2)
        for (name, input, code) in [
            ("empty", [], CryptoError.Code.noCertificate),
            (
                "PEM without a certificate", Array("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".utf8),
                .noCertificate
            ),
            ("text", Array("junk".utf8), .malformedInput),
            (
                "PEM holding junk", Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8),
                .malformedInput
            ),
            ("over 1 MiB", pem + Array(repeating: 0x0A, count: 1 << 20), .inputTooLarge),
        ] as [(String, [UInt8], CryptoError.Code)] {
            #expect(throws: CryptoError(code), "\(name)") { try X509Certificate.certificates(pemOrDER: input) }
        }
    }

    @Test func rejectsMalformedExtensions() throws {
        let pki = try PasskeyFixtures.PKI()
        func certificate(_ configure: (inout CertificateBuilder) -> Void) throws -> [UInt8] {
            try pki.leaf(configure).1
        }
        /// `der` with the first occurrence of `old` replaced by `new` (same length, so no length field changes).
        func patched(_ der: [UInt8], _ old: [UInt8], _ new: [UInt8]) throws -> [UInt8] {
            let start = try #require(
                der.indices.first { der[$0...].starts(with: old) }, "pattern \(old) not in the certificate")
            var copy = der
            copy.replaceSubrange(start..<start + old.count, with: new)
            return copy
        }
        let basicConstraintsOID: [UInt8] = [0x06, 0x03, 0x55, 0x1D, 0x13]
        let caDER = pki.intermediateDER
        #expect(try X509Certificate(der: caDER).basicConstraintsCA == true)

        let duplicate = try certificate { $0.extensions = [("2.5.29.19", false, DER.sequence([]))] }
        let inV2 = try certificate {
            $0.version = 2
            $0.extensions = [CertificateBuilder.aaguidExtension(Array(repeating: 1, count: 16))]
        }
        // critical present but FALSE: DER omits a default value, so an explicit FALSE is not DER.
        let criticalFalse = try patched(
            caDER, basicConstraintsOID + [0x01, 0x01, 0xFF], basicConstraintsOID + [0x01, 0x01, 0x00])
        for (name, der) in [
            ("extension twice", duplicate), ("extensions in v2", inV2), ("critical FALSE", criticalFalse),
        ] {
            #expect(throws: CryptoError(.malformedInput), "\(name)") { try X509Certificate(der: der) }
        }
        // cA encoded as BOOLEAN 01 rather than FF: the certificate parses, the constraint is refused.
        let nonDERTrue = try patched(caDER, [0x30, 0x03, 0x01, 0x01, 0xFF], [0x30, 0x03, 0x01, 0x01, 0x01])
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate(der: nonDERTrue).basicConstraintsCA }
        #expect(try X509Certificate(der: pki.leaf().1).basicConstraintsCA == false)
    }

    @Test func chainVerificationNeedsALeafAndAnAnchor() throws {
        let pki = try PasskeyFixtures.PKI()
        let leaf = try X509Certificate(der: pki.leaf().1)
        let intermediate = try X509Certificate(der: pki.intermediateDER)
        #expect(throws: CryptoError(.noCertificate)) {
            try X509Certificate.verifyChain([], roots: pki.roots, at: Date())
        }
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain([leaf, intermediate], roots: [], at: Date())
        }
        // Missing intermediate: the leaf alone does not reach the root.
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain([leaf], roots: pki.roots, at: Date())
        }
        try X509Certificate.verifyChain([leaf, intermediate], roots: pki.roots, at: Date())
        // A certificate without the CA constraint cannot issue, even with a good signature on a well-formed chain.
        let (leafKey, leafDER) = try pki.leaf()
        var child = CertificateBuilder()
        child.subject = [("2.5.4.3", "Issued by a leaf")]
        var issuer = CertificateBuilder()
        issuer.serial = 3
        let childDER = try child.build(subjectKey: ECPrivateKey().publicKey, issuer: issuer, issuerKey: leafKey)
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain(
                [X509Certificate(der: childDER), X509Certificate(der: leafDER), intermediate], roots: pki.roots,
                at: Date())
        }
    }

    @Test func oidText() throws {
        #expect(
            try X509Certificate.oidString(CertificateBuilder.oid("1.3.6.1.4.1.45724.1.1.4"))
                == "1.3.6.1.4.1.45724.1.1.4")
        #expect(
            try X509Certificate.oidString([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B])
                == "1.2.840.113549.1.1.11")
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate.oidString([0x2A, 0x80, 0x01]) }
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate.oidString([0x2A, 0x86]) }
    }

    @Test func ecdsaDERConversion() throws {
        let key = try ECPrivateKey()
        for _ in 0..<50 {
            let raw = try key.signature(for: [1, 2, 3])
            #expect(try ECDSASignature.raw(fromDER: CertificateBuilder.derSignature(raw), curve: .p256) == raw)
        }
        let r = [UInt8](repeating: 0x11, count: 32)
        let good: [UInt8] = [0x30, 0x44, 0x02, 0x20] + r + [0x02, 0x20] + r
        #expect(try ECDSASignature.raw(fromDER: good, curve: .p256) == r + r)
        for (name, bad) in [
            ("trailing byte", good + [0]),
            ("negative r", [0x30, 0x44, 0x02, 0x20, 0x81] + r.dropFirst() + [0x02, 0x20] + r),
            ("non-minimal r", [0x30, 0x45, 0x02, 0x21, 0x00] + r + [0x02, 0x20] + r),
            ("r too long", [0x30, 0x46, 0x02, 0x22, 0x01] + r + [0x11, 0x02, 0x20] + r),
            ("three integers", [0x30, 0x47, 0x02, 0x20] + r + [0x02, 0x20] + r + [0x02, 0x01, 0x01]),
            ("BIT STRING", [0x03, 0x02, 0x00, 0x00]),
            ("empty integer", [0x30, 0x24, 0x02, 0x00, 0x02, 0x20] + r),
            ("long-form short length", [0x30, 0x81, 0x44, 0x02, 0x20] + r + [0x02, 0x20] + r),
        ] as [(String, [UInt8])] {
            #expect(throws: CryptoError(.malformedSignature), "\(name)") {
                try ECDSASignature.raw(fromDER: bad, curve: .p256)
            }
        }
        for raw in [[], [UInt8](repeating: 1, count: 63)] {
            #expect(throws: CryptoError(.malformedSignature), "\(raw.count) bytes") {
                try ECDSASignature.der(fromRaw: raw)
            }
        }
    }
}
