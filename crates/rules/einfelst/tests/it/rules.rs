//! Rule tests: tiny encounters, scripted dice, commands typed as a player would, through the
//! test kit's `Table`. Each test names the rules it checks (`ein_r12_...`, or `// EIN-R12`).
//!
//! Unless a test says otherwise: zones `a` (1 cover spot) – `b` – `c` (an exit), and `d` off
//! `a`; side `pcs` (seat `players`, player characters) and side `foes` (the GM's); every
//! attribute 2 and every combat Action 1, so each test rolls 3 dice; a sword (damage 2).
//! Successes are sixes: `hits(k, n)` scripts k sixes among n dice. Cards come first, one draw
//! per creature in encounter order (a group draws once); `cards(&[..])` turns the values wanted
//! into the faces that draw them.

use fray_einfelst::Einfelst;
use fray_einfelst::codes;
use fray_einfelst::state::{Card, Event, RoundStage, Status};
use fray_engine::Seat;
use fray_testkit::Table;

const PCS: Seat = Seat(1);
const GM: Seat = Seat::GM;

fn enc(options: &str, rest: &str) -> String {
    format!(
        r#"ruleset = "einfelst"
player-sides = ["pcs"]
[options]
{options}
[[zone]]
id = "a"
links = ["b", "d"]
cover = 1
[[zone]]
id = "b"
links = ["c"]
[[zone]]
id = "c"
exit = true
[[zone]]
id = "d"
[[side]]
id = "pcs"
seat = "players"
[[side]]
id = "foes"
seat = "gm"
{rest}"#
    )
}

/// A creature with the defaults above, unless `extra` sets a key.
fn who(id: &str, side: &str, zone: &str, extra: &str) -> String {
    let defaults = [
        (
            "attributes",
            "{ strength = 2, dexterity = 2, intuition = 2, reason = 2, presence = 2 }",
        ),
        (
            "actions",
            "{ strike = 1, shoot = 1, force = 1, endure = 1, finesse = 1, sneak = 1, track = 1, read = 1 }",
        ),
        ("weapons", r#"["sword"]"#),
    ];
    let stats: String = defaults
        .iter()
        .filter(|(k, _)| !extra.lines().any(|l| l.trim_start().starts_with(&format!("{k} ="))))
        .map(|(k, v)| format!("{k} = {v}\n"))
        .collect();
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nzone = \"{zone}\"\n{stats}{extra}\n")
}

/// The faces that draw these card values, in order, from a fresh deck of 1 to 10.
fn cards(values: &[u16]) -> Vec<u16> {
    let mut deck: Vec<u16> = (1..=10).collect();
    values
        .iter()
        .map(|v| {
            let i = deck.iter().position(|c| c == v).expect("a card still in the deck");
            deck.remove(i);
            i as u16 + 1
        })
        .collect()
}

/// `k` successes among `n` dice.
fn hits(k: usize, n: usize) -> Vec<u16> {
    (0..n).map(|i| if i < k { 6 } else { 1 }).collect()
}

fn cat(parts: &[Vec<u16>]) -> Vec<u16> {
    parts.concat()
}

fn id(t: &Table<Einfelst>, name: &str) -> u16 {
    t.state().find(name).unwrap()
}

fn card_of(t: &Table<Einfelst>, name: &str) -> Vec<u8> {
    t.state()
        .ch(id(t, name))
        .cards
        .cards()
        .iter()
        .map(|c| c.value)
        .collect()
}

fn zone_of(t: &Table<Einfelst>, name: &str) -> String {
    let s = t.state();
    s.setup.zones.id(s.ch(id(t, name)).zone).to_string()
}

fn physical(t: &Table<Einfelst>, name: &str) -> [u8; 3] {
    t.state().ch(id(t, name)).harm.physical
}

fn mental(t: &Table<Einfelst>, name: &str) -> [u8; 3] {
    t.state().ch(id(t, name)).harm.mental
}

/// The pools and successes of the tests in the last command, in order.
fn tests(t: &Table<Einfelst>) -> Vec<(u8, u8)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Tested { pool, successes, .. } => Some((*pool, *successes)),
            _ => None,
        })
        .collect()
}

/// Whose turn it is.
fn turn(t: &Table<Einfelst>) -> String {
    let s = t.state();
    s.turn.map(|x| s.ch(x.who).id.clone()).unwrap_or_default()
}

/// ash (pcs) and bo (foes) in zone `a`, holding cards `ash_card` and `bo_card`.
fn duel(options: &str, ash: &str, bo: &str, ash_card: u16, bo_card: u16) -> Table<Einfelst> {
    let toml = enc(
        options,
        &[who("ash", "pcs", "a", ash), who("bo", "foes", "a", bo)].concat(),
    );
    Table::<Einfelst>::load(&toml, &[], &cards(&[ash_card, bo_card]))
}

#[test]
fn ein_r1_r3_r45_each_draws_a_different_card_the_lowest_acts_first_and_cards_are_open() {
    let t = duel("", "", "", 7, 3);
    // EIN-R1: two cards out of one deck of 1 to 10, so never the same value.
    assert_eq!(card_of(&t, "ash"), vec![7]);
    assert_eq!(card_of(&t, "bo"), vec![3]);
    assert_eq!(t.state().deck.cards(), &[1, 2, 4, 5, 6, 8, 9, 10]);
    // EIN-R3: bo's 3 goes before ash's 7.
    assert_eq!(turn(&t), "bo");
    // EIN-R45: the players' seat sees the GM's cards.
    let g = fray_engine::text::TextGame::new(fray_engine::Game::replay(t.game.record()).unwrap());
    let v = fray_engine::text::AnyGame::view_json(&g, PCS)["extra"].to_string();
    assert!(v.contains("\"value\":3"), "{v}");
}

