import FuzzSupport
import WardenCrypto
import WardenJOSE

/// Arbitrary JSON as a JWK (RFC 7517/7518/8037) and as a JWKS, then as the key set of a verifier for tokens with
/// forged signatures. A parsed key republishes (`publicJSON`) to the same key, thumbprint and metadata; a set
/// accounts for every entry (used or skipped, in order), never mixes `oct` with public keys, reports exactly the
/// repeated `kid`s; no forged token verifies.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let key = try? JWK(json: String(decoding: bytes, as: UTF8.self)),
        let object = try? JSONReader(maximumBytes: 64 * 1024).parseObject(bytes)
    {
        checkKey(key, object: object)
    }
    guard let set = try? JWKSet(json: bytes) else { return 0 }
    guard let object = try? JSONReader(maximumBytes: 1 << 20).parseObject(bytes),
        let entries = object["keys"]?.arrayValue
    else { fatalError("a JWKS parsed from something that is not {\"keys\": [...]}") }

    require(set.keys.count + set.skipped.count == entries.count, "entries lost: \(set.skipped.map(\.index))")
    let skipped = set.skipped.map(\.index)
    require(zip(skipped, skipped.dropFirst()).allSatisfy { $0 < $1 }, "skipped out of order")
    require(skipped.allSatisfy { entries.indices.contains($0) }, "skipped index out of range")
    let used = entries.indices.filter { !skipped.contains($0) }
    require(zip(used, set.keys).allSatisfy { $1.keyID == entries[$0].objectValue?["kid"]?.stringValue }, "order")
    let types = Set(set.keys.map { $0.keyType == .oct })
    require(types.count <= 1, "oct keys mixed with public keys")
    var counts: [String: Int] = [:]
    for entry in entries { if let kid = entry.objectValue?["kid"]?.stringValue { counts[kid, default: 0] += 1 } }
    require(set.duplicateKeyIDs == Set(counts.filter { $0.value > 1 }.keys), "duplicate kids misreported")
    for (index, key) in zip(used, set.keys).prefix(8) {
        if let object = entries[index].objectValue { checkKey(key, object: object) }
    }
    guard let rebuilt = try? JWKSet(keys: set.keys) else { fatalError("a set's own keys do not form a set") }
    require(rebuilt.duplicateKeyIDs.isSubset(of: set.duplicateKeyIDs), "new duplicates")

    let verifier = JWSVerifier(keys: set, allowedAlgorithms: Set(JWSAlgorithm.allCases))
    for token in Fixture.forged {
        require((try? verifier.verify(token)) == nil, "a forged token verified: \(token)")
    }
    return 0
}

/// A parsed key (from `object`) against its own republication.
func checkKey(_ key: JWK, object: JSONObject) {
    require(key.thumbprint.utf8.count == 43 && (try? Base64URL.decode(key.thumbprint))?.count == 32, "thumbprint")
    require((key.keyType == .oct) == (key.publicKey == nil), "\(key.keyType) key material")
    require(key.keyType != .oct || key.description.hasSuffix(", <redacted>)"), "description \(key.description)")
    guard let json = key.publicJSON else {
        require(key.keyType == .oct, "no public JSON for a \(key.keyType) key")
        return
    }
    // Fuzz/Crashes/FuzzJWK/kid-with-quote: kid, alg and use must be escaped.
    guard let again = try? JWK(json: json) else { fatalError("publicJSON does not parse: \(json)") }
    require(again.keyType == key.keyType, "kty changes through publicJSON")
    require(again.keyID == key.keyID && again.algorithm == key.algorithm && again.use == key.use, "metadata")
    require(again.publicKey?.spkiDER == key.publicKey?.spkiDER, "a different key through publicJSON: \(json)")
    // One key, one thumbprint (Fuzz/Crashes/FuzzJWK/rsa-e-leading-zero: a non-minimal `e` once gave another).
    require(again.thumbprint == key.thumbprint, "the thumbprint changes through publicJSON: \(json)")
    if key.keyType == .rsa, let e = object["e"]?.stringValue {
        require((try? Base64URL.decode(e))?.first != 0, "RSA e with a leading zero byte accepted (RFC 7518 §6.3.1.2)")
    }
}

enum Fixture {
    /// Tokens with well-formed but made-up signatures, for each algorithm family, with and without a `kid`.
    static let forged: [String] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise(_ count: Int) -> [UInt8] {
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 33)
            }
        }
        let payload = Base64URL.encode(Array(#"{"sub":"fuzz","iss":"https://issuer.example.com"}"#.utf8))
        var tokens: [String] = []
        for (alg, length) in [
            ("RS256", 256), ("PS256", 256), ("ES256", 64), ("ES384", 96), ("EdDSA", 64), ("HS256", 32),
        ] {
            for kid in [nil, "1", "k1"] as [String?] {
                let header = #"{"alg":"\#(alg)""# + (kid.map { #","kid":"\#($0)""# } ?? "") + "}"
                tokens.append(
                    Base64URL.encode(Array(header.utf8)) + "." + payload + "." + Base64URL.encode(noise(length)))
            }
        }
        return tokens
    }()
}

@_cdecl("FuzzJWK_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
