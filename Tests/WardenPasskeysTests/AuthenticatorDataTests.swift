import Foundation
import Testing
import WardenCore
import WardenJOSE

@_spi(Fuzzing) @testable import WardenCrypto
@testable import WardenPasskeys

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
