import WardenCore

/// Why a DPoP proof (RFC 9449) was refused, or a DPoP exchange failed. Every refusal of ``DPoPVerifier`` has
/// its own stable code.
public typealias DPoPError = CodedFailure<DPoPErrorDomain>

/// The codes of ``DPoPError`` and how a caller should react to each.
public enum DPoPErrorDomain: ErrorDomain {
    public static func failureKind(of code: Code) -> FailureKind {
        code == .nonceRequired || code == .replayCacheUnavailable ? .transient : .rejected
    }

    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable {
            case malformed = "dpop_malformed"
            case wrongType = "dpop_wrong_type"
            case algorithmNotAllowed = "dpop_algorithm_not_allowed"
            case badKey = "dpop_bad_key"
            case privateKey = "dpop_private_key"
            case invalidSignature = "dpop_invalid_signature"
            case methodMismatch = "dpop_htm_mismatch"
            case urlMismatch = "dpop_htu_mismatch"
            case missingClaim = "dpop_missing_claim"
            case iatOutOfWindow = "dpop_iat_out_of_window"
            case replayed = "dpop_replayed"
            case replayCacheUnavailable = "dpop_replay_cache_unavailable"
            case nonceMismatch = "dpop_nonce_mismatch"
            case nonceRequired = "use_dpop_nonce"
            case athMismatch = "dpop_ath_mismatch"
            case keyMismatch = "dpop_key_mismatch"
            case tokenTypeDowngrade = "dpop_token_type_downgrade"
        }
        fileprivate let backing: Backing
        fileprivate init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// Not a compact JWS, not JSON, oversized, or a claim of the wrong type.
        public static let malformed = Code(.malformed)
        /// `typ` is not `dpop+jwt`.
        public static let wrongType = Code(.wrongType)
        /// `alg` is not in the allowlist (asymmetric algorithms only: never `none` or HMAC).
        public static let algorithmNotAllowed = Code(.algorithmNotAllowed)
        /// `jwk` is missing, not a key, or does not fit `alg`.
        public static let badKey = Code(.badKey)
        /// `jwk` carries private members (`d`, `p`, `q`, ...).
        public static let privateKey = Code(.privateKey)
        /// The signature does not verify with the `jwk` in the header.
        public static let invalidSignature = Code(.invalidSignature)
        /// `htm` is not the request's method.
        public static let methodMismatch = Code(.methodMismatch)
        /// `htu` is not the request's URL (after normalisation).
        public static let urlMismatch = Code(.urlMismatch)
        /// `jti`, `htm`, `htu` or `iat` is missing.
        public static let missingClaim = Code(.missingClaim)
        /// `iat` is outside the accepted window.
        public static let iatOutOfWindow = Code(.iatOutOfWindow)
        /// The `jti` was seen within the window (or is older than a bounded cache can still vouch for).
        public static let replayed = Code(.replayed)
        /// The replay cache could not answer (a remote store unreachable or timing out): the proof is refused,
        /// and the client may retry (a transient failure).
        public static let replayCacheUnavailable = Code(.replayCacheUnavailable)
        /// `nonce` is not the one the server issued.
        public static let nonceMismatch = Code(.nonceMismatch)
        /// The server requires a nonce it issued (`use_dpop_nonce`), and the proof has none.
        public static let nonceRequired = Code(.nonceRequired)
        /// `ath` does not hash the presented access token, or is missing with one.
        public static let athMismatch = Code(.athMismatch)
        /// The proof's key is not the one the token is bound to (`cnf.jkt`).
        public static let keyMismatch = Code(.keyMismatch)
        /// DPoP was requested but the server issued another `token_type` (a silent downgrade to Bearer).
        public static let tokenTypeDowngrade = Code(.tokenTypeDowngrade)
    }
}
