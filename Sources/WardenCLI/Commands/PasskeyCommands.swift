import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenPasskeys

struct PasskeyCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "passkey", abstract: "Verify WebAuthn registrations and sign-ins as a relying party.",
        subcommands: [
            PasskeyIssueChallengeCommand.self, PasskeyVerifyRegistrationCommand.self,
            PasskeyVerifyAssertionCommand.self,
        ])
}

/// Options and helpers both passkey commands share.
enum PasskeyInput {
    static let common: [OptionSpec] = [
        .value("rp-id", "ID", "The relying party ID (a domain, e.g. example.com).").required(),
        .value("origin", "URL", "An allowed origin, e.g. https://example.com (repeatable).", repeatable: true)
            .required(),
        .value("challenge", "B64URL", "The challenge the server issued (base64url).").oneOf("challenge"),
        .value(
            "challenge-store", "URL",
            "Take the challenge the response signed from a shared store (redis://...), once, instead of --challenge."
        ).oneOf("challenge"),
        .value("binding", "ID", "With --challenge-store: the session or user the challenge was issued to."),
        .flag("require-uv", "Require user verification (UV flag)."),
        .flag("allow-cross-origin", "Accept crossOrigin: true (iframes on other sites)."),
        .value("top-origin", "URL", "An allowed topOrigin for cross-origin calls (repeatable).", repeatable: true),
    ]

    static func relyingParty(_ arguments: ParsedArguments) throws -> RelyingParty {
        let origins = arguments.all("origin")
        guard !origins.isEmpty else { throw CLIError.usage("missing '--origin'") }
        var rp: RelyingParty
        do {
            rp = try RelyingParty(id: try arguments.required("rp-id"), origins: Set(origins))
        } catch let error as PasskeyError {
            throw CLIError.usage(error.reason, code: error.codeName)
        }
        rp.allowsCrossOrigin = arguments.has("allow-cross-origin")
        rp.allowedTopOrigins = Set(arguments.all("top-origin"))
        return rp
    }

    static func bytes(_ arguments: ParsedArguments, _ name: String) throws -> [UInt8]? {
        guard let text = arguments.value(name) else { return nil }
        guard let bytes = try? Base64URL.decode(text), !bytes.isEmpty else {
            throw CLIError.usage("'--\(name)' must be non-empty base64url")
        }
        return bytes
    }

    static func rejected(_ error: PasskeyError) -> CLIError {
        CLIError.from(error, configuration: error.failureKind == .misconfiguration)
    }

    /// Where the challenge a response must have signed comes from: `--challenge`, or `--challenge-store` with
    /// `--binding`. Read before anything else, so a wrong invocation is a usage error whatever the file holds.
    enum ChallengeSource {
        case given([UInt8])
        case store(any ChallengeStore, binding: String)

        init(_ arguments: ParsedArguments, io: CommandIO) throws {
            guard let store = try SharedStores.challengeStore(arguments, io: io) else {
                // The parser let exactly one of --challenge and --challenge-store through.
                guard let challenge = try PasskeyInput.bytes(arguments, "challenge") else {
                    throw CLIError.usage("missing '--challenge'")
                }
                self = .given(challenge)
                return
            }
            self = .store(store, binding: try arguments.required("binding"))
        }

        /// The challenge: the given one, or the one `clientDataJSON` names, taken from the store (so no other
        /// instance can redeem it).
        func challenge(for clientDataJSON: [UInt8], ceremony: PasskeyChallenge.Ceremony) async throws -> [UInt8] {
            switch self {
            case .given(let challenge):
                return challenge
            case .store(let store, let binding):
                do {
                    return try await store.redeem(clientDataJSON: clientDataJSON, binding: binding, ceremony: ceremony)
                        .value
                } catch let error as PasskeyError {
                    throw PasskeyInput.rejected(error)
                }
            }
        }
    }
}

struct PasskeyIssueChallengeCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "issue-challenge", abstract: "Issue a challenge into a shared store; print it (base64url).",
        discussion: """
            Stores 32 fresh random bytes for the session or user --binding, valid once and for --lifetime seconds
            (default 300), where any process verifying with the same --challenge-store can redeem them once. Exit 0
            and the challenge; 75 when the store cannot answer (retry); 2 invocation error.
            """,
        options: [
            .value("challenge-store", "URL", "The shared store: redis://[user@]host[:port][/db].").required(),
            .value("binding", "ID", "The session or user the challenge is for.").required(),
            .value("ceremony", "NAME", "authentication (default) or registration."),
            .value("lifetime", "SEC", "Seconds the challenge stays valid (default 300)."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        guard let store = try SharedStores.challengeStore(arguments, io: io) else {
            throw CLIError.usage("missing '--challenge-store'")
        }
        let binding = try arguments.required("binding")
        guard let ceremony = PasskeyChallenge.Ceremony(rawValue: arguments.value("ceremony") ?? "authentication") else {
            throw CLIError.usage("'--ceremony' must be authentication or registration")
        }
        let lifetime = try arguments.integer("lifetime", range: 1...86_400) ?? 300
        do {
            let challenge = try await store.issue(
                binding: binding, ceremony: ceremony, lifetime: TimeInterval(lifetime))
            io.out(challenge.base64URL)
            return ExitCode.success
        } catch let error as PasskeyError {
            throw PasskeyInput.rejected(error)
        }
    }
}

struct PasskeyVerifyRegistrationCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "verify-registration", abstract: "Verify a registration response; print the credential record.",
        arguments: "FILE",
        discussion: """
            FILE holds PublicKeyCredential.toJSON() of navigator.credentials.create() ('-' reads stdin). Accepted:
            exit 0 and the credential record JSON (what --credential of verify-assertion reads); the record names
            the account (--user-handle) every sign-in with the credential belongs to. Rejected: exit 1
            and the reason code. Attestation: none, packed (self or x5c) and apple are verified; x5c chains are
            checked against --attestation-roots (packed) or Apple's WebAuthn root (apple).
            """,
        options: PasskeyInput.common + [
            .value("user-handle", "B64URL", "The user.id of the creation options (stored in the record).").required(),
            .value(
                "attestation-roots", "PEM", "Trusted roots for packed certificates (and, besides Apple's, for apple)."),
            .flag("require-trusted-attestation", "Accept only attestation chains that reach a configured root."),
            .flag("accept-unknown-attestation", "Treat unsupported formats (tpm, android-key...) as none."),
            .value("now", "UNIX", "Judge certificate validity at this time (seconds since 1970)."),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        var rp = try PasskeyInput.relyingParty(arguments)
        let source = try PasskeyInput.ChallengeSource(arguments, io: io)
        if let path = arguments.value("attestation-roots") {
            do {
                let roots = try X509Certificate.certificates(pemOrDER: Array(try Input.file(path, io: io)))
                rp.attestation.trustAnchors[.packed] = roots
                rp.attestation.trustAnchors[.apple] = AttestationPolicy.appleWebAuthnRoots + roots
            } catch let error as CryptoError {
                throw CLIError.usage("'--attestation-roots': \(error.reason)", code: error.codeName)
            }
        }
        rp.attestation.requireTrustedAttestation = arguments.has("require-trusted-attestation")
        rp.attestation.acceptsUnknownFormatsAsNone = arguments.has("accept-unknown-attestation")
        guard let userHandle = try PasskeyInput.bytes(arguments, "user-handle") else {
            throw CLIError.usage("missing '--user-handle' (the account the credential belongs to)")
        }
        let now = try TokenInput.now(arguments)()
        let file = Array(try Input.file(try arguments.singlePositional("FILE"), io: io))
        let response: RegistrationResponse
        do { response = try RegistrationResponse(json: file) } catch { throw PasskeyInput.rejected(error) }
        let challenge = try await source.challenge(for: response.clientDataJSON, ceremony: .registration)
        do {
            let result = try rp.verifyRegistration(
                response, challenge: challenge, userHandle: userHandle,
                requireUserVerification: arguments.has("require-uv"), now: now)
            io.out(result.credential.json())
            return ExitCode.success
        } catch {
            throw PasskeyInput.rejected(error)
        }
    }
}

struct PasskeyVerifyAssertionCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "verify-assertion", abstract: "Verify a sign-in against a credential record; print the new sign count.",
        arguments: "FILE",
        discussion: """
            FILE holds PublicKeyCredential.toJSON() of navigator.credentials.get() ('-' reads stdin); RECORD is the
            JSON printed by verify-registration. Accepted: exit 0 and the new sign count. Rejected: exit 1 and the
            reason code (a counter that did not increase is sign_count_regression; a response userHandle other than
            the record's is user_handle_mismatch). The account signed in is the record's userHandle.
            """,
        options: PasskeyInput.common + [
            .value("user-handle", "B64URL", "The account expected to sign in: the record must belong to it."),
            .value("credential", "RECORD", "The stored credential record (JSON).").required(),
            .flag(
                "json", #"Print {"signCount":N,"userHandle":B64URL,"userVerified":B,"backedUp":B,"record":{...}}."#),
        ])

    static func run(_ arguments: ParsedArguments, io: CommandIO) async throws -> Int32 {
        let rp = try PasskeyInput.relyingParty(arguments)
        let source = try PasskeyInput.ChallengeSource(arguments, io: io)
        let recordBytes = Array(try Input.file(try arguments.required("credential"), io: io))
        let record: CredentialRecord
        do {
            record = try CredentialRecord(json: recordBytes)
        } catch {
            throw CLIError.usage("'--credential': \(error.reason)", code: error.codeName)
        }
        let file = Array(try Input.file(try arguments.singlePositional("FILE"), io: io))
        let response: AssertionResponse
        do { response = try AssertionResponse(json: file) } catch { throw PasskeyInput.rejected(error) }
        let challenge = try await source.challenge(for: response.clientDataJSON, ceremony: .authentication)
        do {
            // The command checks one named credential, as a sign-in with allowCredentials does.
            let result = try rp.verifyAssertion(
                response, challenge: challenge, credential: record, allowCredentials: [record.id],
                expectedUserHandle: try PasskeyInput.bytes(arguments, "user-handle"),
                requireUserVerification: arguments.has("require-uv"))
            if arguments.has("json") {
                let updated = record.updated(by: result)
                let recordObject = (try? JSONSerialization.jsonObject(with: Data(updated.json().utf8))) ?? [:]
                io.out(
                    JSONOutput.string([
                        "signCount": result.newSignCount, "userHandle": Base64URL.encode(result.userHandle),
                        "userVerified": result.userVerified,
                        "backedUp": result.backedUp, "record": recordObject,
                    ]))
            } else {
                io.out(String(result.newSignCount))
            }
            return ExitCode.success
        } catch let error as PasskeyError {
            throw PasskeyInput.rejected(error)
        }
    }
}
