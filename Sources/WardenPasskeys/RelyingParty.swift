import Foundation
import WardenCore
import WardenCrypto

/// A WebAuthn relying party: verifies registrations (WebAuthn Level 3 §7.1) and sign-ins (§7.2) on the server.
///
/// ```swift
/// let rp = try RelyingParty(id: "example.com", origins: ["https://example.com"])
/// let registration = try rp.verifyRegistration(try RegistrationResponse(json: body), challenge: issued.value,
///                                              userHandle: user.handle)
/// save(registration.credential)
///
/// let assertion = try rp.verifyAssertion(try AssertionResponse(json: body), challenge: issued.value,
///                                        credential: stored)
/// save(stored.updated(by: assertion))                 // assertion.userHandle: the account, from the record
/// ```
///
/// Thread-safety: an immutable value, `Sendable`.
public struct RelyingParty: Sendable {
    /// What to do when the signature counter does not increase (§7.2 step 21).
    public enum SignCountPolicy: Sendable {
        /// Refuse with ``PasskeyErrorDomain/Code/signCountRegression`` (the default).
        case reject
        /// Accept and set ``AssertionResult/signCountRegressed`` for the caller to act on.
        case report
    }

    /// The RP ID (a registrable domain, e.g. `example.com`).
    public let id: String
    /// Origins allowed in `clientDataJSON.origin`, compared exactly (e.g. `https://example.com`,
    /// `https://login.example.com:8443`).
    public let origins: Set<String>
    /// Accept `crossOrigin: true` (an iframe on another site). Off by default.
    public var allowsCrossOrigin = false
    /// Top-level origins allowed for cross-origin calls (empty: any, when cross-origin is allowed). With an allowlist,
    /// a cross-origin response must name its `topOrigin`: one without it could come from any page.
    public var allowedTopOrigins: Set<String> = []
    /// Algorithms offered in `pubKeyCredParams`; registrations with other keys are refused.
    public var algorithms: [COSEAlgorithm] = COSEAlgorithm.supported
    /// How registrations' attestation statements are judged. The default ``AttestationPolicy`` checks `apple`
    /// chains against Apple's WebAuthn root and requires no trusted attestation.
    public var attestation = AttestationPolicy()
    /// What to do when the signature counter does not increase (default ``RelyingParty/SignCountPolicy/reject``).
    public var signCountPolicy = SignCountPolicy.reject

    /// SHA-256 of the RP ID.
    public let idHash: [UInt8]

    /// - Throws: ``PasskeyErrorDomain/Code/invalidConfiguration`` for an empty RP ID or origin set.
    public init(id: String, origins: Set<String>) throws(PasskeyError) {
        guard !id.isEmpty, !id.contains("/"), !id.contains(":") else {
            throw PasskeyError(.invalidConfiguration, "the RP ID is a domain, without scheme, port or path")
        }
        guard !origins.isEmpty, origins.allSatisfy({ !$0.isEmpty && !$0.hasSuffix("/") }) else {
            throw PasskeyError(.invalidConfiguration, "allowed origins are serialized origins without a trailing /")
        }
        self.id = id
        self.origins = origins
        self.idHash = HashFunction.sha256.hash(Array(id.utf8))
    }

    // MARK: - Registration

