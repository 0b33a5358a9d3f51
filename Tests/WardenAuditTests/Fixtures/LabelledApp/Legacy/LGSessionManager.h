//
//  LGSessionManager.h
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

typedef void (^LGSessionCompletion)(NSDictionary * _Nullable response, NSError * _Nullable error);

@interface LGSessionManager : NSObject <NSURLSessionDelegate>

@property (nonatomic, copy, nullable) NSString *accessToken;
@property (nonatomic, copy, nullable) NSString *refreshToken;
@property (nonatomic, copy, nullable) NSString *username;
@property (nonatomic, copy, nullable) NSString *selectedTheme;
@property (nonatomic, strong, readonly) NSURLSession *session;

+ (instancetype)sharedManager;

- (void)loginWithUsername:(NSString *)username password:(NSString *)password completion:(LGSessionCompletion)completion;
- (void)refreshWithCompletion:(LGSessionCompletion)completion;
- (void)fetchProfileWithCompletion:(LGSessionCompletion)completion;
- (NSURL *)legacyProfileURL;
- (NSURLRequest *)profileRequest;
- (NSURL *)statementsExportURL;
- (void)persistSession;
- (void)persistPreferences;
- (void)syncSessionToCloud;
- (void)syncPreferencesToCloud;
- (void)logout;

@end

@interface LGPinnedSessionDelegate : NSObject <NSURLSessionDelegate>
@end

NS_ASSUME_NONNULL_END
