//
//  SessionStore.swift
//  Ledgerly
//

import Combine
import Foundation
import os

struct LoginCredentials: Codable {
    var username: String
    var password: String
}

struct TokenResponse: Decodable {
    var accessToken: String
    var refreshToken: String?
    var expiresIn: Int
    var idToken: String?
    var tokenType: String
}

struct UserProfile: Codable, Equatable {
    var id: String
    var username: String
    var displayName: String
    var email: String
    var avatarURL: URL?
    var memberSince: Date
}

enum SignOutReason {
    case userInitiated
    case expired
    case credentialRevoked
}

final class SessionStore: ObservableObject, TokenProviding {
    static let shared = SessionStore()

    @Published private(set) var profile: UserProfile?
    @Published private(set) var isSignedIn = false

    private(set) var accessToken: String?
    private var refreshToken: String?
    private let keychain = KeychainStore.shared
    private let logger = Logger(subsystem: "com.ledgerly.app", category: "session")
    private let authLog = OSLog(subsystem: "com.ledgerly.app", category: "auth")

    private init() {
        accessToken = keychain.readString(account: "access_token")
        refreshToken = keychain.readString(account: "refresh_token")
        isSignedIn = accessToken != nil
    }

    // MARK: - Password login

    func signIn(username: String, password: String) async throws {
        logger.info("Signing in \(username, privacy: .public)")  // twin: secret-in-log
        let credentials = LoginCredentials(username: username, password: password)
        #if DEBUG
        dump(credentials)  // twin: secret-in-log
        #endif
        let tokens = try await OAuthClient.shared.passwordGrant(username: username, password: password)
        try store(tokens)
        Analytics.shared.track(.loginTapped)
    }

    func signInLegacy(username: String, password: String) async throws {
        let credentials = LoginCredentials(username: username, password: password)
        dump(credentials)  // expect: secret-in-log
        debugPrint(password)  // expect: secret-in-log
        let tokens = try await OAuthClient.shared.passwordGrant(username: credentials.username, password: credentials.password)
        try store(tokens)
    }

    private func store(_ tokens: TokenResponse) throws {
        try keychain.saveAccessToken(tokens.accessToken)
        if let refresh = tokens.refreshToken {
            try keychain.saveRefreshToken(refresh)
        }
        accessToken = tokens.accessToken
        refreshToken = tokens.refreshToken
        isSignedIn = true
        print("token: \(tokens.accessToken)")  // expect: secret-in-log
        print("token length: \(tokens.accessToken.count)")  // twin: secret-in-log
        logger.debug("stored tokens, expires in \(tokens.expiresIn)s")
    }

    // MARK: - Refresh

    func refresh() async throws {
        guard let refreshToken else { throw APIError.unauthorized }
        let tokens = try await OAuthClient.shared.refresh(using: refreshToken)
        logger.info("refreshed \(tokens.accessToken, privacy: .public)")  // expect: secret-in-log
        logger.info("refreshed \(tokens.accessToken)")  // twin: secret-in-log
        os_log("new access token %{public}@", log: authLog, type: .debug, tokens.accessToken)  // expect: secret-in-log
        os_log("new access token %{private}@", log: authLog, type: .debug, tokens.accessToken)  // twin: secret-in-log
        try store(tokens)
    }

    func debugDescribeSession() {
        guard let accessToken else { return }
        let line = "session for \(profile?.username ?? "-") with bearer \(accessToken)"
        print(line)  // expect: secret-in-log
        let summary = "session for \(profile?.username ?? "-") expires soon"
        print(summary)  // twin: secret-in-log
    }

    // MARK: - Offline mode for the Apple Watch companion

    func shareSessionWithWatch() {
        guard let accessToken else { return }
        UserDefaults.standard.set(accessToken, forKey: "authToken")  // expect: secret-in-user-defaults
        UserDefaults.standard.set(profile?.displayName, forKey: "watchDisplayName")  // twin: secret-in-user-defaults
    }

    // MARK: - Sign out

    func signOut(reason: SignOutReason = .userInitiated) {
        keychain.delete(account: "access_token")
        keychain.delete(account: "refresh_token")
        UserDefaults.standard.removeObject(forKey: "authToken")
        accessToken = nil
        refreshToken = nil
        profile = nil
        isSignedIn = false
        logger.notice("signed out: \(String(describing: reason), privacy: .public)")
    }

    func loadProfile() async {
        do {
            let profile: UserProfile = try await APIClient.shared.send(.profile())
            await MainActor.run { self.profile = profile }
        } catch {
            logger.error("profile failed: \(error.localizedDescription, privacy: .public)")
        }
    }
}
