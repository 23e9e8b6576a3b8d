//! Reports of a batch: a readable table by default, JSON for machines.

use crate::shard::ShardInfo;
use crate::stats::{CombatantTally, Hist, Rate, Tally, wilson};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Summary numbers of a histogram.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation.
    pub std_dev: f64,
    /// Median (nearest rank).
    pub median: i64,
    /// 90th percentile (nearest rank).
    pub p90: i64,
    /// Smallest.
    pub min: i64,
    /// Largest.
    pub max: i64,
    /// Count of each value.
    pub histogram: BTreeMap<i64, u64>,
}

impl Spread {
    /// From a histogram.
    pub fn of(h: &Hist) -> Spread {
        let (min, max) = h.range().unwrap_or((0, 0));
        Spread {
            mean: h.mean(),
            std_dev: h.std_dev(),
            median: h.quantile(0.5),
            p90: h.quantile(0.9),
            min,
            max,
            histogram: h.counts.clone(),
        }
    }
}

/// One side's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideReport {
    /// The side's name.
    pub side: String,
    /// Its wins with a 95% interval.
    pub wins: Rate,
}

/// One combatant's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombatantReport {
    /// Its id.
    pub id: String,
    /// Its side's name.
    pub side: String,
    /// How often it ended Incapacitated.
    pub incapacitated: Rate,
    /// How often it was removed from combat.
    pub removed: Rate,
    /// How often it died.
    pub killed: Rate,
    /// End resources.
    pub resources: BTreeMap<String, Spread>,
}

/// A whole report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The encounter's title.
    pub title: String,
    /// The ruleset.
    pub ruleset: String,
    /// Combats played.
    pub combats: u64,
    /// The batch seed.
    pub seed: u64,
    /// The round cap.
    pub round_cap: u32,
    /// Policy per seat name.
    pub policies: BTreeMap<String, String>,
    /// Wins per side.
    pub sides: Vec<SideReport>,
    /// Combats with no winner.
    pub draws: Rate,
    /// Combats cut off by the round cap.
    pub cutoffs: Rate,
    /// Rounds to finish.
    pub rounds: Spread,
    /// Per combatant.
    pub combatants: Vec<CombatantReport>,
    /// Which part of a sharded batch this report covers (`fray sim --shard K/N`); absent from
    /// the report of a whole batch, so a merge of every shard prints exactly what one
    /// unsharded run prints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
}

impl Report {
    /// Builds a report from a tally.
    pub fn new(
        title: String,
        ruleset: String,
        sides: &[String],
        tally: &Tally,
        seed: u64,
        round_cap: u32,
        policies: BTreeMap<String, String>,
    ) -> Report {
        let n = tally.combats;
        Report {
            title,
            ruleset,
            combats: n,
            seed,
            round_cap,
            policies,
            sides: sides
                .iter()
                .enumerate()
                .map(|(i, s)| SideReport {
                    side: s.clone(),
                    wins: wilson(tally.wins.get(i).copied().unwrap_or(0), n),
                })
                .collect(),
            draws: wilson(tally.draws, n),
            cutoffs: wilson(tally.cutoffs, n),
            rounds: Spread::of(&tally.rounds),
            combatants: tally
                .combatants
                .iter()
                .map(|c| CombatantReport {
                    id: c.id.clone(),
                    side: sides.get(c.side as usize).cloned().unwrap_or_default(),
                    incapacitated: wilson(c.incapacitated, n),
                    removed: wilson(c.removed, n),
                    killed: wilson(c.killed, n),
                    resources: c.resources.iter().map(|(k, h)| (k.clone(), Spread::of(h))).collect(),
                })
                .collect(),
            shard: None,
        }
    }

    /// The integer counts this report was built from: `Report::new` of this tally (with the
    /// same title, sides, seed, round cap and policies) gives this report again, so reports of
    /// disjoint parts of a batch merge exactly through their tallies. A combatant's side is
    /// found by name (the first side so named; a side name the report does not list maps to
    /// an index past the sides, which `Report::new` names empty again).
    pub fn tally(&self) -> Tally {
        let side_index = |name: &str| {
            let i = self
                .sides
                .iter()
                .position(|s| s.side == name)
                .unwrap_or(self.sides.len());
            u8::try_from(i).unwrap_or(u8::MAX)
        };
        Tally {
            combats: self.combats,
            wins: self.sides.iter().map(|s| s.wins.count).collect(),
            draws: self.draws.count,
            cutoffs: self.cutoffs.count,
            rounds: Hist {
                counts: self.rounds.histogram.clone(),
            },
            combatants: self
                .combatants
                .iter()
                .map(|c| CombatantTally {
                    id: c.id.clone(),
                    side: side_index(&c.side),
                    incapacitated: c.incapacitated.count,
                    removed: c.removed.count,
                    killed: c.killed.count,
                    resources: c
                        .resources
                        .iter()
                        .map(|(k, s)| {
                            (
                                k.clone(),
                                Hist {
                                    counts: s.histogram.clone(),
                                },
                            )
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    /// The names of the sides, in order.
    pub fn side_names(&self) -> Vec<String> {
        self.sides.iter().map(|s| s.side.clone()).collect()
    }

    /// Pretty JSON.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".into())
    }

    /// The readable table.
    pub fn text(&self) -> String {
        let pct = |r: &Rate| {
            format!(
                "{:5.1}%  [{:5.1}% – {:5.1}%]",
                100.0 * r.rate,
                100.0 * r.low,
                100.0 * r.high
            )
        };
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} ({}): {} combats, seed {}, round cap {}",
            self.title, self.ruleset, self.combats, self.seed, self.round_cap
        );
        let pol: Vec<String> = self.policies.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        let _ = writeln!(s, "policies: {}", pol.join(", "));
        let _ = writeln!(s, "\nOutcome            rate     95% interval");
        for side in &self.sides {
            let _ = writeln!(s, "  {:<16} {}  ({} wins)", side.side, pct(&side.wins), side.wins.count);
        }
        let _ = writeln!(s, "  {:<16} {}  ({})", "draw", pct(&self.draws), self.draws.count);
        let _ = writeln!(
            s,
            "  {:<16} {}  ({})",
            "cut off",
            pct(&self.cutoffs),
            self.cutoffs.count
        );
        let r = &self.rounds;
        let _ = writeln!(
            s,
            "\nRounds: mean {:.2} (sd {:.2}), median {}, 90th percentile {}, range {}–{}",
            r.mean, r.std_dev, r.median, r.p90, r.min, r.max
        );
        let total: u64 = r.histogram.values().sum();
        for (v, c) in &r.histogram {
            let bar = "#".repeat(((*c as f64 / total.max(1) as f64) * 50.0).round() as usize);
            let _ = writeln!(s, "  {v:>4} {bar} {c}");
        }
        let _ = writeln!(
            s,
            "\nCombatant          side          incapacitated   removed   killed   end resources (mean, median, p90)"
        );
        for c in &self.combatants {
            let res: Vec<String> = c
                .resources
                .iter()
                .map(|(k, v)| format!("{k} {:.2}/{}/{}", v.mean, v.median, v.p90))
                .collect();
            let _ = writeln!(
                s,
                "  {:<16} {:<12} {:>6.1}%       {:>6.1}%   {:>5.1}%   {}",
                c.id,
                c.side,
                100.0 * c.incapacitated.rate,
                100.0 * c.removed.rate,
                100.0 * c.killed.rate,
                res.join(", ")
            );
        }
        s
    }
}
