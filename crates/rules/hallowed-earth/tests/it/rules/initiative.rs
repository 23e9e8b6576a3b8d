//! Initiative: the rule tests of this section of the rules file.

use super::*;

#[test]
fn hal_r4_base_initiative_is_a_d12_minus_the_agility_modifier_plus_traits() {
    // Agility 14 (+2): d12 5 − 2 = 3; Agility 8 (−1): 5 + 1 = 6; plus a trait's +1 = 7.
    let t = duel("", "agility = 14", "agility = 8\ninitiative = 1", [5, 5]);
    assert_eq!((t.state().ch(0).base, t.state().ch(1).base), (Some(3), Some(7)));
    assert!(
        t.log().contains(&"Base Initiative: ash 3 (d12 5)".to_string()),
        "{:?}",
        t.log()
    );
    // The range of 1d12 − 2 is −1..=10 and of 1d12 + 1 is 2..=13.
    let low = duel("", "agility = 14", "agility = 8", [1, 12]);
    assert_eq!((low.state().ch(0).base, low.state().ch(1).base), (Some(-1), Some(13)));
}

#[test]
fn hal_r5_the_seeds_mixed_group_rolls_four_times_and_members_keep_their_own_modifiers() {
    let wolf = "agility = 15\ngroup = \"wolves\"";
    let warrior = "agility = 10\ngroup = \"warriors\"";
    let toml = enc(
        "",
        &[
            who("hero", "pcs", "0,0", ""),
            who("witch", "foes", "9,0", "agility = 12"),
            who("scoundrel", "foes", "9,1", ""),
            who("warrior-1", "foes", "8,0", warrior),
            who("warrior-2", "foes", "8,1", warrior),
            who("warrior-3", "foes", "8,2", warrior),
            who("warrior-4", "foes", "8,3", warrior),
            who("wolf-1", "foes", "7,0", wolf),
            who("wolf-2", "foes", "7,1", &format!("{wolf}\ninitiative = -1")),
        ]
        .concat(),
    );
    // hero, witch, scoundrel, the warriors' one roll, the wolves' one roll: the foes roll 4.
    let t = Table::<HallowedEarth>::load(&toml, &[], &[6, 9, 4, 10, 8]);
    let rolls: Vec<usize> = events(&t)
        .iter()
        .filter_map(|e| match e {
            Event::Initiative { group, .. } => Some(group.len()),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, [1, 1, 1, 4, 2]);
    let base = |id: &str| t.state().ch(t.state().find(id).unwrap()).base.unwrap();
    assert_eq!((base("witch"), base("scoundrel")), (8, 4));
    assert!((1..=4).all(|i| base(&format!("warrior-{i}")) == 10));
    // The shared d12 8; Agility 15 is +2; wolf-2's trait adds −1.
    assert_eq!((base("wolf-1"), base("wolf-2")), (6, 5));
}

#[test]
fn hal_r8_hal_h11_h12_h24_each_kind_of_action_has_its_modifier() {
    let kit = r#"weapons = [
  { name = "sword", damage = "1d6" },
  { name = "maul", damage = "2d6", speed = 3, hand = "both" },
  { name = "knife", damage = "1d4", thrown = true, range = 10, speed = -1 },
  { name = "dart", damage = "1d3", thrown = true, range = 10, throw-speed = 1 },
]
spells = [
  { name = "bolt", tn = 14, damage = "1d6" },
  { name = "quick", tn = 14, speed = 1, damage = "1d4" },
]
items = [{ name = "tonic", restores = "1d4" }, { name = "salve", restores = "1d4", speed = 3 }]
mana = 10"#;
    let cases = [
        ("attack bo with sword", 0),   // + weapon speed (HAL-H11: 0 when not given)
        ("attack bo with maul", 3),    // + weapon speed
        ("defensive bo with maul", 4), // + weapon speed + 1
        ("defensive", 1),              // no attack: +1
        ("full-defense", -1),          // −1
        ("cast bolt bo", 4),           // HAL-H12: TN 14 − 10
        ("cast quick bo", 1),          // a spell's own speed
        ("use tonic ash", 6),          // a consumable: +6
        ("use salve ash", 3),          // unless stated
        ("throw knife bo", 2),         // a throw: +2
        ("throw dart bo", 1),          // unless stated
        ("heal zed", 0),               // HAL-H24: +0 (zed is down below)
        ("move", 0),                   // HAL-H24
    ];
    for (action, modifier) in cases {
        let mut t = duel_z("", kit, "strength = 12", [5, 12]);
        if action.starts_with("heal") {
            t.cmd("gm set zed wp =0");
        }
        t.type_as(PCS, &format!("declare ash {action}"));
        t.type_as(FOES, "declare bo move");
        let count = t.state().acts.iter().find(|a| a.who == 0).unwrap().count;
        assert_eq!(count, 5 + modifier, "{action}");
    }
    // The default for weapons without a speed is the option's.
    let mut t = duel("default-weapon-speed = 2", "", "", [5, 5]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    assert_eq!(t.state().acts.iter().find(|a| a.who == 0).unwrap().count, 7);
}

#[test]
fn hal_r10_equal_counts_resolve_together_so_both_attacks_land_a_double_ko() {
    // Strength 3: 3 Wound Points, dead at −3; no Stress. A 1d6+8 blow kills.
    let fragile = "strength = 3\nstress = 0\nweapons = [{ name = \"axe\", damage = \"1d6+8\" }]";
    let mut t = duel("", fragile, fragile, [6, 6]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo attack ash");
    // Both at count 6. ash strikes first and kills bo (d20 15 hits Defense 10; 1 + 8 = 9).
    t.dice(&[15, 1]).cmd("act");
    assert!(has(&t, "bo", Conditions::DEAD));
    t.cmd("end");
    // bo still acts on the same count (HAL-R10): its blow lands and kills ash too.
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(1));
    t.dice(&[15, 2]).cmd("act");
    assert!(has(&t, "ash", Conditions::DEAD));
    t.cmd("end");
    // HAL-R23: nobody is left fighting.
    let o = t.game.outcome().expect("over");
    assert_eq!((o.winner, o.reason.as_str()), (None, "nobody-fighting"));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn hal_r10_a_creature_killed_on_an_earlier_count_does_not_act() {
    let fragile = "strength = 3\nstress = 0\nweapons = [{ name = \"axe\", damage = \"1d6+8\" }]";
    let mut t = duel("", fragile, fragile, [5, 6]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo attack ash");
    t.dice(&[15, 1]).cmd("act");
    t.cmd("end");
    // Count 6 never comes for the dead: the combat ends, ash's side wins.
    assert_eq!(t.game.outcome().and_then(|o| o.winner), Some(0));
}

#[test]
fn hal_r11_secret_declarations_reach_no_other_seat_until_the_reveal() {
    let mut t = duel("", "", "", [7, 3]);
    // Both seats are asked at once.
    let p = t.game.pending().unwrap();
    assert_eq!(p.seats.iter().collect::<Vec<_>>(), vec![PCS, FOES]);
    t.expect_rejection(PCS, "declare bo move", codes::NOT_YOUR_CREATURE);
    t.type_as(PCS, "declare ash attack bo");
    let g = text_game(&t);
    use fray_engine::text::AnyGame;
    assert_eq!(g.view_json(FOES)["extra"]["chars"][0]["declared"], "secret");
    assert_eq!(g.view_json(PCS)["extra"]["chars"][0]["declared"]["attack"]["target"], 1);
    let theirs: Vec<String> = g.log_for(FOES).into_iter().filter_map(|l| l.text).collect();
    assert!(theirs.contains(&"ash declares in secret".to_string()), "{theirs:?}");
    assert!(!theirs.iter().any(|l| l.contains("attack bo")), "{theirs:?}");
    assert!(
        g.full_log()
            .iter()
            .any(|l| l.text.as_deref() == Some("ash declares: attack bo with sword"))
    );
    // This seat has nothing left to declare: the engine refuses it before the rules do.
    t.expect_rejection(PCS, "declare ash move", Reject::NOT_YOUR_DECISION);
    t.type_as(FOES, "declare bo move");
    // The reveal shows everything to everyone.
    let g = text_game(&t);
    let after: Vec<String> = g.log_for(FOES).into_iter().filter_map(|l| l.text).collect();
    assert!(
        after.iter().any(|l| l.contains("7 ash: attack bo with sword")),
        "{after:?}"
    );
    t.assert_replays();
}

#[test]
fn the_shared_view_shows_gauges_flags_and_squares_and_a_secret_declaration_only_as_made() {
    use fray_engine::Ruleset;
    use fray_engine::text::TextRuleset;
    use fray_engine::view::Place;
    let mut t = duel("", "", "", [7, 3]);
    // Both seats declare at once; each is told of its own creature, not the other's.
    let d = HallowedEarth::seat_view(t.state(), FOES).deciding.expect("a decision");
    assert_eq!(d.seats, ["pcs", "foes"]);
    assert!(d.text.contains("bo declares") && !d.text.contains("ash"), "{}", d.text);
    t.type_as(PCS, "declare ash attack bo");
    let s = t.state();
    let gm = HallowedEarth::seat_view(s, Seat::GM);
    assert_eq!(gm.ruleset, "hallowed-earth");
    assert_eq!((gm.round, gm.phase.as_deref()), (1, Some("declare")));
    let ids: Vec<&str> = gm.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ash", "bo"]);
    let ash = &gm.combatants[0];
    assert_eq!((ash.side.as_str(), ash.seat.as_str()), ("pcs", "pcs"));
    let wp = ash
        .gauges
        .iter()
        .find(|g| g.name == "wound-points")
        .expect("wound points");
    assert_eq!((wp.value, wp.max), (12, Some(12)));
    assert_eq!(ash.place, Some(Place::square(0, 0)));
    let declared = ash.statuses.iter().find(|x| x.name == "declared").expect("declared");
    assert_eq!(declared.value.as_deref(), Some("attack bo with sword"));
    // Each set condition flag is a status of its own.
    let mut t2 = duel("", "", "", [7, 3]);
    t2.cmd("gm blind bo");
    t2.cmd("gm obvious bo");
    let bo = &HallowedEarth::seat_view(t2.state(), PCS).combatants[1];
    let names: Vec<&str> = bo.statuses.iter().map(|x| x.name.as_str()).collect();
    assert!(names.contains(&"blinded") && names.contains(&"obvious"), "{names:?}");
    // The other seat sees that ash has declared, not what, in every position it cannot tell
    // from this one.
    let foes = HallowedEarth::seat_view(s, FOES);
    let declared = foes.combatants[0]
        .statuses
        .iter()
        .find(|x| x.name == "declared")
        .expect("declared");
    assert_eq!(declared.value, None);
    assert!(foes.deciding.as_ref().is_some_and(|d| d.seats == ["foes"]));
    let mut others = Vec::new();
    HallowedEarth::indistinguishable(s, FOES, &mut others);
    assert!(!others.is_empty());
    for other in &others {
        assert_eq!(HallowedEarth::seat_view(other, FOES), foes);
    }
}

#[test]
fn hal_r11_hal_h20_one_at_a_time_methods_follow_their_order_and_show_earlier_declarations() {
    let three = |options: &str| {
        let toml = enc(
            options,
            &[
                who("ash", "pcs", "0,0", "agility = 12"),
                who("bo", "foes", "1,0", "agility = 16"),
                who("cy", "pcs", "0,1", "agility = 12\ninitiative = -3"),
            ]
            .concat(),
        );
        Table::<HallowedEarth>::load(&toml, &[], &[5, 5, 5])
    };
    let order = |options: &str| {
        let mut t = three(options);
        let mut seen = Vec::new();
        while let Some(p) = t.game.pending().filter(|p| p.kind() == "declare") {
            let who = p.actor().expect("one creature at a time");
            seen.push(t.state().ch(who).id.to_string());
            let id = t.state().ch(who).id.clone();
            t.cmd(&format!("declare {id} move"));
        }
        seen
    };
    // Highest Agility score first; ties in encounter order (HAL-H20).
    assert_eq!(order("declaration = \"agility\""), ["bo", "ash", "cy"]);
    // Lowest initiative modifier (−Agility modifier + traits) first: cy −4, bo −3, ash −1.
    assert_eq!(order("declaration = \"initiative-modifier\""), ["cy", "bo", "ash"]);
    // Round the table: the first seat after the Referee's, then the next.
    assert_eq!(order("declaration = \"clockwise\""), ["ash", "cy", "bo"]);
    assert_eq!(order("declaration = \"counterclockwise\""), ["bo", "ash", "cy"]);
    // The Referee's own list; those it leaves out follow in encounter order.
    assert_eq!(
        order("declaration = \"listed\"\ndeclaration-list = [\"cy\"]"),
        ["cy", "ash", "bo"]
    );
    // Each declaration is seen by those who declare after it, and out-of-turn ones are refused
    // (strictly one creature after the other with `seat-picks-declaration-order` off).
    let mut t = three("declaration = \"agility\"\nseat-picks-declaration-order = false");
    t.expect_rejection(PCS, "declare ash move", Reject::NOT_YOUR_DECISION);
    t.cmd("declare bo attack ash");
    // ash is next, not cy (the same seat), and ash cannot declare twice.
    t.expect_rejection(PCS, "declare cy move", codes::NOT_YOUR_CREATURE);
    let g = text_game(&t);
    use fray_engine::text::AnyGame;
    assert_eq!(g.view_json(PCS)["extra"]["chars"][1]["declared"]["attack"]["target"], 0);
    t.cmd("declare ash move");
    t.expect_rejection(PCS, "declare ash move", codes::ALREADY_DECLARED);
}

#[test]
fn hal_r11_a_seat_declares_its_own_creatures_in_any_order_where_the_method_allows() {
    let three = |options: &str| {
        let toml = enc(
            options,
            &[
                who("ash", "pcs", "0,0", "agility = 12"),
                who("bo", "foes", "1,0", "agility = 14"),
                who("cy", "pcs", "0,1", "agility = 10"),
            ]
            .concat(),
        );
        Table::<HallowedEarth>::load(&toml, &[], &[5, 5, 5])
    };
    // Secret: the travellers' seat may declare cy before ash; the prompt names ash, the one due
    // by default, and the legal list gives ash's declarations first, then cy's.
    let mut t = three("");
    let g = text_game(&t);
    use fray_engine::text::AnyGame;
    assert_eq!(
        g.pending().expect("a decision").prompt,
        "Round 1: secret declarations; ash declares an action (or first cy); other seats still declaring"
    );
    let legal = t.legal();
    let first_cy = legal
        .iter()
        .position(|c| c.starts_with("declare cy"))
        .expect("cy is listed");
    assert!(
        legal[..first_cy].iter().all(|c| c.starts_with("declare ash")),
        "{legal:?}"
    );
    assert!(
        legal[first_cy..].iter().all(|c| c.starts_with("declare cy")),
        "{legal:?}"
    );
    t.type_as(PCS, "declare cy move");
    t.type_as(PCS, "declare ash move");
    t.type_as(FOES, "declare bo move");
    assert_eq!(t.state().phase, Phase::Resolving);
    // One at a time, by Agility: bo 14, ash 12, cy 10. After bo, the travellers' seat has ash
    // and cy in a row: either may come first.
    let mut t = three("declaration = \"agility\"");
    t.cmd("declare bo move");
    let g = text_game(&t);
    assert_eq!(
        g.pending().expect("a decision").prompt,
        "Round 1: ash declares an action (or first cy)"
    );
    t.type_as(PCS, "declare cy attack bo");
    assert!(t.log().contains(&"cy declares: attack bo with sword".to_string()));
    t.type_as(PCS, "declare ash move");
    assert_eq!(t.state().phase, Phase::Resolving);
    // By lowest initiative modifier: ash −2 (Agility 14), bo −1, cy +0. bo stands between the
    // travellers: cy may not come before it, or bo's seat would not see cy's declaration before
    // making its own.
    let toml = enc(
        "declaration = \"initiative-modifier\"",
        &[
            who("ash", "pcs", "0,0", "agility = 14"),
            who("bo", "foes", "1,0", "agility = 12"),
            who("cy", "pcs", "0,1", "agility = 10"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[5, 5, 5]);
    let r = t.expect_rejection(PCS, "declare cy move", codes::NOT_YOUR_CREATURE);
    assert_eq!(r.reason, "it is ash's turn to declare");
    assert!(
        t.legal().iter().all(|c| c.starts_with("declare ash")),
        "{:?}",
        t.legal()
    );
    t.type_as(PCS, "declare ash move");
    t.expect_rejection(PCS, "declare cy move", Reject::NOT_YOUR_DECISION);
    t.type_as(FOES, "declare bo move");
    t.type_as(PCS, "declare cy move");
    t.assert_replays();
    // With the option off, secret declarations come in encounter order within a seat.
    let mut t = three("seat-picks-declaration-order = false");
    let r = t.expect_rejection(PCS, "declare cy move", codes::NOT_YOUR_CREATURE);
    assert_eq!(r.reason, "it is ash's turn to declare");
}

#[test]
fn hal_r12_r13_the_seeds_ghoul_arrives_after_count_thirteen_and_acts_twice_next_round() {
    // A sentry acts at 13 (d12 10 + a +3 trait), a scout at 15; the ghoul template is ready.
    let toml = enc(
        "",
        &[
            who("sentry", "pcs", "0,0", "initiative = 3"),
            who("scout", "pcs", "0,1", "initiative = 5"),
            who("bo", "foes", "9,4", ""),
            "[template.ghoul]\nstrength = 12\nstress = 10\nspeed = 6\nweapons = [{ name = \"claws\", damage = \"1d4\", hand = \"natural\" }]\n".into(),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[10, 10, 1]);
    t.type_as(PCS, "declare sentry move");
    t.type_as(PCS, "declare scout move");
    t.type_as(FOES, "declare bo move");
    t.cmd("end"); // bo at 1
    t.cmd("end"); // the sentry at 13: count 13 has resolved
    // HAL-R12: the ghoul rolls its Base Initiative at once (d12 8) and declares.
    t.dice(&[8]).cmd("gm add ghoul ghoul foes 1,0");
    assert_eq!(
        t.game.pending().map(|p| (p.kind(), p.actor())),
        Some(("declare", Some(3)))
    );
    assert_eq!(
        t.log(),
        [
            "Ruling: gm add ghoul ghoul foes 1,0: ghoul joins foes at 1,0",
            "ghoul: Stress 10, Wound Points 12",
            "Base Initiative: ghoul 8 (d12 8)"
        ]
    );
    // Its Free action (HAL-R17) goes with the action it declares it with.
    t.cmd("declare ghoul free speak");
    t.cmd("declare ghoul attack sentry with claws");
    // HAL-R13: 8 has passed: it does not act this round.
    assert!(
        t.log()
            .iter()
            .any(|l| l.contains("count 8 has passed: it acts next round twice, at -4")),
        "{:?}",
        t.log()
    );
    t.cmd("end"); // the scout at 15
    assert_eq!(t.state().round, 2);
    t.type_as(PCS, "declare sentry move");
    t.type_as(PCS, "declare scout move");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare ghoul attack sentry with claws");
    let ghoul: Vec<i32> = t.state().acts.iter().filter(|a| a.who == 3).map(|a| a.count).collect();
    assert_eq!(ghoul, [-4, 8], "twice: the missed action at 8 − 12, then the new one");
    let frees: Vec<bool> = t
        .state()
        .acts
        .iter()
        .filter(|a| a.who == 3)
        .map(|a| a.free.is_some())
        .collect();
    assert_eq!(
        frees,
        [true, false],
        "the arrival's Free action comes with its catch-up"
    );
    // The round after, once.
    while t.state().round == 2 {
        match t.game.pending().map(|p| p.kind()) {
            Some("turn") => {
                t.cmd("end");
            }
            other => panic!("{other:?}"),
        }
    }
    t.type_as(PCS, "declare sentry move");
    t.type_as(PCS, "declare scout move");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare ghoul attack sentry with claws");
    let ghoul: Vec<i32> = t.state().acts.iter().filter(|a| a.who == 3).map(|a| a.count).collect();
    assert_eq!(ghoul, [8]);
    t.assert_replays();
}

#[test]
fn hal_r42_a_newcomer_joins_this_round_unless_its_count_has_passed() {
    let toml = enc(
        "",
        &[
            who("sentry", "pcs", "0,0", "initiative = 3"),
            who("scout", "pcs", "0,1", "initiative = 8"),
            who("bo", "foes", "9,4", ""),
            "[template.ghoul]\nstrength = 12\nstress = 10\nspeed = 6\ninitiative = 5\nweapons = [{ name = \"claws\", damage = \"1d4\", hand = \"natural\" }]\n".into(),
        ]
        .concat(),
    );
    // Counts: bo 1, the sentry 13, the scout 18. The ghoul's count is its d12 + 5.
    // (arrives during whose turn, after it moved, d12, acts this round)
    let cases = [
        ("sentry", true, 7u16, false), // 12 < 13, a count under way: passed
        ("sentry", false, 7, true),    // 12, the sentry's count not begun: still ahead
        ("sentry", true, 8, true),     // 13: joins the count under way
        ("sentry", true, 10, true),    // 15: still ahead
        ("scout", false, 8, false),    // 13: at or below the last count resolved (13)
        ("scout", false, 10, true),    // 15: after 13 resolved, before 18 began: ahead
        ("scout", true, 10, false),    // 15: below 18, begun
    ];
    for (during, moved, d12, this_round) in cases {
        let mut t = Table::<HallowedEarth>::load(&toml, &[], &[10, 10, 1]);
        t.type_as(PCS, "declare sentry move");
        t.type_as(PCS, "declare scout move");
        t.type_as(FOES, "declare bo move");
        t.cmd("end"); // bo at 1
        if during == "scout" {
            t.cmd("end"); // the sentry at 13: count 13 has resolved
        }
        if moved {
            t.cmd("move 2,2");
        }
        t.dice(&[d12]).cmd("gm add ghoul ghoul foes 1,0");
        t.cmd("declare ghoul move");
        let scheduled = t.state().acts.iter().any(|a| a.who == 3);
        assert_eq!(
            scheduled, this_round,
            "during the {during}'s turn (moved: {moved}), d12 {d12}"
        );
        if this_round && !moved && d12 < 10 + if during == "scout" { 3 } else { 0 } {
            // It comes before the untouched turn, which starts again after it.
            assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(3));
        }
        // Play out the round; the ghoul ends its own turn when it comes.
        while t.state().round == 1 {
            t.cmd("end");
        }
        t.type_as(PCS, "declare sentry move");
        t.type_as(PCS, "declare scout move");
        t.type_as(FOES, "declare bo move");
        t.type_as(FOES, "declare ghoul move");
        let n = t.state().acts.iter().filter(|a| a.who == 3).count();
        assert_eq!(
            n,
            if this_round { 1 } else { 2 },
            "during the {during}'s turn, d12 {d12}"
        );
    }
}

#[test]
fn hal_h21_a_newcomer_that_arrives_unaware_neither_declares_nor_catches_up() {
    let toml = enc(
        "",
        &[
            who("sentry", "pcs", "0,0", "initiative = 3"),
            who("bo", "foes", "9,4", ""),
            "[template.ghoul]\nstrength = 12\nstress = 10\nweapons = [{ name = \"claws\", damage = \"1d4\" }]\n".into(),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[10, 1]);
    t.type_as(PCS, "declare sentry move");
    t.type_as(FOES, "declare bo move");
    t.cmds(&["end"]);
    t.dice(&[8]).cmd("gm add ghoul ghoul foes 1,0");
    t.cmd("gm unaware ghoul");
    assert_eq!(
        t.log(),
        ["Ruling: gm unaware ghoul: ghoul is Surprised: it neither declares nor acts this round"]
    );
    assert_eq!(
        t.game.pending().map(|p| p.kind()),
        Some("turn"),
        "no declaration is asked"
    );
    t.cmd("end");
    assert_eq!(t.state().round, 2);
    t.type_as(PCS, "declare sentry move");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare ghoul move");
    assert_eq!(
        t.state().acts.iter().filter(|a| a.who == 2).count(),
        1,
        "no catch-up turn"
    );
}

#[test]
fn hal_r11_hal_r17_a_secret_free_action_is_seen_as_declared_but_not_which() {
    let mut t = free_trio("", "", "");
    t.type_as(PCS, "declare ash free draw dagger");
    let g = text_game(&t);
    use fray_engine::text::AnyGame;
    let theirs: Vec<String> = g.log_for(FOES).into_iter().filter_map(|l| l.text).collect();
    assert!(
        theirs.contains(&"ash declares a free action in secret".to_string()),
        "{theirs:?}"
    );
    assert!(!theirs.iter().any(|l| l.contains("dagger")), "{theirs:?}");
    assert_eq!(g.view_json(FOES)["extra"]["chars"][0]["declared_free"], "secret");
    assert_eq!(
        g.view_json(PCS)["extra"]["chars"][0]["declared_free"]["draw"]["weapon"],
        1
    );
}

#[test]
fn hal_h16_a_declaration_binds_its_target_is_gone_and_the_fallen_may_still_act() {
    // bo's target, cy, is taken away on count 2 (a GM ruling here); bo's attack on 9 is lost.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "0,0", ""),
            who("cy", "pcs", "1,1", ""),
            who("bo", "foes", "1,0", ""),
            who("dd", "foes", "9,4", ""),
        ]
        .concat(),
    );
    let start = |toml: &str| {
        let mut t = Table::<HallowedEarth>::load(toml, &[], &[1, 2, 9, 12]);
        t.type_as(PCS, "declare ash move");
        t.type_as(PCS, "declare cy move");
        t.type_as(FOES, "declare bo attack cy");
        t.type_as(FOES, "declare dd move");
        t.cmd("end"); // ash
        t
    };
    let mut t = start(&toml);
    t.cmd("gm remove cy"); // during cy's own turn: it ends
    // The lost action is said when bo's count comes.
    assert!(
        t.log()
            .contains(&"bo's turn: attack cy with sword; its attack on cy is lost: cy was taken out of the fight (it may still move)".to_string()),
        "{:?}",
        t.log()
    );
    let r = t.expect_rejection(FOES, "act", codes::BAD_TARGET);
    assert!(r.reason.contains("gone"), "{}", r.reason);
    t.expect_rejection(FOES, "act ash", codes::BAD_TARGET);
    // With `retarget`, another target in reach.
    // A target killed on an earlier count is gone too.
    let mut t = start(&toml);
    t.cmd("gm set cy wp =-12");
    t.cmd("end"); // killed on its own count, cy still ends its turn (HAL-R10)
    assert!(
        t.log().contains(
            &"bo's turn: attack cy with sword; its attack on cy is lost: cy is dead (it may still move)".to_string()
        ),
        "{:?}",
        t.log()
    );
    let mut t = start(&toml.replace("[options]\n", "[options]\nretarget = true\n"));
    t.cmd("gm remove cy");
    assert!(
        t.log()
            .contains(&"bo's turn: attack cy with sword; cy was taken out of the fight: `act <target>` aims its attack on cy at another creature in reach, else it is lost".to_string()),
        "{:?}",
        t.log()
    );
    assert!(t.legal().contains(&"act ash".to_string()), "{:?}", t.legal());
    t.dice(&[2]).cmd("act ash");
    // Dropped to Incapacitated before its count: it may still act, for 1 Wound Point...
    let mut t = start(&toml);
    t.cmd("gm set bo wp =0");
    t.cmd("end"); // cy
    t.dice(&[2]).cmd("act");
    assert_eq!(wp(&t, "bo"), -1);
    // ...or, with the option off, it loses the action.
    let mut t = start(&toml.replace("[options]\n", "[options]\nincapacitated-may-act = false\n"));
    t.cmd("gm set bo wp =0");
    t.cmd("end"); // cy
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::ActLost {
            why: fray_hallowed_earth::state::Lost::Dropped,
            ..
        }
    )));
}

#[test]
fn hal_h26_the_dying_bleed_before_morale_so_the_counts_see_that_rounds_deaths() {
    // Two monsters against two travellers; imp is Dying at −11 (Strength 12: dead at −12).
    // Bleeding first, imp dies before morale: orc is then outnumbered 2 to 1 and checks.
    // Morale first, imp still counts... as not fighting either way (it is Dying), so the
    // difference shows in the order of the events.
    let toml = |options: &str| {
        enc(
            options,
            &[
                who("a", "pcs", "0,0", ""),
                who("b", "pcs", "0,1", ""),
                who("orc", "foes", "9,0", "monster = true"),
                who("imp", "foes", "9,2", "monster = true"),
            ]
            .concat(),
        )
    };
    for (options, dying_first) in [("", true), ("end-of-round = \"morale-then-dying\"", false)] {
        let mut t = Table::<HallowedEarth>::load(&toml(options), &[], &[1, 2, 3, 4]);
        t.cmd("gm set imp wp =-11");
        t.type_as(PCS, "declare a move");
        t.type_as(PCS, "declare b move");
        t.type_as(FOES, "declare orc move");
        t.type_as(FOES, "declare imp move");
        t.cmds(&["end", "end", "end"]);
        t.dice(&[6, 6, 6]).cmd("end");
        // The end of the round is logged after its steps.
        let order: Vec<&str> = t
            .last
            .iter()
            .filter_map(|e| match e {
                Event::Damaged { .. } => Some("bleed"),
                Event::Checked { .. } => Some("morale"),
                Event::RoundEnded { .. } => Some("end"),
                Event::RoundStarted { .. } => Some("next"),
                _ => None,
            })
            .collect();
        let want = if dying_first {
            ["bleed", "morale", "end", "next"]
        } else {
            ["morale", "bleed", "end", "next"]
        };
        assert_eq!(order, want, "{options}");
        assert!(has(&t, "imp", Conditions::DEAD));
        let log = t.log();
        let morale = log.iter().position(|l| l.starts_with("orc's morale"));
        let end = log.iter().position(|l| l == "End of round 1");
        assert!(morale.is_some() && morale < end, "{log:?}");
    }
}

#[test]
fn gm_rulings_set_gauges_move_add_remove_and_end() {
    let mut t = duel_z("", "", "", [1, 9]);
    t.expect_rejection(PCS, "gm set bo stress -3", Reject::GM_ONLY);
    t.cmd("gm set bo stress -3");
    // Every ruling says what it did.
    assert_eq!(
        t.log(),
        ["Ruling: gm set bo stress -3: bo now has Stress 7/10, Wound Points 12/12"]
    );
    assert_eq!(stress(&t, "bo"), 7);
    t.expect_rejection(Seat::GM, "gm set bo stress +9", codes::BAD_RULING); // above its maximum
    t.expect_rejection(Seat::GM, "gm set bo wp +1", codes::BAD_RULING);
    t.cmd("gm set bo mana =4");
    assert_eq!(t.log(), ["Ruling: gm set bo mana =4: bo now has 4 Mana"]);
    t.expect_rejection(Seat::GM, "gm move bo 0,0", codes::BAD_RULING); // ash stands there
    t.cmd("gm move bo 2,0");
    assert_eq!(t.log(), ["Ruling: gm move bo 2,0: bo is placed at 2,0"]);
    assert_eq!(t.state().ch(1).at.to_string(), "2,0");
    t.expect_rejection(Seat::GM, "gm add bo2 nothing foes 5,4", codes::BAD_RULING);
    t.expect_rejection(Seat::GM, "gm add ash bo foes 5,4", codes::BAD_RULING);
    t.expect_rejection(Seat::GM, "gm obvious nobody", Reject::UNKNOWN_COMMAND);
    t.cmd("gm obvious bo");
    assert!(has(&t, "bo", Conditions::HOPELESS));
    assert_eq!(
        t.log(),
        ["Ruling: gm obvious bo: the outcome is now obvious to bo: its morale checks fail"]
    );
    t.cmd("gm obvious bo"); // typed again: no longer obvious
    assert!(!has(&t, "bo", Conditions::HOPELESS));
    assert_eq!(
        t.log(),
        ["Ruling: gm obvious bo: the outcome is no longer obvious to bo"]
    );
    t.cmd("gm blind ash");
    assert!(has(&t, "ash", Conditions::BLINDED));
    assert_eq!(
        t.log(),
        ["Ruling: gm blind ash: ash is Blinded: -4 to its attack rolls"]
    );
    t.cmd("gm blind ash");
    assert!(!has(&t, "ash", Conditions::BLINDED));
    assert_eq!(t.log(), ["Ruling: gm blind ash: ash is no longer Blinded"]);
    // A gauge ruling names the state it leaves: Dying, then dead.
    t.cmd("gm set ash wp -20");
    assert_eq!(
        t.log(),
        ["Ruling: gm set ash wp -20: ash now has Stress 10/10, Wound Points -8/12 [Dying]"]
    );
    t.cmd("gm set ash wp =3");
    assert_eq!(
        t.log(),
        ["Ruling: gm set ash wp =3: ash now has Stress 10/10, Wound Points 3/12"]
    );

    t.cmd("gm remove zed");
    assert!(has(&t, "zed", Conditions::REMOVED));
    assert_eq!(t.log(), ["Ruling: gm remove zed: zed is taken out of the fight"]);
    t.expect_rejection(Seat::GM, "gm remove zed", codes::BAD_RULING);
    t.cmd("gm end foes");
    assert_eq!(
        t.game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(1), "gm-ended".into()))
    );
    assert_eq!(t.log(), ["Ruling: gm end foes: the combat ends, foes win (gm-ended)"]);
    t.assert_replays();
    let mut t = duel_z("", "", "", [1, 9]);
    t.cmd("gm set ash wp =-12");
    assert_eq!(
        t.log(),
        ["Ruling: gm set ash wp =-12: ash now has Stress 10/10, Wound Points -12/12 [dead]"]
    );
    t.assert_replays();
}

