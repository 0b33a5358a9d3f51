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
    /// 8b. Pushed authorization requests and DPoP-bound tokens.
    enum PARAndDPoP: DemoLink {
        static let step: String? = "pushed authorization request and DPoP-bound tokens"
        static func links(in world: DemoWorld) async -> [Link] {
            await parAndDPoP(provider: world.provider, transport: world.transport, ledger: world.ledger)
        }
    }

    /// RFC 9126 and RFC 9449 on the embedded provider: a sign-in whose front channel carries only `client_id` and
    /// `request_uri`, then DPoP-bound tokens that work with their key and are refused replayed, for another URL and
    /// without the key.
    static func parAndDPoP(provider: LocalProvider, transport: any HTTPTransport, ledger: SecretLedger) async -> [Link]
    {
        var links: [Link] = []
        let parName = "PAR request (RFC 9126)"
        let dpopName = "DPoP-bound tokens (RFC 9449)"
        do {
            provider.requirePushedAuthorizationRequests = true
            provider.requireDPoPNonce = true
            defer {
                provider.requirePushedAuthorizationRequests = false
                provider.requireDPoPNonce = false
            }
            let dpop = DPoPBinding(key: try SoftwareDPoPKey())
            var configuration = AuthClient.Configuration(
                issuer: provider.issuer, clientID: provider.clientID,
                redirectURI: try RedirectURI("http://127.0.0.1/callback"), scopes: ["openid", "profile"],
                store: InMemoryStore(), service: "dev.warden.demo.dpop", transport: transport)
            configuration.dpop = dpop
            let pushedBefore = provider.count("authorize.pushed")
            let signIn = try await AuthClient(configuration).signIn(
                with: LoopbackBrowser(launcher: ScriptedUserAgent(), timeout: .seconds(20)))
            guard let tokens = await signIn.session.currentTokens else { throw CLIError.rejected("demo", "no tokens") }
            ledger.add(tokens.accessToken.unredacted(), tokens.refreshToken?.unredacted(), tokens.idToken?.unredacted())
            let pushed = provider.count("authorize.pushed") - pushedBefore
            links.append(
                Link(
                    name: parName, ok: pushed == 1,
                    evidence:
                        "the provider requires PAR; parameters pushed to \(provider.issuer)/par, the browser opened only client_id + request_uri (one-time, 60 s); \(pushed) pushed authorization(s) served"
                ))
            let api = URL(string: provider.issuer + "/api/resource")!
            let token = tokens.accessToken.unredacted()
            let bound = tokens.dpopThumbprint == dpop.thumbprint
            let withKey = try await AuthorizedClient(session: signIn.session, transport: transport).send(
                HTTPRequest(url: api)
            ).status
            let proof = try dpop.proof(method: "GET", url: api, accessToken: token)
            let headers = ["Authorization": "DPoP " + token, "DPoP": proof]
            let first = try await transport.send(HTTPRequest(url: api, headers: headers)).status
            let replayed = try await transport.send(HTTPRequest(url: api, headers: headers)).status
            let elsewhere = try dpop.proof(
                method: "GET", url: URL(string: provider.issuer + "/userinfo")!, accessToken: token)
            let otherURL = try await transport.send(
                HTTPRequest(url: api, headers: ["Authorization": "DPoP " + token, "DPoP": elsewhere])
            ).status
            let withoutKey = try await transport.send(
                HTTPRequest(url: api, headers: ["Authorization": "Bearer " + token])
            ).status
            let challenges = provider.count("dpop.refused.use_dpop_nonce")
            links.append(
                Link(
                    name: dpopName,
                    ok: bound && withKey == 200 && first == 200 && replayed == 401 && otherURL == 401
                        && withoutKey == 401 && challenges >= 1,
                    evidence:
                        "token_type DPoP bound to jkt \(dpop.thumbprint.prefix(10))…, nonce challenge answered (\(challenges) use_dpop_nonce); API with its key → \(withKey); replayed proof → \(replayed); proof for another URL → \(otherURL); token without its key (Bearer) → \(withoutKey)"
                ))
        } catch {
            if links.isEmpty { links.append(Link(name: parName, ok: false, evidence: "\(error)")) }
            links.append(Link(name: dpopName, ok: false, evidence: "\(error)"))
        }
        return links
    }
}
