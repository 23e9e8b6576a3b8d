//! Exact odds of Murdham's dice: saves (alone, as a group, or sizes deciding them), contests,
//! exploding damage with impairment, enhancement, size multipliers, armour and the damage a
//! target can take, attacks with a to-hit save and a dodge, a counter's race between two blows,
//! and durability rolls. `fray odds murdham ...` prints them ([`parse_and_run`]), and the play
//! prompt shows [`attack_note`] beside each attack.
//!
//! The mechanics (the "Core resolution mechanic" and "Stats" sections of `shared/rules/murdham.md`
//! and the rules cited below):
//! - A save rolls a d20 and passes on a roll at or under the score ([`save_passes`]). A score of 0
//!   or less cannot pass. A larger character wins STR saves against a smaller one outright.
//! - A group save is one d20 read against every member's score. A contest is `score - d20` on each
//!   side; the highest wins, and sides tied at the top roll again among themselves.
//! - Damage rolls the weapon's die; its highest face counts one less and the die is rolled again
//!   and added, as often as it comes up ([`exploding_total`]). Impaired damage keeps the lower of
//!   two such rolls and enhanced the higher; each impairment cancels one enhancement, two net
//!   impairments deal nothing and extra enhancements add nothing ([`Quality`]).
//! - Size multiplies the damage a character deals (tiny ÷4, small ÷2, large ×2, massive ×4), a
//!   sweep halves it and a blast aimed at one large target doubles it (MUR-R58). All of these are
//!   powers of two, so they are added up into one net factor applied once to the kept roll, a
//!   division rounding up ([`DamageSpec::scaled`]); so a sweep by a large character deals the
//!   roll itself. Armour is subtracted afterwards, down to 0; direct damage ignores it
//!   ([`DamageSpec::dealt`]).
//! - Losing at once at least half the remaining health (rounded up) is critical damage; a helmet
//!   raises that by 1 except against direct damage; losing all of it is also dying; a single hit
//!   of at least the maximum health kills outright ([`critical_threshold`], MUR-H20).
//! - An attack needs the to-hit WIT save only in challenging circumstances (MUR-R13), and the
//!   target's dodge is an AGI save that makes it miss (MUR-R20).
//! - In a counter both roll at once and whoever would suffer more damage after reductions is hit
//!   first; a tie lands both together (MUR-R21, MUR-H10: 0 against 0 is a tie). A first hit that
//!   is critical for its victim (incapacitated, or dying) stops that victim's own blow.
//! - Durability fails on 1:4 (1:8 for robust items): the first failure damages an item, the
//!   second destroys it (MUR-R48, MUR-H16). A damaged weapon breaks when the kept damage roll
//!   shows a natural 1 (MUR-R49, MUR-H25), a damaged shield or armour on a hit of 8 or more before
//!   armour (MUR-R50).
//!
//! # Exactness
//!
//! Every probability is a fraction of two exact counts ([`Count`], of any size): a [`Chance`] in
//! lowest terms, or a [`TailDist`] of counts over a common total. Floating point appears only in
//! the JSON (`p` beside the exact fraction) and the text rounds each fraction exactly to one
//! decimal of a percent (`<0.1%` and `>99.9%` for outcomes that can or cannot happen).
//!
//! An exploding die has no largest value, so a damage roll is followed exactly through a number
//! of explosions (its depth): every value up to the resulting cap has its exact chance, and
//! everything above the cap is one exact "more than" bucket, always reported and never dropped,
//! so the chances add up to exactly 1. With `D` explosions followed, a die of `N` sides has `N^D`
//! equally likely padded sequences, and the value `(N-1)k + r` (`r` in 1..N-1, `k < D`) takes
//! `N^(D-k-1)` of them: its chance is `(1/N)^(k+1)`; the one sequence of `D` maxima is the tail.
//! The depth is the smallest that leaves less than 1 in 10^9 beyond the cap, raised until every
//! threshold asked about (health, critical damage, 8 before armour) lies inside the exact part,
//! so those chances are exact with no bucket involved. The only figure that is not exact is the
//! mean damage, which counts the bucket at its least value; it is low by less than 1e-6.
//!
//! In a counter, the two damages are compared exactly up to a common cap; only when both lie
//! above it is the order unknown, and that joint tail (below about 1e-9) is reported as
//! `undecided` rather than guessed.
//!
//! Bad input is an `Err` with a sentence naming the word, never a panic.

use fray_dice::count::{Count, percent, tenths};
use serde::{Serialize, Serializer};
use std::fmt::{self, Write};

/// The faces of the d20 that saves and contests roll.
const D20: u32 = 20;

/// A damage roll is followed far enough that fewer than 1 in this many rolls lie beyond its cap.
const TAIL_ODDS: u128 = 1_000_000_000;

/// The highest save score: abilities run from 1 to 19.
pub const MAX_SCORE: i32 = 19;

/// The lowest score accepted (0 or less can never pass a save).
pub const MIN_SCORE: i32 = -99;

/// The most armour accepted (heavy armour, two shields, cover and a massive size stay far below).
pub const MAX_ARMOUR: u32 = 50;

/// The most maximum health accepted (STR 19 at massive size with the tough skill is 84).
pub const MAX_HEALTH: u32 = 200;

/// The most members of a group save.
pub const MAX_GROUP: usize = 20;

/// The most sides of a contest.
pub const MAX_CONTEST: usize = 6;

/// Damage before armour that destroys a damaged shield or armour (MUR-R50).
pub const BREAKS_ARMOUR: usize = 8;

/// The most impairments or enhancements counted on one damage roll.
const MAX_STEPS: u8 = 9;

// ---------------------------------------------------------------------------------------------
// Exact chances
// ---------------------------------------------------------------------------------------------

/// An exact probability (or, inside computations, any non-negative fraction): `num / den` in
/// lowest terms, `den` never zero. Serialised as `{"num", "den", "p"}`, the counts as decimal
/// strings and `p` their ratio as a float.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chance {
    /// The numerator.
    num: Count,
    /// The denominator, never zero.
    den: Count,
}

impl Chance {
    /// `num / den` in lowest terms; a zero `den` gives 0 (no outcomes, nothing happens).
    pub fn new(num: Count, den: Count) -> Chance {
        if den.is_zero() || num.is_zero() {
            return Chance::zero();
        }
        let g = num.gcd(&den);
        if g == count(1) {
            return Chance { num, den };
        }
        let cut = |c: &Count| c.div_rem(&g).map_or_else(|| c.clone(), |(q, _)| q);
        Chance {
            num: cut(&num),
            den: cut(&den),
        }
    }

    /// `num / den` for small numbers.
    pub fn of(num: u64, den: u64) -> Chance {
        Chance::new(Count::from(num), Count::from(den))
    }

    /// Never.
    pub fn zero() -> Chance {
        Chance {
            num: Count::zero(),
            den: Count::from(1u64),
        }
    }

    /// Certainly.
    pub fn one() -> Chance {
        Chance::of(1, 1)
    }

    /// The numerator (lowest terms).
    pub fn num(&self) -> &Count {
        &self.num
    }

    /// The denominator (lowest terms, never zero).
    pub fn den(&self) -> &Count {
        &self.den
    }

    /// The value as a float (relative error below 1e-15).
    pub fn to_f64(&self) -> f64 {
        self.num.ratio(&self.den)
    }

    /// The value as a percentage rounded exactly to one decimal (see [`percent`]).
    pub fn percent(&self) -> String {
        percent(&self.num, &self.den)
    }

    /// `1 - self`, or 0 if `self` is above 1.
    pub fn complement(&self) -> Chance {
        let rest = self.den.checked_sub(&self.num).unwrap_or_default();
        Chance::new(rest, self.den.clone())
    }

    /// `self + other`.
    fn plus(&self, other: &Chance) -> Chance {
        Chance::new(
            &(&self.num * &other.den) + &(&other.num * &self.den),
            &self.den * &other.den,
        )
    }

    /// `self * k`.
    fn times(&self, k: &Count) -> Chance {
        Chance::new(&self.num * k, self.den.clone())
    }

    /// `self / k` (0 if `k` is zero).
    fn over(&self, k: &Count) -> Chance {
        Chance::new(self.num.clone(), &self.den * k)
    }
}

