import Foundation
import WardenCore
import WardenJOSE

/// An RFC 8628 device authorization (§3.2): the code the device polls with, and what the user is shown — the user
/// code and where to enter it — for a sign-in on another screen (a TV, a CLI, a provider that gives public clients
/// no other grant).
public struct DeviceAuthorization: Sendable, CustomStringConvertible {
    /// The device code the token requests carry (secret: prints redacted).
    public let deviceCode: Redacted<String>
    /// What the user types at ``verificationURI`` (shown as is).
    public let userCode: String
    /// Where the user goes to enter ``userCode`` (https; loopback http only for a local provider).
    public let verificationURI: URL
    /// The same with the code filled in, when the provider gives one (for a QR code).
    public let verificationURIComplete: URL?
    /// When the device code stops working; polling ends there with ``OAuthError/Code/expiredToken``.
    public let expiresAt: Date
    /// Seconds between polls (RFC 8628 §3.2: 5 when the provider says nothing), at least 1.
    public let interval: TimeInterval

    /// Longest device-code lifetime accepted (30 minutes: RFC 8628's examples use 15 minutes to 30).
    static let maximumLifetime: TimeInterval = 1800

    /// Parses §3.2's response, received at `now`.
    init(json: [UInt8], now: Date) throws(OAuthError) {
        guard let object = try? JSONReader(maximumBytes: 64 * 1024, maximumDepth: 4).parseObject(json),
            let deviceCode = object["device_code"]?.stringValue, Self.isToken(deviceCode, bytes: 2048),
            let userCode = object["user_code"]?.stringValue, Self.isToken(userCode, bytes: 64),
            let verification = (object["verification_uri"] ?? object["verification_url"])?.stringValue,
            let verificationURI = Self.secureURL(verification),
            let lifetime = object["expires_in"]?.numberValue?.int64, lifetime > 0,
            TimeInterval(lifetime) <= Self.maximumLifetime
        else {
            throw OAuthError(.invalidDeviceAuthorization, "the device authorization response is not RFC 8628 §3.2's")
        }
        let interval = object["interval"]?.numberValue?.int64 ?? 5
        guard (1...60).contains(interval) else {
            throw OAuthError(.invalidDeviceAuthorization, "the polling interval is not 1...60 seconds")
        }
        var complete: URL?
        if let text = object["verification_uri_complete"]?.stringValue {
            guard let url = Self.secureURL(text) else {
                throw OAuthError(.invalidDeviceAuthorization, "verification_uri_complete is not an https URL")
            }
            complete = url
        }
        self.deviceCode = Redacted(deviceCode)
        self.userCode = userCode
        self.verificationURI = verificationURI
        verificationURIComplete = complete
        expiresAt = now.addingTimeInterval(TimeInterval(lifetime))
        self.interval = TimeInterval(interval)
    }

    /// Printable ASCII without spaces, at most `bytes` long.
    static func isToken(_ text: String, bytes: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= bytes && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// An https URL (loopback http for a local provider), bounded: the rule every provider endpoint follows
    /// (`ProviderMetadata.secure`).
    static func secureURL(_ text: String) -> URL? {
        guard text.utf8.count <= 2048, let url = URL(string: text), url.host?.isEmpty == false else { return nil }
        return try? ProviderMetadata.secure(url, "verification_uri")
    }

    public var description: String {
        "DeviceAuthorization(user_code: \(userCode), verification_uri: \(verificationURI), device_code: <redacted>)"
    }
}

extension TokenClient {
    /// Starts a device sign-in (RFC 8628 §3.1): asks the device authorization endpoint for a device code and a user
    /// code for `scopes`. Show the user ``DeviceAuthorization/userCode`` and ``DeviceAuthorization/verificationURI``,
    /// then ``pollDeviceToken(_:clock:)``.
    public func authorizeDevice(scopes: [String], parameters: [(String, String)] = []) async throws(OAuthError)
        -> DeviceAuthorization
    {
        guard let endpoint = metadata.deviceAuthorizationEndpoint else {
            throw OAuthError(.noDeviceAuthorizationEndpoint, "the provider has no device_authorization_endpoint")
        }
        try Self.check(additionalParameters: parameters)
        var form = parameters
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        let response = try await post(endpoint, form, proof: false)
        guard response.status == 200 else { throw error(from: response, tokenEndpoint: false) }
        return try DeviceAuthorization(json: Array(response.body), now: now())
    }

    /// Polls the token endpoint with the device code (RFC 8628 §3.4) every ``DeviceAuthorization/interval`` seconds
    /// until the user approves (the tokens), denies (``OAuthError/Code/accessDenied``) or the code expires
    /// (``OAuthError/Code/expiredToken``, also when `expires_in` passes without an answer). `slow_down` lengthens the
    /// interval by 5 seconds for good (§3.5); `authorization_pending` waits; a transient failure (offline, 5xx) waits
    /// and tries again within the lifetime; any other refusal ends the polling. Cancelling the task stops it
    /// (``OAuthError/Code/cancelled``).
    public func pollDeviceToken(_ authorization: DeviceAuthorization, clock: any Clock<Duration> = ContinuousClock())
        async throws(OAuthError) -> TokenResponse
    {
        var interval = authorization.interval
        while true {
            do { try await clock.sleep(for: .milliseconds(Int64(interval * 1000)), tolerance: nil) } catch {
                throw OAuthError(.cancelled, "the device sign-in was cancelled")
            }
            guard now() < authorization.expiresAt else {
                throw OAuthError(.expiredToken, "the device code expired before the user approved it")
            }
            do {
                return try await tokenRequest([
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                    ("device_code", authorization.deviceCode.unredacted()),
                ])
            } catch {
                switch error.code {
                case .authorizationPending: continue
                case .slowDown: interval += 5
                case .cancelled: throw error
                default:
                    // A passing network failure does not end a sign-in the user may be approving right now.
                    guard error.failureKind == .transient else { throw error }
                }
            }
        }
    }
}
