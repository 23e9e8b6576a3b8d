//! Saved games: `fray play --save DB`, `resume`, `games`, `log`, `export`, `import` and
//! `sim --from DB:GAME`, on the `fray-store` database.
//!
//! A file is looked at before SQLite opens it (its first 100 bytes: a SQLite header with fray's
//! application id and a schema version this fray reads), so a foreign, newer or damaged file is
//! refused (exit 2) and never written to. A game being played is held by its process: the lease
//! names the process id, its start time (so a later process given the same id is not taken for
//! it) and the machine; a lease whose process has died is taken over without asking.

use crate::vary::{Varied, set_path};
use crate::{Fail, read_source, registry};
use fray_engine::Seat;
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::text::{AnyGame, EntryJson};
use fray_store::{Holder, NewGame, Step, Store, StoreError, Timeline};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The message for a store error about the database at `path`.
fn store_fail(path: &Path, e: StoreError) -> Fail {
    Fail::input(format!("{}: error: {e}", path.display()))
}

/// Opens the saved-games database at `path` (a new one when it does not exist and `create` is
/// set). Anything but a fray database this fray can read is refused with exit 2 and left as it
/// is.
pub fn open_store(path: &Path, create: bool) -> Result<Store, Fail> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(Fail::input(format!(
                "{}: error: a folder, not a saved-games database",
                path.display()
            )));
        }
        // A named pipe would block the read below until something writes to it.
        Ok(m) if !m.is_file() => return Err(not_a_regular_file(path, &m.file_type())),
        Ok(_) => {
            let mut header = Vec::with_capacity(100);
            std::fs::File::open(path)
                .and_then(|f| f.take(100).read_to_end(&mut header))
                .map_err(|e| Fail::input(format!("{}: error: cannot read the database: {e}", path.display())))?;
            fray_store::check_header(&header).map_err(|e| store_fail(path, e))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !create => {
            return Err(Fail::input(format!(
                "{}: error: no such saved-games database (`fray play FILE --save {}` makes one)",
                path.display(),
                path.display()
            )));
        }
        Err(_) => {}
    }
    Store::open(path, create).map_err(|e| store_fail(path, e))
}

/// The refusal of a path that names neither a regular file nor a folder (a named pipe, a
/// socket, a device), told from its metadata alone: opening a named pipe for reading would wait
/// for a writer forever.
fn not_a_regular_file(path: &Path, kind: &std::fs::FileType) -> Fail {
    Fail::input(format!(
        "{}: error: not a fray saved-games database: {} is {}, not a regular file; the file was left as it is",
        path.display(),
        path.display(),
        kind_of_special(kind)
    ))
}

#[cfg(unix)]
fn kind_of_special(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn kind_of_special(_: &std::fs::FileType) -> &'static str {
    "a special file"
}

/// Opens once more a database this process already has open (and checked with
/// [`open_store`]), as `fray serve` does for each table, without reading its header through a
/// file of its own: POSIX locks belong to the process, and closing any of its descriptors of a
/// file drops every lock SQLite holds on it, so another process would take the database for
/// unused and delete the write-ahead log this one still writes to.
pub fn open_store_again(path: &Path) -> Result<Store, Fail> {
    Store::open_again(path).map_err(|e| store_fail(path, e))
}

/// The machine's name, as far as it can be told.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "this machine".into())
}

/// A process's state letter and start time, from `/proc/PID/stat` (Linux).
fn proc_stat(pid: &str) -> Option<(char, String)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces: the fields follow the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    // Field 22 of the whole line is the start time; the rest begins at field 3.
    Some((state, fields.get(19)?.to_string()))
}

/// This process, as a holder of games.
pub fn me() -> Holder {
    Holder {
        pid: std::process::id(),
        token: proc_stat("self").map(|(_, t)| t).unwrap_or_default(),
        host: host_name(),
    }
}

/// Whether the process holding a game is still running. A process on another machine, or on a
/// system without `/proc`, cannot be checked and counts as running (`--take-over` frees it).
pub fn alive(h: &Holder) -> bool {
    let mine = me();
    if h.host != mine.host || mine.token.is_empty() {
        return true;
    }
    match proc_stat(&h.pid.to_string()) {
        None => false,
        Some(('Z' | 'X', _)) => false,
        Some((_, start)) => h.token.is_empty() || start == h.token,
    }
}

