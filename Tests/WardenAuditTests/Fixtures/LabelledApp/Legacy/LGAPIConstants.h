//
//  LGAPIConstants.h
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import <Foundation/Foundation.h>

#define LG_API_VERSION @"v1"
#define API_SECRET @"1DXyttCnTbf2DiZxo8CpGR0G" // expect: hardcoded-secret
#define API_SECRET_PLACEHOLDER @"YOUR_API_KEY" // twin: hardcoded-secret
#define LG_REQUEST_TIMEOUT 30.0
#define LG_MAX_RETRIES 3

FOUNDATION_EXPORT NSString * const LGAPIBaseURLString;
FOUNDATION_EXPORT NSString * const LGAPISecureBaseURLString;
FOUNDATION_EXPORT NSString * const LGLegacyImagesBaseURLString;
FOUNDATION_EXPORT NSString * const LGTokenDefaultsKey;
FOUNDATION_EXPORT NSString * const LGPasswordPlaceholderKey;
FOUNDATION_EXPORT NSString * const LGAnalyticsPasswordResetTapped;
FOUNDATION_EXPORT NSString * const LGClientIdentifier;

typedef NS_ENUM(NSInteger, LGAPIErrorCode) {
    LGAPIErrorCodeUnknown = 0,
    LGAPIErrorCodeUnauthorized = 401,
    LGAPIErrorCodeForbidden = 403,
    LGAPIErrorCodeNotFound = 404,
    LGAPIErrorCodeServer = 500,
};

FOUNDATION_EXPORT NSString * const LGAPIErrorDomain;
