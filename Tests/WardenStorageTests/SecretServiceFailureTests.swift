import Testing
import WardenCore

@testable import WardenStorage

/// The libsecret error mapping, without a daemon: each class of GLib error the loader reports becomes the
/// StorageError (and failure kind) the session logic relies on.
@Suite("Secret Service error mapping")
struct SecretServiceFailureTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let failure: SecretServiceFailure
        let code: StorageError.Code
        let kind: FailureKind
        var testDescription: String { "\(failure.kind) → \(code)" }
    }

    static let cases: [Case] = [
        Case(
            failure: .init(kind: .locked, code: 2, message: "Cannot create an item in a locked collection"),
            code: .locked, kind: .transient),
        Case(
            failure: .init(kind: .cancelled, code: 19, message: "Operation was cancelled"), code: .locked,
            kind: .transient),
        Case(
            failure: .init(kind: .dbus, code: 2, message: "The name org.freedesktop.secrets was not provided"),
            code: .serviceUnavailable, kind: .misconfiguration),
        Case(
            failure: .init(kind: .io, code: 1, message: "Could not connect: No such file or directory"),
            code: .serviceUnavailable, kind: .misconfiguration),
        Case(failure: .init(kind: .secret, code: 1, message: "protocol"), code: .backendFailure, kind: .transient),
        Case(failure: .init(kind: .other, code: 7, message: "?"), code: .backendFailure, kind: .transient),
    ]

    @Test(arguments: cases) func mapsToTheStorageError(_ item: Case) {
        let error = item.failure.storageError("store")
        #expect(error.code == item.code)
        #expect(error.failureKind == item.kind)
    }

    @Test func backendMessagesKeepOnlyPrintableASCIIAndAreCapped() {
        let message = "bad\u{0}\u{1B}[31m\u{7F}é" + String(repeating: "x", count: 500)
        let error = SecretServiceFailure(kind: .other, message: message).storageError("lookup")
        #expect(error.reason.hasPrefix("lookup failed in the Secret Service (bad[31m"))
        #expect(!error.reason.unicodeScalars.contains { $0.value < 0x20 || $0.value >= 0x7F })
        #expect(error.reason.count < 220)
    }
}
