import Foundation

/// The `htu` form of a URL (RFC 9449 §4.2, §4.3 step 9): scheme and host lowercased, the default port dropped, no
/// query and no fragment. The same normalisation is applied by the client when it signs and by the verifier when
/// it compares, so `HTTPS://Server.Example.com:443/token?x=1` and `https://server.example.com/token` agree.
package enum DPoPURL {
    /// The normalised `htu`, or nil when `url` has no http(s) scheme or no host.
    package static func normalize(_ url: URL) -> String? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = components.host, !host.isEmpty
        else { return nil }
        components.scheme = scheme
        components.host = host.lowercased()
        if (scheme == "https" && components.port == 443) || (scheme == "http" && components.port == 80) {
            components.port = nil
        }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        if components.path.isEmpty { components.path = "/" }
        return components.string
    }

    /// The normalised `htu` of a string, or nil.
    package static func normalize(_ text: String) -> String? { URL(string: text).flatMap(normalize) }
}
