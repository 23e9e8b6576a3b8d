//! SVG charts of a report (plotters, SVG backend only: no fonts or system libraries needed).
//!
//! Charts are rendered to strings; writing them to files is the command line's job (only the
//! `cli` crate touches files).

use crate::report::Report;
use plotters::prelude::*;

/// Errors drawing a chart.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw {file}: {message}")]
pub struct PlotError {
    /// The chart's file name.
    pub file: String,
    /// What failed.
    pub message: String,
}

fn err(file: &str, e: impl std::fmt::Display) -> PlotError {
    PlotError {
        file: file.to_string(),
        message: e.to_string(),
    }
}

/// The three charts of a report: `rounds.svg`, `wins.svg` and `combatants.svg`, as (file name,
/// SVG text).
pub fn render_all(report: &Report) -> Result<Vec<(&'static str, String)>, PlotError> {
    Ok(vec![
        ("rounds.svg", rounds(report, "rounds.svg")?),
        ("wins.svg", wins(report, "wins.svg")?),
        ("combatants.svg", combatants(report, "combatants.svg")?),
    ])
}

/// A histogram of rounds to finish.
pub fn rounds(report: &Report, file: &str) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 480)).into_drawing_area();
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
        root.present().map_err(|e| err(file, e))?;
    }
    Ok(svg)
}

/// Win rates per side (and draws, cut-offs) with their 95% intervals.
pub fn wins(report: &Report, file: &str) -> Result<String, PlotError> {
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

/// The end states the per-combatant chart can show, with their bar colours.
const OUTCOMES: [(&str, RGBColor); 3] = [
    ("incapacitated", RGBColor(230, 145, 56)),
    ("removed", RGBColor(142, 68, 173)),
    ("killed", RGBColor(55, 55, 55)),
];

/// Side colours: each side's band, name and legend entry.
const SIDE_COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
];

fn outcome_rate<'a>(c: &'a crate::report::CombatantReport, outcome: &str) -> &'a crate::stats::Rate {
    match outcome {
        "incapacitated" => &c.incapacitated,
        "removed" => &c.removed,
        _ => &c.killed,
    }
}

/// The outcomes worth a bar and a legend entry: those some combatant reached at least once
/// (an outcome the ruleset never produces, such as death in a game without it, is left out).
pub fn shown_outcomes(report: &Report) -> Vec<&'static str> {
    OUTCOMES
        .iter()
        .map(|(o, _)| *o)
        .filter(|o| report.combatants.iter().any(|c| outcome_rate(c, o).count > 0))
        .collect()
}

/// Rough width in pixels of `text` at a plotters font size (the SVG font is size / 1.24).
fn text_width(text: &str, size: f64) -> i32 {
    (text.chars().count() as f64 * size / 1.24 * 0.6).ceil() as i32
}

