import Foundation
import WardenCore
import WardenStorage

/// One account's tokens, stored as **one** item so that a refresh-token rotation is one atomic write.
///
/// The stored form is versioned JSON (`"v": 1`); anything else is ``StorageErrorDomain/Code/corruptedData``. Printing
/// a token set never shows a token.
///
/// ```swift
/// let set = TokenSet(accessToken: "...", refreshToken: "...", idToken: nil, expiresAt: Date() + 3600,
///                    scope: "openid", issuer: "https://id.example.com")
/// try await store.save(try set.encoded(), service: "com.example.app.tokens", account: "alice")
/// ```
public struct TokenSet: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The version of the stored form (`"v"`) that ``encoded()`` writes and ``init(encoded:)`` accepts.
    public static let currentVersion = 1

    /// The access token; empty for a migrated refresh-token-only grant, which is refreshed first.
    public var accessToken: Redacted<String>
    /// The refresh token, when the provider issued one and it is held in this item.
    public var refreshToken: Redacted<String>?
    /// The ID token, when one was issued.
    public var idToken: Redacted<String>?
    /// When the access token expires (nil when the provider did not say).
    public var expiresAt: Date?
    /// The granted scope (space-separated, from the token response), nil when none was returned.
    public var scope: String?
    /// The issuer that granted the tokens (a stored set without one is refused as corrupted).
    public var issuer: String
    /// The refresh token exists but lives in a separate, more protected item (``SplitTokenStore``): it is read
    /// only when a refresh needs it.
    public var refreshTokenHeldSeparately = false
    /// The RFC 7638 thumbprint of the DPoP key the tokens are bound to (`token_type: DPoP`), nil for Bearer
    /// tokens. A session whose key is missing or different cannot use them and signs out.
    public var dpopThumbprint: String?
    /// How many refreshes of this grant were stored before this set (0 after sign-in). Holders that share the
    /// store (the app and its extensions) compare it to tell that another holder already rotated the grant.
    public var generation: UInt64 = 0

    /// A token set from its parts: generation 0, no DPoP binding, the refresh token held in this item.
    public init(
        accessToken: String, refreshToken: String?, idToken: String?, expiresAt: Date?, scope: String?, issuer: String
    ) {
        self.accessToken = Redacted(accessToken)
        self.refreshToken = refreshToken.map(Redacted.init)
        self.idToken = idToken.map(Redacted.init)
        self.expiresAt = expiresAt
        self.scope = scope
        self.issuer = issuer
    }

    /// Seconds until the access token expires (nil when unknown).
    public func timeToLive(now: Date) -> TimeInterval? { expiresAt.map { $0.timeIntervalSince(now) } }

    private struct Stored: Codable {
        var v: Int
        var accessToken: String
        var refreshToken: String?
        var idToken: String?
        var expiresAt: Double?
        var scope: String?
        var issuer: String
        var refreshTokenSeparate: Bool?
        var dpopJKT: String?
        var gen: UInt64?
    }

    /// The stored bytes.
    public func encoded() throws(StorageError) -> Data {
        let stored = Stored(
            v: Self.currentVersion, accessToken: accessToken.unredacted(), refreshToken: refreshToken?.unredacted(),
            idToken: idToken?.unredacted(), expiresAt: expiresAt?.timeIntervalSince1970, scope: scope, issuer: issuer,
            refreshTokenSeparate: refreshTokenHeldSeparately ? true : nil, dpopJKT: dpopThumbprint,
            gen: generation == 0 ? nil : generation)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(stored)
        } catch {
            throw StorageError(.backendFailure, "cannot encode the token set")
        }
    }

    /// Reads stored bytes; anything that is not a version-1 token set is ``StorageErrorDomain/Code/corruptedData``.
    public init(encoded data: Data) throws(StorageError) {
        guard data.count <= CredentialStoreLimits.maximumItemBytes,
            let stored = try? JSONDecoder().decode(Stored.self, from: data)
        else { throw StorageError(.corruptedData, "the stored token set cannot be read") }
        guard stored.v == Self.currentVersion else {
            throw StorageError(.corruptedData, "unsupported token set version \(stored.v)")
        }
        // An empty access token only beside a refresh token (a migrated refresh-token-only grant, refreshed first).
        guard !stored.accessToken.isEmpty || stored.refreshToken != nil || stored.refreshTokenSeparate == true,
            !stored.issuer.isEmpty
        else {
            throw StorageError(.corruptedData, "the stored token set is incomplete")
        }
        self.init(
            accessToken: stored.accessToken, refreshToken: stored.refreshToken, idToken: stored.idToken,
            expiresAt: stored.expiresAt.map(Date.init(timeIntervalSince1970:)), scope: stored.scope,
            issuer: stored.issuer)
        refreshTokenHeldSeparately = stored.refreshTokenSeparate == true && stored.refreshToken == nil
        dpopThumbprint = stored.dpopJKT
        generation = stored.gen ?? 0
    }

    public var description: String {
        "TokenSet(issuer: \(issuer), access_token: <redacted>, refresh_token: \(refreshToken == nil ? "nil" : "<redacted>"), expires_at: \(expiresAt.map { "\($0)" } ?? "nil"))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["issuer": issuer, "expiresAt": expiresAt as Any, "scope": scope as Any])
    }
}
