import Foundation
import Testing
import WardenCore
import WardenTestSupport

@testable import WardenStorage

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
