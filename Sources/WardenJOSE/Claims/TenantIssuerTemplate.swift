import Foundation
import WardenCore

/// A multi-tenant provider's issuer template: Microsoft Entra's `common`, `organizations` and `consumers` discovery
/// documents announce `https://login.microsoftonline.com/{tenantid}/v2.0`, an issuer no ID token carries; each token
/// is issued by its user's tenant and names it in `tid`.
///
/// Accepting a template is **opt-in** (``IDTokenVerifier/issuerTemplate``, `AuthClient.Configuration.issuerTemplate`)
/// and narrow: a token's `iss` must equal the template filled with the token's **own** `tid`, byte for byte, and
/// that `tid` must be a tenant ID (a GUID) — and one of ``allowedTenants`` when they are given. A token from another
/// tenant's issuer, or whose `iss` and `tid` disagree, is refused.
///
/// ```swift
/// let template = try TenantIssuerTemplate.entra(allowedTenants: ["9188040d-6c67-4c5b-b112-36a304b66dad"])
/// template.issuer(forTenant: "9188040d-6c67-4c5b-b112-36a304b66dad")
/// // "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0"
/// ```
public struct TenantIssuerTemplate: Sendable, Hashable, CustomStringConvertible {
    /// The placeholder a template contains exactly once.
    public static let placeholder = "{tenantid}"
    /// The template as the discovery document announces it.
    public let template: String
    /// The tenants (lower-case GUIDs) whose users may sign in; nil: every tenant.
    public let allowedTenants: Set<String>?
    private let prefix: [UInt8]
    private let suffix: [UInt8]

    /// A template with exactly one ``placeholder``, after an `https://` (or loopback `http://`) origin.
    ///
    /// - Parameter allowedTenants: tenant IDs (GUIDs, any case) whose users may sign in; nil admits every tenant, as
    ///   a multi-tenant app registration does.
    /// - Throws: ``JOSEErrorDomain/Code/invalidConfiguration`` for a template without exactly one placeholder in its path,
    ///   or an allowed tenant that is not a GUID.
    public init(_ template: String, allowedTenants: Set<String>? = nil) throws(JOSEError) {
        let parts = template.split(separator: Self.placeholder, omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts[0].hasPrefix("https://") || parts[0].hasPrefix("http://127.0.0.1:")
                || parts[0].hasPrefix("http://127.0.0.1/"),
            parts[0].dropFirst("https://".count).contains("/")
        else {
            throw JOSEError(
                .invalidConfiguration, "an issuer template has one \(Self.placeholder) in the path of an https URL")
        }
        // Filled with a tenant, it must be a plain issuer URL: no user information (`https://x@evil.example/`), no
        // query and no fragment — forms an issuer never has (OIDC Discovery §3), which would let a filled template
        // name another host or hide the tenant from the path.
        let filled = parts[0] + "00000000-0000-0000-0000-000000000000" + parts[1]
        guard let url = URLComponents(string: String(filled)), url.user == nil, url.password == nil,
            url.query == nil, url.fragment == nil, url.host?.isEmpty == false,
            url.path.contains("00000000-0000-0000-0000-000000000000")
        else {
            throw JOSEError(
                .invalidConfiguration,
                "an issuer template is an https URL with its \(Self.placeholder) in the path, and no user, query or fragment"
            )
        }
        var normalised: Set<String>?
        if let allowedTenants {
            let lowered = allowedTenants.map { $0.lowercased() }
            guard !lowered.isEmpty, lowered.allSatisfy(Self.isTenantID) else {
                throw JOSEError(.invalidConfiguration, "allowed tenants are tenant IDs (GUIDs), at least one")
            }
            normalised = Set(lowered)
        }
        self.template = template
        self.allowedTenants = normalised
        prefix = Array(parts[0].utf8)
        suffix = Array(parts[1].utf8)
    }

    /// Microsoft Entra ID's v2.0 template, `https://login.microsoftonline.com/{tenantid}/v2.0`.
    public static func entra(allowedTenants: Set<String>? = nil) throws(JOSEError) -> TenantIssuerTemplate {
        try TenantIssuerTemplate("https://login.microsoftonline.com/{tenantid}/v2.0", allowedTenants: allowedTenants)
    }

    /// The template moved to another origin (a sovereign cloud, a local emulation in tests): the same path and
    /// allowed tenants under `origin` (`scheme://host[:port]`).
    public func at(origin: String) throws(JOSEError) -> TenantIssuerTemplate {
        let afterScheme = template.range(of: "://").map { template[$0.upperBound...] } ?? Substring(template)
        let path = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? ""
        var origin = origin
        while origin.hasSuffix("/") { origin.removeLast() }
        return try TenantIssuerTemplate(origin + path, allowedTenants: allowedTenants)
    }

    /// The issuer of `tenant`, or nil when it is not a tenant ID or not allowed.
    public func issuer(forTenant tenant: String) -> String? {
        guard Self.isTenantID(tenant), allowedTenants?.contains(tenant.lowercased()) ?? true else { return nil }
        return String(decoding: prefix, as: UTF8.self) + tenant + String(decoding: suffix, as: UTF8.self)
    }

    /// The tenant `issuer` fills the template with, or nil when it does not fill it with an allowed tenant ID.
    public func tenant(in issuer: String) -> String? {
        let bytes = Array(issuer.utf8)
        guard bytes.count == prefix.count + 36 + suffix.count, bytes.starts(with: prefix),
            Array(bytes.suffix(suffix.count)) == suffix
        else { return nil }
        let tenant = String(decoding: bytes[prefix.count..<prefix.count + 36], as: UTF8.self)
        return self.issuer(forTenant: tenant) == nil ? nil : tenant
    }

    public var description: String {
        allowedTenants.map { "\(template) (tenants: \($0.sorted().joined(separator: ", ")))" } ?? template
    }

    /// A tenant ID as Entra writes it: a GUID, `8-4-4-4-12` hexadecimal digits.
    public static func isTenantID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
                else { return false }
            }
        }
        return true
    }
}
