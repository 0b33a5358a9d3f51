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

        public static let tooLarge = Code(.tooLarge)
        public static let malformed = Code(.malformed)
        public static let invalidBase64 = Code(.invalidBase64)
        public static let invalidJSON = Code(.invalidJSON)
        public static let duplicateMember = Code(.duplicateMember)
        public static let tooDeep = Code(.tooDeep)
        /// JWE, JSON serialization or another form Warden does not verify.
        public static let unsupportedSerialization = Code(.unsupportedSerialization)
        public static let algNone = Code(.algNone)
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        public static let algorithmNotAllowed = Code(.algorithmNotAllowed)
        public static let critUnsupported = Code(.critUnsupported)
        /// `zip`, `enc` or `b64` in a JWS header.
        public static let unsupportedHeader = Code(.unsupportedHeader)
        public static let unknownKid = Code(.unknownKid)
        public static let ambiguousKey = Code(.ambiguousKey)
        public static let noMatchingKey = Code(.noMatchingKey)
        public static let keyAlgorithmMismatch = Code(.keyAlgorithmMismatch)
        public static let invalidKey = Code(.invalidKey)
        public static let weakKey = Code(.weakKey)
        public static let mixedKeySet = Code(.mixedKeySet)
        public static let privateKeyInSet = Code(.privateKeyInSet)
        public static let invalidSignature = Code(.invalidSignature)
        public static let expired = Code(.expired)
        public static let notYetValid = Code(.notYetValid)
        public static let issuedInFuture = Code(.issuedInFuture)
        public static let tooOld = Code(.tooOld)
        public static let missingClaim = Code(.missingClaim)
        public static let invalidClaim = Code(.invalidClaim)
        public static let issuerMismatch = Code(.issuerMismatch)
        public static let audienceMismatch = Code(.audienceMismatch)
        public static let nonceMismatch = Code(.nonceMismatch)
        public static let typeMismatch = Code(.typeMismatch)
        public static let azpMismatch = Code(.azpMismatch)
        public static let accessTokenHashMismatch = Code(.accessTokenHashMismatch)
        public static let codeHashMismatch = Code(.codeHashMismatch)
        public static let authTimeTooOld = Code(.authTimeTooOld)
        /// `acr_values` was requested and the token names another authentication context class.
        public static let acrMismatch = Code(.acrMismatch)
        /// A refreshed ID token names another subject than the session's (OIDC Core §12.2).
        public static let subjectMismatch = Code(.subjectMismatch)
        /// A refreshed ID token's `auth_time` is earlier than the session's.
        public static let authTimeRegressed = Code(.authTimeRegressed)
        public static let invalidConfiguration = Code(.invalidConfiguration)
        public static let keySetUnavailable = Code(.keySetUnavailable)
    }
}