#[test]
fn the_shared_view_shows_zones_harm_rows_cards_and_the_same_to_every_seat() {
    use fray_engine::text::TextRuleset;
    use fray_engine::view::Place;
    let mut t = duel("", "", "", 7, 3);
    t.type_as(GM, "gm set ash physical-lesser +1");
    t.type_as(GM, "gm ignite bo 2");
    let s = t.state();
    let v = Einfelst::seat_view(s, GM);
    assert_eq!(v.ruleset, "einfelst");
    assert_eq!((v.round, v.phase.as_deref()), (1, Some("turns")));
    assert_eq!(v.order, ["bo", "ash"]);
    let ids: Vec<&str> = v.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ash", "bo"]);
    let ash = &v.combatants[0];
    assert_eq!((ash.side.as_str(), ash.seat.as_str()), ("pcs", "players"));
    assert_eq!(ash.place, Some(Place::Zone { zone: "a".into() }));
    let lesser = ash.gauges.iter().find(|g| g.name == "physical-lesser").expect("row");
    assert_eq!((lesser.value, lesser.max), (1, Some(2)));
    assert!(
        ash.statuses
            .iter()
            .any(|x| x.name == "card" && x.value.as_deref() == Some("7"))
    );
    let bo = &v.combatants[1];
    assert!(
        bo.statuses
            .iter()
            .any(|x| x.name == "burning" && x.value.as_deref() == Some("2"))
    );
    assert_eq!(v.deciding.as_ref().and_then(|d| d.actor.as_deref()), Some("bo"));
    // EIN-R45: nothing is hidden, so the players' seat is shown the same table.
    let pv = Einfelst::seat_view(s, PCS);
    assert_eq!(pv.seat, "players");
    assert_eq!(pv.combatants, v.combatants);
}

#[test]
fn ein_r2_a_group_of_identical_foes_draws_one_card_and_acts_in_turn_on_it() {
    // With `group-order = "encounter"` (fray 0.1.0's reading) they act in encounter order.
    let toml = enc(
        "group-order = \"encounter\"",
        &[
            who("ash", "pcs", "a", ""),
            who("w1", "foes", "d", "group = \"pack\""),
            who("w2", "foes", "d", "group = \"pack\""),
        ]
        .concat(),
    );
    // Two draws: ash, then one card for the pack.
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[8, 2]));
    assert_eq!(card_of(&t, "w1"), vec![2]);
    assert_eq!(card_of(&t, "w2"), vec![2]);
    assert_eq!(turn(&t), "w1");
    t.cmd("end");
    assert_eq!(turn(&t), "w2"); // EIN-R2: one after another, in encounter order
    t.cmd("end");
    assert_eq!(turn(&t), "ash");
}

#[test]
fn ein_r4_cards_are_kept_and_the_order_repeats_every_round() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
            who("cy", "foes", "d", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[9, 3, 7]));
    for round in 1..=2 {
        assert_eq!(t.state().round, round);
        for x in ["bo", "cy", "ash"] {
            assert_eq!(turn(&t), x);
            t.cmd("end");
        }
    }
    assert_eq!(card_of(&t, "ash"), vec![9]); // no redraw
}

#[test]
fn ein_r5_two_player_characters_swap_cards_only_at_the_start_of_a_round() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[9, 2, 5]));
    assert_eq!(t.state().stage, RoundStage::Swaps);
    t.type_as(PCS, "trade ash cy");
    assert_eq!(card_of(&t, "ash"), vec![2]);
    assert_eq!(card_of(&t, "cy"), vec![9]);
    t.type_as(PCS, "ready");
    assert_eq!(turn(&t), "ash");
    // EIN-R5: not once someone has acted.
    t.expect_rejection(PCS, "trade ash cy", codes::NOT_NOW);
}

#[test]
fn ein_r5_only_player_characters_of_one_side_swap() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[9, 2, 5]));
    t.expect_rejection(PCS, "trade ash bo", codes::BAD_TRADE);
    // Typed in either order.
    t.type_as(PCS, "trade cy ash");
    t.type_as(PCS, "ready");
    assert_eq!(turn(&t), "ash");
}

#[test]
fn ein_r6_r23_an_extra_success_forces_a_swap_and_the_attacker_picks_the_card() {
    // bo holds two cards, 2 and 8 (EIN-R46); ash holds 5.
    let toml = enc(
        "",
        &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "cards = 2")].concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[5, 2, 8]));
    assert_eq!(turn(&t), "bo");
    t.cmd("end");
    assert_eq!(turn(&t), "ash");
    // Strike with 2 successes, no defence: 1 extra success, spent on the swap.
    t.cmd("strike bo");
    t.dice(&hits(2, 3)).cmd("pass");
    t.cmd("spend swap=2");
    t.cmd("split 1+1");
    assert_eq!(card_of(&t, "ash"), vec![2]);
    let mut bo = card_of(&t, "bo");
    bo.sort();
    assert_eq!(bo, vec![5, 8]);
    // EIN-R23: the hit still deals the sword's 2 (nothing left for damage).
    assert_eq!(physical(&t, "bo"), [2, 0, 0]);
}

#[test]
fn ein_r7_h18_a_defence_that_beats_the_attack_may_swap_cards() {
    let mut t = duel("", "", "", 3, 8);
    t.cmd("strike bo");
    // Attack 2 successes, dodge is not allowed in melee: parry 3.
    t.dice(&cat(&[hits(2, 3), hits(3, 3)])).cmd("parry");
    assert!(t.log().iter().any(|l| l.contains("Miss")), "{:?}", t.log());
    assert_eq!(t.game.pending().unwrap().kind(), "swap");
    t.cmd("swap 3 8");
    assert_eq!(card_of(&t, "bo"), vec![3]);
    assert_eq!(card_of(&t, "ash"), vec![8]);
    // A tie: a miss and no swap.
    let mut t = duel("", "", "", 3, 8);
    t.cmd("strike bo");
    t.dice(&cat(&[hits(2, 3), hits(2, 3)])).cmd("parry");
    assert_eq!(t.game.pending().unwrap().kind(), "turn");
}

fn ambush(test: &str) -> String {
    enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
            who("di", "foes", "d", ""),
            format!("[ambush]\nside = \"foes\"\ntest = \"{test}\"\n"),
        ]
        .concat(),
    )
}

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
fn ein_r17_r18_slow_and_fast_manoeuvres() {
    let mut t = duel("", "", "prone = true", 5, 1);
    // bo: stand (fast) and a test of Read (slow: surveying the field).
    t.cmd("stand");
    t.dice(&hits(1, 3)).cmd("test read");
    assert_eq!(tests(&t), vec![(3, 1)]);
    assert_eq!(turn(&t), "ash");
    // ash: draw (fast), shout (a fast one instead of the slow one), nothing left.
    t.cmd("draw unarmed");
    t.cmd("shout");
    assert_eq!(turn(&t), "bo");
}