    /// Verifies a registration and returns the credential record to store.
    ///
    /// - Parameters:
    ///   - challenge: the challenge the server issued for this ceremony.
    ///   - userHandle: the `user.id` of the creation options (1 to 64 bytes): the account the credential belongs
    ///     to, stored in the record. Every sign-in with the credential names this account, whatever the
    ///     authenticator returns.
    ///   - requireUserVerification: refuse unless UV is set (`userVerification: "required"`).
    /// - Throws: ``PasskeyErrorDomain/Code/invalidConfiguration`` for an empty or over-long `userHandle`.
    public func verifyRegistration(
        _ response: RegistrationResponse, challenge: [UInt8], userHandle: [UInt8],
        requireUserVerification: Bool = false,
        now: Date = Date()
    ) throws(PasskeyError) -> RegistrationResult {
        guard (1...PasskeyCreationOptions.maximumUserIDBytes).contains(userHandle.count) else {
            throw PasskeyError(.invalidConfiguration, "the user handle is 1 to 64 bytes (WebAuthn user.id)")
        }
        let clientData = try CollectedClientData(json: response.clientDataJSON)
        try check(clientData, type: "webauthn.create", challenge: challenge)
        let object: CBORValue
        do {
            object = try CBORDecoder(maximumBytes: RegistrationResponse.maximumBytes, maximumDepth: 8).decode(
                response.attestationObject)
        } catch {
            throw PasskeyError(.malformed, "attestationObject: \(error)")
        }
        guard case .text(let format)? = object["fmt"], let statement = object["attStmt"],
            case .bytes(let authDataBytes)? = object["authData"]
        else { throw PasskeyError(.malformed, "attestationObject needs fmt, attStmt and authData") }
        let authenticatorData = try AuthenticatorData(bytes: authDataBytes)
        try check(authenticatorData, requireUserVerification: requireUserVerification)
        guard let credential = authenticatorData.attestedCredential else {
            throw PasskeyError(.invalidFlags, "registration without attested credential data (AT clear)")
        }
        guard ConstantTime.equals(credential.credentialID, response.credentialID) else {
            throw PasskeyError(.credentialIDMismatch, "rawId differs from the credential ID in authenticator data")
        }
        guard algorithms.contains(credential.publicKey.algorithm) else {
            throw PasskeyError(.algorithmNotAllowed, "\(credential.publicKey.algorithm) was not offered")
        }
        let (attestationFormat, attestationType) = try AttestationVerifier.verify(
            format: format, statement: statement, authenticatorData: authenticatorData,
            clientDataHash: clientData.hash, policy: attestation, now: now)
        let flags = authenticatorData.flags
        let record = CredentialRecord(
            id: credential.credentialID, publicKey: credential.publicKey.encoded,
            algorithm: credential.publicKey.algorithm, signCount: authenticatorData.signCount,
            transports: response.transports, backupEligible: flags.contains(.backupEligible),
            backedUp: flags.contains(.backedUp), uvInitialized: flags.contains(.userVerified),
            aaguid: credential.aaguid, userHandle: userHandle, attestationFormat: attestationFormat,
            attestationType: attestationType)
        return RegistrationResult(credential: record, extensions: authenticatorData.extensions)
    }

    // MARK: - Assertion

    /// Verifies a sign-in against a stored credential.
    ///
    /// - Parameters:
    ///   - allowCredentials: the IDs offered in `allowCredentials`, or `nil`/empty for a discoverable
    ///     (username-less) sign-in, where `userHandle` is then required.
    ///   - expectedUserHandle: the account the server expects (a sign-in for a known user): the record must
    ///     belong to it.
    ///
    /// The account is the record's ``CredentialRecord/userHandle``, reported as ``AssertionResult/userHandle``:
    /// a `userHandle` in the response must equal it (it is not covered by the signature, so it is never trusted on
    /// its own).
    public func verifyAssertion(
        _ response: AssertionResponse, challenge: [UInt8], credential: CredentialRecord,
        allowCredentials: [[UInt8]]? = nil, expectedUserHandle: [UInt8]? = nil,
        requireUserVerification: Bool = false
    ) throws(PasskeyError) -> AssertionResult {
        if let allowCredentials, !allowCredentials.isEmpty {
            guard allowCredentials.contains(where: { $0 == response.credentialID }) else {
                throw PasskeyError(.credentialNotAllowed, "the credential was not in allowCredentials")
            }
        } else if response.userHandle == nil {
            throw PasskeyError(.userHandleMismatch, "a discoverable sign-in must return userHandle")
        }
        guard ConstantTime.equals(response.credentialID, credential.id) else {
            throw PasskeyError(.credentialIDMismatch, "the response is for a different credential")
        }
        guard !credential.userHandle.isEmpty else {
            throw PasskeyError(.invalidConfiguration, "the credential record has no user handle")
        }
        if let handle = response.userHandle, !ConstantTime.equals(handle, credential.userHandle) {
            throw PasskeyError(.userHandleMismatch, "userHandle names a different user than the credential's")
        }
        if let expectedUserHandle, !ConstantTime.equals(expectedUserHandle, credential.userHandle) {
            throw PasskeyError(.userHandleMismatch, "the credential belongs to a different user than the expected one")
        }
        let clientData = try CollectedClientData(json: response.clientDataJSON)
        try check(clientData, type: "webauthn.get", challenge: challenge)
        let authenticatorData = try AuthenticatorData(bytes: response.authenticatorData)
        try check(authenticatorData, requireUserVerification: requireUserVerification)
        guard authenticatorData.attestedCredential == nil else {
            throw PasskeyError(.invalidFlags, "an assertion carries attested credential data")
        }
        let flags = authenticatorData.flags
        guard flags.contains(.backupEligible) == credential.backupEligible else {
            throw PasskeyError(.backupEligibilityChanged, "BE differs from the registration")
        }
        let key = try COSEKey.cached(bytes: credential.publicKey)
        guard try key.isValidSignature(response.signature, for: response.authenticatorData + clientData.hash) else {
            throw PasskeyError(.invalidSignature, "assertion signature does not verify")
        }
        var regressed = false
        let newCount = authenticatorData.signCount
        if newCount != 0 || credential.signCount != 0, newCount <= credential.signCount {
            guard signCountPolicy == .report else {
                throw PasskeyError(
                    .signCountRegression,
                    "signature counter \(newCount) is not above the stored \(credential.signCount): possible clone")
            }
            regressed = true
        }
        return AssertionResult(
            credentialID: credential.id, userHandle: credential.userHandle,
            newSignCount: regressed ? credential.signCount : newCount,
            userVerified: flags.contains(.userVerified), backedUp: flags.contains(.backedUp),
            signCountRegressed: regressed, extensions: authenticatorData.extensions)
    }

