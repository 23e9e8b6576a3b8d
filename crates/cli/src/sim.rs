//! `fray sim`: Monte Carlo reports, "odds from here" and parameter sweeps.

use crate::{Fail, read_source, reader, registry};
use fray_engine::diag::SourceFile;
use fray_sim::{PolicyKind, Report, SimFail, SimOptions, plot};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Everything `fray sim` was asked.
pub struct Args {
    pub file: Option<PathBuf>,
    pub combats: u64,
    pub seed: u64,
    pub jobs: usize,
    pub json: bool,
    pub plot: Option<PathBuf>,
    pub from: Option<PathBuf>,
    pub vary: Option<String>,
    pub policies: Vec<String>,
    pub default_policy: String,
    pub round_cap: u32,
}

fn fail(e: SimFail, name: &str) -> Fail {
    match e {
        SimFail::Diagnostics(d) => Fail::input(d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n")),
        SimFail::Record(m) | SimFail::Policy(m) => Fail::input(format!("{name}: error: {m}")),
        SimFail::Sim(e) => Fail {
            code: 2,
            message: format!("error: {e}"),
        },
    }
}

fn progress_bar(n: u64) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::new(n);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} combats  {per_sec}  ETA {eta}") {
        pb.set_style(style);
    }
    Some(pb)
}

/// Runs `fray sim`.
pub fn sim(a: Args) -> Result<(), Fail> {
    let mut policies = Vec::new();
    for p in &a.policies {
        let (seat, kind) = p
            .split_once('=')
            .ok_or_else(|| Fail::input(format!("--policy {p}: expected SEAT=POLICY, e.g. gm=random")))?;
        let kind: PolicyKind = kind
            .parse()
            .map_err(|e: String| Fail::input(format!("--policy {p}: {e}")))?;
        policies.push((seat.to_string(), kind));
    }
    let default_policy: PolicyKind = a
        .default_policy
        .parse()
        .map_err(|e: String| Fail::input(format!("--default-policy: {e}")))?;
    if a.combats == 0 {
        return Err(Fail::input("-n must be at least 1"));
    }
    let options = SimOptions {
        combats: a.combats,
        seed: a.seed,
        jobs: a.jobs,
        round_cap: a.round_cap,
        policies,
        default_policy,
    };
    let (source, from_text, base) = match (&a.file, &a.from) {
        (_, Some(rec)) => {
            let r = read_source(rec)?;
            (r.clone(), Some(r.text), rec.clone())
        }
        (Some(f), None) => (read_source(f)?, None, f.clone()),
        (None, None) => return Err(Fail::input("give an encounter FILE or --from RECORD")),
    };
    let entry = match &from_text {
        Some(_) => registry::sim_for_record(&source)?,
        None => registry::sim_for_encounter(&source)?,
    };
    let Some(vary) = &a.vary else {
        let pb = progress_bar(a.combats);
        let tick = |n: u64| {
            if let Some(pb) = &pb {
                pb.set_position(n);
            }
        };
        let mut read = reader(&base);
        let report = entry
            .simulate(&source, &mut read, from_text.as_deref(), &options, &tick)
            .map_err(|e| fail(e, &source.name))?;
        if let Some(pb) = pb {
            pb.finish_and_clear();
        }
        if a.json {
            say!("{}", report.json());
        } else {
            say_nonl!("{}", report.text());
        }
        if let Some(dir) = &a.plot {
            let files = plot::write_all(&report, dir).map_err(|e| Fail::input(e.to_string()))?;
            if !a.json {
                for f in files {
                    say!("chart: {}", f.display());
                }
            }
        }
        return Ok(());
    };
    if from_text.is_some() {
        return Err(Fail::input("--vary works on an encounter file, not with --from"));
    }
    let (path, values) = vary
        .split_once('=')
        .ok_or_else(|| Fail::input(format!("--vary {vary}: expected PATH=V1,V2,...")))?;
    let values: Vec<&str> = values.split(',').map(str::trim).filter(|v| !v.is_empty()).collect();
    if values.is_empty() {
        return Err(Fail::input(format!("--vary {vary}: give at least one value")));
    }
    let mut reports: Vec<(String, Report)> = Vec::new();
    for v in &values {
        let text = set_path(&source.text, path, v).map_err(|e| Fail::input(format!("--vary {path}: {e}")))?;
        let varied = SourceFile {
            name: format!("{} (with {path} = {v})", source.name),
            text,
        };
        let pb = progress_bar(a.combats);
        let tick = |n: u64| {
            if let Some(pb) = &pb {
                pb.set_position(n);
            }
        };
        let mut read = reader(&base);
        let report = entry
            .simulate(&varied, &mut read, None, &options, &tick)
            .map_err(|e| fail(e, &varied.name))?;
        if let Some(pb) = pb {
            pb.finish_and_clear();
        }
        reports.push((v.to_string(), report));
    }
    if a.json {
        let list: Vec<serde_json::Value> = reports
            .iter()
            .map(|(v, r)| serde_json::json!({ "path": path, "value": v, "report": serde_json::to_value(r).unwrap_or_default() }))
            .collect();
        say!("{}", serde_json::to_string_pretty(&list).unwrap_or_default());
    } else {
        say_nonl!("{}", sweep_table(path, &reports));
    }
    if let Some(dir) = &a.plot {
        std::fs::create_dir_all(dir).map_err(|e| Fail::input(format!("{}: {e}", dir.display())))?;
        let file = dir.join("sweep.svg");
        let sides: Vec<plot::SweepLine> = reports[0]
            .1
            .sides
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    s.side.clone(),
                    reports
                        .iter()
                        .map(|(_, r)| (r.sides[i].wins.rate, r.sides[i].wins.low, r.sides[i].wins.high))
                        .collect(),
                )
            })
            .collect();
        let labels: Vec<String> = reports.iter().map(|(v, _)| v.clone()).collect();
        plot::sweep(&file, &format!("Win rate against {path}"), &labels, &sides)
            .map_err(|e| Fail::input(e.to_string()))?;
        if !a.json {
            say!("chart: {}", file.display());
        }
    }
    Ok(())
}

