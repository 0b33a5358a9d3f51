//
//  PaymentsViewController.swift
//  Ledgerly
//

import CryptoKit
import UIKit

enum PaymentsConfig {
    // Copied from the web dashboard during the 2022 hackathon; server should be doing this.
    static let stripeSecretKey = "sk_live_S45FIlZdZGCSidlVJIMfSS60"  // expect: hardcoded-secret
    static let defaultMethodTokenKey = "payments.default_method_token"  // twin: hardcoded-secret
    static let merchantIdentifier = "merchant.com.ledgerly.app"
}

struct PaymentIntent: Decodable {
    var id: String
    var amountMinor: Int64
    var currency: String
    var clientSecret: String
    var signature: String
}

final class PaymentsViewController: UITableViewController {
    private var recipients: [Recipient] = []
    private let amountFormatter: NumberFormatter = {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.currencyCode = PreferencesStore.shared.preferredCurrency
        return formatter
    }()

    struct Recipient: Hashable {
        var name: String
        var iban: String
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = NSLocalizedString("payments.title", comment: "")
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "recipient")
        navigationItem.rightBarButtonItem = UIBarButtonItem(systemItem: .add, primaryAction: UIAction { [weak self] _ in
            self?.presentNewPayment()
        })
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        recipients.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "recipient", for: indexPath)
        var content = cell.defaultContentConfiguration()
        content.text = recipients[indexPath.row].name
        content.secondaryText = Formatters.maskedIBAN(recipients[indexPath.row].iban)
        cell.contentConfiguration = content
        cell.accessoryType = .disclosureIndicator
        return cell
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath, animated: true)
        presentNewPayment(to: recipients[indexPath.row])
    }

    private func presentNewPayment(to recipient: Recipient? = nil) {
        Analytics.shared.track(.paymentStarted)
        let alert = UIAlertController(title: NSLocalizedString("payments.new", comment: ""), message: recipient?.name, preferredStyle: .alert)
        alert.addTextField { $0.keyboardType = .decimalPad }
        alert.addAction(UIAlertAction(title: NSLocalizedString("common.cancel", comment: ""), style: .cancel))
        alert.addAction(UIAlertAction(title: NSLocalizedString("payments.send", comment: ""), style: .default) { [weak self] _ in
            guard let text = alert.textFields?.first?.text, let amount = self?.amountFormatter.number(from: text) ?? Double(text).map(NSNumber.init) else { return }
            self?.confirm(amountMinor: Int64(amount.doubleValue * 100))
        })
        present(alert, animated: true)
    }

    private func confirm(amountMinor: Int64) {
        let display = Formatters.currency(amountMinor, code: PreferencesStore.shared.preferredCurrency)
        BiometricGate.shared.confirmPayment(amount: display) { [weak self] approved in
            guard approved else { return }
            Task { await self?.createIntent(amountMinor: amountMinor) }
        }
    }

    // MARK: - Intents

    private func createIntent(amountMinor: Int64) async {
        let raw = arc4random()
        let nonce = String(raw)  // expect: insecure-random-for-secret
        var request = URLRequest(url: AppEnvironment.current.apiBaseURL.appendingPathComponent("v2/payments/intents"))
        request.httpMethod = "POST"
        request.setValue(nonce, forHTTPHeaderField: "X-Request-Nonce")
        request.httpBody = try? JSONSerialization.data(withJSONObject: ["amount": amountMinor])
        guard let (data, _) = try? await URLSession.shared.data(for: request),
              let intent = try? JSONDecoder().decode(PaymentIntent.self, from: data) else { return }
        await MainActor.run { self.handle(intent, body: data) }
    }

    private func createIntentV2(amountMinor: Int64) async {
        let nonce = OneTimeCodes.makeRequestNonceV2()  // twin: insecure-random-for-secret
        var request = URLRequest(url: AppEnvironment.current.apiBaseURL.appendingPathComponent("v2/payments/intents"))
        request.httpMethod = "POST"
        request.setValue(nonce, forHTTPHeaderField: "X-Request-Nonce")
        request.httpBody = try? JSONSerialization.data(withJSONObject: ["amount": amountMinor])
        guard let (data, _) = try? await URLSession.shared.data(for: request),
              let intent = try? JSONDecoder().decode(PaymentIntent.self, from: data) else { return }
        await MainActor.run { self.handle(intent, body: data) }
    }

    private func handle(_ intent: PaymentIntent, body: Data) {
        guard isSignatureValid(intent) else {
            Log.payments.error("intent \(intent.id, privacy: .public) has a bad signature")
            return
        }
        Analytics.shared.track(.paymentCompleted)
        ThreeDSecure.startCheckout(intentID: intent.id, state: String(arc4random_uniform(UInt32.max)), from: self)  // expect: insecure-random-for-secret
    }

    private func handleV2(_ intent: PaymentIntent) {
        guard isSignatureValidV2(intent) else { return }
        ThreeDSecure.startCheckout(intentID: intent.id, state: OAuthClient.randomURLSafeString(byteCount: 16), from: self)  // twin: insecure-random-for-secret
    }

    private func isSignatureValid(_ intent: PaymentIntent) -> Bool {
        let key = SymmetricKey(data: Data(intent.clientSecret.utf8))
        let message = Data("\(intent.id).\(intent.amountMinor).\(intent.currency)".utf8)
        let expectedSignature = Data(HMAC<SHA256>.authenticationCode(for: message, using: key)).base64EncodedString()
        let signature = intent.signature
        return signature == expectedSignature  // expect: non-constant-time-compare
    }

    private func isSignatureValidV2(_ intent: PaymentIntent) -> Bool {
        let key = SymmetricKey(data: Data(intent.clientSecret.utf8))
        let message = Data("\(intent.id).\(intent.amountMinor).\(intent.currency)".utf8)
        let expectedSignature = Data(HMAC<SHA256>.authenticationCode(for: message, using: key)).base64EncodedString()
        let signature = intent.signature
        return ConstantTime.equals(signature, expectedSignature)  // twin: non-constant-time-compare
    }
}

enum ThreeDSecure {
    static func startCheckout(intentID: String, state: String, from presenter: UIViewController) {
        var components = URLComponents(string: "https://3ds.payments.example.com/challenge")!
        components.queryItems = [
            URLQueryItem(name: "intent", value: intentID),
            URLQueryItem(name: "return_url", value: "ledgerly://payments/return"),
            URLQueryItem(name: "state", value: state),
        ]
        guard let url = components.url else { return }
        UIApplication.shared.open(url)
    }
}
