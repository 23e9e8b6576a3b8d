//! Dice and tests: the one place resolution draws dice (core rules 1 to 4).
//!
//! A test rolls its attribute die, its skill die, then the luck d20, then one die per
//! advantage or disadvantage reroll (docs/ingenuity.md "Dice order"; tests/it/dice_order.rs checks
//! it). Every action module rolls through these functions, so the order of the dice is written
//! once; a die's reason ([`Why`]) is formatted only when someone is asked or shown.

use crate::calc;
use crate::data::Attr;
use crate::event::{Die, Reroll, TestRoll};
use crate::setup::Cid;
use crate::state::Cx;
use fray_dice::{Dice, Faces};
use fray_engine::EngineError;
use std::fmt;

/// Rolls one die.
fn die(dice: &mut dyn Dice, sides: u16, why: &dyn fmt::Display) -> Result<u16, EngineError> {
    let mut f = Faces::new();
    dice.roll(1, sides, why, &mut f)?;
    Ok(f.iter().next().unwrap_or(1))
}

/// Why a die is rolled: "<name>'s <what>", then which die of a test, if any. Formatted only
/// when someone is asked or shown (a seeded roll never formats it).
struct Why<'a>(&'a str, &'a str, Part);

/// Which die of a test is rolled.
#[derive(Clone, Copy)]
enum Part {
    /// A die alone (a luck test, a misfire's pick).
    Whole,
    /// The attribute die, with its sides.
    Attribute(u8),
    /// The skill die, with its sides.
    Skill(u8),
    /// The luck die of a test.
    Luck,
    /// A reroll for advantage or disadvantage, with the sides of the die rerolled.
    Reroll(u8),
}

impl fmt::Display for Why<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'s {}", self.0, self.1)?;
        match self.2 {
            Part::Whole => Ok(()),
            Part::Attribute(n) => write!(f, " (attribute d{n})"),
            Part::Skill(n) => write!(f, " (skill d{n})"),
            Part::Luck => write!(f, " (luck d20)"),
            Part::Reroll(n) => write!(f, " (reroll d{n})"),
        }
    }
}

/// Rolls a test: attribute die + skill die + `bonus`, the luck die beside it, then rerolls for
/// the net advantage (core rules 1 to 4). `attack`: the luck die never adds +4 (ING-R38).
#[allow(clippy::too_many_arguments)]
pub fn roll_test(
    cx: &mut Cx,
    who: Cid,
    attr_die: u8,
    skill_die: u8,
    bonus: i16,
    advantage: i8,
    attack: bool,
    what: &str,
) -> Result<TestRoll, EngineError> {
    let name = cx.s.name(who);
    let a = die(
        &mut *cx.dice,
        u16::from(attr_die),
        &Why(name, what, Part::Attribute(attr_die)),
    )?;
    let k = die(
        &mut *cx.dice,
        u16::from(skill_die),
        &Why(name, what, Part::Skill(skill_die)),
    )?;
    let luck = die(&mut *cx.dice, 20, &Why(name, what, Part::Luck))?;
    let mut dice = [
        Die {
            sides: attr_die,
            face: a,
        },
        Die {
            sides: skill_die,
            face: k,
        },
    ];
    let mut rerolls = Vec::new();
    for _ in 0..advantage.unsigned_abs() {
        let adv = advantage > 0;
        // Advantage: the die whose reroll gains most on average (ties: the attribute die).
        // Disadvantage: the die showing the highest value (ties: the attribute die).
        let which = if adv {
            let g0 = calc::reroll_gain(dice[0].sides, dice[0].face);
            let g1 = calc::reroll_gain(dice[1].sides, dice[1].face);
            usize::from(g1 > g0 + 1e-12)
        } else {
            usize::from(dice[1].face > dice[0].face)
        };
        let sides = dice[which].sides;
        let new = die(&mut *cx.dice, u16::from(sides), &Why(name, what, Part::Reroll(sides)))?;
        let old = dice[which].face;
        dice[which].face = if adv { old.max(new) } else { old.min(new) };
        rerolls.push(Reroll {
            die: which as u8,
            old,
            new,
            advantage: adv,
        });
    }
    let luck_total = luck as i16 + cx.s.options.luck_modifier + cx.s.info(who).stats.luck_modifier;
    // ING-R38: an attack's luck die never adds the +4 (it only decides critical hits).
    let luck_bonus = if !attack && luck_total >= 20 { 4 } else { 0 };
    let total = dice[0].face as i16 + dice[1].face as i16 + bonus + luck_bonus;
    Ok(TestRoll {
        dice,
        rerolls,
        bonus,
        luck,
        luck_total,
        luck_bonus,
        total,
    })
}

/// A die alone for `who` (a luck test, a misfire's pick): `sides` sides, `what` the reason.
pub(crate) fn single(cx: &mut Cx, who: Cid, sides: u16, what: &str) -> Result<u16, EngineError> {
    die(&mut *cx.dice, sides, &Why(cx.s.name(who), what, Part::Whole))
}

/// A luck test: the luck die alone (core rule 3).
pub(crate) fn luck_test(cx: &mut Cx, who: Cid, what: &str) -> Result<(u16, i16), EngineError> {
    let luck = single(cx, who, 20, what)?;
    Ok((
        luck,
        luck as i16 + cx.s.options.luck_modifier + cx.s.info(who).stats.luck_modifier,
    ))
}

/// A defensive or other test by name of attribute, skill and proficiency.
pub(crate) fn named_test(
    cx: &mut Cx,
    who: Cid,
    attr: Attr,
    skill: &str,
    prof: &str,
    extra: i16,
    what: &str,
) -> Result<TestRoll, EngineError> {
    let st = &cx.s.info(who).stats;
    let (a, k, p) = (st.attr(attr), st.skill(skill), st.prof(prof));
    roll_test(cx, who, a, k, p + extra, 0, false, what)
}
