import Foundation
import FuzzSupport
import WardenAudit

#if canImport(Glibc)
    import Glibc
#endif

/// The auditor's directory walk on a tree an attacker committed: the input builds a small tree — files, directories,
/// links inside and outside it (to a secret file, `/dev/zero`, `/dev/urandom`, a directory, itself), FIFOs — then
/// audits it. Invariants: the audit ends (a FIFO or a device never blocks or floods it), nothing outside the tree is
/// read (the secret never reaches a finding or any format), and every skipped file has one of the known reasons.
///
/// Each entry: a kind byte, a name byte, a length byte and that many content bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("warden-fuzz-tree-\(getpid())")
    try? FileManager.default.removeItem(at: base)
    defer { try? FileManager.default.removeItem(at: base) }
    let root = base.appendingPathComponent("Repo")
    let outside = base.appendingPathComponent("Outside.swift")
    try? FileManager.default.createDirectory(at: root.appendingPathComponent("App"), withIntermediateDirectories: true)
    try? Data("let apiKey = \"sk_live_OUTSIDE_SECRET_0123456789\"\nprint(password)\n".utf8).write(to: outside)

    var input = FuzzInput(Array(UnsafeBufferPointer(start: data, count: size)))
    let extensions = ["swift", "m", "plist", "json", "entitlements", "xcconfig", "h", "txt"]
    var made: [String] = []
    while !input.isEmpty, made.count < 24 {
        let kind = input.byte() % 9
        let nameByte = input.byte()
        let name =
            "App/" + (nameByte & 0x80 == 0 ? "" : "Sub/") + "F\(nameByte & 0x0F)."
            + extensions[Int(nameByte >> 4) % extensions.count]
        let content = input.take(Int(input.byte()))
        let path = root.appendingPathComponent(name).path
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        switch kind {
        case 0, 1: _ = FileManager.default.createFile(atPath: path, contents: Data(content))
        case 2: _ = symlink(outside.path, path)
        case 3: _ = symlink("/dev/zero", path)
        case 4: _ = symlink("/dev/urandom", path)
        case 5: _ = mkfifo(path, 0o600)
        case 6: _ = symlink(made.last.map { root.appendingPathComponent($0).path } ?? path, path)
        case 7: _ = symlink("../../Outside.swift", path)
        default: _ = symlink(root.path, root.appendingPathComponent("App/Loop").path)
        }
        made.append(name)
    }
    guard let report = try? Auditor().audit(root: root.path) else { return 0 }
    // Every reason the walk and the readers give (DirectoryWalk, Auditor+Scan, ResourceFile): anything else is a
    // path nobody decided.
    let known: Set<String> = [
        "a link leading outside the audited tree", "not a regular file", "larger than 8 MiB", "unreadable", "binary",
        "not UTF-8", "not a source file", "not a property list with a dictionary at the top", "not a resource file",
    ]
    for (path, reason) in report.skipped {
        require(known.contains(reason), "unexpected skip reason: \(reason)")
        require(!path.contains("..") && !path.hasPrefix("/"), "a skipped path outside the tree: \(path)")
    }
    for rendered in [
        Reporter.text(report, colour: false), Reporter.json(report, version: "fuzz"),
        Reporter.sarif(report, version: "fuzz"),
    ] {
        require(!rendered.contains("OUTSIDE_SECRET"), "content from outside the tree reached the report")
    }
    require(report.findings.allSatisfy { !$0.file.contains("..") && !$0.file.hasPrefix("/") }, "a finding outside")
    return 0
}

@_cdecl("FuzzAuditTree_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
