import AuthenticationServices
import Foundation
import Security

/// The right way: none of these lines may raise a finding.
final class SecureClient: NSObject, URLSessionDelegate {
    let base = URL(string: "https://api.example.com/v2")!

    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let trust = challenge.protectionSpace.serverTrust, SecTrustEvaluateWithError(trust, nil) else {
            return completionHandler(.cancelAuthenticationChallenge, nil)
        }
        completionHandler(.useCredential, URLCredential(trust: trust))
    }

    func signIn(url: URL) {
        let session = ASWebAuthenticationSession(url: url, callback: .customScheme("app")) { _, _ in }
        session.prefersEphemeralWebBrowserSession = false
        session.start()
    }

    func authorizeItems(challenge: String, state: String) -> [URLQueryItem] {
        [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "code_challenge", value: challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"), URLQueryItem(name: "state", value: state),
        ]
    }

    func store(_ token: String) {
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, nil)
        _ = access
        UserDefaults.standard.set(Date(), forKey: "lastRefresh")
        print("stored a token of \(token.count) characters")  // mentions the token only by its length
        let color = ["red", "blue"].randomElement()
        _ = color
    }
}
