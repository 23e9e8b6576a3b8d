//! `fray sim --shard K/N` and `fray sim merge` end to end: shards of a batch, played by separate
//! processes and merged in any order, print byte for byte what the unsharded run prints (text,
//! JSON and charts), and every way of getting the shards wrong is refused with exit 2 and the
//! reason.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fray() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    c
}

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir()
        .join(format!("fray-shard-tests-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(out: Output) -> Vec<u8> {
    assert!(out.status.success(), "{}", text(&out.stderr));
    out.stdout
}

/// Runs `fray sim ARGS` and returns its standard output.
fn sim(args: &[&str]) -> Vec<u8> {
    ok(fray().arg("sim").args(args).output().unwrap())
}

/// Runs `fray sim ARGS --shard K/N --json` for every K and writes each report into `dir`.
fn shards(dir: &Path, args: &[&str], of: u64) -> Vec<PathBuf> {
    (1..=of)
        .map(|k| {
            let file = dir.join(format!("shard-{k}-of-{of}.json"));
            let out = sim(&[args, &["--shard", &format!("{k}/{of}"), "--json"]].concat());
            std::fs::write(&file, out).unwrap();
            file
        })
        .collect()
}

/// Runs `fray sim merge FILES EXTRA` and returns the output (whatever the exit code).
fn merge(files: &[PathBuf], extra: &[&str]) -> Output {
    fray().args(["sim", "merge"]).args(files).args(extra).output().unwrap()
}

/// Asserts that `out` failed with exit code 2 and says `needle` on stderr.
fn refused(out: &Output, needle: &str) {
    let err = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "expected exit 2 saying {needle:?}, got: {err}"
    );
    assert!(err.contains(needle), "expected {needle:?} in: {err}");
    assert!(
        out.stdout.is_empty(),
        "nothing printed on refusal: {}",
        text(&out.stdout)
    );
}

#[test]
fn three_shards_merge_to_the_unsharded_report_to_the_byte() {
    for (name, args) in [
        ("duel", &["examples/thrum/duel.toml", "-n", "61", "--seed", "11"][..]),
        (
            "ambush",
            &[
                "examples/ingenuity/ambush.toml",
                "-n",
                "45",
                "--seed",
                "3",
                "--jobs",
                "1",
            ][..],
        ),
    ] {
        let dir = folder(name);
        let mut files = shards(&dir, args, 3);
        // Every shard is a different part of the batch.
        let parts: Vec<serde_json::Value> = files
            .iter()
            .map(|f| serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap())
            .collect();
        let sizes: Vec<u64> = parts.iter().map(|p| p["combats"].as_u64().unwrap()).collect();
        let total: u64 = args[2].parse().unwrap();
        assert_eq!(sizes.iter().sum::<u64>(), total, "{name}: {sizes:?}");
        assert_eq!(parts[1]["shard"]["start"], parts[0]["shard"]["end"], "{name}");
        // Merged in another order than played.
        files.rotate_left(1);
        let whole_json = sim(&[args, &["--json"]].concat());
        assert_eq!(
            text(&ok(merge(&files, &["--json"]))),
            text(&whole_json),
            "{name}: merged JSON"
        );
        let whole_text = sim(args);
        assert_eq!(text(&ok(merge(&files, &[]))), text(&whole_text), "{name}: merged text");
        // The charts of the merged report are the unsharded run's charts. (Their elements, not
        // their bytes: plotters' histogram draws its bars in hash order, which changes from run
        // to run even without shards.)
        let (a, b) = (dir.join("charts-whole"), dir.join("charts-merged"));
        sim(&[args, &["--json", "--plot", a.to_str().unwrap()]].concat());
        ok(merge(&files, &["--json", "--plot", b.to_str().unwrap()]));
        for chart in ["rounds.svg", "wins.svg", "combatants.svg"] {
            let lines = |d: &Path| {
                let svg = std::fs::read_to_string(d.join(chart)).unwrap();
                let mut l: Vec<String> = svg.lines().map(str::to_string).collect();
                l.sort();
                l
            };
            assert!(lines(&a) == lines(&b), "{name}: {chart} differs");
        }
    }
}