/// A [`Chance`] in JSON.
#[derive(Serialize)]
struct ChanceJson<'a> {
    num: &'a Count,
    den: &'a Count,
    p: f64,
}

impl Serialize for Chance {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ChanceJson {
            num: &self.num,
            den: &self.den,
            p: self.to_f64(),
        }
        .serialize(s)
    }
}

/// `a + b` for counts.
fn add(a: &Count, b: &Count) -> Count {
    a + b
}

/// A small number as a count.
fn count(v: u64) -> Count {
    Count::from(v)
}

// ---------------------------------------------------------------------------------------------
// Saves, group saves and contests
// ---------------------------------------------------------------------------------------------

/// Whether a save against `score` passes on a d20 showing `roll` (1..=20): the roll is at or under
/// the score. A score of 0 or less never passes.
pub fn save_passes(score: i32, roll: u32) -> bool {
    score >= 1 && i64::from(roll) <= i64::from(score)
}

/// The d20 faces that pass a save against `score`.
fn passing_faces(score: i32) -> u32 {
    (1..=D20).filter(|&r| save_passes(score, r)).count() as u32
}

/// Refuses a score outside [`MIN_SCORE`]..=[`MAX_SCORE`]; `what` names it.
fn check_score(what: &str, score: i32) -> Result<(), String> {
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
fn score_list(scores: &[i32]) -> String {
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
fn top_sets(scores: &[i32], mask: usize) -> Vec<u128> {
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

// ---------------------------------------------------------------------------------------------
// Dice, sizes and damage specifications
// ---------------------------------------------------------------------------------------------

/// A damage die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Die {
    /// A d4 (unarmed, simple hand weapons).
    D4,
    /// A d6.
    D6,
    /// A d8.
    D8,
    /// A d10.
    D10,
    /// A d12.
    D12,
    /// A d20.
    D20,
}

impl Die {
    /// Every damage die, smallest first.
    pub const ALL: [Die; 6] = [Die::D4, Die::D6, Die::D8, Die::D10, Die::D12, Die::D20];

    /// The number of faces.
    pub fn sides(self) -> u32 {
        match self {
            Die::D4 => 4,
            Die::D6 => 6,
            Die::D8 => 8,
            Die::D10 => 10,
            Die::D12 => 12,
            Die::D20 => 20,
        }
    }

    /// The die with `sides` faces, if it is a damage die.
    pub fn from_sides(sides: u32) -> Option<Die> {
        Die::ALL.into_iter().find(|d| d.sides() == sides)
    }

    /// Reads `d6` (or `D6`): `None` if `word` is not `d` followed by digits, an error if it is
    /// but names no damage die.
    pub fn parse(word: &str) -> Option<Result<Die, String>> {
        let digits = word.strip_prefix('d').or_else(|| word.strip_prefix('D'))?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(
            digits
                .parse::<u32>()
                .ok()
                .and_then(Die::from_sides)
                .ok_or_else(|| format!("{word}: a damage die is d4, d6, d8, d10, d12 or d20")),
        )
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides())
    }
}

impl Serialize for Die {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A character's size, which multiplies the damage it deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Size {
    /// Deals a quarter (rounded up).
    Tiny,
    /// Deals half (rounded up).
    Small,
    /// Deals its roll.
    Medium,
    /// Deals double.
    Large,
    /// Deals four times.
    Massive,
}

impl Size {
    /// Every size, smallest first.
    pub const ALL: [Size; 5] = [Size::Tiny, Size::Small, Size::Medium, Size::Large, Size::Massive];

    /// The size's name.
    pub fn name(self) -> &'static str {
        match self {
            Size::Tiny => "tiny",
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
            Size::Massive => "massive",
        }
    }

    /// The size named `word`.
    pub fn parse(word: &str) -> Option<Size> {
        Size::ALL.into_iter().find(|s| s.name() == word)
    }

    /// The power of two the size multiplies dealt damage by: -2 (÷4) to 2 (×4).
    pub fn damage_exponent(self) -> i32 {
        match self {
            Size::Tiny => -2,
            Size::Small => -1,
            Size::Medium => 0,
            Size::Large => 1,
            Size::Massive => 2,
        }
    }
}

/// What is left of a roll's impairments and enhancements once they cancel one for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Quality {
    /// Impaired twice or more: no damage at all.
    NoDamage,
    /// The lower of two rolls.
    Impaired,
    /// One roll.
    Plain,
    /// The higher of two rolls (further enhancements add nothing).
    Enhanced,
}

impl Quality {
    /// The quality left by `impaired` impairments and `enhanced` enhancements.
    pub fn from_counts(impaired: u8, enhanced: u8) -> Quality {
        match i32::from(enhanced) - i32::from(impaired) {
            n if n <= -2 => Quality::NoDamage,
            -1 => Quality::Impaired,
            0 => Quality::Plain,
            _ => Quality::Enhanced,
        }
    }
}

/// One damage roll and what it passes through before it is dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DamageSpec {
    /// The weapon's die.
    pub die: Die,
    /// Impairments (unarmed, holding back, the off hand, concealment...), each cancelling one
    /// enhancement.
    pub impaired: u8,
    /// Enhancements, each cancelling one impairment.
    pub enhanced: u8,
    /// The attacker's size.
    pub size: Size,
    /// A sweep attack: half damage (MUR-R58).
    pub half: bool,
    /// A blast aimed at one large or massive character: double damage (MUR-R58).
    pub double: bool,
    /// The armour of the one hit, all included (armour, shield, cover, the size's armour
    /// multiplier).
    pub armour: u32,
    /// Direct damage: armour does not reduce it and a helmet does not help.
    pub direct: bool,
}

impl DamageSpec {
    /// A plain roll of `die` by a medium attacker against no armour.
    pub fn new(die: Die) -> DamageSpec {
        DamageSpec {
            die,
            impaired: 0,
            enhanced: 0,
            size: Size::Medium,
            half: false,
            double: false,
            armour: 0,
            direct: false,
        }
    }

    /// The roll's net impairment or enhancement.
    pub fn quality(&self) -> Quality {
        Quality::from_counts(self.impaired, self.enhanced)
    }

    /// The net power of two applied to the kept roll: the size's, -1 for a sweep, +1 for a blast
    /// aimed at one target (-3 to 3).
    pub fn exponent(&self) -> i32 {
        self.size.damage_exponent() - i32::from(self.half) + i32::from(self.double)
    }

    /// The damage of a kept roll of `raw` before armour: multiplied, or divided rounding up.
    pub fn scaled(&self, raw: usize) -> usize {
        let e = self.exponent();
        if e >= 0 {
            raw.saturating_mul(1 << e)
        } else {
            raw.div_ceil(1 << -e)
        }
    }

    /// The damage dealt by a kept roll of `raw`: [`scaled`](Self::scaled), less armour (unless
    /// direct), never below 0.
    pub fn dealt(&self, raw: usize) -> usize {
        self.scaled(raw).saturating_sub(self.armour_used())
    }

    /// The armour that counts: none against direct damage.
    fn armour_used(&self) -> usize {
        if self.direct { 0 } else { self.armour as usize }
    }

    /// The least kept roll whose [`scaled`](Self::scaled) damage is at least `m` (1 for `m` 0).
    fn least_raw_scaled(&self, m: usize) -> usize {
        let e = self.exponent();
        let least = if e >= 0 {
            m.div_ceil(1 << e)
        } else {
            (m.saturating_sub(1) << -e) + 1
        };
        least.max(1)
    }

    /// The number a division spreads over: 1, 2, 4 or 8.
    fn divisor(&self) -> usize {
        1 << (-self.exponent()).max(0)
    }

    /// Refuses armour above [`MAX_ARMOUR`].
    fn check(&self) -> Result<(), String> {
        if self.armour > MAX_ARMOUR {
            return Err(format!(
                "armour {}: armour is a whole number from 0 to {MAX_ARMOUR}",
                self.armour
            ));
        }
        Ok(())
    }
}

/// The roll kept from the totals of two exploding rolls under `quality`: the lower for
/// impaired, the higher for enhanced, the first for a plain roll (no second roll is made), and 0
/// for no damage (no roll at all). An impaired d8 rolling 3 and 7 keeps 3.
pub fn kept_total(quality: Quality, first: u32, second: u32) -> u32 {
    match quality {
        Quality::NoDamage => 0,
        Quality::Impaired => first.min(second),
        Quality::Plain => first,
        Quality::Enhanced => first.max(second),
    }
}

