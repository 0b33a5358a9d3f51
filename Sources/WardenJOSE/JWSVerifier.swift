import WardenCrypto

/// Verifies compact JWS signatures with caller-supplied keys (RFC 7515, RFC 8725).
///
/// The key decides: the token's `alg` must be in ``allowedAlgorithms`` **and** compatible with the selected
/// key (`kty`, `crv`, the JWK's own `alg`, `use`, `key_ops`). Keys come only from the caller's ``JWKSet``,
/// selected by exact `kid`; an unknown `kid` is an error, never a fallback to "the default key".
///
/// ```swift
/// let verifier = JWSVerifier(keys: jwks, allowedAlgorithms: [.es256])
/// let verified = try verifier.verify(token)
/// let payload = verified.payload
/// ```
///
/// Thread-safety: immutable, `Sendable`; verify from any number of tasks.
public struct JWSVerifier: Sendable {
    /// Where keys come from.
    public let keys: JWKSet
    /// The algorithms a token may use.
    public let allowedAlgorithms: Set<JWSAlgorithm>
    /// The token size cap (checked before decoding).
    public let maximumBytes: Int

    /// A verifier. An empty `allowedAlgorithms` accepts nothing.
    public init(keys: JWKSet, allowedAlgorithms: Set<JWSAlgorithm>, maximumBytes: Int = JWSCompact.defaultMaximumBytes)
    {
        self.keys = keys
        self.allowedAlgorithms = allowedAlgorithms
        self.maximumBytes = maximumBytes
    }

    /// The result of a successful verification.
    public struct Verified: Sendable {
        /// The protected header.
        public let header: JOSEHeader
        /// The payload bytes.
        public let payload: [UInt8]
        /// The key that verified the signature.
        public let key: JWK
    }

    /// Verifies `token` or throws the reason it is rejected.
    public func verify(_ token: String) throws(JOSEError) -> Verified {
        let jws = try JWSCompact(token, maximumBytes: maximumBytes)
        let algorithm = jws.header.algorithm
        guard allowedAlgorithms.contains(algorithm) else {
            throw JOSEError(.algorithmNotAllowed, "\(algorithm) is not in the allowed algorithms")
        }
        let key = try keys.key(for: algorithm, keyID: jws.header.keyID)
        guard try Self.signatureIsValid(jws, algorithm: algorithm, key: key) else {
            throw JOSEError(.invalidSignature, "the signature does not verify")
        }
        return Verified(header: jws.header, payload: jws.payload, key: key)
    }

    package static func signatureIsValid(_ jws: JWSCompact, algorithm: JWSAlgorithm, key: JWK) throws(JOSEError)
        -> Bool
    {
        // The key decides (RFC 8725 §3.1), also when it comes with the token (a DPoP proof's jwk): its own alg, use
        // and key_ops must allow verifying this algorithm.
        if let reason = key.incompatibility(with: algorithm) { throw reason }
        switch key.material {
        case .symmetric(let secret):
            guard let hash = algorithm.hmacHash else { return false }
            return secret.key(for: hash).isValid(jws.signature, for: jws.signingInput)
        case .publicKey(let publicKey):
            guard let scheme = algorithm.signatureAlgorithm else { return false }
            do {
                return try publicKey.isValidSignature(jws.signature, for: jws.signingInput, algorithm: scheme)
            } catch  where error.code == .malformedSignature {
                throw JOSEError(.invalidSignature, "malformed signature: \(error.reason)")
            } catch {
                throw JOSEError(.keyAlgorithmMismatch, "\(algorithm) cannot be verified with this key")
            }
        }
    }
}