#[test]
fn ein_r19_a_reaction_spends_the_round_s_manoeuvres() {
    // ash (card 5) is attacked twice before its turn by bo (1) and cy (2).
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[5, 1, 2]));
    t.cmd("strike ash");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
    t.cmd("end");
    assert_eq!(t.state().ch(id(&t, "ash")).left[0], [1, 0]);
    // A second reaction spends the slow manoeuvre (reaction-may-use-slow).
    t.cmd("strike ash");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
    assert_eq!(t.state().ch(id(&t, "ash")).left[0], [0, 0]);
    // Nothing left for ash's turn: it passes at once, and round 2 begins.
    t.cmd("end");
    assert_eq!((t.state().round, turn(&t)), (2, "bo".to_string()));
    // With the option off, the second attack is not even offered a reaction.
    let toml = enc(
        "reaction-may-use-slow = false",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[5, 1, 2]));
    t.cmd("strike ash");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
    t.cmd("end");
    t.dice(&hits(0, 3)).cmd("strike ash");
    assert_eq!(t.state().ch(id(&t, "ash")).left[0], [1, 0]);
}

#[test]
fn ein_r20_the_defence_is_declared_before_the_roll_and_stays_spent() {
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    assert_eq!(t.game.pending().unwrap().kind(), "reaction");
    t.dice(&cat(&[hits(0, 3), hits(1, 3)])).cmd("parry");
    assert!(t.log().iter().any(|l| l.contains("Miss")));
    assert_eq!(t.state().ch(id(&t, "bo")).left[0], [1, 0]);
}

#[test]
fn ein_r21_r25_the_actions_of_attacks_and_defences() {
    use fray_einfelst::data::Action;
    let actions = |t: &Table<Einfelst>| -> Vec<Action> {
        t.last
            .iter()
            .filter_map(|e| match e {
                Event::Tested { action, .. } => *action,
                _ => None,
            })
            .collect()
    };
    // Armed: Strike; the armed defender parries with Strike.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
    assert_eq!(actions(&t), vec![Action::Strike, Action::Strike]);
    // Unarmed: Force; an unarmed defender parries with Force.
    let mut t = duel("", "", "weapons = []", 1, 5);
    t.cmd("punch bo");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
    assert_eq!(actions(&t), vec![Action::Force, Action::Force]);
    // Ranged: Shoot, dodged with Finesse; a dodge is refused against close combat.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", "weapons = [\"shortbow\"]"),
            who("bo", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("shoot bo");
    t.expect_rejection(GM, "parry", codes::BAD_REACTION);
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("dodge");
    assert_eq!(actions(&t), vec![Action::Shoot, Action::Finesse]);
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    t.expect_rejection(GM, "dodge", codes::BAD_REACTION);
}

#[test]
fn ein_r23_extra_successes_on_damage_or_a_swap() {
    // Sword (2), 3 successes, no defence: both extras on damage: 4 Harm.
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9", 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(3, 3)).cmd("pass");
    t.cmd("spend");
    assert_eq!(t.state().ch(id(&t, "bo")).harm.points, 4);
    // One on damage, one on a swap: 3 Harm and the swap.
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9", 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(3, 3)).cmd("pass");
    t.cmd("spend swap=5");
    assert_eq!(t.state().ch(id(&t, "bo")).harm.points, 3);
    assert_eq!(card_of(&t, "bo"), vec![1]);
}

#[test]
fn ein_r24_h13_harm_points_cost_dice_on_later_tests() {
    // bo: a 5-dice Strike pool (Strength 3 + Strike 2), Harm points.
    let bo = "harm = \"points\"\nharm-capacity = 5\nattributes = { strength = 3, dexterity = 2, intuition = 2, reason = 2, presence = 2 }\nactions = { strike = 2, finesse = 1 }";
    let mut t = duel("", "", bo, 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(2, 3)).cmd("pass");
    t.cmd("spend"); // 2 + 1 = 3 Harm points
    assert_eq!(t.state().ch(id(&t, "bo")).harm.points, 3);
    t.cmd("end");
    t.cmd("strike ash");
    t.dice(&cat(&[hits(0, 2)])).cmd("pass");
    assert_eq!(tests(&t), vec![(2, 0)]); // 5 dice − 3
    // EIN-H13: beyond its capacity it is out.
    t.cmd("end");
    t.cmd("strike bo");
    t.dice(&hits(3, 3)).cmd("pass");
    t.cmd("spend");
    assert_eq!(t.state().ch(id(&t, "bo")).status, Status::Incapacitated);
}

#[test]
fn ein_r26_defence_successes_cancel_attack_successes() {
    // Sword (2), Strike 3, parry 1: 2 left, 1 extra: 3 Physical Harm on damage.
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9", 1, 5);
    t.cmd("strike bo");
    t.dice(&cat(&[hits(3, 3), hits(1, 3)])).cmd("parry");
    t.cmd("spend");
    assert_eq!(t.state().ch(id(&t, "bo")).harm.points, 3);
    // In the dark Shoot needs 2: Shoot 2, dodge 1: 1 left, a miss.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", "weapons = [\"shortbow\"]"),
            who("bo", "foes", "b", ""),
        ]
        .concat(),
    )
    .replacen("player-sides", "circumstances = [\"dark\"]\nplayer-sides", 1);
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("shoot bo");
    t.dice(&cat(&[hits(2, 3), hits(1, 3)])).cmd("dodge");
    assert!(t.log().iter().any(|l| l.contains("Miss")), "{:?}", t.log());
}

#[test]
fn ein_r27_r28_grapple_against_break_free() {
    // 2 against 2: not restrained.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("grapple bo");
    t.dice(&cat(&[hits(2, 3), hits(2, 3)])).cmd("break-free");
    assert_eq!(t.state().ch(id(&t, "bo")).held_by, None);
    // 3 against 1: 2 left: restrained, and the extra success may silence.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("grapple bo");
    t.dice(&cat(&[hits(3, 3), hits(1, 3)])).cmd("break-free");
    t.cmd("spend silence");
    let bo = t.state().ch(id(&t, "bo"));
    assert_eq!((bo.held_by, bo.silenced), (Some(0), true));
    // 1 with no reaction: restrained, not silenced.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("grapple bo");
    t.dice(&hits(1, 3)).cmd("pass");
    let bo = t.state().ch(id(&t, "bo"));
    assert_eq!((bo.held_by, bo.silenced), (Some(0), false));
}

