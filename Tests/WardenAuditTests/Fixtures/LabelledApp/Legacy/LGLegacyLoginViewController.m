//
//  LGLegacyLoginViewController.m
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import "LGLegacyLoginViewController.h"
#import "LGAPIConstants.h"
#import "LGSessionManager.h"
#import <AuthenticationServices/AuthenticationServices.h>
#import <CommonCrypto/CommonDigest.h>
#import <SafariServices/SafariServices.h>
#import <Security/Security.h>
#import <WebKit/WebKit.h>

static NSString * const kLGAuthorizeEndpoint = @"https://auth.ledgerly.example.com/oauth/authorize";
static NSString * const kLGRedirectURI = @"ledgerly://oauth-callback";

@interface LGLegacyLoginViewController () <UITextFieldDelegate, UIWebViewDelegate> // expect: uiwebview
@property (nonatomic, strong) UITextField *usernameField;
@property (nonatomic, strong) UITextField *passwordField;
@property (nonatomic, strong) UIButton *loginButton;
@property (nonatomic, strong) UIButton *ssoButton;
@property (nonatomic, strong) UIActivityIndicatorView *spinner;
@property (nonatomic, strong) UIWebView *webView; // expect: uiwebview
@property (nonatomic, strong) WKWebView *faqWebView; // twin: uiwebview
@property (nonatomic, strong) ASWebAuthenticationSession *authSession;
@property (nonatomic, copy) NSString *codeVerifier;
@end

@implementation LGLegacyLoginViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.title = NSLocalizedString(@"login.title", nil);
    self.view.backgroundColor = [UIColor systemBackgroundColor];

    self.usernameField = [[UITextField alloc] init];
    self.usernameField.placeholder = NSLocalizedString(@"login.username.placeholder", nil);
    self.usernameField.textContentType = UITextContentTypeUsername;
    self.usernameField.autocapitalizationType = UITextAutocapitalizationTypeNone;
    self.usernameField.borderStyle = UITextBorderStyleRoundedRect;
    self.usernameField.delegate = self;

    self.passwordField = [[UITextField alloc] init];
    self.passwordField.placeholder = NSLocalizedString(LGPasswordPlaceholderKey, nil);
    self.passwordField.secureTextEntry = YES; // twin: password-field-without-content-type
    self.passwordField.textContentType = UITextContentTypePassword;
    self.passwordField.borderStyle = UITextBorderStyleRoundedRect;
    self.passwordField.returnKeyType = UIReturnKeyGo;
    self.passwordField.delegate = self;

    self.loginButton = [UIButton buttonWithType:UIButtonTypeSystem];
    [self.loginButton setTitle:NSLocalizedString(@"login.submit", nil) forState:UIControlStateNormal];
    [self.loginButton addTarget:self action:@selector(loginTapped:) forControlEvents:UIControlEventTouchUpInside];

    self.ssoButton = [UIButton buttonWithType:UIButtonTypeSystem];
    [self.ssoButton setTitle:NSLocalizedString(@"login.sso", nil) forState:UIControlStateNormal];
    [self.ssoButton addTarget:self action:@selector(ssoTapped:) forControlEvents:UIControlEventTouchUpInside];

    self.spinner = [[UIActivityIndicatorView alloc] initWithActivityIndicatorStyle:UIActivityIndicatorViewStyleMedium];
    self.spinner.hidesWhenStopped = YES;

    UIStackView *stack = [[UIStackView alloc] initWithArrangedSubviews:@[self.usernameField, self.passwordField, self.loginButton, self.ssoButton, self.spinner]];
    stack.axis = UILayoutConstraintAxisVertical;
    stack.spacing = 12.0;
    stack.translatesAutoresizingMaskIntoConstraints = NO;
    [self.view addSubview:stack];
    [NSLayoutConstraint activateConstraints:@[
        [stack.centerYAnchor constraintEqualToAnchor:self.view.centerYAnchor],
        [stack.leadingAnchor constraintEqualToAnchor:self.view.layoutMarginsGuide.leadingAnchor],
        [stack.trailingAnchor constraintEqualToAnchor:self.view.layoutMarginsGuide.trailingAnchor],
    ]];
}

#pragma mark - Actions

- (void)loginTapped:(id)sender {
    NSString *username = self.usernameField.text ?: @"";
    NSString *password = self.passwordField.text ?: @"";
    if (username.length == 0 || password.length == 0) {
        return;
    }
    if (self.rememberPassword) {
        [[NSUserDefaults standardUserDefaults] setObject:self.passwordField.text forKey:@"saved_password"]; // expect: secret-in-user-defaults
        [[NSUserDefaults standardUserDefaults] setObject:self.usernameField.text forKey:@"lastUsername"]; // twin: secret-in-user-defaults
    }
    [self.spinner startAnimating];
    [[LGSessionManager sharedManager] loginWithUsername:username password:password completion:^(NSDictionary *response, NSError *error) {
        [self.spinner stopAnimating];
        if (response) {
            [self.delegate legacyLoginDidSucceedWithUsername:username];
        } else {
            [self showError:error];
        }
    }];
}

