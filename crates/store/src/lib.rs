//! Saved games: an embedded SQLite database (the library is compiled in, so nothing but `cargo`
//! is needed) holding many games, each as the head of its record (ruleset, version, options,
//! encounter, seed, the start) and one row per step: an accepted command with its seat, the
//! command, the faces drawn and the events produced (as JSON), an undo or a redo.
//!
//! The store knows no ruleset: commands and events are the ruleset's JSON, written as given and
//! read back into a record that the ruleset replays and verifies. It never opens files itself
//! but through SQLite, and takes the time from SQLite, so the `cli` crate stays the only one
//! that touches files and terminals.
//!
//! Durability: the database runs in WAL mode with `synchronous = FULL`, so a step's transaction
//! is on disk (the WAL synced) when [`Store::append`] returns; a crash or a power cut keeps every
//! step that was acknowledged. Identity: a fray database carries [`APPLICATION_ID`] in its header
//! and its schema version in `user_version`; anything else (a text file, another program's
//! database, a newer fray's, a damaged one) is refused before anything is written to it.
//! Concurrency: SQLite's locks keep two processes from corrupting the file; a game being played
//! is leased by its process ([`Holder`]), and a second process asking for it gets
//! [`StoreError::InUse`] unless the holder is dead.

mod schema;

use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};
use std::path::Path;
use std::time::Duration;

mod agree;
pub use schema::SCHEMA_VERSION;

/// The `application_id` in the header of every fray database: the bytes `FRAY`.
pub const APPLICATION_ID: i32 = 0x4652_4159;

/// The first 16 bytes of every SQLite database file.
pub const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// How long a process waits for another one's write to finish before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Why the store refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file is not a fray database (not SQLite at all, or another program's database).
    #[error("not a fray saved-games database: {0}; the file was left as it is")]
    Foreign(String),
    /// The database was written by a newer fray, with a schema this one does not know.
    #[error(
        "the database has schema version {found}, written by a newer fray (this one reads versions up to {supported}); the file was left as it is"
    )]
    Newer {
        /// The schema version found.
        found: i64,
        /// The newest version this build reads ([`SCHEMA_VERSION`]).
        supported: i64,
    },
    /// SQLite found the file damaged.
    #[error("the database is damaged: {0}; the file was left as it is")]
    Corrupt(String),
    /// No game with this number.
    #[error("no game {0} in this database")]
    NoGame(i64),
    /// The game is being played by another living process.
    #[error(
        "game {game} is in use: process {} on {} has had it open since {} (if that process is gone for good, add --take-over)",
        .holder.pid, .holder.host, .since
    )]
    InUse {
        /// The game.
        game: i64,
        /// Who holds it.
        holder: Holder,
        /// When it took the game, as SQLite's UTC date and time.
        since: String,
    },
    /// Another process took the game over (`--take-over`) while this one played it.
    #[error("game {0} was taken over by another process; this one stops writing to it")]
    LostLease(i64),
    /// What was asked for is not there or does not fit (no such campaign or character, a
    /// campaign of another ruleset, nothing to undo or redo).
    #[error("{0}")]
    Refused(String),
    /// The stored data does not make sense (a step that undoes nothing, broken JSON).
    #[error("the database holds something this fray cannot read: {0}")]
    Invalid(String),
    /// Any other SQLite failure (a full disk, a lock held too long, no permission).
    #[error("{0}")]
    Sqlite(rusqlite::Error),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        match e.sqlite_error_code() {
            Some(ErrorCode::NotADatabase) => StoreError::Foreign("SQLite says the file is not a database".into()),
            Some(ErrorCode::DatabaseCorrupt) => StoreError::Corrupt(e.to_string()),
            _ => StoreError::Sqlite(e),
        }
    }
}

/// What the first bytes of a file say it is (see [`check_header`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Header {
    /// An empty file: a new database may be made in it.
    Empty,
    /// A fray database with this schema version in its header (a version changed since the last
    /// checkpoint may still sit in the WAL: [`Store::open`] reads the real one).
    Fray {
        /// The header's `user_version`.
        schema: i64,
    },
}

/// Reads the first 100 bytes of a file (fewer if it is shorter) as a database header, so a
/// foreign or newer file is refused before SQLite opens it (and so before anything could be
/// written to it).
pub fn check_header(bytes: &[u8]) -> Result<Header, StoreError> {
    if bytes.is_empty() {
        return Ok(Header::Empty);
    }
    if bytes.len() < 100 || !bytes.starts_with(SQLITE_MAGIC) {
        return Err(StoreError::Foreign("the file is not a SQLite database".into()));
    }
    let be = |at: usize| i32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let (schema, app) = (be(60), be(68));
    if app != APPLICATION_ID {
        return Err(StoreError::Foreign(format!(
            "a SQLite database of another program (application id {app:#x})"
        )));
    }
    if i64::from(schema) > i64::from(SCHEMA_VERSION) {
        return Err(StoreError::Newer {
            found: schema.into(),
            supported: SCHEMA_VERSION.into(),
        });
    }
    Ok(Header::Fray { schema: schema.into() })
}

