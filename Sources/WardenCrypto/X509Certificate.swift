import Foundation
import WardenCore

/// A parsed X.509 certificate: the fields attestation checks read (version, subject, extensions, basic
/// constraints, public key), taken apart with the strict DER reader. Signatures and validity are checked by
/// ``verifyChain(_:roots:at:)``, which hands the chain to the platform (OpenSSL's `X509_verify_cert` on Linux,
/// `SecTrust` on Apple platforms).
///
/// ```swift
/// let leaf = try X509Certificate(der: x5c[0])
/// leaf.subject(.organizationalUnit)           // "Authenticator Attestation"
/// try X509Certificate.verifyChain([leaf], roots: [vendorRoot], at: .now)
/// ```
///
/// Thread-safety: immutable, `Sendable`.
public struct X509Certificate: Sendable, Hashable {
    /// One extension: its dotted OID, the critical flag, and the contents of `extnValue` (the bytes inside the
    /// OCTET STRING).
    public struct Extension: Sendable, Hashable {
        /// The extension's `extnID`, as a dotted OID.
        public let oid: String
        /// The `critical` flag; false when the extension omits it.
        public let isCritical: Bool
        /// The contents of `extnValue`: the bytes inside the OCTET STRING.
        public let value: [UInt8]
    }

    /// Well-known name attribute OIDs.
    public struct NameAttribute: Sendable, Hashable {
        /// The attribute type, as a dotted OID.
        public let oid: String
        /// An attribute with the dotted OID `oid`, for one that has no constant here.
        public init(oid: String) { self.oid = oid }
        /// `commonName` (CN), 2.5.4.3.
        public static let commonName = NameAttribute(oid: "2.5.4.3")
        /// `countryName` (C), 2.5.4.6.
        public static let country = NameAttribute(oid: "2.5.4.6")
        /// `organizationName` (O), 2.5.4.10.
        public static let organization = NameAttribute(oid: "2.5.4.10")
        /// `organizationalUnitName` (OU), 2.5.4.11.
        public static let organizationalUnit = NameAttribute(oid: "2.5.4.11")
    }

    /// The DER encoding.
    public let der: [UInt8]
    /// The X.509 version: 1, 2 or 3.
    public let version: Int
    /// The subject's attributes in order, as `(oid, value)`.
    public let subjectAttributes: [(oid: String, value: String)]
    /// The extensions in order (empty for v1 certificates).
    public let extensions: [Extension]
    /// The DER `SubjectPublicKeyInfo`.
    public let subjectPublicKeyInfo: [UInt8]

    /// The largest certificate accepted.
    public static let maximumBytes = 64 * 1024

    /// Parses one DER certificate.
    ///
    /// - Throws: ``CryptoErrorDomain/Code/inputTooLarge`` over 64 KiB, ``CryptoErrorDomain/Code/malformedInput`` for anything
    ///   that is not a DER certificate (trailing bytes, duplicate extensions, undecodable names).
    public init(der: [UInt8]) throws(CryptoError) {
        guard der.count <= Self.maximumBytes else {
            throw CryptoError(.inputTooLarge, "certificate over \(Self.maximumBytes) bytes")
        }
        let certificate = try DER.single(der)
        let parts = try DER.children(certificate)
        guard certificate.tag == 0x30, parts.count == 3, parts[0].tag == 0x30, parts[1].tag == 0x30,
            parts[2].tag == 0x03
        else { throw Self.malformed("not a Certificate") }
        var fields = try DER.children(parts[0])[...]
        var version = 1
        if let first = fields.first, first.tag == 0xA0 {
            let inner = try DER.children(first)
            guard inner.count == 1, inner[0].tag == 0x02, inner[0].contents.count == 1,
                (0...2).contains(inner[0].contents.first!)
            else { throw Self.malformed("bad version") }
            version = Int(inner[0].contents.first!) + 1
            fields = fields.dropFirst()
        }
        // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, then optional parts.
        guard fields.count >= 6 else { throw Self.malformed("tbsCertificate is too short") }
        let list = Array(fields)
        guard list[0].tag == 0x02, list[4].tag == 0x30, list[5].tag == 0x30 else {
            throw Self.malformed("tbsCertificate fields out of place")
        }
        self.der = der
        self.version = version
        self.subjectAttributes = try Self.parseName(list[4])
        self.subjectPublicKeyInfo = Array(list[5].encoded)
        var extensions: [Extension] = []
        for optional in list.dropFirst(6) where optional.tag == 0xA3 {
            guard version == 3 else { throw Self.malformed("extensions in a v\(version) certificate") }
            let wrapper = try DER.children(optional)
            guard wrapper.count == 1, wrapper[0].tag == 0x30 else { throw Self.malformed("bad extensions") }
            for item in try DER.children(wrapper[0]) {
                extensions.append(try Self.parseExtension(item))
            }
        }
        guard Set(extensions.map(\.oid)).count == extensions.count else {
            throw Self.malformed("an extension appears twice")
        }
        self.extensions = extensions
    }

    /// The first value of a subject attribute.
    public func subject(_ attribute: NameAttribute) -> String? {
        subjectAttributes.first { $0.oid == attribute.oid }?.value
    }

    /// The extension with `oid`, if present.
    public func `extension`(_ oid: String) -> Extension? { extensions.first { $0.oid == oid } }

