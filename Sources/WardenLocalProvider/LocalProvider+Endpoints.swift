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

    static func random() -> String { Base64URL.encode((try? SecureRandom().bytes(count: 32)) ?? []) }

    func authorize(_ request: LoopbackRequest) -> HTTPResponse {
        bump("authorize")
        let parameters = Self.form(request.query)
        guard parameters["client_id"] == clientID else { return .text(400, "unknown client") }
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
        let code = Self.random()
        self.stateBox.withLock {
            $0.codes[code] = PendingCode(
                clientID: clientID, redirectURI: redirect, challenge: challenge, nonce: parameters["nonce"],
                scope: parameters["scope"] ?? "openid")
        }
        let location = redirect + "?" + FormEncoding.encode([("code", code), ("state", state), ("iss", issuer)])
        return HTTPResponse(status: 302, headers: ["Location": location, "Cache-Control": "no-store"])
    }

    func token(_ request: LoopbackRequest) -> HTTPResponse {
        let form = Self.form(String(decoding: request.body, as: UTF8.self))
        guard form["client_id"] == clientID else { return .json(401, #"{"error":"invalid_client"}"#) }
        switch form["grant_type"] {
        case "authorization_code":
            bump("token.authorization_code")
            guard let code = form["code"], let verifier = form["code_verifier"] else {
                return .json(400, #"{"error":"invalid_request"}"#)
            }
            let pending: PendingCode? = stateBox.withLock { state in
                guard var entry = state.codes[code], !entry.used else { return nil }
                entry.used = true  // one time: a replayed code is invalid_grant
                state.codes[code] = entry
                return entry
            }
            guard let pending, pending.redirectURI == form["redirect_uri"],
                Base64URL.encode(HashFunction.sha256.hash(Array(verifier.utf8))) == pending.challenge
            else {
                return .json(400, #"{"error":"invalid_grant","error_description":"bad, replayed or expired code"}"#)
            }
            let grantID = Self.random()
            let refresh = Self.random()
            stateBox.withLock { state in
                state.grants[grantID] = Grant(refreshToken: refresh, subject: "demo-user-1", scope: pending.scope)
                state.refreshIndex[refresh] = grantID
            }
            return issue(
                grantID: grantID, refresh: refresh, nonce: pending.nonce,
                includeIDToken: pending.scope.contains("openid"))
        case "refresh_token":
            bump("token.refresh_token")
            guard let presented = form["refresh_token"] else { return .json(400, #"{"error":"invalid_request"}"#) }
            let outcome: (grant: String, refresh: String)? = stateBox.withLock { state in
                guard let grantID = state.refreshIndex[presented], var grant = state.grants[grantID], !grant.revoked
                else { return nil }
                if grant.usedRefreshTokens.contains(presented) || grant.refreshToken != presented {
                    grant.revoked = true  // reuse detection: the whole grant dies (RFC 9700 §4.14.2)
                    state.grants[grantID] = grant
                    return nil
                }
                grant.usedRefreshTokens.insert(presented)
                let next = Self.random()
                grant.refreshToken = next
                state.grants[grantID] = grant
                state.refreshIndex[next] = grantID
                return (grantID, next)
            }
            guard let outcome else {
                return .json(400, #"{"error":"invalid_grant","error_description":"revoked or reused"}"#)
            }
            return issue(grantID: outcome.grant, refresh: outcome.refresh, nonce: nil, includeIDToken: false)
        default:
            return .json(400, #"{"error":"unsupported_grant_type"}"#)
        }
    }

    func issue(grantID: String, refresh: String, nonce: String?, includeIDToken: Bool) -> HTTPResponse {
        let access = Self.random()
        let lifetime = stateBox.current.accessTokenLifetime
        stateBox.withLock { $0.accessTokens[access] = (grantID, now().addingTimeInterval(lifetime)) }
        var body =
            #"{"access_token":"\#(access)","token_type":"Bearer","expires_in":\#(Int(lifetime)),"refresh_token":"\#(refresh)","scope":"openid profile""#
        if includeIDToken, let idToken = try? idToken(nonce: nonce, accessToken: access) {
            body += #","id_token":"\#(idToken)""#
        }
        return .json(200, body + "}")
    }

    func idToken(nonce: String?, accessToken: String) throws -> String {
        let t = Int(now().timeIntervalSince1970)
        var claims =
            #"{"iss":"\#(issuer)","aud":"\#(clientID)","sub":"demo-user-1","iat":\#(t),"exp":\#(t + 600),"auth_time":\#(t),"at_hash":"\#(IDTokenValidator.halfHash(accessToken, .es256))""#
        if let nonce { claims += #","nonce":"\#(nonce)""# }
        claims += "}"
        let input =
            Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyID)","typ":"JWT"}"#.utf8)) + "."
            + Base64URL.encode(Array(claims.utf8))
        return input + "." + Base64URL.encode(try signingKey.signature(for: Array(input.utf8)))
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
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer ") else {
            return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"])
        }
        let token = String(header.dropFirst(7))
        let valid: Bool = stateBox.withLock { state in
            guard let entry = state.accessTokens[token], entry.expires > now(),
                state.grants[entry.grant]?.revoked == false
            else { return false }
            return true
        }
        guard valid else {
            return HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
        }
        return .json(200, #"{"sub":"demo-user-1","name":"Demo User"}"#)
    }
}
