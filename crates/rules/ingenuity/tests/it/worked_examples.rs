//! The chapter's worked examples, with their numbers.

use crate::common;
use common::*;
use fray_ingenuity::event::Event;

/// Boudica (STR d6, Combat d6, martial +1, the spear) next to an enemy with evasion 6 and
/// physical deflection 8.
fn boudica_vs(enemy_extra: &str) -> String {
    enc(
        &[". . . .", ". . . ."],
        &format!(
            "{}{}",
            who(
                "boudica",
                "pcs",
                "1,0",
                "attributes = { str = 6, dex = 6, int = 6, res = 6 }\nskills = { combat = 6, athletics = 4 }\nproficiencies = { martial = 1, fortitude = 1 }\nitems = [\"spear\"]"
            ),
            who(
                "enemy",
                "foes",
                "2,0",
                &format!("evasion = 6\ndeflection = 8\nitems = [\"spear\"]\n{enemy_extra}")
            )
        ),
    )
}

#[test]
fn ing_r37_ing_r41_boudicas_spear_just_hits_for_two() {
    // ING-R37: STR d6 + Combat d6 + martial +1 = 6 against evasion 6 hits (a tie hits).
    // ING-R41: 6 + spear 4 = 10 piercing, minus physical reduction 8 = 2.
    let mut t = T::turn_of(&boudica_vs(""), "boudica");
    t.cmd("attack enemy");
    assert_eq!(t.pending(), ("defence", "enemy".into()));
    t.dice(&[2, 3, 10]);
    t.cmd("pass");
    assert_eq!(t.attack_totals(), vec![6]);
    assert_eq!(t.results(), vec![(true, false, 6)]);
    assert_eq!(t.damage(), vec![("enemy".into(), 2, 2, 0)]);
    t.assert_dice_used();
}

#[test]
fn ing_r38_ing_r41_boudicas_critical_with_luck_19() {
    // ING-R38: a luck die of 19 meets the spear's threshold 19: automatic hit and critical
    // damage 8: 6 + 8 = 14, minus 8 = 6.
    let mut t = T::turn_of(&boudica_vs(""), "boudica");
    t.cmd("attack enemy");
    t.dice(&[2, 3, 19]);
    t.cmd("pass");
    assert_eq!(t.results(), vec![(true, true, 6)]);
    assert_eq!(t.damage(), vec![("enemy".into(), 6, 6, 0)]);
    // The luck die was not added to the total (it is never added on attacks).
    assert_eq!(t.attack_totals(), vec![6]);
}

#[test]
fn ing_r38_critical_hits_even_below_evasion() {
    let mut t = T::turn_of(&boudica_vs(""), "boudica");
    t.cmd("attack enemy");
    t.dice(&[1, 1, 20]);
    t.cmd("pass");
    // 1 + 1 + 1 = 3 < 6, but the luck die makes it a critical hit: 3 + 8 - 8 = 3.
    assert_eq!(t.results(), vec![(true, true, 6)]);
    assert_eq!(t.damage(), vec![("enemy".into(), 3, 3, 0)]);
}

/// Agnessa with a shortbow (a projectile weapon) shooting an enemy whose neighbour is her ally.
fn agnessa() -> String {
    enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}{}",
            who(
                "agnessa",
                "pcs",
                "0,0",
                "attributes = { dex = 6 }\nskills = { combat = 6 }\nitems = [\"bow\"]"
            ),
            who(
                "ally",
                "pcs",
                "4,1",
                "evasion = 3\ndeflection = 0\nitems = [\"spear\"]\nstamina = 1\nnow = { stamina = 0 }"
            ),
            who(
                "enemy",
                "foes",
                "4,0",
                "evasion = 4\ndeflection = 0\nitems = [\"spear\"]\nstamina = 1\nnow = { stamina = 0 }"
            )
        ),
    )
}

