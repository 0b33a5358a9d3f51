// The README's Apple-only examples, verbatim: compiled where WARDEN_APPLE is defined (Apple platforms), and where
// WARDEN_UIKIT alone is (the real-SDK probe compiles this file as an app, a client of the package, would). See
// Snippets.swift.
#if WARDEN_APPLE || WARDEN_UIKIT
    import Foundation
    import AuthenticationServices
    #if canImport(FoundationNetworking)
        import FoundationNetworking  // the Linux type-check (TypeCheck/Package.swift)
    #endif
    import WardenApple
    import WardenOAuth
    import WardenSession
    import WardenStorage

    enum AppleReadmeSnippets {
        @MainActor static func theDoor(window: ASPresentationAnchor) async throws {
            let client = AuthClient(.init(
                issuer: "https://id.example.com", clientID: "my-app",
                redirectURI: try RedirectURI("com.example.app:/oauth/callback"),
                store: KeychainStore(), service: "com.example.app.tokens"))
            let session: AuthSession
            if let restored = try await client.restoreSession() {                  // at launch, without the network
                session = restored
            } else {
                session = try await client.signIn(with: WebAuthenticationAgent { window }).session  // LoopbackBrowser() on a desktop
            }
            let (data, _) = try await URLSession.shared.data(
                for: URLRequest(url: URL(string: "https://api.example.com/me")!), authorizedBy: session)
            let report = await session.signOut()                                   // local data gone; revoked, or retried later
        }

        static func migration(client: AuthClient) async throws {
let migration = SessionMigration(
    from: .auth0(service: Bundle.main.bundleIdentifier!),   // or .gtmAppAuth(itemName: "auth"), .okta(), .appAuth(service:account:)
    in: KeychainStore(),
    earlierVersionRan: { UserDefaults.standard.object(forKey: "onboardingDone") != nil })
let session: AuthSession?
switch try await client.migrateSession(migration) {
case .migrated(let migrated): session = migrated
case .alreadyMigrated(let restored): session = restored
case .nothingToMigrate, .purgedPreviousInstall, .deferred: session = try await client.restoreSession()
}
            _ = session
        }

        static func universalLinkRedirect() -> String {
let preset = ProviderPreset.auth0(domain: "example.us.auth0.com")
var redirect = preset.redirectURI(bundleID: "com.example.app")             // custom scheme: every iOS version
if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *), let https = preset.httpsRedirectURI(bundleID: "com.example.app") {
    redirect = https                                                        // universal link: no other app can claim it
}
            return redirect
        }

        static func providerPreset() throws {
            let preset = ProviderPreset.auth0(domain: "example.us.auth0.com", audience: "https://api.example.com")
            let redirect = preset.redirectURI(bundleID: "com.example.app")  // register this in the provider's console
            let client = AuthClient(preset.configuration(
                clientID: "Ab12cd34", redirectURI: try RedirectURI(redirect), store: KeychainStore(), service: "com.example.app.tokens"))
            _ = client
        }
        static func entraMultiTenant() throws {
            let preset = try ProviderPreset.entraMultiTenant(allowedTenants: ["9188040d-6c67-4c5b-b112-36a304b66dad"])
            let client = AuthClient(preset.configuration(
                clientID: "00001111-aaaa-2222-bbbb-3333cccc4444", redirectURI: try RedirectURI("msauth.com.example.app://auth"),
                store: KeychainStore(), service: "com.example.app.tokens"))
            _ = client
        }
        @MainActor static func splitStorage() async throws {
            let store = SplitTokenStore(
                tokens: KeychainStore(accessibility: .afterFirstUnlockThisDeviceOnly),
                refreshTokens: KeychainStore(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet,
                                             prompt: "Unlock your account"))
        }

        static func appWithExtensions() async throws {
            let group = "group.com.example.app"
            guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else {
                return  // the App Groups entitlement is missing: fix the target's capabilities
            }
            let store = KeychainStore(
                accessibility: .afterFirstUnlockThisDeviceOnly,  // extensions run while the device is locked
                accessGroup: "TEAMID.com.example.app.shared",
                grantLock: FileGrantLock(directory: container.appendingPathComponent("warden-locks")))
            let client = AuthClient(.init(
                issuer: "https://id.example.com", clientID: "my-app",
                redirectURI: try RedirectURI("com.example.app:/oauth/callback"),
                store: store, service: "com.example.app.tokens",
                sentinel: InstallSentinel(appID: "com.example.app", appGroup: group)))
        }

        @MainActor static func webAuthentication(client: AuthClient, window: ASPresentationAnchor) async throws {
            let signIn = try await client.signIn(with: WebAuthenticationAgent { window })   // the whole chain, then stored
            let report = await client.signOut(signIn.session, endingBrowserSessionWith: WebAuthenticationAgent { window })
        }

        @MainActor static func endBrowserSession(
            client: AuthClient, signIn: AuthClient.SignIn, window: ASPresentationAnchor, showSignIn: () -> Void,
            showNotice: (String) -> Void
        ) async {
            let report = await client.signOut(signIn.session, endingBrowserSessionWith: WebAuthenticationAgent { window })
            switch report.browserSession {
            case .ended: showSignIn()                             // the provider came back with our state: its cookie is gone
            case .failed(let reason): showNotice("Signed out on this device; the provider's sign-in stays (\(reason)).")
            case .opened, .kept: showSignIn()
            }
        }

    }

    // Data at rest, wrapped by the Secure Enclave.
    enum DataAtRestSnippets {
        static func wrapped(support: URL) throws {
            let documents = try SealedStore(
                directory: support.appendingPathComponent("Documents"), keyStore: KeychainStore(),
                keyService: "com.example.app.documents",
                wrapper: SecureEnclaveKeyWrapper(tag: "com.example.app.documents.wrap"))
        }
    }

    // The iOS quickstart.
    @MainActor enum QuickstartSnippets {
        static func client() throws -> AuthClient {
            let (store, protection) = SessionStores.forThisDevice(prompt: "Unlock your account")
            let client = AuthClient(ProviderPreset.okta(issuer: "https://example.okta.com/oauth2/default").configuration(
                clientID: "0oa1b2c3d4", redirectURI: try RedirectURI("com.example.app:/callback"), store: store,
                service: "com.example.app.tokens"))
            _ = protection
            return client
        }
    }
