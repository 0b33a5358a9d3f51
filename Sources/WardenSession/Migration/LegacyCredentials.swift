import Foundation
import WardenCore
import WardenJOSE

/// What another SDK had stored for the signed-in user, read from its own format, before any check.
struct LegacyCredentials: Sendable {
    var accessToken: String?
    var refreshToken: String?
    var idToken: String?
    var expiresAt: Date?
    var scope: String?
    var tokenType: String?
    /// The issuer the other SDK recorded (AppAuth's service configuration, Okta's configuration), when it did.
    var issuer: String?
    /// The client the tokens were issued to, when the other SDK recorded it.
    var clientID: String?
}

extension LegacyCredentials {
    /// Auth0.swift's `CredentialsManager` item: an `A0Credentials` keyed archive (Auth0.swift 1.x–3.x
    /// `Auth0/Credentials.swift`: `accessToken`, `tokenType`, `idToken`, `refreshToken`, `expiresIn` as an absolute
    /// `NSDate`, `scope`).
    static func auth0(_ data: Data) throws(MigrationError) -> LegacyCredentials {
        let archive = try LegacyArchive(data)
        let credentials = try archive.root(["A0Credentials"])
        return LegacyCredentials(
            accessToken: archive.string("accessToken", of: credentials),
            refreshToken: archive.string("refreshToken", of: credentials),
            idToken: archive.string("idToken", of: credentials), expiresAt: archive.date("expiresIn", of: credentials),
            scope: archive.string("scope", of: credentials), tokenType: archive.string("tokenType", of: credentials))
    }

    /// An archived `OIDAuthState` (AppAuth-iOS, as an app stored it; okta-oidc-ios's fork as `OKTAuthState`).
    static func appAuth(_ data: Data) throws(MigrationError) -> LegacyCredentials {
        let archive = try LegacyArchive(data)
        return try authState(archive.root(authStateNames), in: archive)
    }

    /// GTMAppAuth's item: a `GTMAppAuthFetcherAuthorization` keyed archive (5.x archives its `AuthSession` under that
    /// name with `setClassName`), or the older GTMOAuth2 form string (`access_token=…&refresh_token=…`, keys sorted,
    /// percent-encoded) that GTMAppAuth still reads.
    static func gtmAppAuth(_ data: Data) throws(MigrationError) -> LegacyCredentials {
        if !data.starts(with: Array("bplist00".utf8)) {
            return try gtmOAuth2(data)
        }
        let archive = try LegacyArchive(data)
        let authorization = try archive.root(["GTMAppAuthFetcherAuthorization", "GTMAuthSession"])
        guard let state = archive.object("authState", of: authorization, authStateNames) else {
            throw MigrationError(.unreadable, "the GTMAppAuth archive has no authState")
        }
        return try authState(state, in: archive)
    }

    static let authStateNames: Set<String> = ["OIDAuthState", "OKTAuthState"]
    static let responseNames: Set<String> = [
        "OIDTokenResponse", "OKTTokenResponse", "OIDAuthorizationResponse", "OKTAuthorizationResponse",
    ]
    static let requestNames: Set<String> = [
        "OIDTokenRequest", "OKTTokenRequest", "OIDAuthorizationRequest", "OKTAuthorizationRequest",
    ]
    static let configurationNames: Set<String> = ["OIDServiceConfiguration", "OKTServiceConfiguration"]

    /// What AppAuth itself derives from a state (`OIDAuthState.m`): the newest token response, else the
    /// authorization response; the state's own refresh token, kept across refreshes, is the one that counts. The
    /// response keys are the wire names (`OIDFieldMapping`): `access_token`, `expires_in` as an absolute `NSDate`,
    /// `id_token`, `request` → `client_id`, `configuration` → `issuer`.
    private static func authState(_ state: LegacyArchive.Object, in archive: LegacyArchive) throws(MigrationError)
        -> LegacyCredentials
    {
        if archive.contains("authorizationError", in: state) {
            throw MigrationError(.notSignedIn, "the archived AppAuth state holds an authorization error")
        }
        let tokenResponse = archive.object("lastTokenResponse", of: state, responseNames)
        let authorizationResponse = archive.object("lastAuthorizationResponse", of: state, responseNames)
        guard let response = tokenResponse ?? authorizationResponse else {
            throw MigrationError(.notSignedIn, "the archived AppAuth state has no response")
        }
        let request = archive.object("request", of: response, requestNames)
        let configuration = request.flatMap { archive.object("configuration", of: $0, configurationNames) }
        return LegacyCredentials(
            accessToken: archive.string("access_token", of: response),
            refreshToken: archive.string("refreshToken", of: state) ?? archive.string("refresh_token", of: response),
            idToken: archive.string("id_token", of: response), expiresAt: archive.date("expires_in", of: response),
            scope: archive.string("scope", of: state) ?? archive.string("scope", of: response),
            tokenType: archive.string("token_type", of: response),
            issuer: configuration.flatMap { archive.url("issuer", of: $0)?.absoluteString },
            clientID: request.flatMap { archive.string("client_id", of: $0) })
    }

