//
//  LGPaymentSigner.h
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2017 Ledgerly. All rights reserved.
//

#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

@interface LGPaymentSigner : NSObject

- (instancetype)initWithKey:(NSData *)key;

- (NSData *)macForPayload:(NSData *)payload;
- (BOOL)verifyPayload:(NSData *)payload mac:(NSData *)mac;
- (BOOL)verifyPayloadConstantTime:(NSData *)payload mac:(NSData *)mac;
- (BOOL)verifyReceiptSignature:(NSString *)signature forReceiptID:(NSString *)receiptID;
- (BOOL)hasLayoutChanged:(NSString *)layoutSignature;
- (NSString *)makeTransferReference;
- (NSTimeInterval)retryDelayForAttempt:(NSUInteger)attempt;
- (NSString *)makeTransferNonce;
- (NSString *)makeTransferNonceSecure;

@end

NS_ASSUME_NONNULL_END
