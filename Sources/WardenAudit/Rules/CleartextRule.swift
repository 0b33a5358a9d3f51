/// `http://` URLs to hosts other than loopback (XML namespaces and DTDs excepted), in source and in configuration
/// resources.
struct CleartextRule: Rule {
    static let cleartextHTTP = RuleInfo(
        id: "cleartext-http", severity: .warning, name: "Cleartext HTTP URL",
        message: "A cleartext http:// URL to a non-loopback host", fix: "Use https://.", masvs: ["MASVS-NETWORK-1"],
        maswe: ["MASWE-0026"])

    var reports: [RuleInfo] { [Self.cleartextHTTP] }
    var triggers: Triggers { Triggers(strings: true) }

    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]
    static let namespaceHosts = [
        "www.w3.org", "schemas.", "ns.adobe.com", "www.apple.com/dtds", "purl.org", "xmlns.", "json-schema.org",
    ]

    func check(_ scan: FileScan, at index: Int) {
        guard let host = Self.cleartextHost(scan.tokens[index].text), !Self.isRefreshGrantRedirect(scan, index)
        else { return }
        scan.report(Self.cleartextHTTP, at: index, "Cleartext http:// URL to \(host)")
    }

    /// The `redirect_uri` of a refresh-token grant (`Params(grantType: "refresh_token", redirectURI: "http://...")`,
    /// ProtonVPN): a value the token endpoint ignores (RFC 6749 §6 has no redirect), never a URL anyone fetches.
    /// In an authorization request it is still reported: the code would travel to it in cleartext.
    static func isRefreshGrantRedirect(_ scan: FileScan, _ index: Int) -> Bool {
        guard scan.isSymbol(index - 1, ":"),
            SecretNames.words(scan.text(index - 2)).starts(with: ["redirect"])
                || scan.text(index - 2) == "redirect_uri",
            let open = ["(", "[", "{"].lazy.compactMap({ scan.enclosingOpener(of: index, $0, limit: 64) }).max()
        else { return false }
        let close = Int(scan.file.partner[open])
        return ((open + 1)..<close).contains { position in
            scan.tokens[position].kind == .string && scan.tokens[position].text == "refresh_token"
        }
    }

    /// Endpoints in configuration resources: every build setting of an `.xcconfig`; in a property list or JSON file,
    /// a value under a key that names an endpoint (`baseURL`, `api_host`, `server`, `legacy_url`), unless the file is
    /// a bundled data set — more than ``dataSetURLs`` URLs: a catalogue of podcasts, stations or products, whose
    /// links the app shows or hands to the system rather than configures its networking with (a 2.6 MB data set made
    /// 229 of one app's 242 findings, none of them true). A URL in prose (`"description": "see http://…"`) is data.
    func check(resource: ResourceFile, _ report: ResourceReport) {
        if resource.kind != .xcconfig {
            var urls = 0
            for entry in resource.entries
            where FastText.hasPrefix(entry.value, "http://", caseInsensitive: true)
                || FastText.hasPrefix(entry.value, "https://", caseInsensitive: true)
            {
                urls += 1
                if urls > Self.dataSetURLs { return }
            }
        }
        for entry in resource.entries {
            guard let host = Self.cleartextHost(entry.value),
                resource.kind == .xcconfig || Self.namesAnEndpoint(entry.key)
            else { continue }
            report.report(Self.cleartextHTTP, line: entry.line, "Cleartext http:// URL to \(host) in \(resource.name)")
        }
    }

    /// More URLs than this in one property list or JSON file make it a data set, not configuration.
    static let dataSetURLs = 20

    /// Words of a key that name where the app connects.
    static let endpointWords: Set<String> = [
        "url", "uri", "urls", "endpoint", "endpoints", "host", "hostname", "server", "servers", "base", "api", "domain",
        "backend", "gateway", "proxy", "origin", "baseurl", "webservice",
    ]

    static func namesAnEndpoint(_ key: String) -> Bool {
        SecretNames.words(key).contains { endpointWords.contains($0) }
    }

    /// Top-level names reserved for tests and local networks (RFC 6761, RFC 6762): never a production host; and
    /// Tor's `.onion` (RFC 7686), whose services the Tor circuit encrypts and the address authenticates, so plain
    /// `http://` to them is not cleartext on the network (and a CA certificate is rarely to be had).
    static let reservedSuffixes = [".localhost", ".test", ".invalid", ".local", ".onion"]

    static func isReserved(_ host: String) -> Bool { reservedSuffixes.contains { host.hasSuffix($0) } }

    /// The host of an `http://` URL that is not loopback or an XML namespace.
    static func cleartextHost(_ text: String) -> String? {
        guard FastText.hasPrefix(text, "http://", caseInsensitive: true) else { return nil }
        let lower = text.lowercased()
        let rest = lower.dropFirst("http://".count)
        var host = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        // http://user:password@host: the credentials never reach the message.
        if let at = host.lastIndex(of: "@") { host = String(host[host.index(after: at)...]) }
        let hostOnly = host.hasPrefix("[") ? host : String(host.prefix { $0 != ":" })
        guard !hostOnly.isEmpty, !FastText.contains(hostOnly, "\u{FFFC}"), !FastText.contains(hostOnly, "$") else {
            return nil
        }
        if loopbackHosts.contains(hostOnly) || hostOnly.hasPrefix("127.") || isReserved(hostOnly) { return nil }
        if namespaceHosts.contains(where: { rest.hasPrefix($0) }) { return nil }
        return hostOnly
    }
}
