import Foundation
import Testing
import WardenCore
import WardenJOSE

@_spi(Fuzzing) @testable import WardenOAuth

@Suite("Sign in with Apple nonces")
struct SignInWithAppleNonceTests {
    /// Bytes 0, 1, 2, ... so the raw nonce is a fixed value whose hash was computed outside Warden.
    struct CountingRandom: RandomSource {
        func bytes(count: Int) throws -> [UInt8] { (0..<count).map { UInt8($0 & 0xFF) } }
    }

    @Test func appleNonceMatchesKnownAnswers() throws {
        // FIPS 180-2 §B.1: SHA-256("abc"), lowercase hex as Apple's nonce convention wants it.
        #expect(
            AppleIdentityTokenVerifier.hashedNonce("abc")
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Raw nonce = base64url(0x00...0x1f); hash from Python's hashlib.sha256 of that text.
        let nonce = try AppleSignInNonce(random: CountingRandom())
        #expect(nonce.raw.unredacted() == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        #expect(nonce.hashed == "ea866a757e4c38babfa8127cbe9a409d3e1f93a00ff1488ff735fcf917afffd0")
        #expect(!"\(nonce)".contains(nonce.raw.unredacted()))
        #expect(!String(reflecting: nonce).contains(nonce.raw.unredacted()))
    }
}
