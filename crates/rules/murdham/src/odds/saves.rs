//! Saves, group saves and contests: a d20 at or under the score ([`save_passes`]), sizes deciding
//! STR saves, one d20 read against a group's scores, and a contest's ranking with ties rolled
//! again.
//!
//! Part of [`crate::odds`], which holds the map of the mechanics and the exactness argument;
//! every file of it sees the others through `use super::*`, as one module would.

use super::*;

/// Whether a save against `score` passes on a d20 showing `roll` (1..=20): the roll is at or under
/// the score. A score of 0 or less never passes.
pub fn save_passes(score: i32, roll: u32) -> bool {
    score >= 1 && i64::from(roll) <= i64::from(score)
}

/// The d20 faces that pass a save against `score`.
pub(super) fn passing_faces(score: i32) -> u32 {
    (1..=D20).filter(|&r| save_passes(score, r)).count() as u32
}

/// Refuses a score outside [`MIN_SCORE`]..=[`MAX_SCORE`]; `what` names it.
pub(super) fn check_score(what: &str, score: i32) -> Result<(), String> {
    if (MIN_SCORE..=MAX_SCORE).contains(&score) {
        Ok(())
    } else {
        Err(format!(
            "{what} {score}: a score is a whole number from {MIN_SCORE} to {MAX_SCORE} (abilities run from 1 to 19; 0 or less cannot pass a save)"
        ))
    }
}

/// Who is bigger in a STR save between two characters of different sizes: the larger one wins it
/// outright.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SizeEdge {
    /// The one saving is larger: it passes without rolling.
    Larger,
    /// The one saving is smaller: it fails without rolling.
    Smaller,
}

/// The odds of one save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SaveOdds {
    /// The score saved against.
    pub score: i32,
    /// A size difference deciding a STR save, if any.
    pub edge: Option<SizeEdge>,
    /// Whether the d20 is rolled at all (no: the size decides it, or the score is 0 or less).
    pub rolled: bool,
    /// The chance of passing.
    pub pass: Chance,
}

/// The odds of a save against `score`, a size difference deciding it if `edge` is given.
///
/// Errors: a score outside [`MIN_SCORE`]..=[`MAX_SCORE`].
pub fn save(score: i32, edge: Option<SizeEdge>) -> Result<SaveOdds, String> {
    check_score("a score of", score)?;
    let (rolled, pass) = match edge {
        Some(SizeEdge::Larger) => (false, Chance::one()),
        Some(SizeEdge::Smaller) => (false, Chance::zero()),
        None => (score >= 1, Chance::of(u64::from(passing_faces(score)), u64::from(D20))),
    };
    Ok(SaveOdds {
        score,
        edge,
        rolled,
        pass,
    })
}

/// [`SaveOdds`] as text.
pub fn save_text(o: &SaveOdds) -> String {
    match o.edge {
        Some(SizeEdge::Larger) => format!(
            "save against {}: the larger character wins a STR save against a smaller one outright: pass {}\n",
            o.score,
            o.pass.percent()
        ),
        Some(SizeEdge::Smaller) => format!(
            "save against {}: the smaller character loses a STR save against a larger one outright: pass {}\n",
            o.score,
            o.pass.percent()
        ),
        None if o.score < 1 => format!(
            "save against {}: no save is possible with a score of 0 or less: pass {}\n",
            o.score,
            o.pass.percent()
        ),
        None => format!(
            "save against {}: d20 at or under {}: pass {}, fail {}\n",
            o.score,
            o.score,
            o.pass.percent(),
            o.pass.complement().percent()
        ),
    }
}

/// The odds of a group save: one d20 read against each member's score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupSaveOdds {
    /// The members' scores, in the order given.
    pub scores: Vec<i32>,
    /// `passing[k]`: the chance that exactly `k` members pass (`k` from 0 to the group's size).
    pub passing: Vec<Chance>,
    /// The chance that each member passes, in the order given.
    pub each: Vec<Chance>,
    /// Which members pass on each roll: `by_roll[r - 1][i]` for a d20 showing `r`.
    pub by_roll: Vec<Vec<bool>>,
}

/// The odds of a group save with the members' `scores`.
///
/// Errors: no member or more than [`MAX_GROUP`], a score outside [`MIN_SCORE`]..=[`MAX_SCORE`].
pub fn group_save(scores: &[i32]) -> Result<GroupSaveOdds, String> {
    if scores.is_empty() || scores.len() > MAX_GROUP {
        return Err(format!(
            "a group save of {} members: a group has 1 to {MAX_GROUP} members",
            scores.len()
        ));
    }
    for &s in scores {
        check_score("a score of", s)?;
    }
    let by_roll: Vec<Vec<bool>> = (1..=D20)
        .map(|r| scores.iter().map(|&s| save_passes(s, r)).collect())
        .collect();
    let mut tally = vec![0u64; scores.len() + 1];
    for row in &by_roll {
        tally[row.iter().filter(|&&p| p).count()] += 1;
    }
    Ok(GroupSaveOdds {
        scores: scores.to_vec(),
        passing: tally.iter().map(|&n| Chance::of(n, u64::from(D20))).collect(),
        each: scores
            .iter()
            .map(|&s| Chance::of(u64::from(passing_faces(s)), u64::from(D20)))
            .collect(),
        by_roll,
    })
}

