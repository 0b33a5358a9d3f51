import Foundation
import WardenCore
import WardenStorage

/// How `AppleAuthorizationCoordinator` (WardenApple) presents its requests.
public enum AppleAuthorizationMode: Sendable, Equatable {
    /// The user tapped a button: show the sheet.
    case interactive
    /// On launch: sign in with a credential already on the device (`preferImmediatelyAvailableCredentials`), and
    /// stay silent when there is none.
    case existingAccountOnLaunch
    /// Passkey suggestions in the QuickType bar of a username field (`performAutoFillAssistedRequests`).
    case autoFill
}

/// A failed `ASAuthorizationController` request, from its `ASAuthorizationError.Code`, classified so the app never
/// has to guess: a cancellation is never retried; "not interactive" means "show the UI" (or, on launch, "nothing
/// to sign in with"); the rest are distinguished.
public struct AppleAuthorizationError: CodedError {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Backing: String, Sendable {
            case cancelled, failed
            case invalidResponse = "invalid_response"
            case notHandled = "not_handled"
            case notInteractive = "not_interactive"
            case matchedExcludedCredential = "matched_excluded_credential"
            case unknown
            case alreadyRunning = "already_running"
            case credentialTransferFailed = "credential_transfer_failed"
            case preferSignInWithApple = "prefer_sign_in_with_apple"
            case deviceNotConfiguredForPasskeyCreation = "device_not_configured_for_passkey_creation"
            case associationFailed = "association_failed"
        }
        fileprivate let backing: Backing
        fileprivate init(_ backing: Backing) { self.backing = backing }
        public var description: String { backing.rawValue }

