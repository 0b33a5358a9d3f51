import Foundation
import WardenCore
import WardenJOSE
import WardenLocalProvider

/// `warden provider`: a local OpenID provider on a loopback port that behaves as a real one does — its issuer form,
/// its scopes and refresh-token rules, and only the endpoints it announces — so a newcomer tries a preset, `warden
/// login`, `warden discover` and the library against "Google" or "Entra, multi-tenant" without an account there.
struct ProviderCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "provider",
        abstract:
            "Run a local OpenID provider that behaves like Auth0, Google, Okta, Keycloak or Entra (no account needed).",
        discussion: """
            Prints one JSON object — issuer, client_id, emulation, the login command to try, and for Entra the \
            multi-tenant issuer and template — then serves until interrupted (or --for SEC). It signs in the demo \
            user without a page. It announces what that provider announces: Google no end_session_endpoint, PAR or \
            DPoP; Entra no revocation, PAR or DPoP; Auth0 no PAR or DPoP (add-ons), and with auth0-legacy-logout no \
            end_session_endpoint (a tenant that never enabled its discovery). For trying things only: it runs on \
            127.0.0.1 over plain HTTP, which Warden accepts for loopback issuers alone.
            """,
        options: [
            .value("emulate", "NAME", "auth0, auth0-legacy-logout, google, okta, keycloak, entra (default: none)."),
            .value("client-id", "ID", "The public client it accepts (default warden-demo)."),
            .value(
                "redirect-uri", "URI", "A redirect to register besides the loopback one (repeatable).", repeatable: true
            ),
            .value("tenant", "GUID", "Entra: the demo user's tenant (default 9188040d-6c67-4c5b-b112-36a304b66dad)."),
            .value("for", "SEC", "Stop after SEC seconds (default: until interrupted)."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let tenant = arguments.value("tenant") ?? "9188040d-6c67-4c5b-b112-36a304b66dad"
        let name = arguments.value("emulate") ?? "none"
        let emulation: ProviderEmulation
        switch name {
        case "none": emulation = ProviderEmulation()
        case "auth0": emulation = .auth0
        case "auth0-legacy-logout": emulation = .auth0WithoutLogoutDiscovery
        case "google": emulation = .google
        case "okta": emulation = .okta
        case "keycloak": emulation = .keycloak
        case "entra":
            guard TenantIssuerTemplate.isTenantID(tenant) else {
                throw CLIError.usage("--tenant must be a tenant ID (a GUID)")
            }
            emulation = .entra(tenant: tenant)
        default:
            throw CLIError.usage(
                "--emulate takes auth0, auth0-legacy-logout, google, okta, keycloak or entra, not '\(name.prefix(32))'")
        }
        let seconds = try arguments.integer("for", range: 1...86_400)
        let provider: LocalProvider
        do {
            provider = try LocalProvider(
                clientID: arguments.value("client-id") ?? "warden-demo", redirectURIs: arguments.all("redirect-uri"))
        } catch let error as any WardenError {
            throw CLIError.usage(error.reason, code: error.codeName)
        }
        defer { provider.stop() }
        provider.emulation = emulation
        var fields: [String: String] = [
            "issuer": provider.issuer, "client_id": provider.clientID, "emulation": name,
            "login": "warden login --issuer \(provider.issuer) --client-id \(provider.clientID)",
        ]
        if name == "entra" {
            let common = provider.base + "/common/v2.0"
            let template = provider.base + "/{tenantid}/v2.0"
            fields["multi_tenant_issuer"] = common
            fields["issuer_template"] = template
            fields["login"] =
                "warden login --issuer \(common) --client-id \(provider.clientID) --issuer-template '\(template)'"
        }
        io.out(JSONOutput.string(fields))
        if let seconds {
            try? await Task.sleep(for: .seconds(seconds))
        } else {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        }
        return ExitCode.success
    }
}