/// The value of one exploding damage roll from the faces shown, in order: each highest face
/// counts one less and calls for another face, the first other face ends the roll. `[6, 6, 3]`
/// on a d6 is `5 + 5 + 3 = 13`.
///
/// Errors: a face outside the die, no face, faces after the roll ended, or a roll still waiting
/// for a face (the last one shown is the highest).
pub fn exploding_total(die: Die, faces: &[u32]) -> Result<u32, String> {
    let n = die.sides();
    let mut total = 0u32;
    for (i, &f) in faces.iter().enumerate() {
        if !(1..=n).contains(&f) {
            return Err(format!("a {die} has no face {f}"));
        }
        if f == n {
            total = total.saturating_add(n - 1);
        } else if i + 1 == faces.len() {
            return Ok(total.saturating_add(f));
        } else {
            return Err(format!(
                "the roll ended on face {} ({f}); the faces after it are not part of it",
                i + 1
            ));
        }
    }
    Err(format!(
        "the {die} roll is not over: its last face shown is the highest, so it rolls again"
    ))
}

/// The least damage at once that is critical for a character with `health` left: half of it
/// rounded up, 1 more with a helmet unless the damage is direct, never more than `health` (losing
/// it all is critical too).
pub fn critical_threshold(health: u32, helmet: bool, direct: bool) -> u32 {
    (health.div_ceil(2) + u32::from(helmet && !direct)).min(health)
}

/// The one hit: its health now and at most, and whether a helmet protects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    /// Health left (at least 1).
    pub health: u32,
    /// Maximum health (size and the tough skill included): a hit of this much kills outright.
    pub max_health: u32,
    /// A helmet: critical damage needs 1 more, except from direct damage.
    pub helmet: bool,
}

impl Target {
    /// A target at full health `max_health`, without a helmet.
    pub fn full(max_health: u32) -> Target {
        Target {
            health: max_health,
            max_health,
            helmet: false,
        }
    }

    /// Refuses health outside 1..=max_health or a maximum above [`MAX_HEALTH`].
    fn check(&self) -> Result<(), String> {
        if self.max_health == 0 || self.max_health > MAX_HEALTH {
            return Err(format!(
                "health {}/{}: maximum health is a whole number from 1 to {MAX_HEALTH}",
                self.health, self.max_health
            ));
        }
        if self.health == 0 || self.health > self.max_health {
            return Err(format!(
                "health {}/{}: health left is a whole number from 1 to the maximum",
                self.health, self.max_health
            ));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Exact distributions with a tail
// ---------------------------------------------------------------------------------------------

/// An exact distribution of a damage value with a bucket for everything above a cap:
/// `counts()[v]` of `total()` equally likely outcomes give exactly `v` (for `v` up to
/// [`cap`](Self::cap)), and `tail()` of them give more than the cap.
///
/// Invariants: `counts` is not empty and `total` is the sum of `counts` and `tail`, so the
/// chances add up to exactly 1. Serialised as `{"total", "cap", "mean", "outcomes": [{"value",
/// "count", "p_eq", "p_ge"}], "more_than": {"value", "count", "p"}}`, counts as decimal strings;
/// outcomes list only values that can happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TailDist {
    /// Outcomes giving each value from 0 to the cap.
    counts: Vec<Count>,
    /// Outcomes giving more than the cap.
    tail: Count,
    /// All outcomes.
    total: Count,
}

impl TailDist {
    /// The value `v` for certain.
    fn constant(v: usize) -> TailDist {
        let mut counts = vec![Count::zero(); v + 1];
        counts[v] = count(1);
        TailDist {
            counts,
            tail: Count::zero(),
            total: count(1),
        }
    }

    /// The largest value whose chance is known on its own.
    pub fn cap(&self) -> usize {
        self.counts.len() - 1
    }

    /// Outcomes giving each value from 0 to the cap.
    pub fn counts(&self) -> &[Count] {
        &self.counts
    }

    /// Outcomes giving more than the cap.
    pub fn tail(&self) -> &Count {
        &self.tail
    }

    /// All outcomes.
    pub fn total(&self) -> &Count {
        &self.total
    }

    /// Outcomes giving exactly `v`: `None` above the cap, unless nothing lies there.
    pub fn count_eq(&self, v: usize) -> Option<Count> {
        match self.counts.get(v) {
            Some(c) => Some(c.clone()),
            None => self.tail.is_zero().then(Count::zero),
        }
    }

    /// Outcomes giving `v` or more: `None` above the cap plus 1, unless nothing lies there.
    pub fn count_ge(&self, v: usize) -> Option<Count> {
        if v > self.counts.len() {
            return self.tail.is_zero().then(Count::zero);
        }
        Some(self.counts[v..].iter().fold(self.tail.clone(), |acc, c| add(&acc, c)))
    }

    /// The chance of `v` or more, as [`count_ge`](Self::count_ge).
    pub fn chance_ge(&self, v: usize) -> Option<Chance> {
        self.count_ge(v).map(|c| Chance::new(c, self.total.clone()))
    }

    /// The sum of every outcome's value, those above the cap counted as cap + 1.
    fn value_sum_low(&self) -> Count {
        let body = self
            .counts
            .iter()
            .enumerate()
            .fold(Count::zero(), |acc, (v, c)| add(&acc, &c.mul_small(v as u32)));
        add(&body, &self.tail.mul_small(self.counts.len() as u32))
    }

    /// The mean value, counting the values above the cap as cap + 1: low by the tail's chance
    /// times its excess, below 1e-6 for every distribution this module builds.
    pub fn mean_low(&self) -> f64 {
        self.value_sum_low().ratio(&self.total)
    }

    /// [`mean_low`](Self::mean_low) rounded exactly to one decimal, as text.
    fn mean_text(&self) -> String {
        tenths(&self.value_sum_low(), &self.total)
    }

    /// The distribution of `f(X)` for a non-decreasing `f`. Values above the cap go to the tail,
    /// so the new cap is `f(cap + 1) - 1`, or the largest `f(v)` if the tail is empty; `None` if
    /// nothing would be known (`f(cap + 1)` is 0).
    fn map_up(&self, f: impl Fn(usize) -> usize) -> Option<TailDist> {
        let cap = if self.tail.is_zero() {
            (0..self.counts.len())
                .filter(|&v| !self.counts[v].is_zero())
                .map(&f)
                .max()?
        } else {
            f(self.counts.len()).checked_sub(1)?
        };
        let mut counts = vec![Count::zero(); cap + 1];
        let mut tail = self.tail.clone();
        for (v, c) in self.counts.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
            match counts.get_mut(f(v)) {
                Some(slot) => *slot = add(slot, c),
                None => tail = add(&tail, c),
            }
        }
        Some(TailDist {
            counts,
            tail,
            total: self.total.clone(),
        })
    }

    /// The same distribution with cap `k`: values above `k` join the tail, or zeros are added up
    /// to `k`; `None` if `k` is above the cap and the tail is not empty.
    fn with_cap(&self, k: usize) -> Option<TailDist> {
        if k > self.cap() && !self.tail.is_zero() {
            return None;
        }
        let mut counts = self.counts.clone();
        counts.resize(k + 1, Count::zero());
        let moved = self
            .counts
            .get(k + 1..)
            .unwrap_or_default()
            .iter()
            .fold(Count::zero(), |a, c| add(&a, c));
        Some(TailDist {
            counts,
            tail: add(&self.tail, &moved),
            total: self.total.clone(),
        })
    }

    /// The value when it comes with chance `hits / outcomes`, and 0 otherwise.
    fn with_hit_chance(&self, hits: u64, outcomes: u64) -> TailDist {
        let (h, o) = (count(hits), count(outcomes));
        let mut counts: Vec<Count> = self.counts.iter().map(|c| c * &h).collect();
        let misses = &self.total * &count(outcomes - hits.min(outcomes));
        counts[0] = add(&counts[0], &misses);
        TailDist {
            counts,
            tail: &self.tail * &h,
            total: &self.total * &o,
        }
    }

    /// A table of P(exactly) and P(at least) for every value that can happen, headed by `label`,
    /// ending with the rest in one row once it rounds below 0.1% (and always with what lies above
    /// the cap).
    fn table(&self, label: &str) -> String {
        let width = label.len().max(9);
        let mut s = format!("  {label:>width$}  P(exactly)  P(at least)\n");
        let mut at_least = self.total.clone();
        for (v, c) in self.counts.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
            let _ = writeln!(
                s,
                "  {v:>width$}  {:>10}  {:>11}",
                percent(c, &self.total),
                percent(&at_least, &self.total)
            );
            at_least = at_least.checked_sub(c).unwrap_or_default();
            // Stop once what is left rounds below 0.1%: 2000 * rest < total.
            if !at_least.is_zero() && at_least.mul_small(2000) < self.total {
                let _ = writeln!(
                    s,
                    "  {:>width$}  {:>10}",
                    format!("more than {v}"),
                    percent(&at_least, &self.total)
                );
                return s;
            }
        }
        if !self.tail.is_zero() {
            let _ = writeln!(
                s,
                "  {:>width$}  {:>10}",
                format!("more than {}", self.cap()),
                percent(&self.tail, &self.total)
            );
        }
        s
    }
}

