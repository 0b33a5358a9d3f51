import Foundation

@_spi(Fuzzing) @testable import WardenCrypto

/// Builds X.509 v3 certificates signed with ECDSA P-256/SHA-256, for attestation chains in tests. OpenSSL's
/// `X509_verify_cert` checks what this writes, so a mistake here fails the trusted-chain tests.
struct CertificateBuilder {
    var subject: [(oid: String, value: String)] = [
        ("2.5.4.6", "SE"), ("2.5.4.10", "Warden Test Vendor"), ("2.5.4.11", "Authenticator Attestation"),
        ("2.5.4.3", "Warden Test Authenticator"),
    ]
    var serial: UInt64 = 1
    var notBefore = Date(timeIntervalSince1970: 1_600_000_000)
    var notAfter = Date(timeIntervalSince1970: 2_400_000_000)
    var isCA = false
    /// Extensions as `(oid, critical, extnValue contents)`.
    var extensions: [(oid: String, critical: Bool, value: [UInt8])] = []
    var version = 3

    /// A CA subject.
    static func authority(_ name: String) -> CertificateBuilder {
        var builder = CertificateBuilder()
        builder.subject = [("2.5.4.10", "Warden Test PKI"), ("2.5.4.3", name)]
        builder.isCA = true
        return builder
    }

    /// Signs the certificate for `subjectKey` with `issuerKey`, naming `issuer` (nil: self-issued).
    func build(subjectKey: PublicKey, issuer: CertificateBuilder?, issuerKey: ECPrivateKey) throws -> [UInt8] {
        let signatureAlgorithm = DER.sequence([DER.encode(tag: 0x06, Self.oid("1.2.840.10045.4.3.2"))])
        var allExtensions = extensions
        allExtensions.insert(
            ("2.5.29.19", true, isCA ? DER.sequence([[0x01, 0x01, 0xFF]]) : DER.sequence([])), at: 0)
        if isCA { allExtensions.append(("2.5.29.15", true, [0x03, 0x02, 0x01, 0x06])) }  // keyCertSign, cRLSign
        var fields: [[UInt8]] = []
        if version > 1 { fields.append(DER.encode(tag: 0xA0, DER.integer([UInt8(version - 1)]))) }
        fields += [
            DER.integer(withUnsafeBytes(of: serial.bigEndian) { Array($0) }), signatureAlgorithm,
            Self.name((issuer ?? self).subject),
            DER.sequence([Self.time(notBefore), Self.time(notAfter)]), Self.name(subject), subjectKey.spkiDER,
        ]
        // A v1/v2 certificate carries extensions only when a test asks for that malformed shape.
        if version == 3 || !extensions.isEmpty {
            let encoded = allExtensions.map { item -> [UInt8] in
                var parts = [DER.encode(tag: 0x06, Self.oid(item.oid))]
                if item.critical { parts.append([0x01, 0x01, 0xFF]) }
                parts.append(DER.encode(tag: 0x04, item.value))
                return DER.sequence(parts)
            }
            fields.append(DER.encode(tag: 0xA3, DER.sequence(encoded)))
        }
        let tbs = DER.sequence(fields)
        let signature = try Self.derSignature(issuerKey.signature(for: tbs))
        return DER.sequence([tbs, signatureAlgorithm, DER.encode(tag: 0x03, [0] + signature)])
    }

    /// The AAGUID extension value (an OCTET STRING of the 16 bytes).
    static func aaguidExtension(_ aaguid: [UInt8], critical: Bool = false) -> (String, Bool, [UInt8]) {
        ("1.3.6.1.4.1.45724.1.1.4", critical, DER.encode(tag: 0x04, aaguid))
    }

    /// DER `ECDSA-Sig-Value` from raw `r||s`.
    static func derSignature(_ raw: [UInt8]) -> [UInt8] { try! ECDSASignature.der(fromRaw: raw) }

    static func oid(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").map { UInt64($0)! }
        var bytes: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            bytes += chunk
        }
        return bytes
    }

    private static func name(_ attributes: [(oid: String, value: String)]) -> [UInt8] {
        DER.sequence(
            attributes.map { attribute in
                let tag: UInt8 = attribute.oid == "2.5.4.6" ? 0x13 : 0x0C
                return DER.encode(
                    tag: 0x31,
                    DER.sequence([
                        DER.encode(tag: 0x06, oid(attribute.oid)), DER.encode(tag: tag, Array(attribute.value.utf8)),
                    ])
                )
            })
    }

    private static func time(_ date: Date) -> [UInt8] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyMMddHHmmss'Z'"
        return DER.encode(tag: 0x17, Array(formatter.string(from: date).utf8))
    }
}
