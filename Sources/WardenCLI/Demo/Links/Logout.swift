import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenLocalProvider
import WardenOAuth
import WardenPasskeys
import WardenSession
import WardenStorage
import WardenTestSupport

extension DemoCommand {
    /// 7a. Sign-out that ends the provider's browser session too (RP-initiated logout), then another account.
    enum Logout: DemoLink {
        static let step: String? = "RP-initiated logout and switching accounts"
        static func links(in world: DemoWorld) async -> [Link] {
            [await logout(client: world.authClient, provider: world.provider, ledger: world.ledger)]
        }
    }

    /// Signs in as alice, shows that a plain sign-out leaves the provider's cookie (bob's sign-in comes back as
    /// alice), then signs out ending the browser session and signs in as bob: the provider's observations say what
    /// it verified and did.
    static func logout(client: AuthClient, provider: LocalProvider, ledger: SecretLedger) async -> Link {
        let name = "sign-out ends the browser session (RP-initiated logout), then another account"
        let browser = LoopbackBrowser(launcher: ScriptedUserAgent(), timeout: .seconds(20))
        func hint(_ account: String) -> AuthorizationParameters {
            var parameters = AuthorizationParameters()
            parameters.loginHint = account
            return parameters
        }
        do {
            var fresh = hint("alice")
            fresh.prompt = [.login]  // the browser still holds the tour's first user: re-authenticate as alice
            let alice = try await client.signIn(with: browser, parameters: fresh)
            let first = (try? alice.claims?.subject) ?? nil
            ledger.add(await alice.session.currentTokens?.accessToken.unredacted())
            await alice.session.signOut()
            let cookie = try await client.signIn(with: browser, parameters: hint("bob"))
            ledger.add(await cookie.session.currentTokens?.accessToken.unredacted())
            let sameUser = (try? cookie.claims?.subject) ?? nil
            let report = await client.signOut(cookie.session, endingBrowserSessionWith: browser)
            let logout = provider.observations.logout
            let bob = try await client.signIn(with: browser, parameters: hint("bob"))
            ledger.add(await bob.session.currentTokens?.accessToken.unredacted())
            let next = (try? bob.claims?.subject) ?? nil
            await bob.session.signOut()
            return Link(
                name: name,
                ok: first == "alice" && sameUser == "alice" && report.browserSession == .ended
                    && logout?.idTokenHintValid == true
                    && logout?.stateReturned == true && next == "bob",
                evidence:
                    "prompt=login + login_hint=alice → sub=\(first ?? "?"); plain signOut() kept the provider's cookie: a sign-in with login_hint=bob came back as \(sameUser ?? "?"); signOut(_:endingBrowserSessionWith:) → \(report.browserSession); the provider verified the id_token_hint: \(logout?.idTokenHintValid ?? false), sent the browser to \(logout?.redirectedTo ?? "nowhere") with the state: \(logout?.stateReturned ?? false), ended its session: \(logout?.browserSessionEnded ?? false); the next sign-in with login_hint=bob → sub=\(next ?? "?")"
            )
        } catch {
            return Link(name: name, ok: false, evidence: "\(error)")
        }
    }
}
