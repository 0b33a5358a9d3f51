import Foundation
import WardenCore
import WardenJOSE

/// Authorization server metadata (RFC 8414) or OpenID Provider metadata (OpenID Connect Discovery 1.0).
///
/// Discovery checks that the document's `issuer` equals the configured issuer exactly (RFC 8414 §3.3,
/// OIDC Discovery §4.3) and that every endpoint is https (http only on loopback, for tests and the demo).
/// A provider without discovery is configured by hand with ``init(issuer:authorizationEndpoint:tokenEndpoint:revocationEndpoint:jwksURI:authorizationResponseIssParameterSupported:)``.
public struct ProviderMetadata: Sendable {
    /// The issuer identifier: as configured by hand, or as the discovery document announced it (equal to the configured
    /// issuer, or to an opted-in ``issuerTemplate``'s template).
    public let issuer: String
    /// `authorization_endpoint` (https, or http on loopback).
    public let authorizationEndpoint: URL
    /// `token_endpoint` (https, or http on loopback).
    public let tokenEndpoint: URL
    /// RFC 7009 `revocation_endpoint` (https, or http on loopback); nil when not announced.
    public private(set) var revocationEndpoint: URL?
    /// `jwks_uri`: where the provider's signing keys are (https, or http on loopback); nil when not announced.
    public let jwksURI: URL?
    /// `userinfo_endpoint` (https, or http on loopback); nil when not announced or configured by hand.
    public let userinfoEndpoint: URL?
    /// RFC 9207: the provider sends `iss` in authorization responses, so its absence is an attack.
    public let authorizationResponseIssParameterSupported: Bool
    /// `code_challenge_methods_supported` (empty when not announced; `S256` for metadata configured by hand). Warden
    /// sends S256 whatever it lists.
    public let codeChallengeMethodsSupported: [String]
    /// RFC 9126 `pushed_authorization_request_endpoint`.
    public private(set) var pushedAuthorizationRequestEndpoint: URL?
    /// RFC 9126 `require_pushed_authorization_requests`: the provider accepts only pushed requests.
    public private(set) var requirePushedAuthorizationRequests = false
    /// RFC 9449 `dpop_signing_alg_values_supported` (empty when the provider does not announce DPoP).
    public private(set) var dpopSigningAlgorithms: [String] = []
    /// OpenID Connect RP-Initiated Logout 1.0 `end_session_endpoint`.
    public private(set) var endSessionEndpoint: URL?
    /// RFC 8628 `device_authorization_endpoint`: where a device without a browser starts a sign-in.
    public private(set) var deviceAuthorizationEndpoint: URL?
    /// `scopes_supported`, nil when not announced (RFC 8414 §2: a provider MAY leave some supported scopes out).
    public private(set) var scopesSupported: [String]?
    /// The multi-tenant template this document announced as its issuer and the configuration opted in to (see
    /// `init(json:expectedIssuer:issuerTemplate:)`); nil for every single-issuer provider. ID tokens and `iss`
    /// parameters are then checked against the template filled with the user's tenant.
    public private(set) var issuerTemplate: TenantIssuerTemplate?

    /// `scopes` as a sign-in should request them: `offline_access` is dropped when the provider announces its scopes
    /// without it (Google answers it with `invalid_scope` and wants `access_type=offline` instead); every other scope
    /// is kept as given.
    public func requestableScopes(_ scopes: [String]) -> [String] {
        guard let scopesSupported, !scopesSupported.contains("offline_access") else { return scopes }
        return scopes.filter { $0 != "offline_access" }
    }

    /// Metadata configured by hand (for providers without discovery).
    public init(
        issuer: String, authorizationEndpoint: URL, tokenEndpoint: URL, revocationEndpoint: URL? = nil,
        jwksURI: URL? = nil, authorizationResponseIssParameterSupported: Bool = false
    ) throws(OAuthError) {
        self.issuer = issuer
        self.authorizationEndpoint = try Self.secure(authorizationEndpoint, "authorization_endpoint")
        self.tokenEndpoint = try Self.secure(tokenEndpoint, "token_endpoint")
        self.revocationEndpoint = try revocationEndpoint.map { url throws(OAuthError) in
            try Self.secure(url, "revocation_endpoint")
        }
        self.jwksURI = try jwksURI.map { url throws(OAuthError) in try Self.secure(url, "jwks_uri") }
        userinfoEndpoint = nil
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
        codeChallengeMethodsSupported = ["S256"]
    }

    /// `init(json:expectedIssuer:issuerTemplate:)` over bytes, from `Data` (an HTTP body).
    public init(json: Data, expectedIssuer: String, issuerTemplate: TenantIssuerTemplate? = nil) throws(OAuthError) {
        try self.init(json: Array(json), expectedIssuer: expectedIssuer, issuerTemplate: issuerTemplate)
    }

