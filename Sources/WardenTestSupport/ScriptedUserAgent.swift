import Foundation
import WardenCore
import WardenOAuth

/// A user agent that "logs in" by fetching the authorization URL and following the redirect to the loopback
/// listener, as a browser would (the local provider approves without a form).
package struct ScriptedUserAgent: BrowserLauncher {
    package init() {}

    package func open(_ url: URL) throws {
        Task.detached {
            // Warden's transport never follows redirects; a browser does, so follow them here (loopback only).
            var next: URL? = url
            for _ in 0..<5 {
                guard let current = next,
                    let response = try? await URLSessionTransport().send(HTTPRequest(url: current, timeout: 10)),
                    (300..<400).contains(response.status), let location = response.header("Location")
                else { return }
                next = URL(string: location, relativeTo: current)?.absoluteURL
            }
        }
    }
}
