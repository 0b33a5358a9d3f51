//
//  LGJWTInspector.m
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2018 Ledgerly. All rights reserved.
//

#import "LGJWTInspector.h"

@implementation LGClaimValidator
@end

@implementation LGJWTInspector

+ (LGClaimValidator *)defaultValidator {
    LGClaimValidator *validator = [[LGClaimValidator alloc] init];
    validator.expectedIssuer = @"https://auth.ledgerly.example.com";
    validator.expectedAudience = @"ledgerly-ios-legacy";
    validator.expLeeway = 60; // twin: iat-positive-leeway
    validator.iatLeeway = 300; // expect: iat-positive-leeway
    return validator;
}

+ (LGClaimValidator *)strictValidator {
    LGClaimValidator *validator = [[LGClaimValidator alloc] init];
    validator.expectedIssuer = @"https://auth.ledgerly.example.com";
    validator.expectedAudience = @"ledgerly-ios-legacy";
    validator.expLeeway = 30; // twin: iat-positive-leeway
    validator.iatLeeway = 0;
    return validator;
}

#pragma mark - Unverified payload access (3.x)

- (nullable NSDictionary *)payloadOfToken:(NSString *)token {
    NSArray<NSString *> *segments = [token componentsSeparatedByString:@"."];
    if (segments.count != 3) {
        return nil;
    }
    NSString *base64 = [[segments[1] stringByReplacingOccurrencesOfString:@"-" withString:@"+"]
                        stringByReplacingOccurrencesOfString:@"_" withString:@"/"];
    while (base64.length % 4 != 0) {
        base64 = [base64 stringByAppendingString:@"="];
    }
    NSData *data = [[NSData alloc] initWithBase64EncodedString:base64 options:0];
    if (data == nil) {
        return nil;
    }
    return [NSJSONSerialization JSONObjectWithData:data options:0 error:nil];
}

- (BOOL)isAdminToken:(NSString *)token {
    NSArray<NSString *> *parts = [token componentsSeparatedByString:@"."];
    if (parts.count < 2) {
        return NO;
    }
    NSString *payload = parts[1];
    NSUInteger padding = (4 - payload.length % 4) % 4;
    payload = [payload stringByPaddingToLength:payload.length + padding withString:@"=" startingAtIndex:0];
    NSData *json = [[NSData alloc] initWithBase64EncodedString:payload options:NSDataBase64DecodingIgnoreUnknownCharacters];
    NSDictionary *claims = [NSJSONSerialization JSONObjectWithData:json options:0 error:nil];
    if ([claims[@"admin"] boolValue]) { // expect: jwt-unverified-decision
        return YES;
    }
    return NO;
}

- (BOOL)shouldRefreshToken:(NSString *)token {
    NSDictionary *claims = [self payloadOfToken:token];
    NSTimeInterval now = [[NSDate date] timeIntervalSince1970];
    if ([claims[@"exp"] doubleValue] - now < 300) { // expect: jwt-unverified-decision
        return YES;
    }
    return NO;
}

- (NSString *)greetingTierForToken:(NSString *)token {
    NSDictionary *claims = [self payloadOfToken:token];
    NSString *scope = claims[@"scope"] ?: @"";
    return [scope containsString:@"premium"] ? @"premium" : @"standard"; // expect: jwt-unverified-decision
}

#pragma mark - Verified access

- (BOOL)isAdminVerifiedToken:(NSString *)token {
    NSError *error = nil;
    NSDictionary *claims = [self.verifier verify:token error:&error];
    if (claims == nil) {
        return NO;
    }
    if ([claims[@"admin"] boolValue]) { // twin: jwt-unverified-decision
        return YES;
    }
    return NO;
}

#pragma mark - Server version

- (BOOL)isSupportedServerVersion:(NSString *)version {
    NSArray<NSString *> *parts = [version componentsSeparatedByString:@"."];
    if ([parts.firstObject integerValue] < 4) { // twin: jwt-unverified-decision
        return NO;
    }
    return YES;
}

@end
