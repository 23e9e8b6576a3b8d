//! Reactions: Ready, Wait, the one reaction per round, what reactions cost, and Intercept.

use crate::common;
use common::*;
use fray_ingenuity::event::{Event, TurnEnd};

/// A character who cannot defend (no stamina left, so no reaction can be paid).
const DEFENCELESS: &str = "stamina = 1\nnow = { stamina = 0 }";

/// The attackers of the attack rolls among the last events, in order.
fn attackers(t: &T) -> Vec<String> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::AttackRolled { attacker, .. } => Some(t.s().info(*attacker).id.clone()),
            _ => None,
        })
        .collect()
}

/// The defences taken among the last events: (who, kind, free).
fn defences(t: &T) -> Vec<(String, &'static str, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Defended { who, kind, free, .. } => Some((t.s().info(*who).id.clone(), kind.name(), *free)),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Ready (ING-R24, ING-H15)
// ---------------------------------------------------------------------------------------------

/// `pc` with a spear at 0,0; a foe with a spear at `foe_at` who cannot defend.
fn ambush(foe_at: &str, options: &str) -> String {
    enc(
        &[". . . . . ."],
        &format!(
            "{options}\n{}{}",
            who("pc", "pcs", "0,0", "items = [\"spear\"]"),
            who("foe", "foes", foe_at, &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    )
}

#[test]
fn ing_r24_ready_ends_the_turn_and_fires_as_a_reaction_when_an_enemy_approaches() {
    let mut t = T::turn_of(&ambush("5,0", ""), "pc");
    t.cmd("ready attack when approach");
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::TurnEnded {
            how: TurnEnd::Ready,
            ..
        }
    )));
    assert_eq!(t.turn(), None);
    assert!(t.ch("pc").ready.is_some());
    t.cmd("pick foe");
    t.cmd("move 1,0");
    // The foe stepped into the spear's reach: pc is asked whether to fire.
    assert_eq!(t.pending(), ("ready", "pc".into()));
    assert_eq!(t.ch("foe").pos, Some("1,0".parse().unwrap()));
    t.dice(&[3, 3, 10]);
    t.cmd("fire");
    assert_eq!(attackers(&t), vec!["pc".to_string()]);
    assert_eq!(t.results(), vec![(true, false, 6)]);
    t.assert_dice_used();
    // ING-H15: firing used pc's reaction; the readied action is spent.
    assert_eq!(t.ch("pc").econ.reactions_left(), 0);
    assert!(t.ch("pc").ready.is_none());
    // Back to the foe's turn.
    assert_eq!(t.pending(), ("turn", "foe".into()));
}

#[test]
fn ing_r24_a_readied_attack_on_attack_goes_before_the_enemys_attack() {
    let mut t = T::turn_of(&ambush("1,0", ""), "pc");
    t.cmd("ready attack when attack");
    t.cmd("pick foe");
    t.cmd("attack pc");
    assert_eq!(t.pending(), ("ready", "pc".into()));
    // pc's attack first, then the foe's; pc has no reaction left to defend with (ING-H15).
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("fire");
    assert_eq!(attackers(&t), vec!["pc".to_string(), "foe".to_string()]);
    assert!(defences(&t).is_empty());
    assert_eq!(t.pending(), ("turn", "foe".into()));
    t.assert_dice_used();
}

#[test]
fn ing_r24_a_readied_attack_on_turn_fires_when_the_enemys_turn_starts() {
    let mut t = T::turn_of(&ambush("1,0", ""), "pc");
    t.cmd("ready attack foe when turn");
    t.cmd("pick foe");
    assert_eq!(t.pending(), ("ready", "pc".into()));
    t.dice(&[1, 1, 10]);
    t.cmd("fire");
    assert_eq!(attackers(&t), vec!["pc".to_string()]);
    assert_eq!(t.pending(), ("turn", "foe".into()));
    assert_eq!(t.ch("foe").econ.actions, 3);
}

