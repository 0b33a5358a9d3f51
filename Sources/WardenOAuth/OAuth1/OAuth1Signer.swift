import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OAuth 1.0a request signing (RFC 5849) for providers that still require it.
///
/// The signature base string follows §3.4.1 exactly: the method upper-cased; the base string URI with scheme and
/// host lower-cased, default ports removed, no query or fragment; parameters from the query, from the body only
/// when it is `application/x-www-form-urlencoded`, and the `oauth_*` protocol parameters (not `oauth_signature`,
/// not `realm`); `+` in form data decodes to a space; every name and value percent-encoded with the RFC 3986
/// unreserved set, sorted by name then value, duplicates kept. Secrets print `<redacted>`.
///
/// ```swift
/// let signer = OAuth1Signer(consumerKey: "key", method: .hmacSHA1(consumerSecret: "secret"),
///                           token: "token", tokenSecret: "token-secret")
/// let header = try signer.authorizationHeader(method: "GET", url: "https://api.example.com/1.1/statuses?count=5")
/// request.setValue(header, forHTTPHeaderField: "Authorization")
/// ```
public struct OAuth1Signer: Sendable, CustomStringConvertible, CustomReflectable {
    /// The signature method and the key material it needs. Printing or dumping it never shows the secret.
    public enum Method: Sendable, CustomStringConvertible, CustomReflectable {
        /// `HMAC-SHA1` (RFC 5849 §3.4.2), keyed with the encoded consumer secret and token secret joined by `&`.
        case hmacSHA1(consumerSecret: String)
        /// `HMAC-SHA256`: as ``hmacSHA1(consumerSecret:)``, with SHA-256.
        case hmacSHA256(consumerSecret: String)
        /// `HMAC-SHA512`: as ``hmacSHA1(consumerSecret:)``, with SHA-512.
        case hmacSHA512(consumerSecret: String)
        /// `RSA-SHA1` (RFC 5849 §3.4.3): an RSA PKCS #1 v1.5 signature with SHA-1 by the given private key.
        case rsaSHA1(RSAPrivateKey)
        /// `RSA-SHA256`: an RSA PKCS #1 v1.5 signature with SHA-256 by the given private key.
        case rsaSHA256(RSAPrivateKey)
        /// `PLAINTEXT` (RFC 5849 §3.4.4): the signature is the encoded consumer secret and token secret joined by `&`,
        /// so the secrets travel as they are.
        case plaintext(consumerSecret: String)

        var name: String {
            switch self {
            case .hmacSHA1: "HMAC-SHA1"
            case .hmacSHA256: "HMAC-SHA256"
            case .hmacSHA512: "HMAC-SHA512"
            case .rsaSHA1: "RSA-SHA1"
            case .rsaSHA256: "RSA-SHA256"
            case .plaintext: "PLAINTEXT"
            }
        }

        public var description: String { "\(name) (<redacted>)" }
        public var customMirror: Mirror { Mirror(self, children: ["name": name, "secret": "<redacted>"]) }
    }

    /// What the signer keeps: the consumer secret only as ``Redacted`` (never in `dump`, `print` or a crash log).
    enum Key: Sendable {
        case hmac(HashFunction, Redacted<String>)
        case rsa(HashFunction, RSAPrivateKey)
        case plaintext(Redacted<String>)
    }

    /// `oauth_consumer_key`, the client's identifier.
    public let consumerKey: String
    let methodName: String
    let key: Key
    /// `oauth_token`, the token credential's identifier, sent when set.
    public let token: String?
    let tokenSecret: Redacted<String>?
    /// `realm`, first in the `Authorization` header when set; never part of the signature base string.
    public let realm: String?
    /// `oauth_callback`, sent when set (the temporary-credential request, RFC 5849 §2.1).
    public let callback: String?
    let verifier: Redacted<String>?
    /// Include `oauth_version="1.0"` (default true, as most providers and libraries expect).
    public let includeVersion: Bool
    let random: any RandomSource
    let now: NowProvider

    /// A signer for `consumerKey` with `method` and its key; `token` and `tokenSecret` are the token credentials,
    /// `callback` and `verifier` are sent as `oauth_callback` and `oauth_verifier`, `realm` goes in the header.
    /// `random` makes the nonces and `now` the timestamps.
    public init(
        consumerKey: String, method: Method, token: String? = nil, tokenSecret: String? = nil, realm: String? = nil,
        callback: String? = nil, verifier: String? = nil, includeVersion: Bool = true,
        random: some RandomSource = SecureRandom(), now: @escaping NowProvider = systemNow
    ) {
        self.now = now
        self.consumerKey = consumerKey
        methodName = method.name
        switch method {
        case .hmacSHA1(let secret): key = .hmac(.sha1, Redacted(secret))
        case .hmacSHA256(let secret): key = .hmac(.sha256, Redacted(secret))
        case .hmacSHA512(let secret): key = .hmac(.sha512, Redacted(secret))
        case .rsaSHA1(let rsa): key = .rsa(.sha1, rsa)
        case .rsaSHA256(let rsa): key = .rsa(.sha256, rsa)
        case .plaintext(let secret): key = .plaintext(Redacted(secret))
        }
        self.token = token
        self.tokenSecret = tokenSecret.map(Redacted.init)
        self.realm = realm
        self.callback = callback
        self.verifier = verifier.map(Redacted.init)
        self.includeVersion = includeVersion
        self.random = random
    }

