//
//  LabelledApp.swift
//  Ledgerly
//
//  Created by the Ledgerly iOS team.
//

import AuthenticationServices
import Combine
import SwiftUI
import UIKit

@main
struct LedgerlyApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
    @StateObject private var session = SessionStore.shared
    @StateObject private var router = AppRouter()

    var body: some Scene {
        WindowGroup {
            RootView()
                .environmentObject(session)
                .environmentObject(router)
                .onOpenURL { url in
                    router.handle(deepLink: url)
                }
        }
    }
}

final class AppDelegate: NSObject, UIApplicationDelegate {
    private var cancellables = Set<AnyCancellable>()

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        Analytics.shared.configure(environment: AppEnvironment.current)
        observeAppleIDRevocation()
        AppleSignInCoordinator.shared.refreshCredentialState()
        return true
    }

    private func observeAppleIDRevocation() {
        NotificationCenter.default
            .publisher(for: ASAuthorizationAppleIDProvider.credentialRevokedNotification)  // twin: siwa-without-credential-state
            .receive(on: DispatchQueue.main)
            .sink { _ in
                Analytics.shared.track("apple_id_revoked")
                SessionStore.shared.signOut(reason: .credentialRevoked)
            }
            .store(in: &cancellables)
    }
}

enum AppEnvironment: String {
    case development
    case staging
    case production

    static var current: AppEnvironment {
        #if DEBUG
        return .development
        #else
        if Bundle.main.appStoreReceiptURL?.lastPathComponent == "sandboxReceipt" {
            return .staging
        }
        return .production
        #endif
    }

    var apiBaseURL: URL {
        switch self {
        case .development:
            return URL(string: "http://localhost:8080")!  // twin: cleartext-http
        case .staging:
            return URL(string: "https://staging-api.ledgerly.example.com")!  // twin: cleartext-http
        case .production:
            return URL(string: "https://api.ledgerly.example.com")!
        }
    }
}

final class AppRouter: ObservableObject {
    enum Route: Hashable {
        case login
        case signUp
        case vault
        case settings
        case profile
        case payments
        case transaction(id: String)
    }

    @Published var path: [Route] = []
    @Published var presentedSheet: Route?

    func handle(deepLink url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return }
        switch components.host {
        case "transaction":
            if let id = components.queryItems?.first(where: { $0.name == "id" })?.value {
                path.append(.transaction(id: id))
            }
        case "settings":
            path.append(.settings)
        case "oauth-callback":
            OAuthClient.shared.handleRedirect(url)
        default:
            Analytics.shared.track("deeplink_unhandled", properties: ["host": components.host ?? "-"])
        }
    }
}
