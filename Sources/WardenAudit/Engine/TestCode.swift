/// Recognises test code, whose findings are reported apart: a path in a test target or folder (`Tests/`,
/// `MyAppTests/`, `UITests/`, `Mocks/`, `TestResources/`, an Xcode template, `*Tests.swift`, `*Spec.m`) or a file that
/// imports a test framework
/// (XCTest, Swift Testing, Quick, Nimble, `@testable import`).
enum TestCode {
    // Not `Spec`/`Test` alone: `DeviceSpecs`, `SpeedTest/`, `ABTest/` are app code. Quick specs import Quick.
    static let folderSuffixes = ["Tests", "UITests", "TestSupport", "TestHelpers", "TestResources", "TestData"]
    static let folders: Set<String> = [
        "Tests", "Test", "tests", "test", "UITests", "Mocks", "Mock", "Fakes", "Stubs", "Specs", "TestUtilities",
        "TestHelpers", "TestSupport", "Fixtures", "fixtures", "Preview Content", "TestResources", "TestData",
        "TestFixtures",
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
            // Xcode file templates (`*.xctemplate`): code a contributor copies, not code the app ships.
            if name.hasSuffix(".xctemplate") { return true }
        }
        return false
    }

    /// Whether the file imports a test framework (`import XCTest`, `@testable import App`, `#import <XCTest/XCTest.h>`).
    static func importsTestFramework(_ scan: FileScan) -> Bool {
        let modules = scan.importedModules
        return modules.contains("@testable") || !modules.isDisjoint(with: frameworks)
    }
}