    public var description: String { "OAuth1Signer(\(methodName), consumer_key: \(consumerKey), secrets: <redacted>)" }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": methodName, "consumerKey": consumerKey, "token": token as Any, "realm": realm as Any,
                "secrets": "<redacted>",
            ])
    }

    static func encode(_ value: String) -> String { FormEncoding.percentEncode(value) }

    /// The `oauth_*` parameters for one request (without the signature).
    func protocolParameters(nonce: String, timestamp: String) -> [(String, String)] {
        var parameters = [
            ("oauth_consumer_key", consumerKey), ("oauth_signature_method", methodName),
            ("oauth_timestamp", timestamp),
            ("oauth_nonce", nonce),
        ]
        if let token { parameters.append(("oauth_token", token)) }
        if let callback { parameters.append(("oauth_callback", callback)) }
        if let verifier { parameters.append(("oauth_verifier", verifier.unredacted())) }
        if includeVersion { parameters.append(("oauth_version", "1.0")) }
        return parameters
    }

    /// The signature base string (RFC 5849 §3.4.1).
    public static func baseString(method: String, url: String, body: String?, protocolParameters: [(String, String)])
        throws(OAuthError) -> String
    {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty, scheme == "http" || scheme == "https"
        else { throw OAuthError(.invalidConfiguration, "the URL is not an absolute http(s) URL") }
        var base = "\(scheme)://\(host)"
        if let port = components.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            base += ":\(port)"
        }
        let path = components.percentEncodedPath
        base += path.isEmpty ? "/" : path
        var parameters = try FormEncoding.decode(components.percentEncodedQuery ?? "")
        if let body { parameters += try FormEncoding.decode(body) }
        // RFC 5849 §3.4.1.3.1: oauth_signature is excluded from every source (query and body too); realm only
        // comes from the header.
        parameters = parameters.filter { $0.0 != "oauth_signature" }
        parameters += protocolParameters.filter { $0.0 != "oauth_signature" && $0.0 != "realm" }
        let encoded: [(String, String)] = parameters.map { (encode($0.0), encode($0.1)) }
        let sorted = encoded.sorted { (a: (String, String), b: (String, String)) -> Bool in
            a.0 == b.0 ? a.1 < b.1 : a.0 < b.0
        }
        let normalized = sorted.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return method.uppercased() + "&" + encode(base) + "&" + encode(normalized)
    }

    /// The signature for `baseString` (RFC 5849 §3.4.2–3.4.4).
    func signature(_ baseString: String) throws -> String {
        let tokenSecret = self.tokenSecret?.unredacted() ?? ""
        func signingKey(_ consumerSecret: String) -> [UInt8] {
            Array((Self.encode(consumerSecret) + "&" + Self.encode(tokenSecret)).utf8)
        }
        let input = Array(baseString.utf8)
        switch key {
        case .hmac(let hash, let secret):
            return Data(HMAC.authenticationCode(for: input, key: signingKey(secret.unredacted()), hash: hash))
                .base64EncodedString()
        case .rsa(let hash, let rsa): return Data(try rsa.signature(for: input, hash: hash)).base64EncodedString()
        case .plaintext(let secret): return String(decoding: signingKey(secret.unredacted()), as: UTF8.self)
        }
    }

    /// The `Authorization: OAuth ...` header value. `body` is signed only when `contentType` is
    /// `application/x-www-form-urlencoded` (a JSON or multipart body is sent but not signed, as §3.4.1.3.1 says).
    public func authorizationHeader(
        method httpMethod: String, url: String, body: String? = nil,
        contentType: String? = "application/x-www-form-urlencoded", nonce: String? = nil, timestamp: String? = nil
    ) throws -> String {
        let nonce =
            try nonce
            ?? Base64URL.encode(random.bytes(count: 16)).replacingOccurrences(of: "-", with: "x").replacingOccurrences(
                of: "_", with: "y")
        let timestamp = timestamp ?? String(Int(now().timeIntervalSince1970))
        var parameters = protocolParameters(nonce: nonce, timestamp: timestamp)
        let isForm = contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
        // RFC 5849 §3.5: protocol parameters travel in one place. This signer sends them in the header, so one in
        // the query or the form body would be signed and sent twice — and could override the header's at a lenient
        // server. Refused, naming none of the values. (Other `oauth_`-named parameters are the request's own.)
        let query = URLComponents(string: url)?.percentEncodedQuery ?? ""
        let sources = try FormEncoding.decode(query) + (isForm ? try FormEncoding.decode(body ?? "") : [])
        let protocolNames = Set(parameters.map(\.0) + ["oauth_signature"])
        if let name = sources.first(where: { protocolNames.contains($0.0) })?.0 {
            throw OAuthError(
                .invalidConfiguration,
                "\(name) is in the query or body: protocol parameters go in the Authorization header only")
        }
        let base = try Self.baseString(
            method: httpMethod, url: url, body: isForm ? body : nil, protocolParameters: parameters)
        parameters.append(("oauth_signature", try signature(base)))
        var fields = parameters.sorted { $0.0 < $1.0 }.map { "\(Self.encode($0.0))=\"\(Self.encode($0.1))\"" }
        if let realm { fields.insert("realm=\"\(Self.encode(realm))\"", at: 0) }
        return "OAuth " + fields.joined(separator: ", ")
    }

    /// Signs a `URLRequest` in place (its method, URL and form body).
    public func sign(_ request: inout URLRequest) throws {
        guard let url = request.url?.absoluteString else {
            throw OAuthError(.invalidConfiguration, "the request has no URL")
        }
        let body = request.httpBody.map { String(decoding: $0, as: UTF8.self) }
        let header = try authorizationHeader(
            method: request.httpMethod ?? "GET", url: url, body: body,
            contentType: request.value(forHTTPHeaderField: "Content-Type"))
        request.setValue(header, forHTTPHeaderField: "Authorization")
    }
}
