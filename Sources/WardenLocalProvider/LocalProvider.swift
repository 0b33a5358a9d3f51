import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
@_spi(Fuzzing) import WardenOAuth

/// An in-process OpenID provider on 127.0.0.1 for the demo and tests. **Never for production**: it approves
/// every sign-in without asking anyone.
///
/// It implements discovery, JWKS (a fresh ES256 key per run), the authorization endpoint (PKCE S256 required,
/// RFC 9207 `iss` in the response), the token endpoint (authorization code, refresh with rotation and reuse
/// detection), revocation, userinfo and a protected test API at `/api/resource`, plus switches that simulate
/// outages (connection refused, 503 with `Retry-After`, 429, slow responses) and a revoked grant.
///
/// ```swift
/// let provider = try LocalProvider(clientID: "demo")
/// provider.outage = .unavailable(retryAfter: 2)
/// ```
package final class LocalProvider: Sendable {
    /// Simulated failures.
    package enum Outage: Sendable, Equatable {
        case none
        /// The port is closed: connections are refused.
        case connectionRefused
        /// 503 with `Retry-After`.
        case unavailable(retryAfter: Int)
        /// 429 with `Retry-After` on the API.
        case rateLimited(retryAfter: Int)
        /// Every response is delayed.
        case slow(milliseconds: Int)
    }

    struct Grant {
        var refreshToken: String
        var usedRefreshTokens: Set<String> = []
        var revoked = false
        let subject: String
        let scope: String
        /// The browser session the grant was signed in with (`sid`), and when the user authenticated.
        let sessionID: String
        let authTime: Date
        /// DPoP: the key the grant's tokens are bound to (refreshes must prove it too).
        var jkt: String?
    }

    struct PendingCode {
        let clientID: String
        let redirectURI: String
        let challenge: String
        let nonce: String?
        let scope: String
        let sessionID: String
        let subject: String
        let authTime: Date
        var used = false
        /// RFC 9449 §10: `dpop_jkt` from the authorization request; the exchange must prove this key.
        var dpopJKT: String?
        /// Whether the exchange returns a refresh token (Google's emulation: only with `access_type=offline`).
        var offline = true
        /// When the code was issued (it lives ``LocalProvider/codeLifetime``).
        var issuedAt = Date()
    }

    /// How long an authorization code can be exchanged.
    static let codeLifetime: TimeInterval = 60

    struct PushedRequest {
        let parameters: [String: String]
        let expires: Date
        var used = false
    }

    struct State {
        var codes: [String: PendingCode] = [:]
        var grants: [String: Grant] = [:]  // by grant id
        var refreshIndex: [String: String] = [:]  // refresh token → grant id
        var accessTokens: [String: (grant: String, expires: Date, jkt: String?)] = [:]
        var pushed: [String: PushedRequest] = [:]
        var requirePAR = false
        var requireDPoPNonce = false
        var dpopNonce = LocalProvider.secureToken()
        var apple: AppleClient?
        var outage: Outage = .none
        var counters: [String: Int] = [:]
        var accessTokenLifetime: TimeInterval = 300
        /// Signing keys, newest last; the JWKS publishes ``publishedKeys`` of them.
        var signingKeys: [(kid: String, key: ECPrivateKey)]
        var publishedKeys: Set<String>
        var quirks = IDTokenQuirks()
        var emulation = ProviderEmulation()
        var observations = Observations()
        /// The browser's session at this provider (its cookie): nil when signed out there.
        var browserSession: (id: String, subject: String, authenticatedAt: Date)?
        /// RFC 8628 device authorizations by device code.
        var devices: [String: DeviceGrant] = [:]
        /// The `interval` and `expires_in` device authorizations announce.
        var deviceInterval: TimeInterval = 5
        var deviceLifetime: TimeInterval = 600
    }

    /// One RFC 8628 device authorization: what the user decided, and when the device last polled.
    struct DeviceGrant {
        enum Decision { case pending, approved, denied }
        let userCode: String
        let scope: Set<String>
        let expires: Date
        var decision = Decision.pending
        var lastPoll: Date?
        var used = false
    }

    package let clientID: String
    /// The issuer this provider announces: ``base``, with the emulation's ``ProviderEmulation/issuerPath``
    /// (`/oauth2/default`, `/realms/demo`, `/{tenant}/v2.0`) and Auth0's trailing `/`
    /// (``ProviderEmulation/issuerTrailingSlash``).
    package var issuer: String {
        let emulation = stateBox.current.emulation
        return base + emulation.issuerPath + (emulation.issuerTrailingSlash ? "/" : "")
    }
    /// `http://127.0.0.1:<port>`: where the endpoints are.
    package let base: String
    package let port: UInt16
    let now: NowProvider
    let stateBox: Locked<State>
    private let server: Locked<LoopbackHTTPServer?>
    /// Holds the port while `.connectionRefused` keeps the server closed, so no other listener takes it.
    private let reservation = Locked<LoopbackPortReservation?>(nil)
    /// The client's registered redirect URIs (RFC 8252 loopback, plus any custom-scheme or https ones given).
    let redirectURIs: [RedirectURI]

    /// Starts the provider on an ephemeral loopback port. `redirectURIs` are registered for the client besides
    /// the loopback `http://127.0.0.1/callback` (any port), e.g. an app's `com.example.app:/oauth/callback`.
    package init(clientID: String = "warden-demo", redirectURIs: [String] = [], now: @escaping NowProvider = systemNow)
        throws
    {
        self.clientID = clientID
        self.redirectURIs = try (["http://127.0.0.1/callback"] + redirectURIs).map { try RedirectURI($0) }
        self.now = now
        let first = (kid: Base64URL.encode(try SecureRandom().bytes(count: 8)), key: try ECPrivateKey())
        stateBox = Locked(State(signingKeys: [first], publishedKeys: [first.kid]))
        let box = Locked<LocalProvider?>(nil)
        let listener = try LoopbackHTTPServer { request in
            box.current?.handle(request) ?? .text(503, "starting")
        }
        port = listener.port
        base = "http://127.0.0.1:\(listener.port)"
        server = Locked(listener)
        box.withLock { $0 = self }
    }

    deinit { server.current?.stop() }

    /// Stops serving.
    package func stop() {
        server.withLock {
            $0?.stop()
            $0 = nil
        }
    }

    /// The current simulated outage. `.connectionRefused` closes the port; setting anything else reopens it.
    package var outage: Outage {
        get { stateBox.current.outage }
        set {
            stateBox.withLock { $0.outage = newValue }
            if newValue == .connectionRefused {
                server.withLock {
                    guard let running = $0 else { return }
                    running.stop()
                    $0 = nil
                    reservation.withLock { $0 = LoopbackPortReservation(port: port) }
                }
            } else if server.current == nil {
                let box = Locked<LocalProvider?>(self)
                reservation.withLock { $0 = nil }  // the port back for the server
                server.withLock {
                    $0 = try? LoopbackHTTPServer(port: port) { request in box.current?.handle(request) ?? .text(503, "")
                    }
                }
            }
        }
    }

    /// Lifetime of new access tokens (seconds).
    package var accessTokenLifetime: TimeInterval {
        get { stateBox.current.accessTokenLifetime }
        set { stateBox.withLock { $0.accessTokenLifetime = newValue } }
    }

    /// How many requests each endpoint answered (`token.refresh_token`, `token.authorization_code`, `api`, ...).
    package func count(_ name: String) -> Int { stateBox.current.counters[name] ?? 0 }

    /// RFC 9126: refuse authorization requests that were not pushed (discovery says so).
    package var requirePushedAuthorizationRequests: Bool {
        get { stateBox.current.requirePAR }
        set { stateBox.withLock { $0.requirePAR = newValue } }
    }

    /// RFC 9449 §8: token requests must carry the provider's current `DPoP-Nonce` (a challenge first).
    package var requireDPoPNonce: Bool {
        get { stateBox.current.requireDPoPNonce }
        set { stateBox.withLock { $0.requireDPoPNonce = newValue } }
    }

    /// Rotates the DPoP nonce (the next proof with the old one gets a `use_dpop_nonce` challenge).
    package func rotateDPoPNonce() { stateBox.withLock { $0.dpopNonce = Self.secureToken() } }

    /// Proofs seen by the token endpoint and the API (jti replay detection).
    let replayCache = InMemoryDPoPReplayCache()

    /// Revokes every grant (as an administrator or the user would at the provider).
    package func revokeAllGrants() {
        stateBox.withLock { for key in $0.grants.keys { $0.grants[key]!.revoked = true } }
    }

    /// Expires every access token now (the demo's "expired token" setup).
    package func expireAccessTokens() {
        stateBox.withLock { state in
            for key in state.accessTokens.keys { state.accessTokens[key]!.expires = .distantPast }
        }
    }

    /// `,"scopes_supported":[...]` when the emulation announces scopes.
    var scopesSupportedMember: String {
        guard let scopes = stateBox.current.emulation.scopesSupported else { return "" }
        return #","scopes_supported":["# + scopes.map { #""\#($0)""# }.joined(separator: ",") + "]"
    }

    /// How this provider departs from the defaults, to behave like a real provider (set before clients discover it).
    package var emulation: ProviderEmulation {
        get { stateBox.current.emulation }
        set { stateBox.withLock { $0.emulation = newValue } }
    }

    /// The discovery document, announcing ``issuer``.
    package var metadataJSON: String { metadataJSON(announcing: issuer) }

    /// Entra's multi-tenant discovery document (`/common/v2.0`, `/organizations/v2.0`, `/consumers/v2.0`): the
    /// `{tenantid}` template as its issuer, nil unless the emulation has a ``ProviderEmulation/tenant``.
    package var multiTenantMetadataJSON: String? {
        guard stateBox.current.emulation.tenant != nil else { return nil }
        return metadataJSON(announcing: base + "/{tenantid}/v2.0")
    }

    func metadataJSON(announcing issuer: String) -> String {
        let emulation = stateBox.current.emulation
        let revocation = emulation.announcesRevocation ? #","revocation_endpoint":"\#(base)/revoke""# : ""
        let endSession = emulation.announcesEndSession ? #","end_session_endpoint":"\#(base)/logout""# : ""
        let par =
            emulation.announcesPAR
            ? #","pushed_authorization_request_endpoint":"\#(base)/par","require_pushed_authorization_requests":\#(stateBox.current.requirePAR)"#
            : ""
        let dpop = emulation.announcesDPoP ? #","dpop_signing_alg_values_supported":["ES256"]"# : ""
        return
            #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(base)/authorize","token_endpoint":"\#(base)/token","device_authorization_endpoint":"\#(base)/device_authorization"\#(revocation)\#(endSession),"userinfo_endpoint":"\#(base)/userinfo","jwks_uri":"\#(base)/jwks","response_types_supported":["code"],"grant_types_supported":["authorization_code","refresh_token"],"code_challenge_methods_supported":["S256"],"id_token_signing_alg_values_supported":["ES256"],"subject_types_supported":["public"],"authorization_response_iss_parameter_supported":true,"token_endpoint_auth_methods_supported":["none"]\#(par)\#(dpop)\#(scopesSupportedMember)}"#
    }

    func bump(_ name: String) { stateBox.withLock { $0.counters[name, default: 0] += 1 } }

    func jwksResponse() -> HTTPResponse {
        bump("jwks")
        let state = stateBox.current
        let keys = state.signingKeys.filter { state.publishedKeys.contains($0.kid) }.compactMap {
            (try? JWK(publicKey: $0.key.publicKey, keyID: $0.kid, algorithm: .es256))?.publicJSON
        }
        return .json(200, #"{"keys":[\#(keys.joined(separator: ","))]}"#, headers: ["Cache-Control": "max-age=600"])
    }

    /// Every response carries the provider's clock in `Date` (RFC 9110 §6.6.1), read through its `now`.
    func handle(_ request: LoopbackRequest) -> HTTPResponse {
        var response = route(request)
        response.headers["Date"] = HTTPDate.format(now())
        return response
    }

    func route(_ request: LoopbackRequest) -> HTTPResponse {
        switch stateBox.current.outage {
        case .unavailable(let seconds):
            bump("unavailable")
            return .json(503, #"{"error":"temporarily_unavailable"}"#, headers: ["Retry-After": "\(seconds)"])
        case .slow(let milliseconds): Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
        default: break
        }
        if request.path.hasPrefix("/auth/"), let response = appleEndpoint(request) { return response }
        switch (request.method, request.path) {
        case ("GET", "/.well-known/openid-configuration"),
            ("GET", stateBox.current.emulation.issuerPath + "/.well-known/openid-configuration"):
            return .json(200, metadataJSON)
        case ("GET", "/common/v2.0/.well-known/openid-configuration"),
            ("GET", "/organizations/v2.0/.well-known/openid-configuration"),
            ("GET", "/consumers/v2.0/.well-known/openid-configuration"):
            return multiTenantMetadataJSON.map { .json(200, $0) } ?? .text(404, "not found")
        case ("GET", "/jwks"): return jwksResponse()
        case ("GET", "/authorize"): return authorize(request)
        case ("POST", "/token"): return token(request)
        case ("POST", "/par"): return pushAuthorization(request)
        case ("POST", "/device_authorization"): return deviceAuthorization(request)
        case ("POST", "/revoke"): return revoke(request)
        case ("GET", "/logout"): return endSession(request)
        case ("GET", "/userinfo"), ("GET", "/api/resource"), ("POST", "/api/resource"), ("GET", "/api/large"),
            ("GET", "/api/moved"):
            return api(request)
        case ("GET", "/api/echo-authorization"):
            // What a server the app did not mean to send its token to would see.
            return .json(200, #"{"authorization":\#(request.header("Authorization") == nil ? "false" : "true")}"#)
        default: return .text(404, "not found")
        }
    }
}

/// How a ``LocalProvider`` departs from the defaults, to behave like a real provider in tests.
///
/// ```swift
/// provider.emulation = .auth0      // issuer with a trailing slash
/// provider.emulation = .google     // scopes_supported without offline_access; refresh tokens need access_type=offline
/// provider.emulation = .okta       // issuer …/oauth2/default; refresh tokens need offline_access
/// provider.emulation = .keycloak   // issuer …/realms/demo; refresh tokens without offline_access
/// provider.emulation = .entra(tenant: "9188040d-6c67-4c5b-b112-36a304b66dad")  // …/{tenant}/v2.0, tid, common
/// ```
package struct ProviderEmulation: Sendable, Equatable {
    /// Announce the issuer with a trailing slash, in the metadata, `iss` parameters and ID tokens (Auth0).
    package var issuerTrailingSlash = false
    /// The issuer's path after ``LocalProvider/base`` (`/oauth2/default` for an Okta custom authorization server,
    /// `/realms/{realm}` for Keycloak, `/{tenant}/v2.0` for Entra); discovery is served under it too.
    package var issuerPath = ""
    /// Announce `scopes_supported` and answer a request for any other scope with `invalid_scope` (Google announces
    /// `openid email profile` and refuses `offline_access`). Nil: not announced, every scope accepted.
    package var scopesSupported: [String]?
    /// Return a refresh token only when the authorization request carried `access_type=offline` (Google).
    package var refreshTokensNeedAccessTypeOffline = false
    /// Return a refresh token only when `offline_access` was granted (Okta, Entra).
    package var refreshTokensNeedOfflineAccess = false
    /// Entra: the user's tenant (a GUID). ID tokens carry it as `tid`, and the multi-tenant discovery documents
    /// (`/common/v2.0`, `/organizations/v2.0`, `/consumers/v2.0`) announce the `{tenantid}` template issuer.
    package var tenant: String?
    /// Announce `revocation_endpoint` (RFC 7009); Entra has none.
    package var announcesRevocation = true
    /// Announce `end_session_endpoint` (RP-Initiated Logout); Google has none, Auth0 only when the tenant enables
    /// "RP-Initiated Logout End Session Endpoint Discovery" (on by default for tenants created since 2023-11-14).
    package var announcesEndSession = true
    /// Announce `pushed_authorization_request_endpoint` (RFC 9126); Google and Entra have none, Auth0 only with the
    /// Highly Regulated Identity add-on and the tenant's "Allow Pushed Authorization Requests" switch.
    package var announcesPAR = true
    /// Announce `dpop_signing_alg_values_supported` (RFC 9449); Google and Entra have none, Auth0's DPoP is Early
    /// Access (off unless granted).
    package var announcesDPoP = true

    package init(
        issuerTrailingSlash: Bool = false, issuerPath: String = "", scopesSupported: [String]? = nil,
        refreshTokensNeedAccessTypeOffline: Bool = false, refreshTokensNeedOfflineAccess: Bool = false,
        tenant: String? = nil, announcesRevocation: Bool = true, announcesEndSession: Bool = true,
        announcesPAR: Bool = true, announcesDPoP: Bool = true
    ) {
        self.announcesRevocation = announcesRevocation
        self.announcesEndSession = announcesEndSession
        self.announcesPAR = announcesPAR
        self.announcesDPoP = announcesDPoP
        self.issuerTrailingSlash = issuerTrailingSlash
        self.issuerPath = issuerPath
        self.scopesSupported = scopesSupported
        self.refreshTokensNeedAccessTypeOffline = refreshTokensNeedAccessTypeOffline
        self.refreshTokensNeedOfflineAccess = refreshTokensNeedOfflineAccess
        self.tenant = tenant
    }

    /// Auth0: `https://{domain}/`; logout announced (a tenant created since 2023-11-14, or one that switched endpoint
    /// discovery on), no PAR (an add-on) and no DPoP (Early Access).
    package static let auth0 = ProviderEmulation(issuerTrailingSlash: true, announcesPAR: false, announcesDPoP: false)
    /// Auth0 on an older tenant that never switched on "RP-Initiated Logout End Session Endpoint Discovery".
    package static let auth0WithoutLogoutDiscovery = ProviderEmulation(
        issuerTrailingSlash: true, announcesEndSession: false, announcesPAR: false, announcesDPoP: false)
    /// Google (`accounts.google.com`'s discovery document): no `offline_access` — `access_type=offline` for a refresh
    /// token —, a revocation endpoint, and no logout, PAR or DPoP.
    package static let google = ProviderEmulation(
        scopesSupported: ["openid", "email", "profile"], refreshTokensNeedAccessTypeOffline: true,
        announcesEndSession: false, announcesPAR: false, announcesDPoP: false)
    /// Okta's default custom authorization server: `…/oauth2/default`; a refresh token only for `offline_access`.
    package static let okta = ProviderEmulation(
        issuerPath: "/oauth2/default",
        scopesSupported: ["openid", "profile", "email", "address", "phone", "offline_access"],
        refreshTokensNeedOfflineAccess: true)
    /// Keycloak's realm `demo`: `…/realms/demo`; refresh tokens for every sign-in.
    package static let keycloak = ProviderEmulation(
        issuerPath: "/realms/demo",
        scopesSupported: ["openid", "profile", "email", "roles", "web-origins", "offline_access"])

    /// Microsoft Entra ID v2.0 for a user of `tenant`: issuer `…/{tenant}/v2.0`, `tid` in ID tokens, the `{tenantid}`
    /// template on the multi-tenant discovery documents, a refresh token only for `offline_access`.
    package static func entra(tenant: String) -> ProviderEmulation {
        ProviderEmulation(
            issuerPath: "/\(tenant)/v2.0", scopesSupported: ["openid", "profile", "email", "offline_access"],
            refreshTokensNeedOfflineAccess: true, tenant: tenant, announcesRevocation: false, announcesPAR: false,
            announcesDPoP: false)
    }
}
