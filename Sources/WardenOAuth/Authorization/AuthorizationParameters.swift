import Foundation

/// What an app asks the provider for besides the code flow itself (OpenID Connect Core §3.1.2.1, RFC 8707, and
/// the `audience` Auth0 needs to issue an API access token). Set them once in `AuthClient`'s configuration and
/// override them per sign-in; they reach the provider in the URL or, with PAR, in the pushed request.
///
/// Two of them change what Warden checks afterwards: with ``maxAge`` the ID token must carry `auth_time` no older
/// than it, and with ``acrValues`` a returned `acr` must be one of them.
///
/// ```swift
/// var parameters = AuthorizationParameters()
/// parameters.prompt = [.selectAccount]
/// parameters.loginHint = "alice@example.com"
/// parameters.audience = "https://api.example.com"
/// let signIn = try await client.signIn(with: browser, parameters: parameters)
/// ```
public struct AuthorizationParameters: Sendable {
    /// OIDC Core §3.1.2.1 `prompt` values (RFC 9700 and Initiating User Registration add `create`).
    public enum Prompt: String, Sendable, CaseIterable {
        /// `none`: the provider must not show any page; it answers with an error when the user would have to interact.
        case none
        /// `login`: the provider asks the user to authenticate again, even with a session.
        case login
        /// `consent`: the provider asks the user for consent again before returning to the client.
        case consent
        /// `select_account`: the provider asks the user to pick an account.
        case selectAccount = "select_account"
        /// `create`: the provider shows its account-creation page.
        case create
    }

    /// `prompt`: `none` alone, or any of the others.
    public var prompt: [Prompt] = []
    /// `login_hint`: the account to preselect.
    public var loginHint: String?
    /// `max_age` in seconds: the user must have authenticated at most this long ago.
    public var maxAge: Int?
    /// `acr_values`, in order of preference.
    public var acrValues: [String] = []
    /// `ui_locales` (BCP 47 tags), in order of preference.
    public var uiLocales: [String] = []
    /// `audience` (Auth0, some others): the API the access token is for.
    public var audience: String?
    /// RFC 8707 `resource` indicators: absolute URIs without a fragment.
    public var resources: [String] = []
    /// Any other provider parameter. The names above and those the request sets itself (`state`, `nonce`,
    /// `code_challenge`, ...) are refused.
    public var additional: [(String, String)] = []

    /// Parameters with nothing set: every field empty or nil, so only the code flow's own parameters are sent.
    public init() {}

    /// Names with a typed field here.
    static let typed: Set<String> = [
        "prompt", "login_hint", "max_age", "acr_values", "ui_locales", "audience", "resource",
    ]

    /// Parameters from `NAME=VALUE` pairs (the CLI's `--param`): the typed names fill their fields — so
    /// `max_age` is checked in the ID token — and the rest go to ``additional``.
    public init(pairs: [(String, String)]) throws(OAuthError) {
        for (name, value) in pairs {
            switch name {
            case "prompt":
                prompt = []
                for word in value.split(separator: " ") {
                    guard let one = Prompt(rawValue: String(word)) else {
                        throw OAuthError(.invalidConfiguration, "prompt '\(word)' is not an OpenID Connect value")
                    }
                    prompt.append(one)
                }
            case "login_hint": loginHint = value
            case "max_age":
                guard let seconds = Int(value), seconds >= 0 else {
                    throw OAuthError(.invalidConfiguration, "max_age must be a whole number of seconds")
                }
                maxAge = seconds
            case "acr_values": acrValues = value.split(separator: " ").map(String.init)
            case "ui_locales": uiLocales = value.split(separator: " ").map(String.init)
            case "audience": audience = value
            case "resource": resources.append(value)
            default: additional.append((name, value))
            }
        }
        _ = try encoded()
    }

    /// These parameters over `defaults`: every field set here wins; ``additional`` entries replace the defaults'
    /// of the same name. A default cannot be removed this way (an empty field means "the default"): configure
    /// without it and pass it per sign-in instead.
    public func merged(over defaults: AuthorizationParameters) -> AuthorizationParameters {
        var result = defaults
        if !prompt.isEmpty { result.prompt = prompt }
        if let loginHint { result.loginHint = loginHint }
        if let maxAge { result.maxAge = maxAge }
        if !acrValues.isEmpty { result.acrValues = acrValues }
        if !uiLocales.isEmpty { result.uiLocales = uiLocales }
        if let audience { result.audience = audience }
        if !resources.isEmpty { result.resources = resources }
        let names = Set(additional.map(\.0))
        result.additional = defaults.additional.filter { !names.contains($0.0) } + additional
        return result
    }

    /// The query parameters, checked: `prompt=none` alone; `max_age` not negative; `login_hint` and `audience`
    /// non-empty; `acr_values` and `ui_locales` single printable words; `resource` an absolute URI without a
    /// fragment (RFC 8707 §2); every name and value bounded and free of control characters.
    public func encoded() throws(OAuthError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        if let audience { pairs.append(("audience", audience)) }
        for resource in resources {
            guard let url = URL(string: resource), let scheme = url.scheme, !scheme.isEmpty, url.fragment == nil,
                !resource.contains("#")
            else {
                throw OAuthError(
                    .invalidConfiguration, "resource must be an absolute URI without a fragment (RFC 8707)")
            }
            pairs.append(("resource", resource))
        }
        if !prompt.isEmpty {
            guard !prompt.contains(.none) || prompt.count == 1 else {
                throw OAuthError(.invalidConfiguration, "prompt=none cannot be combined with other prompt values")
            }
            pairs.append(("prompt", prompt.map(\.rawValue).joined(separator: " ")))
        }
        if let loginHint { pairs.append(("login_hint", loginHint)) }
        if let maxAge {
            guard maxAge >= 0 else { throw OAuthError(.invalidConfiguration, "max_age must not be negative") }
            pairs.append(("max_age", String(maxAge)))
        }
        for (name, words) in [("acr_values", acrValues), ("ui_locales", uiLocales)] where !words.isEmpty {
            for word in words
            where word.isEmpty || !word.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) {
                throw OAuthError(.invalidConfiguration, "\(name) entries must be printable words without spaces")
            }
            pairs.append((name, words.joined(separator: " ")))
        }
        for (name, _) in additional where Self.typed.contains(name) {
            throw OAuthError(.invalidConfiguration, "'\(name)' has its own field in AuthorizationParameters")
        }
        for (name, _) in additional where AuthorizationRequest.reserved.contains(name) {
            throw OAuthError(.invalidConfiguration, "'\(name)' is set by Warden and cannot be overridden")
        }
        pairs += additional
        for (name, value) in pairs { try Self.checkParameter(name, value) }
        return pairs
    }

    /// A parameter name of 1–64 URL-safe characters and a non-empty value of at most 2048 bytes without control
    /// characters.
    static func checkParameter(_ name: String, _ value: String) throws(OAuthError) {
        let nameOK =
            !name.isEmpty && name.utf8.count <= 64
            && name.unicodeScalars.allSatisfy {
                $0.properties.isASCIIHexDigit || CharacterSet.urlQueryAllowed.contains($0)
            }
            && !name.contains("=") && !name.contains("&")
        guard nameOK else { throw OAuthError(.invalidConfiguration, "'\(name.prefix(64))' is not a parameter name") }
        guard !value.isEmpty, value.utf8.count <= 2048,
            !value.unicodeScalars.contains(where: {
                $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
            })
        else {
            throw OAuthError(
                .invalidConfiguration, "the value of '\(name)' must be 1 to 2048 bytes without control characters")
        }
    }
}
