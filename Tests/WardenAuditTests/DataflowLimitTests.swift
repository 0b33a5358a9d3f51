import Foundation
import Testing

@testable import WardenAudit

/// The dataflow on adversarial shapes: deep nesting, long chains of variables, many sinks. Each must keep its answers
/// and stay within a step budget: the token visits the dataflow and the rules' scans make (``FileScan/steps``), at
/// most a few per token of the file — work counted, not timed.
@Suite("Audit dataflow limits")
struct DataflowLimitTests {
    /// The findings' rule IDs and lines, and (steps, tokens), for one Swift file.
    static func scan(_ source: String) -> (rules: [String], lines: [Int], steps: Int, tokens: Int) {
        let file = SourceFile(path: "Shape.swift", bytes: Array(source.utf8), language: .swift)
        let scan = FileScan(file: file)
        RuleSet.run(scan)
        return (scan.findings.map(\.rule.id), scan.findings.map(\.line), scan.steps, file.tokens.count)
    }

    @Test func nestedDecodersAndLongChainsStayBounded() {
        // 40 and 80 nested base64 decoders: each level evaluates what it wraps (depth squared), never 2^depth.
        func decoders(_ depth: Int) -> String {
            "func f(token: String) {\n let parts = token.split(separator: \".\")\n let d = "
                + String(repeating: "Data(base64Encoded: ", count: depth) + "parts[1]"
                + String(repeating: ")", count: depth) + "\n if d.role == \"admin\" { }\n}\n"
        }
        let nested = Self.scan(decoders(40))
        let deeper = Self.scan(decoders(80))
        #expect(nested.rules == ["jwt-unverified-decision"] && deeper.rules == ["jwt-unverified-decision"])
        #expect(deeper.steps <= 5 * nested.steps, "\(nested.steps) → \(deeper.steps) steps for twice the depth")
        // A chain of 5,000 variables from a secret to a print: followed to the depth limit, never recursing further.
        var chain = "func g(password: String) {\n let v0 = password\n"
        for index in 1..<5_000 {
            chain += " let v\(index) = v\(index - 1)\n"
            if index == 10 { chain += " print(v10)\n" }  // line 13
        }
        chain += " print(v4999)\n}\n"
        let chained = Self.scan(chain)
        #expect(chained.lines == [13])  // v10 is within the depth limit; v4999 is beyond it
        // 20,000 logs of a self-referential variable.
        let loop = Self.scan(
            "func h(token: String) {\n var t = token\n" + String(repeating: " t = t + t\n print(t)\n", count: 10_000)
                + "}\n")
        #expect(loop.rules.count == 10_000)
        // self.self.self... in a comparison: walked, not recursed, down to the MAC it compares.
        let selves = Self.scan("func k() -> Bool { a == " + String(repeating: "self.", count: 50_000) + "signature }\n")
        #expect(selves.rules == ["non-constant-time-compare"])
        for (name, shape) in [("chain", chained), ("loop", loop), ("selves", selves)] {
            #expect(shape.steps > 0, "\(name): nothing was counted")
            // Measured: chain 2.4, loop 5.6, selves 1.0 visits per token (chain and loop include one visit per
            // token to index the identifiers, for the parameters passed on); a rescan per use would be thousands.
            #expect(shape.steps <= 6 * shape.tokens, "\(name): \(shape.steps) steps for \(shape.tokens) tokens")
        }
    }
}
