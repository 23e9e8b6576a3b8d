//! Every rejection code is a named constant and is documented: the code lists the engine and
//! each ruleset of the registry expose (`Reject::ENGINE_CODES`, each `TextRuleset::
//! REJECTION_CODES`, its `codes::ALL`) are exactly the tables of the "Rejection codes" section
//! of `docs/commands.md` (the engine's) and of `docs/<id>.md` (each ruleset's), and no source
//! file builds a rejection from a string literal (so a new code cannot appear without its
//! constant, and through it, its line in the documentation).

use fray_engine::Reject;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Each list of codes with the page that documents it.
fn lists() -> Vec<(String, &'static [&'static str])> {
    let mut lists = vec![("docs/commands.md".to_string(), Reject::ENGINE_CODES)];
    for entry in fray_rulesets::all() {
        lists.push((format!("docs/{}.md", entry.id()), entry.rejection_codes()));
    }
    lists
}

/// The codes of the rows of a page's "## Rejection codes" section (the first cell, in
/// backticks), in order.
fn documented(page: &str) -> Vec<String> {
    let markdown = std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
    let start = markdown
        .find("\n## Rejection codes\n")
        .unwrap_or_else(|| panic!("{page} has no '## Rejection codes' section"));
    let section = &markdown[start + 1..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    section[..end]
        .lines()
        .filter_map(|line| {
            line.strip_prefix("| `")?
                .split_once('`')
                .map(|(code, _)| code.to_string())
        })
        .collect()
}

#[test]
fn every_code_is_documented_and_every_documented_code_exists() {
    for (page, codes) in lists() {
        let doc = documented(&page);
        let missing: Vec<&&str> = codes.iter().filter(|c| !doc.iter().any(|d| d == *c)).collect();
        let unknown: Vec<&String> = doc.iter().filter(|d| !codes.contains(&d.as_str())).collect();
        assert!(missing.is_empty(), "{page}: not in its rejection codes: {missing:?}");
        assert!(
            unknown.is_empty(),
            "{page}: documented but no such constant: {unknown:?}"
        );
        assert_eq!(doc, codes, "{page}: the table lists the codes in the constant's order");
    }
}

#[test]
fn every_code_list_is_well_formed() {
    for (page, codes) in lists().into_iter().skip(1) {
        if let Err(e) = fray_engine::conformance::check_rejection_codes(codes) {
            panic!("{page}: {e}");
        }
    }
}

/// Every source file (`src/**/*.rs`) of every crate.
fn sources() -> Vec<PathBuf> {
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
    // Every crate, a ruleset's among them, wherever it sits under crates/.
    let mut out = Vec::new();
    walk(&root().join("crates"), &mut out);
    out.retain(|p| p.components().any(|c| c.as_os_str() == "src"));
    out
}

/// Where `text` (Rust source) gives a rejection code as a string literal: the first argument of
/// `Reject::new` or of any function of the file whose first parameter is `code: &'static str`
/// (or `code: &str`), a `code: "..."` field, or a comparison `.code == "..."`. Comments are
/// ignored. Returns the 1-based line and the call of each.
fn literal_codes(text: &str) -> Vec<(usize, String)> {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut callers = vec!["Reject::new(".to_string()];
    for decl in ["(code: &'static str", "(code: &str"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(decl) {
            let at = from + i;
            let before = &code[..at];
            let name_start = before
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                .map_or(0, |i| i + 1);
            if before[..name_start].ends_with("fn ") {
                callers.push(format!("{}(", &before[name_start..]));
            }
            from = at + decl.len();
        }
    }
    let mut found = Vec::new();
    let mut scan = |pattern: &str, word_start: bool| {
        let mut from = 0;
        while let Some(i) = code[from..].find(pattern) {
            let at = from + i;
            from = at + pattern.len();
            let prev = code[..at].chars().next_back();
            if word_start && prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue; // part of a longer name (`unknown(`, `x::no(`)
            }
            if code[from..].trim_start().starts_with('"') {
                let line = code[..at].matches('\n').count() + 1;
                let shown: String = code[at..].chars().take(48).collect();
                found.push((line, shown.split_whitespace().collect::<Vec<_>>().join(" ")));
            }
        }
    };
    for c in &callers {
        scan(c, !c.contains("::"));
    }
    for p in ["code:", ".code ==", ".code !="] {
        scan(p, false);
    }
    found
}

#[test]
fn the_literal_code_scan_finds_what_it_looks_for() {
    let sample = r#"
fn no(code: &'static str, reason: impl Into<String>) -> Reject {
    Reject::new(code, reason)
}
fn f() {
    let a = no(codes::NOT_NOW, "fine");
    let b = no(
        "not-now", "a literal on the next line");
    let c = Reject::new("game-over", "a literal");
    let d = Reject { code: "x", reason: String::new(), kind: RejectKind::Rule };
    let e = r.code == "out-of-range";
    let f = unknown("not a rejection helper");
    // no("in a comment")
}
"#;
    let mut found: Vec<usize> = literal_codes(sample).into_iter().map(|(l, _)| l).collect();
    found.sort_unstable();
    assert_eq!(found, vec![7, 9, 10, 11]);
}

#[test]
fn no_source_file_builds_a_rejection_from_a_string_literal() {
    let files = sources();
    assert!(files.len() > 40, "found only {} source files", files.len());
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (line, call) in literal_codes(&text) {
            found.push(format!("{}:{line}: {call}", f.display()));
        }
    }
    assert!(
        found.is_empty(),
        "rejection codes written as literals (use the engine's or the ruleset's codes:: constant):\n{}",
        found.join("\n")
    );
}
