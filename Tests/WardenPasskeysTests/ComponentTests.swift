import Foundation
import Testing
import WardenCore
import WardenJOSE

@_spi(Fuzzing) @testable import WardenCrypto
@testable import WardenPasskeys

@Suite("COSE keys (RFC 9053)")
struct COSEKeyTests {
    static func key(_ pairs: [(CBORValue, CBORValue)]) -> [UInt8] { CBOREncoder.encode(CBOREncoder.map(pairs)) }

    static let p256 = try! ECPrivateKey(curve: .p256).publicKey.components
    static let ed = try! Ed25519PrivateKey().publicKey.components.first

    static func ec2(
        alg: Int64 = -7, crv: UInt64 = 1, x: [UInt8] = p256.first, y: [UInt8]? = p256.second,
        extra: [(CBORValue, CBORValue)] = []
    ) -> [UInt8] {
        var pairs: [(CBORValue, CBORValue)] = [
            (.unsigned(1), .unsigned(2)), (.unsigned(3), CBOREncoder.int(alg)), (.negative(-1), .unsigned(crv)),
            (.negative(-2), .bytes(x)),
        ]
        if let y { pairs.append((.negative(-3), .bytes(y))) }
        return key(pairs + extra)
    }

    @Test func validKeysConvert() throws {
        #expect(try COSEKey(bytes: Self.ec2()).publicKey.kind == .ec(.p256))
        let okp = Self.key([
            (.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(-8)), (.negative(-1), .unsigned(6)),
            (.negative(-2), .bytes(Self.ed)),
        ])
        #expect(try COSEKey(bytes: okp).publicKey.kind == .ed25519)
        // The identity point: with it one constant signature verifies for every assertion.
        let identity = Self.key([
            (.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(-8)), (.negative(-1), .unsigned(6)),
            (.negative(-2), .bytes([1] + [UInt8](repeating: 0, count: 31))),
        ])
        #expect(throws: PasskeyError.self) { try COSEKey(bytes: identity) }
        // Unrelated labels (kid) are allowed.
        #expect(try COSEKey(bytes: Self.ec2(extra: [(.unsigned(2), .bytes([1]))])).algorithm == .es256)
    }