#[test]
fn shards_of_different_n_merge_when_they_cover_the_batch_once() {
    let dir = folder("mixed-n");
    let args = ["examples/thrum/duel.toml", "-n", "40", "--seed", "5"];
    let halves = shards(&dir, &args, 2);
    let quarters = shards(&dir, &args, 4);
    let files = [halves[0].clone(), quarters[2].clone(), quarters[3].clone()];
    assert_eq!(
        text(&ok(merge(&files, &["--json"]))),
        text(&sim(&[&args[..], &["--json"]].concat()))
    );
    refused(
        &merge(&[halves[0].clone(), quarters[1].clone(), halves[1].clone()], &[]),
        "overlap: combats 10 to 19 are in both",
    );
}

#[test]
fn shards_of_a_fight_forked_from_a_record_merge_too() {
    let dir = folder("from");
    let rec = dir.join("ambush-record.json");
    let mut c = fray();
    c.args(["play", "examples/ingenuity/ambush.toml", "--seed", "1", "--record"])
        .arg(&rec)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"pick archer\nattack orrin\npass\npass\n").unwrap();
    }
    ok(child.wait_with_output().unwrap());
    let rec = rec.to_str().unwrap();
    let args = ["-n", "30", "--seed", "2", "--from", rec];
    let files = shards(&dir, &args, 3);
    assert_eq!(
        text(&ok(merge(&files, &["--json"]))),
        text(&sim(&[&args[..], &["--json"]].concat()))
    );
    // A shard of the fresh encounter is another batch, although title, seed and -n agree.
    let fresh = dir.join("fresh-3.json");
    std::fs::write(
        &fresh,
        sim(&[
            "examples/ingenuity/ambush.toml",
            "-n",
            "30",
            "--seed",
            "2",
            "--shard",
            "3/3",
            "--json",
        ]),
    )
    .unwrap();
    refused(
        &merge(&[files[0].clone(), files[1].clone(), fresh], &[]),
        "a shard of another batch than",
    );
}

#[test]
fn missing_repeated_and_foreign_shards_are_refused_with_the_reason() {
    let dir = folder("refused");
    let args = ["examples/thrum/duel.toml", "-n", "30", "--seed", "5"];
    let files = shards(&dir, &args, 3);
    refused(
        &merge(&[files[0].clone(), files[2].clone()], &[]),
        "missing shard 2/3 (combats 10 to 19)",
    );
    refused(
        &merge(
            &[files[0].clone(), files[1].clone(), files[1].clone(), files[2].clone()],
            &[],
        ),
        "shard 2/3 (combats 10 to 19) is given twice",
    );
    // Another seed, round cap, policy or -n: each named.
    let other = |name: &str, args: &[&str], needle: &str| {
        let f = dir.join(format!("{name}.json"));
        std::fs::write(&f, sim(&[args, &["--shard", "2/3", "--json"]].concat())).unwrap();
        refused(
            &merge(&[files[0].clone(), f, files[2].clone()], &[]),
            &format!("a shard of another batch than {}: {needle}", files[0].display()),
        );
    };
    let duel = "examples/thrum/duel.toml";
    other("seed", &[duel, "-n", "30", "--seed", "6"], "seed 6 here, 5 there");
    other(
        "cap",
        &[duel, "-n", "30", "--seed", "5", "--round-cap", "7"],
        "round cap 7 here, 100 there",
    );
    other(
        "policy",
        &[duel, "-n", "30", "--seed", "5", "--policy", "gm=random"],
        "policies gm=random",
    );
    other(
        "count",
        &[duel, "-n", "33", "--seed", "5"],
        "number of combats (-n) 33 here, 30 there",
    );
    // Another encounter with the same title (the fingerprint tells them apart).
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ingenuity/ambush.toml"))
            .unwrap();
    let edited = dir.join("ambush-edited.toml");
    std::fs::write(&edited, format!("{source}\n[options]\nmultiple-attack-penalty = 0\n")).unwrap();
    let amb = ["examples/ingenuity/ambush.toml", "-n", "30", "--seed", "5"];
    let amb_files = shards(&folder("refused-ambush"), &amb, 3);
    let f = dir.join("edited.json");
    std::fs::write(
        &f,
        sim(&[
            edited.to_str().unwrap(),
            "-n",
            "30",
            "--seed",
            "5",
            "--shard",
            "2/3",
            "--json",
        ]),
    )
    .unwrap();
    refused(
        &merge(&[amb_files[0].clone(), f, amb_files[2].clone()], &[]),
        "encounter, options or record forked from (fingerprint)",
    );
    // Shards of another encounter altogether.
    refused(
        &merge(&[files[0].clone(), amb_files[1].clone(), files[2].clone()], &[]),
        "ruleset ingenuity here, thrum there",
    );
}

