import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE
import WardenLocalProvider
import WardenOAuth
import WardenPasskeys
import WardenSession
import WardenStorage
import WardenTestSupport

extension DemoCommand {
    /// 9. Passkeys, verified on the server.
    enum Passkeys: DemoLink {
        static let step: String? = "passkeys"
        static func links(in world: DemoWorld) async -> [Link] { [await passkeys()] }
    }

    /// A passkey registration and sign-in through server-issued challenges, then the three attacks a relying party
    /// must refuse: a replayed challenge, a cloned authenticator's counter, a look-alike origin.
    static func passkeys() async -> Link {
        let name = "passkeys verified server-side (WebAuthn)"
        do {
            let origin = "https://app.example.com"
            let rp = try RelyingParty(id: "example.com", origins: [origin])
            let challenges = InMemoryChallengeStore()
            let session = "demo-session"
            var authenticator = try LocalPasskeyAuthenticator()
            let userHandle = try SecureRandom().bytes(count: 16)
            let issued = try await challenges.issue(binding: session, ceremony: .registration)
            let registration = try authenticator.register(
                rpID: rp.id, origin: origin, challenge: issued.value, userHandle: userHandle)
            let redeemed = try await challenges.redeem(
                clientDataJSON: registration.clientDataJSON, binding: session, ceremony: .registration)
            let record = try rp.verifyRegistration(
                registration, challenge: redeemed.value, userHandle: userHandle, requireUserVerification: true
            ).credential

            func signIn(_ origin: String, count: UInt32? = nil) async throws -> (AssertionResponse, [UInt8]) {
                let challenge = try await challenges.issue(binding: session, ceremony: .authentication)
                let response =
                    try count.map {
                        try authenticator.assertion(rpID: rp.id, origin: origin, challenge: challenge.value, count: $0)
                    } ?? authenticator.assert(rpID: rp.id, origin: origin, challenge: challenge.value)
                return (response, challenge.value)
            }
            func verdict(_ body: () async throws -> Void) async -> String {
                do {
                    try await body()
                    return "accepted"
                } catch let error as PasskeyError {
                    return error.codeName
                } catch {
                    return "\(error)"
                }
            }
            let (assertion, _) = try await signIn(origin)
            let signInChallenge = try await challenges.redeem(
                clientDataJSON: assertion.clientDataJSON, binding: session, ceremony: .authentication)
            let result = try rp.verifyAssertion(
                assertion, challenge: signInChallenge.value, credential: record, requireUserVerification: true)
            let updated = record.updated(by: result)
            let replay = await verdict {
                _ = try await challenges.redeem(
                    clientDataJSON: assertion.clientDataJSON, binding: session, ceremony: .authentication)
            }
            let (cloned, clonedChallenge) = try await signIn(origin, count: updated.signCount)
            let clone = await verdict {
                _ = try rp.verifyAssertion(cloned, challenge: clonedChallenge, credential: updated)
            }
            let (phished, phishedChallenge) = try await signIn("https://app.examp1e.com")
            let phishing = await verdict {
                _ = try rp.verifyAssertion(phished, challenge: phishedChallenge, credential: updated)
            }
            let ok =
                result.newSignCount == 1 && result.userVerified && replay == "challenge_unknown"
                && clone == "sign_count_regression" && phishing == "origin_not_allowed"
            return Link(
                name: name, ok: ok,
                evidence:
                    "ES256 passkey registered (UV, \(updated.attestationFormat) attestation) and signed in with one-time challenges, counter \(result.newSignCount); replayed challenge → \(replay); cloned counter → \(clone); look-alike origin → \(phishing)"
            )
        } catch {
            return Link(name: name, ok: false, evidence: "\(error)")
        }
    }
}
