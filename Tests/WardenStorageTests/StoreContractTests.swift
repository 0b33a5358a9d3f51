import Foundation
import Testing
import WardenCore
import WardenTestSupport

@testable import WardenStorage

/// The same contract for every store that runs here.
enum Stores {
    static var inSecretServiceSession: Bool { ProcessInfo.processInfo.environment["WARDEN_SECRET_SERVICE"] == "1" }

    static func all() throws -> [(String, any CredentialStore)] {
        var stores: [(String, any CredentialStore)] = [
            ("memory", InMemoryStore()),
            (
                "file",
                try PlaintextFileStore.insecure(
                    directory: FileManager.default.temporaryDirectory.appendingPathComponent("warden-store-\(UUID())"))
            ),
        ]
        #if WARDEN_SECRET_SERVICE
            // What the platform factory hands out, so the contract covers the store apps and the CLI get.
            if inSecretServiceSession { stores.append(("secret-service", try PlatformStore.make())) }
        #endif
        return stores
    }

    static func service() -> String { "dev.warden.tests.\(UUID().uuidString)" }
}

@Suite("Credential store contract", .serialized)
struct StoreContractTests {
    @Test func secretServiceRunsInCI() {
        if ProcessInfo.processInfo.environment["CI"] != nil {
            #expect(Stores.inSecretServiceSession, "CI must run the storage tests inside scripts/with-keyring")
        } else if !Stores.inSecretServiceSession {
            print("NOTE: Secret Service tests skipped (run through scripts/with-keyring or scripts/test)")
        }
    }

    @Test func saveOverwriteLoadDeleteList() async throws {
        for (name, store) in try Stores.all() {
            let service = Stores.service()
            #expect(try await store.load(service: service, account: "alice") == nil, "\(name)")
            try await store.save(Data("one".utf8), service: service, account: "alice")
            try await store.save(Data("two".utf8), service: service, account: "alice")
            try await store.save(Data([0, 255, 10, 13]), service: service, account: "bob")
            #expect(try await store.load(service: service, account: "alice") == Data("two".utf8), "\(name)")
            #expect(try await store.load(service: service, account: "bob") == Data([0, 255, 10, 13]), "\(name)")
            #expect(try await store.accounts(service: service) == ["alice", "bob"], "\(name)")
            try await store.delete(service: service, account: "alice")
            try await store.delete(service: service, account: "alice")  // idempotent
            #expect(try await store.load(service: service, account: "alice") == nil, "\(name)")
            try await store.deleteAll(service: service)
            #expect(try await store.accounts(service: service).isEmpty, "\(name)")
        }
    }

    @Test func badInput() async throws {
        for (name, store) in try Stores.all() {
            let service = Stores.service()
            for (badService, badAccount) in [
                ("", "a"), (service, ""), (String(repeating: "s", count: 513), "a"),
                (service, String(repeating: "a", count: 513)), ("a\u{0}b", "a"), (service, "a\u{0}b"),
                (service, "a\nb"),
            ] {
                await #expect(throws: StorageError(.invalidName), "\(name)") {
                    try await store.save(Data("x".utf8), service: badService, account: badAccount)
                }
                await #expect(throws: StorageError(.invalidName), "\(name)") {
                    _ = try await store.load(service: badService, account: badAccount)
                }
            }
            await #expect(throws: StorageError(.itemTooLarge), "\(name)") {
                try await store.save(Data(count: 64 * 1024 + 1), service: service, account: "big")
            }
            try await store.save(Data(count: 64 * 1024), service: service, account: "max")
            #expect(try await store.load(service: service, account: "max")?.count == 64 * 1024)
            try await store.deleteAll(service: service)
        }
    }

    @Test func thousandConcurrentSavesAndLoads() async throws {
        for (name, store) in try Stores.all() {
            let service = Stores.service()
            let rounds = name == "secret-service" ? 1000 : 1000
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<rounds {
                    group.addTask {
                        let account = "a\(index % 10)"
                        let value = Data("value-\(index)-".utf8) + Data(repeating: UInt8(index % 256), count: 64)
                        try await store.save(value, service: service, account: account)
                        let read = try await store.load(service: service, account: account)
                        // Another task may have overwritten it, but never with a torn mixture.
                        guard let read, read.starts(with: Data("value-".utf8)) else {
                            throw StorageError(.corruptedData, "torn or lost write")
                        }
                        let marker = read.suffix(64)
                        #expect(Set(marker).count == 1, "torn write in \(name)")
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.accounts(service: service).count == 10, "\(name)")
            try await store.deleteAll(service: service)
        }
    }
}

