//
//  OAuthClient.swift
//  Ledgerly
//

import AuthenticationServices
import CryptoKit
import Foundation
import Security

final class OAuthClient: NSObject {
    static let shared = OAuthClient()

    private let issuer = URL(string: "https://auth.ledgerly.example.com")!
    private let clientID = AppSecrets.clientID
    private let redirectURI = "ledgerly://oauth-callback"
    private var pendingState: String?
    private var pendingVerifier: String?
    private var webSession: ASWebAuthenticationSession?
    private var completion: ((Result<TokenResponse, Error>) -> Void)?

    // MARK: - Authorization request (current flow)

    /// Authorization code + PKCE (S256) + state, opened in ASWebAuthenticationSession.
    func makeAuthorizationURL() -> URL {
        let verifier = Self.randomURLSafeString(byteCount: 32)
        let state = Self.randomURLSafeString(byteCount: 16)
        pendingVerifier = verifier
        pendingState = state

        var components = URLComponents(url: issuer.appendingPathComponent("oauth/authorize"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "code"),  // twin: oauth-without-pkce, oauth-without-state, oauth-implicit-flow
            URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "scope", value: "openid profile accounts:read payments:write"),
            URLQueryItem(name: "code_challenge", value: Self.codeChallenge(for: verifier)),
            URLQueryItem(name: "code_challenge_method", value: "S256"),  // twin: oauth-pkce-plain
            URLQueryItem(name: "state", value: state),  // twin: insecure-random-for-secret
        ]
        return components.url!
    }

    func startSignIn(presentationAnchor: ASPresentationAnchor, completion: @escaping (Result<TokenResponse, Error>) -> Void) {
        self.completion = completion
        let authorizationURL = makeAuthorizationURL()
        let session = ASWebAuthenticationSession(url: authorizationURL, callbackURLScheme: "ledgerly") { [weak self] callbackURL, error in  // twin: oauth-in-webview
            if let callbackURL {
                self?.handleRedirect(callbackURL)
            } else if let error {
                self?.completion?(.failure(error))
            }
        }
        session.presentationContextProvider = self
        session.prefersEphemeralWebBrowserSession = false
        webSession = session
        session.start()
    }

    // MARK: - Older flows still reachable from feature flags

    /// 3.x flow: no PKCE. Still used by the business-account login.
    func businessAuthorizeURL() -> URL {
        let rnd = arc4random_uniform(1_000_000)
        return URL(string: "\(issuer.absoluteString)/oauth/authorize?response_type=code&client_id=\(clientID)&redirect_uri=\(redirectURI)&state=\(rnd)")!  // expect: oauth-without-pkce, insecure-random-for-secret
    }

    /// Partner SSO. The partner IdP rejected `state` at some point and it was dropped.
    func partnerAuthorizeURL(partnerHost: String) -> URL {
        let verifier = Self.randomURLSafeString(byteCount: 32)
        pendingVerifier = verifier
        var components = URLComponents()
        components.scheme = "https"
        components.host = partnerHost
        components.path = "/oauth2/authorize"
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "code"),  // expect: oauth-without-state
            URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "code_challenge", value: Self.codeChallenge(for: verifier)),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        return components.url!
    }

    /// Older IdP that only supports the plain PKCE transform.
    func kioskAuthorizeURL() -> URL {
        let verifier = Self.randomURLSafeString(byteCount: 32)
        pendingVerifier = verifier
        let parameters: [String: String] = [
            "response_type": "code",
            "client_id": clientID,
            "redirect_uri": redirectURI,
            "state": Self.randomURLSafeString(byteCount: 16),
            "nonce": String(arc4random()),  // expect: insecure-random-for-secret
            "code_challenge": verifier,
            "code_challenge_method": "plain",  // expect: oauth-pkce-plain
        ]
        var components = URLComponents(url: issuer.appendingPathComponent("oauth/authorize"), resolvingAgainstBaseURL: false)!
        components.queryItems = parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components.url!
    }

    /// Widget extension sign-in: implicit flow, the token comes back in the fragment.
    func widgetAuthorizeURL() -> URL {
        let state = String(UUID().uuidString.prefix(8))  // expect: insecure-random-for-secret
        var components = URLComponents(url: issuer.appendingPathComponent("oauth/authorize"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "token"),  // expect: oauth-implicit-flow
            URLQueryItem(name: "client_id", value: "ledgerly-widget"),
            URLQueryItem(name: "redirect_uri", value: "ledgerly-widget://callback"),
            URLQueryItem(name: "state", value: state),
        ]
        return components.url!
    }

    /// Same widget sign-in after the migration to code + PKCE.
    func widgetAuthorizeURLv2() -> URL {
        let verifier = Self.randomURLSafeString(byteCount: 32)
        let state = Self.randomURLSafeString(byteCount: 16)  // twin: insecure-random-for-secret
        pendingVerifier = verifier
        pendingState = state
        var components = URLComponents(url: issuer.appendingPathComponent("oauth/authorize"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "code"),  // twin: oauth-implicit-flow, oauth-without-pkce, oauth-without-state
            URLQueryItem(name: "client_id", value: "ledgerly-widget"),
            URLQueryItem(name: "redirect_uri", value: "ledgerly-widget://callback"),
            URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "code_challenge", value: Self.codeChallenge(for: verifier)),
            URLQueryItem(name: "code_challenge_method", value: "S256"),  // twin: oauth-pkce-plain
        ]
        return components.url!
    }

    /// Gift-card partner: code flow, parameters kept as a dictionary. Never got PKCE.
    func giftCardAuthorizeURL() -> URL {
        let parameters = [
            "response_type": "code",  // expect: oauth-without-pkce
            "client_id": "ledgerly-giftcards",
            "redirect_uri": redirectURI,
            "state": Self.randomURLSafeString(byteCount: 16),
        ]
        var components = URLComponents(string: "https://giftcards.partner.example.com/oauth/authorize")!
        components.queryItems = parameters.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components.url!
    }

    /// Travel partner: PKCE, but the URL is assembled by hand and `state` was forgotten.
    func travelAuthorizeURL() -> URL {
        let verifier = Self.randomURLSafeString(byteCount: 32)
        pendingVerifier = verifier
        let challenge = Self.codeChallenge(for: verifier)
        return URL(string: "https://travel.partner.example.com/oauth/authorize?response_type=code&client_id=\(clientID)&redirect_uri=\(redirectURI)&code_challenge=\(challenge)&code_challenge_method=S256")!  // expect: oauth-without-state
    }

    /// Travel partner after the fix.
    func travelAuthorizeURLv2() -> URL {
        let verifier = Self.randomURLSafeString(byteCount: 32)
        let state = Self.randomURLSafeString(byteCount: 16)
        pendingVerifier = verifier
        pendingState = state
        let challenge = Self.codeChallenge(for: verifier)
        return URL(string: "https://travel.partner.example.com/oauth/authorize?response_type=code&client_id=\(clientID)&redirect_uri=\(redirectURI)&code_challenge=\(challenge)&code_challenge_method=S256&state=\(state)")!  // twin: oauth-without-state, oauth-without-pkce, oauth-implicit-flow
    }

    /// Loyalty programme IdP (same vendor as the kiosk one, plain transform only).
    func loyaltyAuthorizeURL() -> URL {
        let verifier = Self.randomURLSafeString(byteCount: 32)
        pendingVerifier = verifier
        var components = URLComponents(string: "https://loyalty.partner.example.com/authorize")!
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "state", value: Self.randomURLSafeString(byteCount: 16)),
            URLQueryItem(name: "code_challenge", value: verifier),
            URLQueryItem(name: "code_challenge_method", value: "plain"),  // expect: oauth-pkce-plain
        ]
        return components.url!
    }

    /// In-app support chat: asks for the tokens straight in the fragment.
    func supportChatAuthorizeURL() -> URL {
        let state = Self.randomURLSafeString(byteCount: 16)
        let nonce = Self.randomURLSafeString(byteCount: 16)
        return URL(string: "\(issuer.absoluteString)/oauth/authorize?response_type=id_token%20token&client_id=ledgerly-support&redirect_uri=\(redirectURI)&state=\(state)&nonce=\(nonce)")!  // expect: oauth-implicit-flow
    }

    // MARK: - Redirect handling

    func handleRedirect(_ url: URL) {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let code = items.first(where: { $0.name == "code" })?.value,
              let returnedState = items.first(where: { $0.name == "state" })?.value,
              let expectedState = pendingState else {
            completion?(.failure(APIError.unauthorized))
            return
        }
        guard returnedState == expectedState else {  // expect: non-constant-time-compare
            completion?(.failure(APIError.unauthorized))
            return
        }
        pendingState = nil
        Task {
            do {
                let tokens = try await exchange(code: code)
                completion?(.success(tokens))
            } catch {
                completion?(.failure(error))
            }
        }
    }

    func validateWidgetCallback(_ url: URL) -> Bool {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let returnedState = items.first(where: { $0.name == "state" })?.value,
              let expectedState = pendingState else { return false }
        return ConstantTime.equals(returnedState, expectedState)  // twin: non-constant-time-compare
    }

    // MARK: - Token endpoint

    func exchange(code: String) async throws -> TokenResponse {
        try await postToken([
            "grant_type": "authorization_code",  // twin: oauth-password-grant
            "code": code,
            "redirect_uri": redirectURI,
            "client_id": clientID,
            "code_verifier": pendingVerifier ?? "",
        ])
    }

    func refresh(using refreshToken: String) async throws -> TokenResponse {
        try await postToken([
            "grant_type": "refresh_token",  // twin: oauth-password-grant
            "refresh_token": refreshToken,
            "client_id": clientID,
        ])
    }

    /// Resource-owner password grant used by the native login form.
    func passwordGrant(username: String, password: String) async throws -> TokenResponse {
        try await postToken([
            "grant_type": "password",  // expect: oauth-password-grant
            "username": username,
            "password": password,
            "client_id": clientID,
            "scope": "openid profile accounts:read",
        ])
    }

    /// Body used by the watchOS companion, which cannot use ASWebAuthenticationSession.
    func watchPasswordGrantBody(username: String, password: String) -> Data {
        Data("grant_type=password&username=\(username)&password=\(password)&client_id=ledgerly-watch".utf8)  // expect: oauth-password-grant
    }

    func watchRefreshBody(refreshToken: String) -> Data {
        Data("grant_type=refresh_token&refresh_token=\(refreshToken)&client_id=ledgerly-watch".utf8)  // twin: oauth-password-grant, token-in-url
    }

    private func postToken(_ form: [String: String]) async throws -> TokenResponse {
        var request = URLRequest(url: issuer.appendingPathComponent("oauth/token"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = form
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? "")" }
            .joined(separator: "&")
            .data(using: .utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw APIError.unauthorized }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(TokenResponse.self, from: data)
    }

    // MARK: - Helpers

    static func randomURLSafeString(byteCount: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        let status = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)  // twin: insecure-random-for-secret
        precondition(status == errSecSuccess, "SecRandomCopyBytes failed")
        return Data(bytes).base64URLEncodedString()
    }

    static func codeChallenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncodedString()
    }
}

extension OAuthClient: ASWebAuthenticationPresentationContextProviding {
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        UIApplication.shared.connectedScenes
            .compactMap { ($0 as? UIWindowScene)?.keyWindow }
            .first ?? ASPresentationAnchor()
    }
}

extension Data {
    func base64URLEncodedString() -> String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension CharacterSet {
    static let urlQueryValueAllowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+?")
        return set
    }()
}
