import Dispatch
import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
@_spi(Fuzzing) import WardenOAuth

extension LocalProvider {
    static func form(_ text: String?) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in (try? FormEncoding.decode(text ?? "")) ?? [] where result[name] == nil {
            result[name] = value
        }
        return result
    }

    /// 256 bits from the system CSPRNG, base64url. The demo provider stops rather than hand out a guessable value.
    static func secureToken() -> String {
        guard let bytes = try? SecureRandom().bytes(count: 32) else { fatalError("the system CSPRNG failed") }
        return Base64URL.encode(bytes)
    }

    func authorize(_ request: LoopbackRequest) -> HTTPResponse {
        bump("authorize")
        var parameters = Self.form(request.query)
        guard parameters["client_id"] == clientID else { return .text(400, "unknown client") }
        var pushed = false
        if let requestURI = parameters["request_uri"] {
            // RFC 9126 §4: the pushed parameters, once, before they expire; nothing else from the front channel.
            let stored: [String: String]? = stateBox.withLock { state in
                guard var entry = state.pushed[requestURI], !entry.used, entry.expires > now(),
                    entry.parameters["client_id"] == clientID
                else { return nil }
                entry.used = true
                state.pushed[requestURI] = entry
                return entry.parameters
            }
            guard let stored else { return .text(400, "request_uri unknown, used or expired") }
            parameters = stored
            pushed = true
            bump("authorize.pushed")
        } else if stateBox.current.requirePAR {
            return .text(400, "this provider requires pushed authorization requests")
        }
        guard let redirect = parameters["redirect_uri"], redirectURIs.contains(where: { $0.matches(redirect) }) else {
            return .text(400, "redirect_uri not registered")
        }
        guard parameters["response_type"] == "code" else { return .text(400, "unsupported response_type") }
        guard parameters["code_challenge_method"] == "S256", let challenge = parameters["code_challenge"],
            challenge.count == 43
        else {
            return .text(400, "PKCE S256 is required")
        }
        guard let state = parameters["state"] else { return .text(400, "state is required") }
        let emulation = stateBox.current.emulation
        if let supported = emulation.scopesSupported,
            let unknown = (parameters["scope"] ?? "").split(separator: " ").first(where: {
                !supported.contains(String($0))
            })
        {
            // Google's answer to `offline_access`: the request's scope is refused.
            observeAuthorization(parameters, pushed: pushed, fresh: false, issuerSent: issuer)
            let location =
                redirect + "?"
                + FormEncoding.encode([
                    ("error", "invalid_scope"), ("error_description", "unsupported scope \(unknown)"), ("state", state),
                    ("iss", issuer),
                ])
            return HTTPResponse(status: 302, headers: ["Location": location, "Cache-Control": "no-store"])
        }
        guard let user = authenticate(parameters) else {
            observeAuthorization(parameters, pushed: pushed, fresh: false, issuerSent: issuer)
            let location =
                redirect + "?"
                + FormEncoding.encode([("error", "login_required"), ("state", state), ("iss", issuer)])
            return HTTPResponse(status: 302, headers: ["Location": location, "Cache-Control": "no-store"])
        }
        observeAuthorization(parameters, pushed: pushed, fresh: user.fresh, issuerSent: issuer)
        let code = Self.secureToken()
        self.stateBox.withLock {
            $0.codes[code] = PendingCode(
                clientID: clientID, redirectURI: redirect, challenge: challenge, nonce: parameters["nonce"],
                scope: parameters["scope"] ?? "openid", sessionID: user.sessionID, subject: user.subject,
                authTime: user.authTime, dpopJKT: parameters["dpop_jkt"],
                offline: (!emulation.refreshTokensNeedAccessTypeOffline || parameters["access_type"] == "offline")
                    && (!emulation.refreshTokensNeedOfflineAccess
                        || (parameters["scope"] ?? "").split(separator: " ").contains("offline_access")),
                issuedAt: now()
            )
        }
        let location = redirect + "?" + FormEncoding.encode([("code", code), ("state", state), ("iss", issuer)])
        return HTTPResponse(status: 302, headers: ["Location": location, "Cache-Control": "no-store"])
    }

    /// RFC 9126 §2: stores the authorization parameters and answers a one-time `request_uri` (60 s).
    func pushAuthorization(_ request: LoopbackRequest) -> HTTPResponse {
        bump("par")
        let form = Self.form(String(decoding: request.body, as: UTF8.self))
        guard form["client_id"] == clientID else { return .json(401, #"{"error":"invalid_client"}"#) }
        guard form["request_uri"] == nil else { return .json(400, #"{"error":"invalid_request"}"#) }
        let uri = "urn:ietf:params:oauth:request_uri:" + Self.secureToken()
        stateBox.withLock { $0.pushed[uri] = PushedRequest(parameters: form, expires: now().addingTimeInterval(60)) }
        return .json(201, #"{"request_uri":"\#(uri)","expires_in":60}"#)
    }

    /// Blocks this handler thread (never a cooperative-pool thread) on an async call.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.current!
    }

    /// The DPoP proof of a request, verified (RFC 9449 §4.3): nil when absent, the thumbprint when valid, or the
    /// error response to send.
    func dpopProof(
        _ request: LoopbackRequest, path: String, accessToken: String? = nil, requireNonce: Bool
    ) -> Result<String?, DPoPRefusal> {
        guard let proof = request.header("DPoP") else { return .success(nil) }
        let state = stateBox.current
        let verifier = DPoPVerifier(replayCache: replayCache, now: now)
        let url = URL(string: base + path)!
        let nonce = requireNonce ? state.dpopNonce : nil
        let outcome: Result<DPoPVerifier.Proof, DPoPError> = Self.blocking {
            do throws(DPoPError) {
                return .success(
                    try await verifier.verify(
                        proof, method: request.method, url: url, expectedNonce: nonce, accessToken: accessToken))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let verified): return .success(verified.thumbprint)
        case .failure(let error):
            bump("dpop.refused." + error.codeName)
            return .failure(DPoPRefusal(error: error, nonce: state.dpopNonce))
        }
    }

    struct DPoPRefusal: Error {
        let error: DPoPError
        let nonce: String
    }

    func token(_ request: LoopbackRequest) -> HTTPResponse {
        let form = Self.form(String(decoding: request.body, as: UTF8.self))
        guard form["client_id"] == clientID else { return .json(401, #"{"error":"invalid_client"}"#) }
        let nonceHeader = ["DPoP-Nonce": stateBox.current.dpopNonce]
        let proven: String?
        switch dpopProof(request, path: "/token", requireNonce: stateBox.current.requireDPoPNonce) {
        case .success(let jkt): proven = jkt
        case .failure(let refusal):
            let error =
                refusal.error.code == .nonceRequired || refusal.error.code == .nonceMismatch
                ? "use_dpop_nonce" : "invalid_dpop_proof"
            return .json(400, #"{"error":"\#(error)"}"#, headers: ["DPoP-Nonce": refusal.nonce])
        }
        switch form["grant_type"] {
        case "authorization_code":
            bump("token.authorization_code")
            guard let code = form["code"], let verifier = form["code_verifier"] else {
                return .json(400, #"{"error":"invalid_request"}"#)
            }
            // The code is spent only by a request that proves it is the client's (same redirect_uri, the PKCE
            // verifier): whoever merely saw the code cannot burn it. It lives 60 s (RFC 6749 §4.1.2: short-lived).
            let challenge = Base64URL.encode(HashFunction.sha256.hash(Array(verifier.utf8)))
            let current = now()
            let (pending, matched): (PendingCode?, Bool?) = stateBox.withLock { state in
                guard var entry = state.codes[code], !entry.used,
                    current.timeIntervalSince(entry.issuedAt) <= Self.codeLifetime
                else { return (nil, nil) }
                let matched = entry.challenge == challenge
                guard matched, entry.redirectURI == form["redirect_uri"] else { return (nil, matched) }
                entry.used = true  // one time: a replayed code is invalid_grant
                state.codes[code] = entry
                return (entry, true)
            }
            observeToken(verifierMatched: matched, form: form)
            guard let pending else {
                return .json(400, #"{"error":"invalid_grant","error_description":"bad, replayed or expired code"}"#)
            }
            if let bound = pending.dpopJKT, bound != proven {  // RFC 9449 §10: the code is bound to that key
                return .json(400, #"{"error":"invalid_dpop_proof","error_description":"dpop_jkt mismatch"}"#)
            }
            let grantID = Self.secureToken()
            let refresh = Self.secureToken()
            stateBox.withLock { state in
                state.grants[grantID] = Grant(
                    refreshToken: refresh, subject: pending.subject, scope: pending.scope,
                    sessionID: pending.sessionID, authTime: pending.authTime, jkt: proven)
                state.refreshIndex[refresh] = grantID
            }
            return issue(
                grantID: grantID, refresh: refresh, nonce: pending.nonce,
                includeIDToken: pending.scope.contains("openid"), refresh: false, jkt: proven, headers: nonceHeader,
                includeRefreshToken: pending.offline)
        case "refresh_token":
            bump("token.refresh_token")
            observeToken(verifierMatched: nil, form: form)
            guard let presented = form["refresh_token"] else { return .json(400, #"{"error":"invalid_request"}"#) }
            let outcome: (grant: String, refresh: String)? = stateBox.withLock { state in
                guard let grantID = state.refreshIndex[presented], var grant = state.grants[grantID], !grant.revoked,
                    grant.jkt == proven  // a DPoP-bound refresh token needs its key (and a Bearer one none)
                else { return nil }
                if grant.usedRefreshTokens.contains(presented) || grant.refreshToken != presented {
                    grant.revoked = true  // reuse detection: the whole grant dies (RFC 9700 §4.14.2)
                    state.grants[grantID] = grant
                    return nil
                }
                grant.usedRefreshTokens.insert(presented)
                let next = Self.secureToken()
                grant.refreshToken = next
                state.grants[grantID] = grant
                state.refreshIndex[next] = grantID
                return (grantID, next)
            }
            guard let outcome else {
                return .json(400, #"{"error":"invalid_grant","error_description":"revoked or reused"}"#)
            }
            let grant = stateBox.current.grants[outcome.grant]
            return issue(
                grantID: outcome.grant, refresh: outcome.refresh, nonce: nil,
                includeIDToken: stateBox.current.quirks.refreshIDTokens && grant?.scope.contains("openid") == true,
                refresh: true, jkt: proven, headers: nonceHeader)
        case "urn:ietf:params:oauth:grant-type:device_code":
            bump("token.device_code")
            return deviceToken(form, proven: proven, headers: nonceHeader)
        default:
            return .json(400, #"{"error":"unsupported_grant_type"}"#)
        }
    }

    /// RFC 8628 §3.1: a device code and a user code for the requested scopes.
    func deviceAuthorization(_ request: LoopbackRequest) -> HTTPResponse {
        let form = Self.form(String(decoding: request.body, as: UTF8.self))
        guard form["client_id"] == clientID else { return .json(401, #"{"error":"invalid_client"}"#) }
        bump("device_authorization")
        let deviceCode = Self.secureToken()
        let userCode = String(Self.secureToken().uppercased().filter(\.isLetter).prefix(8))
        let scope = Set((form["scope"] ?? "").split(separator: " ").map(String.init))
        let (interval, lifetime) = stateBox.withLock { state in
            state.devices[deviceCode] = DeviceGrant(
                userCode: userCode, scope: scope, expires: now().addingTimeInterval(state.deviceLifetime))
            return (Int(state.deviceInterval), Int(state.deviceLifetime))
        }
        return .json(
            200,
            #"{"device_code":"\#(deviceCode)","user_code":"\#(userCode)","verification_uri":"\#(base)/device","verification_uri_complete":"\#(base)/device?user_code=\#(userCode)","expires_in":\#(lifetime),"interval":\#(interval)}"#
        )
    }

    /// RFC 8628 §3.4–3.5: the device's poll — pending, slow_down when it polls faster than the interval, denied,
    /// expired, or the tokens once approved (then the device code is spent).
    func deviceToken(_ form: [String: String], proven: String?, headers: [String: String]) -> HTTPResponse {
        guard let deviceCode = form["device_code"] else { return .json(400, #"{"error":"invalid_request"}"#) }
        let current = now()
        enum Answer {
            case error(String)
            case issue(Set<String>)
        }
        let answer: Answer = stateBox.withLock { state in
            guard var device = state.devices[deviceCode], !device.used else { return .error("invalid_grant") }
            defer { state.devices[deviceCode] = device }
            guard current < device.expires else { return .error("expired_token") }
            if let last = device.lastPoll, current.timeIntervalSince(last) < state.deviceInterval {
                device.lastPoll = current
                return .error("slow_down")
            }
            device.lastPoll = current
            switch device.decision {
            case .pending: return .error("authorization_pending")
            case .denied: return .error("access_denied")
            case .approved:
                device.used = true
                return .issue(device.scope)
            }
        }
        switch answer {
        case .error(let error): return .json(400, #"{"error":"\#(error)"}"#)
        case .issue(let scope):
            let grantID = Self.secureToken()
            let refresh = Self.secureToken()
            stateBox.withLock { state in
                state.grants[grantID] = Grant(
                    refreshToken: refresh, subject: "demo-user-1", scope: scope.sorted().joined(separator: " "),
                    sessionID: Self.secureToken(),
                    authTime: current, jkt: proven)
                state.refreshIndex[refresh] = grantID
            }
            return issue(
                grantID: grantID, refresh: refresh, nonce: nil, includeIDToken: scope.contains("openid"),
                refresh: false, jkt: proven, headers: headers)
        }
    }

    /// The user approves (or, `approve: false`, denies) the device sign-in showing `userCode`; false when no pending
    /// authorization has that code.
    @discardableResult
    package func decideDevice(userCode: String, approve: Bool) -> Bool {
        stateBox.withLock { state in
            guard
                let entry = state.devices.first(where: {
                    $0.value.userCode == userCode && $0.value.decision == .pending
                })
            else { return false }
            state.devices[entry.key]?.decision = approve ? .approved : .denied
            return true
        }
    }

    /// The polling interval and lifetime the next device authorizations announce.
    package func setDeviceTiming(interval: TimeInterval, lifetime: TimeInterval) {
        stateBox.withLock {
            $0.deviceInterval = interval
            $0.deviceLifetime = lifetime
        }
    }

    func issue(
        grantID: String, refresh: String, nonce: String?, includeIDToken: Bool, refresh isRefresh: Bool,
        jkt: String? = nil, headers: [String: String] = [:], includeRefreshToken: Bool = true
    ) -> HTTPResponse {
        let access = Self.secureToken()
        let lifetime = stateBox.current.accessTokenLifetime
        stateBox.withLock { $0.accessTokens[access] = (grantID, now().addingTimeInterval(lifetime), jkt) }
        let type = jkt == nil ? "Bearer" : "DPoP"
        var body =
            #"{"access_token":"\#(access)","token_type":"\#(type)","expires_in":\#(Int(lifetime)),"scope":"openid profile""#
            + (includeRefreshToken ? #","refresh_token":"\#(refresh)""# : "")
        if includeIDToken, let grant = stateBox.current.grants[grantID],
            let idToken = try? idToken(
                subject: grant.subject, nonce: nonce, accessToken: access, sessionID: grant.sessionID,
                authTime: grant.authTime, refresh: isRefresh)
        {
            body += #","id_token":"\#(idToken)""#
        }
        return .json(200, body + "}", headers: headers)
    }

    func revoke(_ request: LoopbackRequest) -> HTTPResponse {
        bump("revoke")
        let form = Self.form(String(decoding: request.body, as: UTF8.self))
        if let token = form["token"] {
            stateBox.withLock { state in
                if let grantID = state.refreshIndex[token] { state.grants[grantID]?.revoked = true }
                state.accessTokens[token] = nil
            }
        }
        return .json(200, "{}")
    }

    func api(_ request: LoopbackRequest) -> HTTPResponse {
        bump("api")
        if case .rateLimited(let seconds) = stateBox.current.outage {
            stateBox.withLock { $0.outage = .none }  // one 429, then normal service
            return .json(429, #"{"error":"rate_limited"}"#, headers: ["Retry-After": "\(seconds)"])
        }
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer ") || header.hasPrefix("DPoP ")
        else {
            return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
        }
        let scheme = header.hasPrefix("DPoP ") ? "DPoP" : "Bearer"
        let token = String(header.dropFirst(scheme.count + 1))
        let entry: (grant: String, expires: Date, jkt: String?)? = stateBox.withLock { state in
            guard let entry = state.accessTokens[token], entry.expires > now(),
                state.grants[entry.grant]?.revoked == false
            else { return nil }
            return entry
        }
        guard let entry else {
            return HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"\#(scheme) error="invalid_token""#])
        }
        if let bound = entry.jkt {
            // RFC 9449 §7: a DPoP-bound token needs the DPoP scheme and a proof of its key for this request.
            let refused = HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"DPoP error="invalid_token""#])
            guard scheme == "DPoP" else { return refused }
            guard
                case .success(let proven?) = dpopProof(
                    request, path: request.path, accessToken: token, requireNonce: false),
                proven == bound
            else { return refused }
        }
        // Routes for API clients' own limits: a large body, a same-origin redirect.
        if request.path == "/api/large" {
            let size = min(Int(Self.form(request.query)["bytes"] ?? "") ?? 0, 16 << 20)
            return HTTPResponse(
                status: 200, headers: ["Content-Type": "application/octet-stream"],
                body: Data(repeating: UInt8(ascii: "x"), count: size))
        }
        if request.path == "/api/moved" {
            let target = Self.form(request.query)["to"] ?? (base + "/api/resource")
            return HTTPResponse(status: 302, headers: ["Location": target])
        }
        if request.path == "/userinfo", let scripted = idTokenQuirks.userInfoResponse {
            return HTTPResponse(
                status: scripted.status, headers: ["Content-Type": scripted.contentType], body: Data(scripted.body.utf8)
            )
        }
        let subject = request.path == "/userinfo" ? (idTokenQuirks.userInfoSubject ?? "demo-user-1") : "demo-user-1"
        return .json(200, #"{"sub":"\#(subject)","name":"Demo User","email":"demo@example.com"}"#)
    }
}