    /// GTMOAuth2's keychain string: no expiry is stored, so the access token counts as expired.
    private static func gtmOAuth2(_ data: Data) throws(MigrationError) -> LegacyCredentials {
        guard let text = String(data: data, encoding: .utf8), text.contains("=") else {
            throw MigrationError(.unreadable, "the item is neither a GTMAppAuth archive nor a GTMOAuth2 string")
        }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let key = parts[0].removingPercentEncoding,
                let value = parts[1].removingPercentEncoding
            else { throw MigrationError(.unreadable, "the GTMOAuth2 string has a malformed field") }
            guard fields.updateValue(value, forKey: key) == nil else {
                throw MigrationError(.unreadable, "the GTMOAuth2 string names a field twice")
            }
        }
        return LegacyCredentials(
            accessToken: fields["access_token"], refreshToken: fields["refresh_token"], expiresAt: .distantPast,
            scope: fields["scope"])
    }

    /// okta-mobile-swift's `Token` JSON: 2.x (`issuedAt`, `context.configuration.issuerURL`/`clientId`, `rawValue`
    /// the token response as a string, or as an object in newer builds) or 1.x (`accessToken`, `expiresIn`,
    /// `context.configuration.baseURL`). `issuedAt` is seconds since 2001 (`JSONEncoder`'s default date encoding).
    static func okta(_ data: Data) throws(MigrationError) -> LegacyCredentials {
        guard let object = try? JSONReader().parse(Array(data)).objectValue else {
            throw MigrationError(.unreadable, "the Okta token item is not a JSON object")
        }
        let configuration = object["context"]?.objectValue?["configuration"]?.objectValue
        let issuer = configuration?["issuerURL"]?.stringValue ?? configuration?["baseURL"]?.stringValue
        let clientID = configuration?["clientId"]?.stringValue
        let issuedAt = (object["issuedAt"]?.numberValue?.double).map { Date(timeIntervalSinceReferenceDate: $0) }
        let fields: (String) -> JSONValue?
        if let raw = object["rawValue"] {
            if let text = raw.stringValue, let parsed = try? JSONReader().parse(Array(text.utf8)).objectValue {
                fields = { parsed[$0] }
            } else if let parsed = raw.objectValue {
                fields = { parsed[$0] }
            } else {
                throw MigrationError(.unreadable, "the Okta token's rawValue is not a token response")
            }
        } else if object["accessToken"] != nil || object["refreshToken"] != nil {
            // 1.x: the response's fields under camel-case names.
            let names = [
                "accessToken": "access_token", "refreshToken": "refresh_token", "idToken": "id_token",
                "expiresIn": "expires_in", "scope": "scope", "tokenType": "token_type",
            ]
            let wire = Dictionary(uniqueKeysWithValues: names.map { ($1, $0) })
            fields = { wire[$0].flatMap { object[$0] } }
        } else {
            throw MigrationError(.unreadable, "the item is not an Okta token (no rawValue, no tokens)")
        }
        let expiresIn = fields("expires_in")?.numberValue?.double
        return LegacyCredentials(
            accessToken: fields("access_token")?.stringValue, refreshToken: fields("refresh_token")?.stringValue,
            idToken: fields("id_token")?.stringValue,
            expiresAt: expiresIn.map { (issuedAt ?? .distantPast).addingTimeInterval($0) },
            scope: fields("scope")?.stringValue, tokenType: fields("token_type")?.stringValue, issuer: issuer,
            clientID: clientID)
    }

    /// A token response as JSON (RFC 6749 §5.1 names). `expires_in` is relative to a time nobody recorded, so the
    /// access token counts as expired and the first use refreshes it.
    static func tokenResponseJSON(_ data: Data) throws(MigrationError) -> LegacyCredentials {
        guard let object = try? JSONReader().parse(Array(data)).objectValue else {
            throw MigrationError(.unreadable, "the item is not a JSON object")
        }
        return LegacyCredentials(
            accessToken: object["access_token"]?.stringValue, refreshToken: object["refresh_token"]?.stringValue,
            idToken: object["id_token"]?.stringValue, expiresAt: .distantPast, scope: object["scope"]?.stringValue,
            tokenType: object["token_type"]?.stringValue)
    }

    /// An item that holds a refresh token alone (UTF-8).
    static func refreshToken(_ data: Data) throws(MigrationError) -> LegacyCredentials {
        guard let text = String(data: data, encoding: .utf8) else {
            throw MigrationError(.unreadable, "the item is not UTF-8")
        }
        return LegacyCredentials(refreshToken: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
