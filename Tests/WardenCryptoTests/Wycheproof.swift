import Foundation
import Testing
import WardenTestSupport

/// One loader for every Wycheproof file (Apache-2.0 vectors vendored in `Tests/Vectors/wycheproof/`, or
/// `$WARDEN_VECTORS`). Failures name the file and the `tcId`.
enum Wycheproof {
    struct Case {
        let file: String
        let group: [String: Any]
        let test: [String: Any]
        var id: Int { test["tcId"] as? Int ?? -1 }
        var result: String { test["result"] as? String ?? "" }
        func hex(_ key: String) -> [UInt8] { Hex.decode(test[key] as? String ?? "") }
        var label: String { "\(file) tcId \(id) (\(test["comment"] as? String ?? ""))" }
    }

    static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["WARDEN_VECTORS"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        // Tests/WardenCryptoTests/Wycheproof.swift → Tests/Vectors/wycheproof
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/wycheproof")
    }

    static let ran = Counter()

    /// Runs `verify` over every test of `file`. `valid` must return true; `invalid` must return false or throw;
    /// `acceptable` may do either. Returns how many cases ran.
    @discardableResult
    static func run(
        _ file: String, groups include: ([String: Any]) -> Bool = { _ in true }, _ verify: (Case) throws -> Bool
    ) throws -> Int {
        let url = directory.appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record(
                "WYCHEPROOF VECTORS MISSING: \(url.path) does not exist. The repository vendors them in Tests/Vectors/wycheproof; WARDEN_VECTORS overrides."
            )
            return 0
        }
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        var count = 0
        for group in document["testGroups"] as! [[String: Any]] where include(group) {
            for test in group["tests"] as! [[String: Any]] {
                let item = Case(file: file, group: group, test: test)
                count += 1
                let outcome: Result<Bool, any Error> = Result { try verify(item) }
                switch (item.result, outcome) {
                case ("valid", .success(true)), ("invalid", .success(false)), ("invalid", .failure), ("acceptable", _):
                    continue
                case ("valid", .failure(let error)):
                    Issue.record("\(item.label): valid vector threw \(error)")
                default:
                    Issue.record("\(item.label): expected \(item.result), got \(outcome)")
                }
            }
        }
        ran.add(count)
        print("wycheproof: \(file): \(count) vectors ran")
        return count
    }
}

final class Counter: @unchecked Sendable {  // NSLock-guarded
    private let lock = NSLock()
    private var value = 0
    func add(_ n: Int) {
        lock.lock()
        value += n
        lock.unlock()
    }
    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

extension Array where Element == UInt8 {
    init(base64URL text: String) {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        self = Array(Data(base64Encoded: s) ?? Data())
    }
}
