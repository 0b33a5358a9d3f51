import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

/// A server-issued WebAuthn challenge: 32 CSPRNG bytes, bound to a user or session and to one ceremony, valid
/// once and until ``expires``.
public struct PasskeyChallenge: Sendable, Equatable {
    /// Which ceremony the challenge is for.
    public enum Ceremony: String, Sendable {
        case registration, authentication
    }

    /// The challenge bytes (sent to the client base64url-encoded).
    public let value: [UInt8]
    /// The user or session it was issued to.
    public let binding: String
    public let ceremony: Ceremony
    public let expires: Date

    /// The base64url form for the options JSON.
    public var base64URL: String { Base64URL.encode(value) }

    /// Bytes per challenge (WebAuthn asks for at least 16; Warden uses 32).
    public static let byteCount = 32
    /// The default lifetime: five minutes, WebAuthn's suggested ceremony timeout.
    public static let defaultLifetime: TimeInterval = 300

    /// A fresh challenge.
    public init(
        binding: String, ceremony: Ceremony, lifetime: TimeInterval = PasskeyChallenge.defaultLifetime,
        now: Date = Date(), random: some RandomSource = SecureRandom()
    ) throws {
        value = try random.bytes(count: Self.byteCount)
        self.binding = binding
        self.ceremony = ceremony
        expires = now.addingTimeInterval(lifetime)
    }
}

/// Where issued challenges wait for their one use. Implementations must make ``take(_:)`` atomic: a value is
/// returned at most once, even under concurrent calls (use a database `DELETE ... RETURNING` or a Redis
/// `GETDEL`).
public protocol ChallengeStore: Sendable {
    /// Stores an issued challenge.
    func put(_ challenge: PasskeyChallenge) async throws
    /// Removes and returns the challenge with `value`, or `nil` when it was never issued or already taken.
    func take(_ value: [UInt8]) async throws -> PasskeyChallenge?
}

extension ChallengeStore {
    /// Issues and stores a fresh challenge.
    public func issue(
        binding: String, ceremony: PasskeyChallenge.Ceremony,
        lifetime: TimeInterval = PasskeyChallenge.defaultLifetime, now: Date = Date()
    ) async throws -> PasskeyChallenge {
        let challenge = try PasskeyChallenge(binding: binding, ceremony: ceremony, lifetime: lifetime, now: now)
        try await put(challenge)
        return challenge
    }

    /// Redeems the challenge a client signed (read from its `clientDataJSON`): removes it whatever happens next,
    /// then checks binding, ceremony and expiry.
    ///
    /// - Throws: ``PasskeyError/Code/challengeUnknown`` (never issued or already used),
    ///   ``PasskeyError/Code/challengeExpired``, ``PasskeyError/Code/challengeBindingMismatch``.
    public func redeem(
        _ value: [UInt8], binding: String, ceremony: PasskeyChallenge.Ceremony, now: Date = Date()
    ) async throws -> PasskeyChallenge {
        guard let challenge = try await take(value) else {
            throw PasskeyError(.challengeUnknown, "challenge was never issued or was already used")
        }
        guard ConstantTime.equals(challenge.binding, binding), challenge.ceremony == ceremony else {
            throw PasskeyError(.challengeBindingMismatch, "challenge was issued for another session or ceremony")
        }
        guard now < challenge.expires else { throw PasskeyError(.challengeExpired, "challenge expired") }
        return challenge
    }

    /// Redeems the challenge named in a response's `clientDataJSON` (the signature check that follows proves it
    /// was signed).
    public func redeem(
        clientDataJSON: [UInt8], binding: String, ceremony: PasskeyChallenge.Ceremony, now: Date = Date()
    ) async throws -> PasskeyChallenge {
        let clientData = try CollectedClientData(bytes: clientDataJSON)
        return try await redeem(clientData.challenge, binding: binding, ceremony: ceremony, now: now)
    }
}

/// An in-memory ``ChallengeStore`` for a single server process (and tests). Expired entries are dropped as new
/// ones arrive; the number of outstanding challenges is capped.
public actor InMemoryChallengeStore: ChallengeStore {
    private var entries: [[UInt8]: PasskeyChallenge] = [:]
    private let capacity: Int

    /// - Parameter capacity: outstanding challenges kept before the oldest-expiring are dropped.
    public init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

    public func put(_ challenge: PasskeyChallenge) {
        if entries.count >= capacity {
            let now = Date()
            entries = entries.filter { $0.value.expires > now }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.expires < $1.value.expires }) {
                entries[oldest.key] = nil
            }
        }
        entries[challenge.value] = challenge
    }

    public func take(_ value: [UInt8]) -> PasskeyChallenge? { entries.removeValue(forKey: value) }

    /// Outstanding challenges (for tests and metrics).
    public var count: Int { entries.count }
}