/// A list of scores as text: `12, 6 and 9`.
pub(super) fn score_list(scores: &[i32]) -> String {
    let words: Vec<String> = scores.iter().map(i32::to_string).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// [`GroupSaveOdds`] as text.
pub fn group_save_text(o: &GroupSaveOdds) -> String {
    let mut s = format!("group save, one d20 against {}\n", score_list(&o.scores));
    // Runs of rolls with the same members passing.
    let mut start = 0usize;
    while start < o.by_roll.len() {
        let mut end = start;
        while o.by_roll.get(end + 1) == o.by_roll.get(start) {
            end += 1;
        }
        let passing: Vec<i32> = o
            .scores
            .iter()
            .zip(&o.by_roll[start])
            .filter(|(_, p)| **p)
            .map(|(s, _)| *s)
            .collect();
        let rolls = if start == end {
            format!("roll {}", start + 1)
        } else {
            format!("rolls {}-{}", start + 1, end + 1)
        };
        let who = match passing.len() {
            0 => "nobody passes".to_string(),
            n if n == o.scores.len() && n > 1 => "everyone passes".to_string(),
            1 => format!("{} passes", score_list(&passing)),
            _ => format!("{} pass", score_list(&passing)),
        };
        let _ = writeln!(s, "  {rolls}: {who}");
        start = end + 1;
    }
    s.push_str("  passing  P(exactly)\n");
    for (k, c) in o.passing.iter().enumerate() {
        let _ = writeln!(s, "  {k:>7}  {:>10}", c.percent());
    }
    let each: Vec<String> = o
        .scores
        .iter()
        .zip(&o.each)
        .map(|(sc, c)| format!("{sc}: {}", c.percent()))
        .collect();
    let _ = writeln!(s, "each member passes: {}", each.join(", "));
    s
}

/// The odds of a contest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContestOdds {
    /// The sides' scores, in the order given.
    pub scores: Vec<i32>,
    /// The chance that each side wins, in the order given (rerolls of ties included).
    pub win: Vec<Chance>,
}

/// The odds of a contest between sides with `scores`: each side's `score - d20`, the highest
/// winning, sides tied at the top rolling again among themselves until one is ahead.
///
/// With a set `S` of sides still in it, `P(i wins | S)` is the rolls where `i` alone is on top,
/// plus for every smaller set `T` tied at the top the rolls giving that tie times `P(i wins | T)`,
/// over the rolls where not all of `S` tie (a tie of all of `S` simply rolls again).
///
/// Errors: fewer than 2 or more than [`MAX_CONTEST`] sides, a score outside
/// [`MIN_SCORE`]..=[`MAX_SCORE`].
pub fn contest(scores: &[i32]) -> Result<ContestOdds, String> {
    if scores.len() < 2 || scores.len() > MAX_CONTEST {
        return Err(format!(
            "a contest of {} sides: a contest has 2 to {MAX_CONTEST} sides",
            scores.len()
        ));
    }
    for &s in scores {
        check_score("a score of", s)?;
    }
    let n = scores.len();
    let full = (1usize << n) - 1;
    // wins[mask][i]: P(i wins | the sides in mask contest), for i in mask.
    let mut wins: Vec<Vec<Chance>> = vec![vec![Chance::zero(); n]; full + 1];
    let mut masks: Vec<usize> = (1..=full).collect();
    masks.sort_by_key(|m| m.count_ones());
    for mask in masks {
        let members: Vec<usize> = (0..n).filter(|&i| mask & (1 << i) != 0).collect();
        if let [only] = members[..] {
            wins[mask][only] = Chance::one();
            continue;
        }
        let tops = top_sets(scores, mask);
        let all = u128::from(D20).pow(members.len() as u32);
        let rerolls = all - tops[mask];
        for &i in &members {
            let mut acc = Chance::new(Count::from(tops[1 << i]), count(1));
            for (t, &ways) in tops.iter().enumerate() {
                let tied = t & (1 << i) != 0 && t != mask && t.count_ones() >= 2 && ways > 0;
                if tied {
                    acc = acc.plus(&wins[t][i].times(&Count::from(ways)));
                }
            }
            wins[mask][i] = acc.over(&Count::from(rerolls));
        }
    }
    Ok(ContestOdds {
        scores: scores.to_vec(),
        win: wins[full].clone(),
    })
}

/// For the sides in `mask`, `tops[t]`: the rolls (of `20^|mask|`) in which exactly the sides of
/// `t` share the highest `score - d20`. Entries for sets outside `mask` stay 0.
pub(super) fn top_sets(scores: &[i32], mask: usize) -> Vec<u128> {
    let n = scores.len();
    let members: Vec<usize> = (0..n).filter(|&i| mask & (1 << i) != 0).collect();
    let mut tops = vec![0u128; 1 << n];
    let lo = members.iter().map(|&i| scores[i] - D20 as i32).min().unwrap_or(0);
    let hi = members.iter().map(|&i| scores[i] - 1).max().unwrap_or(0);
    let d20 = D20 as i32;
    for m in lo..=hi {
        // Faces putting side i exactly at m (0 or 1) and strictly below m.
        let at = |i: usize| u128::from((1..=d20).contains(&(scores[i] - m)));
        let below = |i: usize| (d20 - (scores[i] - m)).clamp(0, d20) as u128;
        // Every non-empty subset t of mask, as the sides exactly at m; the others below.
        let mut t = mask;
        while t != 0 {
            let ways: u128 = members
                .iter()
                .map(|&i| if t & (1 << i) != 0 { at(i) } else { below(i) })
                .product();
            tops[t] += ways;
            t = (t - 1) & mask;
        }
    }
    tops
}

/// [`ContestOdds`] as text.
pub fn contest_text(o: &ContestOdds) -> String {
    let mut s = format!(
        "contest of {}: each side's score - d20, the highest wins, ties at the top roll again\n",
        score_list(&o.scores)
    );
    for (i, (sc, c)) in o.scores.iter().zip(&o.win).enumerate() {
        let _ = writeln!(s, "  side {} (score {sc}) wins: {}", i + 1, c.percent());
    }
    s
}
