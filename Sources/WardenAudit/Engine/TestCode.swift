/// Recognises test code, whose findings are reported apart: a path in a test target or folder (`Tests/`,
/// `MyAppTests/`, `UITests/`, `Mocks/`, `*Tests.swift`, `*Spec.m`) or a file that imports a test framework
/// (XCTest, Swift Testing, Quick, Nimble, `@testable import`).
enum TestCode {
    // Not `Spec`/`Test` alone: `DeviceSpecs`, `SpeedTest/`, `ABTest/` are app code. Quick specs import Quick.
    static let folderSuffixes = ["Tests", "UITests", "TestSupport", "TestHelpers"]
    static let folders: Set<String> = [
        "Tests", "Test", "tests", "test", "UITests", "Mocks", "Mock", "Fakes", "Stubs", "Specs", "TestUtilities",
        "TestHelpers", "TestSupport", "Fixtures", "fixtures", "Preview Content",
    ]
    static let frameworks: Set<String> = ["XCTest", "Testing", "Quick", "Nimble", "OHHTTPStubs", "SnapshotTesting"]

    /// Whether `path` (relative to the audited root) lies in test code.
    static func isTestPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        for (index, part) in parts.enumerated() {
            let name = String(part)
            if index == parts.count - 1 {
                let stem = name.split(separator: ".").first.map(String.init) ?? name
                return ["Tests", "Mock", "Mocks", "Stub", "Stubs", "Fake", "Fakes"].contains {
                    stem.hasSuffix($0) && stem.count > $0.count
                }
            }
            if folders.contains(name) || folderSuffixes.contains(where: { name.hasSuffix($0) && name.count > $0.count })
            {
                return true
            }
        }
        return false
    }

    /// Whether the file imports a test framework (`import XCTest`, `@testable import App`, `#import <XCTest/XCTest.h>`).
    static func importsTestFramework(_ file: SourceFile) -> Bool {
        let tokens = file.tokens
        for index in tokens.indices {
            let token = tokens[index]
            if token.kind == .attribute, token.text == "testable" { return true }
            if token.kind == .keyword, token.text == "import" || token.text == "@import", index + 1 < tokens.count,
                frameworks.contains(tokens[index + 1].text)
            {
                return true
            }
            if token.kind == .directive, token.text.hasPrefix("#import"),
                frameworks.contains(where: { token.text.contains("<\($0)/") })
            {
                return true
            }
            if token.kind != .keyword, token.kind != .directive, token.kind != .attribute, token.kind != .identifier,
                !token.isSymbol("."), !token.isSymbol(";"), index > 200
            {
                break
            }
        }
        return false
    }
}
