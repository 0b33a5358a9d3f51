// The README's Apple-only examples, verbatim: compiled where WARDEN_APPLE is defined (Apple platforms). See
// Snippets.swift.
#if WARDEN_APPLE
    import Foundation
    import AuthenticationServices
    import WardenApple
    import WardenOAuth
    import WardenStorage

    enum AppleReadmeSnippets {
        @MainActor static func splitStorage() async throws {
            let store = SplitTokenStore(
                tokens: KeychainStore(accessibility: .afterFirstUnlockThisDeviceOnly),
                refreshTokens: KeychainStore(accessibility: .whenPasscodeSetThisDeviceOnly, accessControl: .biometryCurrentSet,
                                             prompt: "Unlock your account"))
        }

        @MainActor static func webAuthentication(metadata: ProviderMetadata, window: ASPresentationAnchor) async throws {
            let (url, pending) = try AuthorizationRequest(metadata: metadata, clientID: "app",
                redirectURI: try RedirectURI("com.example.app:/oauth/callback"), scopes: ["openid", "offline_access"]).make()
            let code = try await WebAuthenticationAgent(anchor: { window }).authorize(url: url, pending: pending)
            let tokens = try await TokenClient(metadata: metadata, clientID: "app", transport: URLSessionTransport()).exchange(code)
        }

    }
#endif
