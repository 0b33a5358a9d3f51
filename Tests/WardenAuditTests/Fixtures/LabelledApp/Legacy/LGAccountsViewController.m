//
//  LGAccountsViewController.m
//  Ledgerly (legacy Objective-C module)
//
//  Copyright (c) 2016 Ledgerly. All rights reserved.
//

#import "LGAccountsViewController.h"
#import "LGSessionManager.h"

static NSString * const kLGAccountCellIdentifier = @"LGAccountCell";

@implementation LGAccount

+ (instancetype)accountWithDictionary:(NSDictionary *)dictionary {
    if (![dictionary[@"id"] isKindOfClass:[NSString class]]) {
        return nil;
    }
    LGAccount *account = [[LGAccount alloc] init];
    account.identifier = dictionary[@"id"];
    account.name = dictionary[@"name"] ?: @"";
    account.iban = dictionary[@"iban"] ?: @"";
    account.currency = dictionary[@"currency"] ?: @"EUR";
    account.balanceMinor = [dictionary[@"balance_minor"] longLongValue];
    return account;
}

- (NSString *)maskedIBAN {
    if (self.iban.length <= 8) {
        return self.iban;
    }
    return [NSString stringWithFormat:@"%@ •••• %@", [self.iban substringToIndex:4], [self.iban substringFromIndex:self.iban.length - 4]];
}

@end

@interface LGAccountsViewController ()
@property (nonatomic, copy, readwrite) NSArray<LGAccount *> *accounts;
@property (nonatomic, strong) NSNumberFormatter *currencyFormatter;
@property (nonatomic, strong) NSURLSessionDataTask *loadTask;
@end

@implementation LGAccountsViewController

- (void)viewDidLoad {
    [super viewDidLoad];
    self.title = NSLocalizedString(@"accounts.title", nil);
    self.accounts = @[];
    self.currencyFormatter = [[NSNumberFormatter alloc] init];
    self.currencyFormatter.numberStyle = NSNumberFormatterCurrencyStyle;
    [self.tableView registerClass:[UITableViewCell class] forCellReuseIdentifier:kLGAccountCellIdentifier];
    self.tableView.rowHeight = UITableViewAutomaticDimension;
    self.tableView.estimatedRowHeight = 64.0;

    UIRefreshControl *refresh = [[UIRefreshControl alloc] init];
    [refresh addTarget:self action:@selector(reloadAccounts) forControlEvents:UIControlEventValueChanged];
    self.refreshControl = refresh;
    [self reloadAccounts];
}

- (void)reloadAccounts {
    [self.loadTask cancel];
    NSMutableURLRequest *request = [[[LGSessionManager sharedManager] profileRequest] mutableCopy];
    request.URL = [NSURL URLWithString:@"https://legacy-api.ledgerly.example.com/v1/accounts"];
    __weak typeof(self) weakSelf = self;
    self.loadTask = [[LGSessionManager sharedManager].session dataTaskWithRequest:request completionHandler:^(NSData *data, NSURLResponse *response, NSError *error) {
        NSArray *items = nil;
        if (data) {
            id json = [NSJSONSerialization JSONObjectWithData:data options:0 error:nil];
            items = [json isKindOfClass:[NSDictionary class]] ? json[@"items"] : nil;
        }
        NSMutableArray<LGAccount *> *accounts = [NSMutableArray array];
        for (NSDictionary *item in items) {
            LGAccount *account = [LGAccount accountWithDictionary:item];
            if (account) {
                [accounts addObject:account];
            }
        }
        dispatch_async(dispatch_get_main_queue(), ^{
            weakSelf.accounts = accounts;
            [weakSelf.refreshControl endRefreshing];
            [weakSelf.tableView reloadData];
            NSLog(@"loaded %lu accounts", (unsigned long)accounts.count);
        });
    }];
    [self.loadTask resume];
}

- (NSString *)formattedBalanceForAccount:(LGAccount *)account {
    self.currencyFormatter.currencyCode = account.currency;
    NSNumber *amount = @((double)account.balanceMinor / 100.0);
    return [self.currencyFormatter stringFromNumber:amount] ?: [NSString stringWithFormat:@"%lld %@", account.balanceMinor, account.currency];
}

#pragma mark - UITableViewDataSource

- (NSInteger)tableView:(UITableView *)tableView numberOfRowsInSection:(NSInteger)section {
    return self.accounts.count;
}

- (UITableViewCell *)tableView:(UITableView *)tableView cellForRowAtIndexPath:(NSIndexPath *)indexPath {
    UITableViewCell *cell = [tableView dequeueReusableCellWithIdentifier:kLGAccountCellIdentifier forIndexPath:indexPath];
    LGAccount *account = self.accounts[indexPath.row];
    UIListContentConfiguration *content = [UIListContentConfiguration subtitleCellConfiguration];
    content.text = account.name;
    content.secondaryText = [NSString stringWithFormat:@"%@ · %@", [account maskedIBAN], [self formattedBalanceForAccount:account]];
    content.secondaryTextProperties.color = [UIColor secondaryLabelColor];
    cell.contentConfiguration = content;
    cell.accessoryType = UITableViewCellAccessoryDisclosureIndicator;
    return cell;
}

- (NSString *)tableView:(UITableView *)tableView titleForFooterInSection:(NSInteger)section {
    if (self.accounts.count == 0) {
        return NSLocalizedString(@"accounts.empty", nil);
    }
    return nil;
}

#pragma mark - UITableViewDelegate

- (void)tableView:(UITableView *)tableView didSelectRowAtIndexPath:(NSIndexPath *)indexPath {
    [tableView deselectRowAtIndexPath:indexPath animated:YES];
    LGAccount *account = self.accounts[indexPath.row];
    UIPasteboard.generalPasteboard.string = account.iban;
    UIAlertController *alert = [UIAlertController alertControllerWithTitle:account.name
                                                                   message:NSLocalizedString(@"accounts.ibanCopied", nil)
                                                            preferredStyle:UIAlertControllerStyleAlert];
    [alert addAction:[UIAlertAction actionWithTitle:NSLocalizedString(@"common.ok", nil) style:UIAlertActionStyleDefault handler:nil]];
    [self presentViewController:alert animated:YES completion:nil];
}

- (UISwipeActionsConfiguration *)tableView:(UITableView *)tableView trailingSwipeActionsConfigurationForRowAtIndexPath:(NSIndexPath *)indexPath {
    UIContextualAction *hide = [UIContextualAction contextualActionWithStyle:UIContextualActionStyleNormal
                                                                       title:NSLocalizedString(@"accounts.hide", nil)
                                                                     handler:^(UIContextualAction *action, UIView *sourceView, void (^completionHandler)(BOOL)) {
        NSMutableArray *remaining = [self.accounts mutableCopy];
        [remaining removeObjectAtIndex:indexPath.row];
        self.accounts = remaining;
        [tableView deleteRowsAtIndexPaths:@[indexPath] withRowAnimation:UITableViewRowAnimationAutomatic];
        completionHandler(YES);
    }];
    hide.backgroundColor = [UIColor systemGrayColor];
    return [UISwipeActionsConfiguration configurationWithActions:@[hide]];
}

@end
