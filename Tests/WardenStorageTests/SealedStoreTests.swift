import Foundation
import Testing
import WardenCrypto
import WardenTestSupport
import WardenTesting

@testable import WardenStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sealed store for data at rest, through its public API, fed every input it must refuse.
@Suite struct SealedStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warden-sealed-\(UUID())")
    let keys = InMemoryStore()

    func store(
        _ algorithm: AEADAlgorithm = .aes256GCM, keys: (any CredentialStore)? = nil, service: String = "sealed",
        directory: URL? = nil, wrapper: (any SealingKeyWrapper)? = nil, maximum: Int = 64 << 20
    ) throws -> SealedStore {
        try SealedStore(
            directory: directory ?? self.directory, keyStore: keys ?? self.keys, keyService: service, wrapper: wrapper,
            algorithm: algorithm, maximumFileBytes: maximum)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    func put(_ bytes: [UInt8], _ name: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path(name))) }

    @Test(arguments: AEADAlgorithm.allCases)
    func aFileRoundTripsPrivatelyAndNeverHoldsItsPlaintext(algorithm: AEADAlgorithm) async throws {
        let store = try store(algorithm)
        let profile = Data("{\"email\":\"ada@example.com\"}".utf8)
        try await store.write(profile, named: "profile.json")
        #expect(try await store.read(named: "profile.json") == profile)
        #expect(try await store.read(named: "missing") == nil)
        #expect(try await store.names() == ["profile.json"])
        let raw = try bytes("profile.json")
        #expect(raw.count == profile.count + SealedFormat.overhead)
        #expect(raw[5] == algorithm.rawValue)
        #expect(!String(decoding: raw, as: UTF8.self).contains("ada@example.com"))
        var info = stat()
        #expect(stat(path("profile.json"), &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(directory.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        // Written again: replaced whole, no temporary file left behind.
        try await store.write(Data("v2".utf8), named: "profile.json")
        #expect(try await store.read(named: "profile.json") == Data("v2".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["profile.json"])
        try await store.remove(named: "profile.json")
        #expect(try await store.read(named: "profile.json") == nil)
    }

    /// A changed byte anywhere, a cut, a file moved to another name, or one sealed under another key: each is a
    /// typed error and nothing of the plaintext comes back.
    @Test func tamperingTruncationRenamingAndAnotherKeyAreRefused() async throws {
        let store = try store()
        try await store.write(Data("secret draft".utf8), named: "a")
        try await store.write(Data("other draft".utf8), named: "b")
        let original = try bytes("a")
        for index in [0, 5, 6, 30, SealedFormat.headerByteCount, original.count - 1] {
            var changed = original
            changed[index] ^= 0x01
            try put(changed, "a")
            await #expect(throws: StorageError.self, "byte \(index)") { try await store.read(named: "a") }
        }
        for index in [7, 21] {  // the key ID: another key, which this store does not have
            var changed = original
            changed[index] ^= 0x80
            try put(changed, "a")
            await #expect(throws: StorageError(.unknownKey), "byte \(index)") { try await store.read(named: "a") }
        }
        for index in [22, 40, 60, SealedFormat.headerByteCount + 2, original.count - 3] {
            var changed = original
            changed[index] ^= 0x80
            try put(changed, "a")
            await #expect(throws: StorageError(.tampered), "byte \(index)") { try await store.read(named: "a") }
        }
        try put(Array(original.dropLast()), "a")
        await #expect(throws: StorageError(.tampered)) { try await store.read(named: "a") }
        try put(Array(original.prefix(40)), "a")
        await #expect(throws: StorageError(.corruptedData)) { try await store.read(named: "a") }
        try put(Array("plain text someone wrote here, long enough to pass for a header and a tag".utf8), "a")
        await #expect(throws: StorageError(.corruptedData)) { try await store.read(named: "a") }
        // b's file under a's name.
        try put(try bytes("b"), "a")
        await #expect(throws: StorageError(.tampered)) { try await store.read(named: "a") }
        // The same key ID with other key bytes: a wrong key.
        try put(original, "a")
        let ring = try SealingKeyring(
            bytes: Array(try await keys.load(service: "sealed", account: "sealing-keys")!.dropFirst()))
        let forged = SealingKeyring(entries: [.init(id: ring.current.id, key: try SecureRandom().bytes(count: 32))])
        try await keys.save(Data([0] + forged.bytes), service: "sealed", account: "sealing-keys")
        let reopened = try self.store()
        await #expect(throws: StorageError(.tampered)) { try await reopened.read(named: "a") }
        // Another store's key never opens this one's files.
        let stranger = try self.store(service: "another")
        await #expect(throws: StorageError(.unknownKey)) { try await stranger.read(named: "b") }
    }

    /// A link, a FIFO or a directory at a name is never followed, opened for long, or read; a write replaces the
    /// link itself and leaves its target alone.
    @Test func aFileReplacedByALinkAFIFOOrADirectoryIsRefused() async throws {
        let store = try store()
        try await store.write(Data("mine".utf8), named: "a")
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("warden-outside-\(UUID())")
        try Data(try bytes("a")).write(to: outside)
        try FileManager.default.removeItem(atPath: path("a"))
        #expect(symlink(outside.path, path("a")) == 0)
        await #expect(throws: StorageError(.notARegularFile)) { try await store.read(named: "a") }
        try await store.write(Data("new".utf8), named: "a")
        #expect(try await store.read(named: "a") == Data("new".utf8))
        #expect(try Data(contentsOf: outside).count == 4 + SealedFormat.overhead)  // the target is untouched
        #expect(mkfifo(path("fifo"), 0o600) == 0)
        await #expect(throws: StorageError(.notARegularFile)) { try await store.read(named: "fifo") }
        try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: false)
        await #expect(throws: StorageError(.notARegularFile)) { try await store.read(named: "dir") }
        // The store's directory itself replaced by a link.
        let linked = FileManager.default.temporaryDirectory.appendingPathComponent("warden-linked-\(UUID())")
        #expect(symlink(directory.path, linked.path) == 0)
        let throughLink = try self.store(directory: linked)
        await #expect(throws: StorageError(.notARegularFile)) {
            try await throughLink.write(Data("x".utf8), named: "x")
        }
    }

    @Test func namesThatAreNotOnePathComponentAreRefused() async throws {
        let store = try store()
        for name in ["", ".hidden", "a/b", "../a", "a\u{0}b", "a\nb", String(repeating: "n", count: 256)] {
            await #expect(throws: StorageError(.invalidName), "\(name.debugDescription)") {
                try await store.write(Data("x".utf8), named: name)
            }
            await #expect(throws: StorageError(.invalidName)) { try await store.read(named: name) }
        }
        await #expect(throws: StorageError(.invalidName)) {
            try await store.seal([1], context: String(repeating: "c", count: 1025))
        }
    }

    /// A megabyte goes through; above the cap a write is refused, and a planted huge file is refused without being
    /// read into memory.
    @Test func megabytesAndTheSizeCap() async throws {
        let store = try store(maximum: 2 << 20)
        let large = Data(try SecureRandom().bytes(count: 1 << 20))
        try await store.write(large, named: "large")
        #expect(try await store.read(named: "large") == large)
        await #expect(throws: StorageError(.itemTooLarge)) {
            try await store.write(Data(count: 2 << 20), named: "huge")
        }
        #expect(FileManager.default.createFile(atPath: path("planted"), contents: Data(count: (2 << 20) + 1)))
        await #expect(throws: StorageError(.itemTooLarge)) { try await store.read(named: "planted") }
        await #expect(throws: StorageError(.itemTooLarge)) {
            try await store.open([UInt8](repeating: 0, count: (2 << 20) + 1), context: "x")
        }
    }

    /// Sign-out: every file, leftover temporary files and the key go; a copy kept elsewhere no longer opens.
    @Test func removeAllTakesTheFilesAndTheKey() async throws {
        let store = try store()
        try await store.write(Data("one".utf8), named: "one")
        let copy = try bytes("one")
        let blob = try await store.seal(Array("cached".utf8), context: "cache/7")
        #expect(try await store.open(blob, context: "cache/7") == Array("cached".utf8))
        await #expect(throws: StorageError(.tampered)) { try await store.open(blob, context: "cache/8") }
        #expect(FileManager.default.createFile(atPath: path(".one.abc.tmp"), contents: Data([1])))
        try await store.removeAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        #expect(try await keys.load(service: "sealed", account: "sealing-keys") == nil)
        try put(copy, "one")
        await #expect(throws: StorageError(.unknownKey)) { try await store.read(named: "one") }
        await #expect(throws: StorageError(.unknownKey)) { try await store.open(blob, context: "cache/7") }
    }

    /// Rotation seals every file again under a new key and forgets the old one; another process's store, holding the
    /// old key list, reads the rotated files by reloading it.
    @Test func rotationSealsEveryFileAgainAndDropsTheOldKey() async throws {
        let store = try store()
        let extensionStore = try self.store()
        for index in 0..<3 { try await store.write(Data("file \(index)".utf8), named: "f\(index)") }
        #expect(try await extensionStore.read(named: "f0") == Data("file 0".utf8))
        let before = try bytes("f1")
        let blob = try await store.seal([7], context: "blob")
        #expect(try await store.rotateKey() == 3)
        let after = try bytes("f1")
        #expect(Array(before[6..<22]) != Array(after[6..<22]))  // another key ID
        for index in 0..<3 { #expect(try await store.read(named: "f\(index)") == Data("file \(index)".utf8)) }
        #expect(try await extensionStore.read(named: "f2") == Data("file 2".utf8))
        let stored = try await keys.load(service: "sealed", account: "sealing-keys")!
        #expect(try SealingKeyring(bytes: Array(stored.dropFirst())).entries.count == 1)
        await #expect(throws: StorageError(.unknownKey)) { try await store.open(blob, context: "blob") }
    }

    /// Over the data protection model: files and their directory get `.complete` by default; while locked such a file
    /// cannot be opened (`locked`), a `.completeUntilFirstUserAuthentication` store's can, and the class reads back.
    @Test func dataProtectionOverTheModel() async throws {
        let container = directory.deletingLastPathComponent().appendingPathComponent("container-\(UUID())")
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        let model = DataProtectionModel(container: container.path, dataProtectionCapability: false)
        func modelled(_ protection: DataProtectionClass, _ name: String) throws -> SealedStore {
            try SealedStore(
                directory: container.appendingPathComponent(name), keyStore: keys, keyService: name, wrapper: nil,
                algorithm: .aes256GCM, protection: protection, maximumFileBytes: 1 << 20, fileProtection: model)
        }
        let documents = try modelled(.complete, "documents")
        let background = try modelled(.completeUntilFirstUserAuthentication, "background")
        try await documents.write(Data("doc".utf8), named: "d")
        try await background.write(Data("bg".utf8), named: "b")
        #expect(try await documents.protection(ofFileNamed: "d") == .complete)
        #expect(try await background.protection(ofFileNamed: "b") == .completeUntilFirstUserAuthentication)
        #expect(model.protection(of: container.appendingPathComponent("documents").path) == .complete)
        model.deviceState = .locked
        await #expect(throws: StorageError(.locked)) { try await documents.read(named: "d") }
        #expect(try await background.read(named: "b") == Data("bg".utf8))
        model.deviceState = .beforeFirstUnlock
        await #expect(throws: StorageError(.locked)) { try await background.read(named: "b") }
        model.deviceState = .unlocked
        #expect(try await documents.read(named: "d") == Data("doc".utf8))
        // Linux itself has no classes.
        #if !WARDEN_APPLE
            let plain = try store()
            try await plain.write(Data("x".utf8), named: "x")
            #expect(try await plain.protection(ofFileNamed: "x") == nil)
        #endif
    }

    /// D7 through the store: the class is set on the temporary file and travels with it into place, so a file in an
    /// existing directory of another class has the store's class, not the directory's (a background store's file
    /// opens while locked although its directory is `.complete`).
    @Test func theClassSetOnTheTemporaryFileIsTheFilesClass() async throws {
        let container = directory.deletingLastPathComponent().appendingPathComponent("container-\(UUID())")
        let folder = container.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let model = DataProtectionModel(container: container.path, dataProtectionCapability: true)
        #expect(model.protect(folder.path, .complete))
        let background = try SealedStore(
            directory: folder, keyStore: keys, keyService: "bg", wrapper: nil, algorithm: .aes256GCM,
            protection: .completeUntilFirstUserAuthentication, maximumFileBytes: 1 << 20, fileProtection: model)
        try await background.write(Data("bg".utf8), named: "b")
        #expect(try await background.protection(ofFileNamed: "b") == .completeUntilFirstUserAuthentication)
        model.deviceState = .locked
        #expect(try await background.read(named: "b") == Data("bg".utf8))
    }

    /// A system that refuses the class gets no file rather than a less protected one.
    @Test func aRefusedProtectionClassWritesNoFile() async throws {
        struct Refusing: FileProtection {
            func protect(_ path: String, _ protection: DataProtectionClass) -> Bool { !path.contains(".w-") }
            func protectionClass(of path: String) -> DataProtectionClass? { nil }
        }
        let store = try SealedStore(
            directory: directory, keyStore: keys, keyService: "refused", wrapper: nil, algorithm: .aes256GCM,
            protection: .complete, maximumFileBytes: 1 << 20, fileProtection: Refusing())
        await #expect(throws: StorageError(.backendFailure)) { try await store.write(Data("x".utf8), named: "x") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// A key item that is not a key list this version reads: too many keys, or stored unwrapped for a store that
    /// expects a wrapped one.
    @Test func aKeyItemOfTheWrongShapeIsRefused() async throws {
        let size = SealedFormat.keyIDByteCount + AEADAlgorithm.keyByteCount
        #expect(throws: StorageError(.corruptedData)) {
            try SealingKeyring(bytes: [1, 17] + [UInt8](repeating: 7, count: 17 * size))
        }
        #expect(throws: StorageError(.corruptedData)) {
            try SealingKeyring(bytes: [1, 1] + [UInt8](repeating: 7, count: size - 1))
        }
        let plain = try store()
        try await plain.write(Data("x".utf8), named: "x")
        let wrapped = try store(wrapper: X25519KeyWrapper(recipient: try X25519PrivateKey()))
        await #expect(throws: StorageError(.corruptedData)) { try await wrapped.read(named: "x") }
    }

    /// A wrapped master key: the stored item is not the key, a store without the wrapper cannot use it, and another
    /// recipient key cannot unwrap it.
    @Test func aWrappedKeyIsUselessWithoutItsWrapper() async throws {
        let recipient = try X25519PrivateKey()
        let store = try store(wrapper: X25519KeyWrapper(recipient: recipient))
        try await store.write(Data("wrapped".utf8), named: "w")
        #expect(
            try await self.store(wrapper: X25519KeyWrapper(recipient: recipient)).read(named: "w")
                == Data("wrapped".utf8))
        let stored = Array(try await keys.load(service: "sealed", account: "sealing-keys")!)
        #expect(stored.first == 1)
        await #expect(throws: StorageError(.unknownKey)) { try await self.store().read(named: "w") }
        let other = try self.store(wrapper: X25519KeyWrapper(recipient: try X25519PrivateKey()))
        await #expect(throws: StorageError(.tampered)) { try await other.read(named: "w") }
        var changed = stored
        changed[40] ^= 1
        try await keys.save(Data(changed), service: "sealed", account: "sealing-keys")
        await #expect(throws: StorageError(.tampered)) {
            try await self.store(wrapper: X25519KeyWrapper(recipient: recipient)).read(named: "w")
        }
    }

    /// Two processes' stores making the first key at once (here two store instances over one key item): the second
    /// finds the first one's key instead of overwriting it, so every file either wrote opens for both.
    @Test func storesMakingTheFirstKeyAtOnceShareOne() async throws {
        let first = try store()
        let second = try store()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await (index.isMultiple(of: 2) ? first : second).write(Data([UInt8(index)]), named: "f\(index)")
                }
            }
            try await group.waitForAll()
        }
        for index in 0..<8 {
            #expect(try await first.read(named: "f\(index)") == Data([UInt8(index)]))
            #expect(try await second.read(named: "f\(index)") == Data([UInt8(index)]))
        }
    }

    /// Another process rotates the key: this one's next write uses the new key (it reads the stored list before
    /// sealing), so the other process can read it — a write under the dropped key could never be opened again.
    @Test func aWriteAfterAnotherProcessRotatedUsesTheNewKey() async throws {
        let app = try store()
        let widget = try store()
        try await app.write(Data("one".utf8), named: "one")
        #expect(try await widget.read(named: "one") == Data("one".utf8))
        try await widget.rotateKey()
        try await app.write(Data("two".utf8), named: "two")
        #expect(try await widget.read(named: "two") == Data("two".utf8))
        #expect(try await self.store().read(named: "two") == Data("two".utf8))
    }

    /// An interrupted rotation (two keys stored) is finished with its new key, never by adding a third.
    @Test func anInterruptedRotationIsFinishedWithItsOwnKey() async throws {
        let store = try store()
        try await store.write(Data("old".utf8), named: "old")
        let stored = Array(try await keys.load(service: "sealed", account: "sealing-keys")!.dropFirst())
        var ring = try SealingKeyring(bytes: stored)
        let pending = try SealingKeyring.generate()
        ring.entries.insert(pending, at: 0)
        try await keys.save(Data([0] + ring.bytes), service: "sealed", account: "sealing-keys")
        #expect(try await store.rotateKey() == 1)
        let after = try SealingKeyring(
            bytes: Array(try await keys.load(service: "sealed", account: "sealing-keys")!.dropFirst()))
        #expect(after.entries == [pending])
        #expect(try await store.read(named: "old") == Data("old".utf8))
        #expect("\(after)".contains("<redacted>") && !"\(after)".contains("\(pending.key)"))
        let long = String(repeating: "n", count: 255)
        try await store.write(Data("x".utf8), named: long)
        #expect(try await store.read(named: long) == Data("x".utf8))
    }

    /// Every store that runs here keeps the key: memory, and the real Secret Service when the session has one.
    @Test func theKeyLivesInEachPlatformStore() async throws {
        for (label, keyStore) in try Stores.all() where label != "file" {
            let service = Stores.service()
            let store = try store(keys: keyStore, service: service, directory: directory.appendingPathComponent(label))
            try await store.write(Data(label.utf8), named: "x")
            let again = try self.store(
                keys: keyStore, service: service, directory: directory.appendingPathComponent(label))
            #expect(try await again.read(named: "x") == Data(label.utf8), "\(label)")
            try await again.removeAll()
            #expect(try await keyStore.load(service: service, account: "sealing-keys") == nil, "\(label)")
        }
    }
}

