//
//  LGAPIConstants.m
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import "LGAPIConstants.h"

NSString * const LGAPIBaseURLString = @"http://legacy-api.ledgerly.example.com/v1"; // expect: cleartext-http
NSString * const LGAPISecureBaseURLString = @"https://legacy-api.ledgerly.example.com/v1"; // twin: cleartext-http
NSString * const LGLegacyImagesBaseURLString = @"http://images.ledgerly.example.com/legacy/"; // expect: cleartext-http
NSString * const LGTokenDefaultsKey = @"auth_token"; // twin: hardcoded-secret
NSString * const LGPasswordPlaceholderKey = @"login.password.placeholder"; // twin: hardcoded-secret
NSString * const LGAnalyticsPasswordResetTapped = @"password_reset_tapped"; // twin: hardcoded-secret
NSString * const LGClientIdentifier = @"ledgerly-ios-legacy";
NSString * const LGAPIErrorDomain = @"com.ledgerly.api";

static NSString * const kAPISecret = @"Mgj8wt85IKxFKszVMLrcnO0ccwDY"; // expect: hardcoded-secret
static NSString * const kAWSSecretAccessKey = @"VZQFbRGVwzGqWWaPNHWta1vbRPfJBQWr7jOk"; // expect: hardcoded-secret
static NSString * const kAWSAccessKeyID = @"AKIATXMCO8M27GF9S6CY"; // expect: hardcoded-secret
static NSString * const kAPISecretHeader = @"X-Api-Secret"; // twin: hardcoded-secret
static NSString * const kPinColor = @"#FF3B30"; // twin: hardcoded-secret

NSString *LGSignedHeaderValue(NSString *path, NSDate *date);
NSDictionary<NSString *, NSString *> *LGPartnerHeaders(void);

NSDictionary<NSString *, NSString *> *LGPartnerHeaders(void) {
    return @{
        kAPISecretHeader: kAPISecret,
        @"X-Client": LGClientIdentifier,
        @"X-Api-Version": LG_API_VERSION,
    };
}

NSDictionary<NSString *, NSString *> *LGReceiptUploadHeaders(void) {
    return @{
        @"X-Amz-Access-Key": kAWSAccessKeyID,
        @"X-Amz-Secret": kAWSSecretAccessKey,
        @"X-Signature-Version": @"4",
    };
}
