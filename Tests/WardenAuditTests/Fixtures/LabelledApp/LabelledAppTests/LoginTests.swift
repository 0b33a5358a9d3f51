//
//  LoginTests.swift
//  LabelledAppTests
//

import XCTest
@testable import Ledgerly

final class LoginTests: XCTestCase {
    private let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJl"
    private let stubBaseURL = URL(string: "http://test.example.com")!
    private let testPassword = "correct horse battery staple"

    override func setUp() {
        super.setUp()
        UserDefaults.standard.removeObject(forKey: "authToken")
    }

    func testPasswordGrantBodyContainsCredentials() async throws {
        let client = OAuthClient.shared
        print(token)
        UserDefaults.standard.set(token, forKey: "authToken")
        XCTAssertNotNil(client.makeAuthorizationURL())
    }

    func testLegacyFeedURLCarriesToken() {
        let url = APIClient.shared.legacyFeedURL(token: token)
        XCTAssertTrue(url.absoluteString.contains("access_token="))
    }

    func testOfflinePasswordComparison() {
        let storedPassword = testPassword
        let enteredPassword = "correct horse battery staple"
        XCTAssertTrue(enteredPassword == storedPassword)
    }

    func testAdminClaimIsReadFromToken() {
        XCTAssertFalse(TokenInspector.isAdmin(idToken: token))
    }

    func testStateIsRandom() {
        let state = String(arc4random())
        XCTAssertFalse(state.isEmpty)
        NSLog("stub server %@", stubBaseURL.absoluteString)
    }
}
