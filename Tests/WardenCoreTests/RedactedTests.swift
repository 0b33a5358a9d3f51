import Foundation
import Testing
import WardenCore

@Suite("Redacted never shows its value")
struct RedactedTests {
    static let secret = "s3cr3t-token-value-0123456789"

    @Test func everyPrintingPathIsRedacted() throws {
        let value = Redacted(Self.secret)
        var dumped = ""
        dump(value, to: &dumped)
        let encoded = String(decoding: try JSONEncoder().encode(["token": value]), as: UTF8.self)
        let outputs = [
            "\(value)", String(describing: value), String(reflecting: value), value.description,
            value.debugDescription, dumped, encoded, "\(Mirror(reflecting: value).children.map { "\($0)" })",
            "\([value])", "\(Optional(value) as Any)",
        ]
        for output in outputs {
            #expect(!output.contains(Self.secret), "leaked: \(output)")
            #expect(!output.contains(String(Self.secret.prefix(12))), "leaked a 12-character substring: \(output)")
        }
        #expect("\(value)" == "<redacted>")
        #expect(encoded == #"{"token":"<redacted>"}"#)
        #expect(value.unredacted() == Self.secret)
    }

    @Test func mapKeepsTheValueWrapped() {
        let length = Redacted(Self.secret).map(\.count)
        #expect("\(length)" == "<redacted>")
        #expect(length.unredacted() == Self.secret.count)
    }

    @Test func decodesFromTheRawValue() throws {
        let decoded = try JSONDecoder().decode([String: Redacted<String>].self, from: Data(#"{"t":"abc"}"#.utf8))
        #expect(decoded["t"]?.unredacted() == "abc")
    }

    @Test func lockedSerialisesAccess() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1000 { group.addTask { counter.withLock { $0 += 1 } } }
        }
        #expect(counter.current == 1000)
    }
}
