//
//  LGPinLockViewController.m
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2017 Ledgerly. All rights reserved.
//

#import "LGPinLockViewController.h"
#import "LGKeychainWrapper.h"
#import <CocoaLumberjack/CocoaLumberjack.h>
#import <LocalAuthentication/LocalAuthentication.h>
#import <Security/Security.h>

static const DDLogLevel ddLogLevel = DDLogLevelInfo;

static BOOL LGConstantTimeEquals(NSData *lhs, NSData *rhs) {
    if (lhs.length != rhs.length) {
        return NO;
    }
    const uint8_t *a = lhs.bytes;
    const uint8_t *b = rhs.bytes;
    uint8_t difference = 0;
    for (NSUInteger i = 0; i < lhs.length; i++) {
        difference |= a[i] ^ b[i];
    }
    return difference == 0;
}

@interface LGPinLockViewController () <UITextFieldDelegate>
@property (nonatomic, strong) UITextField *pinField;
@property (nonatomic, strong) UILabel *titleLabel;
@property (nonatomic, strong) UILabel *attemptsLabel;
@property (nonatomic, strong) UIButton *touchIDButton;
@property (nonatomic, assign) NSInteger failedAttempts;
@end

@implementation LGPinLockViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.view.backgroundColor = [UIColor systemBackgroundColor];
    if (self.maximumAttempts == 0) {
        self.maximumAttempts = 5;
    }

    self.titleLabel = [[UILabel alloc] init];
    self.titleLabel.text = NSLocalizedString(@"pin.enter", nil);
    self.titleLabel.font = [UIFont preferredFontForTextStyle:UIFontTextStyleTitle2];
    self.titleLabel.textAlignment = NSTextAlignmentCenter;

    self.pinField = [[UITextField alloc] init];
    self.pinField.keyboardType = UIKeyboardTypeNumberPad;
    self.pinField.secureTextEntry = YES; // expect: password-field-without-content-type
    self.pinField.textAlignment = NSTextAlignmentCenter;
    self.pinField.font = [UIFont monospacedDigitSystemFontOfSize:28 weight:UIFontWeightSemibold];
    self.pinField.delegate = self;
    [self.pinField addTarget:self action:@selector(pinChanged:) forControlEvents:UIControlEventEditingChanged];

    self.attemptsLabel = [[UILabel alloc] init];
    self.attemptsLabel.font = [UIFont preferredFontForTextStyle:UIFontTextStyleFootnote];
    self.attemptsLabel.textColor = [UIColor secondaryLabelColor];

    self.touchIDButton = [UIButton buttonWithType:UIButtonTypeSystem];
    [self.touchIDButton setTitle:NSLocalizedString(@"pin.useTouchID", nil) forState:UIControlStateNormal];
    [self.touchIDButton addTarget:self action:@selector(unlockWithTouchID) forControlEvents:UIControlEventTouchUpInside];

    LAContext *probe = [[LAContext alloc] init]; // twin: faceid-usage-description-missing
    NSError *probeError = nil;
    self.touchIDButton.hidden = ![probe canEvaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics error:&probeError]; // twin: biometric-event-gate

    UIStackView *stack = [[UIStackView alloc] initWithArrangedSubviews:@[self.titleLabel, self.pinField, self.attemptsLabel, self.touchIDButton]];
    stack.axis = UILayoutConstraintAxisVertical;
    stack.spacing = 16.0;
    stack.alignment = UIStackViewAlignmentCenter;
    stack.translatesAutoresizingMaskIntoConstraints = NO;
    [self.view addSubview:stack];
    [NSLayoutConstraint activateConstraints:@[
        [stack.centerXAnchor constraintEqualToAnchor:self.view.centerXAnchor],
        [stack.centerYAnchor constraintEqualToAnchor:self.view.centerYAnchor constant:-40.0],
        [self.pinField.widthAnchor constraintEqualToConstant:180.0],
    ]];
}

- (void)viewDidAppear:(BOOL)animated {
    [super viewDidAppear:animated];
    [self.pinField becomeFirstResponder];
}

- (void)pinChanged:(UITextField *)field {
    self.enteredPin = field.text;
    if (field.text.length == 4) {
        if ([self verifyEnteredPin]) {
            [self finishUnlocked:YES];
        } else {
            [self registerFailure];
        }
    }
}

#pragma mark - PIN verification

- (BOOL)verifyEnteredPin {
    if (self.enteredPin.length == 0) {
        return NO;
    }
    return [self.enteredPin isEqualToString:self.storedPin]; // expect: non-constant-time-compare
}

