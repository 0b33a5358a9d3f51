/// A minimal strict DER reader and writer for the few structures both backends need to take apart or build:
/// `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7), `RSAPublicKey` (RFC 8017 §A.1.1) and the path
/// `Certificate → tbsCertificate → subjectPublicKeyInfo`.
///
/// The Apple backend uses it (Security does not hand out SPKI bytes); on Linux it is tested against OpenSSL's
/// encodings so that both backends agree byte for byte.
@_spi(Fuzzing) public enum DER {
    @_spi(Fuzzing) public struct Element {
        @_spi(Fuzzing) public let tag: UInt8
        /// The full encoding (tag, length, contents).
        @_spi(Fuzzing) public let encoded: ArraySlice<UInt8>
        /// The contents only.
        @_spi(Fuzzing) public let contents: ArraySlice<UInt8>
    }

    static let maximumDepth = 16

    /// Reads one element at the start of `bytes`; throws on any non-DER length form or truncation.
    @_spi(Fuzzing) public static func read(_ bytes: ArraySlice<UInt8>) throws(CryptoError) -> (
        Element, rest: ArraySlice<UInt8>
    ) {
        var index = bytes.startIndex
        guard index < bytes.endIndex else { throw malformed("truncated: no tag") }
        let tag = bytes[index]
        guard tag & 0x1F != 0x1F else { throw malformed("high tag numbers are not used here") }
        index += 1
        guard index < bytes.endIndex else { throw malformed("truncated: no length") }
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count >= 1, count <= 4 else { throw malformed("indefinite or oversized length") }
            guard bytes.endIndex - index >= count else { throw malformed("truncated length") }
            length = 0
            for byte in bytes[index..<(index + count)] { length = length << 8 | Int(byte) }
            guard length >= 0x80, bytes[index] != 0 else { throw malformed("non-minimal length") }
            index += count
        }
        guard bytes.endIndex - index >= length else { throw malformed("truncated contents") }
        let end = index + length
        return (Element(tag: tag, encoded: bytes[bytes.startIndex..<end], contents: bytes[index..<end]), bytes[end...])
    }

    /// The children of a constructed element.
    @_spi(Fuzzing) public static func children(_ element: Element) throws(CryptoError) -> [Element] {
        var rest = element.contents
        var result: [Element] = []
        while !rest.isEmpty {
            let (child, next) = try read(rest)
            result.append(child)
            rest = next
        }
        return result
    }

    /// Exactly one element filling `bytes`.
    @_spi(Fuzzing) public static func single(_ bytes: [UInt8]) throws(CryptoError) -> Element {
        let (element, rest) = try read(bytes[...])
        guard rest.isEmpty else { throw malformed("trailing bytes") }
        return element
    }

    /// The `subjectPublicKeyInfo` bytes of a DER certificate.
    @_spi(Fuzzing) public static func spki(ofCertificate der: [UInt8]) throws(CryptoError) -> [UInt8] {
        let certificate = try single(der)
        guard certificate.tag == 0x30 else { throw malformed("a certificate is a SEQUENCE") }
        let parts = try children(certificate)
        guard parts.count == 3, parts[0].tag == 0x30 else { throw malformed("not a Certificate") }
        var fields = try children(parts[0])
        if fields.first?.tag == 0xA0 { fields.removeFirst() }  // [0] version
        // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo
        guard fields.count >= 6, fields[5].tag == 0x30 else { throw malformed("no subjectPublicKeyInfo") }
        return Array(fields[5].encoded)
    }

    /// The algorithm OID, optional parameter OID, and the key bits of a `SubjectPublicKeyInfo`.
    @_spi(Fuzzing) public static func parseSPKI(_ der: [UInt8]) throws(CryptoError) -> (
        algorithm: [UInt8], parameter: [UInt8]?, key: [UInt8]
    ) {
        let spki = try single(der)
        let parts = try children(spki)
        guard spki.tag == 0x30, parts.count == 2, parts[0].tag == 0x30, parts[1].tag == 0x03 else {
            throw malformed("not a SubjectPublicKeyInfo")
        }
        let algorithm = try children(parts[0])
        guard let oid = algorithm.first, oid.tag == 0x06 else { throw malformed("no algorithm OID") }
        let parameter = algorithm.count > 1 && algorithm[1].tag == 0x06 ? Array(algorithm[1].contents) : nil
        guard parts[1].contents.first == 0 else { throw malformed("public key BIT STRING with unused bits") }
        return (Array(oid.contents), parameter, Array(parts[1].contents.dropFirst()))
    }

    /// `(n, e)` of a PKCS#1 `RSAPublicKey`.
    @_spi(Fuzzing) public static func parseRSAPublicKey(_ der: [UInt8]) throws(CryptoError) -> (
        modulus: [UInt8], exponent: [UInt8]
    ) {
        let sequence = try single(der)
        let parts = try children(sequence)
        guard sequence.tag == 0x30, parts.count == 2, parts.allSatisfy({ $0.tag == 0x02 }) else {
            throw malformed("not an RSAPublicKey")
        }
        return (Array(parts[0].contents), Array(parts[1].contents))
    }

    // MARK: Writing

    @_spi(Fuzzing) public static func encode(tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        var length: [UInt8]
        if contents.count < 0x80 {
            length = [UInt8(contents.count)]
        } else {
            var count = contents.count
            var bytes: [UInt8] = []
            while count > 0 {
                bytes.insert(UInt8(count & 0xFF), at: 0)
                count >>= 8
            }
            length = [0x80 | UInt8(bytes.count)] + bytes
        }
        return [tag] + length + contents
    }

    static func sequence(_ parts: [[UInt8]]) -> [UInt8] { encode(tag: 0x30, parts.flatMap { $0 }) }

    /// A positive INTEGER from big-endian magnitude bytes.
    @_spi(Fuzzing) public static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty { bytes = [0] }
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return encode(tag: 0x02, bytes)
    }

    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    static let ed25519: [UInt8] = [0x2B, 0x65, 0x70]
    static let p256: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    static let p384: [UInt8] = [0x2B, 0x81, 0x04, 0x00, 0x22]
    static let p521: [UInt8] = [0x2B, 0x81, 0x04, 0x00, 0x23]

    static func curveOID(_ curve: EllipticCurve) -> [UInt8] {
        switch curve {
        case .p256: p256
        case .p384: p384
        case .p521: p521
        }
    }

    /// The SPKI of an RSA key (NULL parameters, as RFC 3279 requires).
    static func rsaSPKI(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
        let key = sequence([integer(modulus), integer(exponent)])
        return sequence([
            sequence([encode(tag: 0x06, rsaEncryption), [0x05, 0x00]]), encode(tag: 0x03, [0] + key),
        ])
    }

    /// The SPKI of an EC key from its uncompressed point.
    static func ecSPKI(curve: EllipticCurve, uncompressedPoint: [UInt8]) -> [UInt8] {
        sequence([
            sequence([encode(tag: 0x06, ecPublicKey), encode(tag: 0x06, curveOID(curve))]),
            encode(tag: 0x03, [0] + uncompressedPoint),
        ])
    }

    /// The SPKI of an Ed25519 key (RFC 8410).
    static func ed25519SPKI(_ raw: [UInt8]) -> [UInt8] {
        sequence([sequence([encode(tag: 0x06, ed25519)]), encode(tag: 0x03, [0] + raw)])
    }

    private static func malformed(_ reason: String) -> CryptoError { CryptoError(.malformedInput, "DER: \(reason)") }
}
