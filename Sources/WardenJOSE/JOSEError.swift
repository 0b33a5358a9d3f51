import WardenCore

/// An error from WardenJOSE: a stable ``JOSEErrorDomain/Code``, a reason that never contains token contents or key material,
/// and the source location. `==` compares the code.
///
/// Policy failures (an expired token, a wrong audience) are reported with the same type so that one `catch`
/// covers every rejection; ``CodedFailure/failureKind`` says `.rejected` for forged or invalid input and
/// `.misconfiguration` for problems with the caller's keys or options.
public typealias JOSEError = CodedFailure<JOSEErrorDomain>

/// The codes of ``JOSEError`` and how a caller should react to each.
public enum JOSEErrorDomain: ErrorDomain {
    public static func failureKind(of code: Code) -> FailureKind {
        switch code.backing {
        case .invalidKey, .weakKey, .mixedKeySet, .privateKeyInSet, .invalidConfiguration: .misconfiguration
        case .keySetUnavailable: .transient
        default: .rejected
        }
    }

    /// A stable error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable {
            // Input shape
            case tooLarge = "too_large"
            case malformed
            case invalidBase64 = "invalid_base64"
            case invalidJSON = "invalid_json"
            case duplicateMember = "duplicate_member"
            case tooDeep = "too_deep"
            case unsupportedSerialization = "unsupported_serialization"
            // Header rules
            case algNone = "alg_none"
            case unsupportedAlgorithm = "unsupported_algorithm"
            case algorithmNotAllowed = "algorithm_not_allowed"
            case critUnsupported = "crit_unsupported"
            case unsupportedHeader = "unsupported_header"
            // Keys
            case unknownKid = "unknown_kid"
            case ambiguousKey = "ambiguous_key"
            case noMatchingKey = "no_matching_key"
            case keyAlgorithmMismatch = "key_algorithm_mismatch"
            case invalidKey = "invalid_key"
            case weakKey = "weak_key"
            case mixedKeySet = "mixed_key_set"
            case privateKeyInSet = "private_key_in_set"
            // Signature
            case invalidSignature = "invalid_signature"
            // Claims
            case expired
            case notYetValid = "not_yet_valid"
            case issuedInFuture = "issued_in_future"
            case tooOld = "too_old"
            case missingClaim = "missing_claim"
            case invalidClaim = "invalid_claim"
            case issuerMismatch = "issuer_mismatch"
            case audienceMismatch = "audience_mismatch"
            case nonceMismatch = "nonce_mismatch"
            case typeMismatch = "type_mismatch"
            case azpMismatch = "azp_mismatch"
            case accessTokenHashMismatch = "at_hash_mismatch"
            case codeHashMismatch = "c_hash_mismatch"
            case authTimeTooOld = "auth_time_too_old"
            case acrMismatch = "acr_mismatch"
            case subjectMismatch = "subject_mismatch"
            case authTimeRegressed = "auth_time_regressed"
            // Configuration and transport
            case invalidConfiguration = "invalid_configuration"
            case keySetUnavailable = "key_set_unavailable"
        }
        fileprivate let backing: Backing
        fileprivate init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// A token or JSON document over its size cap, refused before it is decoded or parsed.
        public static let tooLarge = Code(.tooLarge)
        /// A token without the compact JWS or JWT shape: empty, not three segments, a header `alg` missing or not a
        /// string (or a non-string `kid` or `typ`), or a payload that is not a JSON object.
        public static let malformed = Code(.malformed)
        /// A segment that is not strict base64url: a character outside the alphabet, an impossible length, or
        /// non-canonical trailing bits.
        public static let invalidBase64 = Code(.invalidBase64)
        /// A document that is not strict RFC 8259 JSON (including invalid UTF-8), or not the JSON object expected.
        public static let invalidJSON = Code(.invalidJSON)
        /// A JSON object that names the same member twice.
        public static let duplicateMember = Code(.duplicateMember)
        /// JSON nested deeper than the reader's depth cap (``JSONReader/maximumDepth``).
        public static let tooDeep = Code(.tooDeep)
        /// JWE, JSON serialization or another form Warden does not verify.
        public static let unsupportedSerialization = Code(.unsupportedSerialization)
        /// A header `alg` of `none`, in any casing: an unsecured JWS is never accepted.
        public static let algNone = Code(.algNone)
        /// A header `alg` that is not a ``JWSAlgorithm``.
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// A supported `alg` that is not among the verifier's allowed algorithms.
        public static let algorithmNotAllowed = Code(.algorithmNotAllowed)
        /// A header with `crit`: Warden understands no critical extensions.
        public static let critUnsupported = Code(.critUnsupported)
        /// `zip`, `enc` or `b64` in a JWS header.
        public static let unsupportedHeader = Code(.unsupportedHeader)
        /// No key in the set has the token's `kid`; ``JWKSCache`` refetches the set once on this code.
        public static let unknownKid = Code(.unknownKid)
        /// Several keys in the set share the token's `kid` or, when the token has no `kid`, fit its algorithm.
        public static let ambiguousKey = Code(.ambiguousKey)
        /// No key in the set can verify the token's algorithm.
        public static let noMatchingKey = Code(.noMatchingKey)
        /// The key cannot verify the token's algorithm: another key type or curve, another `alg` of its own, a `use`
        /// other than `sig`, or `key_ops` without `verify`.
        public static let keyAlgorithmMismatch = Code(.keyAlgorithmMismatch)
        /// A JWK or JWKS that is not a valid key or key set: a missing or malformed member, an unsupported `kty` or
        /// `crv`, or parameters that are not a valid key.
        public static let invalidKey = Code(.invalidKey)
        /// A valid key too weak to accept: an RSA key below 2048 bits, with a bad exponent or the ROCA fingerprint, or
        /// an `oct` secret that is empty or shorter than the HMAC hash.
        public static let weakKey = Code(.weakKey)
        /// A key set that mixes `oct` secrets with public keys, which invites HS/RS algorithm confusion.
        public static let mixedKeySet = Code(.mixedKeySet)
        /// An asymmetric JWK that carries private members (`d`, `p`, ...); a key set holding one is refused whole.
        public static let privateKeyInSet = Code(.privateKeyInSet)
        /// The signature does not verify with the selected key, or has the wrong shape.
        public static let invalidSignature = Code(.invalidSignature)
        /// `exp` is further in the past than the leeway allows (``ExpirationPolicy``).
        public static let expired = Code(.expired)
        /// `nbf` is further in the future than the leeway allows (``NotBeforePolicy``).
        public static let notYetValid = Code(.notYetValid)
        /// `iat` is later than now; no leeway applies (``IssuedAtPolicy``).
        public static let issuedInFuture = Code(.issuedInFuture)
        /// `iat` is older than the policy's ``IssuedAtPolicy/maximumAge``.
        public static let tooOld = Code(.tooOld)
        /// A claim the policy requires is absent.
        public static let missingClaim = Code(.missingClaim)
        /// A claim has the wrong type or an unacceptable value (e.g. a `sub` that is not 1 to 255 ASCII characters).
        public static let invalidClaim = Code(.invalidClaim)
        /// `iss` is not the expected issuer.
        public static let issuerMismatch = Code(.issuerMismatch)
        /// `aud` does not contain the expected audience, or names one that is not trusted.
        public static let audienceMismatch = Code(.audienceMismatch)
        /// `nonce` differs from the expected value.
        public static let nonceMismatch = Code(.nonceMismatch)
        /// The header `typ` is absent or not the expected type (``TypePolicy``).
        public static let typeMismatch = Code(.typeMismatch)
        /// `azp` is not the expected client, or is absent while `aud` names several audiences.
        public static let azpMismatch = Code(.azpMismatch)
        /// An ID token's `at_hash` does not match the access token.
        public static let accessTokenHashMismatch = Code(.accessTokenHashMismatch)
        /// An ID token's `c_hash` does not match the authorization code.
        public static let codeHashMismatch = Code(.codeHashMismatch)
        /// `auth_time` is older than the requested `max_age` plus the leeway (``AuthTimePolicy``).
        public static let authTimeTooOld = Code(.authTimeTooOld)
        /// `acr_values` was requested and the token names another authentication context class.
        public static let acrMismatch = Code(.acrMismatch)
        /// A refreshed ID token names another subject than the session's (OIDC Core §12.2).
        public static let subjectMismatch = Code(.subjectMismatch)
        /// A refreshed ID token's `auth_time` is earlier than the session's.
        public static let authTimeRegressed = Code(.authTimeRegressed)
        /// The caller's options are invalid, such as a leeway outside 0...300 s, a bad issuer template or no audience.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// ``JWKSCache`` could not fetch or use the JWKS (a transport failure, a status other than 200, over 1 MiB, an
        /// unusable set) and has no earlier set to serve.
        public static let keySetUnavailable = Code(.keySetUnavailable)
    }
}
