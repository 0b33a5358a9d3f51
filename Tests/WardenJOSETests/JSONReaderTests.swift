import Foundation
import Testing

@testable import WardenJOSE

@Suite("Strict JSON reader")
struct JSONReaderTests {
    @Test func readsValues() throws {
        let value = try JSONReader().parse(
            Array(#" {"a":1,"b":-2.5e3,"c":"x\u00e9\ud83d\ude00\n","d":[true,false,null],"e":{}} "#.utf8))
        let object = try #require(value.objectValue)
        #expect(object.names == ["a", "b", "c", "d", "e"])
        #expect(object["a"]?.numberValue?.isInteger == true)
        #expect(object["a"]?.numberValue?.int64 == 1)
        #expect(object["b"]?.numberValue?.isInteger == false)
        #expect(object["b"]?.numberValue?.double == -2500)
        #expect(object["c"]?.stringValue == "xé😀\n")
        #expect(object["d"]?.arrayValue == [.bool(true), .bool(false), .null])
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let code: JOSEError.Code
        var testDescription: String { name }
        init(_ name: String, _ text: String, _ code: JOSEError.Code = .invalidJSON) {
            self.name = name
            self.bytes = Array(text.utf8)
            self.code = code
        }
        init(_ name: String, bytes: [UInt8], _ code: JOSEError.Code = .invalidJSON) {
            self.name = name
            self.bytes = bytes
            self.code = code
        }
    }

    static let bad: [Bad] = [
        Bad("duplicate member", #"{"alg":"HS256","alg":"none"}"#, .duplicateMember),
        Bad("duplicate member in a nested object", #"{"a":{"x":1,"x":2}}"#, .duplicateMember),
        Bad(
            "duplicate among many members",
            "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + #","k7":1}"#, .duplicateMember),
        Bad("empty", ""),
        Bad("trailing comma in object", #"{"a":1,}"#),
        Bad("trailing comma in array", "[1,]"),
        Bad("comment", #"{"a":1}//x"#),
        Bad("single quotes", "{'a':1}"),
        Bad("leading zero", #"{"a":01}"#),
        Bad("NaN", #"{"a":NaN}"#),
        Bad("plus sign", #"{"a":+1}"#),
        Bad("bare fraction", #"{"a":.5}"#),
        Bad("raw control character in a string", "{\"a\":\"x\u{1}\"}"),
        Bad("raw newline in a string", "{\"a\":\"x\ny\"}"),
        Bad("invalid escape", #"{"a":"\x"}"#),
        Bad("unpaired high surrogate escape", #"{"a":"\ud800"}"#),
        Bad("unpaired low surrogate escape", #"{"a":"\udc00x"}"#),
        Bad("invalid UTF-8", bytes: [0x22, 0xC3, 0x28, 0x22]),
        Bad("overlong UTF-8", bytes: [0x22, 0xC0, 0xAF, 0x22]),
        Bad("UTF-8 encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22]),
        Bad("unterminated string", #"{"a":"x"#),
        Bad("two values", "1 2"),
        Bad("deep nesting", String(repeating: "[", count: 33) + String(repeating: "]", count: 33), .tooDeep),
        Bad("very deep nesting", String(repeating: "[", count: 100_000), .tooDeep),
        Bad("too large", bytes: [UInt8](repeating: 0x20, count: (1 << 20) + 1), .tooLarge),
        Bad("huge number", "1" + String(repeating: "0", count: 100)),
        Bad("truncated literal", "tru"),
    ]

    @Test(arguments: bad)
    func rejects(_ bad: Bad) {
        #expect(throws: JOSEError(bad.code)) { try JSONReader().parse(bad.bytes) }
    }

    @Test func megabyteDocumentsAreFast() throws {
        let big =
            "[" + Array(repeating: #"{"a":"xxxxxxxxxxxxxxxx","b":[1,2,3]}"#, count: 20_000).joined(separator: ",") + "]"
        #expect(big.utf8.count < 1 << 20)
        let value = try JSONReader().parse(Array(big.utf8))
        #expect(value.arrayValue?.count == 20_000)
    }
}
