//
//  AccountDatabase.swift
//  Ledgerly
//
//  Several persistence layers live here for historical reasons: Core Data for accounts,
//  Realm for the offline session cache, SQLite for the transaction ledger, and the
//  Yap/Couchbase stores used by the sync prototype.
//

import CoreData
import CouchbaseLiteSwift
import FMDB
import Foundation
import RealmSwift
import SQLite3
import YapDatabase

private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

// MARK: - Core Data

@objc(AccountEntity)
final class AccountEntity: NSManagedObject {
    @NSManaged var identifier: String
    @NSManaged var displayName: String
    @NSManaged var email: String
    @NSManaged var password: String?
    @NSManaged var lastLogin: Date?
}

final class AccountRepository {
    private let container: NSPersistentContainer

    init(container: NSPersistentContainer) {
        self.container = container
    }

    func upsertAccount(id: String, displayName: String, email: String, password: String) throws {
        let context = container.viewContext
        let request = NSFetchRequest<AccountEntity>(entityName: "AccountEntity")
        request.predicate = NSPredicate(format: "identifier == %@", id)
        let account = try context.fetch(request).first ?? AccountEntity(context: context)
        account.identifier = id
        account.setValue(displayName, forKey: "displayName")  // twin: secret-in-file
        account.email = email
        account.password = password  // expect: secret-in-file
        account.lastLogin = Date()
        try context.save()
    }

    func storeOfflinePassword(_ password: String, forAccountID id: String) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = NSEntityDescription.insertNewObject(forEntityName: "AccountEntity", into: context)
            entity.setValue(id, forKey: "identifier")
            entity.setValue(password, forKey: "password")  // expect: secret-in-file
            try context.save()
        }
    }

    func accounts() throws -> [AccountEntity] {
        let request = NSFetchRequest<AccountEntity>(entityName: "AccountEntity")
        request.sortDescriptors = [NSSortDescriptor(key: "displayName", ascending: true)]
        return try container.viewContext.fetch(request)
    }
}

// MARK: - Realm

final class CachedSession: Object {
    @Persisted(primaryKey: true) var userID: String = ""
    @Persisted var token: String = ""
    @Persisted var createdAt = Date()
}

final class OfflineCache {
    func cacheSession(userID: String, token: String) throws {
        let realm = try Realm()
        let session = CachedSession()
        session.userID = userID
        try realm.write {
            session.token = token
            realm.add(session, update: .modified)  // expect: secret-in-file
        }
    }

    func cacheSessionEncrypted(userID: String, token: String, encryptionKey: Data) throws {
        let configuration = Realm.Configuration(encryptionKey: encryptionKey)
        let realm = try Realm(configuration: configuration)
        let session = CachedSession()
        session.userID = userID
        try realm.write {
            session.token = token
            realm.add(session, update: .modified)  // twin: secret-in-file
        }
    }
}

// MARK: - SQLite ledger

final class LedgerDatabase {
    private var db: OpaquePointer?

    init(path: String) {
        if sqlite3_open(path, &db) != SQLITE_OK {
            Log.storage.error("could not open ledger database")
        }
        exec("CREATE TABLE IF NOT EXISTS credentials (username TEXT PRIMARY KEY, password TEXT)")
        exec("CREATE TABLE IF NOT EXISTS transactions (id TEXT PRIMARY KEY, amount INTEGER, memo TEXT)")
    }

    deinit {
        sqlite3_close(db)
    }

    private func exec(_ sql: String) {
        sqlite3_exec(db, sql, nil, nil, nil)
    }

    func saveCredentials(username: String, password: String) {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO credentials VALUES (?, ?)", -1, &statement, nil) == SQLITE_OK else { return }
        sqlite3_bind_text(statement, 1, username, -1, SQLITE_TRANSIENT)  // twin: secret-in-file
        sqlite3_bind_text(statement, 2, password, -1, SQLITE_TRANSIENT)  // expect: secret-in-file
        sqlite3_step(statement)
    }

    func insert(_ transaction: LedgerTransaction) {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(db, "INSERT INTO transactions VALUES (?, ?, ?)", -1, &statement, nil) == SQLITE_OK else { return }
        sqlite3_bind_text(statement, 1, transaction.id, -1, SQLITE_TRANSIENT)
        sqlite3_bind_int64(statement, 2, transaction.amountMinor)
        sqlite3_bind_text(statement, 3, transaction.memo, -1, SQLITE_TRANSIENT)
        sqlite3_step(statement)
    }
}

// MARK: - FMDB (reports module)

final class ReportsStore {
    private let queue: FMDatabaseQueue

    init(path: String) {
        queue = FMDatabaseQueue(path: path)!
    }

    func rememberExportLogin(username: String, password: String) {
        queue.inDatabase { db in
            db.executeUpdate("INSERT OR REPLACE INTO export_login (username, password) VALUES (?, ?)", withArgumentsIn: [username, password])  // expect: secret-in-file
        }
    }

    func rememberExportRun(username: String, finishedAt: Date) {
        queue.inDatabase { db in
            db.executeUpdate("INSERT INTO export_runs (username, finished_at) VALUES (?, ?)", withArgumentsIn: [username, finishedAt])  // twin: secret-in-file
        }
    }
}

// MARK: - Sync prototype (Yap + Couchbase)

final class SyncPrototypeStore {
    private let yap: YapDatabaseConnection
    private let couchbase: Database

    init(yap: YapDatabaseConnection, couchbase: Database) {
        self.yap = yap
        self.couchbase = couchbase
    }

    func storeSyncToken(_ syncToken: String, profile: NSDictionary) {
        yap.readWrite { transaction in
            transaction.setObject(syncToken, forKey: "sync_token", inCollection: "auth")  // expect: secret-in-file
            transaction.setObject(profile, forKey: "profile", inCollection: "profiles")  // twin: secret-in-file
        }
    }

    func storeDeviceSession(token: String, deviceName: String) throws {
        let tokenDoc = MutableDocument(id: "device-session").setString(token, forKey: "token")  // expect: secret-in-file
        try couchbase.saveDocument(tokenDoc)
        let deviceDoc = MutableDocument(id: "device-info").setString(deviceName, forKey: "name")  // twin: secret-in-file
        try couchbase.saveDocument(deviceDoc)
    }
}