    // MARK: - Shared steps

    private func check(_ clientData: CollectedClientData, type: String, challenge: [UInt8]) throws(PasskeyError) {
        guard clientData.type == type else {
            throw PasskeyError(.typeMismatch, "clientDataJSON.type is not \(type)")
        }
        guard !challenge.isEmpty, ConstantTime.equals(clientData.challenge, challenge) else {
            throw PasskeyError(.challengeMismatch, "the signed challenge is not the issued one")
        }
        guard origins.contains(clientData.origin) else {
            throw PasskeyError(.originNotAllowed, "origin \(clientData.origin.prefix(200)) is not allowed")
        }
        if clientData.crossOrigin {
            guard allowsCrossOrigin else { throw PasskeyError(.crossOriginNotAllowed, "crossOrigin is true") }
            if !allowedTopOrigins.isEmpty {
                guard let top = clientData.topOrigin else {
                    throw PasskeyError(
                        .topOriginNotAllowed, "crossOrigin without topOrigin, and only listed top origins are allowed")
                }
                guard CodePoints.contains(allowedTopOrigins, top) else {
                    throw PasskeyError(.topOriginNotAllowed, "topOrigin \(top.prefix(200)) is not allowed")
                }
            }
        } else if clientData.topOrigin != nil {
            throw PasskeyError(.topOriginNotAllowed, "topOrigin without crossOrigin")
        }
    }

    private func check(_ data: AuthenticatorData, requireUserVerification: Bool) throws(PasskeyError) {
        guard ConstantTime.equals(data.rpIDHash, idHash) else {
            throw PasskeyError(.rpIDMismatch, "rpIdHash is not SHA-256(\"\(id)\")")
        }
        guard data.flags.contains(.userPresent) else { throw PasskeyError(.userNotPresent, "UP flag clear") }
        if requireUserVerification, !data.flags.contains(.userVerified) {
            throw PasskeyError(.userNotVerified, "user verification required but UV flag clear")
        }
    }
}

/// A verified registration.
public struct RegistrationResult: Sendable {
    /// The record to store.
    public let credential: CredentialRecord
    /// Authenticator extension outputs, if any.
    public let extensions: CBORValue?
}

/// A verified sign-in.
public struct AssertionResult: Sendable, Equatable {
    /// The ID of the credential that signed.
    public let credentialID: [UInt8]
    /// The account signed in: the user handle stored in the credential record at registration (never the
    /// response's).
    public let userHandle: [UInt8]
    /// The counter to store (unchanged when a regression was reported).
    public let newSignCount: UInt32
    /// Whether the UV flag was set in this assertion.
    public let userVerified: Bool
    /// BS in this assertion.
    public let backedUp: Bool
    /// Set only with ``RelyingParty/SignCountPolicy/report`` when the counter did not increase.
    public let signCountRegressed: Bool
    /// Authenticator extension outputs, if any.
    public let extensions: CBORValue?
}