    /// Re-encoding recorded keys (real authenticators' COSE_Key bytes from py_webauthn's fixtures) gives the same
    /// bytes: the encoder writes the canonical form authenticators use.
    @Test func encodingMatchesRecordedKeys() throws {
        let assertions = try #require(try PasskeyFixtures.recorded()["assertions"]?.arrayValue)
        var checked = 0
        for item in assertions.compactMap(\.objectValue) {
            let bytes = try Base64URL.decode(item["publicKey"]!.stringValue!)
            let key = try COSEKey(bytes: bytes)
            #expect(try COSEKey(publicKey: key.publicKey, algorithm: key.algorithm).encoded == bytes)
            checked += 1
        }
        #expect(checked == 6)
        #expect(throws: PasskeyError(.invalidKey)) {
            try COSEKey(publicKey: try ECPrivateKey(curve: .p384).publicKey, algorithm: .es256)
        }
        #expect(throws: PasskeyError(.invalidKey)) {
            try COSEKey(publicKey: try Ed25519PrivateKey().publicKey, algorithm: .rs256)
        }
    }

    @Test(
        arguments: [
            ("ES384 alg on a P-256 key", ec2(alg: -35), "invalid_key"),
            ("ES256 alg on P-384 crv", ec2(crv: 2), "invalid_key"),
            ("unknown curve", ec2(crv: 9), "invalid_key"),
            ("short x", ec2(x: Array(p256.first.dropFirst())), "invalid_key"),
            ("compressed point (y missing)", ec2(y: nil), "invalid_key"),
            (
                "y as a boolean",
                key([
                    (.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(-7)), (.negative(-1), .unsigned(1)),
                    (.negative(-2), .bytes(p256.first)), (.negative(-3), .bool(true)),
                ]), "invalid_key"
            ),
            ("point not on the curve", ec2(y: p256.first), "invalid_key"),
            ("private key d", ec2(extra: [(.negative(-4), .bytes(Array(repeating: 1, count: 32)))]), "invalid_key"),
            (
                "no alg",
                key([
                    (.unsigned(1), .unsigned(2)), (.negative(-1), .unsigned(1)), (.negative(-2), .bytes(p256.first)),
                    (.negative(-3), .bytes(p256.second)),
                ]), "invalid_key"
            ),
            ("RS1 alg", ec2(alg: -65535), "unsupported_algorithm"),
            ("EdDSA alg on EC2", ec2(alg: -8), "invalid_key"),
            (
                "ES256 alg on OKP",
                key([
                    (.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(-7)), (.negative(-1), .unsigned(6)),
                    (.negative(-2), .bytes(ed)),
                ]), "invalid_key"
            ),
            (
                "X25519 curve",
                key([
                    (.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(-8)), (.negative(-1), .unsigned(4)),
                    (.negative(-2), .bytes(ed)),
                ]), "invalid_key"
            ),
            ("RS256 on EC2", ec2(alg: -257), "invalid_key"),
            (
                "RSA 1024-bit",
                key([
                    (.unsigned(1), .unsigned(3)), (.unsigned(3), CBOREncoder.int(-257)),
                    (.negative(-1), .bytes([0xC1] + Array(repeating: 0x11, count: 127))),
                    (.negative(-2), .bytes([1, 0, 1])),
                ]), "invalid_key"
            ),
            // Registered by anyone and paid at every sign-in: RSA over 4096 bits or with another exponent than 65537.
            (
                "RSA 8192-bit",
                key([
                    (.unsigned(1), .unsigned(3)), (.unsigned(3), CBOREncoder.int(-257)),
                    (.negative(-1), .bytes([0xC1] + Array(repeating: 0x11, count: 1023))),
                    (.negative(-2), .bytes([1, 0, 1])),
                ]), "invalid_key"
            ),
            (
                "RSA 64-bit exponent",
                key([
                    (.unsigned(1), .unsigned(3)), (.unsigned(3), CBOREncoder.int(-257)),
                    (.negative(-1), .bytes([0xC1] + Array(repeating: 0x11, count: 255))),
                    (.negative(-2), .bytes(Array(repeating: 0xFF, count: 8))),
                ]), "invalid_key"
            ),
            (
                "symmetric kty", key([(.unsigned(1), .unsigned(4)), (.unsigned(3), .negative(-7))]),
                "unsupported_algorithm"
            ),
            ("not a map", [0x80], "invalid_key"),
            ("trailing bytes", ec2() + [0], "invalid_key"),
        ] as [(String, [UInt8], String)])
    func rejects(name: String, bytes: [UInt8], code: String) {
        #expect(throws: (any Error).self, "\(name)") { try COSEKey(bytes: bytes) }
        do {
            _ = try COSEKey(bytes: bytes)
        } catch {
            #expect(error.codeName == code, "\(name): \(error.reason)")
        }
    }
}

@Suite("Authenticator data (§6.1) and client data (§5.8.1)")
struct AuthenticatorDataTests {
    @Test func parsesFlagsCounterAndExtensions() throws {
        let extensions = CBOREncoder.encode(CBOREncoder.map([(.text("credProtect"), .unsigned(2))]))
        let bytes = Array(repeating: 0xAB, count: 32) + [0x85, 0, 0, 1, 2] + extensions
        let data = try AuthenticatorData(bytes: bytes)
        #expect(data.flags == [.userPresent, .userVerified, .extensionData])
        #expect(data.signCount == 258)
        #expect(data.extensions?["credProtect"] == .unsigned(2))
        #expect(data.attestedCredential == nil)
    }

    @Test(
        arguments: [
            ("36 bytes", Array(repeating: 0, count: 36), "malformed"),
            ("AT flag, nothing follows", Array(repeating: 0, count: 32) + [0x41, 0, 0, 0, 0], "malformed"),
            (
                "AT flag, zero-length ID",
                Array(repeating: 0, count: 32) + [0x41, 0, 0, 0, 0] + Array(repeating: 0, count: 18), "malformed"
            ),
            ("extensions not a map", Array(repeating: 0, count: 32) + [0x81, 0, 0, 0, 0, 0x01], "malformed"),
            ("extensions bad CBOR", Array(repeating: 0, count: 32) + [0x81, 0, 0, 0, 0, 0xBF], "malformed"),
            ("over 64 KiB", Array(repeating: 0, count: 70_000), "too_large"),
        ] as [(String, [UInt8], String)])
    func rejects(name: String, bytes: [UInt8], code: String) {
        do {
            _ = try AuthenticatorData(bytes: bytes)
            Issue.record("\(name) accepted")
        } catch {
            #expect(error.codeName == code, "\(name)")
        }
    }

