import Foundation
import WardenCore
import WardenCrypto

/// Sign-in with a username that never tells whether the account exists (WebAuthn Level 3 §14.6.2 "Username
/// Enumeration" and §14.6.3 "Privacy leak via credential IDs"): the options for an unknown name look like a known
/// user's, and every refused assertion gets the same answer after the same work.
///
/// - **Options.** A known user's `allowCredentials` are their credentials'; an unknown user's — and a known user
///   without a passkey — are one to three decoy descriptors derived from HMAC-SHA256 of the NFKC-normalised name under
///   a server secret: stable for the name (asking twice gives the same list, as for a real user), unlinkable without
///   the secret, shaped like your stored credentials (``decoyIDLengths``, ``decoyTransports``). The HMAC runs for
///   every request, known or not.
/// - **Assertions.** ``verifyAssertion(_:challenge:credential:relyingParty:allowCredentials:expectedUserHandle:requireUserVerification:)``
///   takes the stored record, or nil when the credential ID is unknown; for nil it verifies against a decoy record
///   whose key nobody holds, so that an unknown credential runs the same checks — client data, authenticator data, a
///   P-256 signature verification — as a known one with a bad signature. Every refusal is
///   ``PasskeyErrorDomain/Code/signInFailed`` with one reason; the real code is logged at debug level for the server.
///
/// ```swift
/// let privacy = try AccountPrivacy(secret: serverSecret)   // 32+ bytes, the same on every instance, kept
/// let options = privacy.requestOptions(
///     relyingParty: rp, challenge: challenge, username: name, credentials: try? store.credentials(of: name))
/// // later, with the browser's response:
/// let result = try privacy.verifyAssertion(
///     response, challenge: challenge.value, credential: try? store.credential(id: response.credentialID),
///     relyingParty: rp, allowCredentials: options.allowCredentials.map(\.id))
/// ```
public struct AccountPrivacy: Sendable {
    private let key: HMACKey
    /// A record whose key nobody holds: unknown credentials are verified against it.
    private let decoyKey: [UInt8]
    /// The credential-ID lengths, in bytes, decoys draw from.
    public let decoyIDLengths: [Int]
    /// The transport lists decoys draw from (`[[]]`: none, as the Apple platform registers).
    public let decoyTransports: [[String]]

    /// The lengths of real passkey credential IDs (Apple's 20 bytes, Google's 16 and 32, Windows Hello's 32).
    public static let credentialIDLengths = [16, 20, 32]

    /// A privacy policy keyed by `secret` (at least 32 bytes, random, kept across restarts and shared by every
    /// instance: another secret changes the decoys an unknown name gets, which an attacker could notice).
    ///
    /// Decoys must look like your stored credentials: `decoyIDLengths` are the ID lengths your users' authenticators
    /// make (default 16, 20 and 32 bytes: platform passkeys; add 48 or 64 when security keys register), and
    /// `decoyTransports` the transport lists your records carry (default none, as the Apple platform registers
    /// without transports; `[["internal", "hybrid"]]` when browsers report them).
    public init(
        secret: [UInt8], decoyIDLengths: [Int] = AccountPrivacy.credentialIDLengths,
        decoyTransports: [[String]] = [[]]
    ) throws(PasskeyError) {
        guard secret.count >= 32 else {
            throw PasskeyError(.invalidConfiguration, "the decoy secret must be at least 32 bytes")
        }
        guard !decoyIDLengths.isEmpty, decoyIDLengths.allSatisfy({ (16...64).contains($0) }), !decoyTransports.isEmpty
        else {
            throw PasskeyError(.invalidConfiguration, "decoy ID lengths must be 16...64 bytes, with transports given")
        }
        self.decoyIDLengths = decoyIDLengths
        self.decoyTransports = decoyTransports
        key = HMACKey(secret, hash: .sha256)
        // A fresh P-256 key whose private half is dropped at once: no one can sign for the decoy.
        let point: (first: [UInt8], second: [UInt8])
        do { point = try ECPrivateKey(curve: .p256).publicKey.components } catch {
            throw PasskeyError(.invalidConfiguration, "no P-256 key for the decoy: \(error.reason)")
        }
        decoyKey = CBOREncoder.encode(
            CBOREncoder.map([
                (.unsigned(1), .unsigned(2)), (.unsigned(3), CBOREncoder.int(-7)), (.negative(-1), .unsigned(1)),
                (.negative(-2), .bytes(point.first)), (.negative(-3), .bytes(point.second)),
            ]))
    }

    /// The decoy descriptors of `username`: one to three, stable for the name, their ID lengths and transports drawn
    /// from ``decoyIDLengths`` and ``decoyTransports``.
    ///
    /// Give the name exactly as your account lookup keys it (lower-cased for a case-insensitive e-mail lookup): the
    /// decoys are keyed by the NFKC form of the given text, so two spellings your lookup takes as one account must
    /// reach here as one string too.
    public func decoyCredentials(for username: String) -> [PasskeyCredentialDescriptor] {
        let name = Array(username.precomposedStringWithCompatibilityMapping.utf8)
        let seed = key.authenticationCode(for: Array("warden.passkeys.decoy".utf8) + [0] + name)
        let count = 1 + Int(seed[0]) % 3
        return (0..<count).map { index in
            let length = decoyIDLengths[Int(seed[1 + index]) % decoyIDLengths.count]
            let material =
                key.authenticationCode(for: seed + [UInt8(index), 0])
                + key.authenticationCode(for: seed + [UInt8(index), 1])
            let transports = decoyTransports[Int(seed[4 + index]) % decoyTransports.count]
            return PasskeyCredentialDescriptor(id: Array(material.prefix(length)), transports: transports)
        }
    }

