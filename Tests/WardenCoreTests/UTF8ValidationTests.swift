import Foundation
import Testing
import WardenCore

/// The contiguous UTF-8 check (the auditor's hot path) against RFC 3629's examples and rules, and against the
/// generic form on random bytes: both must say the same of every input.
@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    /// RFC 3629 §7's examples, and each rule's boundary.
    static let cases: [(bytes: [UInt8], valid: Bool, why: String)] = [
        ([0x41, 0xE2, 0x89, 0xA2, 0xCE, 0x91, 0x2E], true, "RFC 3629 §7: A<NOT IDENTICAL TO><ALPHA>."),
        ([0xED, 0x95, 0x9C, 0xEA, 0xB5, 0xAD, 0xEC, 0x96, 0xB4], true, "RFC 3629 §7: Korean"),
        ([0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC, 0xE8, 0xAA, 0x9E], true, "RFC 3629 §7: Japanese"),
        ([0xEF, 0xBB, 0xBF, 0xF0, 0xA3, 0x8E, 0xB4], true, "RFC 3629 §7: BOM and U+233B4"),
        ([0xC0, 0x80], false, "overlong NUL"),
        ([0xE0, 0x80, 0xAF], false, "overlong '/'"),
        ([0xF0, 0x8F, 0xBF, 0xBF], false, "overlong U+FFFF"),
        ([0xED, 0xA0, 0x80], false, "surrogate U+D800"),
        ([0xF4, 0x90, 0x80, 0x80], false, "above U+10FFFF"),
        ([0xF4, 0x8F, 0xBF, 0xBF], true, "U+10FFFF"),
        ([0xE2, 0x89], false, "truncated at the end"),
        (Array("abcdefgh".utf8) + [0xE2, 0x89], false, "truncated after an ASCII run"),
        (Array("abcdefg".utf8) + [0x80] + Array("abcdefgh".utf8), false, "a lone continuation inside eight bytes"),
        ([0xFF], false, "0xFF never appears"),
        (Array(String(repeating: "plain ascii ", count: 100).utf8), true, "ASCII runs"),
    ]

    @Test(arguments: cases.indices)
    func rfc3629Cases(_ index: Int) {
        let (bytes, valid, why) = Self.cases[index]
        #expect(UTF8Validation.isValid(bytes) == valid, "\(why)")
        #expect(UTF8Validation.isValid(bytes[...]) == valid, "\(why) (generic form)")
    }

    /// Random bytes biased to UTF-8's lead and continuation bytes: the two forms agree on every one, and on the
    /// valid ones with Foundation's decoder.
    @Test func theContiguousFormAgreesWithTheGenericOne() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xA0, 0x90]
        var valid = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0..<24, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator)
                    ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            let contiguous = UTF8Validation.isValid(bytes)
            #expect(contiguous == UTF8Validation.isValid(bytes[...]), "\(bytes)")
            if contiguous {
                valid += 1
                #expect(String(data: Data(bytes), encoding: .utf8) != nil, "\(bytes)")
            }
        }
        #expect(valid > 100, "the corpus exercises valid input too")
    }
}
