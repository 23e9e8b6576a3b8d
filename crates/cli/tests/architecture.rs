//! Invariants of ARCHITECTURE.md, held as absences: only the `cli` crate touches files,
//! terminals or standard streams, and the engine (like dice, space and sim) names no ruleset.

use std::path::{Path, PathBuf};

fn crates() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every library source file (`src/**/*.rs`) of every crate but `cli`.
fn library_sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for krate in ["dice", "space", "engine", "sim", "rules/thrum", "rules/ingenuity"] {
        walk(&crates().join(krate).join("src"), &mut out);
    }
    out
}

/// The part of a source file before its unit tests (`#[cfg(test)]`), which may use files.
fn library_part(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or(text)
}

#[test]
fn only_the_cli_touches_files_terminals_or_standard_streams() {
    let banned = [
        "std::fs",
        "std::io",
        "println!",
        "print!(",
        "eprintln!",
        "eprint!(",
        "dbg!(",
    ];
    let files = library_sources();
    assert!(files.len() > 40, "found only {} source files", files.len());
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in library_part(&text).lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for b in banned {
                if code.contains(b) {
                    found.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "I/O outside the cli crate:\n{}", found.join("\n"));
}

#[test]
fn the_engine_and_the_shared_crates_name_no_ruleset() {
    for krate in ["dice", "space", "engine", "sim"] {
        let manifest = std::fs::read_to_string(crates().join(krate).join("Cargo.toml")).unwrap();
        for ruleset in ["fray-thrum", "fray-ingenuity"] {
            assert!(
                !manifest.contains(ruleset),
                "crates/{krate}/Cargo.toml depends on {ruleset}"
            );
        }
    }
}
