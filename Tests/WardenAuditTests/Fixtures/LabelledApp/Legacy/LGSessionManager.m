//
//  LGSessionManager.m
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import "LGSessionManager.h"
#import "LGAPIConstants.h"
#import "LGKeychainWrapper.h"
#import <AFNetworking/AFNetworking.h>
#import <CocoaLumberjack/CocoaLumberjack.h>
#import <os/log.h>

static const DDLogLevel ddLogLevel = DDLogLevelDebug;
static NSString * const kLGThemeDefaultsKey = @"theme";

@interface LGSessionManager ()
@property (nonatomic, strong, readwrite) NSURLSession *session;
@property (nonatomic, strong) AFHTTPSessionManager *httpManager;
@property (nonatomic, strong) AFHTTPSessionManager *reportsManager;
@end

@implementation LGSessionManager

+ (instancetype)sharedManager {
    static LGSessionManager *manager;
    static dispatch_once_t onceToken;
    dispatch_once(&onceToken, ^{
        manager = [[LGSessionManager alloc] init];
    });
    return manager;
}

- (instancetype)init {
    self = [super init];
    if (self) {
        NSURLSessionConfiguration *configuration = [NSURLSessionConfiguration defaultSessionConfiguration];
        configuration.timeoutIntervalForRequest = LG_REQUEST_TIMEOUT;
        configuration.HTTPAdditionalHeaders = @{ @"User-Agent": @"Ledgerly-Legacy/3.9" };
        _session = [NSURLSession sessionWithConfiguration:configuration delegate:self delegateQueue:nil];
        [self configureHTTPManagers];
        _accessToken = [[NSUserDefaults standardUserDefaults] stringForKey:LGTokenDefaultsKey];
        _selectedTheme = [[NSUserDefaults standardUserDefaults] stringForKey:kLGThemeDefaultsKey];
    }
    return self;
}

- (void)configureHTTPManagers {
    NSURL *baseURL = [NSURL URLWithString:LGAPISecureBaseURLString];

    self.httpManager = [[AFHTTPSessionManager alloc] initWithBaseURL:baseURL];
    self.httpManager.requestSerializer = [AFJSONRequestSerializer serializer];
    AFSecurityPolicy *policy = [AFSecurityPolicy policyWithPinningMode:AFSSLPinningModePublicKey];
    policy.allowInvalidCertificates = NO; // twin: trust-all-certificates
    policy.validatesDomainName = YES; // twin: trust-all-certificates
    self.httpManager.securityPolicy = policy;

    // The reports host still serves the vendor's self-signed certificate.
    self.reportsManager = [[AFHTTPSessionManager alloc] initWithBaseURL:[NSURL URLWithString:@"https://reports.ledgerly.example.com"]];
    AFSecurityPolicy *reportsPolicy = [AFSecurityPolicy policyWithPinningMode:AFSSLPinningModeNone];
    reportsPolicy.allowInvalidCertificates = YES; // expect: trust-all-certificates
    reportsPolicy.validatesDomainName = NO; // expect: trust-all-certificates
    self.reportsManager.securityPolicy = reportsPolicy;
}

#pragma mark - Login

- (void)loginWithUsername:(NSString *)username password:(NSString *)password completion:(LGSessionCompletion)completion {
    NSLog(@"Logging in %@", username); // twin: secret-in-log
    DDLogDebug(@"login attempt user=%@ pw=%@", username, password); // expect: secret-in-log
    DDLogDebug(@"login attempt user=%@ pwLength=%lu", username, (unsigned long)password.length); // twin: secret-in-log

    NSURLComponents *body = [[NSURLComponents alloc] init];
    body.queryItems = @[
        [NSURLQueryItem queryItemWithName:@"grant_type" value:@"password"], // expect: oauth-password-grant
        [NSURLQueryItem queryItemWithName:@"username" value:username],
        [NSURLQueryItem queryItemWithName:@"password" value:password], // twin: token-in-url
        [NSURLQueryItem queryItemWithName:@"client_id" value:LGClientIdentifier],
    ];
    [self postTokenRequestWithBody:body.percentEncodedQuery completion:^(NSDictionary *response, NSError *error) {
        if (response) {
            self.username = username;
            self.accessToken = response[@"access_token"];
            self.refreshToken = response[@"refresh_token"];
            NSLog(@"Got access token %@", self.accessToken); // expect: secret-in-log
            NSLog(@"Signed in as %@", username); // twin: secret-in-log
            [[LGKeychainWrapper sharedWrapper] setSessionTokenThisDeviceOnly:self.accessToken];
            [self persistSession];
        }
        completion(response, error);
    }];
}

