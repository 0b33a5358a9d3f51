import Foundation

/// Opens the authorization URL in the user's browser. Warden never signs in inside an embedded web view.
public protocol BrowserLauncher: Sendable {
    func open(_ url: URL) throws
}