/// ING-R24: a readied action waits for something its character sees; a `hidden` enemy's
/// approach sets nothing off (the control is the test above: the same approach, seen, does).
#[test]
fn ing_r24_a_hidden_enemys_approach_sets_off_no_readied_action() {
    let hidden_foe = enc(
        &[". . . . . ."],
        &format!(
            "{}{}",
            who("pc", "pcs", "0,0", "items = [\"spear\"]"),
            who(
                "foe",
                "foes",
                "5,0",
                &format!("items = [\"spear\"]\nconditions = [\"hidden\"]\n{DEFENCELESS}")
            ),
        ),
    );
    let mut t = T::turn_of(&hidden_foe, "pc");
    t.cmd("ready attack when approach");
    t.cmd("pick foe");
    t.cmd("move 1,0");
    assert_eq!(t.ch("foe").pos, Some("1,0".parse().unwrap()));
    assert_eq!(t.pending(), ("turn", "foe".into()), "nobody is asked to fire");
    assert!(t.ch("pc").ready.is_some(), "the readied action still waits");
}

#[test]
fn ing_r24_a_readied_move_fires_when_an_enemy_approaches() {
    let toml = enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}",
            who("pc", "pcs", "0,0", ""),
            who("foe", "foes", "5,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    );
    let mut t = T::turn_of(&toml, "pc");
    t.cmd("ready move 0,1 when approach");
    t.cmd("pick foe");
    t.cmd("move 1,0");
    assert_eq!(t.pending(), ("ready", "pc".into()));
    t.cmd("fire");
    assert_eq!(t.ch("pc").pos, Some("0,1".parse().unwrap()));
    assert_eq!(t.ch("foe").pos, Some("1,0".parse().unwrap()));
    assert_eq!(t.ch("pc").econ.reactions_left(), 0);
    assert_eq!(t.pending(), ("turn", "foe".into()));
}

#[test]
fn ing_r24_hold_keeps_the_readied_action_for_a_later_trigger() {
    let mut t = T::turn_of(&ambush("1,0", ""), "pc");
    t.cmd("ready attack when attack");
    t.cmd("pick foe");
    t.dice(&[1, 1, 10]);
    t.cmd("attack pc");
    // Holding: the foe's attack goes on (pc may still defend: its reaction is unused).
    assert_eq!(t.pending(), ("ready", "pc".into()));
    t.cmd("hold");
    assert_eq!(t.pending(), ("defence", "pc".into()));
    t.cmd("pass");
    assert_eq!(attackers(&t), vec!["foe".to_string()]);
    assert!(t.ch("pc").ready.is_some());
    t.cmd("attack pc");
    assert_eq!(t.pending(), ("ready", "pc".into()));
}

#[test]
fn ing_r24_a_readied_action_expires_at_the_start_of_the_characters_next_turn() {
    let mut t = T::turn_of(&ambush("5,0", ""), "pc");
    t.cmd("ready attack when approach");
    t.cmd("pick foe");
    t.cmd("end");
    assert!(t.ch("pc").ready.is_some());
    t.cmd("pick pc");
    assert!(t.ch("pc").ready.is_none());
    assert!(
        t.last
            .iter()
            .any(|e| matches!(e, Event::ReadyUsed { fired: false, .. }))
    );
    // Nothing fires any more when the foe approaches.
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("move 1,0");
    assert_eq!(t.pending(), ("turn", "foe".into()));
}

#[test]
fn ing_h15_option_firing_a_readied_action_does_not_use_the_reaction() {
    let mut t = T::turn_of(&ambush("5,0", "[options]\nready-uses-reaction = false"), "pc");
    t.cmd("ready attack when approach");
    t.cmd("pick foe");
    t.cmd("move 1,0");
    t.dice(&[1, 1, 10]);
    t.cmd("fire");
    assert_eq!(t.ch("pc").econ.reactions_left(), 1);
    // pc can still defend against the foe's attack.
    t.cmd("attack pc");
    assert_eq!(t.pending(), ("defence", "pc".into()));
}

#[test]
fn ing_h15_firing_a_readied_action_uses_the_reaction_so_no_defence_follows() {
    let mut t = T::turn_of(&ambush("5,0", ""), "pc");
    t.cmd("ready attack when approach");
    t.cmd("pick foe");
    t.cmd("move 1,0");
    t.dice(&[1, 1, 10]);
    t.cmd("fire");
    // No defence decision: the foe's attack is rolled at once.
    t.dice(&[1, 1, 10]);
    t.cmd("attack pc");
    assert_eq!(attackers(&t), vec!["foe".to_string()]);
    assert_eq!(t.pending(), ("turn", "foe".into()));
}

