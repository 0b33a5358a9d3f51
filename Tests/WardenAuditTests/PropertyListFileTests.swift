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

@Suite("Xcode project targets the auditor reads")
struct XcodeTargetsTests {
    static let project = #"""
        // !$*UTF8*$!
        {
        	archiveVersion = 1;
        	objects = {
        		B1 /* Lock.m in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.m */; };
        		B2 /* Lock.m in Sources */ = {isa = PBXBuildFile; fileRef = F1 /* Lock.m */; };
        		F1 /* Lock.m */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.c.objc; name = "Lock.m"; path = "Common/Lock.m"; sourceTree = "<group>"; };
        		P1 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B1 /* Lock.m in Sources */, ); };
        		P2 /* Sources */ = {isa = PBXSourcesBuildPhase; files = (B2 /* Lock.m in Sources */, ); };
        		C1 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = "App/Info.plist"; }; name = Release; };
        		C2 /* Release */ = {isa = XCBuildConfiguration; buildSettings = { INFOPLIST_FILE = "$(SRCROOT)/Share/Info.plist"; }; name = Release; };
        		L1 = {isa = XCConfigurationList; buildConfigurations = (C1 /* Release */, ); };
        		L2 = {isa = XCConfigurationList; buildConfigurations = (C2 /* Release */, ); };
        		T1 /* App */ = {isa = PBXNativeTarget; buildConfigurationList = L1; buildPhases = (P1 /* Sources */, ); name = App; productType = "com.apple.product-type.application"; };
        		T2 /* Share */ = {isa = PBXNativeTarget; buildConfigurationList = L2; buildPhases = (P2 /* Sources */, ); name = Share; productType = "com.apple.product-type.app-extension"; };
        	};
        	rootObject = R1;
        }
        """#

    /// Each native target's Info.plist (relative to the project's folder, `$(SRCROOT)/` dropped), product type and
    /// the file names its Sources phase compiles, through the build file and file reference objects.
    @Test func targetsNameTheirInfoPlistsAndSources() {
        let targets = XcodeTargets.targets(Array(Self.project.utf8))
        #expect(targets.map(\.name) == ["App", "Share"])
        #expect(targets.map(\.infoPlist) == ["App/Info.plist", "Share/Info.plist"])
        #expect(targets.allSatisfy { $0.sources == ["Lock.m"] && $0.isAppOrExtension })
        #expect(targets.map(\.productType).last == "com.apple.product-type.app-extension")
    }

    /// What is not a project file (truncated, unbalanced, deeper than the bound, a megabyte of brackets) gives no
    /// targets, and no crash or hang.
    @Test(arguments: [
        String(project.prefix(400)), "{ objects = { A = { isa = PBXNativeTarget; }; ", "((((", "}}}}", "\"unterminated",
        String(repeating: "{ a = ", count: 100_000), String(repeating: "(", count: 1 << 20), "",
    ])
    func malformedProjectsGiveNoTargets(_ text: String) {
        #expect(XcodeTargets.targets(Array(text.utf8)).isEmpty)
    }

    /// A target whose build settings generate the Face ID usage text needs no key in a file.
    @Test func generatedUsageDescriptionsAreRead() {
        let generated = Self.project.replacingOccurrences(
            of: "INFOPLIST_FILE = \"$(SRCROOT)/Share/Info.plist\";",
            with:
                "INFOPLIST_FILE = \"$(SRCROOT)/Share/Info.plist\"; INFOPLIST_KEY_NSFaceIDUsageDescription = \"Unlock\";"
        )
        let targets = XcodeTargets.targets(Array(generated.utf8))
        #expect(targets.map(\.generatesFaceIDUsage) == [false, true])
    }
}