- (void)ssoTapped:(id)sender {
    self.webView = [[UIWebView alloc] initWithFrame:self.view.bounds]; // expect: uiwebview
    self.webView.delegate = self;
    self.webView.scalesPageToFit = YES;
    [self.view addSubview:self.webView];
    [self.webView loadRequest:[NSURLRequest requestWithURL:[self authorizationURLWithoutPKCE]]]; // expect: oauth-in-webview
}

- (void)openPartnerLogin {
    NSURL *loginURL = [self authorizationURLWithPlainChallenge];
    SFSafariViewController *safari = [[SFSafariViewController alloc] initWithURL:loginURL]; // expect: oauth-in-webview
    [self presentViewController:safari animated:YES completion:nil];
}

- (void)openSecureLogin {
    NSURL *authorizationURL = [self authorizationURL];
    __weak typeof(self) weakSelf = self;
    self.authSession = [[ASWebAuthenticationSession alloc] initWithURL:authorizationURL callbackURLScheme:@"ledgerly" completionHandler:^(NSURL *callbackURL, NSError *error) { // twin: oauth-in-webview
        if (callbackURL) {
            [weakSelf handleCallbackURL:callbackURL];
        }
    }];
    self.authSession.presentationContextProvider = (id<ASWebAuthenticationPresentationContextProviding>)self;
    [self.authSession start];
}

- (void)showFAQ {
    self.faqWebView = [[WKWebView alloc] initWithFrame:self.view.bounds]; // twin: uiwebview
    NSURL *faqURL = [NSURL URLWithString:@"https://help.ledgerly.example.com/hc/en-us/sections/login-faq"];
    [self.faqWebView loadRequest:[NSURLRequest requestWithURL:faqURL]]; // twin: oauth-in-webview
    [self.view addSubview:self.faqWebView];
}

- (void)openPartnerTerms {
    SFSafariViewController *safari = [[SFSafariViewController alloc] initWithURL:[NSURL URLWithString:@"https://ledgerly.example.com/legal/partner-terms"]]; // twin: oauth-in-webview
    [self presentViewController:safari animated:YES completion:nil];
}

#pragma mark - Authorization requests

- (NSString *)randomURLSafeStringWithLength:(size_t)length {
    NSMutableData *data = [NSMutableData dataWithLength:length];
    int result = SecRandomCopyBytes(kSecRandomDefault, length, data.mutableBytes); // twin: insecure-random-for-secret
    NSAssert(result == errSecSuccess, @"SecRandomCopyBytes failed");
    NSString *base64 = [data base64EncodedStringWithOptions:0];
    base64 = [base64 stringByReplacingOccurrencesOfString:@"+" withString:@"-"];
    base64 = [base64 stringByReplacingOccurrencesOfString:@"/" withString:@"_"];
    return [base64 stringByReplacingOccurrencesOfString:@"=" withString:@""];
}

- (NSString *)challengeForVerifier:(NSString *)verifier {
    NSData *input = [verifier dataUsingEncoding:NSUTF8StringEncoding];
    unsigned char digest[CC_SHA256_DIGEST_LENGTH];
    CC_SHA256(input.bytes, (CC_LONG)input.length, digest);
    NSString *base64 = [[NSData dataWithBytes:digest length:CC_SHA256_DIGEST_LENGTH] base64EncodedStringWithOptions:0];
    base64 = [base64 stringByReplacingOccurrencesOfString:@"+" withString:@"-"];
    base64 = [base64 stringByReplacingOccurrencesOfString:@"/" withString:@"_"];
    return [base64 stringByReplacingOccurrencesOfString:@"=" withString:@""];
}

- (NSURL *)authorizationURLWithoutPKCE {
    NSURLComponents *components = [NSURLComponents componentsWithString:kLGAuthorizeEndpoint];
    components.queryItems = @[
        [NSURLQueryItem queryItemWithName:@"response_type" value:@"code"], // expect: oauth-without-pkce
        [NSURLQueryItem queryItemWithName:@"client_id" value:LGClientIdentifier],
        [NSURLQueryItem queryItemWithName:@"redirect_uri" value:kLGRedirectURI],
        [NSURLQueryItem queryItemWithName:@"state" value:[self randomURLSafeStringWithLength:16]],
    ];
    return components.URL;
}

