import Foundation

/// Labelled fixture for authorization requests.
enum LegacyOAuth {
    static func authorizeURL(clientID: String) -> URL {
        URL(string: "https://id.example.com/authorize?response_type=code&client_id=\(clientID)")!  // expect: oauth-without-pkce, oauth-without-state
    }

    static func passwordGrantBody(user: String, pass: String) -> String {
        "grant_type=password&username=\(user)&password=\(pass)"  // expect: oauth-password-grant
    }

    static func makeState() -> String {
        let state = String(arc4random())  // expect: insecure-random-for-secret
        return state
    }

    static func check(returnedState: String, expectedState: String) -> Bool {
        returnedState == expectedState  // expect: non-constant-time-compare
    }
}