@Suite("TokenSet")
struct TokenSetTests {
    @Test func roundTripAndRedaction() throws {
        let set = TokenSet(
            accessToken: "access-SECRET-1234567890", refreshToken: "refresh-SECRET-123", idToken: nil,
            expiresAt: Date(timeIntervalSince1970: 1_800_000_000), scope: "openid", issuer: "https://id.example.com")
        let decoded = try TokenSet(encoded: try set.encoded())
        #expect(decoded == set)
        var dumped = ""
        dump(set, to: &dumped)
        for text in ["\(set)", String(reflecting: set), dumped] {
            #expect(!text.contains("SECRET"), "\(text)")
        }
    }

    @Test(arguments: [
        "", "{}", "not json", #"{"v":2,"accessToken":"a","issuer":"i"}"#, #"{"v":1,"accessToken":"","issuer":"i"}"#,
        #"{"v":1,"issuer":"i"}"#, #"{"v":"1","accessToken":"a","issuer":"i"}"#,
    ])
    func corrupted(_ text: String) {
        #expect(throws: StorageError(.corruptedData)) { try TokenSet(encoded: Data(text.utf8)) }
    }
}

@Suite("Install sentinel")
struct InstallSentinelTests {
    @Test func purgesOnceBeforeAnythingIsRead() async throws {
        let store = InMemoryStore()
        try await store.save(Data("old install".utf8), service: "svc", account: "a")
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent(
            "warden-sentinel-\(UUID())/app.installed")
        let sentinel = InstallSentinel(appID: "com.example.app", markerFile: marker)
        #expect(try await sentinel.purgeIfFirstLaunch(store: store, services: ["svc"]) == .purged)
        #expect(try await store.load(service: "svc", account: "a") == nil)
        try await store.save(Data("this install".utf8), service: "svc", account: "a")
        #expect(try await sentinel.purgeIfFirstLaunch(store: store, services: ["svc"]) == .alreadyInstalled)
        #expect(try await store.load(service: "svc", account: "a") == Data("this install".utf8))
        #expect(!(String(data: try Data(contentsOf: marker), encoding: .utf8) ?? "").contains("this install"))
    }

