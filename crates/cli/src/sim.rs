//! `fray sim`: Monte Carlo reports, "odds from here", parameter sweeps, and shards of a batch
//! played anywhere and merged (`--shard K/N`, `fray sim merge`).

use crate::{Fail, read_source, reader, registry, vary};
use fray_engine::diag::SourceFile;
use fray_sim::{PolicyKind, Report, Shard, SimFail, SimOptions, plot};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// The most worker threads `--jobs` may ask for.
pub const MAX_JOBS: usize = 256;

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
    pub shard: Option<Shard>,
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
    if a.jobs > MAX_JOBS {
        return Err(Fail::input(format!(
            "--jobs {}: at most {MAX_JOBS} worker threads (0, the default, means one per core)",
            a.jobs
        )));
    }
    if let Some(shard) = a.shard {
        if a.vary.is_some() {
            return Err(Fail::input(
                "--shard does not combine with --vary: run each value's batch as its own sharded run (see docs/sim.md)",
            ));
        }
        if !a.json {
            return Err(Fail::input(format!(
                "--shard {shard}: a shard's report is for `fray sim merge`: add --json"
            )));
        }
        if a.plot.is_some() {
            return Err(Fail::input(format!(
                "--shard {shard}: plot the merged report instead (`fray sim merge SHARDS... --plot DIR`)"
            )));
        }
        if shard.of > a.combats {
            return Err(Fail::input(format!(
                "--shard {shard}: {} shards of {} combats (-n): at most as many shards as combats",
                shard.of, a.combats
            )));
        }
    }
    let options = SimOptions {
        combats: a.combats,
        seed: a.seed,
        jobs: a.jobs,
        round_cap: a.round_cap,
        policies,
        default_policy,
        shard: a.shard,
    };
    let (source, from_text, base) = match (&a.file, &a.from) {
        (_, Some(rec)) => {
            let r = match crate::saves::split_db_game(rec) {
                Some((db, game)) => SourceFile {
                    name: rec.display().to_string(),
                    text: crate::saves::record_of(&db, &game)?,
                },
                None => read_source(rec)?,
            };
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
        return show(&report, a.json, a.plot.as_deref());
    };
    if from_text.is_some() {
        return Err(Fail::input("--vary works on an encounter file, not with --from"));
    }
    let (path, values) = vary.split_once('=').ok_or_else(|| {
        Fail::input(format!(
            "--vary {vary}: expected PATH=V1,V2,... (or PATH=V1;V2;... when values contain commas)"
        ))
    })?;
    let values = vary::split_values(values);
    if values.is_empty() {
        return Err(Fail::input(format!("--vary {vary}: give at least one value")));
    }
    let mut reports: Vec<(String, Report)> = Vec::new();
    for v in &values {
        let note = format!("with --vary {path}={v}");
        let varied = vary::set_path(&source.text, path, v)
            .map_err(|e| Fail::input(format!("{}: error: --vary {path}={v}: {e}", source.name)))?;
        let varied_source = SourceFile {
            name: source.name.clone(),
            text: varied.text.clone(),
        };
        let pb = progress_bar(a.combats);
        let tick = |n: u64| {
            if let Some(pb) = &pb {
                pb.set_position(n);
            }
        };
        let mut read = reader(&base);
        let result = entry.simulate(&varied_source, &mut read, None, &options, &tick);
        if let Some(pb) = pb {
            pb.finish_and_clear();
        }
        let report = result.map_err(|e| match e {
            SimFail::Diagnostics(d) => Fail::input(
                d.into_iter()
                    .map(|x| varied.map(x, &source.name, &source.text, &note).to_string())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            other => {
                let mut f = fail(other, &source.name);
                f.message.push_str(&format!(" [{note}]"));
                f
            }
        })?;
        reports.push((v.clone(), report));
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
        let svg = plot::sweep("sweep.svg", &format!("Win rate against {path}"), &labels, &sides)
            .map_err(|e| Fail::input(e.to_string()))?;
        let file = write_chart(dir, "sweep.svg", &svg)?;
        if !a.json {
            say!("chart: {}", file.display());
        }
    }
    Ok(())
}

/// Prints a report (text, or JSON) and writes its charts into `plot`, if given.
fn show(report: &Report, json: bool, plot: Option<&Path>) -> Result<(), Fail> {
    if json {
        say!("{}", report.json());
    } else {
        say_nonl!("{}", report.text());
    }
    if let Some(dir) = plot {
        let charts = plot::render_all(report).map_err(|e| Fail::input(e.to_string()))?;
        for (name, svg) in charts {
            let file = write_chart(dir, name, &svg)?;
            if !json {
                say!("chart: {}", file.display());
            }
        }
    }
    Ok(())
}

/// Runs `fray sim merge FILES...`: reads the shard reports, merges them (every problem found
/// is reported, exit 2) and prints the whole batch's report as `fray sim` would.
pub fn merge(files: &[PathBuf], json: bool, plot: Option<&Path>) -> Result<(), Fail> {
    let mut shards = Vec::new();
    for f in files {
        let src = read_source(f)?;
        let report: Report = serde_json::from_str(&src.text).map_err(|e| {
            Fail::input(format!(
                "{}: error: not a shard report of `fray sim --shard K/N --json`: {e}",
                src.name
            ))
        })?;
        shards.push((src.name, report));
    }
    let report = fray_sim::merge(&shards).map_err(|e| {
        let lines: Vec<String> = e.0.iter().map(|l| format!("  {l}")).collect();
        Fail::input(format!("error: cannot merge the shards:\n{}", lines.join("\n")))
    })?;
    show(&report, json, plot)
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

/// Writes one chart into the `--plot` folder (made if missing); returns its path.
fn write_chart(dir: &Path, name: &str, svg: &str) -> Result<PathBuf, Fail> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Fail::input(format!("{}: error: cannot make the folder: {e}", dir.display())))?;
    let file = dir.join(name);
    crate::files::write_atomic(&file, svg.as_bytes())
        .map_err(|e| Fail::input(format!("{}: error: cannot write the chart: {e}", file.display())))?;
    Ok(file)
}
