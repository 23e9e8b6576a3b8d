//! `fray sim` end to end: results that do not depend on the number of threads, JSON and charts,
//! sweeps, forks from a record, per-seat policies, and bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fray() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    c
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fray-sim-tests-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = fray().arg("sim").args(args).arg("--json").output().unwrap();
    serde_json::from_str(&ok(&out)).unwrap()
}

#[test]
fn results_do_not_depend_on_the_number_of_jobs() {
    for file in ["examples/thrum/duel.toml", "examples/ingenuity/ambush.toml"] {
        let one = json(&[file, "-n", "120", "--seed", "9", "--jobs", "1"]);
        let two = json(&[file, "-n", "120", "--seed", "9", "--jobs", "2"]);
        assert_eq!(one, two, "{file}");
        let other = json(&[file, "-n", "120", "--seed", "10", "--jobs", "2"]);
        assert_ne!(
            one["rounds"], other["rounds"],
            "{file}: another seed gives other fights"
        );
    }
}

#[test]
fn the_json_report_adds_up() {
    let v = json(&["examples/ingenuity/night-raid.toml", "-n", "150", "--jobs", "2"]);
    assert_eq!(v["ruleset"], "ingenuity");
    assert_eq!(v["combats"], 150);
    let wins: u64 = v["sides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"]["count"].as_u64().unwrap())
        .sum();
    let draws = v["draws"]["count"].as_u64().unwrap();
    let cut = v["cutoffs"]["count"].as_u64().unwrap();
    assert_eq!(wins + draws + cut, 150);
    for s in v["sides"].as_array().unwrap() {
        let w = &s["wins"];
        let (low, rate, high) = (
            w["low"].as_f64().unwrap(),
            w["rate"].as_f64().unwrap(),
            w["high"].as_f64().unwrap(),
        );
        assert!(low <= rate && rate <= high, "{w}");
    }
    let hist: u64 = v["rounds"]["histogram"]
        .as_object()
        .unwrap()
        .values()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(hist, wins + draws, "every finished combat has a round count");
    assert_eq!(v["combatants"].as_array().unwrap().len(), 8);
}

#[test]
fn plot_writes_the_three_charts() {
    let dir = tmp("plots");
    let out = fray()
        .args(["sim", "examples/thrum/duel.toml", "-n", "60", "--plot"])
        .arg(&dir)
        .output()
        .unwrap();
    ok(&out);
    for f in ["rounds.svg", "wins.svg", "combatants.svg"] {
        let svg = std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(svg.starts_with("<svg") || svg.contains("<svg"), "{f}");
    }
}

#[test]
fn the_combatant_chart_names_every_combatant_and_side_and_only_outcomes_that_happened() {
    let dir = tmp("combatant-chart");
    let out = fray()
        .args([
            "sim",
            "examples/ingenuity/night-raid.toml",
            "-n",
            "80",
            "--json",
            "--plot",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_str(&ok(&out)).unwrap();
    let svg = std::fs::read_to_string(dir.join("combatants.svg")).unwrap();
    let label = |t: &str| svg.contains(&format!(">\n{t}\n</text>")) || svg.contains(&format!(">{t}</text>"));
    for s in report["sides"].as_array().unwrap() {
        assert!(label(s["side"].as_str().unwrap()), "side {} not named", s["side"]);
    }
    let cs = report["combatants"].as_array().unwrap();
    for c in cs {
        assert!(label(c["id"].as_str().unwrap()), "{} not named", c["id"]);
    }
    for outcome in ["incapacitated", "removed", "killed"] {
        let happened = cs.iter().any(|c| c[outcome]["count"].as_u64().unwrap() > 0);
        assert_eq!(label(outcome), happened, "legend entry for {outcome}");
    }
}

#[test]
fn vary_sweeps_an_option_with_one_report_per_value() {
    let out = fray()
        .args([
            "sim",
            "examples/ingenuity/ambush.toml",
            "-n",
            "300",
            "--vary",
            "options.multiple-attack-penalty=0,4",
            "--json",
        ])
        .output()
        .unwrap();
    let t = ok(&out);
    let v: serde_json::Value = serde_json::from_str(&t).unwrap();
    // One report per value, in the order given.
    let rows = v.as_array().unwrap_or_else(|| panic!("a list of values: {t}"));
    let values: Vec<&str> = rows.iter().map(|r| r["value"].as_str().unwrap()).collect();
    assert_eq!(values, ["0", "4"], "{t}");
    assert!(rows.iter().all(|r| r["path"] == "options.multiple-attack-penalty"));
    let text_out = fray()
        .args([
            "sim",
            "examples/ingenuity/ambush.toml",
            "-n",
            "300",
            "--vary",
            "options.multiple-attack-penalty=0,4",
        ])
        .output()
        .unwrap();
    let table = ok(&text_out);
    assert!(table.contains("options.multiple-attack-penalty"), "{table}");
    assert!(table.lines().any(|l| l.starts_with('0')) && table.lines().any(|l| l.starts_with('4')));
}

#[test]
fn from_forks_simulations_from_a_recorded_fight() {
    let rec = tmp("ambush-record.json");
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
    ok(&child.wait_with_output().unwrap());
    let out = fray()
        .args(["sim", "-n", "80", "--json", "--from"])
        .arg(&rec)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&ok(&out)).unwrap();
    assert_eq!(v["combats"], 80);
    // Orrin took 10 endurance damage from the opening shot before the fork, so every forked
    // fight ends with at least that much lost (a fresh start would sometimes show less).
    let replay = fray().arg("replay").arg(&rec).output().unwrap();
    assert!(ok(&replay).contains("Orrin Vey takes 10 damage (after 4 deflection): endurance -10"));
    let orrin = v["combatants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "orrin")
        .unwrap();
    assert_eq!(orrin["resources"]["endurance-lost"]["min"], 10, "{orrin}");
    let fresh = json(&["examples/ingenuity/ambush.toml", "-n", "80"]);
    let orrin = fresh["combatants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "orrin")
        .unwrap();
    assert!(
        orrin["resources"]["endurance-lost"]["min"].as_u64().unwrap() < 10,
        "{orrin}"
    );
}

#[test]
fn policies_can_be_set_per_seat() {
    let v = json(&[
        "examples/ingenuity/ambush.toml",
        "-n",
        "6",
        "--policy",
        "gm=search:4:3:20",
        "--policy",
        "players=random",
    ]);
    assert_eq!(v["policies"]["gm"], "search:4:3:20");
    assert_eq!(v["policies"]["players"], "random");
}

#[test]
fn bad_sim_input_exits_2_with_the_reason() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["examples/ingenuity/ambush.toml", "--vary", "combatant.nobody.x=1"],
            "nobody",
        ),
        (&["examples/ingenuity/ambush.toml", "--policy", "gm=clever"], "clever"),
        (&["no/such/file.toml"], "no/such/file.toml"),
        (&["--from", "no/such/record.json"], "record.json"),
    ];
    for (args, needle) in cases {
        let out = fray().arg("sim").args(args).args(["-n", "5"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(needle), "{args:?}: {}", text(&out.stderr));
    }
}