    static func marker() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("warden-sentinel-\(UUID())/app.installed")
    }

    @Test(arguments: [StorageError(.locked), StorageError(.interactionNotAllowed)])
    func aStoreThatIsNotReadableDefersInsteadOfPurging(_ failure: StorageError) async throws {
        let store = InMemoryStore()
        try await store.save(Data("live tokens".utf8), service: "svc", account: "a")
        await store.injectFailure(failure)
        let marker = Self.marker()
        let sentinel = InstallSentinel(appID: "com.example.app", markerFile: marker)
        guard case .deferred = try await sentinel.purgeIfFirstLaunch(store: store, services: ["svc"]) else {
            Issue.record("a locked store must defer the check")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        await store.clearFailure()
        #expect(try await store.load(service: "svc", account: "a") == Data("live tokens".utf8))
    }

    @Test func prewarmingNeverPurges() async throws {
        let store = InMemoryStore()
        try await store.save(Data("live tokens".utf8), service: "svc", account: "a")
        let marker = Self.marker()
        let prewarmed = InstallSentinel(
            appID: "com.example.app", markerFile: marker, environment: { ["ActivePrewarm": "1"] })
        #expect(try await prewarmed.purgeIfFirstLaunch(store: store, services: ["svc"]) != .purged)
        #expect(try await store.load(service: "svc", account: "a") == Data("live tokens".utf8))
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        // The next real launch does the check.
        let launched = InstallSentinel(appID: "com.example.app", markerFile: marker, environment: { [:] })
        #expect(try await launched.purgeIfFirstLaunch(store: store, services: ["svc"]) == .purged)
    }

    @Test func anExtensionSharingTheMarkerDoesNotPurgeTheAppsTokens() async throws {
        // The app and its extension resolve the same app-group marker; whichever runs second sees it.
        let store = InMemoryStore()
        let marker = Self.marker()
        let app = InstallSentinel(appID: "com.example.app", markerFile: marker)
        #expect(try await app.purgeIfFirstLaunch(store: store, services: ["svc"]) == .purged)
        try await store.save(Data("live tokens".utf8), service: "svc", account: "a")
        let widget = InstallSentinel(appID: "com.example.app", markerFile: marker)
        #expect(try await widget.purgeIfFirstLaunch(store: store, services: ["svc"]) == .alreadyInstalled)
        #expect(try await store.load(service: "svc", account: "a") == Data("live tokens".utf8))
    }

    /// An app group whose container the system does not give (no entitlement, an extension built without it): the
    /// marker's place is unknown, so the check defers — it never looks in the process's own container instead.
    @Test func anUnavailableGroupContainerDefersAndNeverPurges() async throws {
        let store = InMemoryStore()
        try await store.save(Data("live tokens".utf8), service: "svc", account: "a")
        let support = FileManager.default.temporaryDirectory.appendingPathComponent("warden-support-\(UUID())")
        let location = InstallSentinel.appleLocation(
            appID: "com.example.app", appGroup: "group.com.example.app", groupContainer: nil,
            applicationSupport: support)
        #expect(location.marker == nil)
        let sentinel = InstallSentinel(
            appID: "com.example.app", marker: location.marker, previousMarkers: location.previous,
            environment: { [:] })
        guard case .deferred(let reason) = try await sentinel.purgeIfFirstLaunch(store: store, services: ["svc"]) else {
            Issue.record("an unavailable group container must defer")
            return
        }
        #expect(reason.contains("app group container"))
        #expect(try await store.load(service: "svc", account: "a") == Data("live tokens".utf8))
        #expect(!FileManager.default.fileExists(atPath: support.path), "nothing is written in the own container")
    }

    /// After an update that adopted an app group, the marker is still in the app's own container: the install is
    /// not new, so the marker moves and nothing is purged.
    @Test func aMarkerFromBeforeTheAppGroupIsMigratedNotPurged() async throws {
        let store = InMemoryStore()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("warden-migrate-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let support = root.appendingPathComponent("own/Library/Application Support")
        let ownOnly = InstallSentinel.appleLocation(
            appID: "com.example.app", appGroup: nil, groupContainer: nil, applicationSupport: support)
        let before = InstallSentinel(appID: "com.example.app", markerFile: try #require(ownOnly.marker))
        #expect(try await before.purgeIfFirstLaunch(store: store, services: ["svc"]) == .purged)
        try await store.save(Data("live tokens".utf8), service: "svc", account: "a")

        let grouped = InstallSentinel.appleLocation(
            appID: "com.example.app", appGroup: "group.com.example.app",
            groupContainer: root.appendingPathComponent("group"), applicationSupport: support)
        let groupMarker = try #require(grouped.marker)
        #expect(grouped.previous == [ownOnly.marker])
        let after = InstallSentinel(
            appID: "com.example.app", marker: groupMarker, previousMarkers: grouped.previous, environment: { [:] })
        #expect(try await after.purgeIfFirstLaunch(store: store, services: ["svc"]) == .migrated)
        #expect(try await store.load(service: "svc", account: "a") == Data("live tokens".utf8))
        #expect(FileManager.default.fileExists(atPath: groupMarker.path))
        #expect(!FileManager.default.fileExists(atPath: try #require(ownOnly.marker).path), "moved, not copied")
        #expect(try await after.purgeIfFirstLaunch(store: store, services: ["svc"]) == .alreadyInstalled)

        // During prewarming the move waits, and the install still counts as known.
        let prewarmedRoot = root.appendingPathComponent("prewarm")
        let old = prewarmedRoot.appendingPathComponent("old")
        try FileManager.default.createDirectory(at: prewarmedRoot, withIntermediateDirectories: true)
        try Data("marker".utf8).write(to: old)
        let prewarmed = InstallSentinel(
            appID: "com.example.app", marker: prewarmedRoot.appendingPathComponent("new"), previousMarkers: [old],
            environment: { ["ActivePrewarm": "1"] })
        #expect(try await prewarmed.purgeIfFirstLaunch(store: store, services: ["svc"]) == .alreadyInstalled)
        #expect(FileManager.default.fileExists(atPath: old.path))
        #expect(try await store.load(service: "svc", account: "a") != nil)
    }

    /// A widget that runs before the app after an update that adopted the group cannot see the app's own marker:
    /// it must defer, never purge the shared keychain.
    @Test func anAppExtensionNeverPurges() async throws {
        let store = InMemoryStore()
        try await store.save(Data("live tokens".utf8), service: "svc", account: "a")
        let marker = Self.marker()
        let widget = InstallSentinel(
            appID: "com.example.app", marker: marker, previousMarkers: [], environment: { [:] }, isAppExtension: true)
        guard case .deferred(let reason) = try await widget.purgeIfFirstLaunch(store: store, services: ["svc"]) else {
            Issue.record("an extension must defer")
            return
        }
        #expect(reason.contains("extension"))
        #expect(try await store.load(service: "svc", account: "a") == Data("live tokens".utf8))
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        // The app's own launch then decides.
        let app = InstallSentinel(appID: "com.example.app", marker: marker, previousMarkers: [], environment: { [:] })
        #expect(try await app.purgeIfFirstLaunch(store: store, services: ["svc"]) == .purged)
    }

    @Test func aMisconfiguredStoreThrowsAndWritesNoMarker() async throws {
        let store = InMemoryStore()
        await store.injectFailure(StorageError(.missingEntitlement))
        let marker = Self.marker()
        await #expect(throws: StorageError(.missingEntitlement)) {
            try await InstallSentinel(appID: "com.example.app", markerFile: marker)
                .purgeIfFirstLaunch(store: store, services: ["svc"])
        }
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }
}

@Suite("Plaintext file store")
struct PlaintextFileStoreTests {
    @Test func permissionsAndNames() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warden-plain-\(UUID())")
        let store = try PlaintextFileStore.insecure(directory: directory)
        try await store.save(Data("x".utf8), service: "../../etc", account: "passwd")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let folder = directory.appendingPathComponent(PlaintextFileStore.fileName("../../etc"))
        let file = folder.appendingPathComponent(PlaintextFileStore.fileName("passwd"))
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        #expect(try await store.accounts(service: "../../etc") == ["passwd"])
    }

    @Test func warnsEachTimeItIsOpened() throws {
        let sink = CollectingLogSink()
        try WardenLog.withSink(sink) {
            _ = try PlaintextFileStore.insecure(
                directory: FileManager.default.temporaryDirectory.appendingPathComponent("warden-plain-\(UUID())"))
            _ = try PlaintextFileStore.insecure(
                directory: FileManager.default.temporaryDirectory.appendingPathComponent("warden-plain-\(UUID())"))
        }
        #expect(sink.all.filter { $0.level == .warning && $0.message.contains("INSECURE") }.count == 2)
    }
}
