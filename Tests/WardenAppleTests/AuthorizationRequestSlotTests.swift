import Foundation
import Testing
import WardenCore

@testable import WardenApple

/// The portable core of the `ASAuthorizationController` coordinator: AutoFill yields to a sheet, stale delegate
/// callbacks are dropped, cancellation stops the run's own controller.
@Suite("Authorization request slot")
struct AuthorizationRequestSlotTests {
    typealias Slot = AuthorizationRequestSlot<String>

    /// What the "controllers" of each run saw.
    final class Controllers: Sendable {
        let started = Locked<[Slot.Run]>([])
        let cancelled = Locked<[Slot.Run]>([])
        /// Waits until `count` runs started, at most 5 s (a failing slot then fails the test instead of hanging it).
        func waitForStart(count: Int) async {
            let deadline = Date() + 5
            while started.current.count < count, Date() < deadline { try? await Task.sleep(nanoseconds: 1_000_000) }
            #expect(started.current.count >= count, "\(count) run(s) should have started")
        }
    }

    func perform(_ slot: Slot, _ mode: AppleAuthorizationMode, _ controllers: Controllers) async throws -> String? {
        do {
            return try await slot.perform(
                mode: mode, start: { run in controllers.started.withLock { $0.append(run) } },
                cancel: { run in controllers.cancelled.withLock { $0.append(run) } })
        } catch let error as AppleAuthorizationError {
            guard let surfaced = error.surfaced(in: mode) else { return nil }
            throw surfaced
        }
    }

    /// The user dismisses the QuickType suggestion and taps "Sign in with a passkey": the AutoFill request is cancelled,
    /// the sheet starts once the AutoFill controller reported its end, and that late report does not end the sheet.
    @Test func anAutoFillRequestYieldsToTheSheetAndItsLateReportIsDropped() async throws {
        // A drain bound far beyond the test, so "the sheet waits" never depends on how fast this machine schedules
        // (the bound itself is the next test's subject).
        let slot = Slot(drainTimeout: 600)
        let controllers = Controllers()
        let autoFill = Task { try await perform(slot, .autoFill, controllers) }
        await controllers.waitForStart(count: 1)
        let autoFillRun = controllers.started.current[0]

        let sheet = Task { try await perform(slot, .interactive, controllers) }
        #expect(try await autoFill.value == nil, "AutoFill ends silently")
        let deadline = Date() + 5
        while controllers.cancelled.current.isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(controllers.cancelled.current == [autoFillRun])
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(controllers.started.current.count == 1, "the sheet waits for the AutoFill controller to end")

        // The AutoFill controller reports its cancellation: the sheet starts, and that report is not its outcome.
        slot.finish(autoFillRun, with: .failure(AppleAuthorizationError(authorizationErrorCode: 1001)))
        await controllers.waitForStart(count: 2)
        let sheetRun = controllers.started.current[1]
        #expect(sheetRun != autoFillRun)
        slot.finish(autoFillRun, with: .success("stale"))
        #expect(slot.isRunning)
        slot.finish(sheetRun, with: .success("passkey"))
        #expect(try await sheet.value == "passkey")
        #expect(!slot.isRunning)
    }

    /// Should the cancelled AutoFill controller never report, the sheet still starts, after the drain timeout — and the
    /// run given up on is handed back, so the coordinator drops its controller entry instead of keeping it for ever.
    @Test func aSilentAutoFillControllerDelaysTheSheetOnlyUntilTheTimeout() async throws {
        let abandoned = Locked<[Slot.Run]>([])
        let slot = Slot(drainTimeout: 0.05, onAbandoned: { runs in abandoned.withLock { $0 += runs } })
        let controllers = Controllers()
        let autoFill = Task { try await perform(slot, .autoFill, controllers) }
        await controllers.waitForStart(count: 1)
        let asked = Date()
        let sheet = Task { try await perform(slot, .interactive, controllers) }
        #expect(try await autoFill.value == nil)
        await controllers.waitForStart(count: 2)
        #expect(Date().timeIntervalSince(asked) >= 0.04, "the sheet waited for the drain timeout")
        #expect(abandoned.current == [controllers.started.current[0]], "the silent AutoFill run was given up")
        slot.finish(controllers.started.current[1], with: .success("passkey"))
        #expect(try await sheet.value == "passkey")
    }

