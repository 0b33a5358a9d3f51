import SwiftUI
import Warden
import WardenApple

/// Sign in, call the API, sign out. The account part is masked in the App Switcher (`.privacyMasked()`); the state
/// line says when the session is offline (degraded: read-only until the network returns); buttons wait for the
/// request that runs. `@MainActor` spelled out: SDKs before Xcode 16 isolate only `body`, not the whole view.
@MainActor struct ContentView: View {
    @State private var sample: SampleSession?
    @State private var state: SessionState?
    @State private var message = "Starting…"
    @State private var busy = false

    var body: some View {
        VStack(spacing: 16) {
            Text("Warden Sample")
            Text(message)
            if let state {
                VStack(spacing: 12) {
                    Text(describe(state))
                    Button("Call the API") { run { try await $0.callAPI() } }
                        .disabled(busy)
                    Button("Sign out") { run { await $0.signOut() } }
                        .disabled(busy)
                }
                .privacyMasked()
            } else {
                Button("Sign in") { run { try await describe($0.signIn()) } }
                    .disabled(busy || sample == nil)
            }
        }
        .padding()
        .task { await start() }
    }

    private func start() async {
        do {
            let sample = try SampleSession()
            self.sample = sample
            state = try await sample.restore()
            message = protectionNote(sample.protection)
        } catch {
            message = "Could not start: \(error)"
        }
    }

    /// Runs one action on the session, then shows its result and the session's state.
    private func run(_ action: @escaping @MainActor (SampleSession) async throws -> String) {
        guard let sample else { return }
        busy = true
        Task { @MainActor in
            do { message = try await action(sample) } catch { message = "\(error)" }
            state = await sample.state
            busy = false
        }
    }

    private func describe(_ state: SessionState) -> String {
        switch state {
        case .signedIn: "Signed in."
        case .degraded(let reason): "Offline (\(reason)): read-only until the network returns."
        case .signedOut(let reason): "Signed out: \(reason)"
        }
    }

    private func protectionNote(_ protection: RefreshTokenProtection) -> String {
        switch protection {
        case .biometryBound: "Your session is protected by Face ID or Touch ID."
        case .deviceOnly(let reason): "Your session stays on this device (\(reason))."
        }
    }
}