- (void)refreshWithCompletion:(LGSessionCompletion)completion {
    NSURLComponents *body = [[NSURLComponents alloc] init];
    body.queryItems = @[
        [NSURLQueryItem queryItemWithName:@"grant_type" value:@"refresh_token"], // twin: oauth-password-grant
        [NSURLQueryItem queryItemWithName:@"refresh_token" value:self.refreshToken ?: @""], // twin: token-in-url
        [NSURLQueryItem queryItemWithName:@"client_id" value:LGClientIdentifier],
    ];
    [self postTokenRequestWithBody:body.percentEncodedQuery completion:^(NSDictionary *response, NSError *error) {
        if (response[@"access_token"]) {
            self.accessToken = response[@"access_token"];
            os_log_debug(OS_LOG_DEFAULT, "refreshed token %{public}@", self.accessToken); // expect: secret-in-log
            os_log_debug(OS_LOG_DEFAULT, "refreshed token %{private}@", self.accessToken); // twin: secret-in-log
#if DEBUG
            NSLog(@"refresh response %@", response); // twin: secret-in-log
#endif
        }
        completion(response, error);
    }];
}

- (void)postTokenRequestWithBody:(NSString *)body completion:(LGSessionCompletion)completion {
    NSURL *url = [NSURL URLWithString:[LGAPISecureBaseURLString stringByAppendingString:@"/oauth/token"]];
    NSMutableURLRequest *request = [NSMutableURLRequest requestWithURL:url];
    request.HTTPMethod = @"POST";
    [request setValue:@"application/x-www-form-urlencoded" forHTTPHeaderField:@"Content-Type"];
    request.HTTPBody = [body dataUsingEncoding:NSUTF8StringEncoding];
    [[self.session dataTaskWithRequest:request completionHandler:^(NSData *data, NSURLResponse *response, NSError *error) {
        NSDictionary *json = data ? [NSJSONSerialization JSONObjectWithData:data options:0 error:nil] : nil;
        dispatch_async(dispatch_get_main_queue(), ^{
            completion(json, error);
        });
    }] resume];
}

#pragma mark - Profile

- (NSURL *)legacyProfileURL {
    NSString *urlString = [NSString stringWithFormat:@"https://legacy-api.ledgerly.example.com/v1/profile?token=%@", self.accessToken]; // expect: token-in-url
    return [NSURL URLWithString:urlString];
}

- (NSURLRequest *)profileRequest {
    NSMutableURLRequest *request = [NSMutableURLRequest requestWithURL:[NSURL URLWithString:@"https://legacy-api.ledgerly.example.com/v1/profile"]];
    [request setValue:[NSString stringWithFormat:@"Bearer %@", self.accessToken] forHTTPHeaderField:@"Authorization"]; // twin: token-in-url
    return request;
}

- (NSURL *)statementsExportURL {
    NSURLComponents *components = [NSURLComponents componentsWithString:@"https://legacy-api.ledgerly.example.com/v1/statements/export"];
    components.queryItems = @[
        [NSURLQueryItem queryItemWithName:@"format" value:@"csv"],
        [NSURLQueryItem queryItemWithName:@"access_token" value:self.accessToken], // expect: token-in-url
    ];
    return components.URL;
}

- (void)fetchProfileWithCompletion:(LGSessionCompletion)completion {
    [[self.session dataTaskWithRequest:[self profileRequest] completionHandler:^(NSData *data, NSURLResponse *response, NSError *error) {
        NSDictionary *json = data ? [NSJSONSerialization JSONObjectWithData:data options:0 error:nil] : nil;
        dispatch_async(dispatch_get_main_queue(), ^{
            completion(json, error);
        });
    }] resume];
}

