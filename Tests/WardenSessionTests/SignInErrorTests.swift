import Foundation
import Testing
import WardenCore
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

/// `signIn(with:)` throws one type an app can switch over, whatever failed: the store, the task, or a browser of
/// another library.
@Suite("Sign-in errors are OAuthError", .serialized)
struct SignInErrorTests {
    static let redirect = "com.example.app:/oauth/callback"

    /// A store whose writes fail as a locked device's do.
    struct LockedStore: DelegatingStore {
        let inner = InMemoryStore()
        func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            throw StorageError(.interactionNotAllowed, "the device is locked")
        }
    }

    struct ThrowingBrowser: AuthorizationBrowser {
        let error: any Error & Sendable
        func authorize(_ request: AuthorizationRequest, requireIssuer: Bool) async throws -> AuthorizationCode {
            throw error
        }
    }

    struct ForeignError: Error, CustomStringConvertible {
        var description: String { "https://provider.example/cb?code=SECRET-CODE" }
    }

    static func client(_ provider: LocalProvider, store: any CredentialStore) throws -> AuthClient {
        AuthClient(
            .init(
                issuer: provider.issuer, clientID: provider.clientID, redirectURI: try RedirectURI(redirect),
                scopes: ["openid", "offline_access"], store: store, service: "svc", account: "alice"))
    }

    @Test func aStoreThatCannotWriteIsStorageFailedWithTheStoresError() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: [Self.redirect])
        defer { provider.stop() }
        let client = try Self.client(provider, store: LockedStore())
        let error = await #expect(throws: OAuthError.self) {
            try await client.signIn(with: ScriptedBrowser(transport: URLSessionTransport()))
        }
        #expect(error?.code == .storageFailed && error?.failureKind == .transient)
        #expect((error?.underlying as? StorageError)?.code == .interactionNotAllowed)
    }

    @Test func browserFailuresOfEveryKindAreTyped() async throws {
        let provider = try LocalProvider(clientID: "app", redirectURIs: [Self.redirect])
        defer { provider.stop() }
        let client = try Self.client(provider, store: InMemoryStore())
        let cases: [(any Error & Sendable, OAuthError.Code)] = [
            (CancellationError(), .cancelled),
            (OAuthError(.accessDenied, "no"), .accessDenied),
            (TransportError(.notConnected, "offline"), .network),
            (InputError(.tooLong, "bad"), .browserFailed),
            (ForeignError(), .browserFailed),
        ]
        for (thrown, code) in cases {
            let error = await #expect(throws: OAuthError.self) {
                try await client.signIn(with: ThrowingBrowser(error: thrown))
            }
            #expect(error?.code == code, "\(thrown)")
            #expect(error.map { !"\($0)".contains("SECRET-CODE") } ?? false, "another library's text stays out")
        }
    }
}
