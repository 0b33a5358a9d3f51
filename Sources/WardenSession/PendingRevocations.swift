import Foundation
import WardenCore
import WardenOAuth
import WardenStorage

/// Revocations that failed for a transient reason (offline, 5xx), kept until they go through.
///
/// The tokens stay in the **secure store** (the session's own ``CredentialStore``, under the service
/// `<service>.pending-revocation`, so ``InstallSentinel`` purges them with the session on reinstall), never in a
/// plain file. The record is written *before* the session's items are deleted, so a process killed mid-sign-out
/// still revokes later. Records older than 30 days are dropped unsent (a refresh token that old has expired at most
/// providers). At most 8 tokens per account are kept.
struct PendingRevocations: Sendable {
    struct Entry: Codable, Equatable {
        var token: String
        var hint: String
        var since: Double
    }

    static let maximumEntries = 8
    static let maximumAge: TimeInterval = 30 * 86_400

    let store: any CredentialStore
    let service: String
    let account: String
    let now: NowProvider

    var recordService: String { Self.service(for: service) }

    static func service(for service: String) -> String { service + ".pending-revocation" }

    func entries() async throws(StorageError) -> [Entry] {
        guard let data = try await store.load(service: recordService, account: account) else { return [] }
        guard let entries = try? JSONDecoder().decode([Entry].self, from: data) else {
            throw StorageError(.corruptedData, "the pending revocations cannot be read")
        }
        return entries
    }

    func write(_ entries: [Entry]) async throws(StorageError) {
        if entries.isEmpty {
            try await store.delete(service: recordService, account: account)
            return
        }
        guard let data = try? JSONEncoder().encode(entries) else {
            throw StorageError(.backendFailure, "cannot encode the pending revocations")
        }
        try await store.save(data, service: recordService, account: account)
    }

    /// Runs `body` holding the store's lock for this record (the app, its extensions and a retry running in the
    /// background never overwrite each other's entries).
    private func serialised<T>(_ body: () async throws(StorageError) -> T) async throws(StorageError) -> T {
        let lease = try await store.grantLock.acquire(service: recordService, account: account)
        do throws(StorageError) {
            let result = try await body()
            await lease.release()
            return result
        } catch {
            await lease.release()
            throw error
        }
    }

    /// Adds `token` (before anything is sent). An unreadable (corrupted) record is replaced; a locked store throws.
    func add(_ token: String, hint: String) async throws(StorageError) {
        try await serialised { () throws(StorageError) in
            var current: [Entry]
            do throws(StorageError) {
                current = try await entries()
            } catch {
                guard error.code == .corruptedData else { throw error }
                current = []
            }
            current.removeAll { $0.token == token }
            current.append(Entry(token: token, hint: hint, since: now().timeIntervalSince1970))
            try await write(Array(current.suffix(Self.maximumEntries)))
        }
    }

    /// Removes `token` (sent, or refused for good).
    func remove(_ token: String) async {
        try? await serialised { () throws(StorageError) in
            var current = try await entries()
            current.removeAll { $0.token == token }
            try await write(current)
        }
    }

    /// Sends every kept revocation once; keeps those that failed transiently. Returns one outcome per entry.
    func retry(with refresher: any TokenRefresher) async -> [SignOutReport.Revocation] {
        (try? await serialised { () throws(StorageError) in await send(with: refresher) }) ?? []
    }

    private func send(with refresher: any TokenRefresher) async -> [SignOutReport.Revocation] {
        guard let current = try? await entries(), !current.isEmpty else { return [] }
        var kept: [Entry] = []
        var outcomes: [SignOutReport.Revocation] = []
        for entry in current {
            guard now().timeIntervalSince1970 - entry.since < Self.maximumAge else { continue }
            var failure: OAuthError?
            do throws(OAuthError) {
                try await refresher.revoke(token: entry.token, hint: entry.hint)
            } catch { failure = error }
            let outcome = SignOutReport.Revocation.outcome(of: failure, tokenType: entry.hint)
            if case .failed(_, willRetry: true) = outcome { kept.append(entry) }
            outcomes.append(outcome)
        }
        // Entries added meanwhile (another sign-out) survive: merge by token.
        let latest = (try? await entries()) ?? []
        let sent = Set(current.map(\.token)).subtracting(kept.map(\.token))
        try? await write(latest.filter { !sent.contains($0.token) })
        return outcomes
    }
}
