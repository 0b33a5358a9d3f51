import Foundation
import Testing
import WardenCrypto
import WardenTestSupport

@Suite("Digests and HMAC against published values")
struct DigestTests {
    struct NIST: CustomTestStringConvertible, Sendable {
        let hash: HashFunction
        let message: String
        let expected: String
        var testDescription: String { "\(hash.rawValue)(\"\(message.prefix(12))\")" }
    }

    // FIPS 180-4 examples (NIST CSRC "Examples with Intermediate Values": "abc" and the 448/896-bit messages).
    static let nist: [NIST] = [
        .init(hash: .sha1, message: "abc", expected: "a9993e364706816aba3e25717850c26c9cd0d89d"),
        .init(
            hash: .sha1, message: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            expected: "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        .init(
            hash: .sha256, message: "abc", expected: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        .init(hash: .sha256, message: "", expected: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        .init(
            hash: .sha256, message: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            expected: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        .init(
            hash: .sha384, message: "abc",
            expected:
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"),
        .init(
            hash: .sha512, message: "abc",
            expected:
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
        .init(
            hash: .sha512,
            message:
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            expected:
                "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
        ),
    ]

    @Test(arguments: nist)
    func nistDigest(_ vector: NIST) {
        #expect(Hex.encode(vector.hash.hash(Array(vector.message.utf8))) == vector.expected)
    }

    @Test func millionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(
            Hex.encode(HashFunction.sha256.hash(message))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    struct RFC4231: CustomTestStringConvertible, Sendable {
        let number: Int
        let key: String
        let data: String
        let sha256: String
        let sha384: String
        let sha512: String
        var truncateTo: Int? = nil
        var testDescription: String { "RFC 4231 test case \(number)" }
    }

    // RFC 4231 §4.2–4.8 (test case 5 is truncated to 128 bits).
    static let rfc4231: [RFC4231] = [
        .init(
            number: 1, key: String(repeating: "0b", count: 20), data: "4869205468657265",
            sha256: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            sha384: "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
            sha512:
                "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"
        ),
        .init(
            number: 2, key: "4a656665", data: "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
            sha256: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            sha384: "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
            sha512:
                "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        ),
        .init(
            number: 3, key: String(repeating: "aa", count: 20), data: String(repeating: "dd", count: 50),
            sha256: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
            sha384: "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
            sha512:
                "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"
        ),
        .init(
            number: 4, key: "0102030405060708090a0b0c0d0e0f10111213141516171819",
            data: String(repeating: "cd", count: 50),
            sha256: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
            sha384: "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
            sha512:
                "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"
        ),
        .init(
            number: 5, key: String(repeating: "0c", count: 20), data: "546573742057697468205472756e636174696f6e",
            sha256: "a3b6167473100ee06e0c796c2955552b", sha384: "3abf34c3503b2a23a46efc619baef897",
            sha512: "415fad6271580a531d4179bc891d87a6", truncateTo: 16),
        .init(
            number: 6, key: String(repeating: "aa", count: 131),
            data:
                "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
            sha256: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            sha384: "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
            sha512:
                "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"
        ),
        .init(
            number: 7, key: String(repeating: "aa", count: 131),
            data:
                "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
            sha256: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
            sha384: "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
            sha512:
                "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"
        ),
    ]

    @Test(arguments: rfc4231)
    func hmacRFC4231(_ vector: RFC4231) {
        let key = Hex.decode(vector.key)
        let data = Hex.decode(vector.data)
        for (hash, expected) in [
            (HashFunction.sha256, vector.sha256), (.sha384, vector.sha384), (.sha512, vector.sha512),
        ] {
            let tag = HMAC.authenticationCode(for: data, key: key, hash: hash)
            let shown = vector.truncateTo.map { Array(tag.prefix($0)) } ?? tag
            #expect(Hex.encode(shown) == expected, "\(hash.rawValue)")
            let prepared = HMACKey(key, hash: hash)
            #expect(prepared.authenticationCode(for: data) == tag, "prepared key, first use")
            #expect(prepared.authenticationCode(for: data) == tag, "prepared key, reused context")
            #expect("\(prepared)".contains("<redacted>"))
            if vector.truncateTo == nil {
                #expect(HMAC.isValid(tag, for: data, key: key, hash: hash))
            } else {
                #expect(!HMAC.isValid(shown, for: data, key: key, hash: hash), "truncated tags are rejected")
            }
        }
    }

    @Test func preparedKeysAreSafeToShareAcrossTasks() async throws {
        let key = HMACKey(Array("key".utf8), hash: .sha256)
        let signer = try ECPrivateKey()
        let message = Array("message".utf8)
        let signature = try signer.signature(for: message)
        let expected = HMAC.authenticationCode(for: message, key: Array("key".utf8), hash: .sha256)
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let input = message + [UInt8(index & 0xFF)]
                    let tagOK =
                        key.authenticationCode(for: message) == expected
                        && key.authenticationCode(for: input)
                            == HMAC.authenticationCode(for: input, key: Array("key".utf8), hash: .sha256)
                    let verifyOK =
                        (try? signer.publicKey.isValidSignature(signature, for: message, algorithm: .ecdsa(.sha256)))
                        == true
                        && (try? signer.publicKey.isValidSignature(signature, for: input, algorithm: .ecdsa(.sha256)))
                            == false
                    return tagOK && verifyOK
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 200 && results.allSatisfy { $0 })
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(ConstantTime.equals([] as [UInt8], [] as [UInt8]))
        #expect(ConstantTime.equals("state-123", "state-123"))
        #expect(!ConstantTime.equals("state-123", "state-124"))
    }

    @Test func secureRandom() throws {
        let random = SecureRandom()
        let a = try random.bytes(count: 32)
        let b = try random.bytes(count: 32)
        #expect(a.count == 32 && a != b)
        #expect(a.contains { $0 != 0 })
        #expect(try random.bytes(count: 0).isEmpty)
        #expect(throws: CryptoError(.malformedInput)) { try random.bytes(count: -1) }
    }
}