/// One value of a [`TailDist`] in JSON.
#[derive(Serialize)]
struct OutcomeJson<'a> {
    value: usize,
    count: &'a Count,
    p_eq: f64,
    p_ge: f64,
}

/// The bucket above the cap in JSON.
#[derive(Serialize)]
struct TailJson<'a> {
    value: usize,
    count: &'a Count,
    p: f64,
}

/// A [`TailDist`] in JSON.
#[derive(Serialize)]
struct TailDistJson<'a> {
    total: &'a Count,
    cap: usize,
    mean: f64,
    outcomes: Vec<OutcomeJson<'a>>,
    more_than: TailJson<'a>,
}

impl Serialize for TailDist {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut at_least = self.total.clone();
        let mut outcomes = Vec::new();
        for (value, count) in self.counts.iter().enumerate() {
            if !count.is_zero() {
                outcomes.push(OutcomeJson {
                    value,
                    count,
                    p_eq: count.ratio(&self.total),
                    p_ge: at_least.ratio(&self.total),
                });
            }
            at_least = at_least.checked_sub(count).unwrap_or_default();
        }
        TailDistJson {
            total: &self.total,
            cap: self.cap(),
            mean: self.mean_low(),
            outcomes,
            more_than: TailJson {
                value: self.cap(),
                count: &self.tail,
                p: self.tail.ratio(&self.total),
            },
        }
        .serialize(s)
    }
}

// ---------------------------------------------------------------------------------------------
// Damage rolls
// ---------------------------------------------------------------------------------------------

/// The smallest number of explosions of a `die` after which fewer than 1 roll in 10^9 goes on.
fn base_depth(die: Die) -> usize {
    let n = u128::from(die.sides());
    let mut d = 1;
    while n.pow(d) < TAIL_ODDS {
        d += 1;
    }
    d as usize
}

/// The explosions to follow for `spec` so that every dealt value up to `need` and the damage of
/// [`BREAKS_ARMOUR`] before armour lie inside the exact part, and fewer than 1 roll in 10^9 of a
/// die goes beyond that (a division's rounding block included).
fn depth_for(spec: &DamageSpec, need: usize) -> usize {
    let step = (spec.die.sides() - 1) as usize;
    let least = spec
        .least_raw_scaled(need.max(1) + spec.armour_used())
        .max(spec.least_raw_scaled(BREAKS_ARMOUR));
    base_depth(spec.die) + (least + spec.divisor()).div_ceil(step)
}

/// One exploding roll of `die` followed through `depth` explosions: the `N^depth` equally
/// likely padded sequences; the value `(N-1)k + r` takes `N^(depth-k-1)` of them, the one
/// sequence of `depth` highest faces is the tail (more than `(N-1) * depth`).
fn exploding(die: Die, depth: usize) -> TailDist {
    let n = die.sides();
    let step = (n - 1) as usize;
    let mut powers = vec![count(1)];
    for i in 0..depth {
        let next = powers[i].mul_small(n);
        powers.push(next);
    }
    let cap = step * depth;
    let counts = (0..=cap)
        .map(|v| {
            if v == 0 {
                Count::zero()
            } else {
                powers[depth - (v - 1) / step - 1].clone()
            }
        })
        .collect();
    TailDist {
        counts,
        tail: count(1),
        total: powers[depth].clone(),
    }
}

/// The kept roll of `die` with `quality`, each roll followed through `depth` explosions (no roll
/// at all for [`Quality::NoDamage`]).
///
/// With one roll's counts `x`, `ge(v)` the outcomes of `v` or more (tail included) and `le(v)`
/// those of `v` or less: the lower of two is `v` in `x(v) * (ge(v) + ge(v + 1))` of the joint
/// outcomes, the higher in `x(v) * (le(v) + le(v - 1))`.
fn kept_roll(die: Die, quality: Quality, depth: usize) -> TailDist {
    let one = exploding(die, depth);
    let x = &one.counts;
    let len = x.len();
    match quality {
        Quality::NoDamage => TailDist::constant(0),
        Quality::Plain => one,
        Quality::Impaired => {
            // ge[v] for v in 0..=len (ge[len] is the tail).
            let mut ge = vec![one.tail.clone(); len + 1];
            for v in (0..len).rev() {
                ge[v] = add(&ge[v + 1], &x[v]);
            }
            let counts = (0..len).map(|v| &x[v] * &add(&ge[v], &ge[v + 1])).collect();
            TailDist {
                counts,
                tail: &one.tail * &one.tail,
                total: &one.total * &one.total,
            }
        }
        Quality::Enhanced => {
            // le[v + 1] for v in 0..len (le[0] is nothing).
            let mut le = vec![Count::zero(); len + 1];
            for v in 0..len {
                le[v + 1] = add(&le[v], &x[v]);
            }
            let counts = (0..len).map(|v| &x[v] * &add(&le[v + 1], &le[v])).collect();
            let total = &one.total * &one.total;
            let body = &le[len] * &le[len];
            TailDist {
                counts,
                tail: total.checked_sub(&body).unwrap_or_default(),
                total,
            }
        }
    }
}

/// What a hit does to a target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Consequences {
    /// The one hit.
    pub target: Target,
    /// The least damage that is critical (helmet counted unless the damage is direct).
    pub critical_from: u32,
    /// No damage at all.
    pub no_damage: Chance,
    /// Critical damage: incapacitated (or disabled), dying included.
    pub critical: Chance,
    /// Dying: all the health left is lost.
    pub dying: Chance,
    /// Killed outright: a single hit of at least the maximum health.
    pub killed: Chance,
}

/// The consequences of damage `dealt` (direct or not) to `target`.
fn consequences(dealt: &TailDist, target: Target, direct: bool) -> Result<Consequences, String> {
    let critical_from = critical_threshold(target.health, target.helmet, direct);
    let ge = |v: u32| {
        dealt
            .chance_ge(v as usize)
            .ok_or_else(|| format!("damage of {v} lies beyond the part worked out exactly (a bug)"))
    };
    let none = dealt.count_eq(0).unwrap_or_default();
    Ok(Consequences {
        target,
        critical_from,
        no_damage: Chance::new(none, dealt.total.clone()),
        critical: ge(critical_from)?,
        dying: ge(target.health)?,
        killed: ge(target.max_health)?,
    })
}

/// A chance too small for a percentage, in scientific notation (`0` when it cannot happen).
fn small(num: &Count, den: &Count) -> String {
    if num.is_zero() {
        "0".to_string()
    } else {
        format!("{:.1e}", num.ratio(den))
    }
}

/// [`Consequences`] as one line, after `lead`.
fn consequences_line(lead: &str, c: &Consequences) -> String {
    let t = c.target;
    let helmet = if t.helmet { ", helmet" } else { "" };
    format!(
        "{lead} (health {}/{}{helmet}): no damage {}, critical ({}+) {}, dying ({}+) {}, killed outright ({}+) {}\n",
        t.health,
        t.max_health,
        c.no_damage.percent(),
        c.critical_from,
        c.critical.percent(),
        t.health,
        c.dying.percent(),
        t.max_health,
        c.killed.percent()
    )
}

