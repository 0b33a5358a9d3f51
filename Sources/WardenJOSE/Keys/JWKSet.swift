import WardenCore

/// A JSON Web Key Set (RFC 7517 §5) for verification.
///
/// Keys that cannot be used (unknown `kty`, an off-curve point, a 1024-bit modulus) are skipped and reported in
/// ``skipped`` — never silently used. Two conditions reject the whole set, because they mean the set itself is
/// wrong: private key material in an asymmetric key (``JOSEErrorDomain/Code/privateKeyInSet``), and a mix of `oct`
/// secrets with asymmetric keys (``JOSEErrorDomain/Code/mixedKeySet``), which invites HS/RS confusion.
///
/// ```swift
/// let jwks = try JWKSet(json: jwksText)
/// for (index, reason) in jwks.skipped { log.warning("JWKS key \(index) skipped: \(reason)") }
/// ```
public struct JWKSet: Sendable, JSONDocument {
    /// The usable keys in document order.
    public let keys: [JWK]
    /// `(index in "keys", why it was skipped)` for each unusable key.
    public let skipped: [(index: Int, reason: JOSEError)]
    /// `kid`s that more than one entry of the document uses (counting skipped entries): a token naming one of
    /// them is ``JOSEErrorDomain/Code/ambiguousKey`` (RFC 7517 §4.5 asks for distinct `kid`s; guessing is unsafe).
    public let duplicateKeyIDs: Set<String>

    /// Parses a JWKS document (`{"keys":[...]}`, at most 1 MiB); `String` and `Data` forms come from
    /// ``JSONDocument``.
    public init(json bytes: [UInt8]) throws(JOSEError) {
        let object = try JSONReader(maximumBytes: 1 << 20).parseObject(bytes)
        guard let array = object["keys"]?.arrayValue else {
            throw JOSEError(.invalidKey, "a JWKS needs a 'keys' array")
        }
        var keys: [JWK] = []
        var skipped: [(Int, JOSEError)] = []
        var seenKeyIDs: Set<String> = []
        var duplicates: Set<String> = []
        for element in array {
            if let kid = element.objectValue?["kid"]?.stringValue, !seenKeyIDs.insert(kid).inserted {
                duplicates.insert(kid)
            }
        }
        for (index, element) in array.enumerated() {
            guard let member = element.objectValue else {
                skipped.append((index, JOSEError(.invalidKey, "not a JSON object")))
                continue
            }
            do {
                keys.append(try JWK(object: member))
            } catch  where error.code == .privateKeyInSet {
                throw JOSEError(.privateKeyInSet, "key \(index) of the JWKS contains private key material")
            } catch {
                skipped.append((index, error))
            }
        }
        try self.init(keys: keys, skipped: skipped, duplicates: duplicates)
    }

    /// A set from keys already parsed.
    public init(keys: [JWK]) throws(JOSEError) {
        var seen: Set<String> = []
        let duplicates = Set(keys.compactMap(\.keyID).filter { !seen.insert($0).inserted })
        try self.init(keys: keys, skipped: [], duplicates: duplicates)
    }

    private init(keys: [JWK], skipped: [(Int, JOSEError)], duplicates: Set<String>) throws(JOSEError) {
        let symmetric = keys.contains { $0.keyType == .oct }
        let asymmetric = keys.contains { $0.keyType != .oct }
        guard !(symmetric && asymmetric) else {
            throw JOSEError(.mixedKeySet, "the key set mixes secret (oct) keys with public keys")
        }
        self.keys = keys
        self.skipped = skipped
        duplicateKeyIDs = duplicates
    }

    /// The key that verifies a token with `algorithm` and `keyID` (RFC 8725 §3.1, §3.10):
    /// - with a `kid`: the key with exactly that `kid` (an unknown `kid` is an error, never a fallback);
    /// - without: the only key compatible with `algorithm` (several is ``JOSEErrorDomain/Code/ambiguousKey``).
    func key(for algorithm: JWSAlgorithm, keyID: String?) throws(JOSEError) -> JWK {
        // Fast path: one key, the common case for a pinned verifier.
        // `kid`s match code point for code point, never by Unicode canonical equivalence (Swift's `==`): "é" and
        // "e\u{301}" are two key IDs.
        if keys.count == 1, duplicateKeyIDs.isEmpty,
            keyID == nil || keys[0].keyID.map({ CodePoints.equal($0, keyID!) }) == true
        {
            if let reason = keys[0].incompatibility(with: algorithm) { throw reason }
            return keys[0]
        }
        let candidates: [JWK]
        if let keyID {
            guard !duplicateKeyIDs.contains(keyID) else {
                throw JOSEError(.ambiguousKey, "several entries of the key set share the token's kid")
            }
            candidates = keys.filter { $0.keyID.map { CodePoints.equal($0, keyID) } == true }
            guard !candidates.isEmpty else { throw JOSEError(.unknownKid, "no key has the token's kid") }
        } else {
            candidates = keys
        }
        let compatible = candidates.filter { $0.incompatibility(with: algorithm) == nil }
        switch compatible.count {
        case 1: return compatible[0]
        case 0:
            if candidates.count == 1, let reason = candidates[0].incompatibility(with: algorithm) { throw reason }
            throw JOSEError(.noMatchingKey, "no key in the set can verify \(algorithm)")
        default:
            throw JOSEError(
                .ambiguousKey,
                keyID == nil
                    ? "the token has no kid and several keys fit \(algorithm)" : "several keys share the token's kid")
        }
    }
}