- (BOOL)verifyEnteredPinConstantTime {
    NSData *entered = [self.enteredPin dataUsingEncoding:NSUTF8StringEncoding];
    NSData *stored = [self.storedPin dataUsingEncoding:NSUTF8StringEncoding];
    return LGConstantTimeEquals(entered, stored); // twin: non-constant-time-compare
}

- (void)registerFailure {
    self.failedAttempts += 1;
    self.pinField.text = @"";
    NSInteger remaining = MAX(0, self.maximumAttempts - self.failedAttempts);
    self.attemptsLabel.text = [NSString stringWithFormat:NSLocalizedString(@"pin.attemptsRemaining", nil), (long)remaining];
    DDLogInfo(@"PIN failure %ld of %ld", (long)self.failedAttempts, (long)self.maximumAttempts);
    DDLogDebug(@"wrong PIN entered: %@ expected %@", self.enteredPin, self.storedPin); // expect: secret-in-log
    if (remaining == 0) {
        [self finishUnlocked:NO];
    }
}

- (void)savePin:(NSString *)pin {
    self.storedPin = pin;
    [[LGKeychainWrapper sharedWrapper] setDevicePassword:pin forAccount:@"legacy_pin"];
    NSLog(@"Saved PIN: %@", pin); // expect: secret-in-log
    NSLog(@"Saved PIN of length %lu", (unsigned long)pin.length); // twin: secret-in-log
}

#pragma mark - Biometrics

- (void)unlockWithTouchID {
    LAContext *context = [[LAContext alloc] init];
    context.localizedFallbackTitle = NSLocalizedString(@"pin.usePIN", nil);
    [context evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics // expect: biometric-event-gate
            localizedReason:NSLocalizedString(@"pin.touchID.reason", nil)
                      reply:^(BOOL success, NSError *error) {
        dispatch_async(dispatch_get_main_queue(), ^{
            if (success) {
                [self finishUnlocked:YES];
            } else if (error.code == LAErrorUserFallback) {
                [self.pinField becomeFirstResponder];
            }
        });
    }];
}

- (void)unlockWithKeychainItem {
    LAContext *context = [[LAContext alloc] init];
    context.localizedReason = NSLocalizedString(@"pin.touchID.reason", nil);
    NSDictionary *query = @{
        (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
        (__bridge id)kSecAttrService: @"com.ledgerly.legacy",
        (__bridge id)kSecAttrAccount: @"legacy_vault_key",
        (__bridge id)kSecReturnData: @YES,
        (__bridge id)kSecUseAuthenticationContext: context, // twin: biometric-event-gate
    };
    dispatch_async(dispatch_get_global_queue(QOS_CLASS_USER_INITIATED, 0), ^{
        CFTypeRef result = NULL;
        OSStatus status = SecItemCopyMatching((__bridge CFDictionaryRef)query, &result);
        NSData *key = status == errSecSuccess ? (__bridge_transfer NSData *)result : nil;
        dispatch_async(dispatch_get_main_queue(), ^{
            [self finishUnlocked:key != nil];
        });
    });
}

#pragma mark - Nonces for the unlock audit event

- (NSString *)makeUnlockNonce {
    NSString *nonce = [NSString stringWithFormat:@"%u", arc4random()]; // expect: insecure-random-for-secret
    return nonce;
}

- (NSString *)makeUnlockNonceSecure {
    uint8_t bytes[32];
    int status = SecRandomCopyBytes(kSecRandomDefault, sizeof(bytes), bytes); // twin: insecure-random-for-secret
    if (status != errSecSuccess) {
        return @"";
    }
    return [[NSData dataWithBytes:bytes length:sizeof(bytes)] base64EncodedStringWithOptions:0];
}

- (void)finishUnlocked:(BOOL)unlocked {
    [self.pinField resignFirstResponder];
    if (self.completion) {
        self.completion(unlocked);
    }
    [self dismissViewControllerAnimated:YES completion:nil];
}

#pragma mark - UITextFieldDelegate

- (BOOL)textField:(UITextField *)textField shouldChangeCharactersInRange:(NSRange)range replacementString:(NSString *)string {
    NSString *updated = [textField.text stringByReplacingCharactersInRange:range withString:string];
    NSCharacterSet *nonDigits = [[NSCharacterSet decimalDigitCharacterSet] invertedSet];
    return updated.length <= 4 && [string rangeOfCharacterFromSet:nonDigits].location == NSNotFound;
}

@end
