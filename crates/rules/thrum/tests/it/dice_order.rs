//! The order faces are drawn in, as docs/thrum.md "Dice order" gives it: scripted faces in
//! that order must produce the documented results (THR-R9, THR-R12, THR-R96, THR-R114).

use crate::common;
use common::*;
use fray_thrum::event::Event;

#[test]
fn thr_r9_thr_r12_initiative_in_encounter_order_then_roll_offs() {
    // a (PC), b and c (NPCs): b and c tie at 6 with equal modifiers, so they roll off in
    // encounter order (b first); c wins the roll-off.
    let toml = enc(
        &[". . . . ."],
        &format!(
            "{}{}{}",
            who("a", "pcs", "0,0", ""),
            who("b", "npcs", "3,0", ""),
            who("c", "npcs", "4,0", "")
        ),
    );
    let t = T::new(&toml, &[6, 6, 3, 3, 2, 4, 1, 1, 5, 5]);
    assert_eq!(t.order(), vec!["a", "c", "b"]);
    let rolls: Vec<(String, u16)> = t
        .all_events()
        .iter()
        .filter_map(|e| match e {
            Event::InitiativeRolled { who, roll } => {
                Some((format!("init {}", t.s().info(*who).id), roll.roll.total as u16))
            }
            Event::RollOff { who, roll } => Some((format!("off {}", t.s().info(*who).id), roll.total as u16)),
            _ => None,
        })
        .collect();
    let want: Vec<(String, u16)> = [
        ("init a", 12),
        ("init b", 6),
        ("init c", 6),
        ("off b", 2),
        ("off c", 10),
    ]
    .iter()
    .map(|(w, n)| (w.to_string(), *n))
    .collect();
    assert_eq!(rolls, want);
}

#[test]
fn thr_r96_thr_r114_attacker_before_defender_with_all_dice_of_a_roll_together() {
    // a's Basic Attack is Ranged and b stands next to it: a Bane, so a's roll is its 3 faces
    // (5, 4, 6: the worst two, 9, are kept), then b's Dazed defence roll, 3 faces (1, 6, 6: 7).
    let toml = enc(
        &[". . . . ."],
        &format!(
            "{}{}",
            who("a", "pcs", "0,0", "attack = 3"),
            who("b", "npcs", "1,0", "")
        ),
    );
    let mut t = T::in_round_one(&toml, &[6, 6, 1, 1]);
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
    t.cmd("gm status b dazed on");
    t.cmd("act basic-attack b");
    t.dice(&[5, 4, 6, 1, 6, 6]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(
        contests(&t.last),
        vec![(12, Some(7), fray_thrum::event::Verdict::AttackerCritical)]
    );
}
