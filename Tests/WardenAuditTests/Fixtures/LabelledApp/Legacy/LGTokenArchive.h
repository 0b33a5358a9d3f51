//
//  LGTokenArchive.h
//  Ledgerly (legacy Objective-C module)
//
//  Offline persistence used by the 3.x app. Being replaced by KeychainStore / SecureFileStore.
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

@interface LGTokenArchive : NSObject

- (instancetype)initWithDirectory:(NSString *)directory;

- (BOOL)writeToken:(NSString *)token error:(NSError **)error;
- (BOOL)writeLastSyncDate:(NSDate *)date error:(NSError **)error;
- (void)writePassword:(NSString *)password;
- (void)writePasswordHash:(NSString *)password;
- (BOOL)archiveCredentials:(NSDictionary *)credentials;
- (BOOL)archiveRecentPayees:(NSArray<NSString *> *)payees;
- (BOOL)writeExportData:(NSData *)data name:(NSString *)name;
- (BOOL)writeProtectedExportData:(NSData *)data name:(NSString *)name;
- (void)relaxProtectionAtPath:(NSString *)path;
- (void)restoreProtectionAtPath:(NSString *)path;
- (void)saveOfflineLogin:(NSString *)username password:(NSString *)password;
- (void)saveOfflineLoginDate:(NSString *)username;
- (void)savePin:(NSString *)pin forUser:(NSString *)username;

@end

NS_ASSUME_NONNULL_END