/// The odds of one damage roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DamageOdds {
    /// What was rolled.
    pub spec: DamageSpec,
    /// The impairment or enhancement left.
    pub quality: Quality,
    /// Explosions followed exactly on each roll.
    pub depth: usize,
    /// The kept roll, before size and armour.
    pub rolled: TailDist,
    /// The damage dealt, after size, sweep or blast, and armour.
    pub dealt: TailDist,
    /// What it does to the target, if its health is given.
    pub consequences: Option<Consequences>,
    /// A damaged weapon breaks: the kept roll shows a natural 1 (MUR-R49, MUR-H25).
    pub weapon_breaks: Chance,
    /// A damaged shield or armour breaks: 8 or more before armour (MUR-R50).
    pub armour_breaks: Chance,
}

/// The odds of the damage `spec` and, with a `target`, what it does to it.
///
/// Errors: armour above [`MAX_ARMOUR`], a target's health outside 1..=max or a maximum above
/// [`MAX_HEALTH`].
pub fn damage(spec: &DamageSpec, target: Option<Target>) -> Result<DamageOdds, String> {
    let need = target.map_or(1, |t| t.max_health as usize);
    damage_exact_to(spec, target, need)
}

/// [`damage`], with every dealt value up to `need` inside the exact part.
fn damage_exact_to(spec: &DamageSpec, target: Option<Target>, need: usize) -> Result<DamageOdds, String> {
    spec.check()?;
    if let Some(t) = &target {
        t.check()?;
    }
    let quality = spec.quality();
    let depth = if quality == Quality::NoDamage {
        0
    } else {
        depth_for(spec, need)
    };
    let rolled = kept_roll(spec.die, quality, depth);
    let dealt = rolled
        .map_up(|x| spec.dealt(x))
        .ok_or_else(|| "no damage value could be worked out exactly (a bug)".to_string())?;
    let consequences = target.map(|t| consequences(&dealt, t, spec.direct)).transpose()?;
    let weapon_breaks = Chance::new(rolled.count_eq(1).unwrap_or_default(), rolled.total.clone());
    let armour_breaks = rolled
        .chance_ge(spec.least_raw_scaled(BREAKS_ARMOUR))
        .ok_or_else(|| "8 damage lies beyond the part worked out exactly (a bug)".to_string())?;
    Ok(DamageOdds {
        spec: *spec,
        quality,
        depth,
        rolled,
        dealt,
        consequences,
        weapon_breaks,
        armour_breaks,
    })
}

/// The roll of `spec` in words: die, impairment, size and armour.
fn spec_text(spec: &DamageSpec) -> String {
    let n = spec.die.sides();
    let roll = match spec.quality() {
        Quality::NoDamage => return format!("{} impaired twice or more: no damage at all", spec.die),
        Quality::Plain => {
            let article = if n == 8 { "an" } else { "a" };
            format!(
                "{} exploding ({article} {n} counts {} and rolls again)",
                spec.die,
                n - 1
            )
        }
        Quality::Impaired => format!("{} impaired (the lower of two exploding rolls)", spec.die),
        Quality::Enhanced => format!("{} enhanced (the higher of two exploding rolls)", spec.die),
    };
    let mut parts = vec![roll];
    if spec.size != Size::Medium {
        parts.push(format!("a {} attacker", spec.size.name()));
    }
    if spec.half {
        parts.push("a sweep (half)".to_string());
    }
    if spec.double {
        parts.push("a blast at one target (double)".to_string());
    }
    let e = spec.exponent();
    if e != 0 || spec.size != Size::Medium || spec.half || spec.double {
        parts.push(match e {
            0 => "net x1".to_string(),
            e if e > 0 => format!("net x{}", 1 << e),
            e => format!("net /{} rounded up", 1 << -e),
        });
    }
    parts.push(match (spec.direct, spec.armour) {
        (true, 0) => "direct".to_string(),
        (true, a) => format!("direct (armour {a} ignored)"),
        (false, 0) => "no armour".to_string(),
        (false, a) => format!("armour {a}"),
    });
    parts.join(", ")
}

/// [`DamageOdds`] as text.
pub fn damage_text(o: &DamageOdds) -> String {
    let mut s = format!("damage: {}\n", spec_text(&o.spec));
    push_damage_body(&mut s, o, "damage dealt", "against the target");
    s
}

/// The lines shared by damage, attack and counter: mean, table, consequences, gear.
fn push_damage_body(s: &mut String, o: &DamageOdds, what: &str, lead: &str) {
    let d = &o.dealt;
    let none = Chance::new(d.count_eq(0).unwrap_or_default(), d.total.clone());
    let _ = writeln!(s, "{what}: {} on average, none {}", d.mean_text(), none.percent());
    s.push_str(&d.table("damage"));
    if let Some(c) = &o.consequences {
        s.push_str(&consequences_line(lead, c));
    }
    if o.quality != Quality::NoDamage {
        let _ = writeln!(
            s,
            "gear: a damaged weapon breaks (kept die shows 1) {}; a damaged shield or armour breaks (8+ before armour) {}",
            o.weapon_breaks.percent(),
            o.armour_breaks.percent()
        );
        let _ = writeln!(
            s,
            "exact through {} explosions per roll; more than {} has chance {} (never dropped)",
            o.depth,
            d.cap(),
            small(&d.tail, &d.total)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Attacks
// ---------------------------------------------------------------------------------------------

/// One attack to work out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AttackSpec {
    /// The damage and the target's armour.
    pub damage: DamageSpec,
    /// The attacker's WIT, if a save to hit is needed (MUR-R13).
    pub hit: Option<i32>,
    /// The target's AGI, if it dodges (MUR-R20).
    pub dodge: Option<i32>,
    /// The target's health, for the consequences.
    pub target: Option<Target>,
}

/// The odds of one attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AttackOdds {
    /// What was worked out.
    pub spec: AttackSpec,
    /// The chance that the save to hit passes, if one is needed.
    pub to_hit: Option<Chance>,
    /// The chance that the dodge passes, if the target dodges.
    pub dodged: Option<Chance>,
    /// The chance that the attack hits: to hit passed and dodge failed.
    pub hit: Chance,
    /// The damage given a hit, and its consequences given a hit.
    pub on_hit: DamageOdds,
    /// The damage per attack (a miss deals 0).
    pub per_attack: TailDist,
    /// The consequences per attack, if the target's health is given.
    pub consequences: Option<Consequences>,
}

/// The odds of the attack `spec`.
///
/// Errors: a score outside [`MIN_SCORE`]..=[`MAX_SCORE`], and those of [`damage`].
pub fn attack(spec: &AttackSpec) -> Result<AttackOdds, String> {
    let to_hit = spec
        .hit
        .map(|s| save(s, None).map(|o| o.pass).map_err(|e| format!("hit: {e}")))
        .transpose()?;
    let dodged = spec
        .dodge
        .map(|s| save(s, None).map(|o| o.pass).map_err(|e| format!("dodge: {e}")))
        .transpose()?;
    let d20 = u64::from(D20);
    let mut hits = 1u64;
    let mut outcomes = 1u64;
    if let Some(s) = spec.hit {
        hits *= u64::from(passing_faces(s));
        outcomes *= d20;
    }
    if let Some(s) = spec.dodge {
        hits *= d20 - u64::from(passing_faces(s));
        outcomes *= d20;
    }
    let on_hit = damage(&spec.damage, spec.target)?;
    let per_attack = on_hit.dealt.with_hit_chance(hits, outcomes);
    let consequences = spec
        .target
        .map(|t| consequences(&per_attack, t, spec.damage.direct))
        .transpose()?;
    Ok(AttackOdds {
        spec: *spec,
        to_hit,
        dodged,
        hit: Chance::of(hits, outcomes),
        on_hit,
        per_attack,
        consequences,
    })
}

/// [`AttackOdds`] as text.
pub fn attack_text(o: &AttackOdds) -> String {
    let mut s = format!("attack: {}\n", spec_text(&o.spec.damage));
    let hit_save = match (o.spec.hit, &o.to_hit) {
        (Some(w), Some(c)) => format!("save to hit against WIT {w} {}", c.percent()),
        _ => "no save to hit".to_string(),
    };
    let dodge = match (o.spec.dodge, &o.dodged) {
        (Some(a), Some(c)) => format!("dodge against AGI {a} {}", c.percent()),
        _ => "no dodge".to_string(),
    };
    let _ = writeln!(s, "{hit_save}; {dodge}; hit {}", o.hit.percent());
    let _ = writeln!(s, "damage per attack: {} on average", o.per_attack.mean_text());
    if let Some(c) = &o.consequences {
        s.push_str(&consequences_line("per attack, against the target", c));
    }
    push_damage_body(&mut s, &o.on_hit, "damage on a hit", "on a hit, against the target");
    s
}

/// A one-line summary of an attack for the play prompt, such as `hit 45.0%, damage 1.8 on average
/// after armour (4.0 on a hit), critical 20.3%, dying 9.1%, killed 0.4%` (the last three only
/// with the target's health). The chances are per attack, misses included. Bad input gives a
/// line saying why instead.
pub fn attack_note(spec: &AttackSpec) -> String {
    let o = match attack(spec) {
        Ok(o) => o,
        Err(e) => return format!("no odds: {e}"),
    };
    let mut s = format!(
        "hit {}, damage {} on average after armour ({} on a hit)",
        o.hit.percent(),
        o.per_attack.mean_text(),
        o.on_hit.dealt.mean_text()
    );
    if let Some(c) = &o.consequences {
        let _ = write!(
            s,
            ", critical {}, dying {}, killed {}",
            c.critical.percent(),
            c.dying.percent(),
            c.killed.percent()
        );
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Counters
// ---------------------------------------------------------------------------------------------

/// One blow of a counter exchange: its damage (with the armour of the one it hits) and, if
/// given, the health of the one it hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Blow {
    /// The damage and the armour of the one hit.
    pub damage: DamageSpec,
    /// The health of the one hit.
    pub target: Option<Target>,
}

/// How a counter exchange goes, from the two damages after reductions (MUR-R21): the part of
/// [`CounterOdds`] that compares them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Exchange {
    /// Both damages are compared exactly up to this value.
    pub cap: usize,
    /// The attack deals more: it lands first.
    pub attack_first: Chance,
    /// The counter deals more: it lands first.
    pub counter_first: Chance,
    /// Equal damage (0 against 0 included): both land together.
    pub together: Chance,
    /// Both damages above the cap: the order is not worked out.
    pub undecided: Chance,
    /// The attack lands first and leaves the counterer critically damaged (incapacitated or
    /// dying), so the counter never lands; needs the counterer's health.
    pub counter_stopped: Option<Chance>,
    /// The counter lands first and leaves the attacker critically damaged, so the attack never
    /// lands; needs the attacker's health.
    pub attack_stopped: Option<Chance>,
    /// What the attack does to the counterer once the exchange is over (a stopped attack deals
    /// nothing); needs both healths. Undecided outcomes are in none of its chances.
    pub attack_after: Option<Consequences>,
    /// What the counter does to the attacker once the exchange is over; needs both healths.
    pub counter_after: Option<Consequences>,
}

/// The odds of an attack met by a counter (MUR-R21). In JSON the [`Exchange`] fields stand
/// beside `attack` and `counter`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CounterOdds {
    /// The attack's damage to the counterer (its consequences as if it lands).
    pub attack: DamageOdds,
    /// The counter's damage to the attacker (its consequences as if it lands).
    pub counter: DamageOdds,
    /// How the exchange goes.
    #[serde(flatten)]
    pub exchange: Exchange,
}