/// The pending decision of a game as one line, or how it ended (the winning side by its id,
/// read off the shared view).
pub fn position(game: &dyn AnyGame) -> String {
    if let Some(p) = game.pending_line() {
        return p;
    }
    match game.seat_view(fray_engine::Seat::GM).outcome {
        Some(o) => match o.winner {
            Some(w) => format!("over ({}, {w} won)", o.reason),
            None => format!("over ({}, no winner)", o.reason),
        },
        None => "over".into(),
    }
}

/// What the games table says of a game besides its record.
struct Facts {
    version: String,
    title: String,
    encounter: String,
    position: String,
}

impl Facts {
    /// The facts of `game`, whose record head is `head`, from `encounter`.
    fn of(game: &dyn AnyGame, head: &str, encounter: &Path) -> Facts {
        let version = serde_json::from_str::<serde_json::Value>(head)
            .ok()
            .and_then(|v| v.get("version").and_then(|v| v.as_str()).map(str::to_string))
            .unwrap_or_default();
        Facts {
            version,
            title: game.title(),
            encounter: encounter.display().to_string(),
            position: position(game),
        }
    }

    /// The row to save.
    fn new_game<'a>(&'a self, game: &dyn AnyGame, head: &'a str) -> NewGame<'a> {
        NewGame {
            ruleset: game.ruleset_id(),
            version: &self.version,
            title: &self.title,
            encounter: &self.encounter,
            seed: game.seed(),
            head,
            position: &self.position,
            over: game.outcome().is_some(),
        }
    }
}

/// A game being played and saved: every step goes into the database in its own transaction.
pub struct Save {
    store: Store,
    path: PathBuf,
    /// The game's number.
    pub id: i64,
    holder: Holder,
    /// The undone commands a redo can bring back, the next one last.
    undone: Vec<EntryJson>,
}

impl Save {
    /// Game `id` of the database at `db`, held by this process as `holder`, nothing undone yet.
    fn held(store: Store, db: &Path, id: i64, holder: Holder) -> Save {
        Save {
            store,
            path: db.to_path_buf(),
            id,
            holder,
            undone: Vec::new(),
        }
    }

    fn fail(&self, e: StoreError) -> Fail {
        store_fail(&self.path, e)
    }

    /// Saves a game just started (no command yet: its start, with every face drawn for it) as a
    /// new game of `store`, the database at `db` (opened with [`open_store`] before the game
    /// started, so a bad file stops play at once), a game of `campaign` if given. A game that
    /// ended at its start is carried out ([`Save::carry_out`]) by the caller.
    pub fn create(
        mut store: Store,
        db: &Path,
        game: &dyn AnyGame,
        encounter: &Path,
        campaign: Option<&Campaign>,
    ) -> Result<Save, Fail> {
        let head = game.record_json();
        let facts = Facts::of(game, &head, encounter);
        let holder = me();
        let id = store
            .new_game(&facts.new_game(game, &head), &holder)
            .map_err(|e| store_fail(db, e))?;
        if let Some(c) = campaign {
            store.attach(id, c.id).map_err(|e| store_fail(db, e))?;
        }
        Ok(Save::held(store, db, id, holder))
    }

    /// The database this game is saved in (for the browser table's own rows).
    pub fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// The database's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// When the fight is over and the game belongs to a campaign, its characters' lasting
    /// state goes into the roster.
    pub fn carry_out(&mut self, game: &dyn AnyGame) -> Result<(), Fail> {
        let n = self.carry_out_quietly(game)?;
        if n > 0 {
            say!(
                "(the campaign roster keeps what lasts of {n} character{})",
                if n == 1 { "" } else { "s" }
            );
        }
        Ok(())
    }

    /// [`Save::carry_out`] without a word on the terminal (a server's table): how many
    /// characters' lasting state went into the roster.
    pub fn carry_out_quietly(&mut self, game: &dyn AnyGame) -> Result<usize, Fail> {
        if game.outcome().is_none() {
            return Ok(0);
        }
        let lasting: Vec<fray_store::Carried> = game.lasting().into_iter().map(|l| (l.id, l.name, l.values)).collect();
        self.store.carry_out(self.id, &lasting).map_err(|e| self.fail(e))
    }

