import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
@_spi(Fuzzing) import WardenOAuth

/// How the provider's ID tokens misbehave (each switch is one way real providers, or attackers between them and
/// the app, get it wrong), its signing keys, the browser session it keeps, and what it observed.
extension LocalProvider {
    /// Deviations of the provider's ID tokens, for tests of the client's refusals.
    package struct IDTokenQuirks: Sendable, Equatable {
        /// ID tokens without `sub`.
        package var omitSubject = false
        /// Audiences added to `aud` besides the client (with `azp` naming the client).
        package var extraAudiences: [String] = []
        /// Whether a refresh returns a new ID token (most providers do, OIDC Core §12.2).
        package var refreshIDTokens = true
        /// Refreshed ID tokens name this subject instead of the grant's.
        package var refreshSubject: String?
        /// Refreshed ID tokens are signed by a key that is not in the JWKS, under the current `kid`.
        package var refreshSignedByAnotherKey = false
        /// Seconds added to a refreshed ID token's `auth_time` (negative moves it back).
        package var refreshAuthTimeShift: TimeInterval = 0
        /// Keep a browser session older than a requested `max_age` instead of re-authenticating.
        package var ignoreMaxAge = false
        /// The `acr` ID tokens carry.
        package var acr: String?
        /// Seconds from `iat` to `exp`.
        package var lifetime = 600
        /// The `tid` ID tokens carry instead of the emulation's ``ProviderEmulation/tenant`` (a token whose `iss`
        /// names another tenant).
        package var tenantClaim: String?
        /// ID tokens without `tid`.
        package var omitTenantClaim = false
        /// The `iss` ID tokens carry instead of ``LocalProvider/issuer`` (a token from another issuer than the
        /// authorization response named).
        package var issuer: String?
        /// The `sub` the UserInfo endpoint answers with instead of the grant's (a response about another user).
        package var userInfoSubject: String?
        /// The UserInfo endpoint answers with exactly this status, `Content-Type` and body instead of its own.
        package var userInfoResponse: ScriptedResponse?

        package init() {}
    }

