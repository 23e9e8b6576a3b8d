//! Sneaking: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_r40_r41_concealed_ambushers_take_a_bonus_turn_before_round_1_and_their_victims_cannot_react() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cut", "foes", "a", "concealed = true\nwield = [\"martial-hand\"]"),
            who("bo", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::PhaseStarted {
            phase: Phase::Ambush,
            ..
        }
    )));
    assert_eq!((t.state().round, t.state().phase), (0, Phase::Ambush));
    // The pcs have nobody concealed and pass by themselves; only the concealed act.
    assert_eq!(t.game.pending().map(|p| (p.first(), p.kind())), Some((FOES, "faction")));
    t.expect_rejection(FOES, "act bo", codes::CANNOT_ACT);
    t.cmd("act cut");
    // MUR-R41: ash is surprised: no reaction is asked, the sword lands at once.
    t.dice(&[3]).cmd("attack ash");
    assert!(t.last.iter().all(|e| !matches!(e, Event::Reacted { .. })));
    assert_eq!(damage(&t), [("ash".to_string(), 3)]);
    // MUR-R42: attacking revealed cut.
    assert_eq!(revealed(&t), ["cut"]);
    assert!(!ch(&t, "cut").concealed);
    t.cmd("end");
    // MUR-R40 [A]: the bonus turn does not replace cut's round-1 turn.
    assert_eq!((t.state().round, t.state().phase), (1, Phase::Round));
    t.cmds(&["act ash", "end"]);
    t.cmd("act cut");
    assert_eq!(t.state().turn.as_ref().map(|x| x.who), Some(id(&t, "cut")));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r40_r42_a_revealed_ambusher_still_meets_no_reaction_in_the_bonus_turn() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cut", "foes", "b", "concealed = true\nwield = [\"martial-hand\"]"),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act cut");
    // MUR-R42 [A]: moving without sneaking reveals the mover.
    t.cmd("move a");
    assert_eq!(revealed(&t), ["cut"]);
    // No surprise now, but ash, who is not concealed, cannot react in the bonus turn
    // (MUR-R40 [A]): the blow lands without a question.
    t.dice(&[2]).cmd("attack ash");
    assert_eq!(damage(&t), [("ash".to_string(), 2)]);
    assert_eq!(asked(&t), Some("turn"));
    t.assert_dice_used();
}

#[test]
fn mur_r41_an_enemy_attacked_by_a_concealed_character_cannot_react_even_with_its_turn_unspent() {
    for concealed in [false, true] {
        let toml = enc(
            PCS_FIRST,
            "",
            &[
                who("ash", "pcs", "a", ""),
                who("cut", "foes", "a", "wield = [\"martial-hand\"]"),
            ]
            .concat(),
        );
        let mut t = Table::<Murdham>::load(&toml, &[], &[]);
        if concealed {
            t.cmd("gm conceal cut on");
        }
        t.cmds(&["pass", "act cut"]);
        if concealed {
            // ash has not had its turn, yet no reaction is asked: the blow lands at once.
            t.dice(&[4]).cmd("attack ash");
            assert_eq!(revealed(&t), ["cut"]);
        } else {
            t.cmd("attack ash");
            assert_eq!(asked(&t), Some("reaction"));
            assert!(t.legal().contains(&"dodge".to_string()));
            t.dice(&[4]).cmd("take");
        }
        assert_eq!(damage(&t), [("ash".to_string(), 4)]);
        assert_eq!(asked(&t), Some("turn"));
        t.assert_dice_used();
        t.assert_replays();
    }
}

#[test]
fn mur_r42_a_passed_sneak_keeps_a_mover_concealed_a_failed_one_or_talk_reveals_it() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cut", "foes", "b", "concealed = true\nagi = 12"),
            who("kit", "foes", "b", "concealed = true"),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act cut");
    // AGI save 12 against 12 passes: cut stays concealed in its new place.
    t.dice(&[12]).cmd("move a|b sneak");
    assert_eq!(saves(&t), [("cut".to_string(), 12, true)]);
    assert!(ch(&t, "cut").concealed);
    assert_eq!(ch(&t, "cut").at, place(&t, "a|b"));
    // Talking reveals.
    t.cmd("say");
    assert_eq!(revealed(&t), ["cut"]);
    t.cmds(&["end", "act kit"]);
    // 11 against 10 fails: kit is revealed.
    t.dice(&[11]).cmd("move a|b sneak");
    assert_eq!(saves(&t), [("kit".to_string(), 11, false)]);
    assert_eq!(revealed(&t), ["kit"]);
    // Only a concealed character sneaks.
    t.expect_rejection(FOES, "move b sneak", codes::NOT_ALLOWED);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r57_a_concealed_pc_is_absent_from_the_bandit_seats_view_and_targets_until_it_attacks() {
    let mut t = hidden_pc("a");
    assert_eq!(view_ids(&t, FOES), ["ally", "bandit"]);
    assert_eq!(view_ids(&t, PCS), ["pc", "ally", "bandit"]);
    assert_eq!(view_ids(&t, GM), ["pc", "ally", "bandit"]);
    // The pc lets the bonus turn go by, and waits in round 1; the bandit takes its turn.
    t.cmds(&["pass", "pass", "act bandit"]);
    assert_eq!(t.state().round, 1);
    let legal = t.legal();
    assert!(legal.contains(&"attack ally".to_string()), "{legal:?}");
    assert!(
        legal.iter().all(|c| !c.split_whitespace().any(|w| w == "pc")),
        "{legal:?}"
    );
    t.expect_rejection(FOES, "attack pc", codes::BAD_TARGET);
    assert_eq!(view_ids(&t, FOES), ["ally", "bandit"]);
    t.cmd("end");
    // The pc attacks the bandit: revealed, it appears in the bandit seat's view.
    t.cmd("act pc");
    t.dice(&[2]).cmd("attack bandit");
    assert_eq!(revealed(&t), ["pc"]);
    assert_eq!(view_ids(&t, FOES), ["pc", "ally", "bandit"]);
    t.cmds(&["end", "act ally", "end"]);
    // Round 2: the bandit may now attack the pc.
    assert_eq!(t.state().round, 2);
    t.cmds(&["pass", "act bandit"]);
    assert!(t.legal().contains(&"attack pc".to_string()), "{:?}", t.legal());
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r57_the_ai_bandit_chooses_the_same_whether_the_concealed_pc_stands_in_its_zone_or_not() {
    use fray_engine::text::TextRuleset;
    let choices = |pc_at: &str| -> Vec<String> {
        let mut t = hidden_pc(pc_at);
        t.cmds(&["pass", "pass"]);
        let mut ai = Murdham::heuristic();
        let mut rng = fray_dice::Prng::for_stream(1, 0);
        let mut out = Vec::new();
        while t.game.pending().is_some_and(|p| p.first() == FOES) && out.len() < 6 {
            let (seat, c) = fray_engine::choose_first(&mut *ai, t.state(), &mut rng).expect("a choice");
            out.push(Murdham::format_command(t.state(), &c));
            t.game.submit(seat, c).expect("the AI's command is accepted");
        }
        out
    };
    let near = choices("a");
    // The pc is the weakest enemy: an AI that saw it in its zone would strike it instead.
    assert_eq!(near, ["act bandit", "attack ally"]);
    assert_eq!(choices("b"), near);
    assert_eq!(choices("d"), near);
}
