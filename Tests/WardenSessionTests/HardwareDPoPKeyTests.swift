import Foundation
import Testing
import WardenCore
import WardenOAuth
import WardenStorage

@testable import WardenSession

/// The portable logic behind `SecureEnclaveDPoPKey.loadOrCreate`, over a fake Secure Enclave whose blobs are
/// software keys.
@Suite("Hardware DPoP keys")
struct HardwareDPoPKeyTests {
    final class FakeEnclave: HardwareDPoPKeyMaker, Sendable {
        let isAvailable: Bool
        let created = Locked<[KeychainAccessibility]>([])
        let openFailure = Locked<HardwareKeyFailure?>(nil)
        init(available: Bool = true) { isAvailable = available }

        func create(accessibility: KeychainAccessibility) throws -> (blob: Data, key: any DPoPKey) {
            created.withLock { $0.append(accessibility) }
            let key = try SoftwareDPoPKey()
            return (Data(key.pkcs8PEM().unredacted().utf8), key)
        }
        func open(_ blob: Data) throws(HardwareKeyFailure) -> any DPoPKey {
            if let failure = openFailure.current { throw failure }
            guard let pem = String(data: blob, encoding: .utf8), let key = try? SoftwareDPoPKey(pem: pem) else {
                throw .unusable("not a blob of this enclave")
            }
            return key
        }
    }

    @Test func theKeyIsCreatedOnceWithTheRequestedAccessibilityAndReopened() async throws {
        let store = InMemoryStore()
        let enclave = FakeEnclave()
        let first = try await DPoPKeys.hardware(
            store: store, service: "dpop", account: "alice", maker: enclave,
            accessibility: .whenPasscodeSetThisDeviceOnly)
        #expect(first.hardwareBacked && !first.replacedUnusableKey)
        #expect(enclave.created.current == [.whenPasscodeSetThisDeviceOnly], "the accessibility reaches the key")
        let again = try await DPoPKeys.hardware(store: store, service: "dpop", account: "alice", maker: enclave)
        #expect(again.key.thumbprint == first.key.thumbprint)
        #expect(enclave.created.current.count == 1)
    }

    /// Sixteen tasks ask at the same launch: one key, the same for everyone. (Across the app and its extensions the
    /// store's `FileGrantLock` does the same; its cross-process tests are the grant lock's.)
    @Test func concurrentFirstCallsMakeOneKey() async throws {
        let store = InMemoryStore()
        let enclave = FakeEnclave()
        let thumbprints = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try await DPoPKeys.hardware(store: store, service: "dpop", account: "alice", maker: enclave)
                        .key.thumbprint
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(thumbprints.count == 1)
        #expect(enclave.created.current.count == 1)
    }