#[test]
fn ing_r39_agnessas_misfire_hits_her_ally() {
    // ING-R39: a luck die of 1 with a projectile: the only character within 1 m of the target
    // is her ally, so the ally becomes the target and the attack finishes against the ally.
    let mut t = T::turn_of(&agnessa(), "agnessa");
    t.dice(&[4, 3, 1]);
    t.cmd("attack enemy");
    let misfire = t.last.iter().find_map(|e| match e {
        Event::Misfired { target, candidates, .. } => Some((*target, *candidates)),
        _ => None,
    });
    assert_eq!(misfire, Some((t.id("ally"), 1)));
    // 4 + 3 = 7 against the ally's evasion 3: hit for 7 + 3 = 10 (no deflection).
    assert_eq!(t.results(), vec![(true, false, 3)]);
    assert_eq!(t.damage(), vec![("ally".into(), 10, 10, 0)]);
}

#[test]
fn ing_r40_agnessas_second_attack_misses_after_the_penalty() {
    // ING-R40: her second attack this round rolls 5; -2 makes it 3, below evasion 4: a miss.
    let mut t = T::turn_of(&agnessa(), "agnessa");
    t.dice(&[1, 1, 10]);
    t.cmd("attack enemy");
    assert_eq!(t.results(), vec![(false, false, 4)]);
    t.dice(&[2, 3, 10]);
    t.cmd("attack enemy");
    assert_eq!(t.attack_totals(), vec![3]);
    assert_eq!(t.results(), vec![(false, false, 4)]);
}

#[test]
fn ing_r46_fabian_is_larger_than_the_goblin_by_one() {
    // ING-R46: medium (4) against small (3): the goblin's evasion counts 1 higher and its
    // deflection 1 lower.
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who(
                "fabian",
                "pcs",
                "0,0",
                "size = 4\nattributes = { dex = 6 }\nskills = { combat = 6 }\nitems = [\"dirk\"]"
            ),
            who(
                "goblin",
                "foes",
                "1,0",
                "size = 3\nevasion = 5\ndeflection = 2\nstamina = 1\nnow = { stamina = 0 }"
            )
        ),
    );
    let mut t = T::turn_of(&toml, "fabian");
    t.dice(&[3, 3, 10]);
    t.cmd("attack goblin");
    // Evasion 5 + 1 = 6; 6 hits; damage 6 + dirk 2 = 8 minus deflection (2 - 1) = 7.
    assert_eq!(t.results(), vec![(true, false, 6)]);
    assert_eq!(t.damage(), vec![("goblin".into(), 7, 7, 0)]);
}

/// Boudica (defenceless for the example: evasion 0, deflection 0) against an enemy with the
/// spear (STR d6, Combat d6, no proficiency).
fn boudica_attacked(now: &str) -> T {
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who(
                "boudica",
                "pcs",
                "0,0",
                &format!(
                    "attributes = {{ str = 6, res = 6 }}\nskills = {{ athletics = 4 }}\nproficiencies = {{ fortitude = 1 }}\nhealth = 12\nendurance = 12\nconstitution = 4\nevasion = 0\ndeflection = 0\nnow = {{ {now} }}"
                )
            ),
            who(
                "enemy",
                "foes",
                "1,0",
                "attributes = { str = 6 }\nskills = { combat = 6 }\nitems = [\"spear\"]"
            )
        ),
    );
    let mut t = T::turn_of(&toml, "boudica");
    t.cmd("end");
    t.cmd("pick enemy");
    t.cmd("attack boudica");
    assert_eq!(t.pending(), ("defence", "boudica".into()));
    t
}

#[test]
fn ing_r58_boudica_is_harmed_at_five_of_twelve_endurance() {
    // ING-R58: endurance 12, takes 7: 5 left, at most half (6): harmed, not yet bloodied.
    let mut t = boudica_attacked("endurance = 12");
    t.dice(&[1, 2, 10]);
    t.cmd("pass");
    assert_eq!(t.damage(), vec![("boudica".into(), 7, 7, 0)]);
    let s = t.s();
    let b = t.id("boudica");
    assert!(fray_ingenuity::calc::harmed(s, b));
    assert!(!fray_ingenuity::calc::bloodied(s, b));
    assert!(t.log().iter().any(|l| l.contains("[harmed]")), "{:?}", t.log());
}