/// Prefix sums: `lt[v]` is the outcomes below `v`, for `v` in 0..=cap+1.
fn below(d: &TailDist) -> Vec<Count> {
    let mut lt = vec![Count::zero(); d.counts.len() + 1];
    for (v, c) in d.counts.iter().enumerate() {
        lt[v + 1] = add(&lt[v], c);
    }
    lt
}

/// The outcomes of the pair (`x`, `y`), both with the same cap, in which `x` lands first
/// (`x > y`) with at least `from` (at most the cap plus 1): `x` at the cap or below against a
/// lower `y`, or `x` above the cap against `y` at the cap or below.
fn first_with_at_least(x: &TailDist, y: &TailDist, y_below: &[Count], from: usize) -> Count {
    let body = x
        .counts
        .iter()
        .enumerate()
        .skip(from)
        .fold(Count::zero(), |acc, (v, c)| add(&acc, &(c * &y_below[v])));
    let y_body = y.total.checked_sub(&y.tail).unwrap_or_default();
    add(&body, &(&x.tail * &y_body))
}

/// The victim of a blow: its health, and whether the blow is direct (no helmet then).
type Victim = (Target, bool);

/// The least damage of a blow that is critical for its victim.
fn stops_from(victim: Victim) -> usize {
    let (t, direct) = victim;
    critical_threshold(t.health, t.helmet, direct) as usize
}

/// What blow `x` does to `victim` once the exchange is over, `y` being the other blow (same cap)
/// and `y_stops_from` the least `y` that stops `x` when `y` comes first. Undecided outcomes
/// (both above the cap) are left out.
fn after_exchange(x: &TailDist, y: &TailDist, victim: Victim, y_stops_from: usize) -> Consequences {
    let (target, direct) = victim;
    let total = &x.total * &y.total;
    // ge_y[u]: outcomes of y at u or more, for u in 0..=cap+1.
    let mut ge_y = vec![y.tail.clone(); y.counts.len() + 1];
    for u in (0..y.counts.len()).rev() {
        ge_y[u] = add(&ge_y[u + 1], &y.counts[u]);
    }
    let y_body = y.total.checked_sub(&y.tail).unwrap_or_default();
    // x lands with at least t: x = v (t <= v <= cap) and y does not stop it, or x above the cap
    // and y at the cap or below (which never stops it).
    let lands_at_least = |t: usize| {
        let body = x.counts.iter().enumerate().skip(t).fold(Count::zero(), |acc, (v, c)| {
            let stops = ge_y.get((v + 1).max(y_stops_from)).cloned().unwrap_or_default();
            add(&acc, &(c * &y.total.checked_sub(&stops).unwrap_or_default()))
        });
        add(&body, &(&x.tail * &y_body))
    };
    let critical_from = critical_threshold(target.health, target.helmet, direct);
    let undecided = &x.tail * &y.tail;
    let decided = total.checked_sub(&undecided).unwrap_or_default();
    let hurt = lands_at_least(1);
    let chance = |c: Count| Chance::new(c, total.clone());
    Consequences {
        target,
        critical_from,
        no_damage: chance(decided.checked_sub(&hurt).unwrap_or_default()),
        critical: chance(lands_at_least(critical_from as usize)),
        dying: chance(lands_at_least(target.health as usize)),
        killed: chance(lands_at_least(target.max_health as usize)),
    }
}

/// How an exchange goes between the attack's damage `a` to the counterer and the counter's
/// damage `c` to the attacker, each exact up to every threshold of the victims given.
fn exchange(
    a: &TailDist,
    c: &TailDist,
    counterer: Option<Victim>,
    attacker: Option<Victim>,
) -> Result<Exchange, String> {
    // The common cap: the lower of the caps with something above them.
    let cap = [a, c]
        .into_iter()
        .filter(|d| !d.tail.is_zero())
        .map(TailDist::cap)
        .min()
        .unwrap_or_else(|| a.cap().max(c.cap()));
    let bug = || "the two damages have no common exact part (a bug)".to_string();
    let a = a.with_cap(cap).ok_or_else(bug)?;
    let c = c.with_cap(cap).ok_or_else(bug)?;
    let thresholds = [counterer, attacker]
        .into_iter()
        .flatten()
        .map(|(t, _)| t.max_health as usize);
    let tails = !a.tail.is_zero() || !c.tail.is_zero();
    if tails && thresholds.max().is_some_and(|t| t > cap + 1) {
        return Err(bug());
    }
    let (a_below, c_below) = (below(&a), below(&c));
    let total = &a.total * &c.total;
    let chance = |n: Count| Chance::new(n, total.clone());
    let together = a
        .counts
        .iter()
        .zip(&c.counts)
        .fold(Count::zero(), |acc, (x, y)| add(&acc, &(x * y)));
    let (attack_after, counter_after) = match (counterer, attacker) {
        (Some(ce), Some(at)) => (
            Some(after_exchange(&a, &c, ce, stops_from(at))),
            Some(after_exchange(&c, &a, at, stops_from(ce))),
        ),
        _ => (None, None),
    };
    Ok(Exchange {
        cap,
        attack_first: chance(first_with_at_least(&a, &c, &c_below, 0)),
        counter_first: chance(first_with_at_least(&c, &a, &a_below, 0)),
        together: chance(together),
        undecided: chance(&a.tail * &c.tail),
        counter_stopped: counterer.map(|v| chance(first_with_at_least(&a, &c, &c_below, stops_from(v)))),
        attack_stopped: attacker.map(|v| chance(first_with_at_least(&c, &a, &a_below, stops_from(v)))),
        attack_after,
        counter_after,
    })
}