    /// `init(json:expectedIssuer:issuerTemplate:)` over bytes, from the document's text.
    public init(json: String, expectedIssuer: String, issuerTemplate: TenantIssuerTemplate? = nil) throws(OAuthError) {
        try self.init(json: Array(json.utf8), expectedIssuer: expectedIssuer, issuerTemplate: issuerTemplate)
    }

    /// Parses a metadata document and checks it against the configured `issuer`.
    ///
    /// - Parameter issuerTemplate: opt-in for a multi-tenant discovery document (Entra's `common`): its announced
    ///   issuer may be exactly this template instead of `expectedIssuer`. Every other mismatch is still refused.
    public init(json: [UInt8], expectedIssuer: String, issuerTemplate: TenantIssuerTemplate? = nil) throws(OAuthError) {
        let object: JSONObject
        do { object = try JSONReader(maximumBytes: 256 * 1024).parseObject(json) } catch {
            throw OAuthError(.invalidMetadata, "metadata is not a JSON object: \(error.reason)")
        }
        func string(_ name: String) -> String? { object[name]?.stringValue }
        func url(_ name: String, required: Bool) throws(OAuthError) -> URL? {
            guard let text = string(name) else {
                if required { throw OAuthError(.invalidMetadata, "metadata without \(name)") }
                return nil
            }
            guard let value = URL(string: text) else { throw OAuthError(.invalidMetadata, "\(name) is not a URL") }
            return try Self.secure(value, name)
        }
        guard let issuer = string("issuer") else { throw OAuthError(.invalidMetadata, "metadata without issuer") }
        // Code points, byte for byte (RFC 8414 §3.3): Swift's == would take canonically equivalent spellings as equal.
        let exact = CodePoints.equal(issuer, expectedIssuer)
        if !exact, let issuerTemplate, CodePoints.equal(issuer, issuerTemplate.template) {
            self.issuerTemplate = issuerTemplate
        } else if !exact {
            throw OAuthError(
                .issuerMismatch,
                "metadata (RFC 8414 §3.3): "
                    + IssuerMismatch.explain(configured: expectedIssuer, announced: issuer))
        }
        self.issuer = issuer
        authorizationEndpoint = try url("authorization_endpoint", required: true)!
        tokenEndpoint = try url("token_endpoint", required: true)!
        revocationEndpoint = try url("revocation_endpoint", required: false)
        jwksURI = try url("jwks_uri", required: false)
        userinfoEndpoint = try url("userinfo_endpoint", required: false)
        authorizationResponseIssParameterSupported =
            object["authorization_response_iss_parameter_supported"]?.boolValue ?? false
        codeChallengeMethodsSupported =
            object["code_challenge_methods_supported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        pushedAuthorizationRequestEndpoint = try url("pushed_authorization_request_endpoint", required: false)
        requirePushedAuthorizationRequests = object["require_pushed_authorization_requests"]?.boolValue ?? false
        if requirePushedAuthorizationRequests, pushedAuthorizationRequestEndpoint == nil {
            throw OAuthError(
                .invalidMetadata,
                "require_pushed_authorization_requests without a pushed_authorization_request_endpoint")
        }
        dpopSigningAlgorithms =
            object["dpop_signing_alg_values_supported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        endSessionEndpoint = try url("end_session_endpoint", required: false)
        deviceAuthorizationEndpoint = try url("device_authorization_endpoint", required: false)
        scopesSupported = object["scopes_supported"]?.arrayValue?.compactMap(\.stringValue)
    }

    /// A copy with a pushed-authorization endpoint configured by hand (`required` as the provider demands).
    public func withPushedAuthorizationRequestEndpoint(_ url: URL, required: Bool = false) throws(OAuthError)
        -> ProviderMetadata
    {
        var copy = self
        copy.pushedAuthorizationRequestEndpoint = try Self.secure(url, "pushed_authorization_request_endpoint")
        copy.requirePushedAuthorizationRequests = required
        return copy
    }

    /// A copy with a device authorization endpoint configured by hand (RFC 8628; GitHub and Twitch, which publish no
    /// discovery document).
    public func withDeviceAuthorizationEndpoint(_ url: URL) throws(OAuthError) -> ProviderMetadata {
        var copy = self
        copy.deviceAuthorizationEndpoint = try Self.secure(url, "device_authorization_endpoint")
        return copy
    }

    /// A copy with an RP-initiated logout endpoint configured by hand (for providers whose discovery omits it).
    public func withEndSessionEndpoint(_ url: URL) throws(OAuthError) -> ProviderMetadata {
        var copy = self
        copy.endSessionEndpoint = try Self.secure(url, "end_session_endpoint")
        return copy
    }

    /// A copy with a revocation endpoint configured by hand (for providers whose discovery omits it).
    public func withRevocationEndpoint(_ url: URL) throws(OAuthError) -> ProviderMetadata {
        var copy = self
        copy.revocationEndpoint = try Self.secure(url, "revocation_endpoint")
        return copy
    }

    static func secure(_ url: URL, _ name: String) throws(OAuthError) -> URL {
        guard url.user == nil, url.password == nil else {
            throw OAuthError(.insecureEndpoint, "\(name) must not carry user information")
        }
        switch url.scheme?.lowercased() {
        case "https": return url
        case "http" where LoopbackHost.isLoopback(url): return url
        default:
            throw OAuthError(
                .insecureEndpoint, "\(name) must be https (http only to a loopback IP literal: 127.0.0.0/8 or ::1)")
        }
    }

    /// The discovery URLs tried for `issuer`: OpenID (`/.well-known/openid-configuration` appended) then RFC 8414
    /// (`/.well-known/oauth-authorization-server` inserted before the path).
    public static func discoveryURLs(for issuer: String) throws(OAuthError) -> [URL] {
        guard let base = URL(string: issuer), base.scheme != nil, base.host != nil,
            let separator = issuer.range(of: "://")
        else {
            throw OAuthError(.invalidConfiguration, "the issuer is not a URL")
        }
        _ = try secure(base, "issuer")
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        // The origin as written (`URL.host` drops an IPv6 literal's brackets, which made an unparsable URL).
        let afterScheme = issuer[separator.upperBound...]
        let origin = issuer[..<(afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? issuer.endIndex)]
        let path = base.path == "/" ? "" : base.path
        guard let openID = URL(string: trimmed + "/.well-known/openid-configuration"),
            let oauth = URL(string: origin + "/.well-known/oauth-authorization-server" + path)
        else {
            throw OAuthError(.invalidConfiguration, "no discovery URL can be built from the issuer")
        }
        return [openID, oauth]
    }

    /// Fetches metadata by discovery.
    ///
    /// - Parameter issuerTemplate: see `init(json:expectedIssuer:issuerTemplate:)`.
    public static func discover(
        issuer: String, transport: any HTTPTransport, issuerTemplate: TenantIssuerTemplate? = nil
    ) async throws(OAuthError) -> ProviderMetadata {
        try ProviderMetadata(
            json: try await fetchDocument(issuer: issuer, transport: transport), expectedIssuer: issuer,
            issuerTemplate: issuerTemplate)
    }

    /// The discovery document of `issuer`, unchecked (the first discovery URL that answers 200), for tools that
    /// report on it (`warden discover`).
    public static func fetchDocument(issuer: String, transport: any HTTPTransport) async throws(OAuthError) -> Data {
        var lastError = OAuthError(.invalidMetadata, "no discovery document found")
        for url in try discoveryURLs(for: issuer) {
            let response: HTTPResponse
            do {
                response = try await transport.send(
                    HTTPRequest(url: url, headers: ["Accept": "application/json"], timeout: 15))
            } catch {
                throw OAuthError(
                    .network, "discovery failed: \((error as? any WardenError)?.reason ?? "transport error")")
            }
            guard response.status == 200 else {
                lastError = OAuthError(
                    .invalidMetadata, "discovery answered HTTP \(response.status)", status: response.status)
                continue
            }
            return response.body
        }
        throw lastError
    }
}

/// Caches discovered metadata per issuer (an actor; one fetch per issuer until ``invalidate(_:)``).
public actor ProviderMetadataCache {
    private var entries: [String: ProviderMetadata] = [:]
    private let transport: any HTTPTransport

    /// An empty cache that discovers through `transport`.
    public init(transport: any HTTPTransport) { self.transport = transport }

    /// The metadata of `issuer`: cached, or discovered with
    /// ``ProviderMetadata/discover(issuer:transport:issuerTemplate:)`` and cached when it succeeds. A failed discovery
    /// throws and caches nothing.
    public func metadata(for issuer: String) async throws(OAuthError) -> ProviderMetadata {
        if let cached = entries[issuer] { return cached }
        let fresh = try await ProviderMetadata.discover(issuer: issuer, transport: transport)
        entries[issuer] = fresh
        return fresh
    }

    /// Drops the cached metadata of `issuer`, so the next ``metadata(for:)`` discovers it again.
    public func invalidate(_ issuer: String) { entries[issuer] = nil }
}
