import Foundation
import Testing
import WardenCore
import WardenTestSupport

@testable import WardenStorage

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
