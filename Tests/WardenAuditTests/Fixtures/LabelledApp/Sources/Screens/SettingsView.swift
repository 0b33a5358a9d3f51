//
//  SettingsView.swift
//  Ledgerly
//

import SwiftUI

struct SettingsView: View {
    @EnvironmentObject private var session: SessionStore
    @AppStorage("theme") private var theme: AppTheme = .system  // twin: secret-in-swiftui-storage
    @AppStorage("preferredCurrency") private var preferredCurrency = "EUR"  // twin: secret-in-swiftui-storage
    @AppStorage("onboardingDone") private var onboardingDone = false  // twin: secret-in-swiftui-storage
    @AppStorage("userPIN") private var pin = ""  // expect: secret-in-swiftui-storage
    @AppStorage("biometricUnlockEnabled") private var biometricUnlockEnabled = false
    @AppStorage("autoLockMinutes") private var autoLockMinutes = 5
    @AppStorage("notifications.weeklySummary") private var weeklySummary = true

    @State private var showingChangePIN = false
    @State private var showingReauth = false
    @State private var showingSignOutConfirmation = false

    private let currencies = ["EUR", "USD", "GBP", "CHF", "SEK", "PLN"]

    var body: some View {
        Form {
            Section("settings.appearance") {
                Picker("settings.theme", selection: $theme) {
                    Text("settings.theme.system").tag(AppTheme.system)
                    Text("settings.theme.light").tag(AppTheme.light)
                    Text("settings.theme.dark").tag(AppTheme.dark)
                }
                Picker("settings.currency", selection: $preferredCurrency) {
                    ForEach(currencies, id: \.self) { code in
                        Text(Locale.current.localizedString(forCurrencyCode: code) ?? code).tag(code)
                    }
                }
            }

            Section("settings.security") {
                if BiometricGate.shared.availableBiometry != .none {
                    Toggle(isOn: $biometricUnlockEnabled) {
                        Text(String(format: NSLocalizedString("settings.biometric", comment: ""), BiometricGate.shared.availableBiometry.localizedName))
                    }
                    .onChange(of: biometricUnlockEnabled) { enabled in
                        if enabled { Analytics.shared.track(.biometricEnabled) }
                    }
                }
                Stepper(value: $autoLockMinutes, in: 1...30) {
                    Text(String(format: NSLocalizedString("settings.autolock", comment: ""), autoLockMinutes))
                }
                Button(pin.isEmpty ? "settings.pin.set" : "settings.pin.change") {
                    showingReauth = true
                }
            }

            Section("settings.notifications") {
                Toggle("settings.notifications.weekly", isOn: $weeklySummary)
            }

            Section("settings.about") {
                LabeledContent("settings.version", value: AppVersion.current.description)
                Link("settings.privacy", destination: StaticURLs.privacyPolicy)
                Link("settings.terms", destination: StaticURLs.termsOfService)
            }

            Section {
                Button("settings.signOut", role: .destructive) {
                    showingSignOutConfirmation = true
                }
            }
        }
        .navigationTitle("settings.title")
        .sheet(isPresented: $showingReauth) {
            ReauthenticateSheet { _ in showingChangePIN = true }
        }
        .sheet(isPresented: $showingChangePIN) {
            ChangePINView { newPIN in
                pin = newPIN
                Analytics.shared.track(.pinChanged)
            }
        }
        .confirmationDialog("settings.signOut.confirm", isPresented: $showingSignOutConfirmation) {
            Button("settings.signOut", role: .destructive) {
                session.signOut()
            }
        }
    }
}

struct ChangePINView: View {
    @State private var newPIN = ""
    @State private var confirmPIN = ""
    @Environment(\.dismiss) private var dismiss
    var onSave: (String) -> Void

    var body: some View {
        NavigationStack {
            Form {
                SecureField("pin.new", text: $newPIN)  // expect: password-field-without-content-type
                    .keyboardType(.numberPad)
                SecureField("pin.confirm", text: $confirmPIN)  // twin: password-field-without-content-type
                    .keyboardType(.numberPad)
                    .textContentType(.oneTimeCode)
                if !confirmPIN.isEmpty && newPIN != confirmPIN {  // twin: non-constant-time-compare
                    Text("pin.mismatch").foregroundStyle(.red)
                }
            }
            .toolbar {
                ToolbarItem(placement: .confirmationAction) {
                    Button("common.save") {
                        onSave(newPIN)
                        dismiss()
                    }
                    .disabled(newPIN.count < 4 || newPIN != confirmPIN)
                }
            }
        }
    }
}

struct DeveloperMenuView: View {
    @AppStorage("sessionID") private var sessionID = ""  // expect: secret-in-swiftui-storage
    @AppStorage("debug.showLayoutBounds") private var showLayoutBounds = false  // twin: secret-in-swiftui-storage

    var body: some View {
        Form {
            LabeledContent("Session", value: sessionID.isEmpty ? "none" : "active")
            Toggle("Show layout bounds", isOn: $showLayoutBounds)
            LabeledContent("Environment", value: AppEnvironment.current.rawValue)
        }
        .navigationTitle("Developer")
    }
}