/// The Secure Enclave wrapper's decisions over a software enclave that answers as Security does: a key made once,
/// a key gone after a restore, a locked device, a changed blob.
@Suite struct SecureEnclaveKeyWrapperTests {
    final class SoftwareEnclave: SecureEnclaveKeyAPI, @unchecked Sendable {  // NSLock-guarded
        private let lock = NSLock()
        private var keys: [String: X25519PrivateKey] = [:]
        var created = 0
        var locked = false
        var hasEnclave = true

        func erase() { lock.withLock { keys = [:] } }

        func findKey(tag: String) -> Int32 {
            lock.withLock { keys[tag] == nil ? KeychainStatus.itemNotFound : KeychainStatus.success }
        }
        func createKey(tag: String) -> Int32 {
            lock.withLock {
                guard hasEnclave else { return KeychainStatus.notAvailable }
                keys[tag] = try! X25519PrivateKey()
                created += 1
                return KeychainStatus.success
            }
        }
        func encrypt(_ plaintext: [UInt8], tag: String) -> (Int32, [UInt8]?) {
            guard let key = lock.withLock({ keys[tag] }) else { return (KeychainStatus.itemNotFound, nil) }
            // ECIES in software: an ephemeral X25519 key, HKDF, AES-GCM (as the enclave's X9.63 KDF and AES-GCM).
            let ephemeral = try! X25519PrivateKey()
            let aead = try! AEADKey(
                HKDF.deriveKey(
                    from: ephemeral.sharedSecret(with: key.publicKey), salt: [UInt8](), info: [UInt8](), byteCount: 32),
                algorithm: .aes256GCM)
            return (
                KeychainStatus.success, ephemeral.publicKey.rawRepresentation + (try! aead.seal(plaintext)).combined
            )
        }
        func decrypt(_ ciphertext: [UInt8], tag: String) -> (Int32, [UInt8]?) {
            guard let key = lock.withLock({ keys[tag] }) else { return (KeychainStatus.itemNotFound, nil) }
            if lock.withLock({ locked }) { return (KeychainStatus.interactionNotAllowed, nil) }
            guard ciphertext.count > 60,
                let peer = try? X25519PublicKey(rawRepresentation: Array(ciphertext.prefix(32))),
                let secret = try? key.sharedSecret(with: peer),
                let aead = try? AEADKey(
                    HKDF.deriveKey(from: secret, salt: [UInt8](), info: [UInt8](), byteCount: 32), algorithm: .aes256GCM
                ),
                let box = try? AEADSealedBox(combined: Array(ciphertext.dropFirst(32))),
                let output = try? aead.open(box)
            else { return (-50, nil) }  // errSecParam
            return (KeychainStatus.success, output)
        }
    }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warden-se-\(UUID())")

