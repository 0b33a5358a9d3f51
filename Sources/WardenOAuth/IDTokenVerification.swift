import Foundation
import WardenCore
import WardenJOSE

/// The ID-token check of every sign-in and refresh (OpenID Connect Core §3.1.3.7, §12.2): signature with the
/// provider's JWKS (the key decides the algorithm; an unknown `kid` refetches the set once, at most once a minute,
/// then fails closed), `iss`, `sub`, `aud` (the client plus ``trustedAudiences``, nothing else) and `azp`,
/// `exp`/`iat`/`nbf` in the **provider's** time (``ProviderTime``, from the token response's `Date` header), the
/// request's `nonce`, `at_hash` against the access token that came with it, and `auth_time`/`acr` when `max_age`
/// or `acr_values` were requested.
///
/// One value per client: it holds the JWKS cache, so the key set is fetched once and a rotation is followed.
/// `AuthClient` keeps one.
///
/// ```swift
/// let verification = try IDTokenVerification(metadata: metadata, clientID: "app", transport: transport)
/// let claims = try await verification.verify(tokens, nonce: code.pending.nonce?.unredacted())
/// ```
public struct IDTokenVerification: Sendable {
    /// The issuer an ID token's `iss` must equal (unless ``issuerTemplate`` is set).
    public let issuer: String
    /// The client ID an ID token's `aud` must name (and `azp`, when present, must equal).
    public let clientID: String
    /// Audiences an ID token's `aud` may name besides the client ID.
    public let trustedAudiences: Set<String>
    /// The provider's key set.
    public let keys: JWKSCache
    /// The largest device/provider clock difference that is corrected (``ProviderTime``).
    public let maximumClockOffset: TimeInterval
    /// The multi-tenant template `iss` is checked against instead of ``issuer`` (``ProviderMetadata/issuerTemplate``).
    public let issuerTemplate: TenantIssuerTemplate?
    let now: NowProvider

    /// A verification for `metadata`'s issuer and JWKS; throws ``OAuthError/Code/invalidMetadata`` without
    /// `jwks_uri`.
    public init(
        metadata: ProviderMetadata, clientID: String, trustedAudiences: Set<String> = [],
        transport: any HTTPTransport, maximumClockOffset: TimeInterval = ProviderTime.defaultMaximumOffset,
        now: @escaping NowProvider = systemNow
    ) throws(OAuthError) {
        guard let jwksURI = metadata.jwksURI else { throw OAuthError(.invalidMetadata, "the provider has no jwks_uri") }
        self.init(
            issuer: metadata.issuer, clientID: clientID, trustedAudiences: trustedAudiences,
            keys: JWKSCache(url: jwksURI, transport: transport, now: now), maximumClockOffset: maximumClockOffset,
            issuerTemplate: metadata.issuerTemplate, now: now)
    }

    /// A verification over an existing cache (a server verifying many clients' tokens shares one).
    public init(
        issuer: String, clientID: String, trustedAudiences: Set<String> = [], keys: JWKSCache,
        maximumClockOffset: TimeInterval = ProviderTime.defaultMaximumOffset,
        issuerTemplate: TenantIssuerTemplate? = nil, now: @escaping NowProvider = systemNow
    ) {
        self.issuer = issuer
        self.issuerTemplate = issuerTemplate
        self.clientID = clientID
        self.trustedAudiences = trustedAudiences
        self.keys = keys
        self.maximumClockOffset = maximumClockOffset
        self.now = now
    }

    /// Verifies the ID token of a code exchange.
    /// - Parameters:
    ///   - nonce: the `nonce` the authorization request sent.
    ///   - maxAge: the `max_age` it sent: `auth_time` is then required and checked.
    ///   - acrValues: the `acr_values` it sent: a returned `acr` must be one of them.
    public func verify(
        _ tokens: TokenResponse, nonce: String?, maxAge: TimeInterval? = nil, acrValues: [String]? = nil
    ) async throws(OAuthError) -> JWTClaims {
        guard let idToken = tokens.idToken?.unredacted() else {
            throw OAuthError(.invalidTokenResponse, "openid was requested but no id_token came back")
        }
        let validator = validator(for: tokens)
        let access = tokens.accessToken.unredacted()
        return try await run(idToken) { keys throws(JOSEError) in
            try validator(keys).verify(
                idToken, nonce: nonce, accessToken: access, maxAge: maxAge, acrValues: acrValues)
        }
    }

    /// Verifies the ID token a **refresh** returned against `original`, the session's validated ID token
    /// (Core §12.2: same `iss`, `sub`, `aud` and `azp`, `auth_time` never earlier). Returns nil when the response
    /// carries no ID token.
    public func verifyRefreshed(_ tokens: TokenResponse, original: String) async throws(OAuthError) -> JWTClaims? {
        try await verifyRefreshed(tokens, original: original, checkingTime: true)
    }

