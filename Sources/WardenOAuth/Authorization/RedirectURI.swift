/// A redirect URI in one of the three forms RFC 8252 admits for native apps, matched component-wise.
///
/// - **Private-use scheme** in reverse-DNS form: `com.example.app:/oauth/callback` (§7.1's recommended form: one
///   slash, no authority), or with an authority, as providers' SDK defaults are
///   (`com.example.app://example.auth0.com/ios/com.example.app/callback`, Entra's `msauth.com.example.app://auth`).
///   §7.1 recommends the first form and does not forbid the second; either is then matched exactly, authority and
///   path included, and the two never match each other.
/// - **Claimed https**: `https://app.example.com/oauth/callback` (§7.2; universal links / app links).
/// - **Loopback IP literal**: `http://127.0.0.1/callback` or `http://[::1]/callback` (§7.3); any port matches
///   because the listener picks an ephemeral one. `localhost` is not admitted (§8.3).
///
/// Matching: scheme and host case-insensitive; port exact (except loopback); path exact and case-sensitive; no
/// userinfo, no fragment, no dot segments, no backslashes or control characters, no trailing dot in the host.
///
/// ```swift
/// let redirect = try RedirectURI("com.example.app:/oauth/callback")
/// redirect.matches("com.example.app:/oauth/callback?code=...&state=...")   // true
/// ```
public struct RedirectURI: Sendable, Hashable, CustomStringConvertible {
    /// Which RFC 8252 form this is.
    public enum Kind: Sendable, Hashable {
        /// A private-use scheme such as `com.example.app:/oauth/callback` (RFC 8252 §7.1).
        case privateUseScheme
        /// A claimed `https` URI (RFC 8252 §7.2).
        case claimedHTTPS
        /// An `http` loopback IP literal, `127.0.0.1` or `[::1]` (RFC 8252 §7.3); any port matches.
        case loopback
    }

    /// The form of this redirect URI.
    public let kind: Kind
    /// The URI as registered.
    public let string: String
    let url: StrictURL
    /// The parsed scheme (lower-cased), host (as written) and path, for the Apple layer's callback matching.
    package var components: (scheme: String, host: String, path: String) { (url.scheme, url.host, url.path) }

    /// Parses and checks `string` as described above; throws ``OAuthError/Code/invalidRedirectURI`` when it is not one
    /// of the three forms, or when a private-use scheme is not in reverse-DNS form.
    public init(_ string: String) throws(OAuthError) {
        try self.init(string, acceptingNonReverseDNSScheme: false)
    }

    /// A redirect URI an app registered years ago with a private-use scheme that is **not** in reverse-DNS form
    /// (`myapp://callback`, `myapp:/oauth`): the explicit opt-in for an existing registration.
    ///
    /// RFC 8252 §7.1 asks for reverse-DNS schemes because a short one is easily claimed by another app too (§8.6); PKCE
    /// is what keeps a code that reaches the wrong app useless. Keep this for a registration you cannot change, and
    /// move to `com.example.app:/…` when you can. Everything else is checked as ``init(_:)`` checks it, and schemes the
    /// system or browsers own are refused (`javascript`, `data`, `file`, `about`, `blob`, `mailto`, `tel`, `sms`,
    /// `ftp`, `ws`, `wss`, `app`, `itms-apps`, …).
    ///
    /// ```swift
    /// let redirect = try RedirectURI(existingRegistration: "myapp://callback")
    /// ```
    public init(existingRegistration string: String) throws(OAuthError) {
        try self.init(string, acceptingNonReverseDNSScheme: true)
    }

    /// Schemes no app's redirect may use: the system's, the browsers', and other protocols'.
    static let reservedSchemes: Set<String> = [
        "javascript", "data", "file", "about", "blob", "mailto", "tel", "sms", "facetime", "ftp", "ws", "wss", "app",
        "itms", "itms-apps", "itms-services", "maps", "x-apple", "chrome", "edge", "view-source", "content", "intent",
        "urn", "ldap", "news", "irc", "ssh", "telnet", "git", "vnc", "smb",
    ]