#[test]
fn files_that_are_not_sound_shard_reports_are_refused() {
    let dir = folder("files");
    let args = ["examples/thrum/duel.toml", "-n", "20", "--seed", "5"];
    let files = shards(&dir, &args, 2);
    let write = |name: &str, body: &[u8]| {
        let f = dir.join(name);
        std::fs::write(&f, body).unwrap();
        f
    };
    let whole = write("whole.json", &sim(&[&args[..], &["--json"]].concat()));
    refused(
        &merge(&[whole, files[1].clone()], &[]),
        "whole.json: not a shard report",
    );
    let cut = std::fs::read(&files[0]).unwrap();
    let cut = write("cut.json", &cut[..cut.len() / 2]);
    refused(
        &merge(&[cut, files[1].clone()], &[]),
        "cut.json: error: not a shard report of `fray sim --shard K/N --json`: EOF",
    );
    let text_report = write("text.json", &sim(&args));
    refused(&merge(&[text_report], &[]), "text.json: error: not a shard report");
    refused(&merge(&[dir.join("nowhere.json")], &[]), "nowhere.json");
    // Edited numbers: a K beyond N, counts that do not add up.
    let edit = |name: &str, from: &str, to: &str| {
        let t = std::fs::read_to_string(&files[0]).unwrap();
        assert!(t.contains(from), "{from}");
        write(name, t.replacen(from, to, 1).as_bytes())
    };
    refused(
        &merge(&[edit("k.json", "\"index\": 1", "\"index\": 3"), files[1].clone()], &[]),
        "k.json: not a valid shard: 3/2: K must be at most N",
    );
    refused(
        &merge(
            &[edit("zero.json", "\"index\": 1", "\"index\": 0"), files[1].clone()],
            &[],
        ),
        "zero.json: not a valid shard: 0/2: shards are numbered from 1",
    );
    refused(
        &merge(
            &[
                edit("count.json", "\"combats\": 10", "\"combats\": 11"),
                files[1].clone(),
            ],
            &[],
        ),
        "count.json: its counts do not add up",
    );
    // No files at all.
    let out = fray().args(["sim", "merge"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_shard_arguments_exit_2_with_the_reason() {
    let cases: [(&[&str], &str); 9] = [
        (&["--shard", "0/3", "--json"], "shards are numbered from 1"),
        (&["--shard", "4/3", "--json"], "K must be at most N"),
        (&["--shard", "1/0", "--json"], "N must be at least 1"),
        (&["--shard", "2", "--json"], "expected K/N"),
        (&["--shard", "x/3", "--json"], "expected K/N"),
        (&["--shard", "1/3"], "add --json"),
        (
            &["--shard", "1/3", "--json", "--plot", "charts"],
            "fray sim merge SHARDS... --plot DIR",
        ),
        (&["--shard", "11/11", "--json"], "11 shards of 10 combats"),
        (
            &["--shard", "1/2", "--json", "--vary", "combatant.korrin.speed=3,4"],
            "--shard does not combine with --vary",
        ),
    ];
    for (args, needle) in cases {
        let out = fray()
            .args(["sim", "examples/thrum/duel.toml", "-n", "10"])
            .args(args)
            .output()
            .unwrap();
        refused(&out, needle);
    }
}
