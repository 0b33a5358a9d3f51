//
//  LGLegacyLoginViewController.h
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

@protocol LGLegacyLoginDelegate <NSObject>
- (void)legacyLoginDidSucceedWithUsername:(NSString *)username;
- (void)legacyLoginDidCancel;
@end

@interface LGLegacyLoginViewController : UIViewController

@property (nonatomic, weak, nullable) id<LGLegacyLoginDelegate> delegate;
@property (nonatomic, assign) BOOL rememberPassword;

- (NSURL *)authorizationURLWithoutPKCE;
- (NSURL *)authorizationURLWithPlainChallenge;
- (NSURL *)authorizationURL;
- (NSDictionary<NSString *, NSString *> *)implicitAuthorizationParameters;
- (NSDictionary<NSString *, NSString *> *)partnerAuthorizationParameters;

@end

NS_ASSUME_NONNULL_END
