@_spi(Testing) import Backend
import Foundation
import MediaModel
import Storage
import Testing
import Wire

/// Small holes in what the identity routes accept: names that drive a terminal, aliases of ids
/// and paths, bodies in UTF-16, the database file's mode, and what a failure tells a caller.
@Suite struct HostileIdentityInputTests {
    /// Display names that would drive a terminal, reorder text, or hide their size.
    static let hostileNames: [(name: String, message: String)] = [
        (
            "Eve\u{1B}[2J",
            "displayName: U+001B (a control character) at character 4 is not allowed; "
                + "use letters, marks, numbers, punctuation, symbols and spaces"
        ),
        (
            "Eve\u{9B}31m",
            "displayName: U+009B (a control character) at character 4 is not allowed; "
                + "use letters, marks, numbers, punctuation, symbols and spaces"
        ),
        (
            "Eve\u{0}",
            "displayName: U+0000 (a control character) at character 4 is not allowed; "
                + "use letters, marks, numbers, punctuation, symbols and spaces"
        ),
        (
            "Eve\u{202E}gnp.exe",
            "displayName: U+202E (a bidirectional control) at character 4 is not "
                + "allowed; use letters, marks, numbers, punctuation, symbols and spaces"
        ),
        (
            "a" + String(repeating: "\u{301}", count: 5),
            "displayName: character 1 carries 5 combining marks, over the limit of 4"
        ),
        (
            String(repeating: "e\u{301}\u{302}\u{303}", count: 40),
            "displayName: 280 UTF-8 bytes is over the limit of 200"
        ),
    ]

    @Test(arguments: 0..<hostileNames.count)
    func aHostileDisplayName_isRefusedWith400(_ index: Int) async throws {
        // Given a new account whose display name holds a control, a bidi override or hidden bulk
        let target = try AttackTarget(.embedded, sessionPolicy: .init(passwordCost: .minimal))
        let (name, message) = Self.hostileNames[index]
        var body = JSONValue.object([
            "handle": .string("eve_\(index)"), "displayName": .string(name),
            "password": .string("long enough"),
        ])
        // When it is sent
        let created = await target.backend.handle(
            Request(
                .post, "/v1/accounts",
                headers: ["Content-Type": "application/json", "Idempotency-Key": "k-\(index)"],
                body: body.serialized()))
        // Then it is refused, saying what and where, and no account was made
        #expect(created.status == 400)
        #expect(created.errorCode == "invalid_body")
        #expect(ErrorBody(decoding: created.body)?.message == message)
        let made = try target.backend.database.query(
            "SELECT COUNT(*) FROM users WHERE handle = ?", "eve_\(index)"
        ) { try $0.int(0) }
        #expect(made == [0])
        // while a name in any script, with an accent or an emoji, is accepted
        body = .object([
            "handle": .string("fine_\(index)"), "displayName": .string("Zoë 李 👩‍👩‍👧"),
            "password": .string("long enough"),
        ])
        let fine = await target.backend.handle(
            Request(
                .post, "/v1/accounts", headers: ["Content-Type": "application/json"], body: body.serialized())
        )
        #expect(fine.status == 201, "\(fine.text)")
        await target.stop()
    }

    @Test func aBioWithAnEscapeOrHiddenBulk_isRefused() async throws {
        let target = try AttackTarget(.embedded, sessionPolicy: .init(passwordCost: .minimal))
        for (bio, message) in [
            (
                "hi\u{1B}]0;pwned\u{7}",
                "bio: U+001B (a control character) at character 3 is not allowed; "
                    + "use letters, marks, numbers, punctuation, symbols, spaces and line breaks"
            ),
            (
                "x" + String(repeating: "\u{300}", count: 9),
                "bio: character 1 carries 9 combining marks, over the limit of 4"
            ),
        ] {
            let body = JSONValue.object([
                "handle": .string("bio_eve_\(message.count)"), "displayName": .string("Eve"),
                "bio": .string(bio),
                "password": .string("long enough"),
            ])
            let created = await target.backend.handle(
                Request(
                    .post, "/v1/accounts", headers: ["Content-Type": "application/json"],
                    body: body.serialized()))
            #expect(created.status == 400)
            #expect(ErrorBody(decoding: created.body)?.message == message)
        }
        await target.stop()
    }

    @Test(arguments: [
        "/v1/users/u+1", "/v1/users/u01", "/v1/users/u1 ", "//v1/users/u1", "/v1//users/u1", "/v1/users/u1/",
    ])
    func anAliasOfAnIdOrAPath_isNotFound(_ path: String) async throws {
        // Given ada signed in, and her own profile at its one canonical path
        let target = try AttackTarget(.embedded)
        let ada = try await target.session("ada")
        #expect(try await target.send(.get, "/v1/users/u1", token: ada.token).status == 200)
        // When the same profile is asked for by an alias
        let alias = try await target.send(.get, path, token: ada.token)
        // Then nothing is found
        #expect(alias.status == 404, "\(alias.text)")
        #expect(alias.errorCode == "not_found")
        await target.stop()
    }