#[test]
fn ein_r28_r31_h10_the_restrained_may_only_break_free_shout_or_parry() {
    let mut t = duel("", "", "", 1, 5);
    t.cmd("grapple bo");
    t.dice(&hits(1, 3)).cmd("pass");
    t.cmd("end");
    // bo's turn: held.
    t.expect_rejection(GM, "strike ash", codes::RESTRAINED);
    t.expect_rejection(GM, "flee finesse", codes::RESTRAINED);
    t.expect_rejection(GM, "move b", codes::RESTRAINED);
    t.cmd("shout");
    t.cmd("end");
    // ash strikes the held bo: it may parry (EIN-H10), not dodge.
    t.cmd("strike bo");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
}

#[test]
fn ein_r29_r30_h30_breaking_free() {
    // bo holds ash (grapple, no reaction), and holds on with Hold.
    let setup = |t: &mut Table<Einfelst>| {
        t.cmd("grapple ash");
        t.dice(&hits(1, 3)).cmd("pass");
        t.cmd("end");
        assert_eq!(t.state().ch(0).held_by, Some(1));
    };
    // 2 against a Hold of 2: still held.
    let mut t = duel("", "", "", 5, 1);
    setup(&mut t);
    t.cmd("break-free");
    t.dice(&cat(&[hits(2, 3), hits(2, 3)])).cmd("hold");
    assert_eq!(t.state().ch(0).held_by, Some(1));
    // Once a turn.
    t.expect_rejection(PCS, "break-free", codes::NOT_NOW);
    // 3 against 2: free.
    let mut t = duel("", "", "", 5, 1);
    setup(&mut t);
    t.cmd("break-free");
    t.dice(&cat(&[hits(3, 3), hits(2, 3)])).cmd("hold");
    assert_eq!(t.state().ch(0).held_by, None);
    // Without a Hold, 1 success frees.
    let mut t = duel("", "", "", 5, 1);
    setup(&mut t);
    t.cmd("break-free");
    t.dice(&hits(1, 3)).cmd("pass");
    assert_eq!(t.state().ch(0).held_by, None);
    // EIN-R29, EIN-H30: the hold ends when the holder leaves the zone or lets go.
    let mut t = duel("", "", "", 5, 1);
    setup(&mut t);
    t.cmd("end");
    t.cmd("move b");
    assert_eq!(t.state().ch(0).held_by, None);
    let mut t = duel("", "", "", 5, 1);
    setup(&mut t);
    t.cmd("end");
    t.cmd("release");
    assert_eq!(t.state().ch(0).held_by, None);
}

#[test]
fn ein_r30_h30_a_holder_with_nothing_left_cannot_hold() {
    let mut t = duel("", "", "", 5, 1);
    t.cmd("grapple ash");
    t.dice(&hits(1, 3)).cmd("pass");
    t.cmd("interact"); // bo's last manoeuvre
    t.cmd("end");
    // ash breaks free: bo is not asked; 1 success frees.
    t.dice(&hits(1, 3)).cmd("break-free");
    assert_eq!(t.state().ch(0).held_by, None);
}

#[test]
fn ein_r32_fleeing_and_its_limits() {
    // ash in b, next to the exit c; bo in a.
    let toml = enc("", &[who("ash", "pcs", "b", ""), who("bo", "foes", "a", "")].concat());
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.dice(&hits(1, 3)).cmd("flee finesse");
    assert_eq!(t.state().ch(0).status, Status::Fled);
    // A failure: it stays.
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.dice(&hits(0, 3)).cmd("flee sneak");
    assert_eq!(
        (t.state().ch(0).status, zone_of(&t, "ash")),
        (Status::Fighting, "b".to_string())
    );
    // A foe in the way (c): no flight.
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "b", "")].concat());
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.expect_rejection(PCS, "flee finesse", codes::NO_ESCAPE);
    // A foe in the fleer's own zone does not block it.
    let toml = enc("", &[who("ash", "pcs", "b", ""), who("bo", "foes", "b", "")].concat());
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("flee finesse");
    t.dice(&hits(1, 3)).cmd("pass"); // bo does not chase
    assert_eq!(t.state().ch(0).status, Status::Fled);
}

#[test]
fn ein_r33_h26_chasing() {
    // ash flees from a toward the exit c (by b); bo chases.
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat());
    // Flee 2, chase 2: caught; both one zone on (b).
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("flee finesse");
    t.dice(&cat(&[hits(2, 3), hits(2, 3)])).cmd("chase track");
    assert_eq!(t.state().ch(0).status, Status::Fighting);
    assert_eq!((zone_of(&t, "ash"), zone_of(&t, "bo")), ("b".into(), "b".into()));
    // Flee 2, chase 1: away; the chaser still moves (chaser-moves-on-escape).
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("flee finesse");
    t.dice(&cat(&[hits(2, 3), hits(1, 3)])).cmd("chase finesse");
    assert_eq!(t.state().ch(0).status, Status::Fled);
    assert_eq!(zone_of(&t, "bo"), "b");
}

#[test]
fn ein_r34_r37_h7_a_failed_fear_test_deals_mental_harm_split_as_chosen() {
    let mut t = duel("", "", "", 1, 5);
    // Fear 2, Risky, 1 success: 3 Mental Harm (EIN-H7: the table's values are final).
    t.dice(&hits(1, 3)).type_as(GM, "gm fear ash 2");
    assert_eq!(t.game.pending().unwrap().kind(), "harm");
    let mut ways = t.legal();
    ways.sort();
    assert_eq!(ways, vec!["split 1+1+1", "split 2+1", "split 3"]);
    t.cmd("split 2+1");
    assert_eq!(mental(&t, "ash"), [1, 1, 0]);
    assert_eq!(physical(&t, "ash"), [0, 0, 0]); // EIN-R34: the Mental track only
}

#[test]
fn ein_r34_three_lesser_on_an_empty_track_move_the_third_up() {
    let mut t = duel("", "", "", 1, 5);
    t.dice(&hits(1, 3)).type_as(GM, "gm fear ash 2");
    t.cmd("split 1+1+1");
    assert_eq!(mental(&t, "ash"), [2, 1, 0]);
}

