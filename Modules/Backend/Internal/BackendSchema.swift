import Storage

/// The backend database's schema history.
enum BackendSchema {
    static let migrations: [Migration] = [
        Migration(
            version: 1, name: "create backend",
            sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE users (
                    id INTEGER PRIMARY KEY,
                    handle TEXT NOT NULL UNIQUE,
                    display_name TEXT NOT NULL,
                    bio TEXT NOT NULL,
                    token TEXT NOT NULL UNIQUE,
                    created_at INTEGER NOT NULL,
                    json BLOB NOT NULL
                );
                CREATE TABLE follows (
                    follower INTEGER NOT NULL REFERENCES users (id),
                    followee INTEGER NOT NULL REFERENCES users (id),
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (follower, followee)
                ) WITHOUT ROWID;
                CREATE INDEX follows_by_followee ON follows (followee, follower);
                CREATE TABLE posts (
                    id INTEGER PRIMARY KEY,
                    author INTEGER NOT NULL REFERENCES users (id),
                    created_at INTEGER NOT NULL,
                    parent INTEGER REFERENCES posts (id),
                    root INTEGER REFERENCES posts (id),
                    deleted INTEGER NOT NULL DEFAULT 0,
                    like_count INTEGER NOT NULL DEFAULT 0,
                    reply_count INTEGER NOT NULL DEFAULT 0,
                    repost_count INTEGER NOT NULL DEFAULT 0,
                    revision INTEGER NOT NULL DEFAULT 1,
                    json BLOB NOT NULL
                );
                CREATE INDEX posts_by_author ON posts (author, created_at, id);
                CREATE INDEX posts_by_parent ON posts (parent, created_at, id);
                CREATE INDEX posts_by_time ON posts (created_at, id);
                CREATE TABLE likes (
                    user INTEGER NOT NULL REFERENCES users (id),
                    post INTEGER NOT NULL REFERENCES posts (id),
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (user, post)
                ) WITHOUT ROWID;
                CREATE INDEX likes_by_post ON likes (post, user);
                CREATE TABLE reposts (
                    id INTEGER PRIMARY KEY,
                    user INTEGER NOT NULL REFERENCES users (id),
                    post INTEGER NOT NULL REFERENCES posts (id),
                    created_at INTEGER NOT NULL,
                    UNIQUE (user, post)
                );
                CREATE INDEX reposts_by_user ON reposts (user, created_at, id);
                CREATE INDEX reposts_by_post ON reposts (post);
                CREATE INDEX reposts_by_time ON reposts (created_at, id);
                CREATE TABLE events (
                    id INTEGER PRIMARY KEY,
                    recipient INTEGER NOT NULL REFERENCES users (id),
                    kind TEXT NOT NULL,
                    actor INTEGER NOT NULL REFERENCES users (id),
                    post INTEGER REFERENCES posts (id),
                    created_at INTEGER NOT NULL
                );
                CREATE INDEX events_by_recipient ON events (recipient, id);
                CREATE TABLE mutations (
                    user INTEGER NOT NULL,
                    token TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    status INTEGER NOT NULL,
                    body BLOB NOT NULL,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (user, token)
                ) WITHOUT ROWID;
                """,
            postgres: """
                CREATE FUNCTION storage_next_id() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.id IS NULL THEN
                        EXECUTE format('SELECT COALESCE(MAX(id), 0) + 1 FROM %I', TG_TABLE_NAME) INTO NEW.id;
                    END IF;
                    RETURN NEW;
                END
                $$;
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE users (
                    id BIGINT PRIMARY KEY,
                    handle TEXT NOT NULL UNIQUE,
                    display_name TEXT NOT NULL,
                    bio TEXT NOT NULL,
                    token TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL,
                    json BYTEA NOT NULL
                );
                CREATE TRIGGER users_next_id BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION storage_next_id();
                CREATE TABLE follows (
                    follower BIGINT NOT NULL REFERENCES users (id),
                    followee BIGINT NOT NULL REFERENCES users (id),
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (follower, followee)
                );
                CREATE INDEX follows_by_followee ON follows (followee, follower);
                CREATE TABLE posts (
                    id BIGINT PRIMARY KEY,
                    author BIGINT NOT NULL REFERENCES users (id),
                    created_at BIGINT NOT NULL,
                    parent BIGINT REFERENCES posts (id),
                    root BIGINT REFERENCES posts (id),
                    deleted BIGINT NOT NULL DEFAULT 0,
                    like_count BIGINT NOT NULL DEFAULT 0,
                    reply_count BIGINT NOT NULL DEFAULT 0,
                    repost_count BIGINT NOT NULL DEFAULT 0,
                    revision BIGINT NOT NULL DEFAULT 1,
                    json BYTEA NOT NULL
                );
                CREATE TRIGGER posts_next_id BEFORE INSERT ON posts FOR EACH ROW EXECUTE FUNCTION storage_next_id();
                CREATE INDEX posts_by_author ON posts (author, created_at, id);
                CREATE INDEX posts_by_parent ON posts (parent, created_at, id);
                CREATE INDEX posts_by_time ON posts (created_at, id);
                CREATE TABLE likes (
                    "user" BIGINT NOT NULL REFERENCES users (id),
                    post BIGINT NOT NULL REFERENCES posts (id),
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY ("user", post)
                );
                CREATE INDEX likes_by_post ON likes (post, "user");
                CREATE TABLE reposts (
                    id BIGINT PRIMARY KEY,
                    "user" BIGINT NOT NULL REFERENCES users (id),
                    post BIGINT NOT NULL REFERENCES posts (id),
                    created_at BIGINT NOT NULL,
                    UNIQUE ("user", post)
                );
                CREATE TRIGGER reposts_next_id BEFORE INSERT ON reposts FOR EACH ROW EXECUTE FUNCTION storage_next_id();
                CREATE INDEX reposts_by_user ON reposts ("user", created_at, id);
                CREATE INDEX reposts_by_post ON reposts (post);
                CREATE INDEX reposts_by_time ON reposts (created_at, id);
                CREATE TABLE events (
                    id BIGINT PRIMARY KEY,
                    recipient BIGINT NOT NULL REFERENCES users (id),
                    kind TEXT NOT NULL,
                    actor BIGINT NOT NULL REFERENCES users (id),
                    post BIGINT REFERENCES posts (id),
                    created_at BIGINT NOT NULL
                );
                CREATE TRIGGER events_next_id BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION storage_next_id();
                CREATE INDEX events_by_recipient ON events (recipient, id);
                CREATE TABLE mutations (
                    "user" BIGINT NOT NULL,
                    token TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    status BIGINT NOT NULL,
                    body BYTEA NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY ("user", token)
                );
                """),
        // The client token a post was made with, so lists can carry it to its author's device (a
        // refresh that holds a post still pending there is matched to it) and tools can check that
        // a token made at most one post. Existing posts keep NULL.
        Migration(
            version: 2, name: "post client tokens",
            sql: """
                ALTER TABLE posts ADD COLUMN client_token TEXT;
                CREATE INDEX posts_by_client_token ON posts (author, client_token) WHERE client_token IS NOT NULL;
                """,
            postgres: """
                ALTER TABLE posts ADD COLUMN client_token TEXT;
                CREATE INDEX posts_by_client_token ON posts (author, client_token) WHERE client_token IS NOT NULL;
                """),
        // Identity: users lose their plaintext bearer token and gain a password hash (NULL for an
        // account made before passwords: it cannot sign in) and a demo flag (the seed accounts,
        // known by their old `seed-<handle>` tokens); sessions hold tokens hashed, with expiry
        // and revocation; account-creation keys remember the account they made instead of its
        // response (which held a token). The demo accounts get the demo password's hash.
        Migration(version: 3, name: "identity") { db in
            try db.executeScript(db.dialect == .postgres ? identityPostgres : identitySQL)
            if try db.queryFirst("SELECT 1 FROM users WHERE demo = 1 LIMIT 1", map: { _ in true }) != nil {
                try db.execute(
                    "UPDATE users SET password_hash = ? WHERE demo = 1", try DemoPassword.hash.get())
            }
        },
        // The feed walks posts and reposts newest first and skips the items of accounts the viewer
        // does not follow: the time indexes carry what that test reads (a post's author and
        // deleted flag, a repost's user and post), so a skipped item costs an index entry instead
        // of a read of its row (a post's row holds its ~2 KB of media JSON).
        Migration(
            version: 4, name: "covering time indexes",
            sql: """
                DROP INDEX posts_by_time;
                CREATE INDEX posts_by_time ON posts (created_at, id, author, deleted);
                DROP INDEX reposts_by_time;
                CREATE INDEX reposts_by_time ON reposts (created_at, id, user, post);
                """,
            postgres: """
                DROP INDEX posts_by_time;
                CREATE INDEX posts_by_time ON posts (created_at, id, author, deleted);
                DROP INDEX reposts_by_time;
                CREATE INDEX reposts_by_time ON reposts (created_at, id, "user", post);
                """),
        // Uploaded photos: the original file as sent (its type sniffed from the bytes), its
        // upright size, and resized JPEG variants by width, served by GET /v1/photos/{id}.
        Migration(
            version: 5, name: "stored photos",
            sql: """
                CREATE TABLE photos (
                    id INTEGER PRIMARY KEY,
                    owner INTEGER NOT NULL REFERENCES users (id),
                    format TEXT NOT NULL,
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    original BLOB NOT NULL,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE photo_variants (
                    photo INTEGER NOT NULL REFERENCES photos (id),
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    jpeg BLOB NOT NULL,
                    PRIMARY KEY (photo, width)
                );
                """,
            postgres: """
                CREATE TABLE photos (
                    id BIGINT PRIMARY KEY,
                    owner BIGINT NOT NULL REFERENCES users (id),
                    format TEXT NOT NULL,
                    width BIGINT NOT NULL,
                    height BIGINT NOT NULL,
                    original BYTEA NOT NULL,
                    created_at BIGINT NOT NULL
                );
                CREATE TRIGGER photos_next_id BEFORE INSERT ON photos FOR EACH ROW EXECUTE FUNCTION storage_next_id();
                CREATE TABLE photo_variants (
                    photo BIGINT NOT NULL REFERENCES photos (id),
                    width BIGINT NOT NULL,
                    height BIGINT NOT NULL,
                    jpeg BYTEA NOT NULL,
                    PRIMARY KEY (photo, width)
                );
                """),
        // Uploaded photos are named by 128 random bits (`p` and 32 hex digits), not by their
        // row id, so nobody reaches a photo by counting; photos stored before (the seed's) keep
        // being served by their row id.
        Migration(
            version: 6, name: "photo names",
            sql: """
                ALTER TABLE photos ADD COLUMN name TEXT;
                CREATE UNIQUE INDEX photos_by_name ON photos (name);
                """,
            postgres: """
                ALTER TABLE photos ADD COLUMN name TEXT;
                CREATE UNIQUE INDEX photos_by_name ON photos (name);
                """),
        // Renewal retries: a session exchanged for a new one remembers which (`rotated_to`) and,
        // for the retry window only, the salt from which that pair is derived again with the old
        // renew token (`retry_salt`; the renew token itself is never stored), so a retried
        // renewal gets the same answer.
        Migration(
            version: 7, name: "renewal retries",
            sql: """
                ALTER TABLE sessions ADD COLUMN rotated_to INTEGER;
                ALTER TABLE sessions ADD COLUMN retry_salt TEXT;
                CREATE INDEX sessions_with_retry_salt ON sessions (revoked_at) WHERE retry_salt IS NOT NULL;
                """,
            postgres: """
                ALTER TABLE sessions ADD COLUMN rotated_to BIGINT;
                ALTER TABLE sessions ADD COLUMN retry_salt TEXT;
                CREATE INDEX sessions_with_retry_salt ON sessions (revoked_at) WHERE retry_salt IS NOT NULL;
                """),
        // Direct messages: conversations between two or more accounts (one per set of members,
        // found by `member_key`, the members' ids sorted and joined with commas), their members
        // with each one's read position (the id of the newest message they have read), and the
        // messages, in id order (the server's order). A message may share a post (`shared_post`,
        // shown as a card while the post lives). A new message is an event for the other members
        // (`events.message`).
        Migration(
            version: 8, name: "direct messages",
            sql: """
                CREATE TABLE conversations (
                    id INTEGER PRIMARY KEY,
                    member_key TEXT NOT NULL UNIQUE,
                    created_at INTEGER NOT NULL,
                    last_message INTEGER,
                    last_at INTEGER NOT NULL
                );
                CREATE TABLE conversation_members (
                    conversation INTEGER NOT NULL REFERENCES conversations (id),
                    user INTEGER NOT NULL REFERENCES users (id),
                    read_up_to INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (conversation, user)
                ) WITHOUT ROWID;
                CREATE INDEX conversation_members_by_user ON conversation_members (user, conversation);
                CREATE TABLE messages (
                    id INTEGER PRIMARY KEY,
                    conversation INTEGER NOT NULL REFERENCES conversations (id),
                    sender INTEGER NOT NULL REFERENCES users (id),
                    created_at INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    attachments BLOB,
                    shared_post INTEGER REFERENCES posts (id),
                    client_token TEXT
                );
                CREATE INDEX messages_by_conversation ON messages (conversation, id);
                ALTER TABLE events ADD COLUMN message INTEGER REFERENCES messages (id);
                """,
            postgres: """
                CREATE TABLE conversations (
                    id BIGINT PRIMARY KEY,
                    member_key TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL,
                    last_message BIGINT,
                    last_at BIGINT NOT NULL
                );
                CREATE TRIGGER conversations_next_id BEFORE INSERT ON conversations
                    FOR EACH ROW EXECUTE FUNCTION storage_next_id();
                CREATE TABLE conversation_members (
                    conversation BIGINT NOT NULL REFERENCES conversations (id),
                    "user" BIGINT NOT NULL REFERENCES users (id),
                    read_up_to BIGINT NOT NULL DEFAULT 0,
                    PRIMARY KEY (conversation, "user")
                );
                CREATE INDEX conversation_members_by_user ON conversation_members ("user", conversation);
                CREATE TABLE messages (
                    id BIGINT PRIMARY KEY,
                    conversation BIGINT NOT NULL REFERENCES conversations (id),
                    sender BIGINT NOT NULL REFERENCES users (id),
                    created_at BIGINT NOT NULL,
                    text TEXT NOT NULL,
                    attachments BYTEA,
                    shared_post BIGINT REFERENCES posts (id),
                    client_token TEXT
                );
                CREATE TRIGGER messages_next_id BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION storage_next_id();
                CREATE INDEX messages_by_conversation ON messages (conversation, id);
                ALTER TABLE events ADD COLUMN message BIGINT REFERENCES messages (id);
                """),
        // Sign-in attempts, counted in the database so that every process serving it counts the
        // same ones: a row per attempt and key (`account:<id>` or `address:<address>`), pending
        // while its password is checked, then a failure (a right password deletes it).
        Migration(
            version: 9, name: "sign-in attempts",
            sql: """
                CREATE TABLE sign_in_attempts (
                    id INTEGER PRIMARY KEY,
                    key TEXT NOT NULL,
                    at INTEGER NOT NULL,
                    pending INTEGER NOT NULL
                );
                CREATE INDEX sign_in_attempts_by_key ON sign_in_attempts (key, at);
                CREATE INDEX sign_in_attempts_by_time ON sign_in_attempts (at);
                """,
            postgres: """
                CREATE TABLE sign_in_attempts (
                    id BIGINT PRIMARY KEY,
                    key TEXT NOT NULL,
                    at BIGINT NOT NULL,
                    pending BIGINT NOT NULL
                );
                CREATE TRIGGER sign_in_attempts_next_id BEFORE INSERT ON sign_in_attempts
                    FOR EACH ROW EXECUTE FUNCTION storage_next_id();
                CREATE INDEX sign_in_attempts_by_key ON sign_in_attempts (key, at);
                CREATE INDEX sign_in_attempts_by_time ON sign_in_attempts (at);
                """),
        Migration(version: 10, name: "feed items", sql: feedItemsSQL, postgres: feedItemsPostgres),
    ]

    /// Migration 10: every item a home feed can show (a post that is not deleted, a repost of
    /// one), keyed by the feed's rank (time, source, item id) with the account it counts for
    /// (the post's author, the reposter) and the post it shows, so the feed's ranking walk is
    /// one indexed cursor over one table instead of two walks merged and sorted. Triggers on
    /// `posts` and `reposts` keep it, whatever writes them (the routes, the seeder, a tool).
    static let feedItemsSQL = """
        CREATE TABLE feed_items (
            t INTEGER NOT NULL,
            src INTEGER NOT NULL,
            item INTEGER NOT NULL,
            actor INTEGER NOT NULL,
            post INTEGER NOT NULL,
            PRIMARY KEY (t, src, item)
        ) WITHOUT ROWID;
        CREATE INDEX feed_items_by_post ON feed_items (post);
        INSERT INTO feed_items (t, src, item, actor, post)
            SELECT created_at, 0, id, author, id FROM posts WHERE deleted = 0;
        INSERT INTO feed_items (t, src, item, actor, post)
            SELECT r.created_at, 1, r.id, r.user, r.post FROM reposts r JOIN posts p ON p.id = r.post
            WHERE p.deleted = 0;
        CREATE TRIGGER feed_items_post_added AFTER INSERT ON posts WHEN NEW.deleted = 0 BEGIN
            INSERT INTO feed_items (t, src, item, actor, post) VALUES (NEW.created_at, 0, NEW.id, NEW.author, NEW.id);
        END;
        CREATE TRIGGER feed_items_post_deleted AFTER UPDATE OF deleted ON posts
            WHEN NEW.deleted <> 0 AND OLD.deleted = 0 BEGIN
            DELETE FROM feed_items WHERE post = NEW.id;
        END;
        CREATE TRIGGER feed_items_post_removed AFTER DELETE ON posts BEGIN
            DELETE FROM feed_items WHERE post = OLD.id;
        END;
        CREATE TRIGGER feed_items_repost_added AFTER INSERT ON reposts BEGIN
            INSERT INTO feed_items (t, src, item, actor, post)
                SELECT NEW.created_at, 1, NEW.id, NEW.user, NEW.post FROM posts WHERE id = NEW.post AND deleted = 0;
        END;
        CREATE TRIGGER feed_items_repost_removed AFTER DELETE ON reposts BEGIN
            DELETE FROM feed_items WHERE t = OLD.created_at AND src = 1 AND item = OLD.id;
        END;
        """

    /// Migration 10 on PostgreSQL: the same table, its key an index that carries the account
    /// and post too (so the walk reads the index only), and the same rules as trigger functions.
    static let feedItemsPostgres = """
        CREATE TABLE feed_items (
            t BIGINT NOT NULL,
            src BIGINT NOT NULL,
            item BIGINT NOT NULL,
            actor BIGINT NOT NULL,
            post BIGINT NOT NULL,
            PRIMARY KEY (t, src, item) INCLUDE (actor, post)
        );
        CREATE INDEX feed_items_by_post ON feed_items (post);
        INSERT INTO feed_items (t, src, item, actor, post)
            SELECT created_at, 0, id, author, id FROM posts WHERE deleted = 0;
        INSERT INTO feed_items (t, src, item, actor, post)
            SELECT r.created_at, 1, r.id, r."user", r.post FROM reposts r JOIN posts p ON p.id = r.post
            WHERE p.deleted = 0;
        CREATE FUNCTION feed_items_keep() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_TABLE_NAME = 'posts' THEN
                IF TG_OP = 'INSERT' AND NEW.deleted = 0 THEN
                    INSERT INTO feed_items (t, src, item, actor, post)
                        VALUES (NEW.created_at, 0, NEW.id, NEW.author, NEW.id);
                ELSIF TG_OP = 'UPDATE' AND NEW.deleted <> 0 AND OLD.deleted = 0 THEN
                    DELETE FROM feed_items WHERE post = NEW.id;
                ELSIF TG_OP = 'DELETE' THEN
                    DELETE FROM feed_items WHERE post = OLD.id;
                END IF;
            ELSIF TG_OP = 'INSERT' THEN
                INSERT INTO feed_items (t, src, item, actor, post)
                    SELECT NEW.created_at, 1, NEW.id, NEW."user", NEW.post FROM posts
                    WHERE id = NEW.post AND deleted = 0;
            ELSIF TG_OP = 'DELETE' THEN
                DELETE FROM feed_items WHERE t = OLD.created_at AND src = 1 AND item = OLD.id;
            END IF;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER feed_items_posts AFTER INSERT OR UPDATE OF deleted OR DELETE ON posts
            FOR EACH ROW EXECUTE FUNCTION feed_items_keep();
        CREATE TRIGGER feed_items_reposts AFTER INSERT OR DELETE ON reposts
            FOR EACH ROW EXECUTE FUNCTION feed_items_keep();
        """

    /// Migration 3 on PostgreSQL: the same tables and columns. A PostgreSQL database starts at
    /// this build's schema, so it never holds rows from before identity: no account responses
    /// to turn into account keys, no seed tokens to mark demo accounts by.
    static let identityPostgres = """
        CREATE TABLE account_keys (
            key TEXT PRIMARY KEY,
            "user" BIGINT NOT NULL REFERENCES users (id),
            created_at BIGINT NOT NULL
        );
        DELETE FROM mutations WHERE "user" = 0;
        ALTER TABLE users DROP COLUMN token;
        ALTER TABLE users ADD COLUMN password_hash TEXT;
        ALTER TABLE users ADD COLUMN demo BIGINT NOT NULL DEFAULT 0;
        CREATE TABLE sessions (
            id BIGINT PRIMARY KEY,
            "user" BIGINT NOT NULL REFERENCES users (id),
            family BIGINT NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            renew_hash TEXT NOT NULL UNIQUE,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            renew_expires_at BIGINT NOT NULL,
            revoked_at BIGINT,
            revoked_reason TEXT
        );
        CREATE TRIGGER sessions_next_id BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION storage_next_id();
        CREATE INDEX sessions_by_family ON sessions (family);
        CREATE INDEX sessions_by_renew_expiry ON sessions (renew_expires_at);
        """

    /// Migration 3's SQL. `users` is rebuilt (SQLite cannot drop a UNIQUE column) with its
    /// rows' ids kept; foreign keys are checked at commit, when every row is back.
    static let identitySQL = """
        PRAGMA defer_foreign_keys = ON;
        CREATE TEMP TABLE users_before_identity AS
            SELECT id, handle, display_name, bio, created_at, json, token = 'seed-' || handle AS demo FROM users;
        CREATE TABLE account_keys (
            key TEXT PRIMARY KEY,
            user INTEGER NOT NULL REFERENCES users (id),
            created_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO account_keys (key, user, created_at)
            SELECT token, CAST(substr(json_extract(CAST(body AS TEXT), '$.account.user.id'), 2) AS INTEGER),
                   created_at
            FROM mutations WHERE user = 0 AND status = 201 AND json_valid(CAST(body AS TEXT));
        DELETE FROM account_keys WHERE user NOT IN (SELECT id FROM users_before_identity);
        DELETE FROM mutations WHERE user = 0;
        DROP TABLE users;
        CREATE TABLE users (
            id INTEGER PRIMARY KEY,
            handle TEXT NOT NULL UNIQUE,
            display_name TEXT NOT NULL,
            bio TEXT NOT NULL,
            password_hash TEXT,
            demo INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            json BLOB NOT NULL
        );
        INSERT INTO users (id, handle, display_name, bio, demo, created_at, json)
            SELECT id, handle, display_name, bio, demo, created_at, json FROM users_before_identity;
        DROP TABLE users_before_identity;
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            user INTEGER NOT NULL REFERENCES users (id),
            family INTEGER NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            renew_hash TEXT NOT NULL UNIQUE,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            renew_expires_at INTEGER NOT NULL,
            revoked_at INTEGER,
            revoked_reason TEXT
        );
        CREATE INDEX sessions_by_family ON sessions (family);
        CREATE INDEX sessions_by_renew_expiry ON sessions (renew_expires_at);
        """
}