    private func verifyRefreshed(_ tokens: TokenResponse, original: String, checkingTime: Bool)
        async throws(OAuthError) -> JWTClaims?
    {
        guard let idToken = tokens.idToken?.unredacted() else { return nil }
        let first = try Self.claims(ofStored: original)
        let validator = validator(for: tokens)
        let access = tokens.accessToken.unredacted()
        return try await run(idToken) { keys throws(JOSEError) in
            checkingTime
                ? try validator(keys).verifyRefreshed(idToken, original: first, accessToken: access)
                : try validator(keys).verifyRefreshedIgnoringTime(idToken, original: first, accessToken: access)
        }
    }

    /// The claims of the session's stored ID token: it was validated at sign-in and comes from the secure store;
    /// its key may have rotated away since, so its signature is not checked again.
    private static func claims(ofStored original: String) throws(OAuthError) -> JWTClaims {
        guard let object = try? JWSCompact.decodeUnverified(original).payload?.objectValue else {
            throw OAuthError(.invalidIDToken, "the session's ID token cannot be read")
        }
        return JWTClaims(object: object)
    }

    /// The §12.2 check of a refresh response as a ``RefreshedIDToken``.
    ///
    /// - `rejected` (the refreshed tokens are refused and the session ends): a signature that does not verify, a
    ///   `kid` the provider's key set lacks even after the one refetch (fail closed), another `iss`, `sub`, `aud`
    ///   or `azp`, an `auth_time` moved back, a foreign `nonce`, an `at_hash` that does not match.
    /// - `unchecked` (the new ID token is not stored; the session keeps its own and goes on): what says nothing
    ///   about who the user is — the key set unreachable right now, or only the token's times failing (a device
    ///   clock off by more than ``maximumClockOffset`` must not sign the user out at every refresh) — and a
    ///   session without an ID token to compare with.
    ///
    /// **Identity decides before time** (Core §12.2): a token whose times fail is "unchecked" only when everything
    /// else holds — signature, continuity, audience, `at_hash` — checked again without the time claims; and with the
    /// key set unreachable, a token whose (unverified) `iss`, `sub`, `aud` or `azp` differ from the session's is
    /// refused, not waved through. An identity change is never "unchecked".
    public func check(_ response: TokenResponse, current: String?) async -> RefreshedIDToken {
        guard let idToken = response.idToken?.unredacted() else { return .absent }
        guard let current else { return .unchecked("the session has no ID token to compare the refreshed one with") }
        do throws(OAuthError) {
            _ = try await verifyRefreshed(response, original: current)
            return .valid
        } catch {
            if error.code == .keySetUnavailable {
                if let changed = Self.identityChange(idToken, original: current) { return .rejected(changed) }
                return .unchecked(error.reason)
            }
            if let claimCode = error.claimCode, Self.timeOnly.contains(claimCode) {
                do throws(OAuthError) {
                    _ = try await verifyRefreshed(response, original: current, checkingTime: false)
                } catch let second {
                    // The key set unreachable on this second pass says nothing about who the token names: decide on
                    // the unverified identity, as the first pass does.
                    if second.code == .keySetUnavailable || second.code == .keyNotYetPublished {
                        if let changed = Self.identityChange(idToken, original: current) { return .rejected(changed) }
                        return .unchecked(second.reason)
                    }
                    return .rejected(second)
                }
                return .unchecked(error.reason)
            }
            return .rejected(error)
        }
    }

    /// Why the refreshed token's unverified claims name another identity than the session's (§12.2 continuity on
    /// the payloads alone), or nil when they name the same one. A payload that cannot be read is a change.
    static func identityChange(_ idToken: String, original: String) -> OAuthError? {
        do throws(JOSEError) {
            let refreshed = try JWSCompact.decodeUnverified(idToken)
            guard let object = refreshed.payload?.objectValue,
                let first = try JWSCompact.decodeUnverified(original).payload?.objectValue
            else { throw JOSEError(.malformed, "the refreshed ID token's payload is not a JSON object") }
            // `now` is never read by the continuity policy: it compares the two tokens, not a time.
            let context = ClaimContext(
                header: try JOSEHeader(object: refreshed.header), claims: JWTClaims(object: object),
                now: Date(timeIntervalSince1970: 0))
            try RefreshContinuityPolicy(original: JWTClaims(object: first)).check(context)
            return nil
        } catch {
            var failure = OAuthError(
                .invalidIDToken, "the refreshed ID token names another identity: \(error.codeName): \(error.reason)")
            failure.claimCode = error.codeName
            return failure
        }
    }