    @Test(arguments: [
        ("not an object", "[]"), ("no type", #"{"challenge":"AA","origin":"o"}"#),
        ("challenge not a string", #"{"type":"t","challenge":1,"origin":"o"}"#),
        ("challenge standard base64", #"{"type":"t","challenge":"A+/A","origin":"o"}"#),
        ("crossOrigin a string", #"{"type":"t","challenge":"AA","origin":"o","crossOrigin":"true"}"#),
        ("topOrigin a number", #"{"type":"t","challenge":"AA","origin":"o","topOrigin":1}"#),
        ("invalid UTF-8", "{\"type\":\"\u{FFFD}\"}"),
    ])
    func clientDataRejects(name: String, json: String) {
        var bytes = Array(json.utf8)
        if name == "invalid UTF-8" { bytes = Array(#"{"type":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8) }
        #expect(throws: PasskeyError(.malformed), "\(name)") { try CollectedClientData(json: bytes) }
    }

    @Test func megabyteInputsAreRefusedQuickly() throws {
        let huge = Array(repeating: UInt8(ascii: "["), count: 2 << 20)
        #expect(throws: PasskeyError(.tooLarge)) { try CollectedClientData(json: huge) }
        #expect(throws: PasskeyError(.tooLarge)) { try RegistrationResponse(json: huge) }
        #expect(throws: PasskeyError(.tooLarge)) { try AssertionResponse(json: huge) }
        #expect(throws: PasskeyError(.tooLarge)) { try AuthenticatorData(bytes: huge) }
        // Deep nesting under the size cap is refused by the depth caps, not by the stack.
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: PasskeyError(.malformed)) { try CollectedClientData(json: Array(deep.prefix(60_000))) }
        #expect(throws: PasskeyError(.malformed)) { try RegistrationResponse(json: Array(deep.prefix(200_000))) }
    }

    /// A native registration reports what the system said about the authenticator and nothing it did not: no
    /// attachment before iOS 16.6, no invented transports.
    @Test func aNativeRegistrationReportsOnlyWhatTheSystemSaid() throws {
        #expect(RegistrationResponse.authenticatorAttachment(appleRawValue: 0) == "platform")
        #expect(RegistrationResponse.authenticatorAttachment(appleRawValue: 1) == "cross-platform")
        #expect(RegistrationResponse.authenticatorAttachment(appleRawValue: nil) == nil)
        #expect(RegistrationResponse.authenticatorAttachment(appleRawValue: 7) == nil)
        let unreported = RegistrationResponse(credentialID: [1], clientDataJSON: [2], attestationObject: [3])
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(unreported.json().utf8)) as? [String: Any])
        #expect(document["authenticatorAttachment"] == nil)
        #expect((document["response"] as? [String: Any])?["transports"] == nil)
    }

    @Test func responseDocumentsRoundTrip() throws {
        let registration = RegistrationResponse(
            credentialID: [1, 2, 3], clientDataJSON: [4], attestationObject: [5, 6], transports: ["hybrid"],
            authenticatorAttachment: "cross-platform")
        let read = try RegistrationResponse(json: Array(registration.json().utf8))
        #expect(read.credentialID == [1, 2, 3] && read.clientDataJSON == [4] && read.attestationObject == [5, 6])
        #expect(read.transports == ["hybrid"] && read.authenticatorAttachment == "cross-platform")
        let assertion = AssertionResponse(
            credentialID: [9], clientDataJSON: [8], authenticatorData: [7], signature: [6], userHandle: [5])
        let again = try AssertionResponse(json: Array(assertion.json().utf8))
        #expect(again.credentialID == [9] && again.authenticatorData == [7] && again.signature == [6])
        #expect(again.userHandle == [5] && again.clientDataJSON == [8])
    }

    @Test func responseDocumentsAreStrict() {
        let good =
            #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"AA","authenticatorData":"AA","signature":"AA"}}"#
        #expect(throws: Never.self) { try AssertionResponse(json: Array(good.utf8)) }
        for (name, bad, code) in [
            (
                "id differs from rawId", good.replacingOccurrences(of: #""rawId":"AQID""#, with: #""rawId":"AQIE""#),
                "credential_id_mismatch"
            ),
            ("wrong type", good.replacingOccurrences(of: "public-key", with: "password"), "malformed"),
            (
                "padded base64", good.replacingOccurrences(of: #""signature":"AA""#, with: #""signature":"AA==""#),
                "malformed"
            ),
            ("no response", #"{"id":"AQID","rawId":"AQID","type":"public-key"}"#, "malformed"),
            (
                "userHandle a number",
                good.replacingOccurrences(of: #""signature":"AA""#, with: #""signature":"AA","userHandle":5"#),
                "malformed"
            ),
        ] {
            do {
                _ = try AssertionResponse(json: Array(bad.utf8))
                Issue.record("\(name) accepted")
            } catch {
                #expect(error.codeName == code, "\(name)")
            }
        }
    }

    @Test func registrationTransportsAreBounded() throws {
        func document(_ transports: String) -> [UInt8] {
            Array(
                #"{"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"AA","attestationObject":"AA","transports":\#(transports)}}"#
                    .utf8)
        }
        #expect(try RegistrationResponse(json: document(#"["usb","nfc"]"#)).transports == ["usb", "nfc"])
        let sixteen = "[" + Array(repeating: #""usb""#, count: 16).joined(separator: ",") + "]"
        #expect(try RegistrationResponse(json: document(sixteen)).transports.count == 16)
        for (name, transports) in [
            ("not an array", #""usb""#),
            ("a number", "[1]"),
            ("an empty entry", #"[""]"#),
            ("an entry over 32 bytes", #"[""# + String(repeating: "u", count: 33) + #""]"#),
            ("seventeen entries", "[" + Array(repeating: #""usb""#, count: 17).joined(separator: ",") + "]"),
        ] {
            #expect(throws: PasskeyError(.malformed), "\(name)") {
                try RegistrationResponse(json: document(transports))
            }
        }
    }
}

@Suite("Challenges and ChallengeStore")
struct ChallengeTests {
    @Test func challengesAre32FreshBytes() throws {
        let values = try (0..<1000).map { _ in try PasskeyChallenge(binding: "s", ceremony: .registration).value }
        #expect(values.allSatisfy { $0.count == 32 })
        #expect(Set(values).count == 1000)
    }

    @Test func oneTimeBoundAndExpiring() async throws {
        let store = InMemoryChallengeStore()
        let now = Date()
        let issued = try await store.issue(binding: "session-1", ceremony: .authentication, now: now)
        #expect(
            try await store.redeem(issued.value, binding: "session-1", ceremony: .authentication, now: now) == issued)
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            try await store.redeem(issued.value, binding: "session-1", ceremony: .authentication, now: now)
        }
        let other = try await store.issue(binding: "session-1", ceremony: .authentication, now: now)
        await #expect(throws: PasskeyError(.challengeBindingMismatch)) {
            try await store.redeem(other.value, binding: "session-2", ceremony: .authentication, now: now)
        }
        // A failed redemption burns the challenge too.
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            try await store.redeem(other.value, binding: "session-1", ceremony: .authentication, now: now)
        }
        let registration = try await store.issue(binding: "session-1", ceremony: .registration, now: now)
        await #expect(throws: PasskeyError(.challengeBindingMismatch)) {
            try await store.redeem(registration.value, binding: "session-1", ceremony: .authentication, now: now)
        }
        let old = try await store.issue(binding: "session-1", ceremony: .registration, lifetime: 60, now: now)
        await #expect(throws: PasskeyError(.challengeExpired)) {
            try await store.redeem(old.value, binding: "session-1", ceremony: .registration, now: now + 61)
        }
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            try await store.redeem([1, 2, 3], binding: "session-1", ceremony: .registration, now: now)
        }
    }

    @Test func concurrentRedemptionSucceedsOnce() async throws {
        let store = InMemoryChallengeStore()
        let issued = try await store.issue(binding: "s", ceremony: .authentication)
        let successes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    (try? await store.redeem(issued.value, binding: "s", ceremony: .authentication)) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(successes == 1)
    }

    @Test func capacityIsBounded() async throws {
        let store = InMemoryChallengeStore(capacity: 10)
        for _ in 0..<50 { _ = try await store.issue(binding: "s", ceremony: .registration) }
        #expect(await store.count == 10)
    }

    /// A store that cannot answer (a remote one down): issuing and redeeming refuse with a transient, typed error,
    /// never "unknown challenge"; a PasskeyError the store raises itself passes through.
    @Test func aStoreThatCannotAnswerIsATransientRefusal() async throws {
        struct Down: Error {}
        struct FailingStore: ChallengeStore {
            let error: any Error
            func put(_ challenge: PasskeyChallenge) async throws { throw error }
            func take(_ value: [UInt8]) async throws -> PasskeyChallenge? { throw error }
        }
        let down = FailingStore(error: Down())
        let refused = await #expect(throws: PasskeyError(.challengeStoreUnavailable)) {
            _ = try await down.redeem([1, 2, 3], binding: "s", ceremony: .authentication)
        }
        #expect(refused?.failureKind == .transient)
        await #expect(throws: PasskeyError(.challengeStoreUnavailable)) {
            _ = try await down.issue(binding: "s", ceremony: .registration)
        }
        let own = FailingStore(error: PasskeyError(.challengeExpired))
        await #expect(throws: PasskeyError(.challengeExpired)) {
            _ = try await own.redeem([1], binding: "s", ceremony: .authentication)
        }
        // A challenge kept outside the process comes back whole.
        let restored = PasskeyChallenge(
            restoring: [9, 9], binding: "b", ceremony: .registration, expires: Date(timeIntervalSince1970: 5))
        #expect(restored.value == [9, 9] && restored.binding == "b" && restored.expires.timeIntervalSince1970 == 5)
    }

    /// Issue 32 item 6: one binding issuing challenges without end keeps only its own last few; other sessions'
    /// challenges stay redeemable.

    @Test func oneBindingCannotPushOutAnothersChallenge() async throws {
        let store = InMemoryChallengeStore(capacity: 100, perBindingCapacity: 8)
        let now = Date()
        let legit = try await store.issue(binding: "alice", ceremony: .authentication, now: now)
        var flood: [PasskeyChallenge] = []
        for _ in 0..<1000 {
            flood.append(try await store.issue(binding: "mallory", ceremony: .authentication, now: now))
        }
        #expect(await store.count(forBinding: "mallory") == 8)
        #expect(
            try await store.redeem(legit.value, binding: "alice", ceremony: .authentication, now: now) == legit)
        // The flooding session's newest challenge works, its oldest was dropped.
        _ = try await store.redeem(flood.last!.value, binding: "mallory", ceremony: .authentication, now: now)
        await #expect(throws: PasskeyError(.challengeUnknown)) {
            try await store.redeem(flood[0].value, binding: "mallory", ceremony: .authentication, now: now)
        }
    }

    /// Many bindings fill the store: room is taken from the binding holding the most, never from one under its fair
    /// share; expired challenges make room first.
    @Test func aFullStoreTakesRoomFromTheBusiestBinding() async throws {
        let clock = Locked(Date())
        let store = InMemoryChallengeStore(capacity: 50, perBindingCapacity: 16, now: { clock.current })
        let now = clock.current
        let legit = try await store.issue(binding: "alice", ceremony: .registration, now: now)
        for index in 0..<150 {
            _ = try await store.issue(binding: "bot-\(index % 30)", ceremony: .registration, now: now)
        }
        #expect(await store.count == 50)
        #expect(await store.count(forBinding: "alice") == 1)
        #expect(try await store.redeem(legit.value, binding: "alice", ceremony: .registration, now: now) == legit)
        // After the lifetime the flood has expired: once the store is full again, the expired ones go first.
        clock.withLock { $0 += PasskeyChallenge.defaultLifetime + 1 }
        let first = try await store.issue(binding: "bob", ceremony: .registration, now: clock.current)
        #expect(await store.count == 50)
        let second = try await store.issue(binding: "bob", ceremony: .registration, now: clock.current)
        #expect(await store.count == 2)
        for challenge in [first, second] {
            _ = try await store.redeem(challenge.value, binding: "bob", ceremony: .registration, now: clock.current)
        }
    }

    @Test func redeemFromClientData() async throws {
        let store = InMemoryChallengeStore()
        let issued = try await store.issue(binding: "s", ceremony: .registration)
        let json = Array(
            #"{"type":"webauthn.create","challenge":"\#(issued.base64URL)","origin":"https://example.com"}"#.utf8)
        #expect(try await store.redeem(clientDataJSON: json, binding: "s", ceremony: .registration) == issued)
    }
}

@Suite("Options JSON")
struct OptionsTests {
    @Test func creationOptionsHaveTheBrowserShape() throws {
        let challenge = try PasskeyChallenge(binding: "s", ceremony: .registration)
        let options = PasskeyCreationOptions(
            relyingParty: PasskeyFixtures.rp, rpName: "Example", userID: [1, 2, 3], userName: "ada@example.com",
            challenge: challenge,
            excludeCredentials: [PasskeyCredentialDescriptor(id: [4, 5], transports: ["internal"])])
        let object = try JSONReader().parseObject(Array(options.json().utf8))
        #expect(object["rp"]?.objectValue?["id"]?.stringValue == "example.com")
        #expect(object["user"]?.objectValue?["id"]?.stringValue == "AQID")
        #expect(object["challenge"]?.stringValue == challenge.base64URL)
        let algorithms = object["pubKeyCredParams"]?.arrayValue?.compactMap {
            $0.objectValue?["alg"]?.numberValue?.int64
        }
        #expect(algorithms == COSEAlgorithm.supported.map(\.rawValue))
        #expect(object["excludeCredentials"]?.arrayValue?.first?.objectValue?["id"]?.stringValue == "BAU")
        #expect(object["authenticatorSelection"]?.objectValue?["residentKey"]?.stringValue == "required")
        #expect(object["attestation"]?.stringValue == "none")
        let timeout = try #require(object["timeout"]?.numberValue?.int64)
        #expect((290_000...300_000).contains(timeout))
    }

    @Test func requestOptionsHaveTheBrowserShape() throws {
        let challenge = try PasskeyChallenge(binding: "s", ceremony: .authentication)
        let options = PasskeyRequestOptions(
            relyingParty: PasskeyFixtures.rp, challenge: challenge, userVerification: .required)
        let object = try JSONReader().parseObject(Array(options.json().utf8))
        #expect(object["rpId"]?.stringValue == "example.com")
        #expect(object["allowCredentials"]?.arrayValue?.isEmpty == true)
        #expect(object["userVerification"]?.stringValue == "required")
        #expect(object["challenge"]?.stringValue == challenge.base64URL)
    }

    @Test func relyingPartyConfigurationIsChecked() {
        for (id, origins) in [
            ("", ["https://a"]), ("https://example.com", ["https://example.com"]), ("example.com", []),
            ("example.com", ["https://example.com/"]),
        ] {
            #expect(throws: PasskeyError(.invalidConfiguration)) { try RelyingParty(id: id, origins: Set(origins)) }
        }
    }

    @Test func credentialRecordRejectsBadDocuments() throws {
        let (_, record) = try AssertionTests.registered()
        let good = record.json()
        #expect(try CredentialRecord(json: Array(good.utf8)) == record)
        for (name, bad) in [
            ("negative count", good.replacingOccurrences(of: #""signCount":0"#, with: #""signCount":-1"#)),
            ("algorithm differs", good.replacingOccurrences(of: #""algorithm":-7"#, with: #""algorithm":-8"#)),
            ("aaguid not a UUID", good.replacingOccurrences(of: record.aaguidString, with: "zz")),
            (
                "aaguid without hyphens",
                good.replacingOccurrences(
                    of: record.aaguidString, with: record.aaguidString.replacingOccurrences(of: "-", with: ""))
            ),
            ("flag not a bool", good.replacingOccurrences(of: #""backedUp":true"#, with: #""backedUp":1"#)),
            ("not JSON", "{"),
        ] {
            #expect(throws: (any Error).self, "\(name)") { try CredentialRecord(json: Array(bad.utf8)) }
        }
    }
}

@Suite("X.509 certificates and ECDSA DER signatures")
struct CertificateTests {
    @Test func readsTheYubicoRoot() throws {
        let root = try #require(
            try X509Certificate.certificates(pemOrDER: PasskeyFixtures.data("yubico-u2f-root.pem")).first)
        #expect(root.version == 3)
        #expect(root.subject(.commonName) == "Yubico U2F Root CA Serial 457200631")
        #expect(try root.basicConstraintsCA == true)
        #expect(try root.publicKey.kind == .rsa(modulusBits: 2048))
        // Self-signed and inside its validity: it verifies as its own anchor.
        try X509Certificate.verifyChain([root], roots: [root], at: Date())
        let apple = try #require(AttestationPolicy.appleWebAuthnRoots.first)
        #expect(apple.subject(.commonName) == "Apple WebAuthn Root CA")
        #expect(try apple.publicKey.kind == .ec(.p384))
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain([apple], roots: [root], at: Date())
        }
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain([root], roots: [root], at: Date(timeIntervalSince1970: 2_600_000_000))
        }
    }

    @Test func rejectsMalformedCertificates() throws {
        let der = try X509Certificate.certificates(pemOrDER: PasskeyFixtures.data("yubico-u2f-root.pem"))[0].der
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate(der: der + [0]) }
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate(der: Array(der.dropLast())) }
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate(der: [0x30, 0x00]) }
        #expect(throws: CryptoError(.inputTooLarge)) { try X509Certificate(der: Array(repeating: 0x30, count: 70_000)) }
        // A leaf whose signed part changed after signing: parses, but never verifies.
        let pki = try PasskeyFixtures.PKI()
        let (_, leaf) = try pki.leaf()
        try X509Certificate.verifyChain(
            [X509Certificate(der: leaf), X509Certificate(der: pki.intermediateDER)], roots: pki.roots, at: Date())
        var flipped = leaf
        let index = try #require(flipped.firstIndex(of: UInt8(ascii: "W")))  // inside the issuer name
        flipped[index] = UInt8(ascii: "X")
        let broken = try X509Certificate(der: flipped)
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain(
                [broken, X509Certificate(der: pki.intermediateDER)], roots: pki.roots, at: Date())
        }
    }

    @Test func certificateInputShapes() throws {
        let pem = try PasskeyFixtures.data("yubico-u2f-root.pem")
        let der = try X509Certificate.certificates(pemOrDER: pem)[0].der
        #expect(try X509Certificate.certificates(pemOrDER: der).map(\.der) == [der])
        #expect(try X509Certificate.certificates(pemOrDER: pem + pem).count == 2)
        for (name, input, code) in [
            ("empty", [], CryptoError.Code.noCertificate),
            (
                "PEM without a certificate", Array("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".utf8),
                .noCertificate
            ),
            ("text", Array("junk".utf8), .malformedInput),
            (
                "PEM holding junk", Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8),
                .malformedInput
            ),
            ("over 1 MiB", pem + Array(repeating: 0x0A, count: 1 << 20), .inputTooLarge),
        ] as [(String, [UInt8], CryptoError.Code)] {
            #expect(throws: CryptoError(code), "\(name)") { try X509Certificate.certificates(pemOrDER: input) }
        }
    }