    /// Takes game `id` (the last changed game still being played when `None`) of the database at
    /// `db` for this process, and gives its record (the commands in effect).
    pub fn resume(db: &Path, id: Option<i64>, take_over: bool) -> Result<(Save, String), Fail> {
        Save::resume_in(open_store(db, false)?, db, id, take_over)
    }

    /// [`Save::resume`] in `store`, the database at `db` already open.
    pub fn resume_in(mut store: Store, db: &Path, id: Option<i64>, take_over: bool) -> Result<(Save, String), Fail> {
        let id = match id {
            Some(id) => id,
            None => store.latest_playing().map_err(|e| store_fail(db, e))?.ok_or_else(|| {
                Fail::input(format!(
                    "{}: error: no game is still being played (`fray games {}` lists them; name one to look at it)",
                    db.display(),
                    db.display()
                ))
            })?,
        };
        // The game's steps, its row and the replay of its record are checked before the hold is
        // taken, so a game refused here leaves its file as it was (the caller replays it again,
        // a small cost once per resume).
        let record = store.record_json(id).map_err(|e| store_fail(db, e))?;
        replay_json(&format!("{}, game {id}", db.display()), &record)?;
        let holder = me();
        store
            .claim(id, &holder, &alive, take_over)
            .map_err(|e| store_fail(db, e))?;
        let mut save = Save::held(store, db, id, holder);
        let head = save.store.head(id).map_err(|e| save.fail(e))?;
        let timeline = save.store.timeline(id).map_err(|e| save.fail(e))?;
        let record = timeline.record_json(&head).map_err(|e| save.fail(e))?;
        save.undone = undone_entries(&timeline).map_err(|e| save.fail(e))?;
        Ok((save, record))
    }

    /// Makes the events of the undone commands again, as the current rules produce them, by
    /// replaying them after `record` (the saved record `resume` returned). A game saved under an
    /// earlier version of its rules that this one still replays keeps that version's events in
    /// its undone commands, while a redo adds one to the resumed game's record, which replaying
    /// made the current version's and compares in full. Left as they are when they do not
    /// replay: a redo then says why.
    pub fn refresh_undone(&mut self, record: &str) {
        if self.undone.is_empty() {
            return;
        }
        // Redone in order: the last undone comes back first.
        let mut r = record.to_string();
        for e in self.undone.iter().rev() {
            match with_entry(&r, e) {
                Ok(x) => r = x,
                Err(_) => return,
            }
        }
        let Ok(game) = replay_json("undone commands", &r) else {
            return;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&game.record_json()) else {
            return;
        };
        let Some(entries) = v.get("entries").and_then(|x| x.as_array()) else {
            return;
        };
        let Some(redone) = entries.len().checked_sub(self.undone.len()).map(|k| &entries[k..]) else {
            return;
        };
        for (e, new) in self.undone.iter_mut().rev().zip(redone) {
            e.events = new["events"].to_string();
        }
    }

    /// Saves one step, with the position `game` is in after it; returns when it is on disk.
    fn step(&mut self, game: &dyn AnyGame, step: &Step<'_>) -> Result<(), Fail> {
        self.store
            .append(self.id, &self.holder, step, &position(game), game.outcome().is_some())
            .map(|_| ())
            .map_err(|e| self.fail(e))
    }

    /// Saves the command just accepted (`game`'s last entry) as typed (`text`); returns when it
    /// is on disk. A new command ends what could be redone. (When it ended the fight, call
    /// [`Save::carry_out`] next.)
    pub fn command(&mut self, game: &dyn AnyGame, text: &str) -> Result<(), Fail> {
        let Some(e) = game.last_entry_json() else {
            return Err(Fail::input("error: no command to save (a bug in fray)"));
        };
        self.step(
            game,
            &Step::Command {
                seat: e.seat.0,
                text: Some(text),
                command: &e.command,
                faces: &e.dice,
                events: &e.events,
            },
        )?;
        self.undone.clear();
        Ok(())
    }

