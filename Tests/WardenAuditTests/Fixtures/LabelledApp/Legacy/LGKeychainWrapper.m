//
//  LGKeychainWrapper.m
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import "LGKeychainWrapper.h"
#import <Security/Security.h>

@implementation LGKeychainWrapper

+ (instancetype)sharedWrapper {
    static LGKeychainWrapper *shared;
    static dispatch_once_t onceToken;
    dispatch_once(&onceToken, ^{
        shared = [[LGKeychainWrapper alloc] initWithService:@"com.ledgerly.legacy"];
    });
    return shared;
}

- (instancetype)initWithService:(NSString *)service {
    self = [super init];
    if (self) {
        _service = [service copy];
    }
    return self;
}

- (NSMutableDictionary *)baseQueryForAccount:(NSString *)account {
    NSMutableDictionary *query = [NSMutableDictionary dictionary];
    query[(__bridge id)kSecClass] = (__bridge id)kSecClassGenericPassword;
    query[(__bridge id)kSecAttrService] = self.service;
    query[(__bridge id)kSecAttrAccount] = account;
    return query;
}

#pragma mark - Passwords

- (BOOL)setPassword:(NSString *)password forAccount:(NSString *)account {
    NSDictionary *query = @{
        (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrService: self.service,
        (__bridge id)kSecAttrAccount: account,
        (__bridge id)kSecValueData: [password dataUsingEncoding:NSUTF8StringEncoding],
    };
    SecItemDelete((__bridge CFDictionaryRef)query);
    OSStatus status = SecItemAdd((__bridge CFDictionaryRef)query, NULL); // expect: keychain-accessibility-missing
    return status == errSecSuccess;
}

- (BOOL)setDevicePassword:(NSString *)password forAccount:(NSString *)account {
    NSDictionary *query = @{
        (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrService: self.service,
        (__bridge id)kSecAttrAccount: account,
        (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        (__bridge id)kSecValueData: [password dataUsingEncoding:NSUTF8StringEncoding],
    };
    SecItemDelete((__bridge CFDictionaryRef)query);
    OSStatus status = SecItemAdd((__bridge CFDictionaryRef)query, NULL); // twin: keychain-accessibility-missing
    return status == errSecSuccess;
}

#pragma mark - Session token

- (BOOL)setSessionToken:(NSString *)token {
    NSMutableDictionary *query = [self baseQueryForAccount:@"session_token"];
    SecItemDelete((__bridge CFDictionaryRef)query);
    query[(__bridge id)kSecValueData] = [token dataUsingEncoding:NSUTF8StringEncoding];
    query[(__bridge id)kSecAttrAccessible] = (__bridge id)kSecAttrAccessibleAlwaysThisDeviceOnly; // expect: keychain-accessible-always
    return SecItemAdd((__bridge CFDictionaryRef)query, NULL) == errSecSuccess;
}

- (BOOL)setSessionTokenThisDeviceOnly:(NSString *)token {
    NSMutableDictionary *query = [self baseQueryForAccount:@"session_token"];
    SecItemDelete((__bridge CFDictionaryRef)query);
    query[(__bridge id)kSecValueData] = [token dataUsingEncoding:NSUTF8StringEncoding];
    query[(__bridge id)kSecAttrAccessible] = (__bridge id)kSecAttrAccessibleWhenUnlockedThisDeviceOnly; // twin: keychain-accessible-always
    return SecItemAdd((__bridge CFDictionaryRef)query, NULL) == errSecSuccess;
}

- (BOOL)setBackgroundSyncToken:(NSString *)token {
    NSMutableDictionary *query = [self baseQueryForAccount:@"sync_token"];
    SecItemDelete((__bridge CFDictionaryRef)query);
    [query setObject:[token dataUsingEncoding:NSUTF8StringEncoding] forKey:(__bridge id)kSecValueData];
    [query setObject:(__bridge id)kSecAttrAccessibleAfterFirstUnlock forKey:(__bridge id)kSecAttrAccessible]; // expect: keychain-not-this-device-only
    return SecItemAdd((__bridge CFDictionaryRef)query, NULL) == errSecSuccess;
}

- (BOOL)setBackgroundSyncTokenThisDeviceOnly:(NSString *)token {
    NSMutableDictionary *query = [self baseQueryForAccount:@"sync_token"];
    SecItemDelete((__bridge CFDictionaryRef)query);
    [query setObject:[token dataUsingEncoding:NSUTF8StringEncoding] forKey:(__bridge id)kSecValueData];
    [query setObject:(__bridge id)kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly forKey:(__bridge id)kSecAttrAccessible]; // twin: keychain-not-this-device-only
    return SecItemAdd((__bridge CFDictionaryRef)query, NULL) == errSecSuccess;
}

#pragma mark - Biometric items

- (BOOL)storeSecret:(NSData *)secret forAccount:(NSString *)account accessControl:(SecAccessControlRef)access {
    if (access == NULL) {
        return NO;
    }
    NSMutableDictionary *query = [self baseQueryForAccount:account];
    SecItemDelete((__bridge CFDictionaryRef)query);
    query[(__bridge id)kSecValueData] = secret;
    query[(__bridge id)kSecAttrAccessControl] = (__bridge_transfer id)access;
    return SecItemAdd((__bridge CFDictionaryRef)query, NULL) == errSecSuccess;
}

- (BOOL)setBiometricSecret:(NSData *)secret forAccount:(NSString *)account {
    CFErrorRef error = NULL;
    SecAccessControlRef access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAccessControlBiometryAny, &error); // expect: keychain-weak-access-control
    return [self storeSecret:secret forAccount:account accessControl:access];
}

- (BOOL)setBiometricSecretCurrentSet:(NSData *)secret forAccount:(NSString *)account {
    CFErrorRef error = NULL;
    SecAccessControlRef access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAccessControlBiometryCurrentSet, &error); // twin: keychain-weak-access-control
    return [self storeSecret:secret forAccount:account accessControl:access];
}

- (BOOL)setPresenceSecret:(NSData *)secret forAccount:(NSString *)account {
    SecAccessControlRef access = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
                                                                 kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                 kSecAccessControlUserPresence, // expect: keychain-weak-access-control
                                                                 NULL);
    return [self storeSecret:secret forAccount:account accessControl:access];
}

