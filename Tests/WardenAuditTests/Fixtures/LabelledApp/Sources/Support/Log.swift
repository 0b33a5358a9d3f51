//
//  Log.swift
//  Ledgerly
//

import Foundation
import os

enum Log {
    static let network = Logger(subsystem: "com.ledgerly.app", category: "network")
    static let storage = Logger(subsystem: "com.ledgerly.app", category: "storage")
    static let ui = Logger(subsystem: "com.ledgerly.app", category: "ui")
    static let payments = Logger(subsystem: "com.ledgerly.app", category: "payments")
}

/// Pretty-prints requests while debugging against the staging backend.
enum RequestLogger {
    static func log(_ request: URLRequest) {
        let method = request.httpMethod ?? "GET"
        let url = request.url?.absoluteString ?? "-"
        Log.network.debug("\(method, privacy: .public) \(url, privacy: .public)")
        #if DEBUG
        if let authorization = request.value(forHTTPHeaderField: "Authorization") {
            print("Authorization: \(authorization)")  // twin: secret-in-log
        }
        #endif
    }

    static func logVerbose(_ request: URLRequest) {
        let headers = request.allHTTPHeaderFields ?? [:]
        let bearerToken = headers["Authorization"] ?? ""
        print("-> \(request.url?.path ?? "-") auth=\(bearerToken)")  // expect: secret-in-log
        print("-> \(request.url?.path ?? "-") headers=\(headers.keys.sorted())")  // twin: secret-in-log
    }

    static func log(_ response: HTTPURLResponse, data: Data, duration: TimeInterval) {
        let milliseconds = Int(duration * 1000)
        Log.network.debug("<- \(response.statusCode) \(data.count) bytes in \(milliseconds) ms")
        if response.statusCode >= 500 {
            Log.network.error("server error \(response.statusCode) for \(response.url?.path ?? "-", privacy: .public)")
        }
    }
}

enum Formatters {
    static let dayMonth: DateFormatter = {
        let formatter = DateFormatter()
        formatter.setLocalizedDateFormatFromTemplate("d MMM")
        return formatter
    }()

    static let relative: RelativeDateTimeFormatter = {
        let formatter = RelativeDateTimeFormatter()
        formatter.unitsStyle = .short
        return formatter
    }()

    static func currency(_ minorUnits: Int64, code: String) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.currencyCode = code
        return formatter.string(from: NSNumber(value: Double(minorUnits) / 100)) ?? "\(minorUnits) \(code)"
    }

    static func maskedIBAN(_ iban: String) -> String {
        guard iban.count > 8 else { return iban }
        return String(iban.prefix(4)) + " •••• " + String(iban.suffix(4))
    }
}