    /// Saves an undo of `taken`, the entry `game` has just taken back.
    pub fn undo(&mut self, game: &dyn AnyGame, taken: EntryJson) -> Result<(), Fail> {
        self.step(game, &Step::Undo)?;
        self.undone.push(taken);
        Ok(())
    }

    /// Saves a redo, after `game` has re-applied the last undone entry.
    pub fn redo(&mut self, game: &dyn AnyGame) -> Result<(), Fail> {
        self.step(game, &Step::Redo)?;
        self.undone.pop();
        Ok(())
    }

    /// The undone commands a redo can bring back, the next one last.
    pub fn undone(&self) -> &[EntryJson] {
        &self.undone
    }
}

impl Save {
    /// Gives the game back now (as dropping the save does), so another process may take it at
    /// once.
    pub fn release(&mut self) -> Result<(), StoreError> {
        self.store.release(self.id, &self.holder)
    }
}

impl Drop for Save {
    fn drop(&mut self) {
        // Best effort: a lease left behind is taken over once its process is gone.
        let _ = self.release();
    }
}

/// The undone commands of a timeline as entries, the next to redo last.
fn undone_entries(t: &Timeline) -> Result<Vec<EntryJson>, StoreError> {
    t.undone
        .iter()
        .map(|&i| {
            let s = &t.steps[i];
            match (s.seat, &s.command, &s.faces, &s.events) {
                (Some(seat), Some(c), Some(f), Some(e)) => Ok(EntryJson {
                    seat: Seat(seat),
                    command: c.clone(),
                    dice: f.clone(),
                    events: e.clone(),
                }),
                _ => Err(StoreError::Invalid(format!(
                    "step {} is a command without its data",
                    s.n
                ))),
            }
        })
        .collect()
}

/// `record` (JSON) with `entry` added at the end of its entries.
pub fn with_entry(record: &str, entry: &EntryJson) -> Result<String, String> {
    let mut v: serde_json::Value = serde_json::from_str(record).map_err(|e| e.to_string())?;
    let parse = |s: &str| serde_json::from_str::<serde_json::Value>(s).map_err(|e| e.to_string());
    let e = serde_json::json!({
        "seat": entry.seat.0,
        "command": parse(&entry.command)?,
        "dice": parse(&entry.dice)?,
        "events": parse(&entry.events)?,
    });
    v.get_mut("entries")
        .and_then(|x| x.as_array_mut())
        .ok_or("the record has no entries")?
        .push(e);
    Ok(v.to_string())
}

/// Reads `GAME` as a game number.
fn game_number(db: &Path, text: &str) -> Result<i64, Fail> {
    text.trim_start_matches('#').parse::<i64>().map_err(|_| {
        Fail::input(format!(
            "{}: error: '{text}' is not a game number (`fray games {}` lists them)",
            db.display(),
            db.display()
        ))
    })
}

/// Replays game `id`'s record (verifying every face and event).
fn replayed(db: &Path, store: &Store, id: i64) -> Result<(Box<dyn AnyGame>, String), Fail> {
    let record = store.record_json(id).map_err(|e| store_fail(db, e))?;
    let game = replay_json(&format!("{}, game {id}", db.display()), &record)?;
    Ok((game, record))
}

/// Replays a record given as JSON; `name` says where it came from in errors.
pub fn replay_json(name: &str, record: &str) -> Result<Box<dyn AnyGame>, Fail> {
    let src = fray_engine::diag::SourceFile {
        name: name.to_string(),
        text: record.to_string(),
    };
    let entry = registry::for_record(&src)?;
    entry
        .replay(record)
        .map_err(|e| Fail::input(format!("{name}: error: the saved record does not replay: {e}")))
}

/// A campaign entered by a new game: the encounter's text with the roster's lasting state
/// written into its characters' tables.
pub struct Campaign {
    /// The campaign's number.
    pub id: i64,
    /// The encounter with the lasting state written in.
    pub source: SourceFile,
    /// Each change, with the text before it (to move diagnostics back to the file).
    changes: Vec<(Varied, String)>,
    name: String,
    db: PathBuf,
}

