import Foundation

/// Labelled fixture for network rules.
final class APIClient: NSObject, URLSessionDelegate {
    let base = URL(string: "http://api.example.com/v2")!  // expect: cleartext-http
    let local = URL(string: "http://127.0.0.1:8080/callback")!

    func profileURL(token: String) -> URL {
        URL(string: "https://api.example.com/me?access_token=\(token)")!  // expect: token-in-url
    }

    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let trust = challenge.protectionSpace.serverTrust!
        completionHandler(.useCredential, URLCredential(trust: trust))  // expect: trust-all-certificates
    }
}