    @Test func aStoreWrappedByTheEnclaveOpensOnlyWhileItsKeyExists() async throws {
        let enclave = SoftwareEnclave()
        let keys = InMemoryStore()
        func store() throws -> SealedStore {
            try SealedStore(
                directory: directory, keyStore: keys, keyService: "docs",
                wrapper: try SecureEnclaveKeyWrapper(tag: "docs.wrap", api: enclave))
        }
        try await store().write(Data("doc".utf8), named: "d")
        try await store().write(Data("doc2".utf8), named: "e")
        #expect(enclave.created == 1)
        #expect(try await store().read(named: "d") == Data("doc".utf8))
        enclave.locked = true
        await #expect(throws: StorageError(.interactionNotAllowed)) { try await store().read(named: "d") }
        enclave.locked = false
        var stored = Array(try await keys.load(service: "docs", account: "sealing-keys")!)
        stored[stored.count - 1] ^= 1
        try await keys.save(Data(stored), service: "docs", account: "sealing-keys")
        await #expect(throws: StorageError(.tampered)) { try await store().read(named: "d") }
        stored[stored.count - 1] ^= 1
        try await keys.save(Data(stored), service: "docs", account: "sealing-keys")
        #expect(try await store().read(named: "e") == Data("doc2".utf8))
        enclave.erase()  // restored to another device: the wrapped key item came along, the enclave key did not
        await #expect(throws: StorageError(.unknownKey)) { try await store().read(named: "d") }
        // The way out: remove everything, start again.
        try await store().removeAll()
        try await store().write(Data("fresh".utf8), named: "d")
        #expect(try await store().read(named: "d") == Data("fresh".utf8))
    }