    private init(_ string: String, acceptingNonReverseDNSScheme: Bool) throws(OAuthError) {
        let url: StrictURL
        do { url = try StrictURL(string) } catch {
            throw OAuthError(.invalidRedirectURI, "not a valid redirect URI: \(error.reason)")
        }
        guard url.fragment == nil else { throw Self.invalid("a redirect URI has no fragment (RFC 6749 §3.1.2)") }
        guard url.userinfo == nil else { throw Self.invalid("a redirect URI has no userinfo") }
        guard !url.hasDotSegment else { throw Self.invalid("a redirect URI has no dot segments") }
        switch url.scheme {
        case "https":
            guard url.hasAuthority, !url.host.hasSuffix("."), !url.host.hasPrefix("[") || url.host.count > 2 else {
                throw Self.invalid("claimed https redirect needs a host without a trailing dot")
            }
            kind = .claimedHTTPS
        case "http":
            guard url.hasAuthority, url.isLoopbackIPLiteral else {
                throw Self.invalid(
                    url.host.lowercased() == "localhost"
                        ? "use http://127.0.0.1 or http://[::1], not localhost (RFC 8252 §8.3)"
                        : "http redirect URIs are only allowed to the loopback IP literals 127.0.0.1 and [::1]")
            }
            kind = .loopback
        default:
            let labels = url.scheme.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.allSatisfy({ !$0.isEmpty }) else {
                throw Self.invalid("a private-use scheme has no empty label")
            }
            guard labels.count >= 2 || acceptingNonReverseDNSScheme else {
                throw Self.invalid(
                    "a private-use scheme must be in reverse-DNS form, like com.example.app (RFC 8252 §7.1); for a "
                        + "registration you cannot change, use RedirectURI(existingRegistration:)")
            }
            guard !Self.reservedSchemes.contains(url.scheme) else {
                throw Self.invalid("\(url.scheme): is a scheme the system or browsers own, not a redirect")
            }
            if url.hasAuthority {
                guard !url.host.isEmpty, url.port == nil, !url.host.hasSuffix(".") else {
                    throw Self.invalid(
                        "a private-use redirect with an authority needs a host and no port, like "
                            + "com.example.app://auth or com.example.app://host/path")
                }
            } else {
                guard url.path.hasPrefix("/") else {
                    throw Self.invalid(
                        "a private-use redirect is scheme:/path (RFC 8252 §7.1) or scheme://host[/path]")
                }
            }
            kind = .privateUseScheme
        }
        guard !url.path.isEmpty || kind != .privateUseScheme || url.hasAuthority else {
            throw Self.invalid("missing path")
        }
        self.string = string
        self.url = url
    }

    /// The path (`/callback`); `/` for an authority without one.
    public var path: String { url.path.isEmpty ? "/" : url.path }

    private static func invalid(_ reason: String) -> OAuthError { OAuthError(.invalidRedirectURI, reason) }

    /// The loopback redirect for a concrete port (what the listener actually serves).
    public func withPort(_ port: Int) -> String {
        guard kind == .loopback else { return string }
        return "http://\(url.host):\(port)\(url.path.isEmpty ? "/" : url.path)"
    }

    /// Whether `callback` (a URL the app received) was sent to this redirect URI.
    public func matches(_ callback: String) -> Bool {
        guard let other = try? StrictURL(callback) else { return false }
        return matches(other)
    }

    func matches(_ other: StrictURL) -> Bool {
        guard other.scheme == url.scheme, other.userinfo == nil, other.hasAuthority == url.hasAuthority,
            other.host.lowercased() == url.host.lowercased(), !other.host.hasSuffix("."), !other.hasDotSegment
        else { return false }
        if kind != .loopback {
            guard other.port == url.port || (other.port == 443 && url.port == nil && kind == .claimedHTTPS) else {
                return false
            }
        }
        let expectedPath = url.path.isEmpty && url.hasAuthority ? "/" : url.path
        let actualPath = other.path.isEmpty && other.hasAuthority ? "/" : other.path
        return expectedPath == actualPath
    }

    public var description: String { string }
}
