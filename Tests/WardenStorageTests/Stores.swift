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
