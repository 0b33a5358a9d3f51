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
            appID: "com.example.app", marker: groupMarker, previousMarkers: grouped.previous, environment: { [:] },
            installRecord: grouped.installRecord)
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

    /// Two apps of a team share an app group. Reinstalling one keeps the group container (the other app holds it), so
    /// its marker survives there; it names the old install's ID, which the new app's own container does not have: the
    /// new install purges instead of inheriting the old one's tokens. The other app, and the reinstalled one from then
    /// on, are left alone.
    @Test func reinstallingOneOfTwoAppsOfAGroupPurgesIt() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("warden-two-apps-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let group = root.appendingPathComponent("group")
        func sentinel(_ app: String, own: String) -> InstallSentinel {
            let location = InstallSentinel.appleLocation(
                appID: app, appGroup: "group.com.example", groupContainer: group,
                applicationSupport: root.appendingPathComponent("\(own)/Library/Application Support"))
            return InstallSentinel(
                appID: app, marker: location.marker, previousMarkers: location.previous, environment: { [:] },
                installRecord: location.installRecord)
        }
        let store = InMemoryStore()
        #expect(
            try await sentinel("com.example.a", own: "a1").purgeIfFirstLaunch(store: store, services: ["a"]) == .purged)
        #expect(
            try await sentinel("com.example.b", own: "b1").purgeIfFirstLaunch(store: store, services: ["b"]) == .purged)
        try await store.save(Data("a's old tokens".utf8), service: "a", account: "u")
        try await store.save(Data("b's live tokens".utf8), service: "b", account: "u")
        // Later launches of the same installs touch nothing.
        #expect(
            try await sentinel("com.example.a", own: "a1").purgeIfFirstLaunch(store: store, services: ["a"])
                == .alreadyInstalled)
        // App A is deleted (its own container goes) and installed again; the group lived on with app B.
        let reinstalled = sentinel("com.example.a", own: "a2")
        #expect(try await reinstalled.purgeIfFirstLaunch(store: store, services: ["a"]) == .purged)
        #expect(try await store.load(service: "a", account: "u") == nil, "the old install's tokens are gone")
        #expect(try await store.load(service: "b", account: "u") == Data("b's live tokens".utf8))
        #expect(try await reinstalled.purgeIfFirstLaunch(store: store, services: ["a"]) == .alreadyInstalled)
        #expect(
            try await sentinel("com.example.b", own: "b1").purgeIfFirstLaunch(store: store, services: ["b"])
                == .alreadyInstalled)
    }

    /// A group marker written before markers named their install (an update from an earlier version) is given an ID,
    /// once, without a purge: it cannot be told apart from an update.
    @Test func aGroupMarkerFromBeforeInstallIDsIsAdoptedNotPurged() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("warden-legacy-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let location = InstallSentinel.appleLocation(
            appID: "com.example.a", appGroup: "group.com.example", groupContainer: root.appendingPathComponent("group"),
            applicationSupport: root.appendingPathComponent("own"))
        let marker = try #require(location.marker)
        try FileManager.default.createDirectory(
            at: marker.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("warden install marker (not a secret)\n".utf8).write(to: marker)
        let store = InMemoryStore()
        try await store.save(Data("live".utf8), service: "a", account: "u")
        let sentinel = InstallSentinel(
            appID: "com.example.a", marker: marker, previousMarkers: location.previous, environment: { [:] },
            installRecord: location.installRecord)
        #expect(try await sentinel.purgeIfFirstLaunch(store: store, services: ["a"]) == .migrated)
        #expect(try await sentinel.purgeIfFirstLaunch(store: store, services: ["a"]) == .alreadyInstalled)
        #expect(try await store.load(service: "a", account: "u") == Data("live".utf8))
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