impl Campaign {
    /// Finds (or makes) campaign `name` for the encounter `src`'s ruleset and writes its
    /// roster's lasting state into the characters of `src` that it knows (by id).
    pub fn enter(store: &mut Store, db: &Path, name: &str, src: &SourceFile) -> Result<Campaign, Fail> {
        let ruleset = registry::for_encounter(src)?.id();
        let id = store.campaign(name, ruleset, true).map_err(|e| store_fail(db, e))?;
        let roster = store.roster(id).map_err(|e| store_fail(db, e))?;
        let ids: Vec<String> = toml::from_str::<toml::Table>(&src.text)
            .ok()
            .and_then(|t| t.get("combatant").and_then(|c| c.as_array()).cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|c| c.get("id").and_then(|i| i.as_str()).map(str::to_string))
            .collect();
        let mut text = src.text.clone();
        let mut changes = Vec::new();
        let mut told = Vec::new();
        for r in roster.iter().filter(|r| ids.contains(&r.character)) {
            for (key, value) in &r.lasting {
                let path = format!("combatant.{}.{key}", r.character);
                let v = set_path(&text, &path, value).map_err(|e| {
                    Fail::input(format!(
                        "{}: error: cannot write campaign '{name}''s {path} = {value} into the encounter: {e}",
                        src.name
                    ))
                })?;
                let before = std::mem::replace(&mut text, v.text.clone());
                changes.push((v, before));
            }
            if !r.lasting.is_empty() {
                let values: Vec<String> = r.lasting.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                told.push(format!("{}: {}", r.name, values.join(", ")));
            }
        }
        if !told.is_empty() {
            say!("(campaign {name}: {})", told.join("; "));
        }
        Ok(Campaign {
            id,
            source: SourceFile {
                name: src.name.clone(),
                text,
            },
            changes,
            name: name.to_string(),
            db: db.to_path_buf(),
        })
    }

    /// Moves a diagnostic about the encounter with the lasting state written in back to the
    /// file, and says where the state came from.
    pub fn map_back(&self, d: Diagnostic) -> Diagnostic {
        if self.changes.is_empty() {
            return d;
        }
        let by = format!("campaign {}'s roster", self.name);
        let mut d = self
            .changes
            .iter()
            .rev()
            .fold(d, |d, (v, before)| v.map_back(d, &self.source.name, before, &by));
        d.message.push_str(&format!(
            " [with the lasting state of campaign {}; `fray roster {}` shows it, `fray rest` restores it]",
            self.name,
            self.db.display()
        ));
        d
    }
}

/// `fray roster DB [CAMPAIGN]`: each campaign's characters and their lasting state, the rests
/// its ruleset defines, and its log.
pub fn roster(db: &Path, campaign: Option<&str>) -> Result<(), Fail> {
    let store = open_store(db, false)?;
    let campaigns = store.campaigns().map_err(|e| store_fail(db, e))?;
    let shown: Vec<_> = campaigns
        .iter()
        .filter(|c| campaign.is_none_or(|n| n == c.name))
        .collect();
    if shown.is_empty() {
        return match campaign {
            Some(n) => Err(Fail::input(format!("{}: error: no campaign '{n}'", db.display()))),
            None => {
                say!(
                    "(no campaigns: `fray play FILE --save {} --campaign NAME` starts one)",
                    db.display()
                );
                Ok(())
            }
        };
    }
    for c in shown {
        say!("campaign {} ({}), since {} UTC", c.name, c.ruleset, c.created);
        let roster = store.roster(c.id).map_err(|e| store_fail(db, e))?;
        if roster.is_empty() {
            say!("  (no character yet: one joins when a game of the campaign ends)");
        }
        for r in roster {
            let values: Vec<String> = r.lasting.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            let values = if values.is_empty() {
                "as its encounter says (rested)".to_string()
            } else {
                values.join(", ")
            };
            let game = r.game.map(|g| format!(", after game #{g}")).unwrap_or_default();
            say!("  {} ({}): {values}{game}", r.name, r.character);
        }
        if let Some(entry) = registry::by_id(&c.ruleset) {
            for rest in entry.rests() {
                say!("  rest `{}`: {}", rest.word, rest.what);
            }
        }
        for (at, what) in store.roster_log(c.id).map_err(|e| store_fail(db, e))? {
            say!("  {at} {what}");
        }
    }
    Ok(())
}

