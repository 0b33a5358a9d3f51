//
//  LGAccountsViewController.h
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import <UIKit/UIKit.h>

NS_ASSUME_NONNULL_BEGIN

@interface LGAccount : NSObject
@property (nonatomic, copy) NSString *identifier;
@property (nonatomic, copy) NSString *name;
@property (nonatomic, copy) NSString *iban;
@property (nonatomic, copy) NSString *currency;
@property (nonatomic, assign) long long balanceMinor;
+ (nullable instancetype)accountWithDictionary:(NSDictionary *)dictionary;
@end

@interface LGAccountsViewController : UITableViewController
@property (nonatomic, copy, readonly) NSArray<LGAccount *> *accounts;
- (void)reloadAccounts;
@end

NS_ASSUME_NONNULL_END
