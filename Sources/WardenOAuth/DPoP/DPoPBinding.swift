import Foundation
import WardenCore
import WardenCrypto

/// A client's DPoP state: its key, and the latest `DPoP-Nonce` of each origin (the authorization server and every
/// resource server apart, RFC 9449 §8, §9). Token requests, refreshes and `AuthorizedClient` sign every request
/// through it and refresh the nonces from every response.
///
/// ```swift
/// let dpop = DPoPBinding(key: try SoftwareDPoPKey())
/// let client = TokenClient(metadata: metadata, clientID: "app", transport: transport, dpop: dpop)
/// ```
///
/// Thread-safety: nonces behind a lock; the key is immutable.
public final class DPoPBinding: Sendable {
    /// The key every proof is signed with.
    public let key: any DPoPKey
    let factory: DPoPProofFactory
    private let nonces = Locked<[String: String]>([:])

    /// A binding for `key`, with no nonces yet; `random` and `now` feed the proofs' `jti` and `iat`.
    public init(key: any DPoPKey, random: some RandomSource = SecureRandom(), now: @escaping NowProvider = systemNow) {
        self.key = key
        factory = DPoPProofFactory(key: key, random: random, now: now)
    }

    /// The RFC 7638 thumbprint of the key (`dpop_jkt`, `cnf.jkt`).
    public var thumbprint: String { key.thumbprint }

    /// `scheme://host:port` of `url`, the unit nonces are kept per.
    static func origin(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// The nonce last issued by `url`'s origin.
    public func nonce(for url: URL) -> String? { nonces.current[Self.origin(url)] }

    /// Keeps the `DPoP-Nonce` of a response (any status) for its origin; returns whether it changed.
    @discardableResult
    public func record(_ response: HTTPResponse, from url: URL) -> Bool {
        guard let nonce = response.header("DPoP-Nonce"), !nonce.isEmpty, nonce.utf8.count <= 1024,
            nonce.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return false }
        return nonces.withLock { table in
            let origin = Self.origin(url)
            defer { table[origin] = nonce }
            return table[origin] != nonce
        }
    }

    /// The `DPoP` header value for a request (with `ath` when presenting `accessToken`).
    public func proof(method: String, url: URL, accessToken: String? = nil) throws -> String {
        try factory.proof(method: method, url: url, accessToken: accessToken, nonce: nonce(for: url))
    }

    /// Whether `response` asks for a fresh nonce: a 400 `use_dpop_nonce` error body (authorization server) or a 401
    /// `WWW-Authenticate: DPoP error="use_dpop_nonce"` (resource server).
    public static func asksForNonce(_ response: HTTPResponse) -> Bool {
        if response.status == 401, let challenge = response.header("WWW-Authenticate")?.lowercased() {
            return challenge.hasPrefix("dpop") && challenge.contains("use_dpop_nonce")
        }
        guard response.status == 400 else { return false }
        return String(decoding: response.body.prefix(4096), as: UTF8.self).contains("\"use_dpop_nonce\"")
    }
}
