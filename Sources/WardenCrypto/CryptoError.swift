import WardenCore

/// An error from WardenCrypto: a stable ``CryptoErrorDomain/Code``, a reason that never contains key material or secrets, and
/// the source location.
///
/// `==` compares the code only, so tests write `#expect(throws: CryptoError(.weakKey))`.
public typealias CryptoError = CodedFailure<CryptoErrorDomain>

/// The codes of ``CryptoError`` and how a caller should react to each.
public enum CryptoErrorDomain: ErrorDomain {
    public static func failureKind(of code: Code) -> FailureKind {
        switch code {
        case .randomUnavailable, .backendFailure: .misconfiguration
        case .invalidKey, .weakKey, .unsupportedKey, .algorithmMismatch: .misconfiguration
        case .nonceReused, .keyExhausted: .misconfiguration
        default: .rejected
        }
    }

    /// A stable error code (a struct over a private enum, so new codes are not a breaking change).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Sendable {
            case invalidKey = "invalid_key"
            case weakKey = "weak_key"
            case unsupportedKey = "unsupported_key"
            case algorithmMismatch = "algorithm_mismatch"
            case malformedSignature = "malformed_signature"
            case malformedInput = "malformed_input"
            case inputTooLarge = "input_too_large"
            case noCertificate = "no_certificate"
            case randomUnavailable = "random_unavailable"
            case backendFailure = "backend_failure"
            case untrustedCertificate = "untrusted_certificate"
            case authenticationFailed = "authentication_failed"
            case nonceReused = "nonce_reused"
            case keyExhausted = "key_exhausted"
        }
        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        public var description: String { backing.rawValue }

        /// Key parameters are not a valid key (off-curve point, bad length, unparsable DER).
        public static let invalidKey = Code(.invalidKey)
        /// A valid key that is too weak to accept (RSA below 2048 bits, a bad exponent).
        public static let weakKey = Code(.weakKey)
        /// A key type or curve Warden does not support.
        public static let unsupportedKey = Code(.unsupportedKey)
        /// The algorithm does not fit the key (an EC algorithm with an RSA key, P-384 with ES256...).
        public static let algorithmMismatch = Code(.algorithmMismatch)
        /// The signature bytes have the wrong shape (length, zero or out-of-range scalars).
        public static let malformedSignature = Code(.malformedSignature)
        /// Input that is not what it claims to be (not DER, not PEM, truncated).
        public static let malformedInput = Code(.malformedInput)
        /// Input over the size cap.
        public static let inputTooLarge = Code(.inputTooLarge)
        /// A PEM or DER input that holds no certificate.
        public static let noCertificate = Code(.noCertificate)
        /// The system random source failed. Warden fails closed.
        public static let randomUnavailable = Code(.randomUnavailable)
        /// The crypto backend reported an internal failure.
        public static let backendFailure = Code(.backendFailure)
        /// A certificate chain that does not verify against the configured trust anchors (bad signature, expired,
        /// not yet valid, wrong issuer, a non-CA intermediate).
        public static let untrustedCertificate = Code(.untrustedCertificate)
        /// An AEAD open that did not authenticate: the ciphertext, its tag, its nonce or its associated data was
        /// changed or cut, or the key is not the one that sealed it. Nothing of the plaintext is returned.
        public static let authenticationFailed = Code(.authenticationFailed)
        /// A caller-chosen nonce that this key has already used, or one not above the last (``AEADKey`` takes
        /// explicit nonces only in increasing order, so none can repeat). A programming error: never retry it.
        public static let nonceReused = Code(.nonceReused)
        /// The key has sealed as many messages as its nonce policy allows (``AEADKey/messageLimit``): rotate it.
        public static let keyExhausted = Code(.keyExhausted)
    }
}
