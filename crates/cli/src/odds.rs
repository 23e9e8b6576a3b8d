//! `fray odds`: exact distributions of dice expressions, and each ruleset's exact attack odds.

use crate::{Fail, registry};
use fray_dice::{DiceExpr, Dist};
use std::fmt::Write;

/// Runs `fray odds WHAT ARGS...`.
pub fn odds(what: &str, args: &[String]) -> Result<(), Fail> {
    let json = args.iter().any(|a| a == "--json");
    let mut args: Vec<String> = args.iter().filter(|a| *a != "--json").cloned().collect();
    // `--time N`: print the seconds of the process's first computation of the distribution,
    // then the mean of N more (for the comparison script in scripts/odds-vs-icepool.py).
    let mut time_runs = None;
    if let Some(i) = args.iter().position(|a| a == "--time") {
        let n = args.get(i + 1).and_then(|v| v.parse::<u32>().ok()).filter(|n| *n > 0);
        time_runs = Some(n.ok_or_else(|| Fail::input("--time needs a positive number of runs"))?);
        args.drain(i..(i + 2).min(args.len()));
    }
    if what == "roll" {
        let text = args.join(" ");
        if text.trim().is_empty() {
            return Err(Fail::input(
                "fray odds roll EXPR: give a dice expression such as 3d6kh2+1",
            ));
        }
        let expr: DiceExpr = text.parse().map_err(|e| Fail::input(format!("'{text}': {e}")))?;
        if let Some(n) = time_runs {
            // The process's first computation (cold), then the mean of N more (warm).
            let start = std::time::Instant::now();
            std::hint::black_box(Dist::of_expr(std::hint::black_box(&expr)))
                .map_err(|e| Fail::input(format!("'{text}': {e}")))?;
            let first = start.elapsed().as_secs_f64();
            let start = std::time::Instant::now();
            for _ in 0..n {
                std::hint::black_box(Dist::of_expr(std::hint::black_box(&expr)).ok());
            }
            say!("first computation seconds: {first:.9}");
            say!(
                "mean seconds per distribution: {:.9}",
                start.elapsed().as_secs_f64() / n as f64
            );
            return Ok(());
        }
        let dist = Dist::of_expr(&expr).map_err(|e| Fail::input(format!("'{text}': {e}")))?;
        if json {
            say!(
                "{}",
                serde_json::to_string_pretty(&roll_json(&expr, &dist)).unwrap_or_default()
            );
        } else {
            say_nonl!("{}", roll_text(&expr, &dist));
        }
        return Ok(());
    }
    let entry = registry::by_id(what).ok_or_else(|| {
        let mut known = vec!["roll"];
        known.extend(registry::ids());
        Fail::input(format!(
            "fray odds: '{what}' is neither 'roll' nor a ruleset (known: {})",
            known.join(", ")
        ))
    })?;
    let (text, value) = entry
        .odds(&args)
        .map_err(|e| Fail::input(format!("fray odds {what}: {e}")))?;
    if json {
        say!("{}", serde_json::to_string_pretty(&value).unwrap_or_default());
    } else {
        say_nonl!("{text}");
    }
    Ok(())
}

fn roll_json(expr: &DiceExpr, d: &Dist) -> serde_json::Value {
    let outcomes: Vec<serde_json::Value> = d
        .iter()
        .map(|(v, c)| {
            serde_json::json!({
                "value": v,
                "count": c.to_string(),
                "p_eq": c as f64 / d.total() as f64,
                "p_ge": d.p_ge(v),
            })
        })
        .collect();
    serde_json::json!({
        "expr": expr.to_string(),
        "total": d.total().to_string(),
        "min": d.min(),
        "max": d.max(),
        "mean": d.mean(),
        "std_dev": d.std_dev(),
        "outcomes": outcomes,
    })
}

fn roll_text(expr: &DiceExpr, d: &Dist) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{expr}: {} equally likely outcomes, mean {:.6}, standard deviation {:.6}",
        d.total(),
        d.mean(),
        d.std_dev()
    );
    let _ = writeln!(s, "{:>6} {:>10} {:>10}   exact P(=x)", "x", "P(=x)", "P(>=x)");
    for (v, c) in d.iter() {
        let _ = writeln!(
            s,
            "{v:>6} {:>9.4}% {:>9.4}%   {c}/{}",
            100.0 * c as f64 / d.total() as f64,
            100.0 * d.p_ge(v),
            d.total()
        );
    }
    s
}
