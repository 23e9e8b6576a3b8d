//! The shared conformance suite: every ruleset of the registry
//! ([`fray_rulesets::conformance`]) x every example file in `examples/<id>/` x the ruleset's
//! option variants. For each example it plays seeded fights with the built-in AI and with random
//! legal play (every playout ends; every legal command is accepted and every other one refused
//! without a trace; state and record survive JSON; records replay), once with the example's own
//! options and once per option variant; replays a recorded fight and feeds edited copies of the
//! record to the loader (none may panic); and, in a ruleset that hides anything, checks that
//! nothing hidden from a seat reaches it. Per ruleset it checks the option variants (every option
//! changed by one), the rejection codes, and that docs/<id>.md gives every option its default.
//!
//! What each check does is in [`fray_engine::conformance`]; how much of an example it plays is
//! the ruleset's [`fray_engine::conformance::Conformance::plan`]. A new ruleset is covered by its
//! line in the registry and its examples.
//!
//! Two environment variables make a quicker loop for a developer (never set in CI):
//! `FRAY_SUITE_RULESETS=thrum,murdham` checks only those rulesets, and `FRAY_SUITE_QUICK=10`
//! divides every seed count by 10 (docs/testing.md).

use fray_engine::conformance::{Example, HiddenReport, Plan, Share, Suite};
use fray_engine::diag::SourceFile;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The rulesets to check: every one in the registry, or those `FRAY_SUITE_RULESETS` names.
fn suites() -> Vec<&'static dyn Suite> {
    let all = fray_rulesets::conformance();
    match std::env::var("FRAY_SUITE_RULESETS") {
        Ok(list) if !list.trim().is_empty() => {
            let wanted: Vec<&str> = list.split(',').map(str::trim).collect();
            for id in &wanted {
                assert!(
                    all.iter().any(|s| s.id() == *id),
                    "FRAY_SUITE_RULESETS names '{id}', which the registry does not have"
                );
            }
            all.iter().copied().filter(|s| wanted.contains(&s.id())).collect()
        }
        _ => all.to_vec(),
    }
}

/// The plan of an example, cut down by `FRAY_SUITE_QUICK` if it is set.
fn plan(suite: &dyn Suite, name: &str) -> Plan {
    let plan = suite.plan(name);
    match std::env::var("FRAY_SUITE_QUICK")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        Some(by) if by > 1 => plan.scaled_down(by),
        _ => plan,
    }
}

/// The example files of a ruleset, `examples/<id>/*.toml`, sorted by name.
fn example_files(id: &str) -> Vec<PathBuf> {
    let dir = root().join("examples").join(id);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|f| f.expect("a directory entry").path())
        .filter(|f| f.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

/// Reads a file beside the example, as the `fray` command does for a file an example names.
fn read_beside(dir: &Path, name: &str) -> Result<SourceFile, String> {
    std::fs::read_to_string(dir.join(name))
        .map(|text| SourceFile {
            name: name.into(),
            text,
        })
        .map_err(|e| format!("{name}: {e}"))
}

/// How long this thread has run on a core, in nanoseconds, where the system tells it (Linux).
fn thread_cpu() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

type Check<'a> = dyn Fn(&dyn Suite, &Example<'_>, &Plan, Share) -> Result<String, String> + Sync + 'a;

