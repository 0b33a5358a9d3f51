import Foundation
import WardenCore
import WardenCrypto
import WardenJOSE

/// A server-issued WebAuthn challenge: 32 CSPRNG bytes, bound to a user or session and to one ceremony, valid
/// once and until ``expires``.
public struct PasskeyChallenge: Sendable, Equatable {
    /// Which ceremony the challenge is for.
    public enum Ceremony: String, Sendable {
        /// Registration (`navigator.credentials.create`) or sign-in (`navigator.credentials.get`).
        case registration, authentication
    }

    /// The challenge bytes (sent to the client base64url-encoded).
    public let value: [UInt8]
    /// The user or session it was issued to.
    public let binding: String
    /// The ceremony the challenge may be redeemed for.
    public let ceremony: Ceremony
    /// The moment after which the challenge is refused as expired.
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

    /// A challenge read back from a ``ChallengeStore`` that keeps it outside the process (a database, Redis).
    public init(restoring value: [UInt8], binding: String, ceremony: Ceremony, expires: Date) {
        self.value = value
        self.binding = binding
        self.ceremony = ceremony
        self.expires = expires
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
        do { try await put(challenge) } catch {
            throw PasskeyError.storeFailure(error, "the challenge could not be stored")
        }
        return challenge
    }

    /// Redeems the challenge a client signed (read from its `clientDataJSON`): removes it whatever happens next,
    /// then checks binding, ceremony and expiry.
    ///
    /// - Throws: ``PasskeyErrorDomain/Code/challengeUnknown`` (never issued or already used),
    ///   ``PasskeyErrorDomain/Code/challengeExpired``, ``PasskeyErrorDomain/Code/challengeBindingMismatch``.
    public func redeem(
        _ value: [UInt8], binding: String, ceremony: PasskeyChallenge.Ceremony, now: Date = Date()
    ) async throws -> PasskeyChallenge {
        let taken: PasskeyChallenge?
        do { taken = try await take(value) } catch {
            throw PasskeyError.storeFailure(error, "the challenge store could not be consulted")
        }
        guard let challenge = taken else {
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
        let clientData = try CollectedClientData(json: clientDataJSON)
        return try await redeem(clientData.challenge, binding: binding, ceremony: ceremony, now: now)
    }
}

/// An in-memory ``ChallengeStore`` for a single server process (and tests).
///
/// Challenges expire with their ceremony; size ``capacity`` as the peak issuance rate times the lifetime (five
/// minutes by default). The bounds degrade one binding (session or user) at a time, never everyone:
/// - a binding holding ``perBindingCapacity`` outstanding challenges loses its oldest to a new one;
/// - a full store drops what expired, then takes the room from the binding holding the most challenges — a binding
///   under its fair share of the store never loses one.
///
/// Thread-safety: an actor.
public actor InMemoryChallengeStore: ChallengeStore {
    private var table: OwnerQuotaTable<String, [UInt8], PasskeyChallenge>
    private let now: NowProvider
    /// Outstanding challenges kept at most.
    public nonisolated let capacity: Int
    /// Outstanding challenges one binding may hold.
    public nonisolated let perBindingCapacity: Int

    /// - Parameters:
    ///   - capacity: outstanding challenges kept at most.
    ///   - perBindingCapacity: outstanding challenges per binding (a user's open sign-in pages).
    ///   - now: the clock that decides expiry.
    public init(capacity: Int = 100_000, perBindingCapacity: Int = 16, now: @escaping NowProvider = systemNow) {
        table = OwnerQuotaTable(capacity: capacity, perOwnerCapacity: perBindingCapacity, remembersEvictions: false)
        self.capacity = table.capacity
        self.perBindingCapacity = table.perOwnerCapacity
        self.now = now
    }

    public func put(_ challenge: PasskeyChallenge) {
        _ = table.insert(
            challenge.value, owner: challenge.binding, expires: challenge.expires, value: challenge, now: now())
    }

    public func take(_ value: [UInt8]) -> PasskeyChallenge? { table.remove(value)?.value }

    /// Outstanding challenges (for tests and metrics).
    public var count: Int { table.count }

    /// Outstanding challenges of one binding.
    public func count(forBinding binding: String) -> Int { table.count(of: binding) }
}

extension PasskeyError {
    /// What a ``ChallengeStore`` failure means for the ceremony: its own ``PasskeyError`` as is; a store that refuses
    /// our configuration (a wrong password, an ACL) ``Code/invalidConfiguration``; anything else (unreachable, a
    /// timeout) the transient ``Code/challengeStoreUnavailable``. The store's error code is kept in the reason.
    static func storeFailure(_ error: any Error, _ what: String) -> PasskeyError {
        if let error = error as? PasskeyError { return error }
        guard let coded = error as? any WardenError else {
            return PasskeyError(.challengeStoreUnavailable, "\(what); retry later")
        }
        if coded.failureKind == .misconfiguration {
            return PasskeyError(
                .invalidConfiguration, "\(what): the store refused our configuration (\(coded.codeName))")
        }
        return PasskeyError(.challengeStoreUnavailable, "\(what) (\(coded.codeName)); retry later")
    }
}