fn sweep_table(path: &str, reports: &[(String, Report)]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let Some((_, first)) = reports.first() else { return s };
    let _ = writeln!(
        s,
        "{} ({}): {} combats per value, seed {}",
        first.title, first.ruleset, first.combats, first.seed
    );
    let mut header = format!("{path:<24}");
    for side in &first.sides {
        let _ = write!(header, " {:>26}", format!("{} wins", side.side));
    }
    let _ = write!(header, " {:>10} {:>12}", "draws", "mean rounds");
    let _ = writeln!(s, "{header}");
    for (v, r) in reports {
        let mut line = format!("{v:<24}");
        for side in &r.sides {
            let w = &side.wins;
            let _ = write!(
                line,
                " {:>26}",
                format!("{:.1}% [{:.1}–{:.1}]", 100.0 * w.rate, 100.0 * w.low, 100.0 * w.high)
            );
        }
        let _ = write!(line, " {:>9.1}% {:>12.2}", 100.0 * r.draws.rate, r.rounds.mean);
        let _ = writeln!(s, "{line}");
    }
    s
}

/// Sets a value in an encounter's TOML by a dotted path. Arrays of tables are addressed by the
/// `id` of their element (`combatant.korrin.speed`) or by index (`side.0.policy`). The value is
/// read as TOML (numbers, booleans, quoted strings), or else taken as a plain string. Missing
/// tables on the way are created.
pub fn set_path(text: &str, path: &str, value: &str) -> Result<String, String> {
    let table: toml::Table =
        toml::from_str(text).map_err(|e| format!("the encounter is not valid TOML: {}", e.message().trim()))?;
    let mut doc = toml::Value::Table(table);
    let value = toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_string()));
    let parts: Vec<&str> = path.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err("a path is keys separated by dots, such as combatant.korrin.speed".into());
    }
    set_in(&mut doc, &parts, value, path)?;
    toml::to_string(&doc).map_err(|e| e.to_string())
}

fn set_in(node: &mut toml::Value, parts: &[&str], value: toml::Value, path: &str) -> Result<(), String> {
    let Some((head, rest)) = parts.split_first() else {
        return Ok(());
    };
    let child = match node {
        toml::Value::Table(t) => {
            if rest.is_empty() {
                t.insert(head.to_string(), value);
                return Ok(());
            }
            t.entry(head.to_string())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()))
        }
        toml::Value::Array(items) => {
            let idx = match head.parse::<usize>() {
                Ok(n) if n < items.len() => n,
                _ => items
                    .iter()
                    .position(|it| it.get("id").and_then(|v| v.as_str()) == Some(head))
                    .ok_or_else(|| format!("nothing with id '{head}' on the way to {path}"))?,
            };
            if rest.is_empty() {
                items[idx] = value;
                return Ok(());
            }
            &mut items[idx]
        }
        _ => return Err(format!("'{head}' in {path} is inside a value, not a table")),
    };
    set_in(child, rest, value, path)
}

#[cfg(test)]
mod tests {
    use super::set_path;

    #[test]
    fn set_path_reaches_tables_arrays_by_id_and_new_keys() {
        let text = "ruleset = \"thrum\"\n[[combatant]]\nid = \"a\"\nspeed = 4\n[[combatant]]\nid = \"b\"\n";
        let out = set_path(text, "combatant.b.speed", "6").unwrap();
        let v: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(v["combatant"][1]["speed"].as_integer(), Some(6));
        assert_eq!(v["combatant"][0]["speed"].as_integer(), Some(4));
        let out = set_path(text, "options.tie-rule", "reroll").unwrap();
        let v: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(v["options"]["tie-rule"].as_str(), Some("reroll"));
        assert!(set_path(text, "combatant.zz.speed", "1").is_err());
        assert!(set_path(text, "ruleset.x", "1").is_err());
    }
}
