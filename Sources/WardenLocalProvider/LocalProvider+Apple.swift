import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
@_spi(Fuzzing) import WardenOAuth

/// Sign in with Apple's REST endpoints, emulated on the provider's origin: `/auth/keys`, `/auth/token` and
/// `/auth/revoke`, each checking the client secret JWT the way Apple does (``AppleClientSecretVerifier``). The
/// "device" side is ``appleAuthorizationCode(rawNonce:)``: what an app would receive from
/// `ASAuthorizationAppleIDCredential.authorizationCode`. Never for production.
extension LocalProvider {
    struct AppleClient {
        let verifier: AppleClientSecretVerifier
        var codes: [String: (nonceHash: String, used: Bool)] = [:]
        var refreshTokens: Set<String> = []
    }

    /// Registers the developer account's client (team, Services ID or bundle ID, `.p8` key ID and public key).
    package func registerAppleClient(teamID: String, clientID: String, keyID: String, publicKey: PublicKey) {
        let verifier = AppleClientSecretVerifier(
            teamID: teamID, clientID: clientID, keyID: keyID, publicKey: publicKey, now: now)
        stateBox.withLock { $0.apple = AppleClient(verifier: verifier) }
    }

    /// An authorization code as the app would get it for a sign-in whose request carried SHA-256(`rawNonce`).
    package func appleAuthorizationCode(rawNonce: String) -> String {
        let code = "c" + Self.secureToken()
        stateBox.withLock {
            $0.apple?.codes[code] = (AppleIdentityTokenVerifier.hashedNonce(rawNonce), false)
        }
        return code
    }

    func appleEndpoint(_ request: LoopbackRequest) -> HTTPResponse? {
        switch (request.method, request.path) {
        case ("GET", "/auth/keys"): return jwksResponse()
        case ("POST", "/auth/token"): return appleToken(request)
        case ("POST", "/auth/revoke"): return appleRevoke(request)
        default: return nil
        }
    }

    /// The client's registration when `client_id` and `client_secret` are Apple-valid, else the error response.
    private func appleClient(_ form: [String: String]) -> Result<AppleClient, AppleError> {
        guard let client = stateBox.current.apple, form["client_id"] == client.verifier.clientID,
            let secret = form["client_secret"]
        else { return .failure(AppleError(response: .json(400, #"{"error":"invalid_client"}"#))) }
        do { try client.verifier.verify(secret) } catch {
            bump("apple.client_secret_refused")
            return .failure(AppleError(response: .json(400, #"{"error":"invalid_client"}"#)))
        }
        return .success(client)
    }

    struct AppleError: Error { let response: HTTPResponse }

    func appleToken(_ request: LoopbackRequest) -> HTTPResponse {
        bump("apple.token")
        let form = Self.form(String(decoding: request.body, as: UTF8.self))
        let client: AppleClient
        switch appleClient(form) {
        case .success(let registered): client = registered
        case .failure(let error): return error.response
        }
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"] else { return .json(400, #"{"error":"invalid_request"}"#) }
            let nonce: String? = stateBox.withLock { state in
                guard let entry = state.apple?.codes[code], !entry.used else { return nil }
                state.apple?.codes[code]?.used = true
                return entry.nonceHash
            }
            guard let nonce else { return .json(400, #"{"error":"invalid_grant"}"#) }
            let refresh = "r" + Self.secureToken()
            stateBox.withLock { _ = $0.apple?.refreshTokens.insert(refresh) }
            guard let idToken = try? appleIdentityToken(clientID: client.verifier.clientID, nonceHash: nonce) else {
                return .json(500, #"{"error":"server_error"}"#)
            }
            return .json(
                200,
                #"{"access_token":"a\#(Self.secureToken())","token_type":"bearer","expires_in":3600,"refresh_token":"\#(refresh)","id_token":"\#(idToken)"}"#
            )
        case "refresh_token":
            guard let refresh = form["refresh_token"], stateBox.current.apple?.refreshTokens.contains(refresh) == true
            else { return .json(400, #"{"error":"invalid_grant"}"#) }
            return .json(
                200, #"{"access_token":"a\#(Self.secureToken())","token_type":"bearer","expires_in":3600}"#)
        default:
            return .json(400, #"{"error":"unsupported_grant_type"}"#)
        }
    }

    func appleRevoke(_ request: LoopbackRequest) -> HTTPResponse {
        let form = Self.form(String(decoding: request.body, as: UTF8.self))
        if case .failure(let error) = appleClient(form) { return error.response }
        bump("apple.revoke")
        if let token = form["token"] { stateBox.withLock { _ = $0.apple?.refreshTokens.remove(token) } }
        return HTTPResponse(status: 200)
    }

    /// An identity token shaped like Apple's (string booleans included), signed with the provider's key.
    func appleIdentityToken(clientID: String, nonceHash: String) throws -> String {
        let t = Int(now().timeIntervalSince1970)
        let claims =
            #"{"iss":"\#(issuer)","aud":"\#(clientID)","exp":\#(t + 600),"iat":\#(t),"sub":"001234.apple-user","nonce":"\#(nonceHash)","nonce_supported":true,"email":"x7y@privaterelay.appleid.com","email_verified":"true","is_private_email":"true","real_user_status":2,"auth_time":\#(t)}"#
        let input =
            Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8)) + "."
            + Base64URL.encode(Array(claims.utf8))
        return input + "." + Base64URL.encode(try signingKey.signature(for: Array(input.utf8)))
    }
}
