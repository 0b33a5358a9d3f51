import Dispatch
import Foundation
import Testing
import WardenCore
@_spi(Fuzzing) import WardenOAuth

@testable import WardenApple

/// The portable core of the ASWebAuthenticationSession agent: one session at a time, resumed exactly once,
/// completions from any thread, cancellation that dismisses the sheet, and the error mapping.
@Suite("System-browser session slot")
struct BrowserSessionSlotTests {
    static let callback = URL(string: "com.example.app:/oauth/cb?code=c&state=s")!

    /// Records what the slot handed out, so the test can complete from another thread later.
    final class Handle: Sendable {
        let complete = Locked<(@Sendable (BrowserSessionSlot.Outcome) -> Void)?>(nil)
        let cancels = Locked(0)
        let started = Locked(false)
    }

    func waitUntilStarted(_ handle: Handle) async {
        while !handle.started.current { await Task.yield() }
    }

    @Test func aCompletionFromABackgroundQueueResumesTheCaller() async throws {
        let slot = BrowserSessionSlot()
        let url = try await slot.run(
            start: { complete in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) {
                    complete(.callback(Self.callback))
                }
            }, cancel: {})
        #expect(url == Self.callback)
        #expect(!slot.isRunning)
    }

    @Test func onlyTheFirstOutcomeCounts() async throws {
        let slot = BrowserSessionSlot()
        let url = try await slot.run(
            start: { complete in
                DispatchQueue.global().async {
                    complete(.callback(Self.callback))
                    complete(.failed(OAuthError(.browserFailed)))  // a second resume would trap
                    complete(.callback(URL(string: "com.example.app:/other")!))
                }
            }, cancel: {})
        #expect(url == Self.callback)
    }

    @Test func aSynchronousCompletionInsideStartIsDelivered() async throws {
        let url = try await BrowserSessionSlot().run(start: { $0(.callback(Self.callback)) }, cancel: {})
        #expect(url == Self.callback)
    }

    @Test func aSecondConcurrentSignInIsRefused() async throws {
        let slot = BrowserSessionSlot()
        let handle = Handle()
        let first = Task {
            try await slot.run(
                start: { complete in
                    handle.complete.withLock { $0 = complete }
                    handle.started.withLock { $0 = true }
                }, cancel: {})
        }
        await waitUntilStarted(handle)
        await #expect(throws: OAuthError(.signInInProgress)) {
            try await slot.run(start: { _ in Issue.record("a second sheet was started") }, cancel: {})
        }
        handle.complete.current?(.callback(Self.callback))
        #expect(try await first.value == Self.callback)
        // Free again afterwards.
        #expect(try await slot.run(start: { $0(.callback(Self.callback)) }, cancel: {}) == Self.callback)
    }

    @Test func cancellingTheTaskDismissesTheSheetAndThrowsCancelled() async throws {
        let slot = BrowserSessionSlot()
        let handle = Handle()
        let task = Task {
            try await slot.run(
                start: { complete in
                    handle.complete.withLock { $0 = complete }
                    handle.started.withLock { $0 = true }
                }, cancel: { handle.cancels.withLock { $0 += 1 } })
        }
        await waitUntilStarted(handle)
        task.cancel()
        let error = await #expect(throws: OAuthError.self) { try await task.value }
        #expect(error?.code == .cancelled && error?.failureKind == .userCancelled)
        #expect(handle.cancels.current == 1)
        handle.complete.current?(.callback(Self.callback))  // the sheet's late completion is ignored
        #expect(!slot.isRunning)
    }

    /// Session N is cancelled and its sheet reports `canceledLogin` only after session N+1 started: that late
    /// completion belongs to N and must not end N+1.
    @Test func aLateCompletionOfACancelledSessionNeverEndsTheNextOne() async throws {
        let slot = BrowserSessionSlot()
        let first = Handle()
        let task = Task {
            try await slot.run(
                start: { complete in
                    first.complete.withLock { $0 = complete }
                    first.started.withLock { $0 = true }
                }, cancel: { first.cancels.withLock { $0 += 1 } })
        }
        await waitUntilStarted(first)
        task.cancel()
        await #expect(throws: OAuthError(.cancelled)) { try await task.value }

        let second = Handle()
        let next = Task {
            try await slot.run(
                start: { complete in
                    second.complete.withLock { $0 = complete }
                    second.started.withLock { $0 = true }
                }, cancel: { second.cancels.withLock { $0 += 1 } })
        }
        await waitUntilStarted(second)
        first.complete.current?(.failed(OAuthError(.cancelled, "canceledLogin of the first sheet")))
        first.complete.current?(.callback(URL(string: "com.example.app:/oauth/cb?code=stale&state=s")!))
        #expect(slot.isRunning, "the second session is still showing")
        second.complete.current?(.callback(Self.callback))
        #expect(try await next.value == Self.callback)
        #expect(first.cancels.current == 1 && second.cancels.current == 0)
    }

    @Test func aTaskCancelledBeforeStartingNeverPresents() async throws {
        let slot = BrowserSessionSlot()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await slot.run(start: { _ in Issue.record("presented although cancelled") }, cancel: {})
        }
        await #expect(throws: OAuthError(.cancelled)) { try await task.value }
    }

    @Test func aStartThatThrowsFreesTheSlot() async throws {
        let slot = BrowserSessionSlot()
        await #expect(throws: OAuthError(.presentationUnavailable)) {
            try await slot.run(start: { _ in throw OAuthError(.presentationUnavailable) }, cancel: {})
        }
        #expect(!slot.isRunning)
    }

    @MainActor @Test func startRunsOnTheCallersActor() async throws {
        let url = try await BrowserSessionSlot().run(
            start: { complete in
                MainActor.assertIsolated("start must run on the main actor for UI work")
                complete(.callback(Self.callback))
            }, cancel: {})
        #expect(url == Self.callback)
    }

    struct Mapping: CustomTestStringConvertible, Sendable {
        let url: URL?
        let errorCode: Int?
        let code: OAuthError.Code?
        let kind: FailureKind?
        var testDescription: String {
            "url \(url == nil ? "nil" : "set"), error code \(errorCode.map(String.init) ?? "nil")"
        }
    }

    @Test(arguments: [
        Mapping(url: callback, errorCode: nil, code: nil, kind: nil),
        Mapping(url: nil, errorCode: 1, code: .cancelled, kind: .userCancelled),  // canceledLogin
        Mapping(url: nil, errorCode: 2, code: .presentationUnavailable, kind: .misconfiguration),  // no provider
        Mapping(url: nil, errorCode: 3, code: .presentationUnavailable, kind: .misconfiguration),  // invalid
        Mapping(url: nil, errorCode: 0, code: .browserFailed, kind: .misconfiguration),  // another error domain
        Mapping(url: nil, errorCode: nil, code: .browserFailed, kind: .misconfiguration),  // neither URL nor error
        Mapping(url: callback, errorCode: 1, code: .cancelled, kind: .userCancelled),  // an error wins over a URL
    ])
    func outcomeMapping(_ item: Mapping) {
        switch BrowserSessionSlot.outcome(url: item.url, errorCode: item.errorCode) {
        case .callback(let url):
            #expect(item.code == nil && url == item.url)
        case .failed(let error):
            #expect(error.code == item.code)
            #expect(error.failureKind == item.kind)
            #expect(error.failureKind != .transient, "a browser failure is never retried as a network error")
        }
    }
}