    /// The `allowCredentials` for `username`: its credentials' descriptors, or the decoys when it has none (unknown,
    /// or known without a passkey). The decoys are computed either way, so both cost the same.
    public func allowCredentials(for username: String, credentials: [CredentialRecord]?)
        -> [PasskeyCredentialDescriptor]
    {
        let decoys = decoyCredentials(for: username)
        guard let credentials, !credentials.isEmpty else { return decoys }
        return credentials.map(PasskeyCredentialDescriptor.init)
    }

    /// Sign-in options for `username` that look the same whether or not the account exists.
    public func requestOptions(
        relyingParty: RelyingParty, challenge: PasskeyChallenge, username: String, credentials: [CredentialRecord]?,
        userVerification: PasskeyRequirement = .preferred, now: Date = Date()
    ) -> PasskeyRequestOptions {
        PasskeyRequestOptions(
            relyingParty: relyingParty, challenge: challenge,
            allowCredentials: allowCredentials(for: username, credentials: credentials),
            userVerification: userVerification, now: now)
    }

    /// Verifies a sign-in as ``RelyingParty/verifyAssertion(_:challenge:credential:allowCredentials:expectedUserHandle:requireUserVerification:)``
    /// does, with `credential` nil when the response's credential ID is unknown: then against a decoy record whose
    /// key nobody holds, through the same checks. Every refusal is ``PasskeyErrorDomain/Code/signInFailed``.
    public func verifyAssertion(
        _ response: AssertionResponse, challenge: [UInt8], credential: CredentialRecord?,
        relyingParty: RelyingParty, allowCredentials: [[UInt8]]? = nil, expectedUserHandle: [UInt8]? = nil,
        requireUserVerification: Bool = false
    ) throws(PasskeyError) -> AssertionResult {
        switch verify(
            response, challenge: challenge, credential: credential, relyingParty: relyingParty,
            allowCredentials: allowCredentials, expectedUserHandle: expectedUserHandle,
            requireUserVerification: requireUserVerification)
        {
        case .success(let result): return result
        case .failure(let error):
            WardenLogger(category: "passkeys").debug(
                "sign-in refused", metadata: ["code": error.codeName, "known_credential": "\(credential != nil)"])
            throw PasskeyError(.signInFailed, "the sign-in could not be verified")
        }
    }

    /// The verification with its real refusal (for the server's log and the tests, never for the client).
    package func verify(
        _ response: AssertionResponse, challenge: [UInt8], credential: CredentialRecord?,
        relyingParty: RelyingParty, allowCredentials: [[UInt8]]?, expectedUserHandle: [UInt8]? = nil,
        requireUserVerification: Bool
    ) -> Result<AssertionResult, PasskeyError> {
        let decoy = CredentialRecord(
            id: response.credentialID, publicKey: decoyKey, algorithm: .es256, signCount: 0,
            backupEligible: Self.backupEligible(response), userHandle: response.userHandle ?? [0])
        do throws(PasskeyError) {
            let result = try relyingParty.verifyAssertion(
                response, challenge: challenge, credential: credential ?? decoy, allowCredentials: allowCredentials,
                expectedUserHandle: credential == nil ? nil : expectedUserHandle,
                requireUserVerification: requireUserVerification)
            guard credential != nil else {
                // Unreachable unless someone holds the decoy's private key.
                return .failure(PasskeyError(.invalidSignature, "an assertion verified against the decoy key"))
            }
            return .success(result)
        } catch {
            // A known credential refused before its signature (another user handle, backup state) would answer
            // sooner than an unknown one, which always reaches the decoy's signature: spend that work too.
            if credential != nil, Self.refusedBeforeTheSignature(error) {
                _ = try? relyingParty.verifyAssertion(
                    response, challenge: challenge, credential: decoy, allowCredentials: [response.credentialID],
                    requireUserVerification: requireUserVerification)
            }
            return .failure(error)
        }
    }

    /// Refusals of a stored record that come before the client data and the signature are checked.
    static func refusedBeforeTheSignature(_ error: PasskeyError) -> Bool {
        [
            .credentialNotAllowed, .credentialIDMismatch, .userHandleMismatch, .invalidConfiguration,
            .backupEligibilityChanged,
        ].contains(error.code)
    }

    /// The decoy's backup eligibility is the response's, so that the check of it passes as a stored record's would and
    /// the signature check is reached.
    private static func backupEligible(_ response: AssertionResponse) -> Bool {
        (try? AuthenticatorData(bytes: response.authenticatorData))?.flags.contains(.backupEligible) ?? false
    }
}
