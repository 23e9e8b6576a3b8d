//! SVG charts of a report (plotters, SVG backend only: no fonts or system libraries needed).

use crate::report::Report;
use plotters::prelude::*;
use std::path::Path;

/// Errors writing a chart.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw {file}: {message}")]
pub struct PlotError {
    /// The file.
    pub file: String,
    /// What failed.
    pub message: String,
}

fn err(file: &Path, e: impl std::fmt::Display) -> PlotError {
    PlotError {
        file: file.display().to_string(),
        message: e.to_string(),
    }
}

/// Writes `rounds.svg`, `wins.svg` and `combatants.svg` into `dir`.
pub fn write_all(report: &Report, dir: &Path) -> Result<Vec<std::path::PathBuf>, PlotError> {
    std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    let files = [dir.join("rounds.svg"), dir.join("wins.svg"), dir.join("combatants.svg")];
    rounds(report, &files[0])?;
    wins(report, &files[1])?;
    combatants(report, &files[2])?;
    Ok(files.to_vec())
}

/// A histogram of rounds to finish.
pub fn rounds(report: &Report, file: &Path) -> Result<(), PlotError> {
    let root = SVGBackend::new(file, (800, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(file, e))?;
    let h = &report.rounds.histogram;
    let max_x = h.keys().next_back().copied().unwrap_or(1).max(1) as u32;
    let max_y = h.values().copied().max().unwrap_or(1).max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("Rounds to finish ({} combats)", report.combats),
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d((0u32..max_x + 1).into_segmented(), 0u64..max_y + max_y / 10 + 1)
        .map_err(|e| err(file, e))?;
    chart
        .configure_mesh()
        .x_desc("rounds")
        .y_desc("combats")
        .draw()
        .map_err(|e| err(file, e))?;
    chart
        .draw_series(
            Histogram::vertical(&chart)
                .style(BLUE.mix(0.6).filled())
                .margin(2)
                .data(h.iter().map(|(v, c)| (*v as u32, *c))),
        )
        .map_err(|e| err(file, e))?;
    root.present().map_err(|e| err(file, e))
}

/// Win rates per side (and draws, cut-offs) with their 95% intervals.
pub fn wins(report: &Report, file: &Path) -> Result<(), PlotError> {
    let mut rows: Vec<(String, f64, f64, f64)> = report
        .sides
        .iter()
        .map(|s| (s.side.clone(), s.wins.rate, s.wins.low, s.wins.high))
        .collect();
    rows.push(("draw".into(), report.draws.rate, report.draws.low, report.draws.high));
    rows.push((
        "cut off".into(),
        report.cutoffs.rate,
        report.cutoffs.low,
        report.cutoffs.high,
    ));
    bars_with_intervals(
        file,
        &format!("Outcomes ({} combats, 95% Wilson intervals)", report.combats),
        &rows,
    )
}

/// How often each combatant ended Incapacitated, removed or killed: three thin bars per row.
pub fn combatants(report: &Report, file: &Path) -> Result<(), PlotError> {
    let root = SVGBackend::new(file, (900, 120 + 48 * report.combatants.len() as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(file, e))?;
    let n = report.combatants.len().max(1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption("Per combatant: incapacitated / removed / killed", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(140)
        .build_cartesian_2d(0f64..1f64, 0f64..n)
        .map_err(|e| err(file, e))?;
    let names: Vec<String> = report.combatants.iter().map(|c| c.id.clone()).collect();
    chart
        .configure_mesh()
        .y_labels(names.len() + 1)
        .y_label_formatter(&|y| {
            names
                .get(y.floor() as usize)
                .filter(|_| y.fract() == 0.0)
                .cloned()
                .unwrap_or_default()
        })
        .x_desc("share of combats")
        .draw()
        .map_err(|e| err(file, e))?;
    let series: [(&str, RGBColor, f64); 3] = [
        ("incapacitated", BLUE, 0.65),
        ("removed", RED, 0.4),
        ("killed", BLACK, 0.15),
    ];
    for (label, color, off) in series {
        let bars = report.combatants.iter().enumerate().map(|(i, c)| {
            let v = match label {
                "incapacitated" => c.incapacitated.rate,
                "removed" => c.removed.rate,
                _ => c.killed.rate,
            };
            let y = i as f64 + off;
            Rectangle::new([(0.0, y), (v, y + 0.22)], color.mix(0.7).filled())
        });
        chart
            .draw_series(bars)
            .map_err(|e| err(file, e))?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(file, e))?;
    root.present().map_err(|e| err(file, e))
}

/// Horizontal bars with interval whiskers.
pub fn bars_with_intervals(file: &Path, title: &str, rows: &[(String, f64, f64, f64)]) -> Result<(), PlotError> {
    let root = SVGBackend::new(file, (800, 100 + 50 * rows.len() as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(file, e))?;
    let n = rows.len().max(1) as i32;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(120)
        .build_cartesian_2d(0f64..1f64, 0..n)
        .map_err(|e| err(file, e))?;
    let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    chart
        .configure_mesh()
        .y_labels(n as usize)
        .y_label_formatter(&|y| names.get(*y as usize).cloned().unwrap_or_default())
        .x_desc("share of combats")
        .draw()
        .map_err(|e| err(file, e))?;
    chart
        .draw_series(
            rows.iter()
                .enumerate()
                .map(|(i, r)| Rectangle::new([(0.0, i as i32), (r.1, i as i32)], BLUE.mix(0.5).filled())),
        )
        .map_err(|e| err(file, e))?;
    chart
        .draw_series(
            rows.iter()
                .enumerate()
                .map(|(i, r)| PathElement::new(vec![(r.2, i as i32), (r.3, i as i32)], BLACK.stroke_width(3))),
        )
        .map_err(|e| err(file, e))?;
    root.present().map_err(|e| err(file, e))
}

/// One line of a sweep chart: a name and, per value, (rate, low, high).
pub type SweepLine = (String, Vec<(f64, f64, f64)>);

/// A line chart of win rate against a varied value (one line per side), with interval whiskers.
pub fn sweep(file: &Path, title: &str, values: &[String], sides: &[SweepLine]) -> Result<(), PlotError> {
    let root = SVGBackend::new(file, (800, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(file, e))?;
    let n = values.len().max(1) as i32;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..1f64)
        .map_err(|e| err(file, e))?;
    chart
        .configure_mesh()
        .x_labels(values.len())
        .x_label_formatter(&|x| values.get(x.round() as usize).cloned().unwrap_or_default())
        .y_desc("win rate")
        .draw()
        .map_err(|e| err(file, e))?;
    let colors = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
    for (k, (name, pts)) in sides.iter().enumerate() {
        let color = colors[k % colors.len()];
        chart
            .draw_series(LineSeries::new(
                pts.iter().enumerate().map(|(i, p)| (i as f64, p.0)),
                color.stroke_width(2),
            ))
            .map_err(|e| err(file, e))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
        chart
            .draw_series(
                pts.iter()
                    .enumerate()
                    .map(|(i, p)| PathElement::new(vec![(i as f64, p.1), (i as f64, p.2)], color.stroke_width(1))),
            )
            .map_err(|e| err(file, e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(file, e))?;
    root.present().map_err(|e| err(file, e))
}