#endif

#if WARDEN_UIKIT
    import SwiftUI
    import UIKit

    @MainActor func currentWindow() -> UIWindow {
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        return scenes.flatMap(\.windows).first(where: \.isKeyWindow) ?? UIWindow()
    }

    @MainActor struct AccountView: View {
        @StateObject private var account: SessionModel          // iOS 17: ObservableSessionModel with @State
        @State private var message = ""

        init(client: AuthClient) { _account = StateObject(wrappedValue: SessionModel(client: client)) }

        var body: some View {
            VStack {
                Text(message)
                switch account.state {
                case .signedIn, .degraded:                         // degraded: offline, read-only (.degraded(reason: .offline))
                    Text("Hello \((try? account.claims?.subject) ?? "")")   // who, from the ID token, offline too
                    Button("Sign out") { Task { await account.signOut() } }
                        .privacyMasked()
                case .signedOut(let reason):
                    if reason == .grantRejected || reason == .refreshTokenUnreadable { Text("Please sign in again") }
                    Button("Sign in") {
                        Task {
                            do { try await account.signIn(with: WebAuthenticationAgent { currentWindow() }) }
                            catch { message = "\(error)" }
                        }
                    }
                    .disabled(account.isWorking)
                }
            }
            .task { try? await account.restore() }  // no network needed; the state follows the session from then on
        }
    }

    final class QuickstartViewController: UIViewController {
        func signInTapped(client: AuthClient) async throws {
            guard let window = view.window else { return }
            let signIn = try await client.signIn(with: WebAuthenticationAgent { window })
            let (data, _) = try await URLSession.shared.data(
                for: URLRequest(url: URL(string: "https://api.example.com/me")!), authorizedBy: signIn.session)
            _ = data
        }
    }
    @available(iOS 16.4, macOS 13.3, macCatalyst 16.4, visionOS 1.0, *)
@MainActor struct SignInButton: View {
    @Environment(\.webAuthenticationSession) private var webAuthenticationSession
    let client: AuthClient
    let signedIn: (AuthSession) -> Void
    var body: some View {
        Button("Sign in") {
            Task {
                if let signIn = try? await client.signIn(with: WebAuthenticationSessionBrowser(webAuthenticationSession)) {
                    signedIn(signIn.session)
                }
            }
        }
    }
}
    @available(iOS 14.0, macOS 11.0, macCatalyst 14.0, visionOS 1.0, *)
@MainActor struct AppleSignInView: View {
    @State private var flow = AppleSignInButtonFlow()              // nonce, state, the checks: the coordinator's
    let send: (AppleIDSignIn) async throws -> Void                 // to your server: token, code, raw nonce, name once
    var body: some View {
        SignInWithAppleButton(.signIn, onRequest: flow.prepare, onCompletion: { result in
            Task {
                do { try await send(try flow.complete(result)) }
                catch let error as AppleAuthorizationError where error.code == .cancelled {}   // the user closed it
                catch { /* show error.reason */ }
            }
        })
    }
}
#endif
