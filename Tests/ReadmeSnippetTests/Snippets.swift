// The README's Swift examples, verbatim (import lines aside), each in a function whose parameters stand for the
// values the example assumes. ReadmeSnippetTests checks that every ```swift block of README.md is here (or in
// Apple/AppleSnippets.swift), so an example that stops compiling or drifts from the README fails the build or the
// test. Warnings (unused values) are suppressed for this target only: examples bind values to show them.
import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenOAuth
import WardenPasskeys
import WardenSession
import WardenStorage
import WardenTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Stand-ins for an app's own values in the examples.
struct Field { var text: String? }
struct WebSession { var id = "session-1" }
struct User {
    var handle: [UInt8] = [1, 2, 3]
    var email = "alice@example.com"
    var passkeys: [CredentialRecord] = []
}
func updateUI(_ state: SessionState, canMutate: Bool) {}
func showSignIn() {}
func showNotice(_ text: String) {}
func showRetry(at date: Date) {}
func respond(json: String) {}
func save(_ record: CredentialRecord) {}
func load(credentialID: [UInt8]) throws -> CredentialRecord { throw PasskeyError(.malformed) }
func credentials(of name: String) -> [CredentialRecord]? { nil }
func credential(id: [UInt8]) -> CredentialRecord? { nil }

enum ReadmeSnippets {
    static func crypto(message: [UInt8], key: [UInt8], receivedTag: [UInt8], x: [UInt8], y: [UInt8], signature: [UInt8], n: [UInt8], e: [UInt8], sig: [UInt8], msg: [UInt8], pemText: String) async throws {
        let digest = HashFunction.sha256.hash(Array("abc".utf8))
        let tag = HMAC.authenticationCode(for: message, key: key, hash: .sha256)
        let same = ConstantTime.equals(receivedTag, tag)            // never == for secrets
        let bytes = try SecureRandom().bytes(count: 32)              // throws instead of returning zeros

        // Keys validate on construction: points on the curve, RSA ≥ 2048 bits with a sane exponent.
        let key = try PublicKey(curve: .p256, x: x, y: y)
        let ok = try key.isValidSignature(signature, for: message, algorithm: .ecdsa(.sha256))   // raw r||s
        let pss = try PublicKey(rsaModulus: n, exponent: e).isValidSignature(sig, for: msg, algorithm: .rsaPSS(.sha256))

        let signer = try RSAPrivateKey(pem: pemText)                 // OAuth 1.0a RSA methods
        let ec = try ECPrivateKey()                                  // P-256, raw r||s signatures (DPoP, tests)
    }

