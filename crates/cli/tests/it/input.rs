//! Input the command line must refuse cleanly (exit 2, a message, never a hang or a panic):
//! oversized and endless files, text that is not UTF-8 (in the encounter and in the files it
//! names), too many `--jobs`, unknown `fray odds` rulesets, and `--vary` problems reported
//! against the user's own file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fray() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(root());
    c
}

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fray-input-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn refused(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    text(&out.stderr)
}

#[cfg(unix)]
#[test]
fn endless_and_oversized_inputs_are_refused_without_reading_them_whole() {
    let err = refused(&fray().args(["check", "/dev/zero"]).output().unwrap());
    assert_eq!(
        err.trim(),
        "/dev/zero: error: the file is larger than 16 MiB, the most fray reads"
    );
    for args in [&["replay", "/dev/zero"][..], &["sim", "/dev/zero", "-n", "1"]] {
        let err = refused(&fray().args(args).output().unwrap());
        assert!(err.contains("larger than 16 MiB"), "{args:?}: {err}");
    }
    // A pipe that never ends.
    let mut child = fray()
        .args(["check", "/dev/stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let block = vec![b'#'; 1 << 16];
        while stdin.write_all(&block).is_ok() {}
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(refused(&out).contains("larger than 16 MiB"));
    // Exactly at the limit is still read (and then judged as TOML).
    let d = tmp_dir("limit");
    let at_limit = d.join("big.toml");
    let mut big = b"ruleset = \"thrum\"\n".to_vec();
    big.resize(16 * 1024 * 1024, b'\n');
    std::fs::write(&at_limit, &big).unwrap();
    let err = refused(&fray().arg("check").arg(&at_limit).output().unwrap());
    assert!(!err.contains("larger than"), "{err}");
    big.push(b'\n');
    std::fs::write(&at_limit, &big).unwrap();
    assert!(refused(&fray().arg("check").arg(&at_limit).output().unwrap()).contains("larger than 16 MiB"));
}

#[test]
fn text_that_is_not_utf8_is_located_by_line_and_column() {
    let d = tmp_dir("utf8");
    let enc = d.join("enc.toml");
    std::fs::write(&enc, b"ruleset = \"thrum\"\ntitle = \"Caf\xc3\xa9 \xff\"\n").unwrap();
    let err = refused(&fray().arg("check").arg(&enc).output().unwrap());
    assert!(
        err.starts_with(&format!("{}:2:15: error: the file is not UTF-8", enc.display())),
        "{err}"
    );
    // The same for a file the encounter names, reported at the line that names it.
    let duel = std::fs::read_to_string(root().join("examples/thrum/duel.toml")).unwrap();
    let duel = duel.replacen(
        "ruleset = \"thrum\"",
        "ruleset = \"thrum\"\nability-files = [\"arts.toml\"]",
        1,
    );
    let line = duel.lines().position(|l| l.starts_with("ability-files")).unwrap() + 1;
    std::fs::write(&enc, duel).unwrap();
    std::fs::write(d.join("arts.toml"), b"# arts\n\n  \xe2\x82\n").unwrap();
    let err = refused(&fray().arg("check").arg(&enc).output().unwrap());
    assert!(err.contains(&format!("enc.toml:{line}:")), "{err}");
    assert!(err.contains("arts.toml:3:3: the file is not UTF-8"), "{err}");
    // And for records.
    let rec = d.join("r.json");
    std::fs::write(&rec, b"{\n \"ruleset\": \"th\xffrum\"}").unwrap();
    let err = refused(&fray().arg("replay").arg(&rec).output().unwrap());
    assert!(err.contains("r.json:2:16: error: the file is not UTF-8"), "{err}");
}

#[test]
fn jobs_are_bounded() {
    let err = refused(
        &fray()
            .args(["sim", "examples/thrum/duel.toml", "-n", "2", "--jobs", "257"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("--jobs 257: at most 256 worker threads"), "{err}");
    let huge = refused(
        &fray()
            .args([
                "sim",
                "examples/thrum/duel.toml",
                "-n",
                "2",
                "--jobs",
                "18446744073709551615",
            ])
            .output()
            .unwrap(),
    );
    assert!(huge.contains("at most 256"), "{huge}");
    let out = fray()
        .args(["sim", "examples/thrum/duel.toml", "-n", "2", "--jobs", "256", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn odds_names_every_known_ruleset() {
    let err = refused(&fray().args(["odds", "chess"]).output().unwrap());
    assert!(
        err.contains(&format!(
            "'chess' is neither 'roll' nor a ruleset (known: roll, {})",
            fray_rulesets::ids().collect::<Vec<_>>().join(", ")
        )),
        "{err}"
    );
}

fn sweep(args: &[&str]) -> Output {
    fray()
        .args(["sim", "examples/thrum/duel.toml", "-n", "4", "--json"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn vary_sets_squares_and_reports_problems_in_the_users_file() {
    let duel = std::fs::read_to_string(root().join("examples/thrum/duel.toml")).unwrap();
    let at_line = duel.lines().position(|l| l.starts_with("at = \"6,3\"")).unwrap() + 1;
    // Squares contain a comma: semicolons separate the values.
    let out = sweep(&["--vary", "combatant.biffer.at=6,3;5,2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let values: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["6,3", "5,2"]);
    // A bad value is reported at the real file's line and column, naming the --vary value.
    let err = refused(&sweep(&["--vary", "combatant.biffer.at=6,3;99,3"]));
    assert!(
        err.starts_with(&format!("examples/thrum/duel.toml:{at_line}:6: error: ")),
        "{err}"
    );
    assert!(
        err.contains("(in `at = \"99,3\"`, written here by --vary) [with --vary combatant.biffer.at=99,3]"),
        "{err}"
    );
    assert!(!err.contains("(with "), "no rewritten copy is named: {err}");
    // A path that names nothing.
    let err = refused(&sweep(&["--vary", "combatant.nobody.at=1,1;"]));
    assert!(
        err.contains("examples/thrum/duel.toml: error: --vary combatant.nobody.at=1,1: nothing with id 'nobody'"),
        "{err}"
    );
}