#[test]
fn hal_r5_r25_r43_hal_h15_their_assumptions_are_options() {
    // HAL-R5: with `group-own-modifiers` off, the group takes its first member's base.
    let toml = enc(
        "group-own-modifiers = false",
        &[
            who("a", "pcs", "0,0", ""),
            who("w1", "foes", "9,0", "group = \"w\""),
            who("w2", "foes", "9,1", "group = \"w\"\nagility = 16"),
        ]
        .concat(),
    );
    let t = Table::<HallowedEarth>::load(&toml, &[], &[1, 6]);
    assert_eq!((t.state().ch(1).base, t.state().ch(2).base), (Some(6), Some(6)));
    // HAL-R25: with `stress-overflow` off, a hit that empties Stress stops there.
    let t = strike(
        "stress-overflow = false",
        r#"{ name = "axe", damage = "1d8+4" }"#,
        "stress = 3",
        &[15, 6],
    );
    assert_eq!((stress(&t, "bo"), wp(&t, "bo")), (0, 12));
    let t = strike("", r#"{ name = "axe", damage = "1d8+4" }"#, "stress = 3", &[15, 6]);
    assert_eq!((stress(&t, "bo"), wp(&t, "bo")), (0, 5));
    // HAL-R43: the type of the strain wounds.
    let mut t = duel_z("strain-damage-type = \"strain\"", "", "", [5, 9]);
    t.cmd("gm set ash wp =0");
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[2]).cmd("act");
    assert_eq!(t.state().ch(0).wounds[0].kind, "strain");
    // HAL-H15: with `big-hit-counts-stress`, 7 to Stress is a big hit too.
    let toml = enc(
        "big-hit-counts-stress = true",
        &[
            who("a", "pcs", "0,0", "weapons = [{ name = \"axe\", damage = \"1d8\" }]"),
            who("orc", "foes", "1,0", "monster = true"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 9]);
    t.type_as(PCS, "declare a attack orc");
    t.type_as(FOES, "declare orc move");
    t.dice(&[15, 7]).cmd("act");
    t.cmd("end");
    t.dice(&[6, 6, 6]).cmd("end");
    assert!(t.last.iter().any(|e| matches!(e, Event::Checked { .. })));
}

#[test]
fn the_prompt_leaves_out_stabilising_a_foe_and_dropping_a_weapon_but_keeps_them_legal() {
    use fray_engine::text::{AnyGame, TextRuleset};
    // bo (a foe) is Incapacitated: ash could stabilise it, which a player rarely means (dee
    // keeps the foes' side fighting).
    let four = || {
        let weapons =
            r#"weapons = [{ name = "sword", damage = "1d6" }, { name = "dagger", damage = "1d4", drawn = false }]"#;
        let toml = enc(
            "",
            &[
                who("ash", "pcs", "0,0", weapons),
                who("bo", "foes", "1,0", ""),
                who("cy", "pcs", "0,2", ""),
                who("dee", "foes", "9,4", ""),
            ]
            .concat(),
        );
        let mut t = Table::<HallowedEarth>::load(&toml, &[], &[7, 3, 5, 2]);
        t.cmd("gm set bo wp =0");
        t
    };
    let t = four();
    let p = text_game(&t).pending().expect("declarations");
    let hidden = |c: &str| {
        let i = p
            .choices
            .iter()
            .position(|x| x == c)
            .unwrap_or_else(|| panic!("{c} is legal: {:?}", p.choices));
        p.hidden[i]
    };
    assert!(hidden("declare ash heal bo"));
    assert!(hidden("declare ash free drop sword"));
    assert!(!hidden("declare ash attack bo with sword"));
    assert!(!hidden("declare ash free draw dagger"));
    assert!(!hidden("declare ash move"));
    // Stabilising an ally is meant: shown.
    let mut t = free_trio("", "", "");
    t.cmd("gm set cy wp =0");
    let s = t.state();
    let heal_cy = t.parse("declare ash heal cy").expect("reads");
    assert!(!HallowedEarth::prompt_hides(s, &heal_cy));
    // Hidden choices stay legal: typed, they are taken.
    let mut t = four();
    t.type_as(PCS, "declare ash heal bo");
    assert_eq!(t.state().ch(0).declared, Some(Action::Heal { target: 1 }));
    assert_eq!(HallowedEarth::OPTION_WORDS, ["with"]);
    // HAL-R11: the list shows the declarations of the creature due; cy, whom the players'
    // seat may declare for first, is declared for by name (legal, left out of the list).
    assert!(hidden("declare cy move"));
    let mut t = four();
    t.type_as(PCS, "declare cy move");
    assert!(t.state().ch(2).declared.is_some());
    let mut t = four();
    t.type_as(PCS, "declare ash move");
    let p = text_game(&t).pending().expect("declarations");
    let i = p
        .choices
        .iter()
        .position(|x| x == "declare cy move")
        .expect("cy is due");
    assert!(!p.hidden[i], "cy is the one due now");
}
