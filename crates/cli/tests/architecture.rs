//! Invariants of ARCHITECTURE.md, held as absences: only the `cli` crate touches files,
//! terminals or standard streams (the test kit, a dev-dependency only, may read files), the
//! engine (like dice, space, sim and the test kit) names no ruleset, and no crate depends on the
//! test kit but for its tests and benchmarks.

use std::path::{Path, PathBuf};

fn crates() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every crate folder below `crates/` (a folder with a `Cargo.toml`), as a path relative to it
/// such as `rules/thrum`.
fn crate_dirs() -> Vec<String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        if dir.join("Cargo.toml").is_file() {
            out.push(rel.to_string());
            return;
        }
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                let rel = if rel.is_empty() { name } else { format!("{rel}/{name}") };
                walk(&p, &rel, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(&crates(), "", &mut out);
    out.sort();
    out
}

/// Every library source file (`src/**/*.rs`) of every crate but `cli` and the dev-only
/// `testkit`.
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
    let crates_found = crate_dirs();
    for krate in [
        "dice",
        "space",
        "engine",
        "sim",
        "rulesets",
        "rules/thrum",
        "rules/ingenuity",
        "rules/skeleton",
        "rules/einfelst",
        "rules/murdham",
        "rules/hallowed-earth",
        "testkit",
        "cli",
    ] {
        assert!(
            crates_found.iter().any(|c| c == krate),
            "no crate {krate} in {crates_found:?}"
        );
    }
    let mut out = Vec::new();
    for krate in crates_found.iter().filter(|c| *c != "cli" && *c != "testkit") {
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
    for krate in ["dice", "space", "engine", "sim", "testkit"] {
        let manifest = std::fs::read_to_string(crates().join(krate).join("Cargo.toml")).unwrap();
        for ruleset in RULESETS {
            assert!(
                !manifest.contains(ruleset),
                "crates/{krate}/Cargo.toml depends on {ruleset}"
            );
        }
    }
}

/// The sections of a manifest that name `dependency`, by header (`dependencies`,
/// `dev-dependencies`, `target.'cfg(unix)'.dependencies`...).
fn sections_naming(manifest: &str, dependency: &str) -> Vec<String> {
    let mut section = String::new();
    let mut found = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = header.trim_matches(['[', ']']).to_string();
        } else if line.starts_with(dependency) || line.contains(&format!("\"{dependency}\"")) {
            found.push(section.clone());
        }
    }
    found
}

const RULESETS: [&str; 6] = [
    "fray-thrum",
    "fray-ingenuity",
    "fray-skeleton",
    "fray-einfelst",
    "fray-murdham",
    "fray-hallowed-earth",
];

#[test]
fn only_the_registry_crate_builds_on_the_rulesets() {
    // A front end opens rulesets through `fray-rulesets` alone; its own tests may name them.
    let mut registry = 0;
    for krate in crate_dirs().into_iter().filter(|c| !c.starts_with("rules/")) {
        let manifest = std::fs::read_to_string(crates().join(&krate).join("Cargo.toml")).unwrap();
        for ruleset in RULESETS {
            for section in sections_naming(&manifest, ruleset) {
                if krate == "rulesets" && section == "dependencies" {
                    registry += 1;
                    continue;
                }
                assert!(
                    section == "dev-dependencies" || section.ends_with(".dev-dependencies"),
                    "crates/{krate}/Cargo.toml names {ruleset} in [{section}]: only crates/rulesets builds on rulesets"
                );
            }
        }
    }
    assert_eq!(registry, RULESETS.len(), "crates/rulesets depends on every ruleset");
}

#[test]
fn the_test_kit_is_only_ever_a_dev_dependency() {
    let mut users = 0;
    for krate in crate_dirs().into_iter().filter(|c| c != "testkit") {
        let manifest = std::fs::read_to_string(crates().join(&krate).join("Cargo.toml")).unwrap();
        for section in sections_naming(&manifest, "fray-testkit") {
            assert!(
                section == "dev-dependencies" || section.ends_with(".dev-dependencies"),
                "crates/{krate}/Cargo.toml names fray-testkit in [{section}]: only tests and benchmarks may use it"
            );
            users += 1;
        }
    }
    assert!(users >= 2, "the rulesets' tests use the test kit, found {users} users");
    assert_eq!(
        sections_naming("[dependencies]\nfray-testkit.workspace = true\n", "fray-testkit"),
        ["dependencies"]
    );
}