/// The odds of `attack` met by `counter`: each blow's damage after reductions, which lands first,
/// and, with healths, which first blow stops the other.
///
/// Errors: those of [`damage`] for either blow.
pub fn counter(attack: &Blow, counter: &Blow) -> Result<CounterOdds, String> {
    // Both healths are checked before either sets how far the rolls are followed.
    for (what, blow) in [("the attack", attack), ("the counter", counter)] {
        if let Some(t) = &blow.target {
            t.check().map_err(|e| format!("{what}: {e}"))?;
        }
    }
    let need = [attack.target, counter.target]
        .iter()
        .flatten()
        .map(|t| t.max_health as usize)
        .max()
        .unwrap_or(1);
    let a = damage_exact_to(&attack.damage, attack.target, need).map_err(|e| format!("the attack: {e}"))?;
    let c = damage_exact_to(&counter.damage, counter.target, need).map_err(|e| format!("the counter: {e}"))?;
    let counterer = attack.target.map(|t| (t, attack.damage.direct));
    let attacker = counter.target.map(|t| (t, counter.damage.direct));
    let exchange = exchange(&a.dealt, &c.dealt, counterer, attacker)?;
    Ok(CounterOdds {
        attack: a,
        counter: c,
        exchange,
    })
}

/// [`CounterOdds`] as text.
pub fn counter_text(o: &CounterOdds) -> String {
    let mut s = format!(
        "attack: {}\ncounter: {}\n",
        spec_text(&o.attack.spec),
        spec_text(&o.counter.spec)
    );
    let _ = writeln!(
        s,
        "damage after reductions: the attack {} on average, the counter {}; whoever would suffer more is hit first",
        o.attack.dealt.mean_text(),
        o.counter.dealt.mean_text()
    );
    let _ = write!(
        s,
        "the attack lands first {}, the counter lands first {}, both together {}",
        o.exchange.attack_first.percent(),
        o.exchange.counter_first.percent(),
        o.exchange.together.percent()
    );
    if o.exchange.undecided.num().is_zero() {
        s.push('\n');
    } else {
        let _ = writeln!(
            s,
            ", undecided (both above {}) {}",
            o.exchange.cap,
            small(o.exchange.undecided.num(), o.exchange.undecided.den())
        );
    }
    if let Some(c) = &o.exchange.counter_stopped {
        let _ = writeln!(
            s,
            "the attack comes first and is critical for the counterer, so the counter never lands: {}",
            c.percent()
        );
    }
    if let Some(c) = &o.exchange.attack_stopped {
        let _ = writeln!(
            s,
            "the counter comes first and is critical for the attacker, so the attack never lands: {}",
            c.percent()
        );
    }
    match (&o.exchange.attack_after, &o.exchange.counter_after) {
        (Some(a), Some(c)) => {
            s.push_str(&consequences_line("after the exchange, the counterer", a));
            s.push_str(&consequences_line("after the exchange, the attacker", c));
        }
        _ => {
            if let Some(c) = &o.attack.consequences {
                s.push_str(&consequences_line("if the attack lands, the counterer", c));
            }
            if let Some(c) = &o.counter.consequences {
                s.push_str(&consequences_line("if the counter lands, the attacker", c));
            }
        }
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Durability
// ---------------------------------------------------------------------------------------------

/// The odds of the durability roll after a fight (MUR-R48, MUR-H16).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DurabilityOdds {
    /// A robust item (1:8 rather than 1:4).
    pub robust: bool,
    /// The chance that one roll fails.
    pub fails: Chance,
    /// An undamaged item becomes damaged after the fight.
    pub damaged: Chance,
    /// A damaged (or fragile) item is destroyed after the fight.
    pub destroyed_if_damaged: Chance,
    /// Fights an undamaged item lasts on average, the one that destroys it included.
    pub fights_new: u32,
    /// Fights a damaged item lasts on average, the one that destroys it included.
    pub fights_damaged: u32,
}

/// The odds of a durability roll, for a `robust` item or not.
pub fn durability(robust: bool) -> DurabilityOdds {
    let sides = if robust { 8 } else { 4 };
    let fails = Chance::of(1, sides);
    DurabilityOdds {
        robust,
        damaged: fails.clone(),
        destroyed_if_damaged: fails.clone(),
        fails,
        // A failure is 1 in `sides`: on average `sides` rolls each, two failures from new.
        fights_new: 2 * sides as u32,
        fights_damaged: sides as u32,
    }
}

/// [`DurabilityOdds`] as text.
pub fn durability_text(o: &DurabilityOdds) -> String {
    let (kind, ratio) = if o.robust {
        ("a robust item", "1:8")
    } else {
        ("an item", "1:4")
    };
    format!(
        "durability of {kind}: the roll fails on {ratio} ({})\n\
         undamaged: becomes damaged {}; damaged or fragile: destroyed {}\n\
         fights lasted on average: {} from new, {} once damaged\n",
        o.fails.percent(),
        o.damaged.percent(),
        o.destroyed_if_damaged.percent(),
        o.fights_new,
        o.fights_damaged
    )
}

// ---------------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------------

/// The grammar of `fray odds murdham`, for error messages.
pub const GRAMMAR: &str = "expected one of: save S [larger|smaller] | group-save S S... | \
contest S S... | damage dN [DAMAGE] [TARGET] | attack dN [hit S] [dodge S] [DAMAGE] [TARGET] | \
counter dN [DAMAGE] [TARGET] vs dN [DAMAGE] [TARGET] | durability [robust]; \
words in any order after the calculation; S is a score up to 19 (0 or less: no save possible); \
dN is d4, d6, d8, d10, d12 or d20; DAMAGE is any of impaired, enhanced (each counts; impaired2 \
and enhanced2 count twice), size tiny|small|medium|large|massive, half, double, armour N, direct; \
TARGET is health H or health h/H, helmet; in a counter the words before vs are the attack and the \
one it hits, after vs the counter and the attacker";

/// Reads `value`, the number after `word`, as a score.
fn score_word(word: &str, value: &str) -> Result<i32, String> {
    let n = value
        .parse::<i32>()
        .map_err(|_| format!("{word} {value}: a score is a whole number up to {MAX_SCORE}"))?;
    check_score(word, n)?;
    Ok(n)
}

/// Reads `value`, the number after `word`, as a whole number in `lo..=hi`.
fn number(word: &str, value: &str, lo: u32, hi: u32, what: &str) -> Result<u32, String> {
    value
        .parse::<u32>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| format!("{word} {value}: {what} is a whole number from {lo} to {hi}"))
}

/// Reads `h/H` or `H` (full health) after `health`.
fn health_word(value: &str) -> Result<(u32, u32), String> {
    let (h, max) = match value.split_once('/') {
        Some((h, max)) => (h, max),
        None => (value, value),
    };
    let max = number("health", max, 1, MAX_HEALTH, "maximum health").map_err(|e| format!("{e} (health h/H or H)"))?;
    let h = number("health", h, 1, max, "health left").map_err(|e| format!("{e} (health h/H or H)"))?;
    Ok((h, max))
}

/// Everything a blow's words can say.
#[derive(Default)]
struct BlowWords {
    /// The damage die.
    die: Option<Die>,
    /// Impairments counted.
    impaired: u8,
    /// Enhancements counted.
    enhanced: u8,
    /// The attacker's size.
    size: Option<Size>,
    /// A sweep.
    half: bool,
    /// A blast at one target.
    double: bool,
    /// The armour of the one hit.
    armour: Option<u32>,
    /// Direct damage.
    direct: bool,
    /// Health left and maximum of the one hit.
    health: Option<(u32, u32)>,
    /// A helmet on the one hit.
    helmet: bool,
    /// WIT to hit.
    hit: Option<i32>,
    /// AGI to dodge.
    dodge: Option<i32>,
}