/// `fray rest DB CAMPAIGN REST [ID...]`: a rest the campaign's ruleset defines.
pub fn rest(db: &Path, campaign: &str, word: &str, only: &[String]) -> Result<(), Fail> {
    let mut store = open_store(db, false)?;
    let c = find_campaign(&store, db, campaign)?;
    let rests = registry::all()
        .iter()
        .find(|e| e.id() == c.ruleset)
        .map(|e| e.rests())
        .unwrap_or_default();
    let Some(rest) = rests.iter().find(|r| r.word == word) else {
        let known: Vec<&str> = rests.iter().map(|r| r.word).collect();
        return Err(Fail::input(format!(
            "{}: error: {} defines no rest '{word}' ({})",
            db.display(),
            c.ruleset,
            if known.is_empty() {
                "it has no lasting state to restore".to_string()
            } else {
                format!("its rests: {}", known.join(", "))
            }
        )));
    };
    let names = store
        .rest(c.id, &format!("rest `{word}`"), rest.restores, only)
        .map_err(|e| store_fail(db, e))?;
    say!(
        "({}: {} for {})",
        campaign,
        rest.what,
        if names.is_empty() {
            "nobody".to_string()
        } else {
            names.join(", ")
        }
    );
    Ok(())
}

/// The campaign of this name, or a clear refusal.
fn find_campaign(store: &Store, db: &Path, campaign: &str) -> Result<fray_store::CampaignRow, Fail> {
    store
        .campaigns()
        .map_err(|e| store_fail(db, e))?
        .into_iter()
        .find(|c| c.name == campaign)
        .ok_or_else(|| Fail::input(format!("{}: error: no campaign '{campaign}'", db.display())))
}

/// `fray retire DB CAMPAIGN ID...`: takes characters out of a campaign's roster.
pub fn retire(db: &Path, campaign: &str, ids: &[String]) -> Result<(), Fail> {
    let mut store = open_store(db, false)?;
    let c = find_campaign(&store, db, campaign)?;
    let names = store.retire(c.id, ids).map_err(|e| store_fail(db, e))?;
    say!(
        "({campaign}: out of the roster: {}; their next encounter starts from its file's values)",
        names.join(", ")
    );
    Ok(())
}

/// `fray games DB`: one line per game.
pub fn games(db: &Path) -> Result<(), Fail> {
    let store = open_store(db, false)?;
    let games = store.games().map_err(|e| store_fail(db, e))?;
    if games.is_empty() {
        say!("(no games)");
    }
    for g in games {
        let lease = match &g.lease {
            Some((h, since)) if alive(h) => format!(" · in use by process {} since {since}", h.pid),
            _ => String::new(),
        };
        say!(
            "#{} {} \"{}\" ({}) · {} steps · last change {} UTC{lease}",
            g.id,
            g.ruleset,
            g.title,
            g.encounter,
            g.steps,
            g.updated
        );
        say!("    {}", g.position);
    }
    Ok(())
}

/// `fray log DB GAME`: the game's steps (undos and redos included) with the log of each command
/// in effect.
pub fn log(db: &Path, game: &str) -> Result<(), Fail> {
    let store = open_store(db, false)?;
    let id = game_number(db, game)?;
    let row = store.game(id).map_err(|e| store_fail(db, e))?;
    let timeline = store.timeline(id).map_err(|e| store_fail(db, e))?;
    let (game, _) = replayed(db, &store, id)?;
    crate::print_header(&*game, false);
    let mut steps = game.log_steps(Seat::GM).into_iter();
    if let Some(start) = steps.next() {
        crate::print_log(&start.lines, false);
    }
    // Which command step is the k-th entry in effect: its log is the k-th step log.
    let mut logs: Vec<Option<fray_engine::text::StepLog>> = vec![None; timeline.steps.len()];
    for (&i, s) in timeline.effective.iter().zip(steps) {
        logs[i] = Some(s);
    }
    let by_n = |n: Option<i64>| {
        timeline
            .steps
            .iter()
            .find(|s| Some(s.n) == n)
            .and_then(|s| s.text.clone())
            .map_or_else(
                || format!("step {}", n.unwrap_or(0)),
                |t| format!("step {} ({t})", n.unwrap_or(0)),
            )
    };
    for (i, s) in timeline.steps.iter().enumerate() {
        match s.kind {
            fray_store::StepKind::Command => match &logs[i] {
                Some(l) => {
                    let (seat, text) = l.command.clone().unwrap_or((Seat::GM, String::new()));
                    say!("-- step {} · {} · [{}] {text}", s.n, s.at, game.seat_name(seat));
                    crate::print_log(&l.lines, false);
                }
                None => say!(
                    "-- step {} · {} · {} (later undone)",
                    s.n,
                    s.at,
                    s.text.as_deref().unwrap_or("a command")
                ),
            },
            fray_store::StepKind::Undo => say!("-- step {} · {} · undo: takes back {}", s.n, s.at, by_n(s.refers)),
            fray_store::StepKind::Redo => say!("-- step {} · {} · redo: brings back {}", s.n, s.at, by_n(s.refers)),
        }
    }
    say!("-- now: {}", row.position);
    Ok(())
}

