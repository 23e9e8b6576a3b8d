//! The rules pages: docs/rules/<ruleset>.md lists every rule ID of a ruleset with its summary
//! (from docs/rules/<ruleset>.toml, written in our words), the tests that name it and the source
//! lines that enforce it, so a newcomer with a clone can go from `XYZ-R12` to what it says, to its
//! code and its tests in one step. The page is generated from the code by this test: a stale page
//! fails it, and `FRAY_UPDATE_RULES=1 cargo test -p fray --test it rules_pages` writes the pages
//! anew.
//!
//! What counts as a citation (and nothing else does):
//! - **enforcing**: a `// XXX-Rnn` line or trailing comment (not a `///` or `//!` doc comment) in
//!   the library code of any crate's `src/` (before its `#[cfg(test)]` part);
//! - **test**: a test function whose name holds `xxx_rnn` (`xyz_r12_ties_go_to_...`; a run of
//!   numbers after the prefix names each, `xyz_r12_r13_...`), or a
//!   `//` comment naming `XXX-Rnn` in a test file (`tests/`) or a `#[cfg(test)]` part.
//!
//! Every rule needs at least one of each: the test fails naming the rules that lack one.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::tidy::{root, rust_files};

/// Every `.rs` file of the workspace's crates, sorted, as paths relative to the root.
fn sources() -> Vec<String> {
    rust_files(&root().join("crates"))
        .iter()
        .map(|p| p.strip_prefix(root()).expect("under the root").display().to_string())
        .collect()
}

/// A ruleset's rules: ID → summary, in ID order, from docs/rules/<name>.toml.
struct Rules {
    /// The game's name, from the file's first line (`# Thrum's rules, ...`).
    title: String,
    prefix: String,
    summaries: Vec<(String, String)>,
}

fn number(id: &str) -> u32 {
    id.rsplit_once('R')
        .and_then(|(_, n)| n.parse().ok())
        .unwrap_or(u32::MAX)
}

fn rules(name: &str) -> Rules {
    let path = root().join(format!("docs/rules/{name}.toml"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let table: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut summaries: Vec<(String, String)> = table
        .into_iter()
        .map(|(id, v)| {
            let s = v
                .as_str()
                .unwrap_or_else(|| panic!("{name}.toml: {id} is not a string"))
                .to_string();
            (id, s)
        })
        .collect();
    summaries.sort_by_key(|(id, _)| number(id));
    let prefix = summaries[0]
        .0
        .split_once("-R")
        .expect("an ID such as XYZ-R1")
        .0
        .to_string();
    for (id, s) in &summaries {
        assert!(
            id.starts_with(&format!("{prefix}-R")) && number(id) != u32::MAX,
            "{name}.toml: `{id}` is not a {prefix}-R<n> rule ID"
        );
        assert!(
            !s.trim().is_empty() && !s.contains('\n'),
            "{name}.toml: {id} needs a one-line summary"
        );
    }
    let title = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# "))
        .and_then(|l| l.split_once(" rules,"))
        .map(|(t, _)| t.trim_end_matches("'s").trim_end_matches('\'').to_string())
        .unwrap_or_else(|| panic!("{name}.toml: the first line is not `# <Game>'s rules, ...`"));
    Rules {
        title,
        prefix,
        summaries,
    }
}

/// Where `word` (`XYZ-R12` or `xyz_r12`) stands in `text` as a whole ID, not followed by a digit.
fn mentions(text: &str, word: &str) -> bool {
    let mut rest = text;
    while let Some(i) = rest.find(word) {
        let after = &rest[i + word.len()..];
        let before_ok = !rest[..i].ends_with(|c: char| c.is_ascii_alphanumeric());
        if before_ok && !after.starts_with(|c: char| c.is_ascii_digit()) {
            return true;
        }
        rest = after;
    }
    false
}

/// The citations of one ruleset's rules: ID → (enforcing places, tests).
#[derive(Default)]
struct Cited {
    enforcing: Vec<String>,
    tests: Vec<String>,
}

fn citations(rules: &Rules, files: &[String]) -> BTreeMap<String, Cited> {
    let mut out: BTreeMap<String, Cited> = rules
        .summaries
        .iter()
        .map(|(id, _)| (id.clone(), Cited::default()))
        .collect();
    let lower = rules.prefix.to_lowercase();
    for file in files {
        let text = std::fs::read_to_string(root().join(file)).expect("a readable source file");
        if !text.contains(&rules.prefix) && !text.contains(&format!("{lower}_r")) {
            continue;
        }
        let is_test_file = file.contains("/tests/") || file.contains("/benches/");
        let mut in_tests = is_test_file;
        for (i, line) in text.lines().enumerate() {
            if line.contains("#[cfg(test)]") {
                in_tests = true;
            }
            let place = format!("{file}:{}", i + 1);
            let trimmed = line.trim_start();
            let doc = trimmed.starts_with("///") || trimmed.starts_with("//!");
            let comment = line.find("//").map(|at| &line[at..]);
            // A test function's name.
            if in_tests && let Some(name) = test_name(trimmed) {
                for id in named_ids(name, &rules.prefix) {
                    if let Some(c) = out.get_mut(&id) {
                        c.tests.push(format!("{file}: `{name}`"));
                    }
                }
            }
            let Some(comment) = comment else { continue };
            for (id, _) in &rules.summaries {
                if !mentions(comment, id) {
                    continue;
                }
                let c = out.get_mut(id).expect("a rule");
                if in_tests {
                    c.tests.push(place.clone());
                } else if !doc && file.contains("/src/") {
                    c.enforcing.push(place.clone());
                }
            }
        }
    }
    out
}

/// The rule IDs a test's name gives: `thr_r12_...` names THR-R12, and a run of IDs after the
/// prefix names each (`ein_r17_r18_...` names EIN-R17 and EIN-R18; so does `..._ein_r17_r18`).
fn named_ids(name: &str, prefix: &str) -> Vec<String> {
    let lower = prefix.to_lowercase();
    let mut ids = Vec::new();
    let mut after_prefix = false;
    for word in name.split('_') {
        let numbered = word.len() > 1 && word.starts_with(['r', 'h']) && word[1..].bytes().all(|b| b.is_ascii_digit());
        if word == lower {
            after_prefix = true;
        } else if after_prefix && numbered {
            ids.push(format!("{prefix}-{}", word.to_uppercase()));
        } else {
            after_prefix = false;
        }
    }
    ids
}

/// The name of the function a line declares, if it declares one.
fn test_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("pub ").unwrap_or(line).strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&rest[..end])
}