/// A process holding a game: its id, a token that tells it from a later process given the same
/// id (on Linux, its start time), and the machine it runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    /// The process id.
    pub pid: u32,
    /// Tells this process from a later one with the same id.
    pub token: String,
    /// The machine's name.
    pub host: String,
}

/// How a game's dice are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiceKind {
    /// A seed: the dice stream continues from the record alone.
    Seeded,
    /// Faces typed in or given as a list: resuming needs a dice source again.
    Typed,
}

impl DiceKind {
    fn as_str(self) -> &'static str {
        match self {
            DiceKind::Seeded => "seeded",
            DiceKind::Typed => "typed",
        }
    }
}

/// A game to save.
pub struct NewGame<'a> {
    /// The ruleset id.
    pub ruleset: &'a str,
    /// The ruleset version.
    pub version: &'a str,
    /// The encounter's title.
    pub title: &'a str,
    /// The encounter file as named on the command line (or where the record came from).
    pub encounter: &'a str,
    /// The seed, if seeded.
    pub seed: Option<u64>,
    /// The record as JSON without commands (its `entries` are ignored).
    pub head: &'a str,
    /// The pending decision, as a line ("[players] Round 1: Korrin's turn").
    pub position: &'a str,
    /// `true` when the combat is already over.
    pub over: bool,
}

/// A step of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// An accepted command: its seat, the text typed (if typed), and the record entry's
    /// command, faces and events as JSON.
    Command {
        /// The seat that gave it.
        seat: u8,
        /// What was typed (`None` for an imported record).
        text: Option<&'a str>,
        /// The command (JSON).
        command: &'a str,
        /// The faces drawn (JSON array).
        faces: &'a str,
        /// The events (JSON array).
        events: &'a str,
    },
    /// Takes back the last command in effect.
    Undo,
    /// Re-applies the command undone last, while nothing else happened since.
    Redo,
}

/// What a stored step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// An accepted command.
    Command,
    /// An undo.
    Undo,
    /// A redo.
    Redo,
}

/// A stored step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRow {
    /// Its number in the game, from 1.
    pub n: i64,
    /// What it is.
    pub kind: StepKind,
    /// For an undo or a redo, the command step it takes back or re-applies.
    pub refers: Option<i64>,
    /// The seat of a command.
    pub seat: Option<u8>,
    /// The text typed.
    pub text: Option<String>,
    /// The command (JSON).
    pub command: Option<String>,
    /// The faces (JSON array).
    pub faces: Option<String>,
    /// The events (JSON array).
    pub events: Option<String>,
    /// When it was saved (SQLite's UTC date and time).
    pub at: String,
}

impl StepRow {
    /// The step as a record entry (JSON), for a command.
    fn entry_json(&self, out: &mut String) -> Result<(), StoreError> {
        match (&self.seat, &self.command, &self.faces, &self.events) {
            (Some(seat), Some(c), Some(f), Some(e)) => {
                out.push_str(&format!(
                    "{{\"seat\":{seat},\"command\":{c},\"dice\":{f},\"events\":{e}}}"
                ));
                Ok(())
            }
            _ => Err(StoreError::Invalid(format!(
                "step {} is a command without its data",
                self.n
            ))),
        }
    }
}

/// A game as listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its number in the database.
    pub id: i64,
    /// The ruleset id.
    pub ruleset: String,
    /// The ruleset version that wrote it.
    pub version: String,
    /// The encounter's title.
    pub title: String,
    /// The encounter file.
    pub encounter: String,
    /// The seed, if seeded.
    pub seed: Option<i64>,
    /// Seeded or typed dice.
    pub dice: DiceKind,
    /// `playing` or `over`.
    pub over: bool,
    /// The pending decision as a line, or how it ended.
    pub position: String,
    /// Steps saved (commands, undos and redos).
    pub steps: i64,
    /// When it was created (UTC).
    pub created: String,
    /// When it last changed (UTC).
    pub updated: String,
    /// Who holds it now, and since when (a dead holder's lease is still shown).
    pub lease: Option<(Holder, String)>,
}

/// The steps of a game worked out: which commands are in effect, in order, and which undone
/// ones a redo would bring back (the next one last).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    /// Every step, in order.
    pub steps: Vec<StepRow>,
    /// Indexes into `steps` of the commands in effect, in order.
    pub effective: Vec<usize>,
    /// Indexes into `steps` of the commands undone since the last new command; the last is
    /// the one `redo` brings back.
    pub undone: Vec<usize>,
}