impl BlowWords {
    /// Reads the words of one blow of `command`; `saves` allows `hit S` and `dodge S`.
    fn read(command: &str, words: &[&str], saves: bool) -> Result<BlowWords, String> {
        let mut b = BlowWords::default();
        let mut it = words.iter().copied();
        let flag = |set: &mut bool, word: &str| {
            if std::mem::replace(set, true) {
                Err(format!("'{word}' is given twice"))
            } else {
                Ok(())
            }
        };
        while let Some(word) = it.next() {
            if let Some(die) = Die::parse(word) {
                let die = die?;
                if b.die.replace(die).is_some() {
                    return Err(format!("'{word}': a blow rolls one damage die"));
                }
                continue;
            }
            let mut value = |what: &str| it.next().ok_or_else(|| format!("'{word}' needs {what} after it"));
            match word {
                "impaired" => b.impaired = (b.impaired + 1).min(MAX_STEPS),
                "impaired2" => b.impaired = (b.impaired + 2).min(MAX_STEPS),
                "enhanced" => b.enhanced = (b.enhanced + 1).min(MAX_STEPS),
                "enhanced2" => b.enhanced = (b.enhanced + 2).min(MAX_STEPS),
                "half" => flag(&mut b.half, word)?,
                "double" => flag(&mut b.double, word)?,
                "direct" => flag(&mut b.direct, word)?,
                "helmet" => flag(&mut b.helmet, word)?,
                "size" => {
                    let v = value("a size")?;
                    let size = Size::parse(v)
                        .ok_or_else(|| format!("size {v}: a size is tiny, small, medium, large or massive"))?;
                    if b.size.replace(size).is_some() {
                        return Err("'size' is given twice".to_string());
                    }
                }
                "armour" | "armor" => {
                    let v = value("a number")?;
                    let a = number(word, v, 0, MAX_ARMOUR, "armour")?;
                    if b.armour.replace(a).is_some() {
                        return Err("'armour' is given twice".to_string());
                    }
                }
                "health" => {
                    let v = value("h/H or H")?;
                    if b.health.replace(health_word(v)?).is_some() {
                        return Err("'health' is given twice".to_string());
                    }
                }
                "hit" | "dodge" if saves => {
                    let v = value("a score")?;
                    let s = score_word(word, v)?;
                    let slot = if word == "hit" { &mut b.hit } else { &mut b.dodge };
                    if slot.replace(s).is_some() {
                        return Err(format!("'{word}' is given twice"));
                    }
                }
                _ => {
                    let more = if saves { ", hit S, dodge S" } else { "" };
                    return Err(format!(
                        "'{word}' is not understood in '{command}' (expected a die such as d6, impaired, enhanced, size X, half, double, armour N, direct, health h/H, helmet{more})"
                    ));
                }
            }
        }
        if b.helmet && b.health.is_none() {
            return Err("'helmet' only matters with 'health h/H'".to_string());
        }
        Ok(b)
    }

    /// The blow described, which must name its die; `what` names it in messages.
    fn blow(&self, what: &str) -> Result<Blow, String> {
        let die = self
            .die
            .ok_or_else(|| format!("{what} needs a damage die (d4, d6, d8, d10, d12 or d20)"))?;
        let damage = DamageSpec {
            die,
            impaired: self.impaired,
            enhanced: self.enhanced,
            size: self.size.unwrap_or(Size::Medium),
            half: self.half,
            double: self.double,
            armour: self.armour.unwrap_or(0),
            direct: self.direct,
        };
        let target = self.health.map(|(health, max_health)| Target {
            health,
            max_health,
            helmet: self.helmet,
        });
        Ok(Blow { damage, target })
    }
}

/// Reads every word as a score, for group saves and contests.
fn scores(command: &str, words: &[&str]) -> Result<Vec<i32>, String> {
    words
        .iter()
        .map(|w| {
            w.parse::<i32>()
                .map_err(|_| format!("'{w}' is not understood in '{command}' (expected scores)"))
                .and_then(|s| check_score("a score of", s).map(|()| s))
        })
        .collect()
}

/// Serialises a result and tags it with its kind.
fn to_json(kind: &str, value: &impl Serialize) -> Result<serde_json::Value, String> {
    let mut v = serde_json::to_value(value).map_err(|e| format!("cannot write the odds as JSON: {e}"))?;
    if let serde_json::Value::Object(map) = &mut v {
        map.insert("kind".to_string(), serde_json::Value::from(kind));
    }
    Ok(v)
}

/// Runs `fray odds murdham ARGS...`: reads the calculation (see [`GRAMMAR`]) and returns its
/// text and JSON (an object with a `kind`: `save`, `group-save`, `contest`, `damage`, `attack`,
/// `counter` or `durability`). Every error names the word at fault and ends with the grammar.
pub fn parse_and_run(args: &[String]) -> Result<(String, serde_json::Value), String> {
    run(args).map_err(|e| format!("{e}; {GRAMMAR}"))
}

/// [`parse_and_run`] without the grammar in its errors.
fn run(args: &[String]) -> Result<(String, serde_json::Value), String> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let Some((&command, rest)) = words.split_first() else {
        return Err("nothing to work out".to_string());
    };
    match command {
        "save" => {
            let mut score = None;
            let mut edge = None;
            for &w in rest {
                let e = match w {
                    "larger" => Some(SizeEdge::Larger),
                    "smaller" => Some(SizeEdge::Smaller),
                    _ => None,
                };
                if let Some(e) = e {
                    if edge.replace(e).is_some() {
                        return Err(format!("'{w}': say larger or smaller once"));
                    }
                } else if let Ok(n) = w.parse::<i32>() {
                    check_score("a score of", n)?;
                    if score.replace(n).is_some() {
                        return Err(format!("'{w}': a save has one score"));
                    }
                } else {
                    return Err(format!(
                        "'{w}' is not understood in 'save' (expected a score, larger or smaller)"
                    ));
                }
            }
            let score = score.ok_or("'save' needs a score")?;
            let o = save(score, edge)?;
            Ok((save_text(&o), to_json("save", &o)?))
        }
        "group-save" => {
            let o = group_save(&scores(command, rest)?)?;
            Ok((group_save_text(&o), to_json("group-save", &o)?))
        }
        "contest" => {
            let o = contest(&scores(command, rest)?)?;
            Ok((contest_text(&o), to_json("contest", &o)?))
        }
        "damage" => {
            let b = BlowWords::read(command, rest, false)?.blow("'damage'")?;
            let o = damage(&b.damage, b.target)?;
            Ok((damage_text(&o), to_json("damage", &o)?))
        }
        "attack" => {
            let w = BlowWords::read(command, rest, true)?;
            let b = w.blow("'attack'")?;
            let spec = AttackSpec {
                damage: b.damage,
                hit: w.hit,
                dodge: w.dodge,
                target: b.target,
            };
            let o = attack(&spec)?;
            Ok((attack_text(&o), to_json("attack", &o)?))
        }
        "counter" => {
            let split = rest
                .iter()
                .position(|&w| w == "vs")
                .ok_or("'counter' needs 'vs' between the attack and the counter")?;
            let (before, after) = (&rest[..split], &rest[split + 1..]);
            if after.contains(&"vs") {
                return Err("'vs' is given twice: a counter has one attack and one counter".to_string());
            }
            let a = BlowWords::read(command, before, false)?.blow("the attack (before 'vs')")?;
            let c = BlowWords::read(command, after, false)?.blow("the counter (after 'vs')")?;
            let o = counter(&a, &c)?;
            Ok((counter_text(&o), to_json("counter", &o)?))
        }
        "durability" => {
            let robust = match rest {
                [] => false,
                ["robust"] => true,
                [w, ..] if *w != "robust" => {
                    return Err(format!("'{w}' is not understood in 'durability' (expected robust)"));
                }
                _ => return Err("'durability' takes robust once at most".to_string()),
            };
            let o = durability(robust);
            Ok((durability_text(&o), to_json("durability", &o)?))
        }
        other => Err(format!("'{other}' is not a calculation")),
    }
}

#[cfg(test)]
#[path = "odds_tests.rs"]
mod tests;