/// `fray export DB GAME`: the game's record (the commands in effect) as `fray replay` reads it.
pub fn export(db: &Path, game: &str) -> Result<(), Fail> {
    let store = open_store(db, false)?;
    let id = game_number(db, game)?;
    let (game, _) = replayed(db, &store, id)?;
    say!("{}", game.record_json());
    Ok(())
}

/// The record of `DB:GAME` (for `sim --from`): the database's game, verified by replaying it.
pub fn record_of(db: &Path, game: &str) -> Result<String, Fail> {
    let store = open_store(db, false)?;
    let id = game_number(db, game)?;
    let (_, record) = replayed(db, &store, id)?;
    Ok(record)
}

/// `fray import DB RECORD`: a record file (from `--record` or `export`) as a new game.
pub fn import(db: &Path, record: &Path) -> Result<(), Fail> {
    let src = read_source(record)?;
    let entry = registry::for_record(&src)?;
    let game = entry
        .replay(&src.text)
        .map_err(|e| Fail::input(format!("{}: error: {e}", record.display())))?;
    let mut v: serde_json::Value =
        serde_json::from_str(&src.text).map_err(|e| Fail::input(format!("{}: error: {e}", record.display())))?;
    let entries = match v.as_object_mut().and_then(|o| o.remove("entries")) {
        Some(serde_json::Value::Array(a)) => a,
        _ => {
            return Err(Fail::input(format!(
                "{}: error: the record has no entries list",
                record.display()
            )));
        }
    };
    let mut rows = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let seat = e
            .get("seat")
            .and_then(serde_json::Value::as_u64)
            .and_then(|s| u8::try_from(s).ok());
        let field = |k: &str| e.get(k).map(serde_json::Value::to_string);
        match (seat, field("command"), field("dice"), field("events")) {
            (Some(seat), Some(c), Some(d), Some(ev)) => rows.push((seat, c, d, ev)),
            _ => {
                return Err(Fail::input(format!(
                    "{}: error: entry {} lacks its seat, command, dice or events",
                    record.display(),
                    i + 1
                )));
            }
        }
    }
    v["entries"] = serde_json::Value::Array(Vec::new());
    let head = v.to_string();
    let facts = Facts::of(&*game, &head, record);
    let mut store = open_store(db, true)?;
    let id = store
        .import(&facts.new_game(&*game, &head), &rows)
        .map_err(|e| store_fail(db, e))?;
    say!(
        "{}: imported as game #{id} ({} commands; `fray resume {} {id}` continues it)",
        db.display(),
        rows.len(),
        db.display()
    );
    Ok(())
}

/// Splits `DB:GAME` (the last colon) when DB exists (a file, or something else that opening
/// the database then refuses by name, such as a named pipe); `None` when `text` is not of that
/// form.
pub fn split_db_game(text: &Path) -> Option<(PathBuf, String)> {
    if text.is_file() {
        return None;
    }
    let s = text.to_str()?;
    let (db, game) = s.rsplit_once(':')?;
    let db = PathBuf::from(db);
    (db.exists() && !game.is_empty()).then(|| (db, game.to_string()))
}
