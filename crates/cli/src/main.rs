//! `fray`: run, play, check and replay tabletop-RPG combats.
//!
//! The only crate that touches files and terminals. It finds rulesets through the registry in
//! [`registry`], so each command is written once for every game. Exit codes: 0 success, 1 a
//! rule rejection in a script, 2 bad input (files, commands, dice) — never a panic.

/// Prints a line to stdout; when stdout is closed (`fray run ... | head`), ends quietly instead
/// of panicking.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        if writeln!(out, $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

/// Like [`say!`] without the newline.
#[macro_export]
macro_rules! say_nonl {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        if write!(out, $($arg)*).is_err() || out.flush().is_err() {
            std::process::exit(0);
        }
    }};
}

mod choices;
mod files;
mod odds;
mod play;
mod registry;
mod saves;
mod serve;
mod sim;
mod vary;

use clap::{Parser, Subcommand};
use fray_dice::Prng;
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::text::{AnyGame, LogLine, NewDice, NewGameError};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "fray",
    version,
    about = "A rules engine for tabletop-RPG combat: run, play, check and replay fights."
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Validate an encounter file.
    Check {
        /// The encounter (TOML).
        file: PathBuf,
    },
    /// Play a whole combat with the built-in AI on every side and print the log.
    Run {
        /// The encounter (TOML).
        file: PathBuf,
        /// Seed for the dice (and the AI); a random one is picked and printed if absent.
        #[arg(long)]
        seed: Option<u64>,
        /// Print the events as JSON lines instead of the readable log.
        #[arg(long)]
        json: bool,
        /// Also write the game record to this file.
        #[arg(long)]
        record: Option<PathBuf>,
    },
    /// Table play: every decision is read from the terminal, or one per line from stdin.
    Play {
        /// The encounter (TOML).
        file: PathBuf,
        /// Seed for the dice.
        #[arg(long, conflicts_with = "dice")]
        seed: Option<u64>,
        /// `manual` to type every roll's faces, or a list of faces such as `3,4,6,1`.
        #[arg(long)]
        dice: Option<String>,
        /// Write the game record to this file (after every command).
        #[arg(long)]
        record: Option<PathBuf>,
        /// Save the game in this saved-games database (made if missing): every command is on
        /// disk before the next prompt; `fray resume DB` continues it.
        #[arg(long, value_name = "DB")]
        save: Option<PathBuf>,
        /// Play the encounter as a game of this campaign (made if missing): its characters start
        /// with the lasting state the roster keeps, and leave theirs there when the fight ends.
        #[arg(long, requires = "save")]
        campaign: Option<String>,
        /// The built-in AI decides for this seat (repeatable; `all`, or `all-but SEAT` for every
        /// seat but one): its decisions are logged and recorded like anyone's.
        #[arg(long = "ai", value_name = "SEAT")]
        ai: Vec<String>,
        /// Print the final state as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Continue a saved game where it stopped, with the same dice stream.
    Resume {
        /// The saved-games database.
        db: PathBuf,
        /// The game's number (`fray games DB`); the last changed game still being played if absent.
        game: Option<String>,
        /// For a game whose dice were typed or listed: `manual`, or the faces from here on.
        #[arg(long)]
        dice: Option<String>,
        /// Also write the game record to this file (after every command).
        #[arg(long)]
        record: Option<PathBuf>,
        /// Take the game even though another process holds it (when that process is gone for
        /// good but cannot be checked, such as one on another machine).
        #[arg(long)]
        take_over: bool,
        /// The built-in AI decides for this seat (repeatable; `all`, or `all-but SEAT`).
        #[arg(long = "ai", value_name = "SEAT")]
        ai: Vec<String>,
        /// Print the final state as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the games of a saved-games database.
    Games {
        /// The saved-games database.
        db: PathBuf,
    },
    /// Print a saved game's log: every step (undos and redos too) with what it did.
    Log {
        /// The saved-games database.
        db: PathBuf,
        /// The game's number.
        game: String,
    },
    /// Print a saved game's record (JSON, as `fray replay` and `sim --from` read it).
    Export {
        /// The saved-games database.
        db: PathBuf,
        /// The game's number.
        game: String,
    },
    /// Show the campaigns of a saved-games database and their rosters (lasting state per
    /// character), the rests each ruleset defines and what happened.
    Roster {
        /// The saved-games database.
        db: PathBuf,
        /// Only this campaign.
        campaign: Option<String>,
    },
    /// Take a rest the campaign's ruleset defines (such as Thrum's `downtime`): it restores the
    /// lasting state it names, for every character of the roster or those given.
    Rest {
        /// The saved-games database.
        db: PathBuf,
        /// The campaign.
        campaign: String,
        /// The rest (`fray roster DB` lists them).
        rest: String,
        /// Only these characters (by id).
        characters: Vec<String>,
    },
    /// Take characters out of a campaign's roster (one who died, or who left the party): their
    /// next encounter of the campaign starts from the file's own values.
    Retire {
        /// The saved-games database.
        db: PathBuf,
        /// The campaign.
        campaign: String,
        /// The characters (by id), at least one.
        #[arg(required = true)]
        characters: Vec<String>,
    },
    /// Add a record (from --record or export) to a saved-games database as a new game.
    Import {
        /// The saved-games database (made if missing).
        db: PathBuf,
        /// The record (JSON).
        record: PathBuf,
    },
    /// Simulate many seeded combats and report win rates, rounds and per-combatant outcomes;
    /// `fray sim merge` merges shard reports.
    #[command(args_conflicts_with_subcommands = true)]
    Sim {
        /// `merge SHARD.json...`: merge the reports of `--shard` runs into the whole batch's.
        #[command(subcommand)]
        merge: Option<SimCmd>,
        /// The encounter (TOML); not needed with --from.
        file: Option<PathBuf>,
        /// Number of combats.
        #[arg(short = 'n', long = "combats", default_value_t = 1000)]
        combats: u64,
        /// Batch seed (each combat i uses its own stream of it).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (0, the default: one per core; at most 256). Results do not depend on it.
        #[arg(long, default_value_t = 0)]
        jobs: usize,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Write SVG charts into this folder.
        #[arg(long)]
        plot: Option<PathBuf>,
        /// Fork the simulations from the last state of a game record ("odds from here"), or of a
        /// saved game given as DB:GAME.
        #[arg(long)]
        from: Option<PathBuf>,
        /// Sweep one encounter value: PATH=V1,V2,... (e.g. combatant.korrin.speed=3,4,5 or options.tie-rule=defender,reroll); values containing commas are separated by semicolons: combatant.korrin.at=3,4;5,6.
        #[arg(long)]
        vary: Option<String>,
        /// The policy of a seat: SEAT=random|heuristic|search[:ROLLOUTS[:CANDIDATES[:HORIZON]]] (repeatable).
        #[arg(long = "policy")]
        policies: Vec<String>,
        /// The policy of seats the encounter does not give one.
        #[arg(long, default_value = "heuristic")]
        default_policy: String,
        /// Combats still going after this many rounds are counted as cut off.
        #[arg(long, default_value_t = 100)]
        round_cap: u32,
        /// Play only the K-th of N equal parts of the combats, numbered from 1 (1/4 to 4/4), and
        /// print a shard report for `fray sim merge` (needs --json).
        #[arg(long, value_name = "K/N", value_parser = parse_shard)]
        shard: Option<fray_sim::Shard>,
    },
    /// Exact odds: `fray odds roll 3d6kh2+1`, or a ruleset's attack odds (`fray odds thrum --attack 3 --defend 1 --defence evasion`). Add --json for JSON.
    Odds {
        /// `roll`, or a ruleset id.
        what: String,
        /// The dice expression, or the ruleset's arguments (see docs/commands.md).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Replay and verify a game record, printing the same log as `run`.
    Replay {
        /// The record (JSON, from `run --record` or `play --record`).
        record: PathBuf,
        /// Print the events as JSON lines.
        #[arg(long)]
        json: bool,
        /// Print the log as this seat was shown it (what is hidden from it left out or
        /// redacted) and its tracker instead of the GM's summary.
        #[arg(long)]
        seat: Option<String>,
    },
    /// The browser table: a web server where a GM opens tables and each player joins their
    /// own seat from their own device (docs/table.md)
    Serve {
        /// The saved-games database (made if missing; the same file `play --save` uses)
        #[arg(long, default_value = "fray.db")]
        db: PathBuf,
        /// Where to listen (`0.0.0.0:8080` for the other devices of the network; port 0 picks
        /// a free one)
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// The folder of encounter files the lobby offers
        #[arg(long, default_value = "examples")]
        encounters: PathBuf,
        /// Make a new GM key (the old lobby link stops working; seat links keep working)
        #[arg(long)]
        new_key: bool,
    },
}

/// What `fray sim` does instead of simulating.
#[derive(Subcommand)]
enum SimCmd {
    /// Merge the JSON reports of the shards of one batch (`fray sim ... --shard K/N --json`)
    /// into the report of the whole batch, the same as one unsharded run prints.
    Merge {
        /// The shard reports, in any order.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the merged report as JSON.
        #[arg(long)]
        json: bool,
        /// Write SVG charts of the merged report into this folder.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
}

fn parse_shard(s: &str) -> Result<fray_sim::Shard, String> {
    s.parse()
}

/// An error that ends the program with a message and an exit code.
pub struct Fail {
    /// Exit code (1 rule rejection in a script, 2 bad input).
    pub code: u8,
    /// What to print on stderr.
    pub message: String,
}

impl Fail {
    /// Bad input: exit 2.
    pub fn input(message: impl Into<String>) -> Fail {
        Fail {
            code: 2,
            message: message.into(),
        }
    }
}

/// The arguments with `--ai all-but SEAT` joined into one value (`--ai all-but:SEAT`), so
/// `--ai` takes one word everywhere else and the encounter file can follow it.
fn joined_args() -> Vec<std::ffi::OsString> {
    let mut out: Vec<std::ffi::OsString> = Vec::new();
    let mut args = std::env::args_os().peekable();
    while let Some(a) = args.next() {
        let all_but = a == "--ai" && args.peek().is_some_and(|n| n == "all-but");
        if !all_but {
            out.push(a);
            continue;
        }
        args.next();
        match args.next_if(|n| !n.to_string_lossy().starts_with('-')) {
            Some(seat) => {
                let mut v = std::ffi::OsString::from("--ai=all-but:");
                v.push(seat);
                out.push(v);
            }
            None => out.push("--ai=all-but".into()),
        }
    }
    out
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(joined_args()) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Cmd::Check { file } => check(&file),
        Cmd::Run {
            file,
            seed,
            json,
            record,
        } => run(&file, seed, json, record.as_deref()),
        Cmd::Play {
            file,
            seed,
            dice,
            record,
            save,
            campaign,
            ai,
            json,
        } => play::play(
            &file,
            seed,
            dice.as_deref(),
            record.as_deref(),
            save.as_deref().map(|db| (db, campaign.as_deref())),
            json,
            &ai,
        ),
        Cmd::Resume {
            db,
            game,
            dice,
            record,
            take_over,
            ai,
            json,
        } => play::resume(
            &db,
            game.as_deref(),
            dice.as_deref(),
            record.as_deref(),
            take_over,
            json,
            &ai,
        ),
        Cmd::Games { db } => saves::games(&db),
        Cmd::Log { db, game } => saves::log(&db, &game),
        Cmd::Export { db, game } => saves::export(&db, &game),
        Cmd::Import { db, record } => saves::import(&db, &record),
        Cmd::Roster { db, campaign } => saves::roster(&db, campaign.as_deref()),
        Cmd::Rest {
            db,
            campaign,
            rest,
            characters,
        } => saves::rest(&db, &campaign, &rest, &characters),
        Cmd::Retire {
            db,
            campaign,
            characters,
        } => saves::retire(&db, &campaign, &characters),
        Cmd::Replay { record, json, seat } => replay(&record, json, seat.as_deref()),
        Cmd::Serve {
            db,
            addr,
            encounters,
            new_key,
        } => serve::serve(serve::Options {
            db,
            addr,
            encounters,
            new_key,
        }),
        Cmd::Odds { what, args } => odds::odds(&what, &args),
        Cmd::Sim {
            merge: Some(SimCmd::Merge { files, json, plot }),
            ..
        } => sim::merge(&files, json, plot.as_deref()),
        Cmd::Sim {
            merge: None,
            file,
            combats,
            seed,
            jobs,
            json,
            plot,
            from,
            vary,
            policies,
            default_policy,
            round_cap,
            shard,
        } => sim::sim(sim::Args {
            file,
            combats,
            seed,
            jobs,
            json,
            plot,
            from,
            vary,
            policies,
            default_policy,
            round_cap,
            shard,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("{}", f.message);
            ExitCode::from(f.code)
        }
    }
}

/// Reads a file given on the command line (at most [`files::MAX_INPUT_BYTES`], UTF-8).
pub fn read_source(path: &Path) -> Result<SourceFile, Fail> {
    let name = path.display().to_string();
    let text = files::read_text(path).map_err(|e| Fail::input(e.message(&name)))?;
    Ok(SourceFile { name, text })
}

/// A reader for files an encounter refers to, relative to the encounter's folder (with the
/// same size limit and UTF-8 check as [`read_source`]; the message names the file and, for
/// text that is not UTF-8, the line and column of the first bad byte).
pub fn reader(base: &Path) -> impl FnMut(&str) -> Result<SourceFile, String> + use<> {
    let dir = base.parent().map(Path::to_path_buf).unwrap_or_default();
    move |rel: &str| {
        let p = dir.join(rel);
        let name = p.display().to_string();
        match files::read_text(&p) {
            Ok(text) => Ok(SourceFile { name, text }),
            Err(files::ReadError::Io(e)) => Err(format!("cannot read {name}: {e}")),
            Err(e) => Err(format!("{}: {}", e.place(&name), e.what())),
        }
    }
}

/// Every diagnostic of a file, in the order of the places they are about (file, line, column).
fn diagnostics(d: &[Diagnostic]) -> Fail {
    let mut d: Vec<&Diagnostic> = d.iter().collect();
    d.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    let lines: Vec<String> = d.iter().map(|x| x.to_string()).collect();
    Fail::input(lines.join("\n"))
}

/// Loads an encounter and starts a game.
pub fn open_game(path: &Path, dice: NewDice) -> Result<Box<dyn AnyGame>, Fail> {
    open_game_recording(path, dice, None)
}

/// Like [`open_game`], but when the dice run out or the person typing them stops during the
/// start (initiative), the unfinished record (the encounter, the options and every face drawn
/// so far) is written to `record`, so nothing typed is lost. `fray replay` refuses such a
/// record and says how many faces it holds.
pub fn open_game_recording(path: &Path, dice: NewDice, record: Option<&Path>) -> Result<Box<dyn AnyGame>, Fail> {
    let src = read_source(path)?;
    open_game_source(path, &src, dice, record, &|d| d)
}

/// [`open_game_recording`] from the encounter's text `src` (read from `path`, perhaps changed
/// since: `map` moves a diagnostic about the changed text back to the file).
pub fn open_game_source(
    path: &Path,
    src: &SourceFile,
    dice: NewDice,
    record: Option<&Path>,
    map: &dyn Fn(Diagnostic) -> Diagnostic,
) -> Result<Box<dyn AnyGame>, Fail> {
    let entry = registry::for_encounter(src)?;
    let mut read = reader(path);
    match entry.new_game(src, &mut read, dice) {
        Ok(game) => Ok(game),
        Err(NewGameError::Diagnostics(d)) => Err(diagnostics(&d.into_iter().map(map).collect::<Vec<_>>())),
        Err(NewGameError::Engine(e)) => Err(Fail::input(format!("{}: error: {e}", path.display()))),
        Err(NewGameError::Start { error, record_json }) => {
            let mut message = format!("{}: error: during the start: {error}", path.display());
            // The start did not finish, so no game exists to save or resume: say what was typed,
            // so that the table can give it again.
            let faces: Vec<String> = serde_json::from_str::<serde_json::Value>(&record_json)
                .ok()
                .and_then(|r| r["start"]["dice"].as_array().cloned())
                .unwrap_or_default()
                .iter()
                .map(|f| f.to_string())
                .collect();
            if !faces.is_empty() {
                message.push_str(&format!(
                    "\n{}: the start did not finish, so no game was saved (a --record file keeps what was typed); the faces drawn for it so far, in order: {}",
                    path.display(),
                    faces.join(" ")
                ));
            }
            if let Some(r) = record {
                write_record_json(r, &record_json)?;
                message.push_str(&format!(
                    "\n{}: the record keeps the encounter and the faces drawn so far (it cannot be replayed: the start did not finish)",
                    r.display()
                ));
            }
            Err(Fail::input(message))
        }
    }
}

fn check(path: &Path) -> Result<(), Fail> {
    let src = read_source(path)?;
    let entry = registry::for_encounter(&src)?;
    let mut read = reader(path);
    let title = entry.check(&src, &mut read).map_err(|d| diagnostics(&d))?;
    say!("{}: ok ({} encounter \"{title}\")", path.display(), entry.id());
    Ok(())
}

/// A seed from the clock, for runs without `--seed` (printed so they can be repeated).
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish() % 1_000_000_000
}

/// Prints log lines: readable text, or JSON lines.
pub fn print_log(lines: &[LogLine], json: bool) {
    for l in lines {
        if json {
            say!("{}", l.json);
        } else if let Some(t) = &l.text {
            say!("{t}");
        }
    }
}

/// The header printed before a log (the same for `run` and `replay`).
pub fn print_header(game: &dyn AnyGame, json: bool) {
    if !json {
        say!("{} ({})", game.title(), game.ruleset_id());
        match game.seed() {
            Some(s) => say!("seed {s}"),
            None => say!("dice typed in or scripted"),
        }
    }
}

/// Writes the record of `game` to `path`, if given.
pub fn write_record(path: Option<&Path>, game: &dyn AnyGame) -> Result<(), Fail> {
    match path {
        Some(p) => write_record_json(p, &game.record_json()),
        None => Ok(()),
    }
}

/// Replaces the record file at `path` with `json`, atomically: a kill or a crash leaves the
/// previous record or the new one, never a cut-off file.
fn write_record_json(path: &Path, json: &str) -> Result<(), Fail> {
    files::write_atomic(path, json.as_bytes())
        .map_err(|e| Fail::input(format!("{}: error: cannot write the record: {e}", path.display())))
}

fn run(path: &Path, seed: Option<u64>, json: bool, record: Option<&Path>) -> Result<(), Fail> {
    let seed = seed.unwrap_or_else(random_seed);
    let mut game = open_game(path, NewDice::Seeded(seed))?;
    print_header(&*game, json);
    print_log(&game.full_log(), json);
    let mut rng = Prng::for_stream(seed, 1);
    let mut steps = 0u64;
    while game.pending().is_some() {
        steps += 1;
        if steps > fray_engine::play::DECISION_LIMIT {
            write_record(record, &*game)?;
            return Err(Fail {
                code: 2,
                message: fray_engine::play::PlayError::Endless(fray_engine::play::DECISION_LIMIT).to_string(),
            });
        }
        match game.ai_step(&mut rng) {
            Ok(m) => print_log(&m.log, json),
            Err(e) => {
                write_record(record, &*game)?;
                return Err(Fail {
                    code: 2,
                    message: format!("error: {e}"),
                });
            }
        }
    }
    if !json {
        say_nonl!("{}", game.summary());
    }
    write_record(record, &*game)
}

fn replay(path: &Path, json: bool, seat: Option<&str>) -> Result<(), Fail> {
    let src = read_source(path)?;
    let entry = registry::for_record(&src)?;
    let game = entry
        .replay(&src.text)
        .map_err(|e| Fail::input(format!("{}: error: {e}", path.display())))?;
    let seat = match seat {
        None => None,
        Some(name) => Some(game.seat_by_name(name).ok_or_else(|| {
            Fail::input(format!(
                "--seat {name}: the record has no seat '{name}' (the GM seat is 'gm'; the others are named in the encounter's seats)"
            ))
        })?),
    };
    print_header(&*game, json);
    // The GM's replay is the full one.
    match seat.filter(|s| !s.is_gm()) {
        None => {
            print_log(&game.full_log(), json);
            if !json {
                say_nonl!("{}", game.summary());
            }
        }
        Some(s) => {
            print_log(&game.log_for(s), json);
            if !json {
                say_nonl!("{}", game.tracker(s));
            }
        }
    }
    Ok(())
}
