import SwiftUI
import Warden
import WardenApple

/// Starts the app's session, then shows the account. `@MainActor` spelled out: SDKs before Xcode 16 isolate only
/// `body`, not the whole view.
@MainActor struct ContentView: View {
    @State private var sample: SampleSession?
    @State private var message = "Starting…"

    var body: some View {
        VStack(spacing: 16) {
            Text("Warden Sample")
            if let sample {
                AccountView(sample: sample, account: sample.model, note: message)
            } else {
                Text(message)
            }
        }
        .padding()
        .task { await start() }
    }

    private func start() async {
        do {
            let sample = try SampleSession()
            message = protectionNote(sample.protection)
            self.sample = sample
            try await sample.restore()
        } catch {
            message = "Could not start: \(error)"
        }
    }

    private func protectionNote(_ protection: RefreshTokenProtection) -> String {
        switch protection {
        case .biometryBound: "Your session is protected by Face ID or Touch ID."
        case .deviceOnly(let reason): "Your session stays on this device (\(reason))."
        }
    }
}

/// Sign in, call the API, sign out, drawn from the observed `SessionModel`. The account part is masked in the App
/// Switcher (`.privacyMasked()`); the state line says why the session is read-only (offline) or signed out, from the
/// state's typed reason; buttons wait while a request runs.
@MainActor struct AccountView: View {
    let sample: SampleSession
    @ObservedObject var account: SessionModel
    let note: String
    @State private var message = ""
    @State private var busy = false

    var body: some View {
        VStack(spacing: 12) {
            Text(message.isEmpty ? note : message)
            Text(describe(account.state))
            if case .signedOut = account.state {
                if #available(iOS 16.4, *) {
                    EnvironmentSignInButton(disabled: busy || account.isWorking) { browser in
                        run { try await $0.signIn(with: browser) }
                    }
                } else {
                    Button("Sign in") { run { try await $0.signIn() } }
                        .disabled(busy || account.isWorking)
                }
            } else {
                VStack(spacing: 12) {
                    Text("Hello \((try? account.claims?.subject) ?? "")")
                    Button("Call the API") { run { try await $0.callAPI() } }
                        .disabled(busy)
                    Button("Sign out") { run { await $0.signOut() } }
                        .disabled(busy || account.isWorking)
                }
                .privacyMasked()
            }
        }
    }

    /// Runs one action on the session, then shows its result; the state line follows the model by itself.
    private func run(_ action: @escaping @MainActor (SampleSession) async throws -> String) {
        busy = true
        Task { @MainActor in
            do { message = try await action(sample) } catch { message = "\(error)" }
            busy = false
        }
    }

    private func describe(_ state: SessionState) -> String {
        switch state {
        case .signedIn: "Signed in."
        case .degraded(reason: .offline): "Offline: read-only until the network returns."
        case .degraded(let reason): "Read-only for now (\(reason))."
        case .signedOut(reason: .userSignedOut): "Signed out."
        case .signedOut(reason: .noSession): "Not signed in."
        case .signedOut(let reason): "Signed out: \(reason). Sign in again."
        }
    }
}

/// The sign-in button over SwiftUI's own web authentication session (iOS 16.4 on): `AuthClient` runs the chain, the
/// environment's session only shows the provider's page.
@available(iOS 16.4, *)
@MainActor struct EnvironmentSignInButton: View {
    @Environment(\.webAuthenticationSession) private var webAuthenticationSession
    let disabled: Bool
    let action: @MainActor (any AuthorizationBrowser) -> Void

    var body: some View {
        Button("Sign in") { action(WebAuthenticationSessionBrowser(webAuthenticationSession)) }
            .disabled(disabled)
    }
}
