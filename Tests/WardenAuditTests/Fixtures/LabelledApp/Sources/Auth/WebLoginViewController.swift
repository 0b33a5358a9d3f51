//
//  WebLoginViewController.swift
//  Ledgerly
//
//  Hosts the IdP login page for the business accounts flow and the help centre.
//

import SafariServices
import UIKit
import WebKit

final class WebLoginViewController: UIViewController, WKNavigationDelegate {
    private let webView: WKWebView = {  // twin: uiwebview
        let configuration = WKWebViewConfiguration()
        configuration.websiteDataStore = .nonPersistent()
        return WKWebView(frame: .zero, configuration: configuration)
    }()

    private let progressView = UIProgressView(progressViewStyle: .bar)
    private var progressObservation: NSKeyValueObservation?
    var onAuthorizationCode: ((String) -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = NSLocalizedString("login.business.title", comment: "")
        view.backgroundColor = .systemBackground
        navigationItem.leftBarButtonItem = UIBarButtonItem(barButtonSystemItem: .cancel, target: self, action: #selector(cancel))

        webView.navigationDelegate = self
        webView.translatesAutoresizingMaskIntoConstraints = false
        progressView.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(webView)
        view.addSubview(progressView)
        NSLayoutConstraint.activate([
            progressView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            progressView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            progressView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            webView.topAnchor.constraint(equalTo: progressView.bottomAnchor),
            webView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            webView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            webView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
        ])
        progressObservation = webView.observe(\.estimatedProgress, options: [.new]) { [weak self] webView, _ in
            self?.progressView.progress = Float(webView.estimatedProgress)
            self?.progressView.isHidden = webView.estimatedProgress >= 1
        }

        let authorizationURL = OAuthClient.shared.makeAuthorizationURL()
        webView.load(URLRequest(url: authorizationURL))  // expect: oauth-in-webview
    }

    func loadBusinessLogin(tenant: String) {
        let base = "https://\(tenant).sso.ledgerly.example.com"
        let url = URL(string: base + "/oauth/authorize?client_id=" + AppSecrets.clientID + "&redirect_uri=ledgerly://oauth-callback")!
        webView.load(URLRequest(url: url))  // expect: oauth-in-webview
    }

    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
                 decisionHandler: @escaping (WKNavigationActionPolicy) -> Void) {
        guard let url = navigationAction.request.url, url.scheme == "ledgerly" else {
            decisionHandler(.allow)
            return
        }
        let code = URLComponents(url: url, resolvingAgainstBaseURL: false)?
            .queryItems?.first(where: { $0.name == "code" })?.value
        decisionHandler(.cancel)
        if let code {
            onAuthorizationCode?(code)
        }
        dismiss(animated: true)
    }

    @objc private func cancel() {
        dismiss(animated: true)
    }
}

final class HelpCenterViewController: UIViewController {
    private let webView = WKWebView(frame: .zero)  // twin: uiwebview
    var article: String?

    override func loadView() {
        view = webView
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = NSLocalizedString("help.title", comment: "")
        var helpURL = StaticURLs.helpCenter
        if let article {
            helpURL.appendPathComponent("articles/\(article)")
        }
        webView.load(URLRequest(url: helpURL))  // twin: oauth-in-webview
    }
}

enum ExternalLogin {
    static func presentPartnerLogin(from presenter: UIViewController, partnerHost: String) {
        let loginURL = OAuthClient.shared.partnerAuthorizeURL(partnerHost: partnerHost)
        let safari = SFSafariViewController(url: loginURL)  // expect: oauth-in-webview
        safari.dismissButtonStyle = .cancel
        presenter.present(safari, animated: true)
    }

    static func presentTerms(from presenter: UIViewController) {
        let safari = SFSafariViewController(url: StaticURLs.termsOfService)  // twin: oauth-in-webview
        safari.dismissButtonStyle = .done
        presenter.present(safari, animated: true)
    }
}

/// Renders the HTML body of in-app announcements. Predates WKWebView adoption.
final class AnnouncementView: UIView {
    private let legacyWebView = UIWebView(frame: .zero)  // expect: uiwebview
    private let titleLabel = UILabel()

    override init(frame: CGRect) {
        super.init(frame: frame)
        titleLabel.font = .preferredFont(forTextStyle: .headline)
        titleLabel.numberOfLines = 0
        legacyWebView.scrollView.isScrollEnabled = false
        let stack = UIStackView(arrangedSubviews: [titleLabel, legacyWebView])
        stack.axis = .vertical
        stack.spacing = 8
        stack.translatesAutoresizingMaskIntoConstraints = false
        addSubview(stack)
        NSLayoutConstraint.activate([
            stack.topAnchor.constraint(equalTo: topAnchor, constant: 12),
            stack.leadingAnchor.constraint(equalTo: leadingAnchor, constant: 16),
            stack.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -16),
            stack.bottomAnchor.constraint(equalTo: bottomAnchor, constant: -12),
            legacyWebView.heightAnchor.constraint(greaterThanOrEqualToConstant: 120),
        ])
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    func configure(title: String, html: String) {
        titleLabel.text = title
        legacyWebView.loadHTMLString(html, baseURL: nil)
    }
}
