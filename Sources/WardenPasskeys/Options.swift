import Foundation
import WardenJOSE

/// `userVerification` / `residentKey` requirement strings.
public enum PasskeyRequirement: String, Sendable {
    /// The WebAuthn requirement levels, serialized as their raw values.
    case required, preferred, discouraged
}

/// A credential to exclude (registration) or allow (sign-in).
public struct PasskeyCredentialDescriptor: Sendable, Equatable {
    /// The credential ID.
    public let id: [UInt8]
    /// Transport hints for the client (`internal`, `hybrid`, `usb`...); omitted from the JSON when empty.
    public let transports: [String]
    /// A descriptor for credential `id` with optional transport hints.
    public init(id: [UInt8], transports: [String] = []) {
        self.id = id
        self.transports = transports
    }

    /// The descriptor of a stored credential.
    public init(_ record: CredentialRecord) { self.init(id: record.id, transports: record.transports) }

    var json: [String: Any] {
        var object: [String: Any] = ["type": "public-key", "id": Base64URL.encode(id)]
        if !transports.isEmpty { object["transports"] = transports }
        return object
    }
}

/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn Level 3 §5.1.2.1): what the browser's
/// `PublicKeyCredential.parseCreationOptionsFromJSON` and the iOS helpers in WardenApple take.
///
/// ```swift
/// let challenge = try await challenges.issue(binding: session.id, ceremony: .registration)
/// let options = PasskeyCreationOptions(relyingParty: rp, rpName: "Example", userID: user.handle,
///                                      userName: user.email, challenge: challenge)
/// respond(json: options.json())
/// ```
public struct PasskeyCreationOptions: Sendable {
    /// The RP ID (`rp.id`), taken from the relying party.
    public var rpID: String
    /// The relying party name shown to the user (`rp.name`).
    public var rpName: String
    /// The user handle: random bytes, at most 64, never an e-mail address or other PII.
    public var userID: [UInt8]
    /// The largest user handle WebAuthn allows (`user.id`, 64 bytes).
    public static let maximumUserIDBytes = 64
    /// The account name shown to the user (`user.name`).
    public var userName: String
    /// The user's display name (`user.displayName`); the user name when not given.
    public var userDisplayName: String
    /// The issued challenge bytes (base64url-encoded in the JSON).
    public var challenge: [UInt8]
    /// The COSE algorithms offered in `pubKeyCredParams`, taken from the relying party.
    public var algorithms: [COSEAlgorithm]
    /// Milliseconds.
    public var timeout: Int
    /// Credentials the user already has, which the authenticator must not register again.
    public var excludeCredentials: [PasskeyCredentialDescriptor]
    /// Whether a discoverable credential is wanted (default ``PasskeyRequirement/required``).
    public var residentKey: PasskeyRequirement
    /// Whether user verification is wanted (default ``PasskeyRequirement/preferred``).
    public var userVerification: PasskeyRequirement
    /// `none` (the default: no attestation needed), `indirect`, `direct` or `enterprise`.
    public var attestation: String

    /// Options for registering a passkey for `userID` with an issued challenge (the timeout follows its expiry).
    public init(
        relyingParty: RelyingParty, rpName: String, userID: [UInt8], userName: String, userDisplayName: String? = nil,
        challenge: PasskeyChallenge, excludeCredentials: [PasskeyCredentialDescriptor] = [],
        residentKey: PasskeyRequirement = .required, userVerification: PasskeyRequirement = .preferred,
        attestation: String = "none", now: Date = Date()
    ) {
        rpID = relyingParty.id
        self.rpName = rpName
        self.userID = userID
        self.userName = userName
        self.userDisplayName = userDisplayName ?? userName
        self.challenge = challenge.value
        algorithms = relyingParty.algorithms
        timeout = Int(max(0, challenge.expires.timeIntervalSince(now)) * 1000)
        self.excludeCredentials = excludeCredentials
        self.residentKey = residentKey
        self.userVerification = userVerification
        self.attestation = attestation
    }

    /// The JSON document (sorted keys, base64url byte fields).
    public func json() -> String {
        PasskeyJSON.encode([
            "rp": ["id": rpID, "name": rpName],
            "user": ["id": Base64URL.encode(userID), "name": userName, "displayName": userDisplayName],
            "challenge": Base64URL.encode(challenge),
            "pubKeyCredParams": algorithms.map { ["type": "public-key", "alg": $0.rawValue] as [String: Any] },
            "timeout": timeout,
            "excludeCredentials": excludeCredentials.map(\.json),
            "authenticatorSelection": [
                "residentKey": residentKey.rawValue, "requireResidentKey": residentKey == .required,
                "userVerification": userVerification.rawValue,
            ],
            "attestation": attestation,
            "extensions": ["credProps": true],
        ])
    }
}

/// `PublicKeyCredentialRequestOptionsJSON` (§5.5): the sign-in options.
public struct PasskeyRequestOptions: Sendable {
    /// The RP ID (`rpId`), taken from the relying party.
    public var rpID: String
    /// The issued challenge bytes (base64url-encoded in the JSON).
    public var challenge: [UInt8]
    /// Milliseconds.
    public var timeout: Int
    /// Empty for a discoverable (username-less) sign-in.
    public var allowCredentials: [PasskeyCredentialDescriptor]
    /// Whether user verification is wanted (default ``PasskeyRequirement/preferred``).
    public var userVerification: PasskeyRequirement

    /// Options for a sign-in with an issued challenge; `allowCredentials` empty for a username-less sign-in.
    public init(
        relyingParty: RelyingParty, challenge: PasskeyChallenge, allowCredentials: [PasskeyCredentialDescriptor] = [],
        userVerification: PasskeyRequirement = .preferred, now: Date = Date()
    ) {
        rpID = relyingParty.id
        self.challenge = challenge.value
        timeout = Int(max(0, challenge.expires.timeIntervalSince(now)) * 1000)
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }

    /// The JSON document.
    public func json() -> String {
        PasskeyJSON.encode([
            "rpId": rpID, "challenge": Base64URL.encode(challenge), "timeout": timeout,
            "allowCredentials": allowCredentials.map(\.json), "userVerification": userVerification.rawValue,
        ])
    }
}

enum PasskeyJSON {
    static func encode(_ object: [String: Any]) -> String {
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
