//
//  SignUpViewController.swift
//  Ledgerly
//

import UIKit

final class SignUpViewController: UIViewController, UITextFieldDelegate {
    private let scrollView = UIScrollView()
    private let stack = UIStackView()
    private let emailField = UITextField()
    private let nameField = UITextField()
    private let passwordField = UITextField()
    private let confirmField = UITextField()
    private let rememberSwitch = UISwitch()
    private let strengthLabel = UILabel()
    private let submitButton = UIButton(configuration: .filled())
    private let termsLabel = UILabel()
    private let rememberLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = NSLocalizedString("signup.title", comment: "")
        view.backgroundColor = .systemGroupedBackground
        configureFields()
        layout()
    }

    private func configureFields() {
        emailField.placeholder = NSLocalizedString("signup.email.placeholder", comment: "")
        emailField.keyboardType = .emailAddress
        emailField.textContentType = .emailAddress
        emailField.autocapitalizationType = .none

        nameField.placeholder = NSLocalizedString("signup.name.placeholder", comment: "")
        nameField.textContentType = .name

        passwordField.placeholder = NSLocalizedString("signup.password.placeholder", comment: "")
        passwordField.isSecureTextEntry = true  // twin: password-field-without-content-type
        passwordField.textContentType = .newPassword
        passwordField.passwordRules = UITextInputPasswordRules(descriptor: "minlength: 10; required: lower; required: upper; required: digit;")

        confirmField.placeholder = NSLocalizedString("signup.confirm.placeholder", comment: "")
        confirmField.isSecureTextEntry = true  // expect: password-field-without-content-type

        [emailField, nameField, passwordField, confirmField].forEach { field in
            field.borderStyle = .roundedRect
            field.delegate = self
            field.font = .preferredFont(forTextStyle: .body)
            field.adjustsFontForContentSizeCategory = true
            field.addTarget(self, action: #selector(fieldChanged), for: .editingChanged)
        }

        strengthLabel.font = .preferredFont(forTextStyle: .footnote)
        strengthLabel.textColor = .secondaryLabel
        termsLabel.numberOfLines = 0
        termsLabel.font = .preferredFont(forTextStyle: .caption1)
        termsLabel.text = NSLocalizedString("signup.terms", comment: "")
        rememberLabel.text = NSLocalizedString("signup.remember", comment: "")

        submitButton.configuration?.title = NSLocalizedString("signup.submit", comment: "")
        submitButton.addTarget(self, action: #selector(submit), for: .touchUpInside)
        submitButton.isEnabled = false
    }

    private func layout() {
        let rememberRow = UIStackView(arrangedSubviews: [rememberLabel, rememberSwitch])
        rememberRow.axis = .horizontal
        stack.axis = .vertical
        stack.spacing = 12
        [emailField, nameField, passwordField, strengthLabel, confirmField, rememberRow, submitButton, termsLabel].forEach(stack.addArrangedSubview)
        scrollView.translatesAutoresizingMaskIntoConstraints = false
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(scrollView)
        scrollView.addSubview(stack)
        NSLayoutConstraint.activate([
            scrollView.topAnchor.constraint(equalTo: view.topAnchor),
            scrollView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            scrollView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            scrollView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            stack.topAnchor.constraint(equalTo: scrollView.contentLayoutGuide.topAnchor, constant: 24),
            stack.leadingAnchor.constraint(equalTo: scrollView.frameLayoutGuide.leadingAnchor, constant: 20),
            stack.trailingAnchor.constraint(equalTo: scrollView.frameLayoutGuide.trailingAnchor, constant: -20),
            stack.bottomAnchor.constraint(equalTo: scrollView.contentLayoutGuide.bottomAnchor, constant: -24),
        ])
    }

    @objc private func fieldChanged() {
        let password = passwordField.text ?? ""
        let confirmPassword = confirmField.text ?? ""
        strengthLabel.text = password.count >= 10 ? nil : NSLocalizedString("password.tooShort", comment: "")
        let matches = password == confirmPassword  // twin: non-constant-time-compare
        submitButton.isEnabled = matches && password.count >= 10 && (emailField.text?.contains("@") ?? false)
    }

    @objc private func submit() {
        guard let email = emailField.text, let password = passwordField.text else { return }
        if rememberSwitch.isOn {
            let defaults = UserDefaults.standard
            defaults.setValue(passwordField.text, forKey: "savedPassword")  // expect: secret-in-user-defaults
            defaults.setValue(emailField.text, forKey: PreferenceKey.lastUsername)  // twin: secret-in-user-defaults
        }
        submitButton.isEnabled = false
        Task {
            do {
                try await SignUpService().register(email: email, name: nameField.text ?? "", password: password)
                navigationController?.popToRootViewController(animated: true)
            } catch {
                presentError(error)
                submitButton.isEnabled = true
            }
        }
    }

    private func presentError(_ error: Error) {
        let alert = UIAlertController(title: NSLocalizedString("signup.error.title", comment: ""), message: error.localizedDescription, preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: NSLocalizedString("common.ok", comment: ""), style: .default))
        present(alert, animated: true)
    }
}

struct SignUpService {
    func register(email: String, name: String, password: String) async throws {
        var request = URLRequest(url: AppEnvironment.current.apiBaseURL.appendingPathComponent(AuthRoute.signUp.rawValue))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["email": email, "name": name, "password": password])
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 201 else { throw APIError.server(status: (response as? HTTPURLResponse)?.statusCode ?? -1) }
    }
}