- (BOOL)setPresenceSecretCurrentSet:(NSData *)secret forAccount:(NSString *)account {
    SecAccessControlRef access = SecAccessControlCreateWithFlags(kCFAllocatorDefault,
                                                                 kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                 kSecAccessControlBiometryCurrentSet, // twin: keychain-weak-access-control
                                                                 NULL);
    return [self storeSecret:secret forAccount:account accessControl:access];
}

#pragma mark - Reading

- (NSString *)passwordForAccount:(NSString *)account {
    NSMutableDictionary *query = [self baseQueryForAccount:account];
    query[(__bridge id)kSecReturnData] = @YES;
    query[(__bridge id)kSecMatchLimit] = (__bridge id)kSecMatchLimitOne;
    CFTypeRef result = NULL;
    OSStatus status = SecItemCopyMatching((__bridge CFDictionaryRef)query, &result);
    if (status != errSecSuccess || result == NULL) {
        return nil;
    }
    NSData *data = (__bridge_transfer NSData *)result;
    return [[NSString alloc] initWithData:data encoding:NSUTF8StringEncoding];
}

- (void)removeItemForAccount:(NSString *)account {
    SecItemDelete((__bridge CFDictionaryRef)[self baseQueryForAccount:account]);
}

#pragma mark - Migration

- (void)upgradeLegacyAccessibility {
    NSDictionary *query = @{
        (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrService: self.service,
    };
    NSDictionary *attributes = @{
        (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAlways, // expect: keychain-accessible-always
    };
    SecItemUpdate((__bridge CFDictionaryRef)query, (__bridge CFDictionaryRef)attributes);
}

- (void)upgradeLegacyAccessibilityThisDeviceOnly {
    NSDictionary *query = @{
        (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrService: self.service,
    };
    NSDictionary *attributes = @{
        (__bridge id)kSecAttrAccessible: (__bridge id)kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, // twin: keychain-accessible-always
    };
    SecItemUpdate((__bridge CFDictionaryRef)query, (__bridge CFDictionaryRef)attributes);
}

@end
