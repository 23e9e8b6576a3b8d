//! What saving costs: the time `fray play --save` adds to each accepted command (the entry as
//! JSON, the position line, and the step's own transaction, synced to disk: WAL with
//! `synchronous = FULL`), and the database's size per 1,000 commands.
//!
//! The fight: the skeleton duel with both fighters given 400 health, played by the built-in AI
//! for 50 rounds (the AI's and the rules' time is not counted). For comparison, a Thrum fight
//! (bench-4v4, whose events are far larger) and the old way: rewriting the whole record file
//! atomically after each command, as `--record` does.
//!
//! Besides criterion's figures the bench prints, for each fight, the median and 99th percentile
//! of every saved command's time over several whole fights, and the bytes per 1,000 commands.
//! `cargo bench -p fray --bench saves`.

use criterion::{Criterion, criterion_group, criterion_main};
use fray_dice::Prng;
use fray_engine::diag::SourceFile;
use fray_engine::text::{AnyGame, Entry, NewDice, RulesetEntry};
use fray_store::{Holder, NewGame, Step, Store};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// An encounter: its ruleset entry, its text (with `edit` applied) and the folder it reads from.
struct Fight {
    name: &'static str,
    entry: &'static dyn RulesetEntry,
    file: &'static str,
    edit: fn(String) -> String,
    rounds: usize,
}

static SKELETON: Entry<fray_skeleton::Skeleton> = Entry::new();
static THRUM: Entry<fray_thrum::Thrum> = Entry::new();

fn fights() -> [Fight; 2] {
    [
        Fight {
            name: "skeleton duel, 50 rounds",
            entry: &SKELETON,
            file: "examples/skeleton/duel.toml",
            edit: |t| t.replace("health = 9", "health = 400"),
            rounds: 50,
        },
        Fight {
            name: "thrum bench-4v4, whole fight",
            entry: &THRUM,
            file: "examples/thrum/bench-4v4.toml",
            edit: |t| t,
            rounds: usize::MAX,
        },
    ]
}

fn new_game(f: &Fight, seed: u64) -> Box<dyn AnyGame> {
    let path = root().join(f.file);
    let text = (f.edit)(std::fs::read_to_string(&path).expect("encounter"));
    let src = SourceFile {
        name: f.file.into(),
        text,
    };
    let dir = path.parent().expect("folder").to_path_buf();
    let mut read = move |rel: &str| {
        let p = dir.join(rel);
        std::fs::read_to_string(&p)
            .map(|text| SourceFile { name: rel.into(), text })
            .map_err(|e| e.to_string())
    };
    f.entry
        .new_game(&src, &mut read, NewDice::Seeded(seed))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn holder() -> Holder {
    Holder {
        pid: std::process::id(),
        token: "bench".into(),
        host: "bench".into(),
    }
}

/// Plays fights of `f` into `store` with the AI, calling `each` around every accepted command's
/// save (the save alone is timed) until `commands` commands were saved.
fn play_saving(f: &Fight, store: &mut Store, commands: usize, mut each: impl FnMut(Duration)) {
    let h = holder();
    let mut done = 0;
    let mut seed = 1;
    while done < commands {
        let mut game = new_game(f, seed);
        let head = game.record_json();
        let id = store
            .new_game(
                &NewGame {
                    ruleset: game.ruleset_id(),
                    version: "bench",
                    title: &game.title(),
                    encounter: f.file,
                    seed: game.seed(),
                    head: &head,
                    position: "",
                    over: false,
                },
                &h,
            )
            .expect("game");
        let mut rng = Prng::for_stream(seed, 1);
        let mut rounds = 0;
        while game.pending().is_some() && done < commands {
            let log = game.ai_step(&mut rng).expect("ai").log;
            rounds += log
                .iter()
                .filter(|l| {
                    l.text
                        .as_deref()
                        .is_some_and(|t| t.starts_with("Round ") || t.starts_with("== Round"))
                })
                .count();
            if rounds > f.rounds {
                break;
            }
            // What Save::command does after each accepted command.
            let t = Instant::now();
            let e = game.last_entry_json().expect("entry");
            let position = game.pending_line().unwrap_or_default();
            store
                .append(
                    id,
                    &h,
                    &Step::Command {
                        seat: e.seat.0,
                        text: Some("typed"),
                        command: &e.command,
                        faces: &e.dice,
                        events: &e.events,
                    },
                    &position,
                    game.outcome().is_some(),
                )
                .expect("append");
            each(t.elapsed());
            done += 1;
        }
        seed += 1;
    }
}

fn fresh_db(name: &str) -> (PathBuf, Store) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("saves-bench");
    std::fs::create_dir_all(&dir).expect("folder");
    let p = dir.join(format!("{name}.db"));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", p.display()));
    }
    let store = Store::open(&p, true).expect("store");
    (p, store)
}

fn percentile(sorted: &[Duration], q: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i].as_secs_f64() * 1e6
}

/// Every saved command timed over whole fights: median, p99, and the size per 1,000.
fn distribution(c: &mut Criterion) {
    let _ = c;
    for (k, f) in fights().iter().enumerate() {
        let (path, mut store) = fresh_db(&format!("dist-{k}"));
        let mut times = Vec::new();
        let n = 3000;
        play_saving(f, &mut store, n, |d| times.push(d));
        times.sort();
        store.checkpoint().expect("checkpoint");
        let size = std::fs::metadata(&path).expect("size").len();
        println!(
            "saved command, {}: {} commands, median {:.1} us, p99 {:.1} us, max {:.1} us; database {:.1} KiB per 1,000 commands",
            f.name,
            times.len(),
            percentile(&times, 0.5),
            percentile(&times, 0.99),
            percentile(&times, 1.0),
            size as f64 / 1024.0 / (times.len() as f64 / 1000.0)
        );
    }
    // The old way, for comparison: the whole record rewritten atomically after each command.
    let f = &fights()[0];
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("saves-bench");
    let file = dir.join("record.json");
    let tmp = dir.join(".record.json.tmp");
    let mut game = new_game(f, 1);
    let mut rng = Prng::for_stream(1, 1);
    let mut times = Vec::new();
    let mut rounds = 0;
    while game.pending().is_some() && rounds <= f.rounds {
        let log = game.ai_step(&mut rng).expect("ai").log;
        rounds += log
            .iter()
            .filter(|l| l.text.as_deref().is_some_and(|t| t.starts_with("Round ")))
            .count();
        let t = Instant::now();
        let json = game.record_json();
        let mut out = std::fs::File::create(&tmp).expect("tmp");
        out.write_all(json.as_bytes()).expect("write");
        out.sync_all().expect("sync");
        std::fs::rename(&tmp, &file).expect("rename");
        times.push(t.elapsed());
    }
    let last = *times.last().expect("a command");
    times.sort();
    println!(
        "record file rewritten, {}: {} commands, median {:.1} us, p99 {:.1} us, last command {:.1} us",
        f.name,
        times.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        last.as_secs_f64() * 1e6
    );
}

/// Criterion's figure for one saved command of the 50-round fight.
fn saved_command(c: &mut Criterion) {
    let fights = fights();
    let f = &fights[0];
    let (_, mut store) = fresh_db("criterion");
    c.bench_function("saved command (skeleton duel, 50 rounds)", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            play_saving(f, &mut store, iters as usize, |d| total += d);
            total
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(10));
    targets = distribution, saved_command
}
criterion_main!(benches);