/// Runs `check` over every example of every ruleset, on every core (the larger plans first),
/// and fails with every failure found. What each run covered is printed (`--nocapture`), with
/// the time it took on a core where the system tells it. `shares` says into how many shares
/// of its seeds an example's plan is cut (each share a piece of work of its own, so one long
/// example does not keep a core busy alone at the end).
fn over_every_example(what: &str, shares: fn(&Plan) -> u64, check: &Check<'_>) {
    let mut items: Vec<(&dyn Suite, PathBuf, Plan, Share)> = Vec::new();
    for suite in suites() {
        let files = example_files(suite.id());
        assert!(
            !files.is_empty(),
            "{}: no examples in examples/{}/",
            suite.id(),
            suite.id()
        );
        for path in files {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("a file name")
                .to_string();
            let plan = plan(suite, &name);
            let of = shares(&plan).max(1);
            for index in 0..of {
                items.push((suite, path.clone(), plan.clone(), Share { index, of }));
            }
        }
    }
    items.sort_by_key(|(_, _, plan, share)| std::cmp::Reverse(plan.ai_seeds / share.of));
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(items.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some((suite, path, plan, share)) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let name = path.file_name().and_then(|n| n.to_str()).expect("a file name");
                    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    let dir = path.parent().expect("a folder").to_path_buf();
                    let read = move |n: &str| read_beside(&dir, n);
                    let example = Example {
                        src: SourceFile {
                            name: name.into(),
                            text,
                        },
                        read: &read,
                    };
                    let place = match share.of {
                        1 => format!("{}/{name}", suite.id()),
                        of => format!("{}/{name} (share {} of {of})", suite.id(), share.index + 1),
                    };
                    let cpu0 = thread_cpu();
                    let result = check(*suite, &example, plan, *share);
                    let cpu = thread_cpu().zip(cpu0);
                    let cpu = cpu.map_or(String::new(), |(b, a)| format!(" [{:.1} s]", (b - a) as f64 / 1e9));
                    match result {
                        Ok(line) => eprintln!("{what} {place}{cpu}: {line}"),
                        Err(e) => failures
                            .lock()
                            .expect("no worker panicked")
                            .push(format!("{place}: {e}")),
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().expect("no worker panicked");
    assert!(failures.is_empty(), "{what}:\n{}", failures.join("\n"));
}

/// One piece of work an example.
fn whole(_: &Plan) -> u64 {
    1
}

#[test]
fn the_suite_covers_every_ruleset_of_the_registry() {
    let suite: Vec<&str> = fray_rulesets::conformance().iter().map(|s| s.id()).collect();
    let registry: Vec<&str> = fray_rulesets::ids().collect();
    assert_eq!(suite, registry);
}

#[test]
fn every_rulesets_option_variants_and_rejection_codes_are_well_formed() {
    for suite in suites() {
        match suite.lists() {
            Ok(line) => eprintln!("lists {}: {line}", suite.id()),
            Err(e) => panic!("{}: {e}", suite.id()),
        }
    }
}

#[test]
fn every_option_is_documented_with_its_default() {
    for suite in suites() {
        let page = format!("docs/{}.md", suite.id());
        let doc = std::fs::read_to_string(root().join(&page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        let options = suite
            .option_defaults()
            .unwrap_or_else(|e| panic!("{}: {e}", suite.id()));
        assert!(!options.is_empty(), "{}: no options", suite.id());
        for (name, default) in options {
            let row = doc
                .lines()
                .find(|l| l.starts_with(&format!("| `{name}` |")))
                .unwrap_or_else(|| panic!("{page} has no row for the option {name}"));
            match default {
                Some(value) => assert!(
                    row.contains(&format!("`{value}`")),
                    "{page} gives {name} another default than {value}: {row}"
                ),
                None => assert!(
                    row.contains("| none |"),
                    "{page}: {name} has no default, so its row reads none: {row}"
                ),
            }
        }
    }
}

#[test]
fn playouts_of_every_example() {
    // A share of about a hundred AI fights each.
    over_every_example("playouts", |p| p.ai_seeds.div_ceil(100), &|s, e, p, share| {
        s.playouts(e, p, share)
    });
}

#[test]
fn option_variants_of_every_example() {
    over_every_example("variants", whole, &|s, e, p, _| s.variants(e, p));
}

#[test]
fn records_of_every_example_replay_and_edited_records_never_panic() {
    over_every_example("records", whole, &|s, e, p, _| s.records(e, p));
}

#[test]
fn nothing_hidden_reaches_any_seat_of_any_example() {
    let totals: Mutex<BTreeMap<&str, HiddenReport>> = Mutex::new(BTreeMap::new());
    over_every_example("hidden", whole, &|s, e, p, _| {
        let Some(r) = s.hidden(e, p)? else {
            return Ok("nothing is hidden in this ruleset".into());
        };
        *totals.lock().expect("no worker panicked").entry(s.id()).or_default() += &r;
        Ok(format!("{r:?}"))
    });
    // Where the examples hide something, the check must have had something to compare.
    let totals = totals.into_inner().expect("no worker panicked");
    for suite in suites().into_iter().filter(|s| s.examples_hide()) {
        let t = totals.get(suite.id()).cloned().unwrap_or_default();
        assert!(
            t.variants_compared > 0 && t.ai_compared > 0,
            "{}: its examples hide something, yet nothing was compared: {t:?}",
            suite.id()
        );
    }
}
