//
//  LGKeychainWrapper.h
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

@interface LGKeychainWrapper : NSObject

@property (nonatomic, copy, readonly) NSString *service;

+ (instancetype)sharedWrapper;
- (instancetype)initWithService:(NSString *)service NS_DESIGNATED_INITIALIZER;
- (instancetype)init NS_UNAVAILABLE;

- (BOOL)setPassword:(NSString *)password forAccount:(NSString *)account;
- (BOOL)setDevicePassword:(NSString *)password forAccount:(NSString *)account;
- (BOOL)setSessionToken:(NSString *)token;
- (BOOL)setSessionTokenThisDeviceOnly:(NSString *)token;
- (BOOL)setBackgroundSyncToken:(NSString *)token;
- (BOOL)setBackgroundSyncTokenThisDeviceOnly:(NSString *)token;
- (BOOL)setBiometricSecret:(NSData *)secret forAccount:(NSString *)account;
- (BOOL)setBiometricSecretCurrentSet:(NSData *)secret forAccount:(NSString *)account;
- (BOOL)setPresenceSecret:(NSData *)secret forAccount:(NSString *)account;
- (BOOL)setPresenceSecretCurrentSet:(NSData *)secret forAccount:(NSString *)account;
- (nullable NSString *)passwordForAccount:(NSString *)account;
- (void)removeItemForAccount:(NSString *)account;
- (void)upgradeLegacyAccessibility;
- (void)upgradeLegacyAccessibilityThisDeviceOnly;

@end

NS_ASSUME_NONNULL_END
