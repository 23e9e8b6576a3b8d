//! The schema and its migrations. The version is SQLite's `user_version`; each migration takes
//! the database from one version to the next inside one transaction, so a database is always at
//! a version this list names. A database written by any version opens with every later one
//! (`tests/fixtures/` keeps one per version).

use crate::{APPLICATION_ID, StoreError};
use rusqlite::{Connection, TransactionBehavior};

/// The schema version this build writes and reads.
pub const SCHEMA_VERSION: i32 = 3;

/// Migration `i` takes the database from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 0 -> 1: games and their steps.
    "CREATE TABLE meta (
         key   TEXT PRIMARY KEY,
         value TEXT NOT NULL
     ) WITHOUT ROWID;
     CREATE TABLE games (
         id          INTEGER PRIMARY KEY,
         ruleset     TEXT NOT NULL,
         version     TEXT NOT NULL,
         title       TEXT NOT NULL,
         encounter   TEXT NOT NULL,
         seed        INTEGER,
         dice        TEXT NOT NULL CHECK (dice IN ('seeded', 'typed')),
         head        TEXT NOT NULL,
         status      TEXT NOT NULL CHECK (status IN ('playing', 'over')),
         position    TEXT NOT NULL,
         steps       INTEGER NOT NULL DEFAULT 0,
         created     TEXT NOT NULL DEFAULT (datetime('now')),
         updated     TEXT NOT NULL DEFAULT (datetime('now')),
         lease_pid   INTEGER,
         lease_token TEXT,
         lease_host  TEXT,
         lease_since TEXT
     );
     CREATE TABLE steps (
         game    INTEGER NOT NULL REFERENCES games (id),
         n       INTEGER NOT NULL,
         kind    TEXT NOT NULL CHECK (kind IN ('command', 'undo', 'redo')),
         refers  INTEGER,
         seat    INTEGER,
         text    TEXT,
         command TEXT,
         faces   TEXT,
         events  TEXT,
         at      TEXT NOT NULL,
         PRIMARY KEY (game, n)
     ) WITHOUT ROWID;",
    // 1 -> 2: campaigns, their rosters of characters with lasting state, and the rests taken.
    "CREATE TABLE campaigns (
         id      INTEGER PRIMARY KEY,
         name    TEXT NOT NULL UNIQUE,
         ruleset TEXT NOT NULL,
         created TEXT NOT NULL DEFAULT (datetime('now'))
     );
     CREATE TABLE roster (
         campaign  INTEGER NOT NULL REFERENCES campaigns (id),
         character TEXT NOT NULL,
         name      TEXT NOT NULL,
         lasting   TEXT NOT NULL,
         game      INTEGER REFERENCES games (id),
         updated   TEXT NOT NULL,
         PRIMARY KEY (campaign, character)
     ) WITHOUT ROWID;
     CREATE TABLE roster_log (
         campaign INTEGER NOT NULL REFERENCES campaigns (id),
         n        INTEGER NOT NULL,
         at       TEXT NOT NULL,
         what     TEXT NOT NULL,
         PRIMARY KEY (campaign, n)
     ) WITHOUT ROWID;
     ALTER TABLE games ADD COLUMN campaign INTEGER REFERENCES campaigns (id);",
    // 2 -> 3: the browser tables `fray serve` keeps open (how their dice are given, the seats
    // the AI plays) and each seat's secret.
    "CREATE TABLE tables (
         game   INTEGER PRIMARY KEY REFERENCES games (id),
         dice   TEXT NOT NULL CHECK (dice IN ('server', 'typed')),
         ai     TEXT NOT NULL,
         open   INTEGER NOT NULL CHECK (open IN (0, 1)),
         opened TEXT NOT NULL DEFAULT (datetime('now'))
     );
     CREATE TABLE seat_secrets (
         game   INTEGER NOT NULL REFERENCES games (id),
         seat   INTEGER NOT NULL,
         secret TEXT NOT NULL,
         PRIMARY KEY (game, seat)
     ) WITHOUT ROWID;",
];

/// Brings a database at `from` up to [`SCHEMA_VERSION`] (a new one from 0), one transaction per
/// step, and records which fray created it.
pub fn migrate(conn: &mut Connection, from: i64) -> Result<(), StoreError> {
    debug_assert_eq!(MIGRATIONS.len(), SCHEMA_VERSION as usize);
    for (v, sql) in MIGRATIONS.iter().enumerate().skip(from.max(0) as usize) {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Another process may have migrated while this one waited for the lock.
        let now: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if now > v as i64 {
            continue;
        }
        if v == 0 {
            tx.pragma_update(None, "application_id", APPLICATION_ID)?;
        }
        tx.execute_batch(sql)?;
        tx.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
            [
                format!("migrated-to-{}", v + 1),
                format!("fray {}", env!("CARGO_PKG_VERSION")),
            ],
        )?;
        tx.pragma_update(None, "user_version", v as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}