    @Test func rejectsMalformedExtensions() throws {
        let pki = try PasskeyFixtures.PKI()
        func certificate(_ configure: (inout CertificateBuilder) -> Void) throws -> [UInt8] {
            try pki.leaf(configure).1
        }
        /// `der` with the first occurrence of `old` replaced by `new` (same length, so no length field changes).
        func patched(_ der: [UInt8], _ old: [UInt8], _ new: [UInt8]) throws -> [UInt8] {
            let start = try #require(
                der.indices.first { der[$0...].starts(with: old) }, "pattern \(old) not in the certificate")
            var copy = der
            copy.replaceSubrange(start..<start + old.count, with: new)
            return copy
        }
        let basicConstraintsOID: [UInt8] = [0x06, 0x03, 0x55, 0x1D, 0x13]
        let caDER = pki.intermediateDER
        #expect(try X509Certificate(der: caDER).basicConstraintsCA == true)

        let duplicate = try certificate { $0.extensions = [("2.5.29.19", false, DER.sequence([]))] }
        let inV2 = try certificate {
            $0.version = 2
            $0.extensions = [CertificateBuilder.aaguidExtension(Array(repeating: 1, count: 16))]
        }
        // critical present but FALSE: DER omits a default value, so an explicit FALSE is not DER.
        let criticalFalse = try patched(
            caDER, basicConstraintsOID + [0x01, 0x01, 0xFF], basicConstraintsOID + [0x01, 0x01, 0x00])
        for (name, der) in [
            ("extension twice", duplicate), ("extensions in v2", inV2), ("critical FALSE", criticalFalse),
        ] {
            #expect(throws: CryptoError(.malformedInput), "\(name)") { try X509Certificate(der: der) }
        }
        // cA encoded as BOOLEAN 01 rather than FF: the certificate parses, the constraint is refused.
        let nonDERTrue = try patched(caDER, [0x30, 0x03, 0x01, 0x01, 0xFF], [0x30, 0x03, 0x01, 0x01, 0x01])
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate(der: nonDERTrue).basicConstraintsCA }
        #expect(try X509Certificate(der: pki.leaf().1).basicConstraintsCA == false)
    }

    @Test func chainVerificationNeedsALeafAndAnAnchor() throws {
        let pki = try PasskeyFixtures.PKI()
        let leaf = try X509Certificate(der: pki.leaf().1)
        let intermediate = try X509Certificate(der: pki.intermediateDER)
        #expect(throws: CryptoError(.noCertificate)) {
            try X509Certificate.verifyChain([], roots: pki.roots, at: Date())
        }
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain([leaf, intermediate], roots: [], at: Date())
        }
        // Missing intermediate: the leaf alone does not reach the root.
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain([leaf], roots: pki.roots, at: Date())
        }
        try X509Certificate.verifyChain([leaf, intermediate], roots: pki.roots, at: Date())
        // A certificate without the CA constraint cannot issue, even with a good signature on a well-formed chain.
        let (leafKey, leafDER) = try pki.leaf()
        var child = CertificateBuilder()
        child.subject = [("2.5.4.3", "Issued by a leaf")]
        var issuer = CertificateBuilder()
        issuer.serial = 3
        let childDER = try child.build(subjectKey: ECPrivateKey().publicKey, issuer: issuer, issuerKey: leafKey)
        #expect(throws: CryptoError(.untrustedCertificate)) {
            try X509Certificate.verifyChain(
                [X509Certificate(der: childDER), X509Certificate(der: leafDER), intermediate], roots: pki.roots,
                at: Date())
        }
    }

    @Test func oidText() throws {
        #expect(
            try X509Certificate.oidString(CertificateBuilder.oid("1.3.6.1.4.1.45724.1.1.4"))
                == "1.3.6.1.4.1.45724.1.1.4")
        #expect(
            try X509Certificate.oidString([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B])
                == "1.2.840.113549.1.1.11")
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate.oidString([0x2A, 0x80, 0x01]) }
        #expect(throws: CryptoError(.malformedInput)) { try X509Certificate.oidString([0x2A, 0x86]) }
    }

    @Test func ecdsaDERConversion() throws {
        let key = try ECPrivateKey()
        for _ in 0..<50 {
            let raw = try key.signature(for: [1, 2, 3])
            #expect(try ECDSASignature.raw(fromDER: CertificateBuilder.derSignature(raw), curve: .p256) == raw)
        }
        let r = [UInt8](repeating: 0x11, count: 32)
        let good: [UInt8] = [0x30, 0x44, 0x02, 0x20] + r + [0x02, 0x20] + r
        #expect(try ECDSASignature.raw(fromDER: good, curve: .p256) == r + r)
        for (name, bad) in [
            ("trailing byte", good + [0]),
            ("negative r", [0x30, 0x44, 0x02, 0x20, 0x81] + r.dropFirst() + [0x02, 0x20] + r),
            ("non-minimal r", [0x30, 0x45, 0x02, 0x21, 0x00] + r + [0x02, 0x20] + r),
            ("r too long", [0x30, 0x46, 0x02, 0x22, 0x01] + r + [0x11, 0x02, 0x20] + r),
            ("three integers", [0x30, 0x47, 0x02, 0x20] + r + [0x02, 0x20] + r + [0x02, 0x01, 0x01]),
            ("BIT STRING", [0x03, 0x02, 0x00, 0x00]),
            ("empty integer", [0x30, 0x24, 0x02, 0x00, 0x02, 0x20] + r),
            ("long-form short length", [0x30, 0x81, 0x44, 0x02, 0x20] + r + [0x02, 0x20] + r),
        ] as [(String, [UInt8])] {
            #expect(throws: CryptoError(.malformedSignature), "\(name)") {
                try ECDSASignature.raw(fromDER: bad, curve: .p256)
            }
        }
        for raw in [[], [UInt8](repeating: 1, count: 63)] {
            #expect(throws: CryptoError(.malformedSignature), "\(raw.count) bytes") {
                try ECDSASignature.der(fromRaw: raw)
            }
        }
    }
}