    @Test func aCursorWithASignOrLeadingZeros_isRefused() async throws {
        // Given ada's first page of the feed and its cursor
        let target = try AttackTarget(.embedded)
        let ada = try await target.session("ada")
        func feed(_ query: [QueryItem]) async -> Response {
            await target.backend.handle(
                Request(.get, "/v1/feed", query: query, headers: ["Authorization": "Bearer \(ada.token)"]))
        }
        let page = await feed([QueryItem("limit", "2")])
        let cursor = try #require(page.json["page", "nextCursor"].stringValue, "\(page.text.prefix(300))")
        let parts = cursor.dropFirst(2).split(separator: ".").joined(separator: ".")
        // When the cursor is sent with a sign or a leading zero
        for alias in ["f:+" + parts, "f:0" + parts] {
            let response = await feed([QueryItem("limit", "2"), QueryItem("cursor", alias)])
            // Then it is refused, while the cursor as written pages on
            #expect(response.status == 400, "\(alias): \(response.text)")
            #expect(response.errorCode == "invalid_parameter")
        }
        #expect(await feed([QueryItem("limit", "2"), QueryItem("cursor", cursor)]).status == 200)
        await target.stop()
    }

    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf16, .utf32])
    func aBodyInUTF16_withADuplicateKey_isRefused(_ encoding: String.Encoding) async throws {
        // Given a sign-in body naming two handles, written in UTF-16 or UTF-32
        let target = try AttackTarget(.embedded)
        // (the second key escaped, so that a scan of the bytes as UTF-8 cannot match the two)
        let text = #"{"handle": "ada", "h\u0061ndle": "grace", "password": "\#(DemoAccounts.password)"}"#
        let body = try #require(text.data(using: encoding))
        // When it is sent
        let response = await target.backend.handle(
            Request(.post, "/v1/sessions", headers: ["Content-Type": "application/json"], body: body))
        // Then it is refused rather than read one way or the other
        #expect(response.status == 400, "\(response.text)")
        #expect(response.errorCode == "invalid_body")
        #expect(
            ErrorBody(decoding: response.body)?.message
                == "body: not UTF-8 (it holds NUL bytes or bytes that are not UTF-8); send JSON as UTF-8")
        await target.stop()
    }

    @Test func theDatabaseFile_isReadableByItsOwnerOnly_newOrExisting() throws {
        // Given a new backend, and an existing file made readable by everyone
        let fresh = try BackendServer.makeTemporaryDirectory("mode-new")
        let server = try BackendServer(directory: fresh, clock: ManualClock())
        #expect(try mode(server.databasePath) == 0o600)
        server.close()
        let old = try BackendServer.makeTemporaryDirectory("mode-old")
        let path = (old as NSString).appendingPathComponent(BackendServer.databaseFileName)
        try FileManager.default.copyItem(atPath: server.databasePath, toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        // When a backend opens it
        let reopened = try BackendServer(directory: old, clock: ManualClock())
        _ = try reopened.database.execute("INSERT INTO meta (key, value) VALUES ('mode-test', 'x')")
        // Then it and its write-ahead files are 0600
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            #expect(try mode(file) == 0o600, "\(file)")
        }
        reopened.close()
    }

    @Test func aFullDisk_isA500ThatShowsNoSQLAndNoPath() async throws {
        // Given a backend whose database cannot grow (as on a full disk)
        let target = try AttackTarget(.embedded, sessionPolicy: .init(passwordCost: .minimal))
        let pages = try target.backend.database.query("PRAGMA page_count") { try $0.int(0) }.first ?? 0
        _ = try target.backend.database.query("PRAGMA max_page_count = \(pages)") { _ in 0 }
        // When accounts are made until one cannot be saved
        var failure: Response?
        for index in 0..<200 where failure == nil {
            let response = try await target.send(
                .post, "/v1/accounts",
                json:
                    #"{"handle": "full_\#(index)", "displayName": "Full", "bio": "\#(String(repeating: "b", count: 300))", "password": "long enough"}"#,
                key: "full-\(index)")
            if response.status != 201 { failure = response }
        }
        // Then it is a 500 saying to try later, with no SQL, no file path and no SQLite wording
        let response = try #require(failure)
        #expect(response.status == 500)
        #expect(response.errorCode == "internal")
        #expect(
            ErrorBody(decoding: response.body)?.message
                == "the server could not save this (POST /v1/accounts); try again later")
        for leak in [target.backend.databasePath, "backend.sqlite", "INSERT", "SQLITE", "disk"] {
            #expect(!response.text.contains(leak), "\(leak)")
        }
        await target.stop()
    }
}

private func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
}
