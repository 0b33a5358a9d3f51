//
//  LGAppleIDSignIn.h
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2019 Ledgerly. All rights reserved.
//

#import <AuthenticationServices/AuthenticationServices.h>
#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

typedef void (^LGAppleIDCompletion)(NSString * _Nullable userIdentifier, NSError * _Nullable error);

@interface LGAppleIDSignIn : NSObject <ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding>

@property (nonatomic, weak, nullable) UIWindow *presentationWindow;

- (void)signInWithCompletion:(LGAppleIDCompletion)completion;
- (void)checkCredentialStateForUser:(NSString *)userIdentifier;

@end

NS_ASSUME_NONNULL_END
