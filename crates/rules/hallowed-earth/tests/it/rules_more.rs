//! More rule tests, one rule each, for rules the long `rules.rs` checks only alongside others:
//! the morale roll (HAL-R20) and Armour against every hit (HAL-R36).
//!
//! The same field as `rules.rs` (10 × 5 yards, sides `pcs` and `foes`, each its own seat):
//! every combatant has Strength 12, Agility 10 (Defense 10, no initiative modifier), a fixed
//! Stress of 10 and a 1d6 sword, unless a test says otherwise. The dice at the start are each
//! creature's Base Initiative d12, in encounter order.

use fray_engine::Seat;
use fray_hallowed_earth::HallowedEarth;
use fray_hallowed_earth::state::Event;
use fray_testkit::Table;

const PCS: Seat = Seat(1);
const FOES: Seat = Seat(2);

/// The encounter: `options`, then each combatant as (id, side, square, extra stat lines).
fn enc(options: &str, who: &[(&str, &str, &str, &str)]) -> String {
    let mut out = format!(
        r#"ruleset = "hallowed-earth"
[options]
{options}
[map]
rows = [". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . ."]
[[side]]
id = "pcs"
[[side]]
id = "foes"
"#
    );
    for (id, side, at, extra) in who {
        out.push_str(&format!(
            "[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\nstrength = 12\nagility = 10\n\
             stress = 10\nspeed = 6\nweapons = [{{ name = \"sword\", damage = \"1d6\" }}]\n{extra}\n"
        ));
    }
    out
}

/// The morale checks of the last command: (who, 3d6, total, TN, passed).
fn morale_checks(t: &Table<HallowedEarth>) -> Vec<(u16, u16, i16, i16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Checked {
                who,
                kind: fray_hallowed_earth::state::CheckKind::Morale,
                roll,
                total,
                tn,
                success,
            } => Some((*who, *roll, *total, *tn, *success)),
            _ => None,
        })
        .collect()
}

/// `travellers` travellers (pcs) against the monsters `foes` (id, extra stat lines), more of
/// them so that the monsters are outnumbered and check morale at the end of round 1: everyone
/// declares a move and ends its turn, and the last `end` rolls the morale dice `dice`.
fn round_of_morale(options: &str, travellers: usize, foes: &[(&str, &str)], dice: &[u16]) -> Table<HallowedEarth> {
    let names = ["a", "b", "c", "d", "e"];
    let (pcs, far) = (["0,0", "0,1", "0,2", "0,3", "0,4"], ["9,0", "9,1", "9,2", "9,3"]);
    let mut who: Vec<(&str, &str, &str, &str)> = (0..travellers).map(|i| (names[i], "pcs", pcs[i], "")).collect();
    for (i, (id, extra)) in foes.iter().enumerate() {
        who.push((id, "foes", far[i], extra));
    }
    let n = who.len();
    let bases: Vec<u16> = (1..=n as u16).collect();
    let mut t = Table::<HallowedEarth>::load(&enc(options, &who), &[], &bases);
    for (id, side, _, _) in &who {
        let seat = if *side == "pcs" { PCS } else { FOES };
        t.type_as(seat, &format!("declare {id} move"));
    }
    for _ in 1..n {
        t.cmd("end");
    }
    t.dice(dice).cmd("end");
    t.assert_dice_used();
    t
}

#[test]
fn hal_r20_the_morale_roll_is_3d6_plus_insight_modifier_plus_hd_plus_allies() {
    // A lone monster with Insight 10 (+0) and 1 HD: 3d6 (3 + 4 + 5) + 0 + 1 + 0 allies.
    let t = round_of_morale("", 3, &[("orc", "monster = true\ninsight = 10\nhd = 1")], &[3, 4, 5]);
    assert_eq!(morale_checks(&t), [(3, 12, 13, 14, false)]);
    // Insight 14 (+2) and 4 HD: + 2 + 4.
    let t = round_of_morale("", 3, &[("orc", "monster = true\ninsight = 14\nhd = 4")], &[3, 4, 5]);
    assert_eq!(morale_checks(&t), [(3, 12, 18, 14, true)]);
    // Insight 6 (−2) and 1 HD: the modifier counts below 0 too.
    let t = round_of_morale("", 3, &[("orc", "monster = true\ninsight = 6\nhd = 1")], &[3, 4, 5]);
    assert_eq!(morale_checks(&t), [(3, 12, 11, 14, false)]);
}

#[test]
fn hal_r20_allies_add_to_the_roll() {
    // Four travellers against two monsters: both outnumbered, each with 1 ally.
    let plain = "monster = true\ninsight = 10\nhd = 1";
    // orc: 3 + 4 + 5 = 12, + 0 + 1 HD + 1 ally = 14; gob: 1 + 1 + 1 = 3, + 0 + 1 + 1 = 5.
    // TN 11 + 4 foes = 15.
    let t = round_of_morale("", 4, &[("orc", plain), ("gob", plain)], &[3, 4, 5, 1, 1, 1]);
    assert_eq!(morale_checks(&t), [(4, 12, 14, 15, false), (5, 3, 5, 15, false)]);
}

#[test]
fn hal_r20_a_roll_equal_to_the_tn_passes_unless_the_option_says_otherwise() {
    // 3d6 (4 + 4 + 5) + 0 + 1 HD = 14 against TN 11 + 3 = 14.
    let orc = [("orc", "monster = true\ninsight = 10\nhd = 1")];
    let t = round_of_morale("", 3, &orc, &[4, 4, 5]);
    assert_eq!(morale_checks(&t), [(3, 13, 14, 14, true)]);
    let t = round_of_morale("morale-ties-pass = false", 3, &orc, &[4, 4, 5]);
    assert_eq!(morale_checks(&t), [(3, 13, 14, 14, false)]);
}

/// ash, cy and dee (pcs) each strike bo (foes, `bo` stat lines) once in round 1, in that order,
/// each blow hitting (a d20 of 15 against Defense 10) for the d6 in `damage`. Returns the table
/// and bo's Stress after each blow.
fn three_blows(options: &str, bo: &str, damage: [u16; 3]) -> (Table<HallowedEarth>, Vec<i16>) {
    let who = [
        ("ash", "pcs", "0,0", ""),
        ("cy", "pcs", "0,1", ""),
        ("dee", "pcs", "2,1", ""),
        ("bo", "foes", "1,0", bo),
    ];
    let mut t = Table::<HallowedEarth>::load(&enc(options, &who), &[], &[1, 2, 3, 12]);
    for id in ["ash", "cy", "dee"] {
        t.type_as(PCS, &format!("declare {id} attack bo"));
    }
    t.type_as(FOES, "declare bo move");
    let mut after = Vec::new();
    for d in damage {
        t.dice(&[15, d]).cmd("act");
        after.push(t.state().ch(3).stress);
        t.cmd("end");
    }
    t.assert_dice_used();
    (t, after)
}

#[test]
fn hal_r36_armour_comes_off_every_hit_whole_and_never_below_nothing() {
    // Armour 2 off each of three blows of 5, 3 and 1: 3, then 1, then 0 (not −1).
    let (_, after) = three_blows("", "armour = 2", [5, 3, 1]);
    assert_eq!(after, [7, 6, 6]);
    // No Armour: the blows land whole.
    let (_, after) = three_blows("", "", [5, 3, 1]);
    assert_eq!(after, [5, 2, 1]);
    // `armour-floor = 1`: a hit that lands does at least 1.
    let (_, after) = three_blows("armour-floor = 1", "armour = 2", [5, 3, 1]);
    assert_eq!(after, [7, 6, 5]);
}
