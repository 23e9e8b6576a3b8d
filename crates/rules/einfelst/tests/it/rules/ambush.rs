//! Ambush: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r8_r9_h25_a_successful_ambush_gives_each_ambusher_an_extra_card_and_a_bonus() {
    // Sneak 3 vs Track 1: 2 left, so 1 extra success (+1 die). The ambushers draw first, two
    // cards each, keeping one and putting the other back.
    let faces = cat(&[hits(3, 3), hits(1, 3), vec![7, 1]]);
    let mut t = Table::<Einfelst>::load(&ambush("track"), &[], &faces);
    assert_eq!(t.game.pending().unwrap().kind(), "card");
    // bo drew 7 and 1; it keeps 1. di then draws from 2..10: faces 6 and 1 are 7 and 2.
    t.dice(&[6, 1]).cmd("keep 1");
    // di keeps 2; ash and cy draw one each.
    t.dice(&[1, 1]).cmd("keep 2");
    assert_eq!(card_of(&t, "bo"), vec![1]);
    assert_eq!(card_of(&t, "di"), vec![2]);
    assert_eq!(t.state().deck.len(), 6);
    let bonus: Vec<u8> = t.state().chars.iter().map(|c| c.ambush_bonus).collect();
    assert_eq!(bonus, vec![0, 0, 1, 1]);
}

#[test]
fn ein_r8_sneak_3_against_track_1_is_a_success_with_one_extra() {
    let faces = cat(&[hits(3, 3), hits(1, 3)]);
    let toml = enc(
        "ask-card-choice = false",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
            "[ambush]\nside = \"foes\"\ntest = \"track\"\n".to_string(),
        ]
        .concat(),
    );
    // bo draws two (5 and 2: it keeps 2, 5 goes back), then ash draws 5.
    let faces = cat(&[faces, cards(&[5, 2]), vec![4]]);
    let t = Table::<Einfelst>::load(&toml, &[], &faces);
    assert_eq!(card_of(&t, "bo"), vec![2]);
    assert_eq!(card_of(&t, "ash"), vec![5]);
    assert_eq!(t.state().ch(id(&t, "bo")).ambush_bonus, 1);
    assert_eq!(t.state().extra_card_side, Some(1));
}

#[test]
fn ein_r8_sneak_1_against_track_1_is_detected_and_the_target_draws_the_extra_card() {
    let toml = enc(
        "ask-card-choice = false",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
            "[ambush]\nside = \"foes\"\ntest = \"track\"\n".to_string(),
        ]
        .concat(),
    );
    // ash draws two (6 and 3: keeps 3), then bo draws.
    let faces = cat(&[hits(1, 3), hits(1, 3), cards(&[6, 3]), vec![1]]);
    let t = Table::<Einfelst>::load(&toml, &[], &faces);
    assert_eq!(t.state().extra_card_side, Some(0));
    assert_eq!(card_of(&t, "ash"), vec![3]);
    assert_eq!(t.state().ch(id(&t, "bo")).ambush_bonus, 0);
}

#[test]
fn ein_r9_r10_h11_one_roll_for_every_ambusher_and_no_bonus_without_a_test() {
    // EIN-R10: granted without a test: the extra card, no bonus.
    let toml = enc(
        "ask-card-choice = false",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
            who("di", "foes", "d", ""),
            "[ambush]\nside = \"foes\"\ntest = \"none\"\n".to_string(),
        ]
        .concat(),
    );
    let t = Table::<Einfelst>::load(&toml, &[], &[1, 1, 1, 1, 1]);
    assert_eq!(t.state().extra_card_side, Some(1));
    assert!(t.state().chars.iter().all(|c| c.ambush_bonus == 0));
    // EIN-R9: one Sneak test (3 successes) against one Track test (0): both ambushers get +2.
    let toml = enc(
        "ask-card-choice = false",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
            who("di", "foes", "d", ""),
            "[ambush]\nside = \"foes\"\ntest = \"track\"\n".to_string(),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cat(&[hits(3, 3), hits(0, 3), vec![1, 1, 1, 1, 1]]));
    let bonus: Vec<u8> = t.state().chars.iter().map(|c| c.ambush_bonus).collect();
    assert_eq!(bonus, vec![0, 2, 2]);
    // EIN-H11: the bonus goes on the first manoeuvre: a strike rolls 3 + 2 dice.
    while turn(&t) != "bo" {
        t.cmd("end");
    }
    t.cmd("move a");
    // The first manoeuvre had no test: the bonus is gone.
    assert_eq!(t.state().ch(id(&t, "bo")).ambush_bonus, 0);
    t.cmd("strike ash");
    t.dice(&hits(0, 3)).cmd("pass");
    assert_eq!(tests(&t), vec![(3, 0)]);
}