- (void)fetchLegacyBanners {
    NSURL *url = [NSURL URLWithString:@"http://legacy-api.ledgerly.example.com/v1/banners"]; // expect: cleartext-http
    [[self.session dataTaskWithURL:url] resume];
}

- (void)fetchLegacyBannersSecure {
    NSURL *url = [NSURL URLWithString:@"https://legacy-api.ledgerly.example.com/v1/banners"]; // twin: cleartext-http
    [[self.session dataTaskWithURL:url] resume];
}

#pragma mark - Persistence

- (void)persistSession {
    [[NSUserDefaults standardUserDefaults] setObject:self.accessToken forKey:LGTokenDefaultsKey]; // expect: secret-in-user-defaults
    [[NSUserDefaults standardUserDefaults] setObject:self.username forKey:@"lastUsername"]; // twin: secret-in-user-defaults
    [[NSUserDefaults standardUserDefaults] synchronize];
}

- (void)persistPreferences {
    NSUserDefaults *defaults = [NSUserDefaults standardUserDefaults];
    [defaults setObject:self.selectedTheme forKey:kLGThemeDefaultsKey]; // twin: secret-in-user-defaults
    [defaults setObject:self.refreshToken forKey:@"refresh_token"]; // expect: secret-in-user-defaults
    [defaults setBool:YES forKey:@"onboardingDone"];
}

- (void)syncSessionToCloud {
    NSUbiquitousKeyValueStore *store = [NSUbiquitousKeyValueStore defaultStore];
    [store setString:self.refreshToken forKey:@"legacy_refresh_token"]; // expect: secret-in-icloud-kvs
    [store synchronize];
}

- (void)syncPreferencesToCloud {
    NSUbiquitousKeyValueStore *store = [NSUbiquitousKeyValueStore defaultStore];
    [store setString:self.selectedTheme forKey:kLGThemeDefaultsKey]; // twin: secret-in-icloud-kvs
    [store synchronize];
}

- (void)logout {
    [[NSUserDefaults standardUserDefaults] removeObjectForKey:LGTokenDefaultsKey];
    [[LGKeychainWrapper sharedWrapper] removeItemForAccount:@"session_token"];
    self.accessToken = nil;
    self.refreshToken = nil;
    DDLogInfo(@"logged out %@", self.username);
}

#pragma mark - NSURLSessionDelegate

- (void)URLSession:(NSURLSession *)session
    didReceiveChallenge:(NSURLAuthenticationChallenge *)challenge
      completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))completionHandler {
    if ([challenge.protectionSpace.authenticationMethod isEqualToString:NSURLAuthenticationMethodServerTrust]) {
        completionHandler(NSURLSessionAuthChallengeUseCredential, [NSURLCredential credentialForTrust:challenge.protectionSpace.serverTrust]); // expect: trust-all-certificates
        return;
    }
    completionHandler(NSURLSessionAuthChallengePerformDefaultHandling, nil);
}

@end

@implementation LGPinnedSessionDelegate

- (void)URLSession:(NSURLSession *)session
    didReceiveChallenge:(NSURLAuthenticationChallenge *)challenge
      completionHandler:(void (^)(NSURLSessionAuthChallengeDisposition, NSURLCredential *))completionHandler {
    SecTrustRef serverTrust = challenge.protectionSpace.serverTrust;
    if (![challenge.protectionSpace.authenticationMethod isEqualToString:NSURLAuthenticationMethodServerTrust] || serverTrust == NULL) {
        completionHandler(NSURLSessionAuthChallengePerformDefaultHandling, nil);
        return;
    }
    CFErrorRef error = NULL;
    if (!SecTrustEvaluateWithError(serverTrust, &error)) {
        if (error) {
            CFRelease(error);
        }
        completionHandler(NSURLSessionAuthChallengeCancelAuthenticationChallenge, nil);
        return;
    }
    completionHandler(NSURLSessionAuthChallengeUseCredential, [NSURLCredential credentialForTrust:serverTrust]); // twin: trust-all-certificates
}

@end
