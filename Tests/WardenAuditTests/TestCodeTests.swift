import Foundation
import Testing
import WardenCore

@testable import WardenAudit

@Suite("Audit of test code")
struct TestCodeTests {
    static let files = [
        "App/Main.swift": "print(token)\n",
        "AppTests/LoginTests.swift": "print(token)\n",
        "App/Support/Helper.swift": "import XCTest\n\nprint(password)\n",
        "Legacy/SessionSpec.m": "#import <Quick/Quick.h>\nNSLog(@\"%@\", token);\n",
        "App/Testimonials/View.swift": "print(token)\n",
    ]

    @Test func testCodeIsCountedApartByDefault() throws {
        let report = Auditor().audit(files: Self.files)
        #expect(report.findings.map(\.file) == ["App/Main.swift", "App/Testimonials/View.swift"])
        #expect(report.hiddenInTests == 3)
        #expect(Reporter.text(report, colour: false).contains("; 3 in test code not shown (--include-tests)"))
        let object =
            try JSONSerialization.jsonObject(with: Data(Reporter.json(report, version: "1").utf8)) as! [String: Any]
        #expect((object["summary"] as! [String: Any])["hidden_in_tests"] as? Int == 3)
    }

    @Test func includeTestsListsThemMarked() throws {
        var options = AuditOptions()
        options.includeTests = true
        let report = Auditor(options: options).audit(files: Self.files)
        #expect(report.findings.count == 5 && report.hiddenInTests == 0)
        #expect(
            Set(report.findings.filter(\.inTestCode).map(\.file)) == [
                "AppTests/LoginTests.swift", "App/Support/Helper.swift", "Legacy/SessionSpec.m",
            ])
        let object =
            try JSONSerialization.jsonObject(with: Data(Reporter.json(report, version: "1").utf8)) as! [String: Any]
        let marked = (object["findings"] as! [[String: Any]]).filter { $0["in_test_code"] as? Bool == true }
        #expect(marked.count == 3)
    }

    @Test(arguments: [
        ("Tests/AppTests/A.swift", true), ("MyAppTests/A.swift", true), ("MyAppUITests/Flows/A.swift", true),
        ("App/Mocks/MockAPI.swift", true), ("App/LoginViewModelTests.swift", true), ("App/SessionSpec.m", false),
        ("App/Models/DeviceSpecs.swift", false), ("App/SpeedTest/Runner.swift", false),
        ("App/Testimonials/A.swift", false), ("App/Attest/AppAttest.swift", false), ("App/Contest.swift", false),
        ("App/Tests.swift", false), ("App/Latest/A.swift", false),
    ])
    func testPaths(path: String, isTest: Bool) {
        #expect(TestCode.isTestPath(path) == isTest, "\(path)")
    }
}
