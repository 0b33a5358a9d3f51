import Testing

@testable import WardenAudit

@Suite("Name table: the lexer's interned spellings")
struct NameTableTests {
    static func fnv(_ text: String) -> UInt32 {
        Array(text.utf8).withUnsafeBufferPointer { NameTable.hash($0) }
    }

    @Test func theHashIsFNV1aAsItsSpecificationGivesIt() {
        // Test vectors of draft-eastlake-fnv (FNV-1a, 32 bits).
        #expect(Self.fnv("") == 0x811C_9DC5)
        #expect(Self.fnv("a") == 0xE40C_292C)
        #expect(Self.fnv("foo") == 0xA9F3_7ED7)
        #expect(Self.fnv("foobar") == 0xBF9C_F968)
    }

    @Test func equalSpellingsGetOneNumberAndDistinctOnesDiffer() {
        var table = NameTable()
        var numbers: [String: Int32] = [:]
        // Enough distinct spellings to grow the table many times, with colliding prefixes, non-ASCII and empty ones.
        let words = [""] + (0..<20_000).map { "name\($0)" } + ["naïve", "naive", "パスワード", "name1 "]
        for word in words {
            let (number, isNew) = Array(word.utf8).withUnsafeBufferPointer { table.intern($0) }
            #expect(isNew)
            numbers[word] = number
        }
        #expect(table.count == words.count)
        #expect(Set(numbers.values).count == words.count)
        for word in words {
            let (number, isNew) = Array(word.utf8).withUnsafeBufferPointer { table.intern($0) }
            #expect(!isNew && number == numbers[word])
            #expect(table.name(of: word) == number && table[number] == word)
        }
        #expect(table.name(of: "name20000") == nil)
        // Two spellings with one FNV-1a hash stay apart (the table compares bytes).
        #expect(Self.fnv("costarring") == Self.fnv("liquid"))
        var colliding = NameTable()
        let first = Array("costarring".utf8).withUnsafeBufferPointer { colliding.intern($0) }
        let second = Array("liquid".utf8).withUnsafeBufferPointer { colliding.intern($0) }
        #expect(first.isNew && second.isNew && first.name != second.name)
        #expect(colliding.name(of: "liquid") == second.name && colliding.name(of: "costarring") == first.name)
        #expect(table.name(of: "nam") == nil)
    }

    @Test func theLexerNumbersIdentifiersAndKeywordsBySpelling() {
        let result = Lexer.lex(Array("let token = token + `let`\nvar other = \"token\" + token.count".utf8))
        let tokens = result.tokens
        let token = tokens.filter { $0.text == "token" && $0.kind == .identifier }
        #expect(token.count == 3 && Set(token.map(\.name)).count == 1)
        #expect(result.names[token[0].name] == "token")
        // The keyword and the backticked identifier share a spelling but keep their kinds.
        let lets = tokens.filter { $0.text == "let" }
        #expect(lets.map(\.kind) == [.keyword, .identifier] && lets[0].name == lets[1].name)
        // Strings, operators and punctuation have no spelling number.
        #expect(tokens.filter { $0.kind != .identifier && $0.kind != .keyword }.allSatisfy { $0.name == -1 })
        #expect(tokens.filter { $0.kind == .identifier || $0.kind == .keyword }.allSatisfy { $0.name >= 0 })
        #expect(result.names.name(of: "other") != nil && result.names.name(of: "count") != nil)
    }
}