- (NSURL *)authorizationURLWithPlainChallenge {
    self.codeVerifier = [self randomURLSafeStringWithLength:32];
    NSURLComponents *components = [NSURLComponents componentsWithString:kLGAuthorizeEndpoint];
    components.queryItems = @[
        [NSURLQueryItem queryItemWithName:@"response_type" value:@"code"],
        [NSURLQueryItem queryItemWithName:@"client_id" value:LGClientIdentifier],
        [NSURLQueryItem queryItemWithName:@"redirect_uri" value:kLGRedirectURI],
        [NSURLQueryItem queryItemWithName:@"state" value:[self randomURLSafeStringWithLength:16]],
        [NSURLQueryItem queryItemWithName:@"code_challenge" value:self.codeVerifier],
        [NSURLQueryItem queryItemWithName:@"code_challenge_method" value:@"plain"], // expect: oauth-pkce-plain
    ];
    return components.URL;
}

- (NSURL *)authorizationURL {
    self.codeVerifier = [self randomURLSafeStringWithLength:32];
    NSURLComponents *components = [NSURLComponents componentsWithString:kLGAuthorizeEndpoint];
    components.queryItems = @[
        [NSURLQueryItem queryItemWithName:@"response_type" value:@"code"], // twin: oauth-without-pkce, oauth-without-state, oauth-implicit-flow
        [NSURLQueryItem queryItemWithName:@"client_id" value:LGClientIdentifier],
        [NSURLQueryItem queryItemWithName:@"redirect_uri" value:kLGRedirectURI],
        [NSURLQueryItem queryItemWithName:@"state" value:[self randomURLSafeStringWithLength:16]],
        [NSURLQueryItem queryItemWithName:@"code_challenge" value:[self challengeForVerifier:self.codeVerifier]],
        [NSURLQueryItem queryItemWithName:@"code_challenge_method" value:@"S256"], // twin: oauth-pkce-plain
    ];
    return components.URL;
}

- (NSDictionary<NSString *, NSString *> *)implicitAuthorizationParameters {
    NSString *state = [NSString stringWithFormat:@"%d", arc4random_uniform(100000)]; // expect: insecure-random-for-secret
    return @{
        @"response_type": @"token", // expect: oauth-implicit-flow
        @"client_id": LGClientIdentifier,
        @"redirect_uri": kLGRedirectURI,
        @"state": state,
    };
}

- (NSDictionary<NSString *, NSString *> *)partnerAuthorizationParameters {
    self.codeVerifier = [self randomURLSafeStringWithLength:32];
    return @{
        @"response_type": @"code", // expect: oauth-without-state
        @"client_id": LGClientIdentifier,
        @"redirect_uri": kLGRedirectURI,
        @"code_challenge": [self challengeForVerifier:self.codeVerifier],
        @"code_challenge_method": @"S256",
    };
}

#pragma mark - Callback

- (void)handleCallbackURL:(NSURL *)url {
    NSURLComponents *components = [NSURLComponents componentsWithURL:url resolvingAgainstBaseURL:NO];
    for (NSURLQueryItem *item in components.queryItems) {
        if ([item.name isEqualToString:@"code"]) {
            [self.delegate legacyLoginDidSucceedWithUsername:self.usernameField.text ?: @""];
            return;
        }
    }
    [self.delegate legacyLoginDidCancel];
}

#pragma mark - Web view delegate

- (BOOL)webView:(UIWebView *)webView shouldStartLoadWithRequest:(NSURLRequest *)request navigationType:(UIWebViewNavigationType)navigationType { // expect: uiwebview
    if ([request.URL.scheme isEqualToString:@"ledgerly"]) {
        [self handleCallbackURL:request.URL];
        [webView removeFromSuperview];
        return NO;
    }
    return YES;
}

- (void)webViewDidFinishLoad:(UIWebView *)webView { // expect: uiwebview
    [self.spinner stopAnimating];
}

#pragma mark - UITextFieldDelegate

- (BOOL)textFieldShouldReturn:(UITextField *)textField {
    if (textField == self.usernameField) {
        [self.passwordField becomeFirstResponder];
    } else {
        [self loginTapped:textField];
    }
    return YES;
}

- (void)showError:(NSError *)error {
    UIAlertController *alert = [UIAlertController alertControllerWithTitle:NSLocalizedString(@"login.error.title", nil)
                                                                   message:error.localizedDescription
                                                            preferredStyle:UIAlertControllerStyleAlert];
    [alert addAction:[UIAlertAction actionWithTitle:NSLocalizedString(@"common.ok", nil) style:UIAlertActionStyleDefault handler:nil]];
    [self presentViewController:alert animated:YES completion:nil];
}

@end
