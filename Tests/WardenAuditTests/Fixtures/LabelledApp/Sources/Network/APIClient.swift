//
//  APIClient.swift
//  Ledgerly
//

import Alamofire
import Foundation

enum APIError: Error, LocalizedError {
    case unauthorized
    case server(status: Int)
    case decoding(Error)
    case transport(Error)

    var errorDescription: String? {
        switch self {
        case .unauthorized: return NSLocalizedString("error.unauthorized", comment: "")
        case .server(let status): return String(format: NSLocalizedString("error.server", comment: ""), status)
        case .decoding: return NSLocalizedString("error.decoding", comment: "")
        case .transport(let error): return error.localizedDescription
        }
    }
}

final class APIClient {
    static let shared = APIClient(baseURL: AppEnvironment.current.apiBaseURL, tokens: SessionStore.shared)

    private let baseURL: URL
    private let session: URLSession
    private let tokens: TokenProviding
    private let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    init(baseURL: URL, tokens: TokenProviding, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.tokens = tokens
        self.session = session
    }

    func send<Response: Decodable>(_ endpoint: Endpoint, as type: Response.Type = Response.self) async throws -> Response {
        var request = URLRequest(url: endpoint.url(relativeTo: baseURL))
        request.httpMethod = endpoint.method.rawValue
        request.httpBody = endpoint.body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(Locale.preferredLanguages.first ?? "en", forHTTPHeaderField: "Accept-Language")
        if endpoint.requiresAuth, let token = tokens.accessToken {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")  // twin: token-in-url
        }

        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw APIError.transport(error)
        }
        guard let http = response as? HTTPURLResponse else { throw APIError.server(status: -1) }
        switch http.statusCode {
        case 200..<300:
            do {
                return try decoder.decode(Response.self, from: data)
            } catch {
                throw APIError.decoding(error)
            }
        case 401:
            NotificationCenter.default.post(name: .sessionDidExpire, object: nil)
            throw APIError.unauthorized
        default:
            throw APIError.server(status: http.statusCode)
        }
    }

    // MARK: - Legacy feed (v1 still wants the token in the query string)

    func legacyFeedURL(token: String) -> URL {
        URL(string: "https://api.ledgerly.example.com/v1/feed?access_token=\(token)")!  // expect: token-in-url
    }

    func legacyFeedRequest(token: String) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.ledgerly.example.com/v1/feed")!)
        request.addValue("Bearer \(token)", forHTTPHeaderField: "Authorization")  // twin: token-in-url
        return request
    }

    func partnerOffersURL(apiKey: String, region: String) -> URL? {
        var components = URLComponents(string: "https://offers.partner.example.com/v3/offers")
        components?.queryItems = [
            URLQueryItem(name: "region", value: region),
            URLQueryItem(name: "api_key", value: apiKey),  // expect: token-in-url
        ]
        return components?.url
    }

    func partnerOffersRequest(apiKey: String, region: String) -> URLRequest? {
        var components = URLComponents(string: "https://offers.partner.example.com/v3/offers")
        components?.queryItems = [URLQueryItem(name: "region", value: region)]
        guard let url = components?.url else { return nil }
        var request = URLRequest(url: url)
        request.setValue(apiKey, forHTTPHeaderField: "X-Api-Key")  // twin: token-in-url
        return request
    }

    func exchangeRatesURL() -> URL {
        URL(string: "http://rates.ledgerly.example.com/v1/latest?base=EUR")!  // expect: cleartext-http
    }

    func exchangeRatesURLSecure() -> URL {
        URL(string: "https://rates.ledgerly.example.com/v1/latest?base=EUR")!  // twin: cleartext-http
    }
}

protocol TokenProviding: AnyObject {
    var accessToken: String? { get }
}

// MARK: - Alamofire session for the receipts service

enum ReceiptsNetworking {
    static let stagingSession: Session = {
        let evaluators: [String: ServerTrustEvaluating] = [
            "receipts-staging.ledgerly.example.com": DisabledTrustEvaluator(),  // expect: trust-all-certificates
        ]
        return Session(serverTrustManager: ServerTrustManager(evaluators: evaluators))
    }()

    static let productionSession: Session = {
        let evaluators: [String: ServerTrustEvaluating] = [
            "receipts.ledgerly.example.com": PinnedCertificatesTrustEvaluator(),  // twin: trust-all-certificates
        ]
        return Session(serverTrustManager: ServerTrustManager(evaluators: evaluators))
    }()

    static func upload(receipt: Data, transactionID: String, token: String) -> UploadRequest {
        let headers: HTTPHeaders = [.authorization(bearerToken: token), .contentType("image/jpeg")]
        return productionSession.upload(
            receipt,
            to: "https://receipts.ledgerly.example.com/v1/transactions/\(transactionID)/receipt",
            headers: headers
        )
    }
}

// MARK: - Analytics (non-secret payloads)

final class Analytics {
    static let shared = Analytics()
    private var environment: AppEnvironment = .production
    private var queue: [[String: Any]] = []
    private let endpoint = URL(string: "https://events.ledgerly.example.com/v1/batch")!

    func configure(environment: AppEnvironment) {
        self.environment = environment
    }

    func track(_ name: String, properties: [String: Any] = [:]) {
        var event = properties
        event["name"] = name
        event["ts"] = Date().timeIntervalSince1970
        event["env"] = environment.rawValue
        queue.append(event)
        if queue.count >= 20 { flush() }
    }

    func track(_ event: AnalyticsEvent) {
        track(event.rawValue)
    }

    func flush() {
        guard !queue.isEmpty, let body = try? JSONSerialization.data(withJSONObject: ["events": queue]) else { return }
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        queue.removeAll()
        let jitter = Double.random(in: 0...0.5)  // twin: insecure-random-for-secret
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + jitter) {
            URLSession.shared.dataTask(with: request).resume()
        }
    }
}
