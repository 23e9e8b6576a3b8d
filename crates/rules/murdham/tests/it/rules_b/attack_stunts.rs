//! Attack stunts: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_r32_an_approved_stunt_accepted_by_the_target_replaces_the_damage_and_any_reaction() {
    let mut t = duel(PCS_FIRST, "", "wield = [\"martial-hand\"]", "");
    t.cmd("act ash");
    t.cmd("attack bo stunt knocks him into the mud");
    // The GM approves first, then the target answers; it cannot dodge instead.
    assert_eq!(
        t.game.pending().map(|p| (p.first(), p.kind())),
        Some((GM, "stunt-approval"))
    );
    t.cmd("approve");
    assert_eq!(t.game.pending().map(|p| (p.first(), p.kind())), Some((FOES, "stunt")));
    assert_eq!(t.legal(), ["accept", "refuse"]);
    t.expect_rejection(FOES, "dodge", codes::NOT_NOW);
    t.cmd("accept");
    assert_eq!(stunts(&t), [("knocks him into the mud".to_string(), Some(true))]);
    assert_eq!(damage(&t), []);
    assert_eq!(ch(&t, "bo").health, 10);
    assert!(t.last.iter().all(|e| !matches!(e, Event::Reacted { .. })));
    assert_eq!(asked(&t), Some("turn"));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r32_a_refused_stunt_is_resolved_as_a_normal_attack_the_target_may_dodge() {
    let mut t = duel(PCS_FIRST, "", "wield = [\"martial-hand\"]", "");
    t.cmd("act ash");
    t.cmds(&["attack bo stunt trips him", "approve", "refuse"]);
    assert_eq!(stunts(&t), [("trips him".to_string(), Some(false))]);
    assert_eq!(asked(&t), Some("reaction"));
    // AGI save 15 against 10 fails: the sword's d6 rolls 4.
    t.dice(&[15, 4]).cmd("dodge");
    assert_eq!(damage(&t), [("bo".to_string(), 4)]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r32_a_stunt_vetoed_by_the_gm_never_reaches_the_target_and_the_attack_deals_damage() {
    let mut t = duel(PCS_FIRST, "", "wield = [\"martial-hand\"]", "");
    t.cmd("act ash");
    t.cmd("attack bo stunt cuts his belt");
    t.expect_rejection(FOES, "accept", fray_engine::Reject::NOT_YOUR_DECISION);
    t.cmd("veto");
    assert_eq!(stunts(&t), [("cuts his belt".to_string(), None)]);
    assert_eq!(asked(&t), Some("reaction"));
    t.dice(&[2]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r32_a_stunt_comes_after_the_to_hit_save_a_miss_asks_nobody() {
    let mut t = duel(PCS_FIRST, "", "wield = [\"martial-hand\"]", "");
    // The GM's ruling asks a WIT save of ash's next attack (MUR-H6): 14 against 10 misses.
    t.cmd("gm hinder ash");
    t.cmd("act ash");
    t.dice(&[14]).cmd("attack bo stunt knocks him into the mud");
    assert_eq!(saves(&t), [("ash".to_string(), 14, false)]);
    assert_eq!(stunts(&t), []);
    assert_eq!(asked(&t), Some("turn"));
    t.assert_dice_used();
}