    /// JOSE codes of checks that are about time alone.
    static let timeOnly: Set<String> = [
        JOSEError.Code.expired.description, JOSEError.Code.issuedInFuture.description,
        JOSEError.Code.notYetValid.description,
    ]

    private func validator(for tokens: TokenResponse) -> @Sendable (JWKSet) -> IDTokenVerifier {
        let providerNow = ProviderTime(tokens, maximumOffset: maximumClockOffset).now(now)
        let (issuer, clientID, trusted, template) = (issuer, clientID, trustedAudiences, issuerTemplate)
        return { keys in
            IDTokenVerifier(
                issuer: issuer, clientID: clientID, keys: keys, trustedAudiences: trusted, issuerTemplate: template,
                now: providerNow)
        }
    }

    private func run(_ idToken: String, _ check: @Sendable (JWKSet) throws(JOSEError) -> JWTClaims)
        async throws(OAuthError) -> JWTClaims
    {
        do {
            return try await keys.verify(idToken, check)
        } catch {
            let code: OAuthError.Code =
                switch error.code {
                case .keySetUnavailable: .keySetUnavailable
                case .unknownKid: .keyNotYetPublished
                default: .invalidIDToken
                }
            var failure = OAuthError(code, "the ID token was rejected: \(error.codeName): \(error.reason)")
            failure.claimCode = error.codeName
            throw failure
        }
    }
}

/// The provider's clock as this device sees it: the offset between a token response's `Date` header (RFC 9110
/// §6.6.1) and the device clock when the response arrived.
///
/// ID-token times (`iat`, `exp`, `nbf`, `auth_time`) are the provider's; checking them in the provider's frame
/// keeps the rule "`iat` never in the future" without a positive leeway, and a device whose clock runs minutes
/// off still signs in. An offset beyond ``maximumOffset`` (default 10 minutes) is ignored — and logged — so a
/// wrong `Date` cannot stretch a token's life by hours; the device clock is used then.
public struct ProviderTime: Sendable {
    /// 10 minutes.
    public static let defaultMaximumOffset: TimeInterval = 600
    /// Provider time minus device time, as measured (nil without a usable `Date` header).
    public let measuredOffset: TimeInterval?
    /// The bound beyond which the offset is ignored.
    public let maximumOffset: TimeInterval

    /// The offset measured from `serverDate` received at device time `receivedAt`.
    public init(serverDate: Date?, receivedAt: Date?, maximumOffset: TimeInterval = Self.defaultMaximumOffset) {
        if let serverDate, let receivedAt {
            measuredOffset = serverDate.timeIntervalSince(receivedAt)
        } else {
            measuredOffset = nil
        }
        self.maximumOffset = maximumOffset
    }

    /// The offset measured from a token response.
    public init(_ tokens: TokenResponse, maximumOffset: TimeInterval = Self.defaultMaximumOffset) {
        self.init(serverDate: tokens.serverDate, receivedAt: tokens.receivedAt, maximumOffset: maximumOffset)
    }

    /// The correction applied: the measured offset within the bound, else 0.
    ///
    /// The provider stamps `iat` before it answers and truncates both it and `Date` to the second, so `Date` is
    /// never earlier than `iat`; the corrected time — `Date` plus the device time since the response arrived — is
    /// therefore never earlier than an honest `iat` either.
    public var offset: TimeInterval {
        guard let measuredOffset, abs(measuredOffset) <= maximumOffset else { return 0 }
        return measuredOffset
    }

    /// The provider's "now", read through the device clock `device`.
    public func now(_ device: @escaping NowProvider) -> NowProvider {
        if let measuredOffset, abs(measuredOffset) > maximumOffset {
            WardenLogger(category: "oauth").warning(
                "the provider's clock differs from this device's by \(Int(measuredOffset)) s, more than the \(Int(maximumOffset)) s that is corrected; using the device clock"
            )
        }
        let offset = self.offset
        return { device().addingTimeInterval(offset) }
    }
}

/// What became of the ID token of a refresh response (``IDTokenVerification/check(_:current:)``).
public enum RefreshedIDToken: Sendable {
    /// The response carried none; the session keeps its ID token.
    case absent
    /// Fully validated and continues the session's: it replaces the stored one.
    case valid
    /// It could not be checked (no original to compare with, the key set unreachable, a refresher that does not
    /// validate): it is dropped and the session keeps its ID token.
    case unchecked(String)
    /// It must be refused (another subject, a bad signature, ...): the refreshed tokens are never stored and the
    /// session ends (`SessionError.Code.idTokenRejected`).
    case rejected(OAuthError)
}