/// How often each combatant ended Incapacitated, removed or killed: vertical bars, one group per
/// combatant with its name under it, combatants grouped by side on tinted bands named under
/// them, a legend of the outcomes shown and of the sides.
pub fn combatants(report: &Report, file: &str) -> Result<String, PlotError> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let shown = shown_outcomes(report);
    // Combatants in side order (the report's sides first, then any others), each side a run.
    let mut sides: Vec<String> = report.sides.iter().map(|s| s.side.clone()).collect();
    for c in &report.combatants {
        if !sides.contains(&c.side) {
            sides.push(c.side.clone());
        }
    }
    let runs: Vec<(usize, Vec<&crate::report::CombatantReport>)> = sides
        .iter()
        .enumerate()
        .map(|(k, side)| {
            (
                k,
                report.combatants.iter().filter(|c| &c.side == side).collect::<Vec<_>>(),
            )
        })
        .filter(|(_, cs)| !cs.is_empty())
        .collect();

    const BAR: i32 = 24;
    const NAME_SIZE: f64 = 16.0;
    let bars = shown.len().max(1) as i32;
    let title = if shown.is_empty() {
        format!("Per combatant ({} combats)", report.combats)
    } else {
        format!(
            "Per combatant: how often each ended {} ({} combats)",
            shown.join(" / "),
            report.combats
        )
    };
    let legend_w: i32 = shown.iter().map(|o| 42 + text_width(o, 15.0)).sum::<i32>()
        + 28
        + text_width("sides:", 15.0)
        + runs.iter().map(|(k, _)| 42 + text_width(&sides[*k], 15.0)).sum::<i32>();
    let (left, right, side_gap) = (70, 30, 26);
    let natural = |id: &str| (bars * BAR + 24).max(text_width(id, NAME_SIZE) + 16);
    let natural_w: i32 = runs
        .iter()
        .map(|(_, cs)| cs.iter().map(|c| natural(&c.id)).sum::<i32>() + 16)
        .sum::<i32>()
        + side_gap * (runs.len() as i32 - 1).max(0);
    let width = (left + natural_w + right)
        .max(720)
        .max(text_width(&title, 22.0) + 40)
        .max(left + legend_w + right);
    // Space beyond what the groups need is shared out among them (up to a point), so a few
    // combatants do not sit in one corner.
    let count = report.combatants.len().max(1) as i32;
    let spare = ((width - left - right - natural_w) / count).clamp(0, 120);
    let group_width = |id: &str| natural(id) + spare;
    let plot_w = natural_w + spare * count;
    let height = 480;
    let (top, bottom) = (96, height - 86);
    let y_of = |rate: f64| bottom - ((bottom - top) as f64 * rate.clamp(0.0, 1.0)).round() as i32;

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width as u32, height as u32)).into_drawing_area();
        let e = |x| err(file, x);
        root.fill(&WHITE).map_err(e)?;
        let font = |size: f64, colour: RGBColor| ("sans-serif", size).into_font().color(&colour);
        let at = |h, v| Pos::new(h, v);
        root.draw(&Text::new(
            title,
            (width / 2, 12),
            font(22.0, BLACK).pos(at(HPos::Center, VPos::Top)),
        ))
        .map_err(e)?;

        // Legends on one row under the title: outcomes, then sides.
        let mut x = left;
        let legend_y = 56;
        let legend = |label: String, colour: RGBColor, x: &mut i32| -> Result<(), PlotError> {
            root.draw(&Rectangle::new(
                [(*x, legend_y - 7), (*x + 14, legend_y + 7)],
                colour.filled(),
            ))
            .map_err(e)?;
            root.draw(&Text::new(
                label.clone(),
                (*x + 20, legend_y),
                font(15.0, BLACK).pos(at(HPos::Left, VPos::Center)),
            ))
            .map_err(e)?;
            *x += 20 + text_width(&label, 15.0) + 22;
            Ok(())
        };
        for o in &shown {
            let colour = OUTCOMES.iter().find(|(n, _)| n == o).map_or(BLACK, |(_, c)| *c);
            legend(o.to_string(), colour, &mut x)?;
        }
        x += 18;
        root.draw(&Text::new(
            "sides:",
            (x, legend_y),
            font(15.0, BLACK).pos(at(HPos::Left, VPos::Center)),
        ))
        .map_err(e)?;
        x += text_width("sides:", 15.0) + 10;
        for (k, _) in &runs {
            legend(sides[*k].clone(), SIDE_COLOURS[k % SIDE_COLOURS.len()], &mut x)?;
        }

        // Axis: gridlines and percentages.
        for p in [0, 25, 50, 75, 100] {
            let y = y_of(p as f64 / 100.0);
            let line = if p == 0 {
                BLACK.stroke_width(1)
            } else {
                RGBColor(215, 215, 215).stroke_width(1)
            };
            root.draw(&PathElement::new(vec![(left, y), (left + plot_w, y)], line))
                .map_err(e)?;
            root.draw(&Text::new(
                format!("{p}%"),
                (left - 8, y),
                font(14.0, BLACK).pos(at(HPos::Right, VPos::Center)),
            ))
            .map_err(e)?;
        }
        root.draw(&Text::new(
            "% of combats",
            (8, top - 20),
            font(13.0, BLACK).pos(at(HPos::Left, VPos::Bottom)),
        ))
        .map_err(e)?;
        if shown.is_empty() {
            root.draw(&Text::new(
                "no combatant ended incapacitated, removed or killed",
                (left + plot_w / 2, (top + bottom) / 2),
                font(16.0, BLACK).pos(at(HPos::Center, VPos::Center)),
            ))
            .map_err(e)?;
        }

        // Per side: a tinted band, the groups, the side's name under the names.
        let mut x = left;
        for (k, cs) in &runs {
            let colour = SIDE_COLOURS[k % SIDE_COLOURS.len()];
            let band_w: i32 = cs.iter().map(|c| group_width(&c.id)).sum::<i32>() + 16;
            root.draw(&Rectangle::new(
                [(x, top - 8), (x + band_w, bottom + 58)],
                colour.mix(0.08).filled(),
            ))
            .map_err(e)?;
            root.draw(&Text::new(
                sides[*k].clone(),
                (x + band_w / 2, bottom + 62),
                ("sans-serif", 17.0, FontStyle::Bold)
                    .into_font()
                    .color(&colour)
                    .pos(at(HPos::Center, VPos::Top)),
            ))
            .map_err(e)?;
            let mut gx = x + 8;
            for c in cs {
                let gw = group_width(&c.id);
                let first = gx + (gw - bars * BAR) / 2;
                for (i, o) in shown.iter().enumerate() {
                    let rate = outcome_rate(c, o).rate;
                    let colour = OUTCOMES.iter().find(|(n, _)| n == o).map_or(BLACK, |(_, c)| *c);
                    let bx = first + i as i32 * BAR;
                    if rate > 0.0 {
                        root.draw(&Rectangle::new(
                            [(bx + 2, y_of(rate)), (bx + BAR - 2, bottom)],
                            colour.filled(),
                        ))
                        .map_err(e)?;
                    }
                    root.draw(&Text::new(
                        format!("{:.0}", 100.0 * rate),
                        (bx + BAR / 2, y_of(rate) - 3),
                        font(12.0, BLACK).pos(at(HPos::Center, VPos::Bottom)),
                    ))
                    .map_err(e)?;
                }
                root.draw(&Text::new(
                    c.id.clone(),
                    (gx + gw / 2, bottom + 10),
                    font(NAME_SIZE, colour).pos(at(HPos::Center, VPos::Top)),
                ))
                .map_err(e)?;
                gx += gw;
            }
            x += band_w + side_gap;
        }
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// Horizontal bars with interval whiskers.
pub fn bars_with_intervals(file: &str, title: &str, rows: &[(String, f64, f64, f64)]) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 100 + 50 * rows.len() as u32)).into_drawing_area();
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
        root.present().map_err(|e| err(file, e))?;
    }
    Ok(svg)
}

