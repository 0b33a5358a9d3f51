//
//  LGJWTInspector.h
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2018 Ledgerly. All rights reserved.
//

#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

@interface LGClaimValidator : NSObject
@property (nonatomic, assign) NSTimeInterval expLeeway;
@property (nonatomic, assign) NSTimeInterval iatLeeway;
@property (nonatomic, copy) NSString *expectedIssuer;
@property (nonatomic, copy) NSString *expectedAudience;
@end

@protocol LGJWTVerifying <NSObject>
- (nullable NSDictionary *)verify:(NSString *)token error:(NSError **)error;
@end

@interface LGJWTInspector : NSObject

@property (nonatomic, strong, nullable) id<LGJWTVerifying> verifier;

+ (LGClaimValidator *)defaultValidator;
+ (LGClaimValidator *)strictValidator;

- (BOOL)isAdminToken:(NSString *)token;
- (BOOL)isAdminVerifiedToken:(NSString *)token;
- (BOOL)shouldRefreshToken:(NSString *)token;
- (NSString *)greetingTierForToken:(NSString *)token;
- (BOOL)isSupportedServerVersion:(NSString *)version;

@end

NS_ASSUME_NONNULL_END