#[test]
fn ein_r35_h8_fear_help_dice_from_the_player_characters_present() {
    let fear_pool = |others_here: usize, elsewhere: usize, severe: usize| {
        let mut rest = vec![who("ash", "pcs", "a", "")];
        for i in 0..others_here {
            let m = if i < severe { "\nharm = \"track\"" } else { "" };
            rest.push(who(&format!("p{i}"), "pcs", "a", m));
        }
        for i in 0..elsewhere {
            rest.push(who(&format!("q{i}"), "pcs", "d", ""));
        }
        rest.push(who("bo", "foes", "b", ""));
        let n = rest.len();
        let toml = enc("", &rest.concat());
        let mut draw: Vec<u16> = (1..=n as u16).collect();
        draw.rotate_left(0);
        let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&draw));
        if t.state().stage == RoundStage::Swaps {
            t.type_as(PCS, "ready");
        }
        for i in 0..severe {
            t.type_as(GM, &format!("gm set p{i} mental-severe =1"));
        }
        let pool = 3 + others_here.min(3) - severe.min(others_here);
        t.dice(&hits(2, pool.min(6))).type_as(GM, "gm fear ash 1");
        tests(&t)[0].0 as usize
    };
    // Two companions in ash's zone and one elsewhere: +2.
    assert_eq!(fear_pool(2, 1, 0), 5);
    // Three companions, one with Severe Mental Harm: +2.
    assert_eq!(fear_pool(3, 0, 1), 5);
    // Five: +3 (the cap).
    assert_eq!(fear_pool(5, 0, 0), 6);
}

#[test]
fn ein_r36_h17_a_controlled_success_gives_a_die_on_the_next_test() {
    let mut t = duel("", "", "", 1, 5);
    t.dice(&hits(3, 3)).type_as(GM, "gm fear ash 2 controlled");
    assert_eq!(mental(&t, "ash"), [0, 0, 0]);
    assert_eq!(t.state().ch(0).bonus, 1);
    t.cmd("strike bo");
    t.dice(&hits(0, 4)).cmd("pass");
    assert_eq!(tests(&t), vec![(4, 0)]);
    assert_eq!(t.state().ch(0).bonus, 0); // EIN-H17: then it is gone
}

#[test]
fn ein_r38_r39_h4_catching_fire_and_burning_at_the_start_of_each_later_round() {
    let mut t = duel("", "", "", 1, 5);
    // EIN-R38: catching fire: 1 Physical Harm, no roll.
    t.type_as(GM, "gm ignite ash 2");
    assert_eq!(physical(&t, "ash"), [1, 0, 0]);
    assert!(tests(&t).is_empty());
    // EIN-R39: only put it out, flee or shout.
    t.expect_rejection(PCS, "strike bo", codes::BURNING);
    t.expect_rejection(PCS, "move b", codes::BURNING);
    t.cmd("end");
    // Round 2: intensity 2, Endure 1 success of 2 dice (3 − 1 Harm): 1 Physical Harm.
    t.dice(&hits(1, 2)).cmd("end");
    assert_eq!(tests(&t), vec![(2, 1)]);
    assert_eq!(physical(&t, "ash"), [2, 0, 0]);
}

#[test]
fn ein_r39_r40_enduring_the_fire_and_putting_it_out_over_two_rounds() {
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9", 5, 1);
    t.type_as(GM, "gm ignite bo 2");
    assert_eq!(t.state().ch(1).harm.points, 1);
    // EIN-R40: Finesse (3 dice − 1): 1 success of the 2 needed; it still burns.
    t.dice(&hits(1, 2)).cmd("extinguish");
    assert!(t.state().ch(1).fire.is_some());
    t.cmd("end");
    // Round 2: bo endures with 3 successes (2 dice and a bonus die): no damage (EIN-R39).
    t.type_as(GM, "gm set bo bonus =1");
    t.dice(&hits(3, 3)).cmd("end");
    assert_eq!(t.state().ch(1).harm.points, 1);
    // 1 more success makes 2: the fire is out.
    t.dice(&hits(1, 2)).cmd("extinguish");
    assert!(t.state().ch(1).fire.is_none());
}

#[test]
fn ein_r41_r42_poison() {
    let pts = "harm = \"points\"\nharm-capacity = 20";
    // Toxicity 3: the Director 2, the victim 1: 2 Harm, then 1, then nothing.
    let mut t = duel("", "", pts, 5, 1);
    t.dice(&cat(&[hits(2, 3), hits(1, 3)])).type_as(GM, "gm poison bo 3");
    assert_eq!(t.state().ch(1).harm.points, 2);
    t.cmd("end");
    t.cmd("end");
    assert_eq!(t.state().ch(1).harm.points, 3);
    t.cmd("end");
    t.cmd("end");
    assert_eq!(t.state().ch(1).harm.points, 3);
    // A tie, 1 and 1: 1 Harm, then nothing.
    let mut t = duel("", "", pts, 5, 1);
    t.dice(&cat(&[hits(1, 3), hits(1, 3)])).type_as(GM, "gm poison bo 3");
    assert_eq!(t.state().ch(1).harm.points, 1);
    assert!(t.state().ch(1).poison.is_none());
    // The victim ahead: nothing, now or later.
    let mut t = duel("", "", pts, 5, 1);
    t.dice(&cat(&[hits(1, 3), hits(2, 3)])).type_as(GM, "gm poison bo 3");
    assert_eq!(t.state().ch(1).harm.points, 0);
    // EIN-R42: an antidote stops it but heals nothing.
    let mut t = duel("", "", pts, 5, 1);
    t.dice(&cat(&[hits(3, 3), hits(0, 3)])).type_as(GM, "gm poison bo 3");
    t.type_as(GM, "gm antidote bo");
    t.cmd("end");
    t.cmd("end");
    assert_eq!(t.state().ch(1).harm.points, 3);
}

#[test]
fn ein_r43_h5_falls() {
    let pts = "harm = \"points\"\nharm-capacity = 20\narmour = 2";
    let mut t = duel("", "", pts, 5, 1);
    t.type_as(GM, "gm fall bo 5");
    assert!(tests(&t).is_empty());
    // 10 feet onto stone: 2 dice; 2 against Endure 1: 1 Harm despite the armour.
    t.dice(&cat(&[hits(2, 2), hits(1, 3)])).type_as(GM, "gm fall bo 10");
    assert_eq!(tests(&t), vec![(2, 2), (3, 1)]);
    assert_eq!(t.state().ch(1).harm.points, 1);
    // 20 feet: 4 dice.
    t.dice(&cat(&[hits(0, 4), hits(0, 2)])).type_as(GM, "gm fall bo 20");
    assert_eq!(tests(&t)[0].0, 4);
    // Into deep water: no roll.
    t.type_as(GM, "gm fall bo 20 soft");
    assert!(tests(&t).is_empty());
}

