import FuzzSupport
@_spi(Fuzzing) import WardenCrypto

/// Raw DER through WardenCrypto's strict reader (every element, recursively), the X.509 certificate parser, the
/// SPKI and PKCS#1 readers and the OpenSSL key import. Every element the reader accepts re-encodes to exactly its
/// bytes (lengths are minimal); the two certificate readers agree on the SPKI; an imported key re-imports to the
/// same key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    walk(bytes[...], depth: 0)

    if let certificate = try? X509Certificate(der: bytes) {
        require(certificate.der == bytes, "the certificate is not its input")
        require((1...3).contains(certificate.version), "version \(certificate.version)")
        require(certificate.version == 3 || certificate.extensions.isEmpty, "extensions in a v1/v2 certificate")
        require(Set(certificate.extensions.map(\.oid)).count == certificate.extensions.count, "repeated extension")
        let spki = try? DER.spki(ofCertificate: bytes)
        require(spki == certificate.subjectPublicKeyInfo, "the SPKI readers disagree")
        require(occurs(certificate.subjectPublicKeyInfo, in: bytes), "the SPKI is not part of the certificate")
        for attribute in certificate.subjectAttributes {
            require(attribute.oid.split(separator: ".").count >= 2, "OID \(attribute.oid)")
        }
        _ = certificate.subject(.commonName)
        _ = try? certificate.basicConstraintsCA
        if let key = try? certificate.publicKey { checkKey(key) }
        if !occurs("-----BEGIN ".utf8, in: bytes) {
            let listed = try? X509Certificate.certificates(pemOrDER: bytes)
            require(listed == [certificate], "certificates(pemOrDER:) does not read the DER certificate")
        }
        _ = try? CertificatePin.pins(fromCertificates: bytes)  // OpenSSL's d2i_X509
    }
    if let key = try? PublicKey(spkiDER: bytes) {
        checkKey(key)
        // The Linux backend (OpenSSL) and the DER reader the Apple backend uses accept the same SPKIs
        // (Fuzz/Crashes/FuzzDER/ed25519-spki-unused-bits: a key BIT STRING with unused bits).
        do {
            _ = try DER.parseSPKI(bytes)
        } catch {
            fatalError("OpenSSL read an SPKI the DER reader refuses: \(error.reason)")
        }
    }
    if let (modulus, exponent) = try? DER.parseRSAPublicKey(bytes) {
        if isMinimalNonNegative(modulus), isMinimalNonNegative(exponent) {
            let encoded = DER.encode(tag: 0x30, DER.integer(modulus) + DER.integer(exponent))
            require(encoded == bytes, "a minimal RSAPublicKey does not re-encode")
        }
        _ = try? PublicKey(rsaModulus: modulus, exponent: exponent)
    }
    _ = try? DER.parseSPKI(bytes)
    return 0
}

/// Reads every element of `bytes` and, inside constructed ones, their children, down to `DER.maximumDepth`.
func walk(_ bytes: ArraySlice<UInt8>, depth: Int) {
    var rest = bytes
    while !rest.isEmpty {
        guard let (element, next) = try? DER.read(rest) else { return }
        require(element.encoded.startIndex == rest.startIndex, "element does not start at the cursor")
        require(element.encoded.endIndex == next.startIndex, "element and rest overlap or leave a gap")
        require(element.contents.endIndex == element.encoded.endIndex, "contents are not the tail of the element")
        require(
            DER.encode(tag: element.tag, Array(element.contents)).elementsEqual(element.encoded),
            "an element does not re-encode to its bytes")
        if element.tag & 0x20 != 0, depth < 16 {
            if let children = try? DER.children(element) {
                require(children.map(\.encoded.count).reduce(0, +) == element.contents.count, "children lose bytes")
            }
            walk(element.contents, depth: depth + 1)
        }
        rest = next
    }
}

/// A key re-imports from its own SPKI to the same key, and its components read back.
func checkKey(_ key: PublicKey) {
    let spki = key.spkiDER
    guard let again = try? PublicKey(spkiDER: spki) else { fatalError("a key's own SPKI does not import") }
    require(again.kind == key.kind && again.spkiDER == spki, "a key does not round-trip through its SPKI")
    require((try? DER.parseSPKI(spki)) != nil, "a key's own SPKI does not parse")
    // The components (what a JWK publishes) describe the same key.
    let (first, second) = key.components
    let rebuilt: PublicKey?
    switch key.kind {
    case .rsa: rebuilt = try? PublicKey(rsaModulus: first, exponent: second)
    case .ec(let curve): rebuilt = try? PublicKey(curve: curve, x: first, y: second)
    case .ed25519: rebuilt = try? PublicKey(ed25519: first)
    }
    // Fuzz/Crashes/FuzzDER/p256-spki-compressed-point: a compressed point once gave y == x here.
    require(rebuilt.map { $0.components == (first, second) } ?? false, "\(key.kind) components are not the key")
}

/// DER INTEGER contents that `DER.integer` writes back unchanged: not negative, no redundant leading zero.
func isMinimalNonNegative(_ contents: [UInt8]) -> Bool {
    guard let first = contents.first, first & 0x80 == 0 else { return false }
    return !(first == 0 && contents.count > 1 && contents[1] & 0x80 == 0)
}

@_cdecl("FuzzDER_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