    /// Every Secure Enclave answer of the Apple model (`AppleFrameworkRules.secureEnclaveKeys`) gets the reaction the
    /// rule states: a key gone after a restore is `unknown_key`, a locked device `interaction_not_allowed`
    /// (transient), a changed blob `tampered`.
    @Test(arguments: AppleFrameworkRules.secureEnclaveKeys)
    func everySecureEnclaveAnswerHasItsReaction(_ rule: AppleFrameworkRules.Outcome) async throws {
        struct Answering: SecureEnclaveKeyAPI {
            let status: Int32
            func findKey(tag: String) -> Int32 {
                status == KeychainStatus.itemNotFound ? status : KeychainStatus.success
            }
            func createKey(tag: String) -> Int32 { KeychainStatus.success }
            func encrypt(_ plaintext: [UInt8], tag: String) -> (Int32, [UInt8]?) { (KeychainStatus.success, plaintext) }
            func decrypt(_ ciphertext: [UInt8], tag: String) -> (Int32, [UInt8]?) { (status, nil) }
        }
        let expected: [String: StorageErrorDomain.Code] = [
            "errSecItemNotFound": .unknownKey, "errSecInteractionNotAllowed": .interactionNotAllowed,
            "errSecParam": .tampered,
        ]
        let code = try #require(expected[rule.name], "a rule without a reaction: \(rule)")
        let wrapper = try SecureEnclaveKeyWrapper(tag: "t", api: Answering(status: Int32(rule.code)))
        await #expect(throws: StorageError(code), "\(rule)") { try await wrapper.unwrap([1, 2, 3]) }
    }