    @Test func aLockedDeviceIsTransientAndKeepsTheKey() async throws {
        let store = InMemoryStore()
        let enclave = FakeEnclave()
        let first = try await DPoPKeys.hardware(store: store, service: "dpop", account: "alice", maker: enclave)
        enclave.openFailure.withLock { $0 = .unavailableNow("the device is locked") }
        let error = await #expect(throws: StorageError.self) {
            try await DPoPKeys.hardware(store: store, service: "dpop", account: "alice", maker: enclave)
        }
        #expect(error?.code == .interactionNotAllowed && error?.failureKind == .transient)
        enclave.openFailure.withLock { $0 = nil }
        let later = try await DPoPKeys.hardware(store: store, service: "dpop", account: "alice", maker: enclave)
        #expect(later.key.thumbprint == first.key.thumbprint && enclave.created.current.count == 1)
    }

    /// A blob that will never open again (restored onto another device, the key erased) is replaced, once, and the
    /// caller learns that the tokens bound to it are lost.
    @Test func anUnusableKeyIsReplacedAndReported() async throws {
        let store = InMemoryStore()
        let enclave = FakeEnclave()
        try await store.save(Data("another device's blob".utf8), service: "dpop", account: "alice")
        let loaded = try await DPoPKeys.hardware(store: store, service: "dpop", account: "alice", maker: enclave)
        #expect(loaded.replacedUnusableKey && loaded.hardwareBacked)
        let again = try await DPoPKeys.hardware(store: store, service: "dpop", account: "alice", maker: enclave)
        #expect(!again.replacedUnusableKey && again.key.thumbprint == loaded.key.thumbprint)
    }

    /// Counts the writes of a store (the blob must not be rewritten at every launch).
    actor CountingStore: DelegatingStore {
        let inner = InMemoryStore()
        var saves: [String] = []
        func save(_ data: Data, service: String, account: String) async throws(StorageError) {
            saves.append(service)
            try await inner.save(data, service: service, account: account)
        }
    }

    /// The blob is written when the key is made, never again at each launch; a caller asking another class than the
    /// key was made with does not rewrite it (the key's class is fixed); a blob from before records said their class
    /// is rewritten once.
    @Test func theBlobIsWrittenOnceAndKeepsTheKeysClass() async throws {
        let store = CountingStore()
        let enclave = FakeEnclave()
        let first = try await DPoPKeys.hardware(
            store: store, service: "dpop", account: "alice", maker: enclave,
            accessibility: .afterFirstUnlockThisDeviceOnly)
        for _ in 0..<3 {
            let again = try await DPoPKeys.hardware(
                store: store, service: "dpop", account: "alice", maker: enclave,
                accessibility: .whenUnlockedThisDeviceOnly)
            #expect(again.key.thumbprint == first.key.thumbprint)
        }
        #expect(await store.saves == ["dpop"], "written once, when the key was made")
        let record = HardwareKeyRecord(stored: try #require(await store.load(service: "dpop", account: "alice")))
        #expect(record.accessibility == .afterFirstUnlockThisDeviceOnly)

        let legacy = CountingStore()
        let key = try SoftwareDPoPKey()
        try await legacy.inner.save(Data(key.pkcs8PEM().unredacted().utf8), service: "dpop", account: "bob")
        for _ in 0..<3 {
            let loaded = try await DPoPKeys.hardware(store: legacy, service: "dpop", account: "bob", maker: enclave)
            #expect(loaded.key.thumbprint == key.thumbprint)
        }
        #expect(await legacy.saves == ["dpop"], "a blob without its class is rewritten once")
    }

    /// An error nobody identified keeps the key for a few launches (a passing hiccup), then the key is replaced instead
    /// of failing every refresh for ever; a success in between starts the count again.
    @Test func anUnidentifiedFailureIsReplacedOnlyIfItRepeats() async throws {
        let store = InMemoryStore()
        let enclave = FakeEnclave()
        // The per-launch count is process-wide by service and account: an account of its own keeps the other tests of
        // this suite, running alongside, from resetting it.
        let alice = "alice-\(UUID().uuidString)"
        let first = try await DPoPKeys.hardware(store: store, service: "dpop", account: alice, maker: enclave)
        enclave.openFailure.withLock { $0 = .unidentified("CryptoKit.CryptoKitError 3") }
        for _ in 1..<DPoPKeys.maximumUnidentifiedFailures {
            DPoPKeys.newLaunch()
            // Many calls in one launch (the app's tasks, an extension) count once.
            for _ in 0..<5 {
                let error = await #expect(throws: StorageError.self) {
                    try await DPoPKeys.hardware(store: store, service: "dpop", account: alice, maker: enclave)
                }
                #expect(error?.failureKind == .transient)
            }
        }
        enclave.openFailure.withLock { $0 = nil }
        #expect(
            try await DPoPKeys.hardware(store: store, service: "dpop", account: alice, maker: enclave).key
                .thumbprint == first.key.thumbprint)
        enclave.openFailure.withLock { $0 = .unidentified("CryptoKit.CryptoKitError 3") }
        for _ in 1..<DPoPKeys.maximumUnidentifiedFailures {
            DPoPKeys.newLaunch()
            await #expect(throws: StorageError.self) {
                try await DPoPKeys.hardware(store: store, service: "dpop", account: alice, maker: enclave)
            }
        }
        DPoPKeys.newLaunch()
        let replaced = try await DPoPKeys.hardware(store: store, service: "dpop", account: alice, maker: enclave)
        #expect(replaced.replacedUnusableKey && replaced.key.thumbprint != first.key.thumbprint)
        #expect(try await store.load(service: "dpop.failures", account: alice) == nil)
    }

    @Test func reopenFailuresAreClassified() {
        #expect(
            HardwareKeyFailure.classify(NSError(domain: NSOSStatusErrorDomain, code: -25308))
                == .unavailableNow("\(NSOSStatusErrorDomain) -25308"))
        #expect(
            HardwareKeyFailure.classify(NSError(domain: "com.apple.LocalAuthentication", code: -1004))
                == .unavailableNow("com.apple.LocalAuthentication -1004"))
        // An error nobody identified keeps the key, for a few launches (anUnidentifiedFailureIsReplacedOnlyIfItRepeats).
        guard case .unidentified = HardwareKeyFailure.classify(NSError(domain: "CryptoKit.CryptoKitError", code: 3))
        else {
            Issue.record("an unidentified CryptoKit error is neither permanent nor known to pass")
            return
        }
        for permanent in [
            NSError(domain: NSOSStatusErrorDomain, code: -26275), NSError(domain: "CryptoTokenKit", code: -3),
            NSError(domain: "CryptoTokenKit", code: -6),
        ] {
            guard case .unusable = HardwareKeyFailure.classify(permanent) else {
                Issue.record("\(permanent.domain) \(permanent.code) is permanent")
                continue
            }
        }
    }

    /// A reopen failure is a Warden error: kept keys are transient, replaced ones rejected, the system's domain and
    /// code in the reason.
    @Test func reopenFailuresAreWardenErrors() {
        let now: any WardenError = HardwareKeyFailure.classify(
            NSError(domain: "com.apple.LocalAuthentication", code: -1004))
        #expect(now.codeName == "hardware_key_unavailable" && now.failureKind == .transient)
        #expect(now.reason.contains("com.apple.LocalAuthentication -1004"))
        let gone: any WardenError = HardwareKeyFailure.classify(NSError(domain: "CryptoTokenKit", code: -6))
        #expect(gone.codeName == "hardware_key_unusable" && gone.failureKind == .rejected)
    }

    /// Every module's error records the place that raised it, and prints it.
    @Test func everyModulesErrorRecordsItsLocation() {
        let errors: [(any WardenError, Int)] = [
            (SessionError(.signedOut), #line), (StorageError(.locked), #line), (OAuthError(.invalidGrant), #line),
            (DPoPError(.malformed), #line), (TransportError(.timedOut), #line), (InputError(.tooLong, "long"), #line),
        ]
        for (error, line) in errors {
            #expect(error.location == "WardenSessionTests/HardwareDPoPKeyTests.swift:\(line)", "\(type(of: error))")
            #expect(error.description == error.summary + " (WardenSessionTests/HardwareDPoPKeyTests.swift:\(line))")
        }
    }

    @Test func withoutHardwareTheSoftwareKeyIsUsedAndSaidSo() async throws {
        let store = InMemoryStore()
        let enclave = FakeEnclave(available: false)
        let loaded = try await DPoPKeys.hardware(store: store, service: "dpop", account: "alice", maker: enclave)
        #expect(!loaded.hardwareBacked && enclave.created.current.isEmpty)
        let again = try await DPoPKeys.hardware(store: store, service: "dpop", account: "alice", maker: enclave)
        #expect(again.key.thumbprint == loaded.key.thumbprint)
    }
}