#[test]
fn ing_h15_a_character_without_a_reaction_is_not_asked_to_fire() {
    // pc dodges the first attack (its reaction), so the readied attack cannot fire on the second.
    let toml = enc(
        &[". . . . . ."],
        &format!(
            "{}{}{}",
            who("pc", "pcs", "1,0", "items = [\"spear\"]"),
            who("foe", "foes", "0,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
            who("foe2", "foes", "5,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    );
    let mut t = T::turn_of(&toml, "pc");
    t.cmd("ready attack foe2 when approach");
    t.cmd("pick foe");
    t.cmd("attack pc");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    t.cmd("pass");
    t.cmd("end");
    t.cmd("pick foe2");
    t.cmd("move 2,0");
    assert_eq!(t.pending(), ("turn", "foe2".into()));
    assert!(t.ch("pc").ready.is_some());
    // The log says why the readied attack did not fire.
    assert!(
        t.log()
            .contains(&"pc's readied action cannot be taken: no reaction left this round".to_string()),
        "{:#?}",
        t.log()
    );
}

// ---------------------------------------------------------------------------------------------
// Wait (ING-R28, ING-H16)
// ---------------------------------------------------------------------------------------------

/// `pc` (empty-handed, so it cannot parry) next to two foes with spears (not on opposite
/// sides: no flanking).
fn surrounded(options: &str) -> String {
    enc(
        &[". . . .", ". . . ."],
        &format!(
            "{options}\n{}{}{}",
            who("pc", "pcs", "1,0", ""),
            who("foe", "foes", "0,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
            who("foe2", "foes", "2,1", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    )
}

/// The foe whose turn it is attacks pc, who dodges (a roll of 2) against a miss (a roll of 2,
/// and the penalty).
fn attack_and_dodge(t: &mut T) {
    t.cmd("attack pc");
    assert_eq!(t.pending(), ("defence", "pc".into()));
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    assert_eq!(defences(t), vec![("pc".into(), "dodge", false)]);
    t.cmd("pass");
}

#[test]
fn ing_r28_wait_ends_the_turn_and_gives_one_extra_reaction_until_the_next_turn() {
    let mut t = T::turn_of(&surrounded(""), "pc");
    t.cmd("wait");
    assert!(
        t.last
            .iter()
            .any(|e| matches!(e, Event::TurnEnded { how: TurnEnd::Wait, .. }))
    );
    assert_eq!(t.turn(), None);
    assert_eq!(t.ch("pc").econ.reactions_left(), 2);
    t.cmd("pick foe");
    attack_and_dodge(&mut t);
    attack_and_dodge(&mut t);
    assert_eq!(t.ch("pc").stamina, 12 - 2);
    // ING-H16: two reactions in all; the third attack gets no defence.
    t.dice(&[1, 1, 10]);
    t.cmd("attack pc");
    assert!(defences(&t).is_empty());
    assert_eq!(attackers(&t), vec!["foe".to_string()]);
    t.assert_dice_used();
    // Back to one reaction at the start of pc's next turn.
    t.cmd("end");
    t.cmd("pick foe2");
    t.cmd("end");
    t.cmd("pick pc");
    assert_eq!(t.ch("pc").econ.reactions_left(), 1);
}

#[test]
fn ing_h16_option_wait_gives_no_extra_reaction() {
    let mut t = T::turn_of(&surrounded("[options]\nwait-extra-reactions = 0"), "pc");
    t.cmd("wait");
    assert_eq!(t.ch("pc").econ.reactions_left(), 1);
    t.cmd("pick foe");
    attack_and_dodge(&mut t);
    t.dice(&[1, 1, 10]);
    t.cmd("attack pc");
    assert!(defences(&t).is_empty());
}

#[test]
fn ing_h16_option_wait_gives_two_extra_reactions() {
    let mut t = T::turn_of(&surrounded("[options]\nwait-extra-reactions = 2"), "pc");
    t.cmd("wait");
    assert_eq!(t.ch("pc").econ.reactions_left(), 3);
    t.cmd("pick foe");
    attack_and_dodge(&mut t);
    attack_and_dodge(&mut t);
    attack_and_dodge(&mut t);
    t.cmd("end");
    t.cmd("pick foe2");
    t.dice(&[1, 1, 10]);
    t.cmd("attack pc");
    assert!(defences(&t).is_empty());
}

// ---------------------------------------------------------------------------------------------
// One reaction per round, restored at the start of one's own turn (ING-R30)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r30_one_reaction_per_round_restored_at_the_start_of_ones_own_turn() {
    let mut t = T::turn_of(&surrounded(""), "pc");
    t.cmd("end");
    t.cmd("pick foe");
    attack_and_dodge(&mut t);
    assert_eq!(t.ch("pc").econ.reactions_left(), 0);
    t.cmd("end");
    // Another foe's turn does not give it back: no defence against foe2.
    t.cmd("pick foe2");
    t.dice(&[1, 1, 10]);
    t.cmd("attack pc");
    assert!(defences(&t).is_empty());
    t.cmd("end");
    // Nor does the start of a new round...
    assert_eq!(t.s().round, 2);
    assert_eq!(t.ch("pc").econ.reactions_left(), 0);
    // ...but pc's own turn does.
    t.cmd("pick pc");
    assert_eq!(t.ch("pc").econ.reactions_left(), 1);
}

#[test]
fn ing_r30_option_reactions_come_back_at_every_turn() {
    let mut t = T::turn_of(&surrounded("[options]\nreaction-refresh = \"every-turn\""), "pc");
    t.cmd("end");
    t.cmd("pick foe");
    attack_and_dodge(&mut t);
    assert_eq!(t.ch("pc").econ.reactions_left(), 0);
    t.cmd("end");
    t.cmd("pick foe2");
    assert_eq!(t.ch("pc").econ.reactions_left(), 1);
    attack_and_dodge(&mut t);
}

// ---------------------------------------------------------------------------------------------
// Reaction costs (ING-R31) and paying them (ING-R32)
// ---------------------------------------------------------------------------------------------

/// `pc` (with `pc_extra`) attacked by a foe with `weapon`; stops at pc's defence decision.
fn attacked(pc_extra: &str, weapon: &str, options: &str) -> T {
    let toml = enc(
        &[". . . ."],
        &format!(
            "[[item]]\nid = \"hex\"\nattributes = [\"int\"]\ndamage = 1\ntype = \"psychic\"\nrange = 6\neffect = {{ condition = \"stunned\", defence = \"willpower\" }}\n\n[[item]]\nid = \"maul\"\nattributes = [\"str\"]\ndamage = 3\ntype = \"bludgeoning\"\neffect = {{ condition = \"prone\", defence = \"constitution\" }}\n{options}\n{}{}",
            who("pc", "pcs", "1,0", pc_extra),
            who("foe", "foes", "2,0", &format!("items = [\"{weapon}\"]\n{DEFENCELESS}")),
        ),
    );
    let mut t = T::turn_of(&toml, "pc");
    t.cmd("end");
    t.cmd("pick foe");
    t
}

/// pc's (stamina, focus, reactions left).
fn spent(t: &T) -> (i16, i16, u8) {
    let c = t.ch("pc");
    (c.stamina, c.focus, c.econ.reactions_left())
}

#[test]
fn ing_r31_dodge_costs_one_stamina_and_the_reaction() {
    let mut t = attacked("", "spear", "");
    t.cmd("attack pc");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    assert_eq!(defences(&t), vec![("pc".into(), "dodge", false)]);
    assert_eq!(spent(&t), (11, 12, 0));
}

#[test]
fn ing_r31_parry_costs_one_stamina_and_the_reaction() {
    let mut t = attacked("items = [\"spear\"]", "spear", "");
    t.cmd("attack pc");
    t.dice(&[1, 1, 10]);
    t.cmd("parry spear");
    assert_eq!(defences(&t), vec![("pc".into(), "parry", false)]);
    assert_eq!(spent(&t), (11, 12, 0));
}

#[test]
fn ing_r31_block_costs_one_stamina_and_the_reaction() {
    let mut t = attacked("items = [\"shield\"]\nevasion = 0", "spear", "");
    t.dice(&[3, 3, 10]);
    t.cmd("attack pc");
    t.cmd("pass");
    assert_eq!(t.pending(), ("block", "pc".into()));
    t.cmd("block shield");
    assert_eq!(defences(&t), vec![("pc".into(), "block", false)]);
    assert_eq!(spent(&t), (11, 12, 0));
}

#[test]
fn ing_r31_fortify_against_an_effect_costs_one_stamina_and_the_reaction() {
    let mut t = attacked("", "maul", "");
    t.cmd("attack pc");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("fortify");
    assert_eq!(defences(&t), vec![("pc".into(), "fortify", false)]);
    assert_eq!(spent(&t), (11, 12, 0));
}

#[test]
fn ing_r31_resist_costs_one_focus_and_the_reaction() {
    let mut t = attacked("", "hex", "");
    t.cmd("attack pc");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("resist");
    assert_eq!(defences(&t), vec![("pc".into(), "resist", false)]);
    assert_eq!(spent(&t), (12, 11, 0));
}

#[test]
fn ing_r32_no_stamina_means_no_dodge() {
    // With no stamina pc has no defence to take: the attack is rolled at once.
    let mut t = attacked(DEFENCELESS, "spear", "");
    t.dice(&[1, 1, 10]);
    t.cmd("attack pc");
    assert_eq!(attackers(&t), vec!["foe".to_string()]);
    assert!(defences(&t).is_empty());
    assert_eq!(t.ch("pc").econ.reactions_left(), 1);
    // The log says why no defence was asked for, and a dodge typed afterwards says so too.
    assert!(
        t.log()
            .contains(&"pc cannot defend against this attack: not enough stamina".to_string())
    );
    let r = t.reject("dodge");
    assert_eq!(r.code, "not-now");
    assert!(r.reason.contains("pc could not defend against the last attack") && r.reason.contains("stamina"));
}

#[test]
fn ing_r30_a_target_without_a_reaction_is_not_asked_and_the_log_says_why() {
    // pc dodges foe's first attack (its one reaction, ING-R30); the second is rolled at once.
    let mut t = attacked("", "spear", "");
    t.cmd("attack pc");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    t.cmd("pass");
    t.dice(&[1, 1, 10]);
    t.cmd("attack pc");
    assert_eq!(t.pending(), ("turn", "foe".into()));
    assert!(
        t.log()
            .contains(&"pc cannot defend against this attack: no reaction left this round".to_string())
    );
    t.assert_dice_used();
}

#[test]
fn ing_r32_no_focus_means_no_resist() {
    let mut t = attacked("focus = 8\nnow = { focus = 0 }", "hex", "");
    t.cmd("attack pc");
    // It can still dodge (stamina), but not resist (focus).
    assert_eq!(t.pending(), ("defence", "pc".into()));
    assert_eq!(t.reject("resist").code, "no-focus");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
}

#[test]
fn ing_r32_option_reactions_without_resources() {
    let mut t = attacked(DEFENCELESS, "spear", "[options]\nreactions-need-resources = false");
    t.cmd("attack pc");
    assert_eq!(t.pending(), ("defence", "pc".into()));
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    assert_eq!(defences(&t), vec![("pc".into(), "dodge", false)]);
    assert_eq!(t.ch("pc").stamina, 0);
    assert_eq!(t.ch("pc").econ.reactions_left(), 0);
}

// ---------------------------------------------------------------------------------------------
// Intercept (ING-R33, ING-H21)
// ---------------------------------------------------------------------------------------------

/// A foe next to `pc1`; the ally `pc2` at `pc2_at`.
fn bodyguard(pc2_at: &str, options: &str) -> T {
    let toml = enc(
        &[". . . . . . . . . . . . . ."],
        &format!(
            "{options}\n{}{}{}",
            who("pc1", "pcs", "1,0", ""),
            who("pc2", "pcs", pc2_at, ""),
            who("foe", "foes", "0,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    );
    let mut t = T::turn_of(&toml, "pc1");
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("attack pc1");
    t
}

#[test]
fn ing_r33_intercept_swaps_places_becomes_the_target_and_defends_for_free() {
    let mut t = bodyguard("4,0", "");
    assert_eq!(t.pending(), ("intercept", "pc1".into()));
    assert!(t.legal().contains(&"intercept pc2".to_string()));
    t.cmd("intercept pc2");
    assert!(t.last.iter().any(|e| matches!(e, Event::Swapped { .. })));
    assert_eq!(t.ch("pc2").pos, Some("1,0".parse().unwrap()));
    assert_eq!(t.ch("pc1").pos, Some("4,0".parse().unwrap()));
    // ING-R31: 1 stamina and the reaction.
    assert_eq!(t.ch("pc2").stamina, 11);
    assert_eq!(t.ch("pc2").econ.reactions_left(), 0);
    // The new target may still defend, as a free reaction that pays its stamina.
    assert_eq!(t.pending(), ("defence", "pc2".into()));
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    assert_eq!(defences(&t), vec![("pc2".into(), "dodge", true)]);
    let target = t.last.iter().find_map(|e| match e {
        Event::AttackResult { target, .. } => Some(*target),
        _ => None,
    });
    assert_eq!(target, Some(t.id("pc2")));
    assert_eq!(t.ch("pc2").stamina, 10);
    assert_eq!(t.ch("pc2").econ.reactions_left(), 0);
    // pc1 was not attacked and kept its reaction.
    assert_eq!(t.ch("pc1").econ.reactions_left(), 1);
    t.assert_dice_used();
}

#[test]
fn ing_r33_option_the_free_reaction_after_intercept_costs_nothing() {
    let mut t = bodyguard("4,0", "[options]\nfree-reaction-pays = false");
    t.cmd("intercept pc2");
    assert_eq!(t.ch("pc2").stamina, 11);
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    assert_eq!(defences(&t), vec![("pc2".into(), "dodge", true)]);
    assert_eq!(t.ch("pc2").stamina, 11);
}

#[test]
fn ing_r33_passing_on_intercept_leaves_the_target_to_defend() {
    let mut t = bodyguard("4,0", "");
    t.cmd("pass");
    assert_eq!(t.pending(), ("defence", "pc1".into()));
    assert_eq!(t.ch("pc2").stamina, 12);
    assert_eq!(t.ch("pc2").econ.reactions_left(), 1);
}

#[test]
fn ing_h21_an_ally_beyond_its_speed_cannot_intercept() {
    // Speed 4 + 3 + 2 = 9; 12,0 is 11 m from pc1.
    let t = bodyguard("12,0", "");
    assert_eq!(t.pending(), ("defence", "pc1".into()));
}

#[test]
fn ing_h21_option_only_an_adjacent_ally_can_intercept() {
    let t = bodyguard("4,0", "[options]\nintercept-reach = \"adjacent\"");
    assert_eq!(t.pending(), ("defence", "pc1".into()));
    let mut t = bodyguard("2,0", "[options]\nintercept-reach = \"adjacent\"");
    assert_eq!(t.pending(), ("intercept", "pc1".into()));
    assert!(t.legal().contains(&"intercept pc2".to_string()));
    t.cmd("intercept pc2");
    assert_eq!(t.ch("pc2").pos, Some("1,0".parse().unwrap()));
    assert_eq!(t.ch("pc1").pos, Some("2,0".parse().unwrap()));
}

/// `foe` (spear) at 0,0 attacks `pc1` at 1,0; `pc2` and `pc3` may both reach pc1.
fn two_bodyguards(options: &str) -> T {
    let toml = enc(
        &[". . . . . . . .", ". . . . . . . ."],
        &format!(
            "{options}\n{}{}{}{}",
            who("pc1", "pcs", "1,0", ""),
            who("pc2", "pcs", "4,0", ""),
            who("pc3", "pcs", "3,1", ""),
            who("foe", "foes", "0,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    );
    let mut t = T::turn_of(&toml, "pc1");
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("attack pc1");
    t
}

#[test]
fn ing_r33_every_ally_who_may_intercept_is_asked_in_one_decision() {
    // ING-R33: one decision of the attacked team's seat lists each ally who may intercept,
    // then pass; any of them may take the attack.
    let mut t = two_bodyguards("");
    assert_eq!(t.pending(), ("intercept", "pc1".into()));
    assert_eq!(t.game.pending().map(|p| p.first()), Some(fray_engine::Seat(1)));
    assert_eq!(t.legal(), vec!["intercept pc2", "intercept pc3", "pass"]);
    t.cmd("intercept pc3");
    assert_eq!(t.ch("pc3").pos, Some("1,0".parse().unwrap()));
    assert_eq!(t.ch("pc1").pos, Some("3,1".parse().unwrap()));
    assert_eq!(t.ch("pc2").stamina, 12);
    assert_eq!(t.pending(), ("defence", "pc3".into()));
}

#[test]
fn ing_r33_one_pass_answers_for_every_ally() {
    // The number of questions does not depend on how many allies could intercept.
    let mut t = two_bodyguards("");
    t.cmd("pass");
    assert_eq!(t.pending(), ("defence", "pc1".into()));
    assert_eq!(t.ch("pc2").econ.reactions_left(), 1);
    assert_eq!(t.ch("pc3").econ.reactions_left(), 1);
}

#[test]
fn ing_r33_an_ally_who_cannot_intercept_is_not_listed_and_is_refused() {
    // ING-R32: pc2 has no stamina for Intercept's cost (ING-R31).
    let toml = enc(
        &[". . . . . . . .", ". . . . . . . ."],
        &format!(
            "{}{}{}{}",
            who("pc1", "pcs", "1,0", ""),
            who("pc2", "pcs", "4,0", DEFENCELESS),
            who("pc3", "pcs", "3,1", ""),
            who("foe", "foes", "0,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    );
    let mut t = T::turn_of(&toml, "pc1");
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("attack pc1");
    assert_eq!(t.legal(), vec!["intercept pc3", "pass"]);
    assert_eq!(t.reject("intercept pc2").code, "invalid-target");
    assert_eq!(t.reject("intercept foe").code, "invalid-target");
}

#[test]
fn ing_r32_a_target_whose_defences_are_taken_is_told_so_not_that_it_lacks_focus() {
    // pc has two reactions (Wait) and nothing in hand: once it has dodged, no other defence is
    // open against this attack, and the log says that (it has focus and a reaction left).
    let mut t = T::turn_of(&surrounded(""), "pc");
    t.cmd("wait");
    t.cmd("pick foe");
    t.cmd("attack pc");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    assert_eq!(t.ch("pc").econ.reactions_left(), 1);
    let log = t.log();
    assert!(!log.iter().any(|l| l.contains("focus")), "{log:#?}");
    assert!(
        log.contains(&"pc has no other defence to take against this attack".to_string()),
        "{log:#?}"
    );
}

#[test]
fn ing_r32_a_0_2_0_record_that_gave_focus_as_the_reason_replays_on_this_version() {
    use fray_engine::{Game, Ruleset};
    use fray_ingenuity::Ingenuity;
    use fray_ingenuity::event::AutoWhy;
    // The fight above as 0.2.0 recorded it: the same, but "not enough focus" as the reason.
    let mut t = T::turn_of(&surrounded(""), "pc");
    t.cmd("wait");
    t.cmd("pick foe");
    t.cmd("attack pc");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    let mut old = t.game.record().clone();
    old.version = "0.2.0".into();
    let mut changed = 0;
    for e in old.entries.iter_mut().flat_map(|e| e.events.iter_mut()) {
        if let Event::Automatic { why, .. } = e
            && *why == AutoWhy::DefencesTaken
        {
            *why = AutoWhy::NoFocus;
            changed += 1;
        }
    }
    assert_eq!(changed, 1);
    let game = Game::<Ingenuity>::replay(&old).expect("0.2.0 records replay");
    assert_eq!(game.record().version, Ingenuity::VERSION);
    assert_eq!(game.record().to_json(), t.game.record().to_json());
    assert_eq!(game.state(), t.state());
}
