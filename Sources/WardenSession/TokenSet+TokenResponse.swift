import Foundation
import WardenCore
import WardenOAuth
import WardenStorage

extension TokenSet {
    /// The token set a token endpoint response gives (`expires_in` counted from `now`).
    /// `dpopThumbprint`: the key a `token_type: DPoP` response is bound to.
    public init(response: TokenResponse, issuer: String, now: Date = Date(), dpopThumbprint: String? = nil) {
        self.init(
            accessToken: response.accessToken.unredacted(), refreshToken: response.refreshToken?.unredacted(),
            idToken: response.idToken?.unredacted(), expiresAt: response.expiresIn.map { now.addingTimeInterval($0) },
            scope: response.scope, issuer: issuer)
        self.dpopThumbprint = response.tokenType == "DPoP" ? dpopThumbprint : nil
    }

    /// This set updated by a refresh response: a response without a refresh token keeps the current one
    /// (RFC 6749 §6), and likewise for the ID token and scope.
    public func refreshed(by response: TokenResponse, now: Date) -> TokenSet {
        var fresh = self
        fresh.accessToken = response.accessToken
        if let rotated = response.refreshToken { fresh.refreshToken = rotated }
        if let idToken = response.idToken { fresh.idToken = idToken }
        fresh.expiresAt = response.expiresIn.map { now.addingTimeInterval($0) }
        if let scope = response.scope { fresh.scope = scope }
        fresh.generation = generation &+ 1
        return fresh
    }
}