        /// `.canceled` (1001): the user dismissed the sheet. Never retried.
        public static let cancelled = Code(.cancelled)
        /// `.failed` (1004): the authorization failed (e.g. no network for Sign in with Apple). Transient.
        public static let failed = Code(.failed)
        /// `.failed` (1004) whose failure reason says the app is not associated with the relying party's domain
        /// ("Application with identifier … is not associated with domain …", "Unable to verify webcredentials
        /// association of … with domain …": github.com/f-23/react-native-passkey/issues/16 and /96): the
        /// `webcredentials:` associated domain or the domain's `apple-app-site-association` file is missing or wrong.
        /// Lasting until the app or the site is fixed: never retried.
        public static let associationFailed = Code(.associationFailed)
        /// `.invalidResponse` (1002).
        public static let invalidResponse = Code(.invalidResponse)
        /// `.notHandled` (1003): no provider handled the request (e.g. no associated domain for passkeys).
        public static let notHandled = Code(.notHandled)
        /// `.notInteractive` (1005): UI was needed but the mode did not allow it.
        public static let notInteractive = Code(.notInteractive)
        /// `.matchedExcludedCredential` (1006, iOS 18): the device already has a passkey the server excluded.
        public static let matchedExcludedCredential = Code(.matchedExcludedCredential)
        /// `.credentialImport` (1007) / `.credentialExport` (1008, iOS 18.2): a credential exchange request failed.
        public static let credentialTransferFailed = Code(.credentialTransferFailed)
        /// `.preferSignInWithApple` (1009, iOS 26): the user has a Sign in with Apple account for this app and chose
        /// it over this request; start Sign in with Apple instead.
        public static let preferSignInWithApple = Code(.preferSignInWithApple)
        /// `.deviceNotConfiguredForPasskeyCreation` (1010, iOS 26): the device cannot create passkeys now (no
        /// passcode, iCloud Keychain off); offer another way to sign in.
        public static let deviceNotConfiguredForPasskeyCreation = Code(.deviceNotConfiguredForPasskeyCreation)
        /// `.unknown` (1000), a code this version does not know, or an error of another domain (passkey failures
        /// also arrive in `WKErrorDomain`): see ``AppleAuthorizationError/domain`` and
        /// ``AppleAuthorizationError/domainCode``. Never retried automatically.
        public static let unknown = Code(.unknown)
        /// A second request was started while one is showing.
        public static let alreadyRunning = Code(.alreadyRunning)
    }

    public let code: Code
    public let reason: String
    /// Where Warden raised the error (`#fileID`: module and file), for bug reports; never compared by `==`.
    public let file: String
    /// The line of ``file``.
    public let line: Int
    /// The domain of the error the system reported (`com.apple.AuthenticationServices.AuthorizationError`,
    /// `WKErrorDomain`, ...), nil for errors Warden raised itself.
    public let domain: String?
    /// That error's code in its domain.
    public let domainCode: Int?

    /// `ASAuthorizationErrorDomain`.
    public static let authorizationErrorDomain = "com.apple.AuthenticationServices.AuthorizationError"

    /// An error Warden raises itself, with no system domain; an empty `reason` becomes the code's name.
    public init(_ code: Code, _ reason: String = "", file: String = #fileID, line: Int = #line) {
        self.file = file
        self.line = line
        self.code = code
        self.reason = Self.reason(reason, or: code)
        domain = nil
        domainCode = nil
    }

    private init(_ code: Code, _ reason: String, domain: String, domainCode: Int, file: String, line: Int) {
        self.file = file
        self.line = line
        self.code = code
        self.reason = reason
        self.domain = domain
        self.domainCode = domainCode
    }

    /// The error for an `ASAuthorizationError.Code` raw value.
    public init(authorizationErrorCode raw: Int, file: String = #fileID, line: Int = #line) {
        self.init(domain: Self.authorizationErrorDomain, code: raw, file: file, line: line)
    }

    /// The error for what `authorizationController(controller:didCompleteWithError:)` delivered, by its domain,
    /// code and failure reason (`error as NSError`, its `localizedFailureReason`). Codes of `ASAuthorizationErrorDomain`
    /// are mapped (1004 with an association failure reason is ``Code/associationFailed``); anything else is
    /// ``Code/unknown`` and keeps its domain and code for diagnostics. The failure reason is kept in ``reason``: it
    /// names the app and the domain, never a credential.
    public init(
        domain: String, code raw: Int, failureReason: String? = nil, file: String = #fileID, line: Int = #line
    ) {
        guard domain == Self.authorizationErrorDomain else {
            self.init(
                .unknown, "the authorization failed (\(domain) \(raw))", domain: domain, domainCode: raw, file: file,
                line: line)
            return
        }
        let (code, reason): (Code, String) =
            switch raw {
            case 1001: (.cancelled, "the user cancelled")
            case 1002: (.invalidResponse, "the authorization response was invalid")
            case 1003: (.notHandled, "no provider handled the request (check the associated domains)")
            case 1004:
                Self.isAssociationFailure(failureReason)
                    ? (.associationFailed, "the app is not associated with the relying party's domain (webcredentials)")
                    : (.failed, "the authorization failed")
            case 1005: (.notInteractive, "the request needs the user; present it interactively")
            case 1006: (.matchedExcludedCredential, "a passkey for this account is already on the device")
            case 1007, 1008: (.credentialTransferFailed, "the credential import or export failed")
            case 1009: (.preferSignInWithApple, "the user chose to use Sign in with Apple instead")
            case 1010: (.deviceNotConfiguredForPasskeyCreation, "this device is not set up to create passkeys")
            default: (.unknown, "the authorization failed for an unknown reason (\(raw))")
            }
        let detail = failureReason.map { ": " + String($0.prefix(300)) } ?? ""
        self.init(code, reason + detail, domain: domain, domainCode: raw, file: file, line: line)
    }

    /// Whether a 1004's failure reason is the lasting association failure of passkey requests.
    static func isAssociationFailure(_ failureReason: String?) -> Bool {
        guard let text = failureReason?.lowercased() else { return false }
        return text.contains("not associated with domain") || text.contains("not associated with the domain")
            || text.contains("webcredentials association")
    }

    /// How to react. An unknown failure is ``FailureKind/rejected``, never transient: retrying it automatically
    /// repeats a sheet the system already refused.
    public var failureKind: FailureKind {
        switch code.backing {
        case .cancelled: .userCancelled
        case .notHandled, .alreadyRunning, .associationFailed: .misconfiguration
        case .failed: .transient
        case .invalidResponse, .matchedExcludedCredential, .credentialTransferFailed, .unknown: .rejected
        // The device's state (no passcode, iCloud Keychain off) or the user's choice: not the app's configuration,
        // never retried.
        case .notInteractive, .preferSignInWithApple, .deviceNotConfiguredForPasskeyCreation: .userCancelled
        }
    }

    /// What the coordinator does with this error in `mode`: on launch and in AutoFill, a cancellation or "nothing
    /// to show" is not an error for the app (`nil`); interactively every error is reported.
    public func surfaced(in mode: AppleAuthorizationMode) -> AppleAuthorizationError? {
        switch (mode, code) {
        case (.existingAccountOnLaunch, .cancelled), (.existingAccountOnLaunch, .notInteractive): nil
        case (.autoFill, .cancelled): nil
        default: self
        }
    }
}

