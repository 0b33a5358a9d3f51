import Foundation
import Testing

@testable import WardenAudit

@Suite("Property lists the auditor reads")
struct PropertyListFileTests {
    static let preprocessed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>CFBundleURLSchemes</key>
            <array>
                <string>app</string>
        #ifdef INTUNE
                <string>app-intunemam</string>
        #else
                <string>app-plain</string>
        #endif
            </array>
            <key>NSFaceIDUsageDescription</key>
            <string>Unlock your database</string>
        </dict>
        </plist>
        """

    /// Xcode preprocesses such an Info.plist (INFOPLIST_PREPROCESS); Foundation's parser refuses the `#` lines.
    @Test func aPreprocessedInfoPlistIsReadWithBothBranchesAndItsLines() throws {
        let plist = try #require(PropertyListFile(path: "Info.plist", bytes: Array(Self.preprocessed.utf8)))
        #expect(plist.root["NSFaceIDUsageDescription"] as? String == "Unlock your database")
        #expect(plist.root["CFBundleURLSchemes"] as? [String] == ["app", "app-intunemam", "app-plain"])
        #expect(plist.line(ofKey: "NSFaceIDUsageDescription") == 13)
        // What the parser read kept every line, so the lines of what it found are the file's.
        let stripped = try #require(PropertyListFile.withoutPreprocessorLines(Array(Self.preprocessed.utf8)))
        #expect(stripped.count(where: { $0 == 0x0A }) == Self.preprocessed.utf8.count(where: { $0 == 0x0A }))
    }

    @Test func onlyPreprocessorLinesAreRemoved() throws {
        // A `#` inside a string value and a line that only starts with `#` text stay; a broken list stays broken.
        let text = "<plist><dict><key>a</key><string>#ifdef is text here</string></dict></plist>"
        #expect(PropertyListFile.withoutPreprocessorLines(Array(text.utf8)) == nil)
        let broken = "<plist><dict><key>a</key>\n#ifdef X\n<string>b</string>\n</plist>"
        #expect(PropertyListFile(path: "Info.plist", bytes: Array(broken.utf8)) == nil)
        let kept = try #require(PropertyListFile.withoutPreprocessorLines(Array("a\n  #endif\n#hashtag\nb".utf8)))
        #expect(String(decoding: kept, as: UTF8.self) == "a\n\n#hashtag\nb")
    }
}
