//! Zones and circumstances: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r11_r48_weapon_range_bands() {
    let ranged = "weapons = [\"sling\", \"longbow\", \"sword\"]";
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ranged),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5, 6]));
    // A 0-1 sling: the same zone and one zone away.
    t.legal()
        .contains(&"shoot bo".to_string())
        .then_some(())
        .expect("sling, same zone");
    assert!(t.legal().contains(&"shoot cy".to_string()));
    // A 1-3 longbow: not the same zone.
    t.cmd("draw longbow");
    t.expect_rejection(PCS, "shoot bo", codes::OUT_OF_REACH);
    assert!(t.legal().contains(&"shoot cy".to_string()));
    // EIN-R48: a sword cannot be shot; it strikes only in its own zone.
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5, 6]));
    t.cmd("draw sword");
    t.expect_rejection(PCS, "shoot cy", codes::NO_WEAPON);
    t.expect_rejection(PCS, "strike cy", codes::OUT_OF_REACH);
}

#[test]
fn ein_r12_close_combat_needs_the_same_zone_and_closing_in_on_a_far_target() {
    let toml = enc(
        "",
        &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "far = true")].concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.expect_rejection(PCS, "strike bo", codes::CLOSE_IN);
    t.cmd("close bo");
    t.cmd("strike bo");
    t.dice(&hits(0, 3)).cmd("pass");
    // Not far, not in cover: no closing in needed (the default `far-or-cover`).
    let mut t = duel("", "", "", 1, 5);
    assert!(t.legal().contains(&"strike bo".to_string()));
    let _ = &mut t;
}

#[test]
fn ein_r13_r16_two_fast_manoeuvres_cross_two_zones_and_leave_no_slow_one() {
    let toml = enc("", &[who("ash", "pcs", "d", ""), who("bo", "foes", "b", "")].concat());
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("move a");
    t.cmd("move b");
    assert_eq!(zone_of(&t, "ash"), "b");
    // The turn ended by itself: nothing left.
    assert_eq!(turn(&t), "bo");
    // EIN-R16: a slow and a fast one: strike and then a move.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(0, 3)).cmd("pass");
    t.expect_rejection(PCS, "strike bo", codes::NO_MANEUVER);
    t.cmd("move b");
    assert_eq!(turn(&t), "bo");
}

#[test]
fn ein_r14_r22_r49_darkness_asks_an_extra_success_to_shoot_unless_immune() {
    let bow = "weapons = [\"shortbow\"]";
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", bow),
            who("bo", "foes", "b", ""),
            who("owl", "pcs", "a", &format!("{bow}\nimmune = [\"dark\"]")),
        ]
        .concat(),
    )
    .replacen("player-sides", "circumstances = [\"dark\"]\nplayer-sides", 1);
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5, 2]));
    t.type_as(PCS, "ready");
    // EIN-R14, EIN-R22: 1 success is not enough in the dark.
    t.cmd("shoot bo");
    t.dice(&hits(1, 3)).cmd("pass");
    assert!(t.log().iter().any(|l| l.contains("Miss")), "{:?}", t.log());
    t.cmd("end");
    // EIN-R49: the owl sees in the dark: 1 success hits.
    t.cmd("shoot bo");
    t.dice(&hits(1, 3)).cmd("pass");
    assert!(t.log().iter().any(|l| l.contains("Hit")), "{:?}", t.log());
}

#[test]
fn ein_r15_an_obstacle_takes_the_slow_manoeuvre_and_a_test() {
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "c", "")].concat()).replace(
        "links = [\"b\", \"d\"]",
        "links = [\"b\", \"d\"]\nobstacles = { b = \"rubble\" }",
    ) + "[obstacle.rubble]\naction = \"force\"\n";
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    // A failed Force test: the slow manoeuvre is spent and ash stays.
    t.dice(&hits(0, 3)).cmd("move b");
    assert_eq!(zone_of(&t, "ash"), "a");
    t.expect_rejection(PCS, "move b", codes::NO_MANEUVER);
    t.cmd("end");
    t.cmd("end");
    t.dice(&hits(1, 3)).cmd("move b");
    assert_eq!(zone_of(&t, "ash"), "b");
}

#[test]
fn ein_r47_zones_are_a_graph_and_range_counts_crossings() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "d", "weapons = [\"longbow\"]"),
            who("bo", "foes", "c", ""),
        ]
        .concat(),
    );
    let t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    // d – a – b – c: 3 crossings, in the longbow's 1-3.
    assert_eq!(t.state().distance(0, 1), 3);
    assert!(t.legal().contains(&"shoot bo".to_string()));
}

#[test]
fn ein_h15_cover_asks_one_more_success_of_a_ranged_attack() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "b", "weapons = [\"shortbow\"]"),
            who("bo", "foes", "a", "cover = true"),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("shoot bo");
    t.dice(&hits(1, 3)).cmd("pass");
    assert!(t.log().iter().any(|l| l.contains("Miss")), "{:?}", t.log());
}

#[test]
fn ein_h6_armour_cancels_physical_harm_but_not_mental() {
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9\narmour = 1", 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(1, 3)).cmd("pass");
    assert_eq!(t.state().ch(1).harm.points, 1); // 2 − 1
    t.cmd("end");
    t.cmd("end");
    t.cmd("strike bo");
    t.dice(&hits(2, 3)).cmd("pass");
    t.cmd("spend mental");
    assert_eq!(t.state().ch(1).harm.points, 3); // 2 Mental points, no armour
}

