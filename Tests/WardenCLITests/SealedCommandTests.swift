import Foundation
import Testing

@Suite("warden sealed")
struct SealedCommandTests {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("warden-sealed-cli-\(UUID())").path

    init() throws { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }

    func keygen(_ name: String) async throws -> String {
        let path = "\(dir)/\(name)"
        let run = await CLI.run(["sealed", "keygen", path])
        #expect(run.status == 0, "\(run.stderr)")
        // The key is not printed.
        #expect(!run.stdout.contains(try String(contentsOfFile: path, encoding: .utf8).prefix(64)))
        return path
    }

    @Test(arguments: ["aes-256-gcm", "chacha20-poly1305"])
    func aFileSealsAndOpensWithItsKeyAndContext(algorithm: String) async throws {
        let key = try await keygen("k")
        let attributes = try FileManager.default.attributesOfItem(atPath: key)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        try Data("a draft".utf8).write(to: URL(fileURLWithPath: "\(dir)/plain"))
        let sealed = await CLI.run([
            "sealed", "seal", "--key", key, "--out", "\(dir)/draft", "--algorithm", algorithm, "\(dir)/plain",
        ])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        #expect(
            try !String(decoding: Data(contentsOf: URL(fileURLWithPath: "\(dir)/draft")), as: UTF8.self).contains(
                "a draft"))
        let opened = await CLI.run(["sealed", "open", "--key", key, "--out", "\(dir)/back", "\(dir)/draft"])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/back")) == Data("a draft".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: "\(dir)/back")[.posixPermissions] as? Int
        #expect(mode == 0o600, "the plaintext is never readable by others")
        // A link planted at --out is never written through.
        #expect(symlink("\(dir)/plain", "\(dir)/planted") == 0)
        let planted = await CLI.run(["sealed", "open", "--key", key, "--out", "\(dir)/planted", "\(dir)/draft"])
        #expect(planted.status == 2 && planted.stderr.hasPrefix("warden: file_exists:"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/plain")) == Data("a draft".utf8))
        // A dangling link is not replaced or written through either (an atomic write would have replaced it).
        #expect(symlink("\(dir)/nowhere", "\(dir)/dangling") == 0)
        let dangling = await CLI.run(["sealed", "open", "--key", key, "--out", "\(dir)/dangling", "\(dir)/draft"])
        #expect(dangling.status == 2 && dangling.stderr.hasPrefix("warden: file_exists:"), "\(dangling.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/nowhere"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "\(dir)/dangling")) == "\(dir)/nowhere")
    }

    /// A changed byte, a cut, another name, another key: exit 1 with the typed code, and no output file.
    @Test func whatDoesNotOpenIsRefusedWhole() async throws {
        let key = try await keygen("k")
        let other = try await keygen("other")
        let run = await CLI.run(["sealed", "seal", "--key", key, "--out", "\(dir)/doc", "-"], stdin: "the contents")
        #expect(run.status == 0)
        let good = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/doc"))
        var flipped = good
        flipped[flipped.count - 5] ^= 1
        try flipped.write(to: URL(fileURLWithPath: "\(dir)/flipped"))
        try flipped.write(to: URL(fileURLWithPath: "\(dir)/doc-flipped"))
        try good.dropLast().write(to: URL(fileURLWithPath: "\(dir)/cut"))
        try good.write(to: URL(fileURLWithPath: "\(dir)/renamed"))
        try Data("not sealed at all".utf8).write(to: URL(fileURLWithPath: "\(dir)/plain"))
        let cases: [([String], String)] = [
            (["--key", key, "--context", "doc", "\(dir)/flipped"], "tampered"),
            (["--key", key, "--context", "doc", "\(dir)/cut"], "tampered"),
            (["--key", key, "\(dir)/renamed"], "tampered"),
            (["--key", other, "\(dir)/doc"], "unknown_key"),
            (["--key", key, "\(dir)/plain"], "corrupted_data"),
        ]
        for (index, (arguments, code)) in cases.enumerated() {
            let out = "\(dir)/out-\(index)"
            let run = await CLI.run(["sealed", "open", "--out", out] + arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr.hasPrefix("warden: \(code):"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        #expect(await CLI.run(["sealed", "open", "--key", key, "--out", "\(dir)/ok", "\(dir)/doc"]).status == 0)
    }

    @Test func keyFilesAndOutputsAreCheckedBeforeAnythingIsWritten() async throws {
        let key = try await keygen("k")
        #expect(await CLI.run(["sealed", "keygen", key]).stderr.hasPrefix("warden: file_exists:"))
        try Data("00".utf8).write(to: URL(fileURLWithPath: "\(dir)/short"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: "\(dir)/short")
        // Full-width digits are not hex digits to the parser (Character.isHexDigit says they are).
        try Data(String(repeating: "\u{FF11}", count: 64).utf8).write(to: URL(fileURLWithPath: "\(dir)/wide"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: "\(dir)/wide")
        try Data(String(repeating: "ab", count: 32).utf8).write(to: URL(fileURLWithPath: "\(dir)/open-key"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: "\(dir)/open-key")
        let cases: [([String], String)] = [
            (["sealed", "seal", "--key", "\(dir)/short", "--out", "\(dir)/x", "-"], "invalid_key"),
            (["sealed", "seal", "--key", "\(dir)/wide", "--out", "\(dir)/x", "-"], "invalid_key"),
            (["sealed", "seal", "--key", "\(dir)/open-key", "--out", "\(dir)/x", "-"], "key_file_exposed"),
            (["sealed", "seal", "--key", "\(dir)/missing", "--out", "\(dir)/x", "-"], "unreadable_file"),
            (["sealed", "seal", "--key", key, "--out", key, "-"], "file_exists"),
            (["sealed", "seal", "--key", key, "--out", "\(dir)/x", "--algorithm", "aes-128-cbc", "-"], "usage"),
            (["sealed", "open", "--key", key, "\(dir)/x"], "usage"),
        ]
        for (arguments, code) in cases {
            let run = await CLI.run(arguments, stdin: "data")
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("warden: \(code):"), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/x"))
    }
}