impl Timeline {
    /// Works out the timeline of `steps` (in order): a command clears what could be redone, an
    /// undo takes back the last command in effect, a redo brings back the last one undone. Each
    /// undo and redo names the command it is about, and must agree; the steps are numbered from
    /// 1 with none missing or repeated.
    pub fn of(steps: Vec<StepRow>) -> Result<Timeline, StoreError> {
        let mut effective = Vec::new();
        let mut undone = Vec::new();
        for (i, s) in steps.iter().enumerate() {
            // Steps are numbered 1, 2, 3, ... with none missing or repeated: a gap is a step
            // deleted from the file, which would otherwise replay as if it had never been.
            let expected = i as i64 + 1;
            if s.n != expected {
                return Err(StoreError::Invalid(if s.n > expected {
                    format!(
                        "step {expected} is missing (the step after {} is {})",
                        expected - 1,
                        s.n
                    )
                } else {
                    format!("step {} comes again after step {}", s.n, expected - 1)
                }));
            }
            match s.kind {
                StepKind::Command => {
                    effective.push(i);
                    undone.clear();
                }
                StepKind::Undo | StepKind::Redo => {
                    let (from, to) = if s.kind == StepKind::Undo {
                        (&mut effective, &mut undone)
                    } else {
                        (&mut undone, &mut effective)
                    };
                    let Some(j) = from.pop() else {
                        return Err(StoreError::Invalid(format!(
                            "step {} has nothing to take back or bring back",
                            s.n
                        )));
                    };
                    if s.refers != Some(steps[j].n) {
                        return Err(StoreError::Invalid(format!(
                            "step {} names step {:?}, but the step it is about is {}",
                            s.n, s.refers, steps[j].n
                        )));
                    }
                    to.push(j);
                }
            }
        }
        Ok(Timeline {
            steps,
            effective,
            undone,
        })
    }

    /// The record: `head` (the record JSON; its `entries` are replaced) with the commands in
    /// effect as its entries.
    pub fn record_json(&self, head: &str) -> Result<String, StoreError> {
        let mut head: serde_json::Value =
            serde_json::from_str(head).map_err(|e| StoreError::Invalid(format!("the game's record head: {e}")))?;
        let Some(obj) = head.as_object_mut() else {
            return Err(StoreError::Invalid(
                "the game's record head is not a JSON object".into(),
            ));
        };
        obj.remove("entries");
        if obj.is_empty() {
            return Err(StoreError::Invalid("the game's record head is empty".into()));
        }
        let mut out = head.to_string();
        out.pop(); // the closing brace
        out.push_str(",\"entries\":[");
        for (k, &i) in self.effective.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            self.steps[i].entry_json(&mut out)?;
        }
        out.push_str("]}");
        Ok(out)
    }
}

