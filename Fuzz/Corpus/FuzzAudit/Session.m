#import <Foundation/Foundation.h>

// Labelled fixture for the Objective-C tokenizer.
@implementation LegacySession
- (void)save:(NSString *)token {
    [[NSUserDefaults standardUserDefaults] setObject:token forKey:@"sessionToken"]; // expect: secret-in-user-defaults
    NSLog(@"session token %@", token); // expect: secret-in-log
    NSLog(@"saved"); /* NSLog(@"%@", token) inside a comment */
}
@end