#[test]
fn ein_r8_r27_ties_may_be_read_in_favour_of_the_one_acting() {
    // ambush-ties = "succeed": Sneak 1 against Track 1 is unseen, with no bonus.
    let toml = enc(
        "ask-card-choice = false\nambush-ties = \"succeed\"",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
            "[ambush]\nside = \"foes\"\ntest = \"track\"\n".to_string(),
        ]
        .concat(),
    );
    let t = Table::<Einfelst>::load(&toml, &[], &cat(&[hits(1, 3), hits(1, 3), vec![1, 1, 1]]));
    assert_eq!(t.state().extra_card_side, Some(1));
    assert_eq!(t.state().ch(1).ambush_bonus, 0);
    // grapple-ties = "succeed": grapple 2 against break free 2 holds.
    let mut t = duel("grapple-ties = \"succeed\"", "", "", 1, 5);
    t.cmd("grapple bo");
    t.dice(&cat(&[hits(2, 3), hits(2, 3)])).cmd("break-free");
    assert_eq!(t.state().ch(1).held_by, Some(0));
}

#[test]
fn ein_pin_costs_one_harm_on_the_next_zone_entry_and_ends_with_the_target_s_turn() {
    let bow = "weapons = [\"shortbow\"]";
    let pts = "harm = \"points\"\nharm-capacity = 9";
    let toml = enc("", &[who("ash", "pcs", "b", bow), who("bo", "foes", "a", pts)].concat());
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("shoot bo");
    t.dice(&hits(2, 3)).cmd("pass");
    t.cmd("spend pin");
    assert!(t.state().ch(1).pinned);
    t.cmd("end");
    t.cmd("move d"); // bo: 1 from the shot (a short bow), 1 for the move
    assert_eq!(t.state().ch(1).harm.points, 2);
    assert!(!t.state().ch(1).pinned);
    // A pin not used by the end of the target's next turn is gone.
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("shoot bo");
    t.dice(&hits(2, 3)).cmd("pass");
    t.cmd("spend pin");
    t.cmd("end");
    t.cmd("end");
    assert!(!t.state().ch(1).pinned);
}

#[test]
fn ein_h20_a_player_character_may_push_a_failed_test_for_one_harm() {
    let pts = "harm = \"points\"\nharm-capacity = 9";
    let mut t = duel("push-rolls = true", "", pts, 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(0, 3)).cmd("pass");
    assert_eq!(t.game.pending().unwrap().kind(), "push");
    // The three dice that missed again: one success, a hit; ash takes 1 Physical Harm.
    t.dice(&[6, 1, 1]).cmd("push");
    assert!(t.log().iter().any(|l| l.contains("Hit")), "{:?}", t.log());
    assert_eq!(t.state().ch(1).harm.points, 2);
    assert_eq!(physical(&t, "ash"), [1, 0, 0]);
    // Accepting changes nothing; the GM's creatures never push.
    let mut t = duel("push-rolls = true", "", pts, 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(0, 3)).cmd("pass");
    t.cmd("accept");
    assert_eq!(physical(&t, "ash"), [0, 0, 0]);
    t.cmd("end");
    t.cmd("strike ash");
    t.dice(&hits(0, 3)).cmd("pass");
    assert_eq!(t.game.pending().unwrap().kind(), "turn");
    // Off by default: no decision.
    let mut t = duel("", "", pts, 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(0, 3)).cmd("pass");
    assert_eq!(t.game.pending().unwrap().kind(), "turn");
}

#[test]
fn ein_h22_harm_past_the_top_row_breaks_the_creature_with_a_critical_injury() {
    // bo's lesser and moderate rows are full (2/2/1 slots).
    let setup = || {
        let mut t = duel("", "", "", 1, 5);
        for g in ["physical-lesser =2", "physical-moderate =2"] {
            t.type_as(GM, &format!("gm set bo {g}"));
        }
        t.cmd("strike bo");
        t
    };
    // 2 Harm as one moderate: it moves up to the severe row: incapacitated (EIN-H2).
    let mut t = setup();
    t.dice(&hits(1, 3)).cmd("pass");
    t.cmd("split 2");
    assert_eq!(t.state().ch(1).status, Status::Incapacitated);
    assert_eq!(t.state().ch(1).injury, None);
    // As two lesser: the first takes the severe slot, the second runs past the top: broken,
    // and a d6 on the critical injuries.
    let mut t = setup();
    t.dice(&hits(1, 3)).cmd("pass");
    t.dice(&[4]).cmd("split 1+1");
    assert_eq!(t.state().ch(1).status, Status::Broken);
    assert_eq!(t.state().ch(1).injury, Some(4));
    t.assert_dice_used();
    assert_eq!(fray_einfelst::data::critical_injuries().len(), 6);
}
