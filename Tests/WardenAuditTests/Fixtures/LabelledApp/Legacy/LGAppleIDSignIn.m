//
//  LGAppleIDSignIn.m
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2019 Ledgerly. All rights reserved.
//

#import "LGAppleIDSignIn.h"
#import "LGKeychainWrapper.h"
#import "LGSessionManager.h"

@interface LGAppleIDSignIn ()
@property (nonatomic, strong) ASAuthorizationAppleIDProvider *provider; // twin: siwa-without-credential-state
@property (nonatomic, copy, nullable) LGAppleIDCompletion completion;
@end

@implementation LGAppleIDSignIn

- (instancetype)init {
    self = [super init];
    if (self) {
        _provider = [[ASAuthorizationAppleIDProvider alloc] init];
        [[NSNotificationCenter defaultCenter] addObserver:self
                                                 selector:@selector(appleIDRevoked:)
                                                     name:ASAuthorizationAppleIDProviderCredentialRevokedNotification
                                                   object:nil];
    }
    return self;
}

- (void)dealloc {
    [[NSNotificationCenter defaultCenter] removeObserver:self];
}

- (void)signInWithCompletion:(LGAppleIDCompletion)completion {
    self.completion = completion;
    ASAuthorizationAppleIDRequest *request = [self.provider createRequest];
    request.requestedScopes = @[ASAuthorizationScopeEmail];
    ASAuthorizationController *controller = [[ASAuthorizationController alloc] initWithAuthorizationRequests:@[request]];
    controller.delegate = self;
    controller.presentationContextProvider = self;
    [controller performRequests];
}

- (void)checkCredentialStateForUser:(NSString *)userIdentifier {
    [self.provider getCredentialStateForUserID:userIdentifier completion:^(ASAuthorizationAppleIDProviderCredentialState state, NSError *error) {
        if (state == ASAuthorizationAppleIDProviderCredentialRevoked || state == ASAuthorizationAppleIDProviderCredentialNotFound) {
            dispatch_async(dispatch_get_main_queue(), ^{
                [[LGSessionManager sharedManager] logout];
            });
        }
    }];
}

- (void)appleIDRevoked:(NSNotification *)note {
    [[LGSessionManager sharedManager] logout];
}

#pragma mark - ASAuthorizationControllerDelegate

- (void)authorizationController:(ASAuthorizationController *)controller didCompleteWithAuthorization:(ASAuthorization *)authorization {
    if (![authorization.credential isKindOfClass:[ASAuthorizationAppleIDCredential class]]) {
        return;
    }
    ASAuthorizationAppleIDCredential *credential = (ASAuthorizationAppleIDCredential *)authorization.credential;
    [[LGKeychainWrapper sharedWrapper] setDevicePassword:credential.user forAccount:@"apple_user_id"];
    if (self.completion) {
        self.completion(credential.user, nil);
        self.completion = nil;
    }
}

- (void)authorizationController:(ASAuthorizationController *)controller didCompleteWithError:(NSError *)error {
    if (error.code == ASAuthorizationErrorCanceled) {
        return;
    }
    if (self.completion) {
        self.completion(nil, error);
        self.completion = nil;
    }
}

#pragma mark - ASAuthorizationControllerPresentationContextProviding

- (ASPresentationAnchor)presentationAnchorForAuthorizationController:(ASAuthorizationController *)controller {
    return self.presentationWindow ?: [UIApplication sharedApplication].windows.firstObject;
}

@end