/// One line of a sweep chart: a name and, per value, (rate, low, high).
pub type SweepLine = (String, Vec<(f64, f64, f64)>);

/// A line chart of win rate against a varied value (one line per side), with interval whiskers.
pub fn sweep(file: &str, title: &str, values: &[String], sides: &[SweepLine]) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 480)).into_drawing_area();
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
        root.present().map_err(|e| err(file, e))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{CombatantReport, SideReport, Spread};
    use crate::stats::{Hist, wilson};
    use std::collections::BTreeMap;

    fn report(combatants: &[(&str, &str, u64, u64, u64)]) -> Report {
        let n = 100;
        Report {
            title: "t".into(),
            ruleset: "r".into(),
            combats: n,
            seed: 1,
            round_cap: 100,
            policies: BTreeMap::new(),
            sides: ["heroes", "foes"]
                .iter()
                .map(|s| SideReport {
                    side: s.to_string(),
                    wins: wilson(50, n),
                })
                .collect(),
            draws: wilson(0, n),
            cutoffs: wilson(0, n),
            rounds: Spread::of(&Hist::default()),
            combatants: combatants
                .iter()
                .map(|(id, side, inc, rem, kill)| CombatantReport {
                    id: id.to_string(),
                    side: side.to_string(),
                    incapacitated: wilson(*inc, n),
                    removed: wilson(*rem, n),
                    killed: wilson(*kill, n),
                    resources: BTreeMap::new(),
                })
                .collect(),
            shard: None,
        }
    }

    fn svg(r: &Report, name: &str) -> String {
        combatants(r, name).unwrap()
    }

    /// The text of every `<text>` element, in order.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| t.split_once('>').and_then(|(_, rest)| rest.split_once("</text>")))
            .map(|(inner, _)| inner.trim().to_string())
            .collect()
    }

    #[test]
    fn each_group_is_named_under_its_bars_with_its_sides_colour_and_a_side_legend() {
        // Listed out of side order: the chart groups them by side.
        let r = report(&[
            ("korrin", "heroes", 10, 0, 3),
            ("biffer", "foes", 60, 0, 20),
            ("sefa", "heroes", 5, 0, 0),
        ]);
        let s = svg(&r, "named.svg");
        let t = texts(&s);
        let pos = |x: &str| {
            t.iter()
                .position(|y| y == x)
                .unwrap_or_else(|| panic!("no '{x}' in {t:?}"))
        };
        // Legends first (outcomes, then sides), then per side its name and its members' names.
        assert!(pos("incapacitated") < pos("killed") && pos("killed") < pos("sides:"));
        let heroes: Vec<usize> = t
            .iter()
            .enumerate()
            .filter(|(_, x)| *x == "heroes")
            .map(|(i, _)| i)
            .collect();
        assert_eq!(heroes.len(), 2, "legend entry and band label: {t:?}");
        assert!(pos("korrin") < pos("sefa") && pos("sefa") < pos("biffer"), "{t:?}");
        // Each name is centred under its own bars: the name's x is between its bars' edges.
        let name_x = |name: &str| -> i32 {
            let tag = s
                .split("<text")
                .find(|t| t.contains(&format!(">{name}<")) || t.contains(&format!(">\n{name}")))
                .unwrap();
            let x = tag.split("x=\"").nth(1).unwrap().split('"').next().unwrap();
            x.parse().unwrap()
        };
        let bar_xs: Vec<i32> = s
            .split("<rect")
            .skip(1)
            .filter(|r| r.contains("fill=\"#E69138\"") || r.contains("fill=\"#373737\""))
            .map(|r| {
                let attr = |a: &str| -> i32 { r.split(a).nth(1).unwrap().split('"').next().unwrap().parse().unwrap() };
                (attr(" x=\""), attr(" y=\""))
            })
            .filter(|(_, y)| *y > 80) // not the legend's swatches
            .map(|(x, _)| x)
            .collect();
        // Two outcomes (incapacitated, killed) per combatant: korrin, sefa, biffer in order.
        assert_eq!(bar_xs.len(), 5, "sefa's zero killed draws no bar");
        let k = name_x("korrin");
        assert!(bar_xs[0] < k && k < bar_xs[1] + 24, "korrin at {k}, bars {bar_xs:?}");
        let b = name_x("biffer");
        assert!(bar_xs[3] < b && b < bar_xs[4] + 24, "biffer at {b}, bars {bar_xs:?}");
        // The side names are drawn in their colours.
        assert!(s.contains("fill=\"#1F77B4\"") && s.contains("fill=\"#D62728\""));
    }

    #[test]
    fn outcomes_nobody_reached_get_no_bar_and_no_legend_entry() {
        let r = report(&[("a", "heroes", 10, 0, 0), ("b", "foes", 30, 0, 0)]);
        let s = svg(&r, "absent.svg");
        let t = texts(&s);
        assert!(t.contains(&"incapacitated".to_string()), "{t:?}");
        assert!(!s.contains("removed") && !s.contains("killed"), "{t:?}");
        assert_eq!(shown_outcomes(&r), ["incapacitated"]);
        let r = report(&[("a", "heroes", 0, 4, 0)]);
        assert_eq!(shown_outcomes(&r), ["removed"]);
        let s = svg(&r, "removed.svg");
        assert!(!s.contains("incapacitated") && !s.contains("killed"));
        // Nothing at all: no legend entries, and the chart says so.
        let r = report(&[("a", "heroes", 0, 0, 0)]);
        let s = svg(&r, "none.svg");
        assert!(s.contains("no combatant ended incapacitated, removed or killed"));
        assert!(
            !texts(&s)
                .iter()
                .any(|x| x == "incapacitated" || x == "removed" || x == "killed")
        );
    }
}
