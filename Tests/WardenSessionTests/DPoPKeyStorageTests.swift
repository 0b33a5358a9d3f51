import Foundation
import Testing
import WardenCore
import WardenJOSE
import WardenLocalProvider
import WardenStorage
import WardenTestSupport

@_spi(Fuzzing) @testable import WardenOAuth
@testable import WardenSession

@Suite("DPoP key storage")
struct DPoPKeyStorageTests {
    @Test func theSoftwareKeyIsCreatedOnceAndReadBack() async throws {
        let store = InMemoryStore()
        let first = try await DPoPKeys.software(store: store, service: "dpop", account: "alice")
        let again = try await DPoPKeys.software(store: store, service: "dpop", account: "alice")
        #expect(first.thumbprint == again.thumbprint)
        let other = try await DPoPKeys.software(store: store, service: "dpop", account: "bob")
        #expect(other.thumbprint != first.thumbprint)
        try await store.save(Data("not a key".utf8), service: "dpop", account: "carol")
        await #expect(throws: StorageError(.corruptedData)) {
            _ = try await DPoPKeys.software(store: store, service: "dpop", account: "carol")
        }
        #expect(try await store.load(service: "dpop", account: "carol") == Data("not a key".utf8), "never replaced")
    }
}