/// An open database of saved games.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens the database at `path`, making a new one when the file does not exist (or is
    /// empty) and `create` is set. A file that is not a fray database, a newer fray's or a
    /// damaged one is refused before anything is written to it; an older one is migrated.
    ///
    /// Several processes may open (and make) one database at once. SQLite answers some of the
    /// steps of opening, such as the switch to the write-ahead log while another process makes
    /// the file, with "database is locked" at once instead of waiting, so opening is tried again
    /// from the start (every step is safe to repeat) until [`BUSY_TIMEOUT`] has passed.
    pub fn open(path: &Path, create: bool) -> Result<Store, StoreError> {
        Store::open_with(path, create, true)
    }

    /// Opens once more a database this process has already opened with [`Store::open`] (a
    /// server's connection per table): the same checks but `quick_check`, which reads the
    /// whole file, and a small page cache (256 KiB), so many connections stay light.
    pub fn open_again(path: &Path) -> Result<Store, StoreError> {
        let store = Store::open_with(path, false, false)?;
        store.conn.pragma_update(None, "cache_size", -256)?;
        Ok(store)
    }

    fn open_with(path: &Path, create: bool, check: bool) -> Result<Store, StoreError> {
        let start = std::time::Instant::now();
        let mut pause = Duration::from_millis(5);
        loop {
            match Store::open_once(path, create, check) {
                Err(StoreError::Sqlite(e))
                    if matches!(
                        e.sqlite_error_code(),
                        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
                    ) && start.elapsed() < BUSY_TIMEOUT =>
                {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(100));
                }
                done => return done,
            }
        }
    }

    /// One attempt of [`Store::open`].
    fn open_once(path: &Path, create: bool, check: bool) -> Result<Store, StoreError> {
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if create {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let conn = Connection::open_with_flags(path, flags)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // The three are read in one transaction, so they come from one moment: another process
        // making the database between two separate reads would otherwise show tables without
        // their application id.
        let (app, version, objects) = {
            let tx = conn.unchecked_transaction()?;
            let app: i32 = tx.pragma_query_value(None, "application_id", |r| r.get(0))?;
            let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
            let objects: i64 = tx.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
            tx.commit()?;
            (app, version, objects)
        };
        let fresh = app == 0 && version == 0 && objects == 0;
        if fresh && !create {
            return Err(StoreError::Foreign(
                "the file holds no fray database (it is empty)".into(),
            ));
        }
        if !fresh {
            if app != APPLICATION_ID {
                return Err(StoreError::Foreign(format!(
                    "a SQLite database of another program (application id {app:#x})"
                )));
            }
            if version > i64::from(SCHEMA_VERSION) {
                return Err(StoreError::Newer {
                    found: version,
                    supported: SCHEMA_VERSION.into(),
                });
            }
            if check {
                let verdict: String = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0))?;
                if verdict != "ok" {
                    return Err(StoreError::Corrupt(verdict));
                }
            }
        }
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut store = Store { conn };
        if fresh {
            // A new database is made before the switch to WAL, so its header (the application
            // id that tells a fray database) is in the main file from the first moment.
            schema::migrate(&mut store.conn, version)?;
        }
        // WAL: a commit appends to the log and readers never block the writer. FULL: the log is
        // synced at every commit, so an acknowledged step survives a power cut too, not only a
        // crash of the process (NORMAL with WAL would only promise the latter).
        let mode: String = store
            .conn
            .pragma_update_and_check(None, "journal_mode", "wal", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Invalid(format!(
                "the database cannot use a write-ahead log (journal mode {mode})"
            )));
        }
        if !fresh {
            schema::migrate(&mut store.conn, version)?;
        }
        Ok(store)
    }

    /// The database's schema version.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self.conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Saves a new game, held by `holder`; returns its number.
    pub fn new_game(&mut self, g: &NewGame<'_>, holder: &Holder) -> Result<i64, StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let id = insert_game(&tx, g, Some(holder), 0)?;
        tx.commit()?;
        Ok(id)
    }

    /// Takes game `id` for `holder`. Refused with [`StoreError::InUse`] while another holder
    /// is alive (`alive` tells; a dead one's lease is taken over), unless `take_over` is set.
    pub fn claim(
        &mut self,
        id: i64,
        holder: &Holder,
        alive: &dyn Fn(&Holder) -> bool,
        take_over: bool,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let lease = tx
            .query_row(
                "SELECT lease_pid, lease_token, lease_host, lease_since FROM games WHERE id = ?1",
                [id],
                |r| Ok(lease_of(r.get::<_, Option<u32>>(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?
            .ok_or(StoreError::NoGame(id))?;
        if let Some((other, since)) = lease
            && other != *holder
            && !take_over
            && alive(&other)
        {
            return Err(StoreError::InUse {
                game: id,
                holder: other,
                since,
            });
        }
        tx.execute(
            "UPDATE games SET lease_pid = ?2, lease_token = ?3, lease_host = ?4, lease_since = datetime('now')
             WHERE id = ?1",
            params![id, holder.pid, holder.token, holder.host],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Gives game `id` back (when `holder` still holds it).
    pub fn release(&mut self, id: i64, holder: &Holder) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE games SET lease_pid = NULL, lease_token = NULL, lease_host = NULL, lease_since = NULL
             WHERE id = ?1 AND lease_pid = ?2 AND lease_token = ?3 AND lease_host = ?4",
            params![id, holder.pid, holder.token, holder.host],
        )?;
        Ok(())
    }

    /// Saves one step of game `id` in its own transaction, with the position after it; returns
    /// the step's number. When this returns, the step is on disk. Refused with
    /// [`StoreError::LostLease`] when `holder` no longer holds the game.
    pub fn append(
        &mut self,
        id: i64,
        holder: &Holder,
        step: &Step<'_>,
        position: &str,
        over: bool,
    ) -> Result<i64, StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let n: Option<i64> = tx
            .query_row(
                "UPDATE games SET steps = steps + 1, position = ?2, status = ?3, updated = datetime('now')
                 WHERE id = ?1 AND lease_pid = ?4 AND lease_token = ?5 AND lease_host = ?6
                 RETURNING steps",
                params![id, position, status(over), holder.pid, holder.token, holder.host],
                |r| r.get(0),
            )
            .optional()?;
        let Some(n) = n else {
            let exists: bool = tx.query_row("SELECT count(*) FROM games WHERE id = ?1", [id], |r| {
                r.get::<_, i64>(0).map(|c| c > 0)
            })?;
            return Err(if exists {
                StoreError::LostLease(id)
            } else {
                StoreError::NoGame(id)
            });
        };
        match step {
            Step::Command {
                seat,
                text,
                command,
                faces,
                events,
            } => {
                tx.execute(
                    "INSERT INTO steps (game, n, kind, seat, text, command, faces, events, at)
                     VALUES (?1, ?2, 'command', ?3, ?4, ?5, ?6, ?7, datetime('now'))",
                    params![id, n, seat, text, command, faces, events],
                )?;
            }
            Step::Undo | Step::Redo => {
                let steps = steps_of(&tx, id)?;
                let t = Timeline::of(steps)?;
                let (kind, from) = if *step == Step::Undo {
                    ("undo", &t.effective)
                } else {
                    ("redo", &t.undone)
                };
                let Some(&i) = from.last() else {
                    return Err(StoreError::Refused(format!("nothing to {kind} in game {id}")));
                };
                tx.execute(
                    "INSERT INTO steps (game, n, kind, refers, at) VALUES (?1, ?2, ?3, ?4, datetime('now'))",
                    params![id, n, kind, t.steps[i].n],
                )?;
            }
        }
        tx.commit()?;
        Ok(n)
    }

    /// Every game, the last changed first.
    pub fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        let mut q = self.conn.prepare(&format!(
            "SELECT {GAME_COLUMNS} FROM games ORDER BY updated DESC, id DESC"
        ))?;
        let rows = q.query_map([], game_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// One game.
    pub fn game(&self, id: i64) -> Result<GameRow, StoreError> {
        self.conn
            .query_row(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
                [id],
                game_row,
            )
            .optional()?
            .ok_or(StoreError::NoGame(id))
    }

    /// The game to continue when none is named: the last changed that is not over.
    pub fn latest_playing(&self) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM games WHERE status = 'playing' ORDER BY updated DESC, id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The head of game `id`'s record (JSON, without commands).
    pub fn head(&self, id: i64) -> Result<String, StoreError> {
        self.conn
            .query_row("SELECT head FROM games WHERE id = ?1", [id], |r| r.get(0))
            .optional()?
            .ok_or(StoreError::NoGame(id))
    }

    /// Game `id`'s steps worked out (see [`Timeline`]).
    pub fn timeline(&self, id: i64) -> Result<Timeline, StoreError> {
        self.game(id)?;
        Timeline::of(steps_of(&self.conn, id)?)
    }

    /// Game `id`'s record (JSON): its head with the commands in effect.
    pub fn record_json(&self, id: i64) -> Result<String, StoreError> {
        let head = self.head(id)?;
        agree::row_agrees(&self.game(id)?, &head)?;
        self.timeline(id)?.record_json(&head)
    }

    /// Saves a whole record as a new game (not held by anyone) in one transaction: `head` and
    /// its entries as command steps, each `(seat, command, faces, events)` as JSON.
    pub fn import(&mut self, g: &NewGame<'_>, entries: &[(u8, String, String, String)]) -> Result<i64, StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let id = insert_game(&tx, g, None, entries.len() as i64)?;
        {
            let mut ins = tx.prepare(
                "INSERT INTO steps (game, n, kind, seat, command, faces, events, at)
                 VALUES (?1, ?2, 'command', ?3, ?4, ?5, ?6, datetime('now'))",
            )?;
            for (i, (seat, command, faces, events)) in entries.iter().enumerate() {
                ins.execute(params![id, i as i64 + 1, seat, command, faces, events])?;
            }
        }
        tx.commit()?;
        Ok(id)
    }

    /// The database's size in bytes (pages in use times the page size; the WAL not counted).
    pub fn size_bytes(&self) -> Result<i64, StoreError> {
        let pages: i64 = self.conn.pragma_query_value(None, "page_count", |r| r.get(0))?;
        let size: i64 = self.conn.pragma_query_value(None, "page_size", |r| r.get(0))?;
        Ok(pages * size)
    }

    /// Copies everything in the WAL into the database file (as SQLite does by itself every
    /// 1,000 pages), for a size measurement or a file to copy.
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        self.conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }
}

/// A campaign: games of one ruleset whose characters carry their lasting state from one
/// encounter to the next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignRow {
    /// Its number.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The ruleset of its games.
    pub ruleset: String,
    /// When it was made (UTC).
    pub created: String,
}

/// What a character leaves in its campaign's roster at the end of a game: its id, its name
/// and its lasting state (keys of its `[[combatant]]` table and their values as TOML).
pub type Carried = (String, String, Vec<(String, String)>);

/// A character of a campaign's roster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RosterRow {
    /// The combatant id.
    pub character: String,
    /// Its name.
    pub name: String,
    /// Its lasting state: keys of its `[[combatant]]` table and their values (TOML), in the
    /// ruleset's order; a rest removes what it restores.
    pub lasting: Vec<(String, String)>,
    /// The game it last came out of.
    pub game: Option<i64>,
    /// When it last changed (UTC).
    pub updated: String,
}

