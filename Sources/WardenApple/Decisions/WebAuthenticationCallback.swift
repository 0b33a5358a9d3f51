import WardenOAuth

/// How `ASWebAuthenticationSession` should match the callback for a redirect URI (decided portably; the Apple
/// agent only translates it to `.customScheme` / `.https(host:path:)`).
public enum WebAuthenticationCallback: Sendable, Equatable {
    /// A private-use scheme redirect: match on the scheme.
    case customScheme(String)
    /// A claimed https redirect (iOS 17.4+, macOS 14.4+): match on host and path.
    case https(host: String, path: String)

    /// The callback for `redirect`; nil for loopback redirects, which `ASWebAuthenticationSession` cannot serve
    /// (desktop apps sign in through `LoopbackBrowser` instead).
    public init?(_ redirect: RedirectURI) {
        let url = redirect.components
        switch redirect.kind {
        case .privateUseScheme: self = .customScheme(url.scheme)
        case .claimedHTTPS:
            self = .https(host: url.host.lowercased(), path: url.path.isEmpty ? "/" : url.path)
        case .loopback: return nil
        }
    }
}
