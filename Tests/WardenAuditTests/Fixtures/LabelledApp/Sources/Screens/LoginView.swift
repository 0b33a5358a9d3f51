//
//  LoginView.swift
//  Ledgerly
//

import AuthenticationServices
import SwiftUI

@MainActor
final class LoginViewModel: ObservableObject {
    @Published var username = ""
    @Published var password = ""
    @Published var isLoading = false
    @Published var errorMessage: String?

    private let session: SessionStore
    private let offlineStore: OfflineAccountStore

    init(session: SessionStore = .shared, offlineStore: OfflineAccountStore = .shared) {
        self.session = session
        self.offlineStore = offlineStore
        username = UserDefaults.standard.string(forKey: PreferenceKey.lastUsername) ?? ""
    }

    var canSubmit: Bool {
        !username.trimmingCharacters(in: .whitespaces).isEmpty && !password.isEmpty  // twin: non-constant-time-compare
    }

    func submit() async {
        guard canSubmit else { return }
        isLoading = true
        defer { isLoading = false }
        do {
            try await session.signIn(username: username, password: password)
            UserDefaults.standard.set(username, forKey: PreferenceKey.lastUsername)
            password = ""
        } catch APIError.transport {
            signInOffline()
        } catch {
            errorMessage = error.localizedDescription
        }
    }

    /// No network: compare against the credentials cached by the 3.x app.
    private func signInOffline() {
        let enteredPassword = password
        guard let storedPassword = offlineStore.cachedPassword(for: username) else {
            errorMessage = NSLocalizedString("login.offline.unavailable", comment: "")
            return
        }
        if enteredPassword == storedPassword {  // expect: non-constant-time-compare
            offlineStore.unlockOfflineMode(for: username)
        } else {
            errorMessage = NSLocalizedString("login.error.invalid", comment: "")
        }
    }
}

final class OfflineAccountStore {
    static let shared = OfflineAccountStore()

    func cachedPassword(for username: String) -> String? {
        KeychainStore.shared.readString(account: "offline.\(username)")
    }

    func unlockOfflineMode(for username: String) {
        NotificationCenter.default.post(name: .offlineModeUnlocked, object: username)
    }
}

extension Notification.Name {
    static let offlineModeUnlocked = Notification.Name("LedgerlyOfflineModeUnlocked")
}

struct LoginView: View {
    @StateObject private var model = LoginViewModel()
    @EnvironmentObject private var router: AppRouter
    @AppStorage("authToken") private var token: String = ""  // expect: secret-in-swiftui-storage
    @AppStorage("theme") private var theme: String = AppTheme.system.rawValue  // twin: secret-in-swiftui-storage
    @FocusState private var focusedField: Field?

    private enum Field {
        case username
        case password
    }

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    TextField("login.username.placeholder", text: $model.username)
                        .textContentType(.username)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                        .focused($focusedField, equals: .username)
                        .submitLabel(.next)
                        .onSubmit { focusedField = .password }
                    SecureField("login.password.placeholder", text: $model.password)  // twin: password-field-without-content-type
                        .textContentType(.password)
                        .focused($focusedField, equals: .password)
                        .submitLabel(.go)
                        .onSubmit { Task { await model.submit() } }
                }

                if let message = model.errorMessage {
                    Section {
                        Label(message, systemImage: "exclamationmark.triangle")
                            .foregroundStyle(.red)
                    }
                }

                Section {
                    Button {
                        Task { await model.submit() }
                    } label: {
                        HStack {
                            Text("login.submit")
                            if model.isLoading {
                                Spacer()
                                ProgressView()
                            }
                        }
                    }
                    .disabled(!model.canSubmit || model.isLoading)

                    SignInWithAppleButton(.signIn) { request in
                        request.requestedScopes = [.email]
                    } onCompletion: { _ in
                        AppleSignInCoordinator.shared.signIn { _ in }
                    }
                    .frame(height: 44)
                }

                Section {
                    Button("login.forgotPassword") {
                        Analytics.shared.track(.passwordResetTapped)
                        router.presentedSheet = .signUp
                    }
                    NavigationLink("login.createAccount", value: AppRouter.Route.signUp)
                }
            }
            .navigationTitle("login.title")
            .preferredColorScheme(AppTheme(rawValue: theme)?.interfaceStyle == .dark ? .dark : nil)
            .onAppear {
                if !token.isEmpty {
                    router.path = [.vault]
                }
            }
        }
    }
}

/// Quick re-authentication sheet shown before changing security settings.
struct ReauthenticateSheet: View {
    @State private var password = ""
    @Environment(\.dismiss) private var dismiss
    var onConfirm: (String) -> Void

    var body: some View {
        NavigationStack {
            Form {
                Section(footer: Text("reauth.footer")) {
                    SecureField("Password", text: $password)  // expect: password-field-without-content-type
                }
            }
            .navigationTitle("reauth.title")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("common.cancel") { dismiss() }
                }
                ToolbarItem(placement: .confirmationAction) {
                    Button("common.continue") {
                        onConfirm(password)
                        dismiss()
                    }
                    .disabled(password == "")  // twin: non-constant-time-compare
                }
            }
        }
    }
}
