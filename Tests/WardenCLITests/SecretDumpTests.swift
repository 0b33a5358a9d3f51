import Foundation
import Testing
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenOAuth
import WardenSession
import WardenStorage
import WardenTestSupport

/// Every public type that holds a secret, printed every way Swift prints: `print`/interpolation, `debugPrint`,
/// `dump` and `Mirror` children. None may show the secret (or a 12-character piece of it).
@Suite("Secrets never print")
struct SecretDumpTests {
    static let secrets = [
        "consumer-secret-5f4dcc3b5aa765d61d8327deb882cf99", "token-secret-9f86d081884c7d659a2feaa0c55ad015",
        "verifier-2c26b46b68ffc68ff99b453c1d30413413422d70", "access-token-e3b0c44298fc1c149afbf4c8996fb924",
        "refresh-token-a665a45920422f9d417e4867efdc4fb8a04a1f", "id-token-eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0.sig",
    ]

    /// Every way a value becomes text.
    static func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        let children = Mirror(reflecting: value).children.map { "\($0.label ?? ""): \($0.value)" }.joined(
            separator: ", ")
        return ["\(value)", String(describing: value), String(reflecting: value), dumped, children]
    }

    static func leaks(_ value: Any, secrets: [String]) -> [SecretCanary.Leak] {
        let canary = SecretCanary(secrets: secrets)
        return renderings(value).flatMap { canary.leaks(in: [$0]) }
    }

    @Test func oauth1SignersAndTheirMethods() throws {
        let rsa = try RSAPrivateKey(generatingBits: 2048)
        let pem = rsa.pkcs8PEM().unredacted()
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let methods: [OAuth1Signer.Method] = [
            .hmacSHA1(consumerSecret: Self.secrets[0]), .hmacSHA256(consumerSecret: Self.secrets[0]),
            .hmacSHA512(consumerSecret: Self.secrets[0]), .plaintext(consumerSecret: Self.secrets[0]),
            .rsaSHA1(rsa), .rsaSHA256(rsa),
        ]
        for method in methods {
            let signer = OAuth1Signer(
                consumerKey: "key", method: method, token: "token", tokenSecret: Self.secrets[1],
                verifier: Self.secrets[2])
            #expect(Self.leaks(signer, secrets: Array(Self.secrets[0...2]) + [body]).isEmpty, "\(method)")
            #expect(Self.leaks(method, secrets: [Self.secrets[0], body]).isEmpty, "\(method)")
        }
    }

    @Test func tokensSessionsAndRequests() throws {
        let tokens = TokenSet(
            accessToken: Self.secrets[3], refreshToken: Self.secrets[4], idToken: Self.secrets[5],
            expiresAt: Date(), scope: "openid", issuer: "https://id.example.com")
        let response = TokenResponse(
            accessToken: Self.secrets[3], expiresIn: 3600, refreshToken: Self.secrets[4], idToken: Self.secrets[5],
            scope: nil)
        let metadata = try ProviderMetadata(
            issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/a")!,
            tokenEndpoint: URL(string: "https://id.example.com/t")!)
        let (_, pending) = try AuthorizationRequest(
            metadata: metadata, clientID: "app", redirectURI: try RedirectURI("com.example.app:/cb")
        ).make()
        let code = try pending.validate(
            "com.example.app:/cb?code=\(Self.secrets[2])&state=\(pending.state.unredacted())")
        let pkce = try PKCE()
        let nonce = try AppleSignInNonce()
        let perValue: [(Any, [String])] = [
            (tokens, Array(Self.secrets[3...5])), (response, Array(Self.secrets[3...5])),
            (pending, [pending.state.unredacted(), pending.pkce.verifier.unredacted(), pending.nonce!.unredacted()]),
            (code, [Self.secrets[2], pending.pkce.verifier.unredacted()]), (pkce, [pkce.verifier.unredacted()]),
            (nonce, [nonce.raw.unredacted()]), (Redacted(Self.secrets[0]), [Self.secrets[0]]),
        ]
        for (value, secrets) in perValue {
            #expect(Self.leaks(value, secrets: secrets).isEmpty, "\(type(of: value))")
        }
    }

    @Test func privateKeys() throws {
        let keys: [(Any, String)] = [
            (try RSAPrivateKey(generatingBits: 2048), "rsa"), (try ECPrivateKey(curve: .p256), "ec"),
        ]
        for (key, name) in keys {
            let pem =
                (key as? RSAPrivateKey)?.pkcs8PEM().unredacted() ?? (key as! ECPrivateKey).pkcs8PEM().unredacted()
            let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            #expect(Self.leaks(key, secrets: [body]).isEmpty, "\(name)")
        }
        let seed = try SecureRandom().bytes(count: 32)
        let ed = try Ed25519PrivateKey(seed: seed)
        let hex = seed.map { String(format: "%02x", $0) }.joined()
        #expect(Self.leaks(ed, secrets: [hex, Data(seed).base64EncodedString()]).isEmpty)
    }

    /// The check itself can fail: a plain struct holding the secret is caught.
    @Test func theCheckCatchesAPlainSecret() {
        struct Leaky { let secret: String }
        #expect(!Self.leaks(Leaky(secret: Self.secrets[0]), secrets: [Self.secrets[0]]).isEmpty)
    }
}