    /// A response a test scripts for one endpoint.
    package struct ScriptedResponse: Sendable, Equatable {
        package var status: Int
        package var contentType: String
        package var body: String
        package init(status: Int, contentType: String = "application/json", body: String) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    /// What the provider saw and did in the last sign-in and logout, for tests and the demo's evidence: the
    /// client's claims about the protocol are checked against these, not restated.
    package struct Observations: Sendable, Equatable {
        /// The non-secret parameters of the last authorization request (`state`, `nonce` and the challenge
        /// values are left out): `prompt`, `max_age`, `login_hint`, `audience`, `resource`, `scope`, ...
        package var authorizationParameters: [String: String] = [:]
        /// Whether that request came through PAR (RFC 9126).
        package var pushed = false
        /// The PKCE method it named.
        package var codeChallengeMethod: String?
        /// How many bytes of entropy its `state` had (base64url-decoded length).
        package var stateBytes: Int?
        /// The RFC 9207 `iss` the provider sent back with the code.
        package var issuerSent: String?
        /// Whether the provider embedded the request's `nonce` in an ID token it minted for the code exchange.
        package var nonceEmbedded = false
        /// Whether the user authenticated anew (no browser session, `prompt=login`, `max_age` passed).
        package var freshAuthentication = false
        /// Whether the last code exchange's `code_verifier` matched the challenge (S256).
        package var verifierMatched: Bool?
        /// The extra parameters of the last token request (`resource`, `audience`, ...).
        package var tokenParameters: [String: String] = [:]
        /// The last RP-initiated logout.
        package var logout: Logout?

        /// What the end-session endpoint received and did.
        package struct Logout: Sendable, Equatable {
            /// `id_token_hint` was an ID token this provider signed for the client.
            package var idTokenHintValid: Bool
            /// The `post_logout_redirect_uri` it sent the browser to (nil when none was registered or given).
            package var redirectedTo: String?
            /// Whether `state` was returned.
            package var stateReturned: Bool
            /// Whether the browser session was ended.
            package var browserSessionEnded: Bool
        }
    }

    /// The ID-token deviations in effect.
    package var idTokenQuirks: IDTokenQuirks {
        get { stateBox.current.quirks }
        set { stateBox.withLock { $0.quirks = newValue } }
    }

    /// What the provider observed so far.
    package var observations: Observations { stateBox.current.observations }

    /// Whether the browser (the provider's only user agent here) still has a session cookie at the provider.
    package var browserSessionActive: Bool { stateBox.current.browserSession != nil }

    /// Moves the browser session's authentication `seconds` into the past (for `max_age`).
    package func ageBrowserSession(by seconds: TimeInterval) {
        stateBox.withLock { state in
            state.browserSession = state.browserSession.map { ($0.id, $0.subject, $0.authenticatedAt - seconds) }
        }
    }

    /// Rotates the signing key: a new key with a new `kid` signs from now on and is published; the old one stays
    /// published unless `retireOld`.
    package func rotateSigningKey(retireOld: Bool = false) throws {
        let next = (kid: Base64URL.encode(try SecureRandom().bytes(count: 8)), key: try ECPrivateKey())
        stateBox.withLock { state in
            if retireOld { state.publishedKeys = [] }
            state.signingKeys.append(next)
            state.publishedKeys.insert(next.kid)
        }
    }

    /// Withdraws every key from the JWKS while the provider keeps signing with the current one (a key that was
    /// never published, as after a botched rotation).
    package func unpublishSigningKeys() { stateBox.withLock { $0.publishedKeys = [] } }

    var signingKey: ECPrivateKey { stateBox.current.signingKeys.last!.key }
    /// The `kid` of the key that signs now.
    package var keyID: String { stateBox.current.signingKeys.last!.kid }

    /// The user's authentication for an authorization request: the browser session when it may be reused,
    /// otherwise a fresh one (as `login_hint`, or `demo-user-1`).
    func authenticate(_ parameters: [String: String]) -> (
        sessionID: String, subject: String, authTime: Date, fresh: Bool
    )? {
        let prompts = Set((parameters["prompt"] ?? "").split(separator: " ").map(String.init))
        let maxAge = parameters["max_age"].flatMap(TimeInterval.init)
        return stateBox.withLock { state in
            if let session = state.browserSession, !prompts.contains("login") {
                let tooOld = maxAge.map { now().timeIntervalSince(session.authenticatedAt) > $0 } ?? false
                if !tooOld || state.quirks.ignoreMaxAge {
                    return (session.id, session.subject, session.authenticatedAt, false)
                }
            }
            if prompts.contains("none") { return nil }  // login_required
            let subject = parameters["login_hint"].flatMap { $0.isEmpty ? nil : $0 } ?? "demo-user-1"
            let session = (id: Self.secureToken(), subject: subject, authenticatedAt: now())
            state.browserSession = session
            return (session.id, subject, session.authenticatedAt, true)
        }
    }

    /// Records the non-secret parameters of an authorization request.
    func observeAuthorization(_ parameters: [String: String], pushed: Bool, fresh: Bool, issuerSent: String) {
        let secret: Set<String> = ["state", "nonce", "code_challenge", "request_uri"]
        stateBox.withLock { state in
            var seen = Observations()
            seen.authorizationParameters = parameters.filter { !secret.contains($0.key) }
            seen.pushed = pushed
            seen.codeChallengeMethod = parameters["code_challenge_method"]
            seen.stateBytes = parameters["state"].flatMap { try? Base64URL.decode($0).count }
            seen.issuerSent = issuerSent
            seen.freshAuthentication = fresh
            seen.logout = state.observations.logout
            state.observations = seen
        }
    }

    func observeToken(verifierMatched: Bool?, form: [String: String]) {
        let own: Set<String> = [
            "grant_type", "code", "redirect_uri", "code_verifier", "refresh_token", "client_id", "scope",
        ]
        stateBox.withLock { state in
            if let verifierMatched { state.observations.verifierMatched = verifierMatched }
            state.observations.tokenParameters = form.filter { !own.contains($0.key) }
        }
    }

    /// An ID token for `grant` (OIDC Core §2), with the quirks in effect; `refresh` for a refresh response.
    func idToken(
        subject: String, nonce: String?, accessToken: String, sessionID: String, authTime: Date, refresh: Bool
    ) throws -> String {
        let quirks = stateBox.current.quirks
        let t = Int(now().timeIntervalSince1970)
        var claims: [String] = [#""iss":"\#(quirks.issuer ?? issuer)""#]
        if !quirks.omitSubject { claims.append(#""sub":"\#(refresh ? quirks.refreshSubject ?? subject : subject)""#) }
        if quirks.extraAudiences.isEmpty {
            claims.append(#""aud":"\#(clientID)""#)
        } else {
            let audiences = ([clientID] + quirks.extraAudiences).map { #""\#($0)""# }.joined(separator: ",")
            claims.append(#""aud":[\#(audiences)],"azp":"\#(clientID)""#)
        }
        let shift = refresh ? quirks.refreshAuthTimeShift : 0
        claims += [
            #""iat":\#(t)"#, #""exp":\#(t + quirks.lifetime)"#,
            #""auth_time":\#(Int(authTime.timeIntervalSince1970 + shift))"#,
            #""sid":"\#(sessionID)""#, #""at_hash":"\#(IDTokenVerifier.halfHash(accessToken, .es256))""#,
        ]
        if let nonce {
            claims.append(#""nonce":"\#(nonce)""#)
            if !refresh { stateBox.withLock { $0.observations.nonceEmbedded = true } }
        }
        if let acr = quirks.acr { claims.append(#""acr":"\#(acr)""#) }
        if !quirks.omitTenantClaim, let tid = quirks.tenantClaim ?? stateBox.current.emulation.tenant {
            claims.append(#""tid":"\#(tid)""#)
        }
        let input =
            Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyID)","typ":"JWT"}"#.utf8)) + "."
            + Base64URL.encode(Array("{\(claims.joined(separator: ","))}".utf8))
        let key = refresh && quirks.refreshSignedByAnotherKey ? try ECPrivateKey() : signingKey
        return input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)))
    }

    /// OpenID Connect RP-Initiated Logout 1.0 §2–3: verifies `id_token_hint` (signed here for this client; it may
    /// have expired), ends the browser session, and redirects to a registered `post_logout_redirect_uri` with
    /// `state` — or, without one, shows a signed-out page.
    func endSession(_ request: LoopbackRequest) -> HTTPResponse {
        bump("end_session")
        let parameters = Self.form(request.query)
        var hintValid = false
        if let hint = parameters["id_token_hint"] {
            let state = stateBox.current
            let keys = state.signingKeys.filter { state.publishedKeys.contains($0.kid) }.compactMap {
                try? JWK(publicKey: $0.key.publicKey, keyID: $0.kid, algorithm: .es256)
            }
            if let set = try? JWKSet(keys: keys),
                let verified = try? JWSVerifier(keys: set, allowedAlgorithms: [.es256]).verify(hint),
                let object = try? JSONReader().parseObject(verified.payload)
            {
                let claims = JWTClaims(object: object)
                hintValid = (try? claims.issuer) == issuer && ((try? claims.audience) ?? []).contains(clientID)
            }
        }
        let clientOK = hintValid || parameters["client_id"] == clientID
        var redirect: String?
        if let target = parameters["post_logout_redirect_uri"], clientOK,
            postLogoutRedirectURIs.contains(where: { $0.matches(target) })
        {
            redirect = target
        }
        let state = parameters["state"]
        stateBox.withLock { box in
            box.browserSession = nil
            box.observations.logout = Observations.Logout(
                idTokenHintValid: hintValid, redirectedTo: redirect, stateReturned: redirect != nil && state != nil,
                browserSessionEnded: true)
        }
        guard let redirect else { return .text(200, "You are signed out.") }
        let query = state.map { "?" + FormEncoding.encode([("state", $0)]) } ?? ""
        return HTTPResponse(status: 302, headers: ["Location": redirect + query, "Cache-Control": "no-store"])
    }

    /// Where a logout may send the browser: `http://127.0.0.1/logged-out` (any port) and the client's redirect
    /// URIs.
    var postLogoutRedirectURIs: [RedirectURI] {
        ((try? RedirectURI("http://127.0.0.1/logged-out")).map { [$0] } ?? []) + redirectURIs
    }
}