    @Test func noSecureEnclaveIsAConfigurationError() async throws {
        let enclave = SoftwareEnclave()
        enclave.hasEnclave = false
        let wrapper = try SecureEnclaveKeyWrapper(tag: "t", api: enclave)
        await #expect(throws: StorageError(.serviceUnavailable)) { try await wrapper.wrap([1, 2, 3]) }
        #expect(throws: StorageError(.invalidName)) { try SecureEnclaveKeyWrapper(tag: "", api: enclave) }
    }
}

/// Messages sealed by another implementation of the format (pyca/cryptography, `Tests/Vectors/sealed/make.py`) open
/// in Warden: the format is what its documentation says, not whatever Warden happens to write.
@Suite struct SealedFormatVectorTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors/sealed")

    @Test func messagesSealedByAnotherImplementationOpen() throws {
        let master = [UInt8](repeating: 1, count: 32)
        let expected: [[UInt8]] = [
            [], Array("a cached profile".utf8), Array(String(repeating: "drafts ", count: 40).utf8), Array(0...255),
        ]
        for (index, plaintext) in expected.enumerated() {
            let sealed = Array(try Data(contentsOf: Self.directory.appendingPathComponent("seed-\(index).sealed")))
            let parts = try SealedFormat.parse(sealed, maximumBytes: 1 << 20)
            #expect(parts.header.algorithm == (index < 2 ? .aes256GCM : .chaCha20Poly1305))
            #expect(
                try SealedFormat.open(
                    header: parts.header, ciphertext: parts.ciphertext, tag: parts.tag, context: "fuzz", master: master)
                    == plaintext)
            #expect(throws: StorageError(.tampered)) {
                try SealedFormat.open(
                    header: parts.header, ciphertext: parts.ciphertext, tag: parts.tag, context: "other", master: master
                )
            }
        }
        let ring = try SealingKeyring(
            bytes: Array(try Data(contentsOf: Self.directory.appendingPathComponent("keyring.bin"))))
        #expect(ring.entries.count == 2 && ring.current.key == master)
    }
}