    @Test func aSecondRequestWhileASheetShowsIsRefused() async throws {
        let slot = Slot()
        let controllers = Controllers()
        let sheet = Task { try await perform(slot, .interactive, controllers) }
        await controllers.waitForStart(count: 1)
        for mode in [AppleAuthorizationMode.interactive, .autoFill, .existingAccountOnLaunch] {
            await #expect(throws: AppleAuthorizationError(.alreadyRunning)) {
                try await perform(slot, mode, controllers)
            }
        }
        #expect(controllers.cancelled.current.isEmpty, "the showing sheet is left alone")
        slot.finish(controllers.started.current[0], with: .success("apple-id"))
        #expect(try await sheet.value == "apple-id")
    }

    /// Task cancellation ends the run at once and cancels that run's controller; its late report is dropped and the
    /// next request is unaffected.
    @Test func cancellingTheTaskStopsItsOwnControllerOnly() async throws {
        let slot = Slot()
        let controllers = Controllers()
        let first = Task { try await perform(slot, .interactive, controllers) }
        await controllers.waitForStart(count: 1)
        let firstRun = controllers.started.current[0]
        first.cancel()
        await #expect(throws: AppleAuthorizationError(.cancelled)) { try await first.value }
        #expect(controllers.cancelled.current == [firstRun])

        let second = Task { try await perform(slot, .interactive, controllers) }
        await controllers.waitForStart(count: 2)
        slot.finish(firstRun, with: .failure(AppleAuthorizationError(authorizationErrorCode: 1001)))
        #expect(slot.isRunning, "the first controller's late cancellation does not end the second")
        slot.finish(controllers.started.current[1], with: .success("second"))
        #expect(try await second.value == "second")
        #expect(controllers.cancelled.current == [firstRun])
    }

    /// The view with the username field goes away: its AutoFill task is cancelled. The next sheet still waits for the
    /// AutoFill controller to report its end.
    @Test func aCancelledAutoFillTaskAlsoDrainsBeforeTheNextRequest() async throws {
        let slot = Slot()
        let controllers = Controllers()
        let autoFill = Task { try await perform(slot, .autoFill, controllers) }
        await controllers.waitForStart(count: 1)
        let autoFillRun = controllers.started.current[0]
        autoFill.cancel()
        #expect(try await autoFill.value == nil)
        let sheet = Task { try await perform(slot, .interactive, controllers) }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(controllers.started.current.count == 1, "the sheet waits for the cancelled AutoFill controller")
        slot.finish(autoFillRun, with: .failure(AppleAuthorizationError(authorizationErrorCode: 1001)))
        await controllers.waitForStart(count: 2)
        slot.finish(controllers.started.current[1], with: .success("sheet"))
        #expect(try await sheet.value == "sheet")
    }

    /// A caller whose task is already cancelled never takes the slot from a live AutoFill request.
    @Test func anAlreadyCancelledCallerLeavesAutoFillAlone() async throws {
        let slot = Slot()
        let controllers = Controllers()
        let autoFill = Task { try await perform(slot, .autoFill, controllers) }
        await controllers.waitForStart(count: 1)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await perform(slot, .interactive, controllers)
        }
        await #expect(throws: AppleAuthorizationError(.cancelled)) { try await cancelled.value }
        #expect(controllers.cancelled.current.isEmpty && slot.isRunning)
        slot.finish(controllers.started.current[0], with: .success("autofill"))
        #expect(try await autoFill.value == "autofill")
    }

    @Test func aSynchronousOutcomeAndAThrowingStartAreHandled() async throws {
        let slot = Slot()
        let value = try await slot.perform(
            mode: .interactive, start: { run in slot.finish(run, with: .success("sync")) }, cancel: { _ in })
        #expect(value == "sync")
        await #expect(throws: AppleAuthorizationError(.notHandled)) {
            try await slot.perform(
                mode: .autoFill, start: { _ in throw AppleAuthorizationError(.notHandled) }, cancel: { _ in })
        }
        #expect(!slot.isRunning)
    }
}