#[test]
fn ein_r44_hunger_and_thirst() {
    let mut t = duel("", "", "", 5, 1);
    t.dice(&hits(0, 3)).type_as(GM, "gm deprive ash mental");
    assert_eq!(mental(&t, "ash"), [1, 0, 0]);
    t.dice(&hits(1, 3)).type_as(GM, "gm deprive ash physical");
    assert_eq!(physical(&t, "ash"), [0, 0, 0]);
}

#[test]
fn ein_r46_several_cards_give_several_turns_each_with_its_own_allowance() {
    let toml = enc(
        "",
        &[who("ash", "pcs", "d", ""), who("bo", "foes", "b", "cards = 2")].concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[5, 2, 8]));
    assert_eq!(turn(&t), "bo");
    t.cmd("move a");
    t.cmd("move d");
    assert_eq!(turn(&t), "ash");
    t.cmd("end");
    assert_eq!(turn(&t), "bo"); // its card 8
    assert_eq!(t.state().turn.unwrap().n, 1);
    t.cmd("strike ash");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
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

/// The pending decision in words, as the prompt says it.
fn prompt(t: &Table<Einfelst>) -> String {
    use fray_engine::text::TextRuleset;
    Einfelst::describe_pending(t.state(), &t.game.pending().expect("a decision"))
}

/// The whole game's log, as `fray play` and `fray log` write it.
fn full_log(t: &Table<Einfelst>) -> Vec<String> {
    fray_engine::text::TextGame::<Einfelst>::log_of_record(t.game.record(), GM)
        .expect("the record replays")
        .into_iter()
        .filter_map(|l| l.text)
        .collect()
}

/// What the built-in AI would answer now, printed.
fn ai_choice(t: &Table<Einfelst>) -> String {
    use fray_engine::text::TextRuleset;
    let mut ai = Einfelst::heuristic();
    let mut rng = fray_dice::Prng::for_stream(1, 0);
    let (_, c) = fray_engine::choose_first(&mut *ai, t.state(), &mut rng).expect("a choice");
    Einfelst::format_command(t.state(), &c)
}

/// The test map with an obstacle `label` between `a_zone` and its neighbour `b_zone` (written on
/// `a_zone`'s links line), and the obstacle's table.
fn with_obstacle(toml: String, links: &str, to: &str, table: &str) -> String {
    toml.replacen(links, &format!("{links}\nobstacles = {{ {to} = \"rubble\" }}"), 1) + "[obstacle.rubble]\n" + table
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

#[test]
fn ein_r2_the_group_s_seat_picks_which_member_acts_next_on_the_card() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("w1", "foes", "d", "group = \"pack\""),
            who("w2", "foes", "d", "group = \"pack\""),
            who("w3", "foes", "d", "group = \"pack\""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[8, 2]));
    for round in 1..=2 {
        assert_eq!(t.state().round, round);
        // The card comes up: nobody's turn yet; the GM (the pack's seat) picks.
        let p = t.game.pending().unwrap();
        assert_eq!((p.kind(), p.first()), ("group-turn", GM));
        assert_eq!(turn(&t), "");
        assert_eq!(t.legal(), vec!["act w1", "act w2", "act w3"]);
        assert!(prompt(&t).contains("act w1|w2|w3"), "{}", prompt(&t));
        t.expect_rejection(GM, "end", codes::NOT_NOW);
        t.expect_rejection(GM, "act ash", codes::BAD_TARGET);
        t.cmd("act w3");
        assert_eq!(turn(&t), "w3");
        t.cmd("end");
        // Asked again for the two left; the last one is not asked.
        assert_eq!(t.legal(), vec!["act w1", "act w2"]);
        t.cmd("act w2");
        assert_eq!(turn(&t), "w2");
        t.cmd("end");
        assert_eq!(turn(&t), "w1");
        t.cmd("end");
        assert_eq!(turn(&t), "ash");
        t.cmd("end");
    }
    t.assert_replays();
}

#[test]
fn ein_r2_the_ai_sends_first_the_member_that_can_attack() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("w1", "foes", "d", "group = \"pack\""),
            who("w2", "foes", "b", "group = \"pack\""),
            who("w3", "foes", "a", "group = \"pack\""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[8, 2]));
    assert_eq!(ai_choice(&t), "act w3");
    t.cmd("act w3");
    t.cmd("end");
    // Neither can strike now: the nearer one (w1 and w2 are both one zone away: the first).
    assert_eq!(ai_choice(&t), "act w1");
}

#[test]
fn every_roll_shows_its_faces_in_the_log_and_in_its_event() {
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9", 1, 5);
    t.cmd("strike bo");
    t.dice(&[6, 1, 6, 1, 4, 6]).cmd("parry");
    let faces: Vec<Vec<u16>> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Tested { faces, .. } => Some(faces.as_slice().to_vec()),
            _ => None,
        })
        .collect();
    assert_eq!(faces, vec![vec![6, 1, 6], vec![1, 4, 6]]);
    let log = t.log();
    assert!(
        log.contains(&"ash rolls 3 dice (strike) to attack [6, 1, 6]: 2 successes".to_string()),
        "{log:?}"
    );
    // The defence names its reaction: the log as a game's log is written, each line against
    // the state right after its event.
    let full = full_log(&t);
    assert!(
        full.contains(&"bo rolls 3 dice (strike) to parry [1, 4, 6]: 1 success".to_string()),
        "{full:?}"
    );
    let json = serde_json::to_string(&t.last).unwrap();
    assert!(json.contains("\"faces\":[6,1,6]"), "{json}");
    // The Director's own dice, and the dice of a pushed roll.
    t.dice(&[6, 6, 1, 1, 2, 3]).type_as(GM, "gm poison bo 3");
    assert!(
        t.log()
            .contains(&"The Director rolls 3 dice for the poison [6, 6, 1]: 2 successes".to_string()),
        "{:?}",
        t.log()
    );
    let mut t = duel("push-rolls = true", "", "harm = \"points\"\nharm-capacity = 9", 1, 5);
    t.cmd("strike bo");
    t.dice(&[2, 3, 4]).cmd("pass");
    t.dice(&[5, 6, 1]).cmd("push");
    let pushed = t.last.iter().find_map(|e| match e {
        Event::Pushed { faces, .. } => Some(faces.as_slice().to_vec()),
        _ => None,
    });
    assert_eq!(pushed, Some(vec![5, 6, 1]));
    assert!(
        t.log()
            .iter()
            .any(|l| l == "ash pushes the roll: 3 dice again [5, 6, 1], 1 success more"),
        "{:?}",
        t.log()
    );
}

