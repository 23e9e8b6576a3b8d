//! Batches split across machines: shards and their exact merge.
//!
//! Shard `K/N` (numbered from 1) of a batch of `n` combats plays the combats with indices
//! `n·(K−1)/N` up to (not including) `n·K/N`, rounded down: N contiguous, disjoint ranges that
//! cover the batch. Combat `i` draws from its own streams of the batch seed whoever plays it, so
//! a shard plays exactly the combats the whole batch plays at those indices. Its report carries
//! a [`ShardInfo`] (which range, of which batch) besides the integer counts every report holds,
//! and [`merge`] adds the counts of shards that tile the batch and recomputes everything derived
//! from them (rates, intervals, means, percentiles): the merged report is the whole batch's
//! report, to the byte.

use crate::report::Report;
use crate::stats::Tally;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// One of N parts of a batch, numbered from 1 (`2/3` is the second of three).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 1 to `of`.
    pub index: u64,
    /// How many parts.
    pub of: u64,
}

impl Shard {
    /// Shard `index` of `of`, refused unless `1 <= index <= of`.
    pub fn new(index: u64, of: u64) -> Result<Shard, String> {
        if of == 0 {
            return Err(format!("{index}/{of}: N must be at least 1"));
        }
        if index == 0 {
            return Err(format!(
                "{index}/{of}: shards are numbered from 1 (1/{of} to {of}/{of})"
            ));
        }
        if index > of {
            return Err(format!("{index}/{of}: K must be at most N (1/{of} to {of}/{of})"));
        }
        Ok(Shard { index, of })
    }