#[test]
fn ein_h12_a_joiner_draws_from_the_cards_left() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            "[template.rat]\n".to_string(),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.dice(&[1]).type_as(GM, "gm add rat rat foes b");
    // The deck held 2,3,4,6,...: face 1 is card 2.
    assert_eq!(card_of(&t, "rat"), vec![2]);
    assert_eq!(Card::from_code(12), Card { value: 2, deck: 1 });
}

#[test]
fn ein_options_from_the_encounter_file() {
    // Every option of the rules file's holes parses from [options].
    let t = duel(
        "success-faces = [5, 6]\nharm-slots = [3, 2, 1]\nforced-swap-timing = \"immediate\"\nopposing-reaction-timing = \"after-roll\"",
        "",
        "",
        1,
        5,
    );
    assert_eq!(t.state().options.success_faces, vec![5, 6]);
}

#[test]
fn ein_r15_rubble_blocks_the_way_until_cleared_and_is_then_gone_for_everyone() {
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "b", "")].concat());
    let toml = with_obstacle(
        toml,
        "links = [\"b\", \"d\"]",
        "b",
        "action = \"force\"\nclear = true\n",
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    // Uncleared rubble: nobody crosses, from either side.
    let r = t.expect_rejection(PCS, "move b", codes::OUT_OF_REACH);
    assert!(r.reason.contains("clear b"), "{}", r.reason);
    assert!(t.legal().contains(&"clear b".to_string()));
    assert!(!t.legal().contains(&"move b".to_string()));
    // A failed Force test: the slow manoeuvre is spent, the rubble stays; the fast one cannot
    // pay for another try.
    t.dice(&hits(0, 3)).cmd("clear b");
    assert!(t.state().cleared.is_empty());
    assert_eq!(t.state().ch(0).left[0], [0, 1]);
    t.expect_rejection(PCS, "clear b", codes::NO_MANEUVER);
    t.cmd("end");
    t.expect_rejection(GM, "move a", codes::OUT_OF_REACH);
    // bo clears it from the other side with a success and a slow manoeuvre.
    t.dice(&hits(1, 3)).cmd("clear a");
    assert!(
        t.log().iter().any(|l| l.contains("bo clears the rubble away")),
        "{:?}",
        t.log()
    );
    assert_eq!(t.state().cleared.len(), 1);
    // Gone for everyone: a plain move, a fast manoeuvre with no test (no dice are scripted).
    t.cmd("move a");
    assert_eq!(zone_of(&t, "bo"), "a");
    assert_eq!(turn(&t), "ash");
    t.expect_rejection(PCS, "clear b", codes::NOT_NOW);
    assert!(!t.legal().contains(&"clear b".to_string()));
    t.cmd("move b");
    assert_eq!(zone_of(&t, "ash"), "b");
    t.assert_dice_used();
    use fray_engine::text::TextRuleset;
    let map = Einfelst::map(t.state(), PCS).unwrap();
    assert!(map.contains("the rubble between a and b: cleared"), "{map}");
}

#[test]
fn ein_r15_r32_rubble_not_yet_cleared_stops_a_flight_and_a_push() {
    // ash and bo in b; the only way to the exit c is behind rubble.
    let toml = enc("", &[who("ash", "pcs", "b", ""), who("bo", "foes", "b", "")].concat());
    let toml = with_obstacle(toml, "links = [\"c\"]", "c", "action = \"force\"\nclear = true\n");
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.expect_rejection(PCS, "flee finesse", codes::NO_ESCAPE);
    t.expect_rejection(PCS, "shove bo c", codes::BAD_PUSH);
    assert!(t.legal().contains(&"shove bo a".to_string()));
    t.dice(&hits(1, 3)).cmd("clear c");
    t.cmd("end");
    t.cmd("end");
    // Cleared: the way out is open.
    t.cmd("flee finesse");
    t.dice(&hits(1, 3)).cmd("pass");
    assert_eq!(t.state().ch(0).status, Status::Fled);
}

#[test]
fn ein_r15_an_obstacle_to_get_over_is_crossed_with_its_test_every_time() {
    // Without `clear`, each crossing takes the test again, and nothing is ever cleared.
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "c", "")].concat());
    let toml = with_obstacle(toml, "links = [\"b\", \"d\"]", "b", "action = \"force\"\n");
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.expect_rejection(PCS, "clear b", codes::NOT_NOW);
    t.dice(&hits(1, 3)).cmd("move b");
    assert_eq!(zone_of(&t, "ash"), "b");
    t.cmd("end");
    t.cmd("end");
    t.dice(&hits(1, 3)).cmd("move a");
    assert_eq!(tests(&t), vec![(3, 1)]);
    assert!(t.state().cleared.is_empty());
}

#[test]
fn ein_r15_the_ai_clears_rubble_that_blocks_its_way_to_a_foe() {
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "b", "")].concat());
    let toml = with_obstacle(
        toml,
        "links = [\"b\", \"d\"]",
        "b",
        "action = \"force\"\nclear = true\n",
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    assert_eq!(ai_choice(&t), "clear b");
    t.dice(&hits(1, 3)).cmd("clear b");
    assert_eq!(ai_choice(&t), "move b");
}