#[test]
fn ein_r25_h10_h14_the_reaction_prompt_names_only_the_reactions_allowed_and_a_refusal_says_why() {
    // Close combat: parry, not dodge.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    assert_eq!(prompt(&t), "ash attacks bo: parry or pass (before the roll)");
    assert_eq!(t.legal(), vec!["parry", "pass"]);
    let r = t.expect_rejection(GM, "dodge", codes::BAD_REACTION);
    assert!(r.reason.contains("close combat is parried, not dodged"), "{}", r.reason);
    assert!(r.reason.contains("dodge-melee"), "{}", r.reason);
    let r = t.expect_rejection(GM, "resist", codes::BAD_REACTION);
    assert!(r.reason.contains("resist answers a spell"), "{}", r.reason);
    // With dodge-melee, both.
    let mut t = duel("dodge-melee = true", "", "", 1, 5);
    t.cmd("strike bo");
    assert_eq!(prompt(&t), "ash attacks bo: dodge, parry or pass (before the roll)");
    // A shot: dodge, not parry.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", "weapons = [\"shortbow\"]"),
            who("bo", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("shoot bo");
    assert_eq!(prompt(&t), "ash attacks bo: dodge or pass (before the roll)");
    let r = t.expect_rejection(GM, "parry", codes::BAD_REACTION);
    assert!(r.reason.contains("cannot be parried: dodge it"), "{}", r.reason);
    // The defence's roll names the reaction.
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("dodge");
    let full = full_log(&t);
    assert!(
        full.contains(&"bo rolls 3 dice (finesse) to dodge [1, 1, 1]: 0 successes".to_string()),
        "{full:?}"
    );
    // A grapple: break-free. A restrained creature: parry only, and a dodge says why.
    let mut t = duel("dodge-melee = true", "", "", 1, 5);
    t.cmd("grapple bo");
    assert_eq!(prompt(&t), "ash attacks bo: break-free or pass (before the roll)");
    t.dice(&hits(1, 3)).cmd("pass");
    t.cmd("end");
    t.cmd("end");
    t.cmd("strike bo");
    assert_eq!(prompt(&t), "ash attacks bo: parry or pass (before the roll)");
    let r = t.expect_rejection(GM, "dodge", codes::BAD_REACTION);
    assert!(
        r.reason.contains("bo is restrained: it may parry, but not dodge"),
        "{}",
        r.reason
    );
}

#[test]
fn ein_r34_the_split_prompt_offers_splits_that_add_up_to_the_harm() {
    // A sword's 2 Harm on an empty track.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(1, 3)).cmd("pass");
    assert_eq!(prompt(&t), "bo marks 2 Physical Harm: split 2 or split 1+1");
    assert_eq!(t.legal(), vec!["split 2", "split 1+1"]);
    // A split mistyped: the example given adds up to the 2 Harm too.
    let r = t.expect_rejection(GM, "split 2x", fray_engine::Reject::UNKNOWN_COMMAND);
    assert!(r.reason.ends_with("such as 1+1"), "{}", r.reason);
    let r = t.expect_rejection(GM, "split 2+1", codes::BAD_SPLIT);
    assert!(r.reason.contains("must add up to 2"), "{}", r.reason);
    t.cmd("split 2");
    // A failed Fear test's 3 Mental Harm.
    t.dice(&hits(0, 3)).type_as(GM, "gm fear ash 1");
    assert_eq!(prompt(&t), "ash marks 3 Mental Harm: split 3, split 2+1 or split 1+1+1");
    // Many ways: the hint's examples add up too.
    let mut t = duel("fear-harm = [2, 3, 5]", "", "", 1, 5);
    t.dice(&hits(0, 3)).type_as(GM, "gm fear ash 1 desperate");
    assert_eq!(
        prompt(&t),
        "ash marks 5 Mental Harm: split <levels that add up to 5>, such as split 3+2 or split 3+1+1"
    );
}

#[test]
fn ein_r32_r33_a_fleer_may_name_its_way_and_the_log_says_where_before_anyone_chases() {
    // Two ways out of a: d (an exit, the shortest) and b, then c (an exit).
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat()).replacen(
        "id = \"d\"",
        "id = \"d\"\nexit = true",
        1,
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    let legal = t.legal();
    for c in ["flee finesse", "flee finesse b", "flee finesse d", "flee sneak b"] {
        assert!(legal.contains(&c.to_string()), "{c} not in {legal:?}");
    }
    t.expect_rejection(PCS, "flee finesse c", codes::OUT_OF_REACH);
    t.cmd("flee finesse b");
    // The log names the way before the chase is asked.
    assert!(
        t.log().contains(&"ash tries to flee (finesse) by way of b".to_string()),
        "{:?}",
        t.log()
    );
    assert_eq!(t.game.pending().unwrap().kind(), "chase");
    assert_eq!(prompt(&t), "ash flees by way of b: bo may chase finesse|track, or pass");
    // Caught: both move into the zone named, not the shortest way's d.
    t.dice(&cat(&[hits(1, 3), hits(1, 3)])).cmd("chase track");
    assert_eq!((zone_of(&t, "ash"), zone_of(&t, "bo")), ("b".into(), "b".into()));
    // A zone a foe holds is no way out; a fleer in an exit zone names none.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "b", ""),
            who("cy", "pcs", "c", ""),
        ]
        .concat(),
    )
    .replacen("id = \"d\"", "id = \"d\"\nexit = true", 1);
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5, 2]));
    t.type_as(PCS, "ready");
    let r = t.expect_rejection(PCS, "flee finesse b", codes::NO_ESCAPE);
    assert!(r.reason.contains("a foe holds b"), "{}", r.reason);
    t.cmd("end");
    assert_eq!(turn(&t), "cy");
    t.expect_rejection(PCS, "flee finesse b", codes::NO_ESCAPE);
    assert!(t.legal().contains(&"flee finesse".to_string()));
}