/// A Sign in with Apple credential, as the app must handle it: the user ID to keep, the identity token and code
/// for the server, and the e-mail and name, which Apple delivers **only on the first sign-in** — persist them now.
public struct AppleIDSignIn: Sendable, CustomStringConvertible {
    /// The stable Apple user ID (`sub`): keep it to check the credential state on later launches.
    public let userID: String
    /// The identity token (a JWT Apple signs), for the server to verify.
    public let identityToken: Redacted<String>
    /// The authorization code, for the server to redeem with Apple.
    public let authorizationCode: Redacted<String>
    /// The user's e-mail address, delivered only on the first sign-in.
    public let email: String?
    /// The user's given name, delivered only on the first sign-in.
    public let givenName: String?
    /// The user's family name, delivered only on the first sign-in.
    public let familyName: String?
    /// The raw nonce whose SHA-256 went into the request: send it to the server with the token.
    public let rawNonce: Redacted<String>

    /// A credential from its parts; the tokens and the nonce are kept redacted.
    public init(
        userID: String, identityToken: String, authorizationCode: String, email: String?, givenName: String?,
        familyName: String?, rawNonce: String
    ) {
        self.userID = userID
        self.identityToken = Redacted(identityToken)
        self.authorizationCode = Redacted(authorizationCode)
        self.email = email
        self.givenName = givenName
        self.familyName = familyName
        self.rawNonce = Redacted(rawNonce)
    }

    public var description: String {
        "AppleIDSignIn(user: \(userID), email: \(email == nil ? "nil" : "present"), tokens: <redacted>)"
    }
}

/// What one authorization produced.
public enum AppleAuthorizationResult: Sendable {
    /// A Sign in with Apple credential.
    case appleID(AppleIDSignIn)
    /// `PublicKeyCredential.toJSON()` of a new passkey: post it to the server (`RelyingParty.verifyRegistration`).
    case passkeyRegistration(json: String)
    /// `toJSON()` of a passkey sign-in: post it to the server (`RelyingParty.verifyAssertion`).
    case passkeyAssertion(json: String)
    /// A saved password (Password AutoFill / iCloud Keychain).
    case password(user: String, password: Redacted<String>)
}

/// Keeps the Apple user ID (`sub`) of the signed-in user in a ``CredentialStore`` (the Keychain on device), so
/// the credential state can be checked on every launch (`AppleIDCredentialMonitor`).
public struct AppleUserIDStore: Sendable {
    /// The store that holds the user ID.
    public let store: any CredentialStore
    /// The service the user ID is stored under.
    public let service: String
    /// The account the user ID is stored under (default `"apple-user-id"`).
    public let account: String

    /// A store for the user ID in `store` under `service` and `account`.
    public init(store: any CredentialStore, service: String, account: String = "apple-user-id") {
        self.store = store
        self.service = service
        self.account = account
    }

    /// Stores `userID`, replacing any earlier one.
    ///
    /// - Throws: `invalidName` for an empty ID or one over 512 bytes, and the store's errors.
    public func save(_ userID: String) async throws(StorageError) {
        guard !userID.isEmpty, userID.utf8.count <= 512 else {
            throw StorageError(.invalidName, "not an Apple user ID")
        }
        try await store.save(Data(userID.utf8), service: service, account: account)
    }

    /// The stored user ID, or nil when none is stored.
    ///
    /// - Throws: `corruptedData` when the stored item is empty or not UTF-8.
    public func load() async throws(StorageError) -> String? {
        guard let data = try await store.load(service: service, account: account) else { return nil }
        guard let text = String(data: data, encoding: .utf8), !text.isEmpty else {
            throw StorageError(.corruptedData, "the stored Apple user ID cannot be read")
        }
        return text
    }

    /// Deletes the stored user ID.
    public func delete() async throws(StorageError) { try await store.delete(service: service, account: account) }
}
