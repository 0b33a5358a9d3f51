//
//  LGPinLockViewController.h
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2017 Ledgerly. All rights reserved.
//

#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

typedef void (^LGPinLockCompletion)(BOOL unlocked);

@interface LGPinLockViewController : UIViewController

@property (nonatomic, copy, nullable) NSString *storedPin;
@property (nonatomic, copy, nullable) NSString *enteredPin;
@property (nonatomic, copy, nullable) LGPinLockCompletion completion;
@property (nonatomic, assign) NSInteger maximumAttempts;

- (BOOL)verifyEnteredPin;
- (BOOL)verifyEnteredPinConstantTime;
- (void)unlockWithTouchID;
- (void)unlockWithKeychainItem;
- (NSString *)makeUnlockNonce;
- (NSString *)makeUnlockNonceSecure;

@end

NS_ASSUME_NONNULL_END