    /// The combat indices this shard plays in a batch of `total` combats.
    pub fn range(&self, total: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(total) * u128::from(k) / u128::from(self.of)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Reads `K/N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("{s}: expected K/N, the K-th of N shards (1/4, 2/4, 3/4, 4/4)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n)
    }
}

/// What a shard's report says about the part of which batch it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// Which shard, from 1.
    pub index: u64,
    /// Of how many.
    pub of: u64,
    /// The first combat index played.
    pub start: u64,
    /// One past the last combat index played.
    pub end: u64,
    /// Combats in the whole batch (`-n`).
    pub total: u64,
    /// A fingerprint of what was simulated: the ruleset and its version, the validated
    /// encounter and options, the state forked from (`--from`) and the default policy
    /// ([`fingerprint`]).
    pub input: String,
    /// The version of fray that played it.
    pub version: String,
}

impl ShardInfo {
    /// The shard's description: `shard 2/3 (combats 100 to 199)`.
    fn describe(&self) -> String {
        format!("shard {}/{} ({})", self.index, self.of, combats(self.start..self.end))
    }
}

/// `combats 100 to 199`, `combat 7`.
fn combats(r: Range<u64>) -> String {
    if r.end == r.start + 1 {
        format!("combat {}", r.start)
    } else {
        format!("combats {} to {}", r.start, r.end.saturating_sub(1))
    }
}

/// The version of fray written into shard reports (the workspace's version).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A 64-bit FNV-1a hash of the parts (each preceded by its length, so the split between parts
/// counts), as 16 hex digits: the same on every machine and every build.
pub fn fingerprint(parts: &[&[u8]]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for p in parts {
        eat(&(p.len() as u64).to_le_bytes());
        eat(p);
    }
    format!("{h:016x}")
}

/// Why shards cannot be merged: every problem found, one per line, naming the files.
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.join("\n"))]
pub struct MergeError(pub Vec<String>);

/// Checks one shard's own numbers: a valid `K/N`, the range `K/N` gives, and counts that add up
/// to its combats.
fn check_alone(name: &str, r: &Report, s: &ShardInfo) -> Result<(), String> {
    let shard = Shard::new(s.index, s.of).map_err(|e| format!("{name}: not a valid shard: {e}"))?;
    let range = shard.range(s.total);
    if s.of > s.total {
        return Err(format!(
            "{name}: {} shards of {} combats: a batch has at most as many shards as combats",
            s.of, s.total
        ));
    }
    if (s.start..s.end) != range {
        return Err(format!(
            "{name}: shard {shard} of {} combats plays {}, but the file says {}",
            s.total,
            combats(range),
            combats(s.start..s.end)
        ));
    }
    let n = r.combats;
    let rates = r.sides.iter().map(|x| &x.wins).chain([&r.draws, &r.cutoffs]).chain(
        r.combatants
            .iter()
            .flat_map(|c| [&c.incapacitated, &c.removed, &c.killed]),
    );
    let wins: u64 = r.sides.iter().map(|x| x.wins.count).sum();
    let rounds: u64 = r.rounds.histogram.values().sum();
    let mut fine = n == s.end - s.start && rounds == n;
    fine &= wins
        .checked_add(r.draws.count)
        .and_then(|x| x.checked_add(r.cutoffs.count))
        == Some(n);
    for rate in rates {
        fine &= rate.of == n && rate.count <= n;
    }
    if !fine {
        return Err(format!(
            "{name}: its counts do not add up to the {} combats of {} (an edited or cut-off file?)",
            s.end - s.start,
            s.describe()
        ));
    }
    Ok(())
}

/// What must be the same in every shard of one batch, with its name for messages.
fn batch_key(r: &Report, s: &ShardInfo) -> [(&'static str, String); 9] {
    [
        ("fray version", s.version.clone()),
        ("ruleset", r.ruleset.clone()),
        ("encounter title", r.title.clone()),
        (
            "encounter, options or record forked from (fingerprint)",
            s.input.clone(),
        ),
        ("seed", r.seed.to_string()),
        ("round cap", r.round_cap.to_string()),
        (
            "policies",
            r.policies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        ("number of combats (-n)", s.total.to_string()),
        ("sides", r.side_names().join(", ")),
    ]
}

/// Merges the reports of shards of one batch (each with the name of its file, for messages)
/// into the report of the whole batch. Refused, with every problem named: a report that is not
/// a shard's or whose numbers do not add up, shards of different batches (another encounter,
/// seed, round cap, policies, `-n`, fray version), shards given twice or overlapping, and
/// missing ones. Shards need not share their N, as long as their ranges tile the batch.
pub fn merge(shards: &[(String, Report)]) -> Result<Report, MergeError> {
    let mut problems = Vec::new();
    let mut parts: Vec<(&str, &Report, &ShardInfo)> = Vec::new();
    for (name, r) in shards {
        match &r.shard {
            None => problems.push(format!(
                "{name}: not a shard report (write one with `fray sim ... --shard K/N --json`)"
            )),
            Some(s) => match check_alone(name, r, s) {
                Ok(()) => parts.push((name, r, s)),
                Err(e) => problems.push(e),
            },
        }
    }
    if !problems.is_empty() {
        return Err(MergeError(problems));
    }
    let Some(&(first_name, first, first_info)) = parts.first() else {
        return Err(MergeError(vec!["no shard reports to merge".into()]));
    };
    let key = batch_key(first, first_info);
    for &(name, r, s) in &parts[1..] {
        for ((what, theirs), (_, ours)) in batch_key(r, s).iter().zip(&key) {
            if theirs != ours {
                problems.push(format!(
                    "{name}: a shard of another batch than {first_name}: {what} {theirs} here, {ours} there"
                ));
            }
        }
    }
    if !problems.is_empty() {
        return Err(MergeError(problems));
    }
    parts.sort_by_key(|(_, _, s)| (s.start, s.end));
    let total = first_info.total;
    let same_n = parts.iter().all(|(_, _, s)| s.of == first_info.of);
    // Walk the ranges in order: each must start where the ones before it ended.
    let mut covered = 0u64;
    let mut last: Option<(&str, &ShardInfo)> = None;
    for &(name, _, s) in &parts {
        if s.start > covered {
            problems.push(missing(covered..s.start, same_n.then_some(first_info.of), total));
        }
        if let Some((prev, p)) = last
            && s.start < covered
        {
            problems.push(if p.start == s.start && p.end == s.end {
                format!("{} is given twice: {prev} and {name}", p.describe())
            } else {
                format!(
                    "{prev} ({}) and {name} ({}) overlap: {} are in both",
                    p.describe(),
                    s.describe(),
                    combats(s.start..covered.min(s.end))
                )
            });
        }
        if s.end > covered {
            covered = s.end;
            last = Some((name, s));
        }
    }
    if covered < total {
        problems.push(missing(covered..total, same_n.then_some(first_info.of), total));
    }
    if !problems.is_empty() {
        return Err(MergeError(problems));
    }
    let tally = parts.iter().fold(Tally::default(), |t, (_, r, _)| t.merge(r.tally()));
    Ok(Report::new(
        first.title.clone(),
        first.ruleset.clone(),
        &first.side_names(),
        &tally,
        first.seed,
        first.round_cap,
        first.policies.clone(),
    ))
}

/// The message for combats no shard covers, naming the missing shards when every shard has the
/// same N.
fn missing(gap: Range<u64>, of: Option<u64>, total: u64) -> String {
    let names: Vec<String> = match of {
        Some(of) => (1..=of)
            .filter_map(|k| {
                let s = Shard { index: k, of };
                let r = s.range(total);
                (r.start >= gap.start && r.end <= gap.end && !r.is_empty()).then(|| s.to_string())
            })
            .collect(),
        None => Vec::new(),
    };
    if names.is_empty() {
        format!("no shard plays {}", combats(gap))
    } else {
        format!(
            "missing {} {} ({})",
            if names.len() == 1 { "shard" } else { "shards" },
            names.join(", "),
            combats(gap)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{CombatantTally, Hist};
    use fray_dice::Prng;
    use std::collections::BTreeMap;

    #[test]
    fn shards_are_read_as_k_of_n_numbered_from_one() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, of: 3 }));
        assert_eq!(" 1 / 1 ".parse::<Shard>(), Ok(Shard { index: 1, of: 1 }));
        for (bad, why) in [
            ("0/3", "numbered from 1"),
            ("4/3", "at most N"),
            ("1/0", "at least 1"),
            ("3", "expected K/N"),
            ("a/b", "expected K/N"),
            ("-1/3", "expected K/N"),
            ("1/3/4", "expected K/N"),
        ] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        assert_eq!(Shard { index: 2, of: 5 }.to_string(), "2/5");
    }

    #[test]
    fn the_shards_of_a_batch_tile_it_in_order_with_sizes_one_apart() {
        for total in [1u64, 2, 3, 7, 10, 99, 100, 1000, u64::MAX] {
            for of in [1u64, 2, 3, 4, 7, 10, 64] {
                if of > total {
                    continue;
                }
                let ranges: Vec<Range<u64>> = (1..=of).map(|k| Shard { index: k, of }.range(total)).collect();
                assert_eq!(ranges[0].start, 0);
                assert_eq!(ranges[ranges.len() - 1].end, total);
                for w in ranges.windows(2) {
                    assert_eq!(w[0].end, w[1].start, "{total} in {of}");
                }
                let sizes: Vec<u64> = ranges.iter().map(|r| r.end - r.start).collect();
                let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(*lo >= 1 && hi - lo <= 1, "{total} in {of}: {sizes:?}");
            }
        }
        assert_eq!(Shard { index: 2, of: 3 }.range(300), 100..200);
        assert_eq!(Shard { index: 3, of: 3 }.range(10), 6..10);
    }

    #[test]
    fn the_fingerprint_is_fixed_and_sees_where_parts_split() {
        // Known answers (64-bit FNV-1a over length-prefixed parts), so shards played by other
        // builds of the same version still match.
        assert_eq!(fingerprint(&[]), "cbf29ce484222325");
        assert_eq!(fingerprint(&[b"thrum", b"1"]), "233c90ee7f02f510");
        assert_ne!(fingerprint(&[b"ab", b"c"]), fingerprint(&[b"a", b"bc"]));
    }

    /// The tally of combats `range` of a made-up batch: combat `i`'s outcome comes from its own
    /// stream, like a real batch's, and two more combatants join in some combats only, in
    /// either order (so the order combatants are listed in depends on which combat met them
    /// first).
    fn tally_of(range: Range<u64>) -> Tally {
        let mut t = Tally::default();
        for i in range {
            let mut p = Prng::for_stream(5, i);
            let mut one = Tally {
                combats: 1,
                wins: vec![0, 0],
                ..Default::default()
            };
            match p.below(10) {
                0 => one.draws += 1,
                1 => one.cutoffs += 1,
                n => one.wins[(n % 2) as usize] += 1,
            }
            one.rounds.add(1 + p.below(12) as i64);
            let mut cast = vec![0, 1];
            let joiners = if p.below(2) == 0 { [2, 3] } else { [3, 2] };
            cast.extend(joiners.into_iter().filter(|_| p.below(5) == 0));
            for c in cast {
                let mut res = BTreeMap::new();
                let mut h = Hist::default();
                h.add(p.below(30) as i64 - 5);
                res.insert("wounds".to_string(), h);
                one.combatants.push(CombatantTally {
                    id: ["ana", "bo", "summoned", "raised"][c].into(),
                    side: [0, 1, 7, 1][c],
                    incapacitated: u64::from(p.below(2)),
                    removed: u64::from(p.below(2)),
                    killed: u64::from(p.below(2)),
                    resources: res,
                });
            }
            t = t.merge(one);
        }
        t
    }

    fn report_of(t: &Tally) -> Report {
        let mut policies = BTreeMap::new();
        policies.insert("gm".to_string(), "heuristic".to_string());
        Report::new(
            "Test".into(),
            "toy".into(),
            &["Heroes".to_string(), "Foes".to_string()],
            t,
            5,
            40,
            policies,
        )
    }

    fn shard(k: u64, of: u64, total: u64) -> Report {
        let range = Shard { index: k, of }.range(total);
        let mut r = report_of(&tally_of(range.clone()));
        r.shard = Some(ShardInfo {
            index: k,
            of,
            start: range.start,
            end: range.end,
            total,
            input: "0123456789abcdef".into(),
            version: VERSION.into(),
        });
        r
    }

    fn named(reports: Vec<Report>) -> Vec<(String, Report)> {
        reports
            .into_iter()
            .enumerate()
            .map(|(i, r)| (format!("s{i}.json"), r))
            .collect()
    }

    fn problems(reports: Vec<Report>) -> String {
        merge(&named(reports)).unwrap_err().to_string()
    }

    #[test]
    fn a_report_gives_back_the_tally_it_was_built_from() {
        let whole = report_of(&tally_of(0..200));
        assert_eq!(report_of(&whole.tally()), whole);
        assert!(whole.combatants.iter().any(|c| c.id == "summoned" && c.side.is_empty()));
        let ids: Vec<&str> = whole.combatants.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), 4, "{ids:?}");
        // Through JSON too: every count survives, every derived number is recomputed the same.
        let back: Report = serde_json::from_str(&whole.json()).unwrap();
        assert_eq!(report_of(&back.tally()).json(), whole.json());
    }

    #[test]
    fn merged_shards_are_the_whole_batch_to_the_byte() {
        let total = 301;
        let whole = report_of(&tally_of(0..total));
        for of in [1, 2, 3, 7] {
            // Any order of the files.
            let mut shards: Vec<Report> = (1..=of).map(|k| shard(k, of, total)).collect();
            shards.reverse();
            let shards: Vec<Report> = shards
                .into_iter()
                .map(|r| serde_json::from_str(&r.json()).unwrap())
                .collect();
            let merged = merge(&named(shards)).unwrap();
            assert_eq!(merged.json(), whole.json(), "{of} shards");
            assert_eq!(merged.text(), whole.text(), "{of} shards");
            assert!(merged.shard.is_none());
        }
        // Shards of different N merge too when their ranges tile the batch.
        let merged = merge(&named(vec![shard(1, 2, total), shard(3, 4, total), shard(4, 4, total)])).unwrap();
        assert_eq!(merged.json(), whole.json());
    }

    #[test]
    fn missing_repeated_and_overlapping_shards_are_named() {
        let e = problems(vec![shard(1, 3, 90), shard(3, 3, 90)]);
        assert_eq!(e, "missing shard 2/3 (combats 30 to 59)");
        let e = problems(vec![shard(2, 4, 90)]);
        assert!(e.contains("missing shard 1/4 (combats 0 to 21)"), "{e}");
        assert!(e.contains("missing shards 3/4, 4/4 (combats 45 to 89)"), "{e}");
        let e = problems(vec![shard(1, 2, 90), shard(2, 2, 90), shard(2, 2, 90)]);
        assert_eq!(e, "shard 2/2 (combats 45 to 89) is given twice: s1.json and s2.json");
        let e = problems(vec![shard(1, 2, 90), shard(2, 3, 90), shard(3, 3, 90)]);
        assert_eq!(
            e,
            "s0.json (shard 1/2 (combats 0 to 44)) and s1.json (shard 2/3 (combats 30 to 59)) overlap: combats 30 to 44 are in both"
        );
        let e = problems(vec![shard(1, 3, 90), shard(3, 4, 90)]);
        assert!(e.contains("no shard plays combats 30 to 44"), "{e}");
        assert!(e.contains("no shard plays combats 67 to 89"), "{e}");
        assert_eq!(merge(&[]).unwrap_err().to_string(), "no shard reports to merge");
    }

    #[test]
    fn shards_of_different_batches_are_refused() {
        type Edit = (fn(&mut Report), &'static str);
        let edits: [Edit; 7] = [
            (|r| r.seed = 6, "seed 6 here, 5 there"),
            (|r| r.round_cap = 10, "round cap 10 here, 40 there"),
            (|r| r.title = "Other".into(), "encounter title Other here, Test there"),
            (
                |r| r.policies.insert("gm".into(), "random".into()).map_or((), drop),
                "policies gm=random here, gm=heuristic there",
            ),
            (
                |r| r.shard.as_mut().unwrap().input = "ffffffffffffffff".into(),
                "encounter, options or record forked from (fingerprint) ffffffffffffffff here",
            ),
            (
                |r| r.shard.as_mut().unwrap().version = "0.0.9".into(),
                "fray version 0.0.9 here",
            ),
            (|r| r.ruleset = "thrum".into(), "ruleset thrum here, toy there"),
        ];
        for (edit, says) in edits {
            let mut other = shard(2, 2, 90);
            edit(&mut other);
            let e = problems(vec![shard(1, 2, 90), other]);
            assert!(
                e.starts_with("s1.json: a shard of another batch than s0.json: ") && e.contains(says),
                "{says}: {e}"
            );
        }
        // Another -n: the same K/N covers other combats.
        let e = problems(vec![shard(1, 2, 90), shard(2, 2, 100)]);
        assert!(e.contains("number of combats (-n) 100 here, 90 there"), "{e}");
    }

    #[test]
    fn reports_that_are_not_sound_shards_are_refused() {
        let mut whole = shard(1, 1, 30);
        whole.shard = None;
        assert!(problems(vec![whole]).contains("s0.json: not a shard report"));
        type Edit = (fn(&mut ShardInfo), &'static str);
        let edits: [Edit; 5] = [
            (|s| s.index = 0, "numbered from 1"),
            (|s| s.index = 3, "K must be at most N"),
            (|s| s.of = 0, "N must be at least 1"),
            (
                |s| s.start = 1,
                "shard 1/2 of 90 combats plays combats 0 to 44, but the file says combats 1 to 44",
            ),
            (|s| s.total = 1, "2 shards of 1 combats"),
        ];
        for (edit, says) in edits {
            let mut r = shard(1, 2, 90);
            edit(r.shard.as_mut().unwrap());
            let e = problems(vec![r, shard(2, 2, 90)]);
            assert!(e.starts_with("s0.json: ") && e.contains(says), "{says}: {e}");
        }
        // Counts that do not add up to the shard's combats.
        let mut r = shard(1, 2, 90);
        r.draws.count += 1;
        assert!(problems(vec![r, shard(2, 2, 90)]).contains("s0.json: its counts do not add up"));
        let mut r = shard(1, 2, 90);
        r.rounds.histogram.insert(99, 1);
        assert!(problems(vec![r, shard(2, 2, 90)]).contains("do not add up"));
        let mut r = shard(1, 2, 90);
        r.combatants[0].killed.of = 7;
        assert!(problems(vec![r, shard(2, 2, 90)]).contains("do not add up"));
    }
}
