import WardenCore

/// An error from a ``CredentialStore``. Not finding an item is not an error (`load` returns nil).
///
/// A locked keychain or keyring, or an interaction that is not allowed right now (the device is locked), is
/// **transient**: the caller must keep the session and try later, never treat it as a sign-out.
public typealias StorageError = CodedFailure<StorageErrorDomain>

/// The codes of ``StorageError`` and how a caller should react to each.
public enum StorageErrorDomain: ErrorDomain {
    public static func failureKind(of code: Code) -> FailureKind {
        switch code.backing {
        case .locked, .interactionNotAllowed, .backendFailure, .lockTimeout: .transient
        case .missingEntitlement, .serviceUnavailable, .invalidName, .accessControlUnavailable: .misconfiguration
        case .userCancelled: .userCancelled
        case .authenticationFailed, .corruptedData, .itemTooLarge: .rejected
        case .tampered, .notARegularFile, .unknownKey: .rejected
        }
    }

    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable {
            case invalidName = "invalid_name"
            case itemTooLarge = "item_too_large"
            case locked
            case interactionNotAllowed = "interaction_not_allowed"
            case missingEntitlement = "missing_entitlement"
            case serviceUnavailable = "service_unavailable"
            case corruptedData = "corrupted_data"
            case userCancelled = "user_cancelled"
            case authenticationFailed = "authentication_failed"
            case backendFailure = "backend_failure"
            case accessControlUnavailable = "access_control_unavailable"
            case lockTimeout = "lock_timeout"
            case tampered
            case notARegularFile = "not_a_regular_file"
            case unknownKey = "unknown_key"
        }
        fileprivate let backing: Backing
        fileprivate init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// Empty, over 512 bytes, or containing NUL/control characters.
        public static let invalidName = Code(.invalidName)
        /// Items are capped at 64 KiB.
        public static let itemTooLarge = Code(.itemTooLarge)
        /// The keyring / keychain is locked (transient).
        public static let locked = Code(.locked)
        /// `errSecInteractionNotAllowed`: the device is locked or the app is in the background (transient).
        public static let interactionNotAllowed = Code(.interactionNotAllowed)
        /// `errSecMissingEntitlement` (-34018): the app lacks the keychain entitlement (misconfiguration).
        public static let missingEntitlement = Code(.missingEntitlement)
        /// No Secret Service / keychain is reachable (misconfiguration).
        public static let serviceUnavailable = Code(.serviceUnavailable)
        /// The stored bytes are not what Warden wrote.
        public static let corruptedData = Code(.corruptedData)
        /// The user cancelled a biometric or passcode prompt.
        public static let userCancelled = Code(.userCancelled)
        /// Biometric or passcode authentication failed.
        public static let authenticationFailed = Code(.authenticationFailed)
        /// Any other backend status.
        public static let backendFailure = Code(.backendFailure)
        /// The requested protection (`SecAccessControl`) could not be created, so the item was **not** saved:
        /// Warden never falls back to an unprotected item (misconfiguration).
        public static let accessControlUnavailable = Code(.accessControlUnavailable)
        /// Another holder of the grant (an app extension, a second process) is refreshing it and did not finish
        /// within the wait (``GrantLock``); transient: the session is kept and the next call tries again.
        public static let lockTimeout = Code(.lockTimeout)
        /// Sealed data that did not authenticate: a changed or cut file or blob, one sealed under another key, or one
        /// moved to another name (the name is authenticated too). Nothing of it is returned; read it from its source
        /// again.
        public static let tampered = Code(.tampered)
        /// A sealed store's path that is not a regular file of this user: a symbolic link, a FIFO, a device, a
        /// directory. The store never follows or reads it.
        public static let notARegularFile = Code(.notARegularFile)
        /// Sealed data that names a key the store no longer has (a key deleted by ``SealedStore/removeAll()`` or a
        /// reinstall, a Secure Enclave key that did not survive a restore): it cannot be opened again.
        public static let unknownKey = Code(.unknownKey)
    }
}