impl Store {
    /// The campaign named `name`, made for `ruleset` if missing (when `create`); a campaign of
    /// another ruleset is refused.
    pub fn campaign(&mut self, name: &str, ruleset: &str, create: bool) -> Result<i64, StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let found: Option<(i64, String)> = tx
            .query_row("SELECT id, ruleset FROM campaigns WHERE name = ?1", [name], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        let id = match found {
            Some((id, r)) if r == ruleset => id,
            Some((_, r)) => {
                return Err(StoreError::Refused(format!(
                    "campaign '{name}' is {} {r} campaign, not a {ruleset} one",
                    if r.starts_with(['a', 'e', 'i', 'o', 'u']) {
                        "an"
                    } else {
                        "a"
                    }
                )));
            }
            None if create => {
                tx.execute(
                    "INSERT INTO campaigns (name, ruleset) VALUES (?1, ?2)",
                    params![name, ruleset],
                )?;
                tx.last_insert_rowid()
            }
            None => return Err(StoreError::Refused(format!("no campaign '{name}'"))),
        };
        tx.commit()?;
        Ok(id)
    }

    /// Every campaign, by name.
    pub fn campaigns(&self) -> Result<Vec<CampaignRow>, StoreError> {
        let mut q = self
            .conn
            .prepare("SELECT id, name, ruleset, created FROM campaigns ORDER BY name")?;
        let rows = q.query_map([], |r| {
            Ok(CampaignRow {
                id: r.get(0)?,
                name: r.get(1)?,
                ruleset: r.get(2)?,
                created: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Makes game `game` a game of campaign `campaign`.
    pub fn attach(&mut self, game: i64, campaign: i64) -> Result<(), StoreError> {
        self.conn
            .execute("UPDATE games SET campaign = ?2 WHERE id = ?1", params![game, campaign])?;
        Ok(())
    }

    /// The campaign of game `game`, if it has one.
    pub fn campaign_of(&self, game: i64) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT campaign FROM games WHERE id = ?1", [game], |r| r.get(0))
            .optional()?
            .flatten())
    }

    /// A campaign's roster, by character id.
    pub fn roster(&self, campaign: i64) -> Result<Vec<RosterRow>, StoreError> {
        let mut q = self.conn.prepare(
            "SELECT character, name, lasting, game, updated FROM roster WHERE campaign = ?1 ORDER BY character",
        )?;
        let rows = q.query_map([campaign], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get(1)?,
                r.get::<_, String>(2)?,
                r.get(3)?,
                r.get(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (character, name, lasting, game, updated) = row?;
            let lasting: Vec<(String, String)> = serde_json::from_str(&lasting)
                .map_err(|e| StoreError::Invalid(format!("the roster entry of '{character}': {e}")))?;
            out.push(RosterRow {
                character,
                name,
                lasting,
                game,
                updated,
            });
        }
        Ok(out)
    }

    /// The lasting state of game `game`'s characters at its end goes into its campaign's roster
    /// (nothing when the game has no campaign), in one transaction. A character whose roster
    /// entry came out of a later game keeps it. Returns the characters written.
    pub fn carry_out(&mut self, game: i64, characters: &[Carried]) -> Result<usize, StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let campaign: Option<i64> = tx
            .query_row("SELECT campaign FROM games WHERE id = ?1", [game], |r| r.get(0))
            .optional()?
            .ok_or(StoreError::NoGame(game))?;
        let Some(campaign) = campaign else {
            return Ok(0);
        };
        let mut written = Vec::new();
        for (id, name, lasting) in characters {
            let json = serde_json::to_string(lasting).map_err(|e| StoreError::Invalid(e.to_string()))?;
            let n = tx.execute(
                "INSERT INTO roster (campaign, character, name, lasting, game, updated)
                 VALUES (?1, ?2, ?3, ?4, ?5, datetime('now'))
                 ON CONFLICT (campaign, character) DO UPDATE SET
                     name = excluded.name, lasting = excluded.lasting, game = excluded.game,
                     updated = excluded.updated
                 WHERE roster.game IS NULL OR roster.game <= excluded.game",
                params![campaign, id, name, json, game],
            )?;
            if n > 0 {
                written.push(name.as_str());
            }
        }
        if !written.is_empty() {
            log_roster(&tx, campaign, &format!("game #{game} ended: {}", written.join(", ")))?;
        }
        tx.commit()?;
        Ok(written.len())
    }

    /// A rest for campaign `campaign`'s characters (all, or those named): removes the lasting
    /// keys `restores`, so each starts from its encounter's own values again; `what` goes into
    /// the campaign's log. Returns the names of the characters rested.
    pub fn rest(
        &mut self,
        campaign: i64,
        what: &str,
        restores: &[&str],
        only: &[String],
    ) -> Result<Vec<String>, StoreError> {
        let roster = self.roster(campaign)?;
        for id in only {
            if !roster.iter().any(|r| r.character.eq_ignore_ascii_case(id)) {
                return Err(StoreError::Refused(format!(
                    "no character '{id}' in the campaign's roster"
                )));
            }
        }
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut names = Vec::new();
        for r in roster
            .iter()
            .filter(|r| only.is_empty() || only.iter().any(|o| o.eq_ignore_ascii_case(&r.character)))
        {
            let kept: Vec<&(String, String)> = r
                .lasting
                .iter()
                .filter(|(k, _)| !restores.contains(&k.as_str()))
                .collect();
            let json = serde_json::to_string(&kept).map_err(|e| StoreError::Invalid(e.to_string()))?;
            tx.execute(
                "UPDATE roster SET lasting = ?3, updated = datetime('now') WHERE campaign = ?1 AND character = ?2",
                params![campaign, r.character, json],
            )?;
            names.push(r.name.clone());
        }
        log_roster(&tx, campaign, &format!("{what}: {}", names.join(", ")))?;
        tx.commit()?;
        Ok(names)
    }

    /// Takes characters out of a campaign's roster (a dead character, one who leaves the
    /// party), in one transaction that logs it; returns their names. Every id must be in the
    /// roster (ids compare without regard to case) and at least one must be given. A character
    /// taken out starts its next encounter of the campaign from the file's own values, and the
    /// end of that fight puts it back in the roster.
    pub fn retire(&mut self, campaign: i64, ids: &[String]) -> Result<Vec<String>, StoreError> {
        if ids.is_empty() {
            return Err(StoreError::Refused(
                "name the characters to take out of the roster".into(),
            ));
        }
        let roster = self.roster(campaign)?;
        let mut gone = Vec::new();
        for id in ids {
            let Some(r) = roster.iter().find(|r| r.character.eq_ignore_ascii_case(id)) else {
                return Err(StoreError::Refused(format!(
                    "no character '{id}' in the campaign's roster"
                )));
            };
            if !gone.iter().any(|g: &&RosterRow| g.character == r.character) {
                gone.push(r);
            }
        }
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        for r in &gone {
            tx.execute(
                "DELETE FROM roster WHERE campaign = ?1 AND character = ?2",
                params![campaign, r.character],
            )?;
        }
        let names: Vec<String> = gone.iter().map(|r| r.name.clone()).collect();
        log_roster(&tx, campaign, &format!("out of the roster: {}", names.join(", ")))?;
        tx.commit()?;
        Ok(names)
    }

    /// A campaign's log: when each game ended and each rest was taken, in order.
    pub fn roster_log(&self, campaign: i64) -> Result<Vec<(String, String)>, StoreError> {
        let mut q = self
            .conn
            .prepare("SELECT at, what FROM roster_log WHERE campaign = ?1 ORDER BY n")?;
        let rows = q.query_map([campaign], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// A browser table of `fray serve` (schema 3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    /// The game it plays.
    pub game: i64,
    /// `server` (the server rolls) or `typed` (the seats type the faces of physical dice).
    pub dice: String,
    /// The seats the built-in AI plays, by number.
    pub ai: Vec<u8>,
    /// Whether the table is open (a closed one keeps its secrets, so its links work again
    /// when it is opened again).
    pub open: bool,
}

/// The browser tables `fray serve` keeps, and the server's own settings.
impl Store {
    /// A setting of the database (`meta` table), such as the server's GM key.
    pub fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    /// Sets a setting of the database.
    pub fn set_setting(&mut self, key: &str, value: &str) -> Result<(), StoreError> {
        self.conn
            .execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)", [key, value])?;
        Ok(())
    }

    /// Opens (or opens again) a table for game `id`, with its dice and AI seats, and gives each
    /// of `secrets`' seats its secret unless it has one already; returns every seat's secret.
    pub fn open_table(
        &mut self,
        id: i64,
        dice: &str,
        ai: &[u8],
        secrets: &[(u8, String)],
    ) -> Result<Vec<(u8, String)>, StoreError> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let ai_json = serde_json::to_string(ai).map_err(|e| StoreError::Invalid(e.to_string()))?;
        tx.execute(
            "INSERT INTO tables (game, dice, ai, open) VALUES (?1, ?2, ?3, 1)
             ON CONFLICT (game) DO UPDATE SET dice = ?2, ai = ?3, open = 1",
            params![id, dice, ai_json],
        )?;
        for (seat, secret) in secrets {
            tx.execute(
                "INSERT OR IGNORE INTO seat_secrets (game, seat, secret) VALUES (?1, ?2, ?3)",
                params![id, seat, secret],
            )?;
        }
        tx.commit()?;
        self.secrets(id)
    }

    /// Every seat's secret of game `id`'s table, by seat.
    pub fn secrets(&self, id: i64) -> Result<Vec<(u8, String)>, StoreError> {
        let mut q = self
            .conn
            .prepare("SELECT seat, secret FROM seat_secrets WHERE game = ?1 ORDER BY seat")?;
        let rows = q.query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Game `id`'s table, if it ever had one.
    pub fn table(&self, id: i64) -> Result<Option<TableRow>, StoreError> {
        let row = self
            .conn
            .query_row("SELECT game, dice, ai, open FROM tables WHERE game = ?1", [id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                ))
            })
            .optional()?;
        row.map(|(game, dice, ai, open)| {
            let ai = serde_json::from_str(&ai)
                .map_err(|e| StoreError::Invalid(format!("table {game}: its AI seats do not read: {e}")))?;
            Ok(TableRow {
                game,
                dice,
                ai,
                open: open != 0,
            })
        })
        .transpose()
    }

    /// The games whose tables are open.
    pub fn open_tables(&self) -> Result<Vec<i64>, StoreError> {
        let mut q = self
            .conn
            .prepare("SELECT game FROM tables WHERE open = 1 ORDER BY game")?;
        let rows = q.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Sets the seats the AI plays at game `id`'s table.
    pub fn set_table_ai(&mut self, id: i64, ai: &[u8]) -> Result<(), StoreError> {
        let ai_json = serde_json::to_string(ai).map_err(|e| StoreError::Invalid(e.to_string()))?;
        self.conn
            .execute("UPDATE tables SET ai = ?2 WHERE game = ?1", params![id, ai_json])?;
        Ok(())
    }

    /// Closes game `id`'s table (its secrets are kept for when it opens again).
    pub fn close_table(&mut self, id: i64) -> Result<(), StoreError> {
        self.conn.execute("UPDATE tables SET open = 0 WHERE game = ?1", [id])?;
        Ok(())
    }
}

fn log_roster(conn: &Connection, campaign: i64, what: &str) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO roster_log (campaign, n, at, what)
         VALUES (?1, (SELECT coalesce(max(n), 0) + 1 FROM roster_log WHERE campaign = ?1), datetime('now'), ?2)",
        params![campaign, what],
    )?;
    Ok(())
}

/// Inserts a game row (held by `holder` when given, with `steps` steps to come) and returns its
/// number.
fn insert_game(conn: &Connection, g: &NewGame<'_>, holder: Option<&Holder>, steps: i64) -> Result<i64, StoreError> {
    conn.execute(
        "INSERT INTO games (ruleset, version, title, encounter, seed, dice, head, status, position, steps,
                            lease_pid, lease_token, lease_host, lease_since)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, CASE WHEN ?11 IS NULL THEN NULL ELSE datetime('now') END)",
        params![
            g.ruleset,
            g.version,
            g.title,
            g.encounter,
            g.seed.map(|s| s as i64),
            if g.seed.is_some() {
                DiceKind::Seeded.as_str()
            } else {
                DiceKind::Typed.as_str()
            },
            g.head,
            status(g.over),
            g.position,
            steps,
            holder.map(|h| h.pid),
            holder.map(|h| h.token.as_str()),
            holder.map(|h| h.host.as_str()),
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

fn status(over: bool) -> &'static str {
    if over { "over" } else { "playing" }
}

const GAME_COLUMNS: &str =
    "id, ruleset, version, title, encounter, seed, dice, status, position, steps, created, updated,
     lease_pid, lease_token, lease_host, lease_since";

fn lease_of(
    pid: Option<u32>,
    token: Option<String>,
    host: Option<String>,
    since: Option<String>,
) -> Option<(Holder, String)> {
    Some((
        Holder {
            pid: pid?,
            token: token.unwrap_or_default(),
            host: host.unwrap_or_default(),
        },
        since.unwrap_or_default(),
    ))
}

fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        ruleset: r.get(1)?,
        version: r.get(2)?,
        title: r.get(3)?,
        encounter: r.get(4)?,
        seed: r.get(5)?,
        dice: if r.get::<_, String>(6)? == "seeded" {
            DiceKind::Seeded
        } else {
            DiceKind::Typed
        },
        over: r.get::<_, String>(7)? == "over",
        position: r.get(8)?,
        steps: r.get(9)?,
        created: r.get(10)?,
        updated: r.get(11)?,
        lease: lease_of(r.get(12)?, r.get(13)?, r.get(14)?, r.get(15)?),
    })
}

fn steps_of(conn: &Connection, id: i64) -> Result<Vec<StepRow>, StoreError> {
    let mut q = conn.prepare_cached(
        "SELECT n, kind, refers, seat, text, command, faces, events, at FROM steps WHERE game = ?1 ORDER BY n",
    )?;
    let rows = q.query_map([id], |r| {
        let kind = match r.get::<_, String>(1)?.as_str() {
            "undo" => StepKind::Undo,
            "redo" => StepKind::Redo,
            _ => StepKind::Command,
        };
        Ok(StepRow {
            n: r.get(0)?,
            kind,
            refers: r.get(2)?,
            seat: r.get(3)?,
            text: r.get(4)?,
            command: r.get(5)?,
            faces: r.get(6)?,
            events: r.get(7)?,
            at: r.get(8)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
