//
//  SecureFileStore.swift
//  Ledgerly
//

import CryptoKit
import Foundation

struct StoredCredentials: Codable {
    var username: String
    var password: String
    var savedAt: Date
}

struct SessionSnapshot: Codable {
    var userID: String
    var accessToken: String
    var refreshToken: String
    var expiresAt: Date
}

struct DashboardLayout: Codable {
    var widgetOrder: [String]
    var compact: Bool
    var lastOpenedTab: Int
}

final class SecureFileStore {
    static let shared = SecureFileStore()

    private let fileManager = FileManager.default
    private let encoder = JSONEncoder()

    private var supportDirectory: URL {
        let url = fileManager.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("Ledgerly", isDirectory: true)
        try? fileManager.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private var cachesDirectory: URL {
        fileManager.urls(for: .cachesDirectory, in: .userDomainMask)[0]
    }

    // MARK: - Tokens on disk (offline mode)

    func persistAccessToken(_ token: String) throws {
        let url = supportDirectory.appendingPathComponent("token.txt")
        try Data(token.utf8).write(to: url, options: [.atomic, .completeFileProtection])  // expect: secret-in-file
    }

    func persistAccessTokenSealed(_ token: String, key: SymmetricKey) throws {
        let url = supportDirectory.appendingPathComponent("token.sealed")
        let sealed = try AES.GCM.seal(Data(token.utf8), using: key)
        try sealed.combined?.write(to: url, options: [.atomic, .completeFileProtection])  // twin: secret-in-file
    }

    func saveCredentials(username: String, password: String) throws {
        let credentials = StoredCredentials(username: username, password: password, savedAt: Date())
        let data = try encoder.encode(credentials)
        try data.write(to: supportDirectory.appendingPathComponent("credentials.json"))  // expect: secret-in-file
    }

    func saveLayout(_ layout: DashboardLayout) throws {
        let data = try encoder.encode(layout)
        try data.write(to: supportDirectory.appendingPathComponent("layout.json"))  // twin: secret-in-file
    }

    func saveSnapshot(_ snapshot: SessionSnapshot) throws {
        let data = try PropertyListEncoder().encode(snapshot)
        let path = supportDirectory.appendingPathComponent("session.plist").path
        fileManager.createFile(atPath: path, contents: data, attributes: nil)  // expect: secret-in-file
    }

    func saveOfflinePIN(_ pin: String) {
        let path = supportDirectory.appendingPathComponent("pin.bin").path
        FileManager.default.createFile(atPath: path, contents: Data(pin.utf8), attributes: nil)  // expect: secret-in-file
    }

    func saveOfflinePINHash(_ pin: String) {
        let path = supportDirectory.appendingPathComponent("pin.hash").path
        let digest = Data(SHA256.hash(data: Data(pin.utf8)))
        FileManager.default.createFile(atPath: path, contents: digest, attributes: [.protectionKey: FileProtectionType.complete])  // twin: secret-in-file, file-without-protection
    }

    func archiveLegacySession(_ credentials: NSDictionary) {
        let path = supportDirectory.appendingPathComponent("legacy-session.archive").path
        NSKeyedArchiver.archiveRootObject(credentials, toFile: path)  // expect: secret-in-file
    }

    func archiveRecentSearches(_ searches: NSArray) {
        let path = cachesDirectory.appendingPathComponent("recent-searches.archive").path
        NSKeyedArchiver.archiveRootObject(searches, toFile: path)  // twin: secret-in-file
    }

    // MARK: - Caches and exports

    func cacheStatementPDF(_ pdf: Data, month: String) throws {
        let url = cachesDirectory.appendingPathComponent("statement-\(month).pdf")
        try pdf.write(to: url, options: .noFileProtection)  // expect: file-without-protection
    }

    func saveStatementPDF(_ pdf: Data, month: String) throws {
        let url = supportDirectory.appendingPathComponent("statement-\(month).pdf")
        try pdf.write(to: url, options: .completeFileProtection)  // twin: file-without-protection
    }

    func relaxProtectionForBackgroundUpload(at url: URL) throws {
        try fileManager.setAttributes([.protectionKey: FileProtectionType.none], ofItemAtPath: url.path)  // expect: file-without-protection
    }

    func restoreProtection(at url: URL) throws {
        try fileManager.setAttributes([.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: url.path)  // twin: file-without-protection
    }
}
