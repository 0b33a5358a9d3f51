import Foundation
import Testing
import WardenCore
import WardenTestSupport

@testable import WardenStorage

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
