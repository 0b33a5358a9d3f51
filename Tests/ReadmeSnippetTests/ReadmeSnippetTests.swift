import Foundation
import Testing

/// Every ```swift block of README.md is compiled: it must appear verbatim (import lines aside) in Snippets.swift or
/// Apple/AppleSnippets.swift, which this target builds.
@Suite("README examples")
struct ReadmeSnippetTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    @Test func everyReadmeExampleIsCompiled() throws {
        let readme = try String(
            contentsOf: Self.directory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("README.md"), encoding: .utf8)
        let parts = readme.components(separatedBy: "```swift\n").dropFirst()
        let blocks = parts.map { String($0.components(separatedBy: "```")[0]) }
        #expect(blocks.count >= 10, "README.md lost its examples?")
        let compiled = try ["Snippets.swift", "Apple/AppleSnippets.swift"].flatMap { name -> [String] in
            Self.normalized(try String(contentsOf: Self.directory.appendingPathComponent(name), encoding: .utf8))
        }.joined(separator: "\n")
        for (index, block) in blocks.enumerated() {
            let lines = Self.normalized(block).joined(separator: "\n")
            #expect(compiled.contains(lines), "README example \(index + 1) is not in the compiled snippets:\n\(block)")
        }
    }
}
