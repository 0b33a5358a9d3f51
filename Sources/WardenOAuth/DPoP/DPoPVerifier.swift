import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

/// Server-side verification of a DPoP proof (RFC 9449 §4.3, §7.1), for Swift resource servers and token
/// endpoints. Checks, in order, each with its own ``DPoPError`` code: a compact JWS of at most 8 KiB; `typ` is
/// `dpop+jwt`; `alg` is in the asymmetric allowlist; `jwk` is a public key (no private members) that fits `alg`;
/// the signature; `htm` and `htu` equal the request's (both normalised as RFC 9449 §4.3 says: scheme and host lowercased, default port dropped, no query or fragment); `jti`/`iat` present;
/// `iat` within the window (no more than `leeway` in the future, no older than `maxAge`); the `jti` not seen before
/// (``DPoPReplayCache``); the expected `nonce`; `ath` against the presented access token; and the token's
/// `cnf.jkt` against the proof key's thumbprint.
///
/// ```swift
/// let verifier = DPoPVerifier(replayCache: InMemoryDPoPReplayCache())
/// let proof = try await verifier.verify(request.headers["DPoP"]!, method: "GET", url: requestURL,
///                                      accessToken: token, boundThumbprint: claims.cnfJKT)
/// ```
public struct DPoPVerifier: Sendable {
    /// The largest proof accepted, in bytes (8 KiB).
    public static let maximumProofBytes = 8 * 1024
    /// The `alg` values accepted: the asymmetric ones among those given to
    /// ``init(replayCache:allowedAlgorithms:maxAge:leeway:now:)``.
    public let allowedAlgorithms: Set<JWSAlgorithm>
    /// How old `iat` may be, in seconds (default 300); also how long a `jti` is remembered, with ``leeway``.
    public let maxAge: TimeInterval
    /// How far in the future `iat` may be, in seconds (default 5).
    public let leeway: TimeInterval
    let replayCache: any DPoPReplayCache
    let now: NowProvider
    /// Parsed proof keys by their JSON (a client signs every proof with the same key; parsing and validating the
    /// point is most of a verification's cost otherwise).
    let keys = DPoPKeyCache()

    /// What a valid proof says.
    public struct Proof: Sendable {
        /// The RFC 7638 thumbprint of the proof's `jwk`: what a bound token's `cnf.jkt` must equal.
        public let thumbprint: String
        /// The proof's `jti` (at most 256 bytes), now recorded in the replay cache.
        public let jti: String
        /// The proof's `iat`.
        public let issuedAt: Date
        /// The proof's `nonce`, if it carries one.
        public let nonce: String?
    }

    /// A verifier recording `jti`s in `replayCache`. `allowedAlgorithms` is narrowed to the asymmetric algorithms;
    /// `maxAge` (default 300 seconds) and `leeway` (default 5 seconds) bound `iat`.
    public init(
        replayCache: any DPoPReplayCache,
        allowedAlgorithms: Set<JWSAlgorithm> = [.es256, .es384, .es512, .ps256, .rs256, .edDSA, .ed25519],
        maxAge: TimeInterval = 300, leeway: TimeInterval = 5, now: @escaping NowProvider = systemNow
    ) {
        self.replayCache = replayCache
        self.allowedAlgorithms = allowedAlgorithms.intersection(JWSAlgorithm.asymmetric)
        self.maxAge = maxAge
        self.leeway = leeway
        self.now = now
    }