    static func customClaimPolicy(jwks: JWKSet) throws {
        struct TenantPolicy: ClaimPolicy {
            func check(_ context: ClaimContext) throws(JOSEError) {
                guard try context.claims.string("tid") == "9188040d-6c67-4c5b-b112-36a304b66dad" else {
                    throw JOSEError(.invalidClaim, "the token is from another tenant")
                }
            }
        }
        let tenantVerifier = JWTVerifier(keys: jwks, allowedAlgorithms: [.rs256], policy: AllOf { ExpirationPolicy(); TenantPolicy() })
        // Its own unit test, without a signed token:
        let reader = JSONReader()
        try TenantPolicy().check(ClaimContext(
            header: try JOSEHeader(object: reader.parseObject(Array(#"{"alg":"RS256"}"#.utf8))),
            claims: JWTClaims(object: try reader.parseObject(Array(#"{"tid":"9188040d-6c67-4c5b-b112-36a304b66dad"}"#.utf8))),
            now: Date()))
    }

    static func certificatePins(pemOrDER: Data) async throws {
        let pins = try CertificatePin.pins(fromCertificates: Array(pemOrDER))
    }

    static func tokens(jwksText: String, token: String, issuer: String, idToken: String, pending: PendingAuthorization, accessToken: String, jwksURI: URL, newIDToken: String, newAccessToken: String) async throws {
        let jwks = try JWKSet(json: jwksText)      // invalid keys are skipped and reported in jwks.skipped
        let verifier = JWTVerifier(
            keys: jwks, allowedAlgorithms: [.rs256, .es256],
            policy: AllOf {
                ExpirationPolicy()                 // exp required, 60 s leeway (0–300)
                IssuedAtPolicy(maximumAge: 600)    // iat never in the future, no leeway
                IssuerPolicy("https://id.example.com")
                AudiencePolicy("my-api")
                TypePolicy("at+jwt")               // RFC 9068 access tokens
            })
        let jwt = try verifier.verify(token)
        let subject = try jwt.claims.subject

        // OpenID Connect ID token (Core §3.1.3.7): signature, iss, sub (required), aud (the client plus trusted audiences
        // only) and azp, exp, iat, nonce, at_hash, c_hash, max_age/auth_time, acr_values/acr.
        let claims = try IDTokenVerifier(issuer: issuer, clientID: "app", keys: jwks, trustedAudiences: ["https://api.example.com"])
            .verify(idToken, nonce: pending.nonce?.unredacted(), accessToken: accessToken)
        // An ID token from a refresh (Core §12.2): the same checks, plus sub/aud/azp equal to the sign-in's and auth_time
        // never earlier.
        let refreshed = try IDTokenVerifier(issuer: issuer, clientID: "app", keys: jwks)
            .verifyRefreshed(newIDToken, original: claims, accessToken: newAccessToken)

        // A provider's JWKS, cached (Cache-Control bounded). A token with an unknown kid (a key rotation) refetches the
        // set once and retries, then fails closed; at most one such refetch a minute, so forged kids cannot flood the
        // provider. Servers verifying many tokens share one cache.
        let cache = JWKSCache(url: jwksURI, transport: URLSessionTransport())
        let verified = try await cache.verify(token) { keys throws(JOSEError) -> JWTClaims in
            try IDTokenVerifier(issuer: issuer, clientID: "app", keys: keys).verify(token, nonce: nil)
        }
    }

    static func authClient(store: any CredentialStore) async throws {
        let client = AuthClient(.init(
            issuer: "https://id.example.com", clientID: "my-app",
            redirectURI: try RedirectURI("http://127.0.0.1/callback"),     // com.example.app:/oauth/callback on iOS
            store: store, service: "com.example.app.tokens"))
        let signIn = try await client.signIn(with: LoopbackBrowser())     // WebAuthenticationAgent { window } on iOS
        let subject = try signIn.claims?.subject
        let token = try await signIn.session.validAccessToken()
        let api = client.authorizedClient(for: signIn.session)
        let restored = try await client.restoreSession()                 // next launch; nil when signed out
        await signIn.session.signOut()
    }

    static func openIDProviders(store: any CredentialStore, browser: any AuthorizationBrowser) async throws {
        var configuration = AuthClient.Configuration(
            issuer: "https://example.eu.auth0.com/", clientID: "my-app",
            redirectURI: try RedirectURI("com.example.app:/oauth/callback"), store: store, service: "com.example.app.tokens")
        configuration.authorizationParameters.audience = "https://api.example.com"   // Auth0: an access token for the API
        configuration.authorizationParameters.uiLocales = ["de-CH", "en"]
        configuration.tokenParameters = [("resource", "https://api.example.com")]   // RFC 8707, exchange and refresh
        configuration.trustedAudiences = ["https://api.example.com"]              // an aud the ID token may also name
        configuration.postLogoutRedirectURI = try RedirectURI("com.example.app:/logged-out")
        let client = AuthClient(configuration)

        var stepUp = AuthorizationParameters()
        stepUp.maxAge = 300                                   // the ID token's auth_time must be at most 5 minutes old
        stepUp.acrValues = ["urn:example:mfa"]                // a returned acr must be one of these
        let signIn = try await client.signIn(with: browser, parameters: stepUp)

        do { _ = try await signIn.session.validAccessToken() } catch {
            if error.code == .idTokenRejected { showSignIn() }  // a refresh returned another user's ID token: nothing was stored
        }
    }

    static func signInPieces(callbackURL: URL) async throws {
        let metadata = try await ProviderMetadata.discover(issuer: "https://id.example.com", transport: URLSessionTransport())
        let (url, pending) = try await AuthorizationRequest(
            metadata: metadata, clientID: "app", redirectURI: try RedirectURI("com.example.app:/oauth/callback"),
            scopes: ["openid", "offline_access"]
        ).prepare()
        // the browser opens `url` and returns to the redirect URI, then:
        let code = try pending.validate(callbackURL.absoluteString)
        let tokens = try await TokenClient(metadata: metadata, clientID: "app", transport: URLSessionTransport()).exchange(code)
    }

    static func oauth1() async throws {
        let signer = OAuth1Signer(consumerKey: "key", method: .hmacSHA1(consumerSecret: "secret"),
                                  token: "token", tokenSecret: "token-secret")
        var request = URLRequest(url: URL(string: "https://api.example.com/1.1/statuses/home_timeline.json?count=5")!)
        try signer.sign(&request)      // sets Authorization: OAuth ...
    }

    static func storage() async throws {
        let store = try PlatformStore.make()  // KeychainStore() on Apple platforms, SecretServiceStore() on Linux
        try await InstallSentinel(appID: "com.example.app", appGroup: "group.com.example.app")
            .purgeIfFirstLaunch(store: store, services: ["com.example.app.tokens"])
    }

    static func dataAtRest() async throws {
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        let drafts = try SealedStore(
            directory: support.appendingPathComponent("Drafts"), keyStore: PlatformStore.make(),
            keyService: "com.example.app.drafts")
        try await drafts.write(Data("Dear…".utf8), named: "draft-1")
        let draft = try await drafts.read(named: "draft-1")  // nil when there is none
        try await drafts.removeAll()  // at sign-out: every file and the key
    }

    static func dataAtRestPrimitives(theirs: X25519PublicKey, salt: [UInt8]) async throws {
        let key = try AEADKey.generate(.chaCha20Poly1305)
        let box = try key.seal(Array("draft".utf8), authenticating: Array("drafts/1".utf8))
        let opened = try key.open(box, authenticating: Array("drafts/1".utf8))
        let mine = try X25519PrivateKey()
        let secret = try mine.sharedSecret(with: theirs)
        let wrappingKey = try HKDF.deriveKey(from: secret, salt: salt, info: Array("my protocol v1".utf8), byteCount: 32)
    }

    static func ownNetworking(session: AuthSession) async throws {
        let me = URLRequest(url: URL(string: "https://api.example.com/me")!)
        let (data, response) = try await URLSession.shared.data(for: me, authorizedBy: session)
        let authorized = try await session.authorize(me)   // for another HTTP stack: send this request
    }

    static func sessions(configuration: AuthClient.Configuration) async throws {
        let client = AuthClient(configuration)
        guard let session = try await client.restoreSession() else { return showSignIn() }  // reads the store, no network
        let api = client.authorizedClient(for: session)
        let response = try await api.send(HTTPRequest(url: URL(string: "https://api.example.com/me")!))

        Task { for await state in session.states { updateUI(state, canMutate: state.canMutate) } }
        await session.networkBecameAvailable()   // NetworkPathObserver calls this on Apple platforms
        let report = await session.signOut()     // SignOutReport: deleted locally at once; revoked / failed (retried) / no endpoint
    }

    static func signOutReport(session: AuthSession) async {
        let report = await session.signOut()
        if case .failed(_, willRetry: true) = report.revocation {
            showNotice("Signed out on this device. The sign-out at the provider will be retried when you're online.")
        }
    }

    static func failureSemantics(api: AuthorizedClient, request: HTTPRequest) async throws {
        do {
            _ = try await api.send(request)
        } catch let error as SessionError where error.code == .rateLimited {
            print("try again at", error.retryAt!)
        }
    }

    static func rateLimits(api: AuthorizedClient, request: HTTPRequest) async throws {
        do { _ = try await api.send(request) } catch let error as SessionError where error.code == .rateLimited {
            showRetry(at: error.retryAt!)
        }
    }

    static func inputAndDiagnostics(field: Field) async throws {
        let username = try InputPolicy.username.validate(field.text ?? "")        // NFKC, bounds, no controls/bidi
        let code = try InputPolicy.oneTimeCode(length: 6).validate("１２３４５６")   // "123456"
        let safe = Redactor.standard.redact("GET /cb?code=SplxlOBeZQQYbYS6WxSbIA&state=af0")  // code=<redacted …SbIA>&state=<redacted>
        WardenLog.configure(sink: StderrLogSink(), minimumLevel: .info)            // or OSLogSink, or your own LogSink
    }

    static func oneErrorShape(session: AuthSession) async {
        do { _ = try await session.validAccessToken() } catch let error as any WardenError {
            print(error)              // "<code>: <reason> (<Module>/<File>.swift:<line>)"
            if error.failureKind == .transient { /* keep the session, retry later */ }
        }
    }

    static func deviceFlow(client: AuthClient) async throws {
let signIn = try await client.signInOnDevice { authorization in
    print("Open \(authorization.verificationURI) and enter \(authorization.userCode)")   // or a QR code of
}                                                                                         // verificationURIComplete
        _ = signIn
    }

    static func accountPrivacy(
        serverSecret: [UInt8], rp: RelyingParty, challenge: PasskeyChallenge, name: String, response: AssertionResponse
    ) throws {
let privacy = try AccountPrivacy(secret: serverSecret)        // 32+ random bytes, the same on every instance
let options = privacy.requestOptions(
    relyingParty: rp, challenge: challenge, username: name, credentials: credentials(of: name))  // nil: no such user
let result = try privacy.verifyAssertion(
    response, challenge: challenge.value, credential: credential(id: response.credentialID),  // nil: unknown ID
    relyingParty: rp, allowCredentials: options.allowCredentials.map(\.id))
        _ = result
    }

    static func passkeys(session: WebSession, user: User, body: [UInt8]) async throws {
        let rp = try RelyingParty(id: "example.com", origins: ["https://example.com"])
        let challenges = InMemoryChallengeStore()           // or your own ChallengeStore over Redis/SQL (atomic take)

        // 1. Registration options for a signed-in user (user.id: random bytes, never an e-mail address).
        let challenge = try await challenges.issue(binding: session.id, ceremony: .registration)
        let options = PasskeyCreationOptions(relyingParty: rp, rpName: "Example", userID: user.handle,
                                             userName: user.email, challenge: challenge,
                                             excludeCredentials: user.passkeys.map(PasskeyCredentialDescriptor.init))
        respond(json: options.json())                        // → PublicKeyCredential.parseCreationOptionsFromJSON

        // 2. The browser posts credential.toJSON().
        let response = try RegistrationResponse(json: Array(body))
        let issued = try await challenges.redeem(clientDataJSON: response.clientDataJSON,
                                                 binding: session.id, ceremony: .registration)   // one-time, bound, expiring
        let registration = try rp.verifyRegistration(response, challenge: issued.value,
                                                     userHandle: user.handle, requireUserVerification: true)
        save(registration.credential)                       // CredentialRecord: id, COSE key, counter, flags, AAGUID

        // 3. Sign-in (username-less: empty allowCredentials, the authenticator returns userHandle).
        let signIn = try await challenges.issue(binding: session.id, ceremony: .authentication)
        respond(json: PasskeyRequestOptions(relyingParty: rp, challenge: signIn, userVerification: .required).json())
        let assertion = try AssertionResponse(json: Array(body))
        let record = try load(credentialID: assertion.credentialID)
        let redeemed = try await challenges.redeem(clientDataJSON: assertion.clientDataJSON,
                                                   binding: session.id, ceremony: .authentication)
        let result = try rp.verifyAssertion(assertion, challenge: redeemed.value, credential: record,
                                            requireUserVerification: true)
        save(record.updated(by: result))                    // new counter and backup state
    }

    static func dpopAndPAR(
        store: any CredentialStore, dpopHeader: String, requestURL: URL, token: String, cnfJKT: String
    ) async throws {
        var configuration = AuthClient.Configuration(
            issuer: "https://id.example.com", clientID: "my-app", redirectURI: try RedirectURI("http://127.0.0.1/callback"),
            store: store, service: "com.example.app.tokens")
        configuration.dpop = DPoPBinding(key: try SoftwareDPoPKey())
        configuration.pushedAuthorization = true
        let signIn = try await AuthClient(configuration).signIn(with: LoopbackBrowser())

        // On a resource server:
        let verifier = DPoPVerifier(replayCache: InMemoryDPoPReplayCache())
        let proof = try await verifier.verify(dpopHeader, method: "GET", url: requestURL, accessToken: token,
                                              boundThumbprint: cnfJKT)
    }
    static func signInWithAppleServer(p8Text: String, codeFromApp: String, rawNonceFromApp: String, appleJWKS: JWKSet, identityToken: String) async throws {
        // The identity token alone: the app sends SHA-256(raw nonce) to Apple; you compare with the raw nonce.
        let identity = try AppleIdentityTokenVerifier(clientIDs: ["com.example.app"], keys: appleJWKS)
            .verify(identityToken, rawNonce: rawNonceFromApp)

        let apple = SignInWithAppleServer(
            secret: try AppleClientSecret(teamID: "TEAM123456", clientID: "com.example.app", keyID: "KEY1234567",
                                          privateKey: ECPrivateKey(pem: p8Text)),
            transport: URLSessionTransport())
        let result = try await apple.exchange(code: codeFromApp, rawNonce: rawNonceFromApp)
        let user = result.identity.subject                      // keep it; the e-mail and name arrive only once
        if let refresh = result.tokens.refreshToken?.unredacted() { try await apple.revoke(refreshToken: refresh) }
    }
}

#if WARDEN_REDIS
    import WardenRedis

    extension ReadmeSnippets {
        static func redis(
            passwordFromSecretsManager: String, session: WebSession, assertion: AssertionResponse
        ) async throws {
// Every instance of the relying party points at the same Redis.
let redis = try RedisClient(RedisConfiguration(url: "redis://rp@redis.internal:6379/2",
                                               password: Redacted(passwordFromSecretsManager)))
let challenges = RedisChallengeStore(client: redis)          // issued on one instance, redeemed on any, once
let verifier = DPoPVerifier(replayCache: RedisDPoPReplayCache(client: redis))   // a jti once across instances

let challenge = try await challenges.issue(binding: session.id, ceremony: .authentication)
// ... on whichever instance the browser's response reaches:
let redeemed = try await challenges.redeem(clientDataJSON: assertion.clientDataJSON,
                                           binding: session.id, ceremony: .authentication)
        }
    }
#endif

extension ReadmeSnippets {
    static func wardenTesting() {
let keychain = KeychainModel(user: { prompt in prompt.operation == .read ? 0 : -128 })   // the user's answers
let store = SplitTokenStore(
    tokens: keychain.store(accessibility: .afterFirstUnlockThisDeviceOnly),
    refreshTokens: keychain.store(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet))
// ... sign in with your AuthClient over `store`, then:
keychain.deviceState = .locked          // K5: WhenUnlocked items answer errSecInteractionNotAllowed
keychain.biometry = .unavailable        // K10: Face ID turned off for the app
keychain.reenrolBiometry()              // K9: .biometryCurrentSet items are invalidated
print(keychain.prompts)                 // every prompt shown, in order (K6, K7)
    }
}
