import Foundation
import WardenCore
import WardenJOSE

/// A successful token endpoint response (RFC 6749 §5.1), validated.
///
/// Secrets print `<redacted>`.
public struct TokenResponse: Sendable, CustomStringConvertible {
    public let accessToken: Redacted<String>
    /// `Bearer` (compared case-insensitively when parsing; normalised here).
    public let tokenType: String
    public let expiresIn: TimeInterval?
    public let refreshToken: Redacted<String>?
    public let idToken: Redacted<String>?
    public let scope: String?
    /// The response's `Date` header (the provider's clock), when it had a valid one; see ``ProviderTime``.
    public var serverDate: Date?
    /// The device time when the response arrived.
    public var receivedAt: Date?

    public init(
        accessToken: String, tokenType: String = "Bearer", expiresIn: TimeInterval?, refreshToken: String?,
        idToken: String?, scope: String?
    ) {
        self.accessToken = Redacted(accessToken)
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken.map(Redacted.init)
        self.idToken = idToken.map(Redacted.init)
        self.scope = scope
    }

    /// Parses and validates a 200 response body.
    public init(json body: Data) throws(OAuthError) {
        let object: JSONObject
        do { object = try JSONReader(maximumBytes: 256 * 1024, maximumDepth: 8).parseObject(Array(body)) } catch {
            throw OAuthError(.invalidTokenResponse, "the token response is not a JSON object (\(error.codeName))")
        }
        func string(_ name: String) throws(OAuthError) -> String? {
            guard let value = object[name] else { return nil }
            guard let text = value.stringValue else {
                throw OAuthError(.invalidTokenResponse, "\(name) is not a string")
            }
            return text
        }
        guard let access = try string("access_token"), !access.isEmpty else {
            throw OAuthError(.invalidTokenResponse, "the token response has no access_token")
        }
        guard let type = try string("token_type") else { throw OAuthError(.invalidTokenResponse, "no token_type") }
        guard ["bearer", "dpop"].contains(type.lowercased()) else {
            throw OAuthError(.invalidTokenResponse, "unsupported token_type (Bearer or DPoP)")
        }
        var expires: TimeInterval?
        if let value = object["expires_in"] {
            guard let number = value.numberValue, number.double.isFinite, number.double >= 0, number.double < 1e9 else {
                throw OAuthError(.invalidTokenResponse, "expires_in is not a non-negative number")
            }
            expires = number.double
        }
        accessToken = Redacted(access)
        tokenType = type.lowercased() == "dpop" ? "DPoP" : "Bearer"
        expiresIn = expires
        refreshToken = try string("refresh_token").map(Redacted.init)
        idToken = try string("id_token").map(Redacted.init)
        scope = try string("scope")
    }

    public var description: String {
        "TokenResponse(access_token: <redacted>, expires_in: \(expiresIn.map { "\(Int($0))" } ?? "nil"), refresh_token: \(refreshToken == nil ? "nil" : "<redacted>"), id_token: \(idToken == nil ? "nil" : "<redacted>"))"
    }
}

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, capped.
public enum RetryAfter {
    /// The delay in seconds (RFC 9110 §10.2.3: delay-seconds or an HTTP-date), or nil when absent or unparsable.
    /// Capped at `cap` (default 7 days) only to keep arithmetic sane: a cap below the server's value would let a
    /// client retry early.
    public static func seconds(_ header: String?, now: Date = Date(), cap: TimeInterval = 7 * 86400) -> TimeInterval? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        if let seconds = Int(header), seconds >= 0 { return min(TimeInterval(seconds), cap) }
        guard let date = HTTPDate.parse(header) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), cap)
    }
}

/// RFC 9110 §5.6.7 IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form every `Date` and `Retry-After` uses.
public enum HTTPDate {
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    /// The date, or nil when `text` is not an IMF-fixdate (at most 64 bytes are looked at).
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= 64 else { return nil }
        return formatter().date(from: trimmed)
    }

    /// `date` as an IMF-fixdate.
    public static func format(_ date: Date) -> String { formatter().string(from: date) }
}
