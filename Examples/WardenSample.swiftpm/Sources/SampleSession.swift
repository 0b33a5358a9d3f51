import Foundation
import UIKit
import Warden
import WardenApple

#if canImport(FoundationNetworking)
    import FoundationNetworking  // only where this file is type-checked on Linux (TypeCheck/Package.swift)
#endif

/// The app's one `AuthClient` and its account model: restored at launch (no network needed), signed in through the
/// system browser (SwiftUI's own web authentication session where the OS has it), used for API calls through
/// `URLSession`, ended with a report. The views observe ``model`` (`SessionModel`, an `ObservableObject`), which
/// follows the session's state stream: an offline spell, a failed refresh or a sign-out elsewhere redraws them.
@MainActor
final class SampleSession {
    let client: AuthClient
    /// What the views observe: the state with its typed reason, who is signed in, whether a request runs.
    let model: SessionModel
    /// Whether this device binds the refresh token to Face ID / Touch ID (a passcode and enrolled biometry).
    let protection: RefreshTokenProtection
    var session: AuthSession? { model.session }
    private var network: NetworkPathObserver?

    init() throws {
        let (store, protection) = SessionStores.forThisDevice(prompt: "Unlock your account")
        self.protection = protection
        // Keychain items outlive the app: the first launch of a reinstall purges the previous install's session before
        // anything is read (the README's device checks start with "reinstall and check the old session is gone").
        client = AuthClient(
            SampleConfiguration.preset.configuration(
                clientID: SampleConfiguration.clientID,
                redirectURI: try RedirectURI(SampleConfiguration.redirectURI), store: store,
                service: SampleConfiguration.service, sentinel: InstallSentinel(appID: SampleConfiguration.service)))
        model = SessionModel(client: client)
    }

    /// The stored session, without a request: an app launched offline is signed in at once.
    func restore() async throws {
        try await model.restore()
        watchNetwork()
    }

    /// Signs in through `browser` (SwiftUI's web authentication session), or `ASWebAuthenticationSession` presented
    /// from the window in front where the OS has no such session (before iOS 16.4).
    func signIn(with browser: (any AuthorizationBrowser)? = nil) async throws -> String {
        try await model.signIn(with: browser ?? WebAuthenticationAgent { Self.currentWindow() })
        watchNetwork()
        return "Signed in."
    }

    /// Calls the API with the access token (refreshed once for any burst of 401s).
    func callAPI() async throws -> String {
        guard let session else { return "Not signed in." }
        let (data, response) = try await URLSession.shared.data(
            for: URLRequest(url: SampleConfiguration.api), authorizedBy: session)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return "HTTP \(status), \(data.count) bytes"
    }

    /// Signs out: the device forgets the session first, then the provider is told (retried later when offline).
    func signOut() async -> String {
        guard let report = await model.signOut() else { return "Not signed in." }
        switch report.revocation {
        case .revoked: return "Signed out here and at the provider."
        case .failed(_, willRetry: true): return "Signed out here; the provider is told when you are online."
        case .failed(let reason, willRetry: false): return "Signed out here; the provider refused: \(reason)"
        case .noEndpoint: return "Signed out here; the provider has no revocation endpoint."
        case .nothingToRevoke: return "Signed out."
        }
    }

    /// When the network returns, the session of that moment (not of when the observer started: a later sign-in
    /// replaces it) refreshes if it was degraded, and failed revocations are sent.
    private func watchNetwork() {
        guard network == nil else { return }
        network = NetworkPathObserver { [weak self] in await self?.networkReturned() }
    }

    private func networkReturned() async {
        await session?.networkBecameAvailable()
        _ = await client.retryPendingRevocations()
    }

    /// The key window of the scene in front: where the sign-in sheet is presented.
    static func currentWindow() -> UIWindow {
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        return scenes.flatMap(\.windows).first(where: \.isKeyWindow) ?? UIWindow()
    }
}
