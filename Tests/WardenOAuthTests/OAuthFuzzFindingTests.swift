import Foundation
import Testing
import WardenCore

@_spi(Fuzzing) @testable import WardenOAuth

/// Regressions for what FuzzCallback, FuzzOAuth1 and FuzzLoopbackRequest found (Fuzz/RESULTS.md).
@Suite("Fuzz findings: OAuth")
struct OAuthFuzzFindingTests {
    /// The credentials-in-the-fragment rule ran only when the whole fragment decoded.
    @Test func anUndecodableFragmentIsRefused() throws {
        let metadata = try ProviderMetadata(
            issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/a")!,
            tokenEndpoint: URL(string: "https://id.example.com/t")!)
        let (_, pending) = try AuthorizationRequest(
            metadata: metadata, clientID: "app", redirectURI: try RedirectURI("com.example.app:/oauth/callback")
        ).make()
        let state = pending.state.unredacted()
        let callback = "com.example.app:/oauth/callback?code=abc&state=\(state)#code=x&%"
        #expect(throws: OAuthError.self) { try pending.validate(callback) }
        let idToken = "com.example.app:/oauth/callback?code=abc&state=\(state)#id_token=x"
        #expect(throws: OAuthError(.codeInFragment)) { try pending.validate(idToken) }
    }

    /// RFC 5849 §3.4.1.3.1 excludes oauth_signature from every source, the query and the body included.
    @Test func oauthSignatureInTheQueryOrBodyIsNotSigned() throws {
        let plain = try OAuth1Signer.baseString(
            method: "POST", url: "https://api.example.com/x?a=1", body: "b=2",
            protocolParameters: [("oauth_consumer_key", "k")])
        let injected = try OAuth1Signer.baseString(
            method: "POST", url: "https://api.example.com/x?a=1&oauth_signature=forged", body: "b=2&oauth_signature=z",
            protocolParameters: [("oauth_consumer_key", "k")])
        #expect(plain == injected)
    }

    /// A head of 16,382-16,384 bytes was accepted in one read but refused when a read ended inside its blank line.
    @Test(arguments: [16_380, 16_381, 16_382, 16_383, 16_384, 16_385])
    func theHeadCapDoesNotDependOnHowTheBytesArrive(_ headBytes: Int) {
        let line = "GET / HTTP/1.1\r\nX: "
        let request = line + String(repeating: "a", count: max(0, headBytes - line.utf8.count)) + "\r\n\r\n"
        let bytes = Array(request.utf8)
        var whole = LoopbackRequestParser()
        let once = whole.feed(bytes)
        var split = LoopbackRequestParser()
        var bytewise: LoopbackRequestParser.State = .needMore
        for byte in bytes {
            bytewise = split.feed([byte])
            if case .needMore = bytewise { continue }
            break
        }
        #expect(Self.summary(once) == Self.summary(bytewise), "\(headBytes) bytes")
    }

    static func summary(_ state: LoopbackRequestParser.State) -> String {
        switch state {
        case .needMore: "more"
        case .complete: "complete"
        case .failed(let failure): "failed \(failure.status)"
        }
    }
}