    /// The `cA` flag of the Basic Constraints extension (2.5.29.19); `nil` when the extension is absent.
    public var basicConstraintsCA: Bool? {
        get throws(CryptoError) {
            guard let constraints = `extension`("2.5.29.19") else { return nil }
            let sequence = try DER.single(constraints.value)
            guard sequence.tag == 0x30 else { throw Self.malformed("BasicConstraints is a SEQUENCE") }
            let parts = try DER.children(sequence)
            guard let first = parts.first, first.tag == 0x01 else { return false }
            guard first.contents.count == 1, first.contents.first == 0xFF else {
                // DER encodes TRUE as FF and omits a FALSE default.
                throw Self.malformed("non-DER BOOLEAN in BasicConstraints")
            }
            return true
        }
    }

    /// The subject public key.
    public var publicKey: PublicKey {
        get throws(CryptoError) { try PublicKey(spkiDER: subjectPublicKeyInfo) }
    }

    /// Every certificate in `input`: a PEM bundle (any number of `CERTIFICATE` blocks) or one DER certificate.
    ///
    /// - Throws: ``CryptoErrorDomain/Code/noCertificate`` for empty input or PEM without a certificate,
    ///   ``CryptoErrorDomain/Code/inputTooLarge`` over 1 MiB, ``CryptoErrorDomain/Code/malformedInput`` for anything else that
    ///   is not a certificate.
    public static func certificates(pemOrDER input: [UInt8]) throws(CryptoError) -> [X509Certificate] {
        let certificates = try CertificateInput.derCertificates(input)
        // Input that is not PEM goes to the DER parser as is, which says why it is not a certificate.
        return try (certificates.isEmpty ? [input] : certificates).map { (der) throws(CryptoError) in
            try X509Certificate(der: der)
        }
    }

    /// Verifies that `chain` (leaf first, then intermediates in any order) leads to one of `roots`: signatures,
    /// validity periods at `date`, issuer names, and CA constraints of every issuing certificate. `roots` are the
    /// only trust anchors; the system store is never consulted.
    ///
    /// - Throws: ``CryptoErrorDomain/Code/untrustedCertificate`` with the platform's reason.
    public static func verifyChain(_ chain: [X509Certificate], roots: [X509Certificate], at date: Date)
        throws(CryptoError)
    {
        guard let leaf = chain.first else { throw CryptoError(.noCertificate, "empty certificate chain") }
        guard !roots.isEmpty else { throw CryptoError(.untrustedCertificate, "no trust anchors configured") }
        try CertificateChainBackend.verify(
            leaf: leaf.der, intermediates: chain.dropFirst().map(\.der), roots: roots.map(\.der), at: date)
    }

    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool { lhs.der == rhs.der }
    public func hash(into hasher: inout Hasher) { hasher.combine(der) }

    // MARK: - Parsing helpers

    private static func parseName(_ name: DER.Element) throws(CryptoError) -> [(oid: String, value: String)] {
        var result: [(oid: String, value: String)] = []
        for rdn in try DER.children(name) {
            guard rdn.tag == 0x31 else { throw malformed("a Name holds SETs") }
            for attribute in try DER.children(rdn) {
                let parts = try DER.children(attribute)
                guard attribute.tag == 0x30, parts.count == 2, parts[0].tag == 0x06 else {
                    throw malformed("bad AttributeTypeAndValue")
                }
                result.append((try oidString(Array(parts[0].contents)), try string(parts[1])))
            }
        }
        return result
    }

    private static func parseExtension(_ item: DER.Element) throws(CryptoError) -> Extension {
        let parts = try DER.children(item)
        guard item.tag == 0x30, (2...3).contains(parts.count), parts[0].tag == 0x06, parts.last!.tag == 0x04 else {
            throw malformed("bad Extension")
        }
        var critical = false
        if parts.count == 3 {
            guard parts[1].tag == 0x01, parts[1].contents.count == 1, parts[1].contents.first == 0xFF else {
                throw malformed("critical must be a DER TRUE when present")
            }
            critical = true
        }
        return Extension(
            oid: try oidString(Array(parts[0].contents)), isCritical: critical, value: Array(parts.last!.contents))
    }

    /// Dotted text of an OBJECT IDENTIFIER's contents (X.690 §8.19), with minimal base-128 encoding required.
    static func oidString(_ bytes: [UInt8]) throws(CryptoError) -> String {
        guard !bytes.isEmpty, bytes.last! & 0x80 == 0 else { throw malformed("truncated OID") }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        var startOfArc = true
        for byte in bytes {
            if startOfArc, byte == 0x80 { throw malformed("non-minimal OID arc") }
            guard value >> 57 == 0 else { throw malformed("OID arc too large") }
            value = value << 7 | UInt64(byte & 0x7F)
            startOfArc = byte & 0x80 == 0
            if startOfArc {
                arcs.append(value)
                value = 0
            }
        }
        let first = arcs[0]
        let prefix: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return (prefix + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }

    private static func string(_ element: DER.Element) throws(CryptoError) -> String {
        let bytes = Array(element.contents)
        switch element.tag {
        case 0x0C, 0x13, 0x16, 0x14:  // UTF8String, PrintableString, IA5String, T61String
            guard let text = UTF8Validation.string(bytes) else { throw malformed("name is not UTF-8") }
            return text
        case 0x1E:  // BMPString
            guard bytes.count % 2 == 0 else { throw malformed("odd BMPString") }
            let units = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        default:
            throw malformed("unsupported name string type \(element.tag)")
        }
    }

    private static func malformed(_ reason: String) -> CryptoError {
        CryptoError(.malformedInput, "X.509: \(reason)")
    }
}