#[test]
fn ein_r16_a_turn_that_ends_by_itself_says_so_in_the_log() {
    let toml = enc("", &[who("ash", "pcs", "d", ""), who("bo", "foes", "b", "")].concat());
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("move a");
    t.cmd("move b");
    assert!(
        t.log()
            .contains(&"ash has no manoeuvre left: the turn ends".to_string()),
        "{:?}",
        t.log()
    );
    // A turn ended by its seat says nothing of the kind.
    t.cmd("end");
    assert!(!t.log().iter().any(|l| l.contains("the turn ends")), "{:?}", t.log());
}

#[test]
fn ein_r21_r25_a_natural_weapon_is_the_creature_s_own_and_rolls_its_action() {
    use fray_einfelst::data::Action;
    let actions = |t: &Table<Einfelst>| -> Vec<Action> {
        t.last
            .iter()
            .filter_map(|e| match e {
                Event::Tested { action, .. } => *action,
                _ => None,
            })
            .collect()
    };
    let pts = "harm = \"points\"\nharm-capacity = 9";
    // bo bites (Force by default).
    let mut t = duel("", pts, &format!("weapons = [\"bite\"]\n{pts}"), 1, 5);
    // Struck, it parries with its bite (Force), and the bite cannot be knocked away.
    t.cmd("strike bo");
    t.dice(&cat(&[hits(3, 3), hits(0, 3)])).cmd("parry");
    assert_eq!(actions(&t), vec![Action::Strike, Action::Force]);
    let r = t.expect_rejection(PCS, "spend disarm", codes::BAD_SPEND);
    assert!(r.reason.contains("not a bite or claws"), "{}", r.reason);
    t.cmd("spend");
    let bite = t.state().weapon_ids.iter().position(|w| w == "bite").map(|i| i as u8);
    assert_eq!(t.state().ch(1).wield, bite);
    t.cmd("end");
    // Its turn: it strikes with the bite; it does not punch, nor put the bite away.
    assert!(t.legal().contains(&"strike ash".to_string()));
    assert!(!t.legal().contains(&"punch ash".to_string()));
    let r = t.expect_rejection(GM, "punch ash", codes::NO_WEAPON);
    assert!(r.reason.contains("fights with its bite"), "{}", r.reason);
    t.expect_rejection(GM, "draw unarmed", codes::NO_WEAPON);
    t.cmd("strike ash");
    assert!(
        t.log().iter().any(|l| l == "bo attacks ash with its bite"),
        "{:?}",
        t.log()
    );
    // bo's pool: 3 dice less its 4 Harm points, the least pool (1).
    t.dice(&cat(&[hits(1, 1), hits(0, 3)])).cmd("parry");
    assert_eq!(actions(&t), vec![Action::Force, Action::Strike]);
    assert_eq!(t.state().ch(0).harm.points, 1); // the bite's 1
    // A natural weapon that says Strike is rolled with Strike.
    let talons = "[weapon.talons]\nname = \"talons\"\nkind = \"natural\"\ndamage = 2\naction = \"strike\"\n";
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", pts),
            who("bo", "foes", "a", "weapons = [\"talons\"]"),
            talons.to_string(),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[5, 1]));
    t.cmd("strike ash");
    t.dice(&cat(&[hits(1, 3), hits(0, 3)])).cmd("parry");
    assert_eq!(actions(&t), vec![Action::Strike, Action::Strike]);
    assert_eq!(t.state().ch(0).harm.points, 2);
}

#[test]
fn the_prompt_leaves_closing_in_on_an_ally_to_choices_all() {
    use fray_engine::text::{AnyGame, TextGame, TextRuleset};
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 2, 5]));
    t.type_as(PCS, "ready");
    assert_eq!(turn(&t), "ash");
    // Legal (closing in on anyone in the zone is), but only the foe is offered.
    let (cy, bo) = (id(&t, "cy"), id(&t, "bo"));
    let close = fray_einfelst::command::Command::Close;
    assert!(Einfelst::prompt_hides(t.state(), &close(cy)));
    assert!(!Einfelst::prompt_hides(t.state(), &close(bo)));
    let strike = fray_einfelst::command::Command::Strike(bo);
    assert!(!Einfelst::prompt_hides(t.state(), &strike));
    let g = TextGame::new(t.game);
    let p = g.pending().expect("ash's turn");
    let listed = |c: &str| {
        let i = p
            .choices
            .iter()
            .position(|x| x == c)
            .unwrap_or_else(|| panic!("{c} not legal"));
        !p.hidden[i]
    };
    assert!(listed("close bo") && listed("strike bo"));
    assert!(!listed("close cy"), "close cy is listed only by `choices all`");
    assert_eq!(p.hidden.iter().filter(|h| **h).count(), 1);
    assert_eq!(p.flag_words, ["mental", "disarm", "pin", "silence"]);
}

#[test]
fn a_mistyped_zone_creature_weapon_or_spell_names_the_near_miss() {
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat())
        + "[spell.hex]\nname = \"hex\"\ndamage = 1\nresist = \"endure\"\n[template.wolf]\nname = \"wolf\"\n";
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    let unreadable = fray_engine::Reject::UNKNOWN_COMMAND;
    let r = t.expect_rejection(PCS, "strike boo", unreadable);
    assert_eq!(r.reason, "no creature 'boo' (did you mean 'bo'?)");
    let r = t.expect_rejection(PCS, "move bb", unreadable);
    assert!(
        r.reason.starts_with("no zone 'bb' (did you mean 'b'?); the zones are"),
        "{}",
        r.reason
    );
    let r = t.expect_rejection(PCS, "draw swrod", unreadable);
    assert_eq!(r.reason, "no weapon 'swrod' (did you mean 'sword'?)");
    let r = t.expect_rejection(PCS, "cast hx bo", unreadable);
    assert_eq!(r.reason, "no spell 'hx' (did you mean 'hex'?)");
    let r = t.expect_rejection(PCS, "flee finese", unreadable);
    assert!(r.reason.contains("(did you mean 'finesse'?)"), "{}", r.reason);
    // Nothing near: no guess.
    let r = t.expect_rejection(PCS, "strike zzzzzz", unreadable);
    assert_eq!(r.reason, "no creature 'zzzzzz'");
    let r = t.expect_rejection(GM, "gm add wolf-9 wlf foes a", codes::BAD_RULING);
    assert_eq!(r.reason, "no template 'wlf' (did you mean 'wolf'?)");
}