    static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// Verifies `proof` for the request's `method` and `url` with the checks above and returns what it says. Pass
    /// `expectedNonce` to require that server-issued nonce, `accessToken` to check `ath`, and `boundThumbprint` (the
    /// token's `cnf.jkt`) to check the key. Throws the ``DPoPError`` of the first check that fails; the `jti` is
    /// recorded in the replay cache only when every other check passed.
    public func verify(
        _ proof: String, method: String, url: URL, expectedNonce: String? = nil, accessToken: String? = nil,
        boundThumbprint: String? = nil
    ) async throws(DPoPError) -> Proof {
        let jws: JWSCompact
        do { jws = try JWSCompact(proof, maximumBytes: Self.maximumProofBytes) } catch {
            if error.code == .algNone || error.code == .unsupportedAlgorithm {
                throw DPoPError(.algorithmNotAllowed, "the proof's alg is not an allowed signature algorithm")
            }
            throw DPoPError(.malformed, "not a compact JWS: \(error.reason)")
        }
        guard jws.header.type?.lowercased() == "dpop+jwt" else { throw DPoPError(.wrongType, "typ must be dpop+jwt") }
        guard allowedAlgorithms.contains(jws.header.algorithm) else {
            throw DPoPError(.algorithmNotAllowed, "\(jws.header.algorithm) is not allowed for DPoP")
        }
        guard let jwkObject = jws.header.object["jwk"]?.objectValue else {
            throw DPoPError(.badKey, "the header has no jwk object")
        }
        if let member = jwkObject.names.first(where: Self.privateMembers.contains) {
            throw DPoPError(.privateKey, "the jwk carries the private member '\(member)'")
        }
        let jwk = try keys.key(for: jwkObject)
        // The key is the sender's choice: an RSA key far costlier to verify than a real one is refused unverified.
        do { try jwk.publicKey?.checkUntrustedCost() } catch {
            throw DPoPError(.badKey, error.reason)
        }
        // The claims that cost nothing are checked before the signature (RFC 9449 §4.3 sets no order): a proof for
        // another request, or from outside the time window, costs the verifier no public-key operation.
        let claims: JSONObject
        do { claims = try JSONReader(maximumBytes: 4096, maximumDepth: 4).parseObject(jws.payload) } catch {
            throw DPoPError(.malformed, "the claims are not a JSON object")
        }
        func string(_ name: String) throws(DPoPError) -> String? {
            guard let value = claims[name] else { return nil }
            guard let text = value.stringValue else { throw DPoPError(.malformed, "\(name) is not a string") }
            return text
        }
        guard let jti = try string("jti"), !jti.isEmpty, let htm = try string("htm"), let htu = try string("htu")
        else { throw DPoPError(.missingClaim, "jti, htm and htu are required") }
        guard jti.utf8.count <= 256 else { throw DPoPError(.malformed, "jti is over 256 bytes") }
        guard let iatNumber = claims["iat"]?.numberValue, let iat = iatNumber.int64 else {
            throw DPoPError(.missingClaim, "iat is required (an integer)")
        }
        guard CodePoints.equal(htm, method.uppercased()) else {
            throw DPoPError(.methodMismatch, "htm \(htm) is not \(method)")
        }
        guard let expected = DPoPURL.normalize(url), DPoPURL.normalize(htu) == expected else {
            throw DPoPError(.urlMismatch, "htu does not name this request's URL")
        }
        let current = now()
        let issued = Date(timeIntervalSince1970: TimeInterval(iat))
        guard issued.timeIntervalSince(current) <= leeway, current.timeIntervalSince(issued) <= maxAge else {
            throw DPoPError(.iatOutOfWindow, "iat is outside the accepted window")
        }
        let valid: Bool
        do { valid = try JWSVerifier.signatureIsValid(jws, algorithm: jws.header.algorithm, key: jwk) } catch {
            throw error.code == .invalidSignature
                ? DPoPError(.invalidSignature, "the proof's signature does not verify")
                : DPoPError(.badKey, "\(jws.header.algorithm) cannot be verified with the jwk (\(error.codeName))")
        }
        guard valid else { throw DPoPError(.invalidSignature, "the proof's signature does not verify") }
        let nonce = try string("nonce")
        if let expectedNonce {
            guard let nonce else { throw DPoPError(.nonceRequired, "a server-issued nonce is required") }
            guard ConstantTime.equals(nonce, expectedNonce) else {
                throw DPoPError(.nonceMismatch, "the nonce is not the one issued")
            }
        }
        let ath = try string("ath")
        if let accessToken {
            guard let ath, ConstantTime.equals(ath, DPoPProofFactory.ath(accessToken)) else {
                throw DPoPError(.athMismatch, "ath does not hash the presented access token")
            }
        }
        if let boundThumbprint, !ConstantTime.equals(boundThumbprint, jwk.thumbprint) {
            throw DPoPError(.keyMismatch, "the token is bound to another key")
        }
        // Last, so a refused proof never consumes its jti (nor room in the cache).
        let fresh: Bool
        do {
            fresh = try await replayCache.insert(
                jti, thumbprint: jwk.thumbprint, expires: issued.addingTimeInterval(maxAge + leeway), now: current)
        } catch {
            let cause = (error as? any WardenError).map { " (\($0.codeName))" } ?? ""
            throw DPoPError(.replayCacheUnavailable, "the replay cache could not be consulted\(cause); retry later")
        }
        guard fresh else { throw DPoPError(.replayed, "this proof (jti) was already used") }
        return Proof(thumbprint: jwk.thumbprint, jti: jti, issuedAt: issued, nonce: nonce)
    }
}

/// A bounded cache of the `jwk` header members a verifier has parsed (at most 1024 keys; cleared when full).
final class DPoPKeyCache: Sendable {
    private let entries = Locked<[String: JWK]>([:])

    func key(for object: JSONObject) throws(DPoPError) -> JWK {
        // The key's identity: its string members (a public JWK has only strings), sorted; anything else is not cached.
        let members = object.members.sorted { $0.name < $1.name }
        let cacheable = members.allSatisfy { $0.value.stringValue != nil }
        let id = members.map { "\($0.name)\u{0}\($0.value.stringValue ?? "")" }.joined(separator: "\u{1}")
        if cacheable, let cached = entries.current[id] { return cached }
        let jwk: JWK
        do { jwk = try JWK(object: object) } catch { throw DPoPError(.badKey, "jwk: \(error.reason)") }
        guard jwk.publicKey != nil else { throw DPoPError(.badKey, "the jwk is not a public key") }
        if cacheable {
            entries.withLock { table in
                if table.count >= 1024 { table.removeAll() }
                table[id] = jwk
            }
        }
        return jwk
    }
}
