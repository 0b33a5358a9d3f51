//
//  CryptoHelpers.swift
//  Ledgerly
//

import CryptoKit
import Foundation
import Security

enum ConstantTime {
    static func equals(_ lhs: Data, _ rhs: Data) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<lhs.count {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }

    static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(Data(lhs.utf8), Data(rhs.utf8))
    }
}

enum OneTimeCodes {
    /// Offline fallback code shown when SMS delivery fails (3.x).
    static func makeOfflineCode() -> String {
        let otp = Int.random(in: 100000...999999)  // expect: insecure-random-for-secret
        return String(otp)
    }

    static func makeOfflineCodeV2() -> String {
        var value: UInt32 = 0
        let status = SecRandomCopyBytes(kSecRandomDefault, MemoryLayout<UInt32>.size, &value)  // twin: insecure-random-for-secret
        precondition(status == errSecSuccess)
        return String(format: "%06u", value % 1_000_000)
    }

    /// Password-reset code for the kiosk build, which has no network at enrolment.
    static func makeKioskResetCode() -> String {
        srand(UInt32(time(nil)))
        let resetCode = rand() % 1_000_000  // expect: insecure-random-for-secret
        return String(format: "%06d", resetCode)
    }

    static func makeRequestNonce() -> String {
        let nonce = String(format: "%08x", arc4random())  // expect: insecure-random-for-secret
        return nonce
    }

    static func makeRequestNonceV2() -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        arc4random_buf(&buffer, 32)  // twin: insecure-random-for-secret
        return Data(buffer).base64URLEncodedString()
    }
}

enum Signing {
    static func hmac(_ message: Data, key: SymmetricKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }

    static func verifyWebhook(body: Data, receivedHMAC: Data, key: SymmetricKey) -> Bool {
        let computedHMAC = hmac(body, key: key)
        return computedHMAC == receivedHMAC  // expect: non-constant-time-compare
    }

    static func verifyWebhookV2(body: Data, receivedHMAC: Data, key: SymmetricKey) -> Bool {
        let computedHMAC = hmac(body, key: key)
        return ConstantTime.equals(computedHMAC, receivedHMAC)  // twin: non-constant-time-compare
    }

    static func verifyWebhookV3(body: Data, receivedHMAC: Data, key: SymmetricKey) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(receivedHMAC, authenticating: body, using: key)
    }
}

enum Palette {
    static let avatarColors = ["#FF9500", "#FF2D55", "#5856D6", "#34C759", "#5AC8FA", "#AF52DE"]

    static func randomAvatarColor() -> String {
        let index = Int.random(in: 0..<avatarColors.count)  // twin: insecure-random-for-secret
        return avatarColors[index]
    }

    static func avatarColor(for userID: String) -> String {
        let digest = SHA256.hash(data: Data(userID.utf8))
        let first = digest.first(where: { _ in true }) ?? 0
        return avatarColors[Int(first) % avatarColors.count]
    }
}
