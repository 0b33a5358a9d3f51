import Foundation
import Testing

/// Every ```swift block of README.md and of the DocC articles (`Sources/*/*.docc/*.md`) is compiled: it must appear
/// verbatim (import lines aside) in Snippets.swift or Apple/AppleSnippets.swift, which this target builds.
@Suite("README examples")
struct ReadmeSnippetTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    static let root = directory.deletingLastPathComponent().deletingLastPathComponent()

    /// README.md and every DocC article of the package.
    static func documents() throws -> [URL] {
        let sources = root.appendingPathComponent("Sources")
        let articles = (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.contains(".docc/") && $0.hasSuffix(".md") }.sorted()
            .map { sources.appendingPathComponent($0) }
        return [root.appendingPathComponent("README.md")] + articles
    }

    @Test func everyReadmeExampleIsCompiled() throws {
        let compiled = try ["Snippets.swift", "Apple/AppleSnippets.swift"].flatMap { name -> [String] in
            Self.normalized(try String(contentsOf: Self.directory.appendingPathComponent(name), encoding: .utf8))
        }.joined(separator: "\n")
        let documents = try Self.documents()
        #expect(documents.count >= 10, "the DocC articles are gone?")
        var total = 0
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            let parts = text.components(separatedBy: "```swift\n").dropFirst()
            let blocks = parts.map { String($0.components(separatedBy: "```")[0]) }
            total += blocks.count
            for (index, block) in blocks.enumerated() {
                let lines = Self.normalized(block).joined(separator: "\n")
                #expect(
                    compiled.contains(lines),
                    "\(document.lastPathComponent) example \(index + 1) is not in the compiled snippets:\n\(block)")
            }
        }
        #expect(total >= 35, "the README and the articles lost their examples?")
    }
}
