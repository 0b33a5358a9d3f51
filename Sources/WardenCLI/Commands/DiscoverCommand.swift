import Foundation
import WardenCore
import WardenJOSE
import WardenOAuth

/// `warden discover ISSUER`: what sign-in will find at a provider, checked before an app ships against it.
struct DiscoverCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "discover",
        abstract: "Fetch a provider's discovery document and check what sign-in will need.",
        arguments: "ISSUER",
        discussion: """
            Checks: the announced issuer equals ISSUER exactly (a trailing slash, an Entra {tenantid} template are \
            named), https endpoints, PKCE S256, whether sign-in will be pushed (PAR), DPoP, the RFC 9207 iss \
            parameter, offline_access among the scopes, the end-session and revocation endpoints. Exit 0 when sign-in \
            can work, 1 when a check blocks it or the provider answers without a document (404, 5xx), 75 when the \
            provider cannot be reached (offline, a timeout: retry).
            """,
        options: [.flag("json", "Print {\"issuer\",\"checks\":[{\"check\",\"status\",\"detail\"}],\"metadata\"}.")])

    struct Check {
        enum Status: String { case ok, warning, blocking }
        let name: String
        let status: Status
        let detail: String
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        guard let issuer = arguments.positionals.first, arguments.positionals.count == 1 else {
            throw CLIError.usage("give one ISSUER")
        }
        let document: Data
        do {
            document = try await ProviderMetadata.fetchDocument(issuer: issuer, transport: URLSessionTransport())
        } catch {
            if error.code == .invalidConfiguration || error.code == .insecureEndpoint {
                throw CLIError.usage(error.reason, code: error.codeName)
            }
            throw CLIError.from(error)
        }
        let object: JSONObject
        do { object = try JSONReader(maximumBytes: 256 * 1024).parseObject(Array(document)) } catch {
            throw CLIError.rejected("invalid_metadata", "the discovery document is not a JSON object")
        }
        let checks = self.checks(issuer: issuer, document: document, object: object)
        if arguments.has("json") {
            let list = checks.map { ["check": $0.name, "status": $0.status.rawValue, "detail": $0.detail] }
            let metadata = (try? JSONSerialization.jsonObject(with: document)) ?? [:]
            io.out(JSONOutput.string(["issuer": issuer, "checks": list, "metadata": metadata]))
        } else {
            for check in checks {
                let mark = check.status == .ok ? "✔" : check.status == .warning ? "!" : "✘"
                // Details quote values from the network: control and format characters (terminal escapes, bidi
                // overrides) are shown escaped, never interpreted.
                io.out("\(mark) \(check.name): \(IssuerMismatch.controlsEscaped(check.detail))")
            }
        }
        return checks.contains { $0.status == .blocking } ? ExitCode.rejected : ExitCode.success
    }

    static func checks(issuer: String, document: Data, object: JSONObject) -> [Check] {
        var checks: [Check] = []
        let announced = object["issuer"]?.stringValue
        func strings(_ name: String) -> [String]? { object[name]?.arrayValue?.compactMap(\.stringValue) }
        guard let announced else {
            return [Check(name: "issuer", status: .blocking, detail: "the document announces no issuer")]
        }
        // Code points, byte for byte, as sign-in compares them (Swift's == would equate canonically equivalent forms).
        if CodePoints.equal(announced, issuer) {
            checks.append(Check(name: "issuer", status: .ok, detail: "announced exactly as configured"))
        } else {
            checks.append(
                Check(
                    name: "issuer", status: .blocking,
                    detail: IssuerMismatch.explain(configured: issuer, announced: announced)))
        }
        // The rest as sign-in reads it (endpoints https, PAR consistency), against the announced issuer.
        let metadata: ProviderMetadata
        do { metadata = try ProviderMetadata(json: document, expectedIssuer: announced) } catch {
            checks.append(Check(name: "metadata", status: .blocking, detail: error.reason))
            return checks
        }
        checks.append(
            Check(
                name: "endpoints", status: .ok,
                detail: "authorization, token and the others are https (or http to a loopback IP literal)"))
        let methods = metadata.codeChallengeMethodsSupported
        checks.append(
            methods.contains("S256")
                ? Check(name: "pkce", status: .ok, detail: "S256 announced")
                : methods.isEmpty
                    ? Check(
                        name: "pkce", status: .warning,
                        detail: "code_challenge_methods_supported is not announced; Warden sends S256 regardless")
                    : Check(name: "pkce", status: .blocking, detail: "S256 is not supported (\(methods))"))
        if metadata.requirePushedAuthorizationRequests {
            checks.append(Check(name: "par", status: .ok, detail: "required: every sign-in is pushed"))
        } else if metadata.pushedAuthorizationRequestEndpoint != nil {
            checks.append(Check(name: "par", status: .ok, detail: "available: sign-in pushes by default"))
        } else {
            checks.append(Check(name: "par", status: .ok, detail: "not offered: parameters go in the browser URL"))
        }
        checks.append(
            metadata.dpopSigningAlgorithms.isEmpty
                ? Check(name: "dpop", status: .ok, detail: "not offered: Bearer tokens")
                : Check(
                    name: "dpop", status: .ok,
                    detail: "offered (\(metadata.dpopSigningAlgorithms.joined(separator: ", "))): DPoPBinding works"))
        checks.append(
            metadata.authorizationResponseIssParameterSupported
                ? Check(name: "iss parameter", status: .ok, detail: "RFC 9207: responses carry iss, which is required")
                : Check(
                    name: "iss parameter", status: .warning,
                    detail: "not announced: mix-up protection rests on the per-provider redirect URI"))
        if let scopes = strings("scopes_supported") {
            checks.append(
                scopes.contains("offline_access")
                    ? Check(name: "scopes", status: .ok, detail: "offline_access announced")
                    : Check(
                        name: "scopes", status: .warning,
                        detail:
                            "offline_access is not announced, so Warden does not send it: refresh tokens need the "
                            + "provider's own parameter (Google: access_type=offline; ProviderPreset.google)"))
        }
        checks.append(
            metadata.endSessionEndpoint == nil
                ? Check(name: "end session", status: .warning, detail: "no end_session_endpoint: logout is local only")
                : Check(name: "end session", status: .ok, detail: "RP-initiated logout available"))
        checks.append(
            metadata.revocationEndpoint == nil
                ? Check(
                    name: "revocation", status: .warning, detail: "no revocation_endpoint: sign-out cannot revoke")
                : Check(name: "revocation", status: .ok, detail: "RFC 7009 revocation available"))
        return checks
    }
}
