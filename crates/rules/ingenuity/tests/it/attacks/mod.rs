//! Attacks (ING-R37 to ING-R47) and the core test mechanics they use: test composition, the
//! luck die, advantage and disadvantage, meet-or-beat; with the holes ING-H10, ING-H11, ING-H18,
//! ING-H19, ING-H20, ING-H27 and the attack options.

use crate::common;
use common::*;
use fray_ingenuity::data::{Attr, Cond};
use fray_ingenuity::event::{Event, Reroll, TestRoll};

/// A target that cannot take reactions (no stamina), so attacks on it roll at once.
const DEFENCELESS: &str = "stamina = 1\nnow = { stamina = 0 }";

/// An attacker with d6 attributes, Combat d6 and the test spear (no proficiency).
const SPEARMAN: &str = "attributes = { str = 6, dex = 6 }\nskills = { combat = 6 }\nitems = [\"spear\"]";

/// A defenceless target with evasion and deflection.
fn target(evasion: i16, deflection: i16, extra: &str) -> String {
    format!("evasion = {evasion}\ndeflection = {deflection}\n{DEFENCELESS}\n{extra}")
}

/// `hero` (pcs) at 1,0 next to `foe` (foes) at 2,0 on a one-row map, plus `rest`.
fn duel(hero: &str, foe: &str, rest: &str) -> String {
    enc(
        &[". . . . . ."],
        &format!(
            "{}{}{rest}",
            who("hero", "pcs", "1,0", hero),
            who("foe", "foes", "2,0", foe)
        ),
    )
}

/// The attack test rolls among the last events: (roll, net advantage, reasons).
fn rolled(t: &T) -> Vec<(TestRoll, i8, Vec<String>)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::AttackRolled {
                roll,
                advantage,
                reasons,
                ..
            } => Some((roll.clone(), *advantage, reasons.clone())),
            _ => None,
        })
        .collect()
}

/// The one attack roll of the last command.
fn roll(t: &T) -> TestRoll {
    let r = rolled(t);
    assert_eq!(r.len(), 1, "expected one attack roll, got {r:?}");
    r[0].0.clone()
}

/// The net advantage and reasons of the one attack roll of the last command.
fn advantage(t: &T) -> (i8, Vec<String>) {
    let r = rolled(t);
    assert_eq!(r.len(), 1, "expected one attack roll, got {r:?}");
    (r[0].1, r[0].2.clone())
}

/// The declared attacks among the last events: (penalty, property bonus).
fn declared(t: &T) -> Vec<(i16, i16)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::AttackDeclared { penalty, bonus, .. } => Some((*penalty, *bonus)),
            _ => None,
        })
        .collect()
}

/// The misfires among the last events: (new target, pick die, candidates).
fn misfires(t: &T) -> Vec<(String, Option<u16>, u8)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Misfired {
                target,
                pick,
                candidates,
            } => Some((t.s().info(*target).id.clone(), *pick, *candidates)),
            _ => None,
        })
        .collect()
}

/// The tests (tasks) among the last events: (total, luck bonus, success).
fn tested(t: &T) -> Vec<(i16, i16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Tested { roll, success, .. } => Some((roll.total, roll.luck_bonus, *success)),
            _ => None,
        })
        .collect()
}

fn reroll(die: u8, old: u16, new: u16, advantage: bool) -> Reroll {
    Reroll {
        die,
        old,
        new,
        advantage,
    }
}

// ---------------------------------------------------------------------------------------------
// Core mechanics: composition, luck die, meet-or-beat
// ---------------------------------------------------------------------------------------------

/// A fighter with STR d6, DEX d8, Combat d6, martial +1 and finesse +2 (both on the spear), and
/// fortitude +3 (not a weapon proficiency).
fn two_proficiencies() -> String {
    duel(
        "attributes = { str = 6, dex = 8 }\nskills = { combat = 6 }\nproficiencies = { martial = 1, finesse = 2, fortitude = 3 }\nitems = [\"spear\"]",
        &target(30, 0, ""),
        "",
    )
}

/// `archer` (bow) at 0,0; `foe` at 4,0 with the archer's ally `mate` north of it (4,1) and
/// another foe `other` east of it (5,0); `far` (pcs) 2 m from the foe.
fn crowd(weapon: &str, options: &str) -> String {
    enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}{}{}{}{options}",
            who(
                "archer",
                "pcs",
                "0,0",
                &format!("attributes = {{ str = 6, dex = 6 }}\nskills = {{ combat = 6 }}\nitems = [\"{weapon}\"]")
            ),
            who("mate", "pcs", "4,1", &target(3, 0, "endurance = 30")),
            who("foe", "foes", "4,0", &target(4, 0, "endurance = 30")),
            who("other", "foes", "5,0", &target(5, 0, "endurance = 30")),
            who("far", "pcs", "2,1", &target(2, 0, ""))
        ),
    )
}

mod modifiers;
mod rolls;
