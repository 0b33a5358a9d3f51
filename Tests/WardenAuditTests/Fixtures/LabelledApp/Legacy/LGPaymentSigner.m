//
//  LGPaymentSigner.m
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2017 Ledgerly. All rights reserved.
//

#import "LGPaymentSigner.h"
#import <CommonCrypto/CommonHMAC.h>
#import <Security/Security.h>

@interface LGPaymentSigner ()
@property (nonatomic, copy) NSData *key;
@property (nonatomic, copy, nullable) NSString *cachedLayoutSignature;
@property (nonatomic, assign) NSUInteger sequence;
@end

@implementation LGPaymentSigner

- (instancetype)initWithKey:(NSData *)key {
    self = [super init];
    if (self) {
        _key = [key copy];
    }
    return self;
}

- (NSData *)macForPayload:(NSData *)payload {
    unsigned char digest[CC_SHA256_DIGEST_LENGTH];
    CCHmac(kCCHmacAlgSHA256, self.key.bytes, self.key.length, payload.bytes, payload.length, digest);
    return [NSData dataWithBytes:digest length:CC_SHA256_DIGEST_LENGTH];
}

- (BOOL)verifyPayload:(NSData *)payload mac:(NSData *)mac {
    NSData *expectedMac = [self macForPayload:payload];
    return [mac isEqualToData:expectedMac]; // expect: non-constant-time-compare
}

- (BOOL)verifyPayloadConstantTime:(NSData *)payload mac:(NSData *)mac {
    NSData *expectedMac = [self macForPayload:payload];
    if (mac.length != expectedMac.length) {
        return NO;
    }
    return timingsafe_bcmp(mac.bytes, expectedMac.bytes, mac.length) == 0; // twin: non-constant-time-compare
}

- (BOOL)verifyReceiptSignature:(NSString *)signature forReceiptID:(NSString *)receiptID {
    NSData *payload = [receiptID dataUsingEncoding:NSUTF8StringEncoding];
    NSString *expectedSignature = [[self macForPayload:payload] base64EncodedStringWithOptions:0];
    return [signature isEqualToString:expectedSignature]; // expect: non-constant-time-compare
}

- (BOOL)hasLayoutChanged:(NSString *)layoutSignature {
    if ([layoutSignature isEqualToString:self.cachedLayoutSignature]) { // twin: non-constant-time-compare
        return NO;
    }
    self.cachedLayoutSignature = layoutSignature;
    return YES;
}

- (NSString *)makeTransferReference {
    NSDateFormatter *formatter = [[NSDateFormatter alloc] init];
    formatter.dateFormat = @"yyyyMMdd";
    formatter.locale = [NSLocale localeWithLocaleIdentifier:@"en_US_POSIX"];
    self.sequence += 1;
    return [NSString stringWithFormat:@"LG-%@-%04lu", [formatter stringFromDate:[NSDate date]], (unsigned long)self.sequence];
}

- (NSTimeInterval)retryDelayForAttempt:(NSUInteger)attempt {
    NSTimeInterval jitterMilliseconds = arc4random_uniform(500); // twin: insecure-random-for-secret
    return MIN(30.0, pow(2.0, attempt)) + jitterMilliseconds / 1000.0;
}

- (NSString *)makeTransferNonce {
    srandom((unsigned int)time(NULL));
    NSString *nonce = [NSString stringWithFormat:@"%ld", random()]; // expect: insecure-random-for-secret
    return nonce;
}

- (NSString *)makeTransferNonceSecure {
    uint8_t buffer[32];
    arc4random_buf(buffer, sizeof(buffer)); // twin: insecure-random-for-secret
    return [[NSData dataWithBytes:buffer length:sizeof(buffer)] base64EncodedStringWithOptions:0];
}

@end
