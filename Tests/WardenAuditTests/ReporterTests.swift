import Foundation
import Testing
import WardenCore

@testable import WardenAudit

@Suite("Audit output, suppressions and baselines")
struct ReporterTests {
    static let files = [
        "App/A.swift": "print(\"t \\(token)\")\nlet u = \"http://api.example.com\"\n",
        "App/B c.swift": "let web = UIWebView()\n",
    ]

    @Test func textFormat() {
        let report = Auditor().audit(files: Self.files)
        let plain = Reporter.text(report, colour: false)
        #expect(
            plain.hasPrefix(
                """
                App/A.swift:1:1: error: 'token' is written to the logs by print [secret-in-log]
                App/A.swift:2:9: warning: Cleartext http:// URL to api.example.com [cleartext-http]

                App/B c.swift:1:11: error: UIWebView is deprecated
                """))
        #expect(plain.contains("3 finding(s): 2 error(s), 1 warning(s), 0 note(s) in 2 file(s)"))
        #expect(!plain.contains("\u{1B}["))
        let coloured = Reporter.text(report, colour: true)
        #expect(coloured.contains("\u{1B}[1;31merror\u{1B}[0m") && coloured.contains("fix: "))
    }

    @Test func credentialsInACleartextURLStayOutOfTheMessage() {
        let report = Auditor().audit(files: ["A.swift": "let u = \"http://admin:Hunter2Pass@api.example.com/v1\"\n"])
        #expect(report.findings.map(\.message) == ["Cleartext http:// URL to api.example.com"])
        #expect(!Reporter.text(report, colour: false).contains("Hunter2"))
    }

    @Test func jsonHasTheDesignShape() throws {
        let report = Auditor().audit(files: Self.files)
        let object =
            try JSONSerialization.jsonObject(with: Data(Reporter.json(report, version: "9.9").utf8)) as! [String: Any]
        #expect((object["tool"] as? [String: String]) == ["name": "warden", "version": "9.9"])
        let findings = object["findings"] as! [[String: Any]]
        #expect(findings.count == 3)
        let first = findings[0]
        #expect(Set(first.keys).isSuperset(of: ["rule", "severity", "file", "line", "column", "message", "masvs"]))
        #expect(first["file"] as? String == "App/A.swift" && first["line"] as? Int == 1)
        #expect(first["masvs"] as? [String] == ["MASVS-STORAGE-2"])
        let rule = try #require(Catalogue.rule(first["rule"] as! String))
        #expect(first["cwe"] as? [String] == rule.cwe && !rule.cwe.isEmpty)
        #expect(first["maswe"] as? [String] == rule.maswe)
        let summary = object["summary"] as! [String: Any]
        #expect(summary["errors"] as? Int == 2 && summary["warnings"] as? Int == 1 && summary["files"] as? Int == 2)
    }

    /// Every rule about a weakness names its CWE; the ones without are the misconfigurations that are none.
    @Test func everyWeaknessRuleHasACWE() {
        let without = Catalogue.all.filter { $0.cwe.isEmpty }.map(\.id).sorted()
        #expect(
            without == [
                "faceid-usage-description-missing", "invalid-suppression", "passkeys-without-webcredentials",
                "password-field-without-content-type",
            ])
        #expect(
            Catalogue.cweByRule.keys.allSatisfy { Catalogue.rule($0) != nil }, "a CWE for a rule that does not exist")
    }

    @Test func sarifHasWhatCodeScanningNeeds() throws {
        let report = Auditor().audit(files: Self.files)
        let text = Reporter.sarif(report, version: "9.9", rootURI: "file:///src/app/")
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        #expect(object["version"] as? String == "2.1.0")
        let run = (object["runs"] as! [[String: Any]])[0]
        let driver = (run["tool"] as! [String: Any])["driver"] as! [String: Any]
        let rules = driver["rules"] as! [[String: Any]]
        #expect(rules.count == Catalogue.all.count)
        for rule in rules {
            #expect((rule["shortDescription"] as? [String: String])?["text"]?.isEmpty == false)
            #expect((rule["fullDescription"] as? [String: String])?["text"]?.isEmpty == false)
            #expect((rule["help"] as? [String: String])?["markdown"]?.contains("**Fix:**") == true)
            let properties = rule["properties"] as! [String: Any]
            #expect(["8.0", "5.5", "2.0"].contains(properties["security-severity"] as? String))
            #expect((properties["tags"] as? [String])?.first == "security")
        }
        // CWE: GitHub's `external/cwe/cwe-N` tags, rule relationships into the CWE taxonomy, and the taxonomy itself.
        let taxonomy = try #require((run["taxonomies"] as? [[String: Any]])?.first)
        #expect(taxonomy["name"] as? String == "CWE")
        let taxa = Set((taxonomy["taxa"] as? [[String: String]] ?? []).compactMap { $0["id"] })
        for (descriptor, info) in zip(rules, Catalogue.all) {
            let tags = (descriptor["properties"] as! [String: Any])["tags"] as! [String]
            #expect(tags.filter { $0.hasPrefix("external/cwe/cwe-") }.count == info.cwe.count, "\(info.id)")
            let relationships = descriptor["relationships"] as? [[String: Any]] ?? []
            let targets = relationships.compactMap { ($0["target"] as? [String: Any])?["id"] as? String }
            #expect(targets.map { "CWE-" + $0 } == info.cwe, "\(info.id)")
            #expect(targets.allSatisfy(taxa.contains))
            #expect(tags.contains(where: { $0.hasPrefix("MASVS-") }) == !info.masvs.isEmpty)
        }
        let results = run["results"] as! [[String: Any]]
        #expect(results.count == 3)
        let location = ((results[2]["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any])
        let artifact = location["artifactLocation"] as! [String: String]
        #expect(artifact == ["uri": "App/B%20c.swift", "uriBaseId": "%SRCROOT%"])
        #expect((location["region"] as? [String: Int]) == ["startLine": 1, "startColumn": 11])
        #expect(
            results.allSatisfy {
                ($0["partialFingerprints"] as? [String: String])?["wardenFingerprint/v1"]?.count == 16
            })
        let ruleIndex = results[0]["ruleIndex"] as! Int
        #expect(rules[ruleIndex]["id"] as? String == results[0]["ruleId"] as? String)
        #expect(
            ((run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: String])?["uri"]
                == "file:///src/app/")
    }

    /// An accessibility class chosen on one line and stored by a `SecItemAdd` or `SecItemUpdate` later in the function
    /// names that call as a related line (WireGuard's query, ten lines apart): for a subscript, a literal bound to a
    /// variable, an inline literal, a bridged Objective-C `setObject:forKey:` and literal; a query no call is passed
    /// to, a query that is only SecItemUpdate's search, a member of the same name, another query passed to the call,
    /// or a file whose braces do not balance, names none. Text, JSON and SARIF carry the lines.
    @Test func aKeychainClassNamesTheWriteItReaches() throws {
        let swiftCode = """
            func save(_ data: Data) {
                var items: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecValueData: data]
                items[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock
                let other: [CFString: Any] = [kSecClass: kSecClassGenericPassword]

                SecItemAdd(other as CFDictionary, nil)
                SecItemAdd(items as CFDictionary, nil)
            }
            func update(_ query: [CFString: Any]) {
                let attributes: [CFString: Any] = [
                    kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked
                ]

                SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
            }
            func inline(_ data: Data) {
                SecItemAdd(
                    [kSecClass: kSecClassGenericPassword,
                     kSecAttrAccessible: kSecAttrAccessibleAlways, kSecValueData: data] as CFDictionary, nil)
            }
            func search(_ query: [CFString: Any]) {
                var found: [CFString: Any] = [kSecClass: kSecClassGenericPassword]
                found[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock
                SecItemUpdate(found as CFDictionary, [kSecAttrLabel: "x"] as CFDictionary)
                SecItemAdd(request.found as CFDictionary, nil)
            }
            func unbalanced() {
                run( { )
                }
                var q: [CFString: Any] = [:]
                q[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock
            }
            func unused() {
                var search: [CFString: Any] = [:]
                search[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock
                SecItemCopyMatching(search as CFDictionary, nil)
            }
            """
        let objcCode = """
            - (void)save:(NSData *)data {
                NSMutableDictionary *query = [NSMutableDictionary dictionary];
                [query setObject:(__bridge id)kSecAttrAccessibleAfterFirstUnlock forKey:(__bridge id)kSecAttrAccessible];

                SecItemAdd((__bridge CFDictionaryRef)query, NULL);
            }
            - (void)saveLiteral:(NSData *)data {
                NSDictionary *item = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                                       (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlocked};

                SecItemAdd((__bridge CFDictionaryRef)item, NULL);
            }
            """
        let report = Auditor().audit(files: ["App/Store.swift": swiftCode, "App/Store.m": objcCode])
        let related = report.findings.filter {
            $0.rule.id.hasPrefix("keychain-") && $0.rule.id != "keychain-accessibility-missing"
        }
        .map { "\($0.file):\($0.line) \($0.related)" }
        #expect(
            related == [
                "App/Store.m:3 [5]", "App/Store.m:9 [11]", "App/Store.swift:3 [7]", "App/Store.swift:11 [14]",
                "App/Store.swift:19 [17]", "App/Store.swift:23 []", "App/Store.swift:31 []", "App/Store.swift:35 []",
            ])
        let text = Reporter.text(report, colour: false)
        #expect(
            text.contains("App/Store.swift:3:33: warning: ")
                && text.contains("App/Store.swift:7:1: note: where it takes effect"))
        let json =
            try JSONSerialization.jsonObject(with: Data(Reporter.json(report, version: "1").utf8)) as! [String: Any]
        let items = (json["findings"] as! [[String: Any]]).filter { $0["file"] as? String == "App/Store.swift" }
        #expect(items.first { $0["line"] as? Int == 3 }?["related"] as? [Int] == [7])
        #expect(items.first { $0["line"] as? Int == 35 }?.keys.contains("related") == false)
        let sarif =
            try JSONSerialization.jsonObject(with: Data(Reporter.sarif(report, version: "1").utf8)) as! [String: Any]
        let results = ((sarif["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]])
        let relatedLocations = results.compactMap { $0["relatedLocations"] as? [[String: Any]] }
        #expect(relatedLocations.count == 5)
        let region = (relatedLocations[0][0]["physicalLocation"] as! [String: Any])["region"] as! [String: Int]
        #expect(region["startLine"] == 5 && relatedLocations[0][0]["id"] as? Int == 1)
    }

    @Test func fingerprintsSurviveUnrelatedEdits() {
        let before = Auditor().audit(files: ["A.swift": "print(token)\n"]).findings
        let after = Auditor().audit(files: ["A.swift": "import Foundation\n\n// a new comment\nprint(token)\n"])
            .findings
        #expect(before.map(\.fingerprint) == after.map(\.fingerprint))
        #expect(before[0].line == 1 && after[0].line == 4)
        let twice = Auditor().audit(files: ["A.swift": "print(token)\nprint(token)\n"]).findings
        #expect(Set(twice.map(\.fingerprint)).count == 2)
    }

    @Test func fingerprintsNeverDependOnStringContents() {
        func fingerprints(_ source: String) -> [String] {
            Auditor().audit(files: ["A.swift": source]).findings.map(\.fingerprint)
        }
        // A hard-coded key: the fingerprint must not be a hash of the key (a short one could be brute-forced from
        // a baseline or a SARIF upload).
        let first = fingerprints("let awsKey = \"AKIAIOSFODNN7EXAMPLE\"\n")
        let other = fingerprints("let awsKey = \"AKIAI44QH8DHBEXAMPLE\"  // rotated\n")
        #expect(first.count == 1 && first == other)
        // The code around the literal still tells findings apart.
        #expect(fingerprints("let awsKey2 = \"AKIAIOSFODNN7EXAMPLE\"\n") != first)
    }

    @Test func baselineAcceptsExistingFindingsOnly() throws {
        let first = Auditor().audit(files: ["A.swift": "print(token)\n"])
        var options = AuditOptions()
        options.baseline = try Reporter.fingerprints(baseline: Data(Reporter.baseline(first).utf8))
        let later = Auditor(options: options).audit(files: ["A.swift": "print(token)\nNSLog(\"%@\", password)\n"])
        #expect(later.findings.map(\.line) == [2])
        #expect(later.baselined == 1)
        #expect(throws: (any Error).self) { try Reporter.fingerprints(baseline: Data("[]".utf8)) }
    }

    @Test func suppressionsNeedARuleAndAReason() {
        let cases: [(String, [String])] = [
            ("print(token) // warden:ignore secret-in-log demo value\n", []),
            ("// warden:ignore secret-in-log demo value\nprint(token)\n", []),
            ("/* warden:ignore secret-in-log,uiwebview demo */\nprint(token)\n", []),
            ("// warden:ignore secret-in-log\nprint(token)\n", ["invalid-suppression", "secret-in-log"]),
            ("// warden:ignore uiwebview wrong rule\nprint(token)\n", ["secret-in-log"]),
            ("// warden:ignore secret-in-log too far away\n\nprint(token)\n", ["secret-in-log"]),
            ("let s = \"// warden:ignore secret-in-log in a string\"; print(token)\n", ["secret-in-log"]),
        ]
        for (source, expected) in cases {
            let found = Auditor().audit(files: ["A.swift": source]).findings.map(\.rule.id).sorted()
            #expect(found == expected, "\(source)")
        }
        let plist = """
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
            <!-- warden:ignore ats-arbitrary-loads the kiosk build talks to a LAN device -->
            <key>NSAllowsArbitraryLoads</key><true/></dict></dict></plist>
            """
        let report = Auditor().audit(files: ["Info.plist": plist])
        #expect(report.findings.isEmpty && report.suppressed == 1)
    }

    @Test func treeWalkSkipsVendoredBinaryAndUnreadableFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("warden-audit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, contents) in [
            "App/A.swift": Data("print(token)\n".utf8), "Pods/X/B.swift": Data("print(token)\n".utf8),
            "vendor/C.swift": Data("print(token)\n".utf8), "App/Bin.swift": Data([0x6C, 0, 0, 1]),
            "App/Latin1.swift": Data([0x6C, 0x65, 0x74, 0xE9]), "App/Info.plist": Data("not a plist".utf8),
            "App/Locked.swift": Data("print(password)\n".utf8),
        ] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url)
        }
        try FileManager.default.setAttributes(
            [.posixPermissions: 0], ofItemAtPath: root.appendingPathComponent("App/Locked.swift").path)
        let report = try Auditor().audit(root: root.path)
        #expect(report.findings.map(\.file).contains("App/A.swift"))
        #expect(!report.findings.contains { $0.file.hasPrefix("Pods") || $0.file.hasPrefix("vendor") })
        let skipped = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.path, $0.reason) })
        #expect(skipped["App/Bin.swift"] == "binary")
        #expect(skipped["App/Latin1.swift"] == "not UTF-8")
        #expect(skipped["App/Info.plist"] != nil)
        if getuid() != 0 { #expect(skipped["App/Locked.swift"] == "unreadable") }
        let missing = #expect(throws: Auditor.Failure.self) { try Auditor().audit(root: root.path + "/missing") }
        #expect(missing?.codeName == "unreadable_path" && missing?.failureKind == .misconfiguration)
        let baseline = #expect(throws: Auditor.Failure.self) { try Reporter.fingerprints(baseline: Data("[1]".utf8)) }
        #expect(baseline?.codeName == "invalid_baseline")
    }

    /// The C-library walk lists the files the auditor reads: hidden and vendored directories stay shut, a symbolic
    /// link is listed but never entered, asset catalogues' JSON is left out, and a file larger than one read is read
    /// whole.
    @Test func treeWalkListsSourcesAndResourcesAndEntersNoLink() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("warden-walk-\(UUID().uuidString)")
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("warden-out-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: outside)
        }
        let large = String(repeating: "let padding = 1\n", count: 80_000) + "print(password)\n"
        for (path, contents) in [
            "App/A.swift": "print(token)\n", "App/Deep/er/still/B.m": "NSLog(@\"%@\", password);\n",
            "App/Large.swift": large, ".git/objects/C.swift": "print(token)\n", "App/.Hidden.swift": "print(token)\n",
            "App/.cache/F.swift": "print(token)\n",
            "Carthage/Checkouts/D.swift": "print(token)\n", "App/Assets.xcassets/Contents.json": "{}",
            "App/config.json": "{}", "App/README.md": "print(token)", "App/noextension": "print(token)",
            "App/Info.plist": "<plist><dict/></plist>",
        ] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("print(token)\n".utf8).write(to: outside.appendingPathComponent("E.swift"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("App/Linked").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("App/Alias.swift").path,
            withDestinationPath: root.appendingPathComponent("App/A.swift").path)

        let auditor = Auditor()
        #expect(
            auditor.collect(root.path) == [
                "App/A.swift", "App/Alias.swift", "App/Deep/er/still/B.m", "App/Info.plist", "App/Large.swift",
                "App/config.json",
            ])
        let real = try #require(DirectoryWalk.realPath(root.path))
        func read(_ path: String) -> DirectoryWalk.Read {
            DirectoryWalk.contents(of: root.appendingPathComponent(path).path, root: real, maximumBytes: 8 << 20)
        }
        #expect(read("App/Large.swift") == .bytes(Array(large.utf8)))
        #expect(read("App") == .skipped("not a regular file"))
        #expect(read("App/missing.swift") == .skipped("unreadable"))
        let report = try auditor.audit(root: root.path)
        #expect(report.filesScanned == 6)
        #expect(report.findings.contains { $0.file == "App/Large.swift" && $0.line == 80_001 })
        #expect(report.findings.contains { $0.file == "App/Alias.swift" })
        #expect(!report.findings.contains { $0.file.hasPrefix("App/Linked") })
    }

    @Test func binaryPropertyLists() throws {
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["NSAppTransportSecurity": ["NSAllowsArbitraryLoads": true]], format: .binary, options: 0)
        let plist = try #require(PropertyListFile(path: "Info.plist", bytes: Array(data)))
        #expect(plist.isBinary)
        let report = Auditor().audit(contents: ["Info.plist": Array(data)])
        #expect(report.findings.map(\.rule.id) == ["ats-arbitrary-loads"])
        #expect(report.findings.map(\.line) == [1])
    }

    /// Megabyte inputs with tens of thousands of findings stay linear (the bench and the fuzz target cover speed;
    /// this proves the paths complete and count right).
    @Test func megabyteFilesWithManyFindings() {
        let lines = 20_000
        let source = String(repeating: "if returnedState == expectedState { print(token) }\n", count: lines)
        let report = Auditor().audit(files: ["Big.swift": source])
        #expect(report.findings.count == 2 * lines)
        #expect(report.linesScanned == lines)
        #expect(Set(report.findings.map(\.fingerprint)).count == 2 * lines)
        let json = Reporter.json(report, version: "1")
        #expect(json.utf8.count > 1_000_000)
        let nested = String(repeating: "{(", count: 300_000)
        #expect(Auditor().audit(files: ["Deep.swift": nested]).findings.isEmpty)
        let plist = Array("<plist><dict>".utf8) + Array(repeating: UInt8(ascii: "<"), count: 1_000_000)
        #expect(Auditor().audit(contents: ["Info.plist": plist]).skipped.count == 1)
    }

    @Test func parallelAuditIsDeterministic() {
        var files: [String: String] = [:]
        for index in 0..<200 { files["F\(index).swift"] = "print(token)\nlet u = \"http://a\(index).example\"\n" }
        let first = Auditor().audit(files: files).findings.map(\.fingerprint)
        for _ in 0..<3 { #expect(Auditor().audit(files: files).findings.map(\.fingerprint) == first) }
        #expect(first.count == 400)
    }
}
