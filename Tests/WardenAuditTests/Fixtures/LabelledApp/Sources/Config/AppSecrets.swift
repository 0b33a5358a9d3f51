//
//  AppSecrets.swift
//  Ledgerly
//
//  NOTE(2021-03): these were supposed to move to the backend-for-frontend. Ticket LED-1184.
//

import Foundation

enum AppSecrets {
    // Partner reporting API (server-to-server credentials that ended up in the client).
    static let reportingAPIKey = "a8n6f83fZLi0FNWQkXBn98ogfgC5"  // expect: hardcoded-secret
    static let reportingAPIKeyPlaceholder = "YOUR_API_KEY"  // twin: hardcoded-secret

    static let clientSecret: String = "aQElUSpTm5sSJhrFZhGFlcbkLUfqtTXw"  // expect: hardcoded-secret
    static let clientID = "ledgerly-ios"

    // Receipt uploads go straight to S3 in the old flow.
    static let awsAccessKeyID = "AKIA6PE06VYQZX76B56N"  // expect: hardcoded-secret
    static let awsRegion = "eu-west-1"
    static let receiptsBucket = "ledgerly-receipts-prod"

    // Used by the "export to GitHub gist" debug menu.
    static let gistToken = "ghp_GbBcTpphFNyenew02MnmPlOoBt0lhdjEuTp0"  // expect: hardcoded-secret

    // Values that are secret-NAMED but not secrets.
    static let tokenKey = "auth_token"  // twin: hardcoded-secret
    static let refreshTokenKey = "auth_refresh_token"
    static let passwordPlaceholderKey = "login.password.placeholder"  // twin: hardcoded-secret
    static let sentryDSNOverride = ""  // twin: hardcoded-secret
}

enum AuthRoute: String {
    case signIn = "auth/sign_in"
    case signUp = "auth/sign_up"
    case resetPassword = "auth/reset_password"  // twin: hardcoded-secret
    case refreshToken = "auth/token/refresh"
    case revokeToken = "auth/token/revoke"
}

enum AnalyticsEvent: String {
    case loginTapped = "login_tapped"
    case passwordResetTapped = "password_reset_tapped"  // twin: hardcoded-secret
    case biometricEnabled = "biometric_enabled"
    case pinChanged = "pin_changed"
    case paymentStarted = "payment_started"
    case paymentCompleted = "payment_completed"
}

enum MapStyle {
    static let pinColor = "#FF3B30"  // twin: hardcoded-secret
    static let routeColor = "#0A84FF"
    static let clusterColor = "#34C759"
    static let defaultZoom = 14.0
}

struct ReportingClient {
    struct Configuration {
        var baseURL: URL
        var clientSecret: String
        var timeout: TimeInterval = 20
    }

    let configuration: Configuration

    init(clientSecret: String, baseURL: URL = URL(string: "https://reports.partner.example.com")!) {
        configuration = Configuration(baseURL: baseURL, clientSecret: clientSecret)
    }

    static let shared = ReportingClient(clientSecret: "EptT9B5EG6UIoPKbjaOfbjnEF2AgzXsGJtsum5VN")  // expect: hardcoded-secret
    static let sandbox = ReportingClient(clientSecret: ProcessInfo.processInfo.environment["REPORTING_SECRET"] ?? "")  // twin: hardcoded-secret

    func headers() -> [String: String] {
        [
            "apiKey": "fMOOCAOda6fTARQWejzonQCfBY",  // expect: hardcoded-secret
            "Accept": "application/json",
        ]
    }

    func sandboxHeaders() -> [String: String] {
        [
            "apiKey": Bundle.main.object(forInfoDictionaryKey: "ReportingAPIKey") as? String ?? "",  // twin: hardcoded-secret
            "Accept": "application/json",
        ]
    }
}
