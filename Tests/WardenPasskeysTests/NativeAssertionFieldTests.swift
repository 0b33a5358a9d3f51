import Foundation
import Testing
import WardenCrypto
import WardenJOSE

@testable import WardenPasskeys

/// AuthenticationServices hands assertions over as implicitly unwrapped `Data!` fields; a security key may omit the
/// user handle. The native initialiser reads them as optionals: nothing traps, and what is missing is an error.
@Suite("Native assertion fields")
struct NativeAssertionFieldTests {
    static let some = Data([1, 2, 3])

    @Test func aMissingUserHandleIsNilNotACrash() throws {
        let response = try AssertionResponse(
            credentialID: Self.some, clientDataJSON: Self.some, authenticatorData: Self.some, signature: Self.some,
            userID: nil)
        #expect(response.userHandle == nil)
        #expect(!response.json().contains("userHandle"))
        let empty = try AssertionResponse(
            credentialID: Self.some, clientDataJSON: Self.some, authenticatorData: Self.some, signature: Self.some,
            userID: Data())
        #expect(empty.userHandle == nil)
        let given = try AssertionResponse(
            credentialID: Self.some, clientDataJSON: Self.some, authenticatorData: Self.some, signature: Self.some,
            userID: Data([9]))
        #expect(given.userHandle == [9])
    }

    @Test(arguments: [0, 1, 2, 3])
    func aMissingRequiredFieldIsMalformed(missing: Int) {
        var fields: [Data?] = [Self.some, Self.some, Self.some, Self.some]
        fields[missing] = missing % 2 == 0 ? nil : Data()
        #expect(throws: PasskeyError(.malformed)) {
            try AssertionResponse(
                credentialID: fields[0], clientDataJSON: fields[1], authenticatorData: fields[2], signature: fields[3],
                userID: Data([9]))
        }
    }
}