#[test]
fn ing_r60_boudica_fortifies_to_stay_conscious_at_missing_health_5() {
    // ING-R60: endurance 5 of 12, health 12, constitution 4 as printed (ING-H24 override).
    // She takes 10: endurance 0, 5 to health (7 left); missing 5 > 4: she pays 1 stamina and
    // fortifies: STR d6 + Athletics d4 + Fortitude 1 = 7 >= 5: she stays conscious, bloodied.
    let mut t = boudica_attacked("endurance = 5");
    t.dice(&[3, 3, 10]);
    t.cmd("pass");
    // ING-R42: the first 5 take her endurance to 0, the other 5 come off her health.
    assert_eq!(t.damage(), vec![("boudica".into(), 10, 5, 5)]);
    assert_eq!((t.ch("boudica").endurance, t.ch("boudica").health), (0, 7));
    assert_eq!(t.pending(), ("fortify", "boudica".into()));
    let stamina = t.ch("boudica").stamina;
    t.dice(&[4, 2, 10]);
    t.cmd("fortify");
    let f = t.last.iter().find_map(|e| match e {
        Event::Fortified {
            difficulty,
            roll,
            result,
            stayed,
            ..
        } => Some((*difficulty, roll.total, *result, *stayed)),
        _ => None,
    });
    assert_eq!(f, Some((5, 7, 7, true)));
    assert!(!t.ch("boudica").unconscious);
    assert_eq!(t.ch("boudica").stamina, stamina - 1);
    assert_eq!(t.ch("boudica").econ.reactions_left(), 0);
    // ING-R59: health 7 of 12: bloodied.
    assert!(fray_ingenuity::calc::bloodied(t.s(), t.id("boudica")));
}

#[test]
fn ing_r62_boudica_fails_to_cheat_death() {
    // ING-R62: health 7, endurance 0; takes 8: health 0 and unconscious at once (ING-R61);
    // 8 > 7, so a luck test against 10: a 1, she dies.
    let mut t = boudica_attacked("endurance = 0, health = 7");
    t.dice(&[1, 3, 10, 1]);
    t.cmd("pass");
    assert_eq!(t.damage(), vec![("boudica".into(), 8, 0, 7)]);
    assert!(t.ch("boudica").dead);
    let check = t.last.iter().find_map(|e| match e {
        Event::DeathCheck {
            luck,
            difficulty,
            survived,
            ..
        } => Some((*luck, *difficulty, *survived)),
        _ => None,
    });
    assert_eq!(check, Some((1, 10, false)));
    // ING-R61: reaching 0 health knocks her out first; the failed death check then kills her.
    let order: Vec<&str> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::KnockedOut { .. } => Some("unconscious"),
            Event::DeathCheck { .. } => Some("death check"),
            Event::Died { .. } => Some("died"),
            _ => None,
        })
        .collect();
    assert_eq!(order, vec!["unconscious", "death check", "died"]);
    t.assert_dice_used();
}

#[test]
fn ing_r34_petra_finishes_her_reload_with_the_first_action_of_her_next_turn() {
    // Petra shoots (1 action), seeks cover (1), starts a 2-action reload with her last action;
    // on her next turn the first action completes it (ING-H25: a reload-2 weapon).
    let toml = enc(
        &["x . . . . .", ". . . . . ."],
        &format!(
            "{}{}",
            who(
                "petra",
                "pcs",
                "0,0",
                "attributes = { dex = 6 }\nskills = { combat = 6 }\nitems = [\"hand-crossbow\"]"
            ),
            who(
                "enemy",
                "foes",
                "5,0",
                "evasion = 20\nstamina = 1\nnow = { stamina = 0 }\nitems = [\"spear\"]"
            )
        ),
    );
    let mut t = T::turn_of(&toml, "petra");
    t.dice(&[1, 1, 10]);
    t.cmd("attack enemy");
    assert!(!t.ch("petra").items[0].loaded);
    t.cmd("seek-cover");
    t.cmd("reload hand-crossbow");
    assert_eq!(t.ch("petra").econ.actions, 0);
    assert!(t.ch("petra").econ.extended.is_some());
    assert!(!t.ch("petra").items[0].loaded);
    t.cmd("end");
    t.cmd("pick enemy");
    t.cmd("end");
    t.cmd("pick petra");
    assert_eq!(t.pending(), ("extended", "petra".into()));
    t.reject("attack enemy");
    t.cmd("continue");
    assert!(t.ch("petra").items[0].loaded);
    assert_eq!(t.ch("petra").econ.actions, 2);
}
