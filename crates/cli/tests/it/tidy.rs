//! The tidy tests: ARCHITECTURE.md is a map, and these tests hold the code to it. Each reads what
//! the map says (the dependency edges it draws, the table of crates that may touch the world,
//! the tests it names) and the code as it is (every `Cargo.toml`, every source file), and fails
//! naming the place where the two part. They read files and run nothing; rust-analyzer's tidy
//! tests are the model.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn architecture() -> String {
    read(&root().join("ARCHITECTURE.md"))
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
    walk(&root().join("crates"), "", &mut out);
    out.sort();
    out
}

/// Every `.rs` file below `dir`, sorted.
pub(crate) fn rust_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                if name != "target" && name != "node_modules" && !name.starts_with('.') {
                    walk(&p, out);
                }
            } else if name.ends_with(".rs") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// The part of a source file before its unit tests (`#[cfg(test)]`).
fn library_part(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or(text)
}

/// A line without its comment (`//` to the end), good enough for the marks these tests look for.
fn code_of(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// The fenced block of ARCHITECTURE.md whose info string is `info`.
fn fenced(info: &str) -> String {
    let text = architecture();
    let open = format!("```{info}\n");
    let at = text
        .find(&open)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no ```{info} block"));
    let rest = &text[at + open.len()..];
    rest[..rest.find("```").expect("the block ends")].to_string()
}

/// Expands a crate pattern of the map (`engine`, `rules/*`) to the crate folders it names.
fn expand(pattern: &str, crates: &[String]) -> Vec<String> {
    let found: Vec<String> = match pattern.strip_suffix("/*") {
        Some(prefix) => crates
            .iter()
            .filter(|c| c.starts_with(&format!("{prefix}/")))
            .cloned()
            .collect(),
        None => crates.iter().filter(|c| *c == pattern).cloned().collect(),
    };
    assert!(
        !found.is_empty(),
        "ARCHITECTURE.md names `{pattern}`, which is no crate of {crates:?}"
    );
    found
}

/// (from, to, dev) edges between workspace crates.
type Edges = BTreeSet<(String, String, bool)>;

/// The edges the map draws.
fn drawn_edges(crates: &[String]) -> Edges {
    let mut edges = Edges::new();
    for line in fenced("edges").lines().filter(|l| !l.trim().is_empty()) {
        let (from, to) = line
            .split_once("->")
            .unwrap_or_else(|| panic!("no arrow in edge line `{line}`"));
        let mut from = from.split_whitespace().collect::<Vec<_>>();
        let dev = from.first() == Some(&"dev");
        if dev {
            from.remove(0);
        }
        let [from] = from[..] else {
            panic!("edge line `{line}` names more than one crate on the left");
        };
        for f in expand(from, crates) {
            for t in to.split_whitespace().flat_map(|t| expand(t, crates)) {
                edges.insert((f.clone(), t, dev));
            }
        }
    }
    edges
}

/// The edges the manifests have: `[dependencies]` and `[dev-dependencies]` (also under
/// `[target.*]`) that name a workspace crate.
fn manifest_edges(crates: &[String]) -> Edges {
    let mut by_package = BTreeMap::new();
    let mut manifests = BTreeMap::new();
    for c in crates {
        let path = root().join("crates").join(c).join("Cargo.toml");
        let manifest: toml::Table = toml::from_str(&read(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = manifest["package"]["name"]
            .as_str()
            .expect("a package name")
            .to_string();
        by_package.insert(name, c.clone());
        manifests.insert(c.clone(), manifest);
    }
    let mut edges = Edges::new();
    for (c, manifest) in &manifests {
        let mut tables = vec![manifest.clone()];
        if let Some(toml::Value::Table(targets)) = manifest.get("target") {
            tables.extend(targets.values().filter_map(|v| v.as_table().cloned()));
        }
        for table in tables {
            for (section, dev) in [
                ("dependencies", false),
                ("dev-dependencies", true),
                ("build-dependencies", false),
            ] {
                if let Some(toml::Value::Table(deps)) = table.get(section) {
                    for dep in deps.keys() {
                        // A crate's dev-dependency on itself only turns a feature on for its
                        // tests (the registry's `conformance`): no arrow between crates.
                        if let Some(to) = by_package.get(dep).filter(|to| *to != c) {
                            edges.insert((c.clone(), to.clone(), dev));
                        }
                    }
                }
            }
        }
    }
    edges
}

fn show(edges: &Edges) -> String {
    let lines: Vec<String> = edges
        .iter()
        .map(|(f, t, dev)| format!("{}{f} -> {t}", if *dev { "dev " } else { "" }))
        .collect();
    lines.join("\n")
}

#[test]
fn crate_dependencies_are_the_ones_the_map_draws() {
    let crates = crate_dirs();
    assert!(crates.len() >= 10, "found only {crates:?}");
    let drawn = drawn_edges(&crates);
    let real = manifest_edges(&crates);
    let undrawn: Edges = real.difference(&drawn).cloned().collect();
    let unreal: Edges = drawn.difference(&real).cloned().collect();
    assert!(
        undrawn.is_empty() && unreal.is_empty(),
        "the crates' manifests and ARCHITECTURE.md's ```edges block differ\n\
         in a Cargo.toml, not on the map:\n{}\non the map, in no Cargo.toml:\n{}",
        show(&undrawn),
        show(&unreal)
    );
    // The shape the rest of the map relies on, whatever the block says.
    for (from, to, dev) in &real {
        let shared = ["dice", "space", "engine", "sim", "testkit"];
        assert!(
            !(shared.contains(&from.as_str()) && to.starts_with("rules/")),
            "{from} depends on the ruleset {to}: the engine and the shared crates name no ruleset"
        );
        assert!(
            to != "testkit" || *dev,
            "{from} depends on the test kit outside [dev-dependencies]: only tests and benchmarks may"
        );
        assert!(
            !(to.starts_with("rules/") && !dev && from != "rulesets"),
            "{from} builds on the ruleset {to}: front ends open rulesets through crates/rulesets alone"
        );
    }
}

/// The kinds of contact with the world, and the marks in code that show each.
const WORLD: &[(&str, &[&str])] = &[
    ("files", &["std::fs", "File::", "OpenOptions"]),
    (
        "terminal",
        &["std::io", "print!", "println!", "eprint!", "eprintln!", "dbg!"],
    ),
    ("clock", &["Instant", "SystemTime"]),
    ("sleep", &["sleep("]),
    ("network", &["std::net", "tokio"]),
    ("environment", &["std::env"]),
];

/// The map's table of crates that may touch the world: crate → kinds.
fn world_table() -> BTreeMap<String, BTreeSet<String>> {
    let text = architecture();
    let at = text
        .find("| crate | may touch | why |")
        .expect("ARCHITECTURE.md has the table `| crate | may touch | why |`");
    let mut table = BTreeMap::new();
    for line in text[at..].lines().skip(2) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let krate = cells[1].trim_matches('`').to_string();
        let kinds: BTreeSet<String> = cells[2].split(',').map(|k| k.trim().to_string()).collect();
        for k in &kinds {
            assert!(
                WORLD.iter().any(|(w, _)| w == k),
                "ARCHITECTURE.md lets {krate} touch `{k}`, no kind of {WORLD:?}"
            );
        }
        table.insert(krate, kinds);
    }
    assert!(table.contains_key("cli"), "the table names the cli");
    table
}

#[test]
fn nothing_touches_the_world_but_the_crates_the_map_lets() {
    let table = world_table();
    let text = architecture();
    for (kind, marks) in WORLD {
        for mark in *marks {
            assert!(
                text.contains(&format!("`{mark}`")),
                "ARCHITECTURE.md does not list the {kind} mark `{mark}`"
            );
        }
    }
    let mut found = Vec::new();
    let mut files = 0;
    for krate in crate_dirs() {
        let allowed = table.get(&krate).cloned().unwrap_or_default();
        for f in rust_files(&root().join("crates").join(&krate).join("src")) {
            files += 1;
            let text = read(&f);
            for (i, line) in library_part(&text).lines().enumerate() {
                let code = code_of(line);
                for (kind, marks) in WORLD {
                    if !allowed.contains(*kind) && marks.iter().any(|m| code.contains(m)) {
                        let rel = f.strip_prefix(root()).unwrap_or(&f).display().to_string();
                        found.push(format!("{rel}:{}: {kind}: {}", i + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(files > 100, "found only {files} source files");
    assert!(
        found.is_empty(),
        "contact with the world where ARCHITECTURE.md's table does not allow it:\n{}",
        found.join("\n")
    );
}

/// Files allowed over [`LINE_LIMIT`], each with the reason.
const LONG_FILES: &[(&str, &str)] = &[(
    "crates/cli/benches/serve_load.rs",
    "the load generator of fray serve: its clients, pacing and report in one runnable bench; to be split into modules with a bench folder (not done yet)",
)];

/// The most lines a `.rs` file of the workspace may have.
const LINE_LIMIT: usize = 1200;

#[test]
fn no_file_is_over_the_line_limit() {
    let mut over = Vec::new();
    for f in rust_files(&root().join("crates")) {
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        let lines = read(&f).lines().count();
        let allowed = LONG_FILES.iter().any(|(p, _)| *p == rel);
        if lines > LINE_LIMIT && !allowed {
            over.push(format!("{rel}: {lines} lines"));
        }
        if allowed && lines <= LINE_LIMIT {
            over.push(format!(
                "{rel} is allow-listed but has only {lines} lines: take it off the list"
            ));
        }
    }
    for (p, why) in LONG_FILES {
        assert!(root().join(p).is_file(), "the allow-list names {p}, which is gone");
        assert!(why.len() > 20, "{p} is allow-listed without a reason");
    }
    assert!(
        over.is_empty(),
        "files over {LINE_LIMIT} lines: split them by topic (or allow-list one with the reason)\n{}",
        over.join("\n")
    );
}

/// The source files of module `module` of a crate's `src`: `module.rs` and everything below
/// `module/`.
fn module_files(src: &Path, module: &str) -> Vec<PathBuf> {
    let mut files = rust_files(&src.join(module));
    let single = src.join(format!("{module}.rs"));
    if single.is_file() {
        files.push(single);
    }
    files
}

/// Whether `code` names the crate's `resolve` module: `crate::resolve`, `super::resolve`, or
/// `resolve` inside a `crate::{...}` group.
fn names_resolve(code: &str) -> bool {
    let mut rest = code;
    while let Some(i) = rest.find("resolve") {
        let before = rest[..i].trim_end();
        let after = &rest[i + "resolve".len()..];
        let whole_word = !after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
            && !rest[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        if whole_word
            && (before.ends_with("crate::") || before.ends_with("super::") || {
                let group = before.rfind("crate::{");
                group.is_some_and(|g| !before[g..].contains('}'))
            })
        {
            return true;
        }
        rest = after;
    }
    false
}

#[test]
fn check_never_imports_resolve() {
    assert!(names_resolve("use crate::resolve::seats_asked;"));
    assert!(names_resolve("use crate::{codes, resolve};"));
    assert!(names_resolve("    super::resolve::x()"));
    assert!(!names_resolve("use crate::resolved;"));
    assert!(!names_resolve("fn resolve() {}"));
    let mut found = Vec::new();
    let mut rulesets = 0;
    for krate in crate_dirs().into_iter().filter(|c| c.starts_with("rules/")) {
        rulesets += 1;
        let src = root().join("crates").join(&krate).join("src");
        for module in ["check", "stage"] {
            let files = module_files(&src, module);
            assert!(
                !files.is_empty() || module == "stage",
                "crates/{krate} has no `check` module"
            );
            for f in files {
                let text = read(&f);
                for (i, line) in library_part(&text).lines().enumerate() {
                    if names_resolve(code_of(line)) {
                        let rel = f.strip_prefix(root()).unwrap().display().to_string();
                        found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(rulesets >= 5, "found only {rulesets} rulesets");
    assert!(
        found.is_empty(),
        "a ruleset's check or stage imports from its resolve (checking must not depend on \
         resolving; move what both need to the action's module, `flow` or `state`):\n{}",
        found.join("\n")
    );
}

/// The names ARCHITECTURE.md gives in backticks that look like test functions
/// (`snake_case_with_at_least_three_words`).
fn named_tests(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for part in text.split('`').skip(1).step_by(2) {
        let word = part.trim();
        if word.split('_').count() >= 4
            && word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            names.push(word.to_string());
        }
    }
    names
}

#[test]
fn the_map_names_only_tests_that_exist() {
    let text = architecture();
    let lines = text.lines().count();
    assert!(
        lines <= 300,
        "ARCHITECTURE.md has {lines} lines: it is a map, at most 300 (details go to a crate's README.md)"
    );
    for (i, line) in text.lines().enumerate() {
        assert!(
            line.chars().count() <= 110,
            "ARCHITECTURE.md:{}: a line of {} characters",
            i + 1,
            line.len()
        );
    }
    // Every test it names is a test somewhere.
    let mut all_tests = String::new();
    for f in rust_files(&root().join("crates")) {
        all_tests.push_str(&read(&f));
    }
    let names = named_tests(&text);
    assert!(names.len() >= 8, "ARCHITECTURE.md names only {names:?}");
    for name in names {
        assert!(
            all_tests.contains(&format!("fn {name}(")),
            "ARCHITECTURE.md names `{name}`, which is no function"
        );
    }
    // Every path it gives is there.
    for part in text.split('`').skip(1).step_by(2) {
        let path = part.trim().trim_end_matches('/');
        let looks_like_path = path.starts_with("crates/") || path.starts_with("docs/") || path.starts_with("scripts/");
        if looks_like_path && !path.contains(['*', '<', ' ']) {
            assert!(
                root().join(path).exists(),
                "ARCHITECTURE.md names `{part}`, which is not in the tree"
            );
        }
    }
    for part in text.split("](").skip(1) {
        let link = &part[..part.find(')').expect("a link ends")];
        if !link.starts_with("http") {
            assert!(
                root().join(link).exists(),
                "ARCHITECTURE.md links to {link}, which is not in the tree"
            );
        }
    }
    // Every crate is on the map and has the README the map links to.
    for krate in crate_dirs() {
        assert!(
            text.contains(&format!("  {krate}/")),
            "the crate {krate} is not in ARCHITECTURE.md's tree"
        );
        assert!(
            root().join("crates").join(&krate).join("README.md").is_file(),
            "crates/{krate} has no README.md"
        );
    }
}
