import WardenCore

/// Why a passkey ceremony was refused: a stable ``PasskeyErrorDomain/Code`` (printed by `warden passkey` as the reason code), a
/// reason that never contains challenges, signatures or key material, and the source location. `==` compares the
/// code.
public typealias PasskeyError = CodedFailure<PasskeyErrorDomain>

/// The codes of ``PasskeyError`` and how a caller should react to each.
public enum PasskeyErrorDomain: ErrorDomain {
    public static func failureKind(of code: Code) -> FailureKind {
        switch code {
        case .invalidConfiguration: .misconfiguration
        case .challengeStoreUnavailable: .transient
        default: .rejected
        }
    }

    /// A stable error code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Sendable {
            case malformed
            case tooLarge = "too_large"
            case typeMismatch = "type_mismatch"
            case challengeMismatch = "challenge_mismatch"
            case originNotAllowed = "origin_not_allowed"
            case crossOriginNotAllowed = "cross_origin_not_allowed"
            case topOriginNotAllowed = "top_origin_not_allowed"
            case rpIDMismatch = "rp_id_mismatch"
            case userNotPresent = "user_not_present"
            case userNotVerified = "user_not_verified"
            case invalidFlags = "invalid_flags"
            case credentialIDMismatch = "credential_id_mismatch"
            case unsupportedAlgorithm = "unsupported_algorithm"
            case algorithmNotAllowed = "algorithm_not_allowed"
            case invalidKey = "invalid_key"
            case invalidSignature = "invalid_signature"
            case unsupportedAttestation = "unsupported_attestation"
            case invalidAttestation = "invalid_attestation"
            case untrustedAttestation = "untrusted_attestation"
            case signCountRegression = "sign_count_regression"
            case userHandleMismatch = "user_handle_mismatch"
            case credentialNotAllowed = "credential_not_allowed"
            case backupEligibilityChanged = "backup_eligibility_changed"
            case challengeUnknown = "challenge_unknown"
            case challengeExpired = "challenge_expired"
            case challengeBindingMismatch = "challenge_binding_mismatch"
            case invalidConfiguration = "invalid_configuration"
            case challengeStoreUnavailable = "challenge_store_unavailable"
            case signInFailed = "sign_in_failed"
        }
        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// Input that does not have the WebAuthn shape (JSON, base64url, CBOR, authenticator data).
        public static let malformed = Code(.malformed)
        /// Input over a size cap.
        public static let tooLarge = Code(.tooLarge)
        /// `clientDataJSON.type` is not the ceremony's (`webauthn.create` / `webauthn.get`).
        public static let typeMismatch = Code(.typeMismatch)
        /// The signed challenge is not the one the server issued.
        public static let challengeMismatch = Code(.challengeMismatch)
        /// `clientDataJSON.origin` is not in the allowed set.
        public static let originNotAllowed = Code(.originNotAllowed)
        /// `crossOrigin: true` without the relying party allowing it.
        public static let crossOriginNotAllowed = Code(.crossOriginNotAllowed)
        /// A `topOrigin` that is not allowed (or present without `crossOrigin`).
        public static let topOriginNotAllowed = Code(.topOriginNotAllowed)
        /// `rpIdHash` is not SHA-256 of the relying party ID.
        public static let rpIDMismatch = Code(.rpIDMismatch)
        /// The UP flag is clear.
        public static let userNotPresent = Code(.userNotPresent)
        /// User verification was required and the UV flag is clear.
        public static let userNotVerified = Code(.userNotVerified)
        /// Flags that contradict the data (AT/ED without data, BS without BE, attested data in an assertion).
        public static let invalidFlags = Code(.invalidFlags)
        /// The response's `id`/`rawId` do not match each other, the authenticator data, or the stored record.
        public static let credentialIDMismatch = Code(.credentialIDMismatch)
        /// A COSE algorithm Warden does not implement.
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// A supported algorithm the relying party did not offer in `pubKeyCredParams`.
        public static let algorithmNotAllowed = Code(.algorithmNotAllowed)
        /// A COSE key that is inconsistent or not a valid public key.
        public static let invalidKey = Code(.invalidKey)
        /// The assertion or attestation signature does not verify.
        public static let invalidSignature = Code(.invalidSignature)
        /// An attestation format Warden does not verify (and the caller did not accept it as `none`).
        public static let unsupportedAttestation = Code(.unsupportedAttestation)
        /// An attestation statement that breaks its format's rules.
        public static let invalidAttestation = Code(.invalidAttestation)
        /// An attestation chain that does not lead to a configured root, or trust was required and not shown.
        public static let untrustedAttestation = Code(.untrustedAttestation)
        /// The signature counter did not increase: the authenticator may be cloned.
        public static let signCountRegression = Code(.signCountRegression)
        /// `userHandle` is missing where required or names a different user.
        public static let userHandleMismatch = Code(.userHandleMismatch)
        /// The credential is not in `allowCredentials`.
        public static let credentialNotAllowed = Code(.credentialNotAllowed)
        /// The BE flag differs from the one recorded at registration.
        public static let backupEligibilityChanged = Code(.backupEligibilityChanged)
        /// The challenge was never issued or was already used.
        public static let challengeUnknown = Code(.challengeUnknown)
        /// The challenge's lifetime is over.
        public static let challengeExpired = Code(.challengeExpired)
        /// The challenge was issued to a different user/session or for the other ceremony.
        public static let challengeBindingMismatch = Code(.challengeBindingMismatch)
        /// The relying party configuration is unusable (no origins, an empty RP ID...).
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The challenge store could not answer (a remote store unreachable, timing out or refusing us): the
        /// ceremony is refused, and the client may retry (a transient failure).
        public static let challengeStoreUnavailable = Code(.challengeStoreUnavailable)
        /// A sign-in refused by ``AccountPrivacy``: the one answer for an unknown user, an unknown credential and a
        /// known user's wrong one, so that the answer never tells whether an account exists (the real reason goes to
        /// the server's log only).
        public static let signInFailed = Code(.signInFailed)
    }
}
