//
//  Endpoints.swift
//  Ledgerly
//

import Foundation

enum HTTPMethod: String {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
}

struct Endpoint {
    var path: String
    var method: HTTPMethod = .get
    var query: [URLQueryItem] = []
    var body: Data?
    var requiresAuth = true

    func url(relativeTo base: URL) -> URL {
        var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty {
            components.queryItems = query
        }
        return components.url!
    }
}

extension Endpoint {
    static func transactions(accountID: String, page: Int, pageSize: Int = 50) -> Endpoint {
        Endpoint(
            path: "v2/accounts/\(accountID)/transactions",
            query: [
                URLQueryItem(name: "page", value: String(page)),
                URLQueryItem(name: "page_size", value: String(pageSize)),
            ]
        )
    }

    static func profile() -> Endpoint {
        Endpoint(path: "v2/me")
    }

    static func updateProfile(_ body: Data) -> Endpoint {
        Endpoint(path: "v2/me", method: .patch, body: body)
    }

    static func exchangeRates(base: String) -> Endpoint {
        Endpoint(path: "v1/rates", query: [URLQueryItem(name: "base", value: base)], requiresAuth: false)
    }

    static func merchants(near latitude: Double, _ longitude: Double) -> Endpoint {
        Endpoint(
            path: "v1/merchants/nearby",
            query: [
                URLQueryItem(name: "lat", value: String(format: "%.5f", latitude)),
                URLQueryItem(name: "lng", value: String(format: "%.5f", longitude)),
            ]
        )
    }
}

enum StaticURLs {
    static let privacyPolicy = URL(string: "https://ledgerly.example.com/legal/privacy")!
    static let termsOfService = URL(string: "https://ledgerly.example.com/legal/terms")!
    static let helpCenter = URL(string: "https://help.ledgerly.example.com/hc/en-us")!
    static let statusPage = URL(string: "http://status.ledgerly.example.com")!  // expect: cleartext-http
    static let statusPageSecure = URL(string: "https://status.ledgerly.example.com")!  // twin: cleartext-http
    static let merchantLogos = URL(string: "http://cdn.ledgerly.example.com/merchant-logos/")!  // expect: cleartext-http
    static let merchantLogosSecure = URL(string: "https://cdn.ledgerly.example.com/merchant-logos/")!  // twin: cleartext-http
    static let svgNamespace = "http://www.w3.org/2000/svg"  // twin: cleartext-http
    static let mockServer = URL(string: "http://127.0.0.1:9000")!  // twin: cleartext-http
}

struct Merchant: Codable, Identifiable, Hashable {
    enum Category: String, Codable {
        case groceries
        case transport
        case dining
        case utilities
        case entertainment
        case other
    }

    var id: String
    var name: String
    var category: Category
    var logoPath: String?
}

struct LedgerTransaction: Codable, Identifiable, Hashable {
    var id: String
    var accountID: String
    var amountMinor: Int64
    var currency: String
    var memo: String
    var bookedAt: Date
    var merchant: Merchant?

    var formattedAmount: String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.currencyCode = currency
        return formatter.string(from: NSNumber(value: Double(amountMinor) / 100)) ?? "\(amountMinor)"
    }
}