/// A citation as a link relative to docs/rules/: `[file:line](../../file#Lline)`.
fn link(place: &str) -> String {
    if let Some((file, name)) = place.split_once(": ") {
        let short = file.rsplit('/').next().unwrap_or(file);
        return format!("[{short}](../../{file}) {name}");
    }
    let (file, line) = place.rsplit_once(':').expect("file:line");
    let short = file.rsplit('/').next().unwrap_or(file);
    format!("[{short}:{line}](../../{file}#L{line})")
}

fn page(name: &str, rules: &Rules, cited: &BTreeMap<String, Cited>) -> String {
    let mut out = String::new();
    let title = &rules.title;
    let _ = writeln!(out, "# {title}: every rule, its tests and its code\n");
    let _ = writeln!(
        out,
        "Generated from the code by `crates/cli/tests/it/rules_pages.rs` (do not edit: change \
         docs/rules/{name}.toml or the code, then run `FRAY_UPDATE_RULES=1 cargo test -p fray \
         --test it rules_pages`). Each rule is summed up in our words; the tests are those that \
         name it (`{}_rNN_...`, or a comment in a test), the code the `// {}-RNN` comments at the \
         lines that enforce it. The ruleset's user page is [docs/{name}.md](../{name}.md).\n",
        rules.prefix.to_lowercase(),
        rules.prefix
    );
    let _ = writeln!(out, "| Rule | What it says | Tests | Enforced at |");
    let _ = writeln!(out, "|---|---|---|---|");
    for (id, summary) in &rules.summaries {
        let c = &cited[id];
        let tests: Vec<String> = c.tests.iter().map(|t| link(t)).collect();
        let code: Vec<String> = c.enforcing.iter().map(|t| link(t)).collect();
        let cell = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join("<br>")
            }
        };
        let _ = writeln!(
            out,
            "| {id} | {} | {} | {} |",
            summary.replace('|', "\\|"),
            cell(&tests),
            cell(&code)
        );
    }
    out
}

#[test]
fn rules_pages_are_up_to_date() {
    let dir = root().join("docs/rules");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("docs/rules")
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".toml").map(str::to_string)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 5, "docs/rules has summaries of only {names:?}");
    let files = sources();
    let update = std::env::var_os("FRAY_UPDATE_RULES").is_some();
    let mut problems = Vec::new();
    for name in &names {
        let rules = rules(name);
        let cited = citations(&rules, &files);
        let text = page(name, &rules, &cited);
        let path = dir.join(format!("{name}.md"));
        if update {
            std::fs::write(&path, &text).expect("the page is written");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            problems.push(format!(
                "docs/rules/{name}.md is stale: run FRAY_UPDATE_RULES=1 cargo test -p fray --test it rules_pages"
            ));
        }
        // Every rule is named by a test and cited at the code that enforces it.
        for (id, c) in &cited {
            if c.tests.is_empty() {
                problems.push(format!("{id}: no test names it"));
            }
            if c.enforcing.is_empty() {
                problems.push(format!("{id}: no `// {id}` comment at the code that enforces it"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_citation_is_a_whole_id() {
    assert!(mentions("// XYZ-R12: ties", "XYZ-R12"));
    assert!(!mentions("// XYZ-R120", "XYZ-R12"));
    assert!(!mentions("// XXYZ-R12", "XYZ-R12"));
    assert_eq!(named_ids("xyz_r12_ties", "XYZ"), ["XYZ-R12"]);
    assert_eq!(named_ids("xyz_r120_x", "XYZ"), ["XYZ-R120"]);
    assert_eq!(named_ids("xyz_r17_r18_fast", "XYZ"), ["XYZ-R17", "XYZ-R18"]);
    assert_eq!(named_ids("fast_moves_xyz_r3", "XYZ"), ["XYZ-R3"]);
    assert_eq!(named_ids("xyz_round_r3", "XYZ"), Vec::<String>::new());
    assert_eq!(named_ids("xxyz_r12", "XYZ"), Vec::<String>::new());
    assert_eq!(test_name("fn xyz_r1_x() {"), Some("xyz_r1_x"));
    assert_eq!(test_name("let x = 1;"), None);
}
