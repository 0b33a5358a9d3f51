import LocalAuthentication
import UIKit
import WebKit

/// Labelled fixture: every line that must raise a finding carries a label comment naming the rule.
final class LoginViewController: UIViewController, UIWebViewDelegate {  // expect: uiwebview
    let webView = WKWebView()
    let passwordField = UITextField()
    let usernameField = UITextField()

    override func viewDidLoad() {
        super.viewDidLoad()
        passwordField.isSecureTextEntry = true  // expect: password-field-without-content-type
        usernameField.textContentType = .username
    }

    func signIn(authorizationURL: URL) {
        // Loading the provider's page in our own web view would let us read the password:
        webView.load(URLRequest(url: authorizationURL))  // expect: oauth-in-webview
    }

    func unlockWithFaceID() {
        let context = LAContext()  // expect: faceid-usage-description-missing
        context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, _ in  // expect: biometric-event-gate
            if success { self.isUnlocked = true }
        }
    }

    var isUnlocked = false
}
