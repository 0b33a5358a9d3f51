//
//  LGTokenArchive.m
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import "LGTokenArchive.h"
#import <CommonCrypto/CommonDigest.h>
#import <FMDB/FMDB.h>
#import <sqlite3.h>

@interface LGTokenArchive ()
@property (nonatomic, copy) NSString *directory;
@property (nonatomic, strong) FMDatabaseQueue *databaseQueue;
@end

@implementation LGTokenArchive {
    sqlite3 *_pinDatabase;
}

- (instancetype)initWithDirectory:(NSString *)directory {
    self = [super init];
    if (self) {
        _directory = [directory copy];
        [[NSFileManager defaultManager] createDirectoryAtPath:directory withIntermediateDirectories:YES attributes:nil error:nil];
        _databaseQueue = [FMDatabaseQueue databaseQueueWithPath:[directory stringByAppendingPathComponent:@"offline.sqlite"]];
        [_databaseQueue inDatabase:^(FMDatabase *db) {
            [db executeUpdate:@"CREATE TABLE IF NOT EXISTS offline_login (username TEXT PRIMARY KEY, password TEXT, updated_at REAL)"];
        }];
        NSString *pinPath = [directory stringByAppendingPathComponent:@"pins.sqlite"];
        if (sqlite3_open([pinPath UTF8String], &_pinDatabase) != SQLITE_OK) {
            NSLog(@"could not open pin database");
        }
        sqlite3_exec(_pinDatabase, "CREATE TABLE IF NOT EXISTS pins (username TEXT PRIMARY KEY, pin TEXT)", NULL, NULL, NULL);
    }
    return self;
}

- (void)dealloc {
    sqlite3_close(_pinDatabase);
}

- (NSString *)pathForName:(NSString *)name {
    return [self.directory stringByAppendingPathComponent:name];
}

#pragma mark - Files

- (BOOL)writeToken:(NSString *)token error:(NSError **)error {
    return [token writeToFile:[self pathForName:@"token.txt"] atomically:YES encoding:NSUTF8StringEncoding error:error]; // expect: secret-in-file
}

- (BOOL)writeLastSyncDate:(NSDate *)date error:(NSError **)error {
    NSString *stamp = [[[NSISO8601DateFormatter alloc] init] stringFromDate:date];
    return [stamp writeToFile:[self pathForName:@"last-sync.txt"] atomically:YES encoding:NSUTF8StringEncoding error:error]; // twin: secret-in-file
}

- (void)writePassword:(NSString *)password {
    NSData *contents = [password dataUsingEncoding:NSUTF8StringEncoding];
    [[NSFileManager defaultManager] createFileAtPath:[self pathForName:@"password.bin"] contents:contents attributes:nil]; // expect: secret-in-file
}

- (void)writePasswordHash:(NSString *)password {
    NSData *input = [password dataUsingEncoding:NSUTF8StringEncoding];
    unsigned char digest[CC_SHA256_DIGEST_LENGTH];
    CC_SHA256(input.bytes, (CC_LONG)input.length, digest);
    NSData *hash = [NSData dataWithBytes:digest length:CC_SHA256_DIGEST_LENGTH];
    [[NSFileManager defaultManager] createFileAtPath:[self pathForName:@"password.sha256"] contents:hash attributes:@{NSFileProtectionKey: NSFileProtectionComplete}]; // twin: secret-in-file, file-without-protection
}

- (BOOL)archiveCredentials:(NSDictionary *)credentials {
    return [NSKeyedArchiver archiveRootObject:credentials toFile:[self pathForName:@"credentials.archive"]]; // expect: secret-in-file
}

- (BOOL)archiveRecentPayees:(NSArray<NSString *> *)payees {
    return [NSKeyedArchiver archiveRootObject:payees toFile:[self pathForName:@"recent-payees.archive"]]; // twin: secret-in-file
}

- (BOOL)writeExportData:(NSData *)data name:(NSString *)name {
    NSError *error = nil;
    BOOL ok = [data writeToFile:[self pathForName:name] options:NSDataWritingAtomic | NSDataWritingFileProtectionNone error:&error]; // expect: file-without-protection
    if (!ok) {
        NSLog(@"export failed: %@", error.localizedDescription);
    }
    return ok;
}

- (BOOL)writeProtectedExportData:(NSData *)data name:(NSString *)name {
    NSError *error = nil;
    BOOL ok = [data writeToFile:[self pathForName:name] options:NSDataWritingAtomic | NSDataWritingFileProtectionComplete error:&error]; // twin: file-without-protection
    if (!ok) {
        NSLog(@"export failed: %@", error.localizedDescription);
    }
    return ok;
}

- (void)relaxProtectionAtPath:(NSString *)path {
    NSDictionary *attributes = @{NSFileProtectionKey: NSFileProtectionNone}; // expect: file-without-protection
    [[NSFileManager defaultManager] setAttributes:attributes ofItemAtPath:path error:nil];
}

- (void)restoreProtectionAtPath:(NSString *)path {
    NSDictionary *attributes = @{NSFileProtectionKey: NSFileProtectionCompleteUnlessOpen}; // twin: file-without-protection
    [[NSFileManager defaultManager] setAttributes:attributes ofItemAtPath:path error:nil];
}

#pragma mark - Databases

- (void)saveOfflineLogin:(NSString *)username password:(NSString *)password {
    [self.databaseQueue inDatabase:^(FMDatabase *db) {
        [db executeUpdate:@"INSERT OR REPLACE INTO offline_login (username, password, updated_at) VALUES (?, ?, ?)", username, password, @([NSDate date].timeIntervalSince1970)]; // expect: secret-in-file
    }];
}

- (void)saveOfflineLoginDate:(NSString *)username {
    [self.databaseQueue inDatabase:^(FMDatabase *db) {
        [db executeUpdate:@"UPDATE offline_login SET updated_at = ? WHERE username = ?", @([NSDate date].timeIntervalSince1970), username]; // twin: secret-in-file
    }];
}

- (void)savePin:(NSString *)pin forUser:(NSString *)username {
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(_pinDatabase, "INSERT OR REPLACE INTO pins (username, pin) VALUES (?, ?)", -1, &statement, NULL) != SQLITE_OK) {
        return;
    }
    sqlite3_bind_text(statement, 1, [username UTF8String], -1, SQLITE_TRANSIENT); // twin: secret-in-file
    sqlite3_bind_text(statement, 2, [pin UTF8String], -1, SQLITE_TRANSIENT); // expect: secret-in-file
    sqlite3_step(statement);
    sqlite3_finalize(statement);
}

@end
