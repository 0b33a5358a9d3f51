#if WARDEN_SECRET_SERVICE
    import Foundation
    import Testing
    import WardenCore
    @testable import WardenStorage

    /// The Secret Service for real: a private D-Bus session with an unlocked gnome-keyring (scripts/with-keyring).
    @Suite("Secret Service (real gnome-keyring)", .enabled(if: Stores.inSecretServiceSession), .serialized)
    struct SecretServiceTests {
        /// Runs a process with its output in temporary files (not pipes: daemons started by a child D-Bus session
        /// can inherit the descriptors and keep a pipe open long after the child exited).
        static func run(_ arguments: [String], input: String? = nil, environment: [String: String]? = nil) throws -> (
            Int32, String, String
        ) {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warden-run-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let outURL = directory.appendingPathComponent("out")
            let errURL = directory.appendingPathComponent("err")
            let inURL = directory.appendingPathComponent("in")
            _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((input ?? "").utf8))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            if let environment { process.environment = environment }
            process.standardOutput = try FileHandle(forWritingTo: outURL)
            process.standardError = try FileHandle(forWritingTo: errURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
            try process.run()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
            )
        }

        static var warden: String {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
                .appendingPathComponent(".build/debug/warden").path
        }

        @Test func anotherProcessReadsAndWritesTheSameItems() async throws {
            let store = SecretServiceStore()
            let service = Stores.service()
            try await store.save(Data("written by warden".utf8), service: service, account: "a")
            // secret-tool (libsecret's own CLI) in another process reads what Warden wrote...
            let (status, output, _) = try Self.run([
                "secret-tool", "lookup", "xdg:schema", "dev.warden.Credential", "service", service, "account", "a",
            ])
            #expect(status == 0)
            #expect(
                Data(base64Encoded: output.trimmingCharacters(in: .whitespacesAndNewlines))
                    == Data("written by warden".utf8))
            // ...and Warden reads what it wrote.
            let (stored, _, _) = try Self.run(
                [
                    "secret-tool", "store", "--label=peer", "xdg:schema", "dev.warden.Credential", "service", service,
                    "account", "b",
                ],
                input: Data("written by secret-tool".utf8).base64EncodedString())
            #expect(stored == 0)
            #expect(try await store.load(service: service, account: "b") == Data("written by secret-tool".utf8))
            #expect(try await store.accounts(service: service) == ["a", "b"])
            // A value written by one warden process is read by another.
            let (set, _, setError) = try Self.run(
                [Self.warden, "store", "set", "--service", service, "--account", "c"], input: "cross-process")
            #expect(set == 0, "\(setError)")
            let (get, value, _) = try Self.run([Self.warden, "store", "get", "--service", service, "--account", "c"])
            #expect(get == 0 && value == "cross-process")
            try await store.deleteAll(service: service)
        }

        @Test func tokensNeverLandInPlainFiles() async throws {
            let started = Date().addingTimeInterval(-5)
            let token = "leakcheck-" + UUID().uuidString + "-" + UUID().uuidString
            let store = SecretServiceStore()
            let service = Stores.service()
            try await store.save(Data(token.utf8), service: service, account: "leak")
            // Give the daemon a moment to flush its keyring file.
            try await Task.sleep(for: .milliseconds(300))
            let needles = [Data(token.utf8), Data(Data(token.utf8).base64EncodedString().utf8)]
            var scanned = 0
            for root in [ProcessInfo.processInfo.environment["HOME"] ?? "/nonexistent", "/tmp"] {
                guard let enumerator = FileManager.default.enumerator(atPath: root) else { continue }
                while let relative = enumerator.nextObject() as? String {
                    let path = root + "/" + relative
                    // Only files written since the token was created can hold it; build trees are skipped.
                    if relative.hasSuffix(".build") || relative.hasSuffix(".cache") { enumerator.skipDescendants() }
                    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                        attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? Int,
                        size < 20_000_000,
                        (attributes[.modificationDate] as? Date ?? .distantPast) >= started,
                        let contents = FileManager.default.contents(atPath: path)
                    else { continue }
                    scanned += 1
                    for needle in needles { #expect(contents.range(of: needle) == nil, "token bytes found in \(path)") }
                }
            }
            #expect(scanned > 0)
            #expect(
                FileManager.default.fileExists(
                    atPath: (ProcessInfo.processInfo.environment["HOME"] ?? "") + "/.local/share/keyrings"),
                "the keyring lives under the temporary HOME")
            try await store.deleteAll(service: service)
        }

        @Test func absentDaemonIsAConfigurationError() throws {
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/warden-bus"
            let (status, _, error) = try Self.run(
                [Self.warden, "store", "get", "--service", "dev.warden.absent", "--account", "a"],
                environment: environment)
            #expect(status == 2, "\(error)")
            #expect(error.hasPrefix("warden: service_unavailable:"), "\(error)")
        }

        // The locked-keyring case runs in Tests/Interop/keyring_suite.sh: it needs a second D-Bus session whose
        // collection is locked, which is simpler and more reliable to drive from a shell than from a test process.
    }
#endif
