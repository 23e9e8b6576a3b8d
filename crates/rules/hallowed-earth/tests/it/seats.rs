//! Seats per player: a combatant may name a seat of its own (`seat = "ana"`), and every
//! decision about it goes to that seat. Two player characters on one side, aska (seat `ana`)
//! and bren (seat `ben`), against cur, run by the GM.
//!
//! Dice at the start: each creature's Base Initiative d12 in encounter order (the stat blocks
//! fix `stress`, so no Stress dice).

use fray_engine::text::{AnyGame, TextGame, TextRuleset};
use fray_engine::{Game, Reject, Ruleset, Seat, Summarize};
use fray_hallowed_earth::HallowedEarth;
use fray_hallowed_earth::codes;
use fray_hallowed_earth::state::Phase;
use fray_testkit::Table;

/// The seats of [`party`]: `gm`, then the side's own seat `party` (which nobody uses), then
/// the players' seats in the order the combatants name them.
const GM: Seat = Seat::GM;
const PARTY: Seat = Seat(1);
const ANA: Seat = Seat(2);
const BEN: Seat = Seat(3);

/// A 10 × 5 yard field: side `party` with aska at `aska_at` and bren at 0,2 (their own seats
/// `ana` and `ben` when `own_seats`, else the side's seat), side `foes` (the GM's seat) with cur
/// at 6,2. Strength 12, Agility 10, Stress 10, Speed 6 yards; bren carries a two-type glaive.
fn party(options: &str, own_seats: bool, aska_at: &str) -> String {
    let seat = |name: &str| {
        if own_seats {
            format!("seat = \"{name}\"\n")
        } else {
            String::new()
        }
    };
    let stats = "strength = 12\nagility = 10\nstress = 10\nspeed = 6\n";
    format!(
        r#"ruleset = "hallowed-earth"
[options]
{options}
[map]
rows = [". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . ."]
[[side]]
id = "party"
[[side]]
id = "foes"
seat = "gm"
[[combatant]]
id = "aska"
side = "party"
{}at = "{aska_at}"
{stats}weapons = [{{ name = "sword", damage = "1d6" }}]
[[combatant]]
id = "bren"
side = "party"
{}at = "0,2"
{stats}weapons = [{{ name = "glaive", damage = "1d8", types = ["piercing", "slashing"] }}]
[[combatant]]
id = "cur"
side = "foes"
at = "6,2"
{stats}weapons = [{{ name = "club", damage = "1d6" }}]
"#,
        seat("ana"),
        seat("ben"),
    )
}

/// The seats a pending decision asks.
fn asked(t: &Table<HallowedEarth>) -> Vec<Seat> {
    t.game.pending().map(|p| p.seats.iter().collect()).unwrap_or_default()
}

fn text_game(t: &Table<HallowedEarth>) -> TextGame<HallowedEarth> {
    TextGame::new(Game::replay(t.game.record()).expect("replays"))
}

#[test]
fn a_combatant_names_its_own_seat_and_the_seat_list_grows_in_order_of_first_appearance() {
    let t = Table::<HallowedEarth>::load(&party("", true, "0,0"), &[], &[5, 3, 7]);
    let s = t.state();
    assert_eq!(s.setup.seats, ["gm", "party", "ana", "ben"]);
    assert_eq!(s.setup.combatants[0].seat, Some(ANA));
    assert_eq!(s.setup.combatants[2].seat, None, "cur takes its side's seat");
    assert_eq!([s.seat_of(0), s.seat_of(1), s.seat_of(2)], [ANA, BEN, GM]);
    // Without a seat of its own, a combatant is its side's, as before.
    let t = Table::<HallowedEarth>::load(&party("", false, "0,0"), &[], &[5, 3, 7]);
    assert_eq!(t.state().setup.seats, ["gm", "party"]);
    assert_eq!([t.state().seat_of(0), t.state().seat_of(1)], [PARTY, PARTY]);
    // The simulation's seats: those that decide for someone (the unused `party` is left out).
    let t = Table::<HallowedEarth>::load(&party("", true, "0,0"), &[], &[5, 3, 7]);
    let names: Vec<String> = HallowedEarth::seats(t.state()).into_iter().map(|p| p.name).collect();
    assert_eq!(names, ["gm", "ana", "ben"]);
}

#[test]
fn hal_r11_every_players_seat_with_a_declaration_due_is_asked_at_once() {
    let mut t = Table::<HallowedEarth>::load(&party("", true, "0,0"), &[], &[5, 3, 7]);
    let p = t.game.pending().expect("a decision");
    assert_eq!((p.kind(), p.actor()), ("declare", None));
    assert_eq!(asked(&t), [GM, ANA, BEN]);
    // Each seat answers for its own creature; the set shrinks as they finish.
    t.type_as(BEN, "declare bren move");
    assert_eq!(asked(&t), [GM, ANA]);
    t.expect_rejection(BEN, "declare bren move", Reject::NOT_YOUR_DECISION);
    t.type_as(ANA, "declare aska move");
    assert_eq!(asked(&t), [GM]);
    t.type_as(GM, "declare cur move");
    assert_eq!(t.state().phase, Phase::Resolving);
    // Each prompt names the seat's own creature only.
    let t = Table::<HallowedEarth>::load(&party("", true, "0,0"), &[], &[5, 3, 7]);
    assert_eq!(
        HallowedEarth::describe_pending_for(t.state(), &t.game.pending().unwrap(), ANA),
        "Round 1: secret declarations; aska declares an action; other seats still declaring"
    );
    let legal: Vec<String> = t
        .game
        .legal_commands(ANA)
        .iter()
        .map(|c| HallowedEarth::format_command(t.state(), c))
        .collect();
    assert!(
        !legal.is_empty() && legal.iter().all(|c| c.starts_with("declare aska")),
        "{legal:?}"
    );
}

#[test]
fn seats_per_player_play_the_same_events_and_dice_as_one_seat_for_the_side() {
    // The same commands, typed from the players' seats or from the side's one seat, give the
    // same events in the same order, with the same dice.
    let play = |own: bool| {
        let mut t = Table::<HallowedEarth>::load(&party("", own, "9,4"), &[], &[5, 3, 7]);
        let (a, b) = if own { (ANA, BEN) } else { (PARTY, PARTY) };
        t.type_as(a, "declare aska move");
        t.type_as(b, "declare bren attack cur");
        t.type_as(GM, "declare cur attack bren");
        // Counts: bren 3, aska 5, cur 7. bren stops at 4,2, inside cur's threat range.
        t.type_as(b, "move 5,2");
        t.type_as(GM, "pass");
        t.type_as(b, "move 5,2");
        t.dice(&[12, 4]).type_as(b, "act");
        t.type_as(b, "end");
        t.type_as(a, "end");
        t.dice(&[9, 2]).type_as(GM, "act");
        t.type_as(GM, "end");
        t.assert_dice_used();
        assert_eq!(t.state().round, 2);
        let log: Vec<Option<String>> = text_game(&t).full_log().into_iter().map(|l| l.text).collect();
        (t.all_events(), log)
    };
    let (own, own_log) = play(true);
    let (shared, shared_log) = play(false);
    assert_eq!(own, shared);
    assert_eq!(own_log, shared_log);
}

#[test]
fn a_seat_commands_only_its_own_creatures_and_the_refusal_names_whose_it_is() {
    let mut t = Table::<HallowedEarth>::load(&party("", true, "9,4"), &[], &[5, 3, 7]);
    // An ally of another seat is not ana's to declare for.
    let r = t.expect_rejection(ANA, "declare bren move", codes::NOT_YOUR_CREATURE);
    assert_eq!(r.reason, "bren belongs to seat 'ben': only that seat declares for it");
    t.expect_rejection(ANA, "declare bren free speak", codes::NOT_YOUR_CREATURE);
    // Nor the GM's (it declares for its own creatures and rules on any).
    let r = t.expect_rejection(GM, "declare aska move", codes::NOT_YOUR_CREATURE);
    assert_eq!(r.reason, "aska belongs to seat 'ana': only that seat declares for it");
    t.type_as(GM, "gm set bren stress -1");
    // ben's turn is ben's: ana may not take it.
    t.type_as(ANA, "declare aska move");
    t.type_as(BEN, "declare bren move");
    t.type_as(GM, "declare cur move");
    assert_eq!(asked(&t), [BEN]);
    t.expect_rejection(ANA, "end", Reject::NOT_YOUR_DECISION);
    t.type_as(BEN, "end");
    assert_eq!(asked(&t), [ANA]);
    t.assert_replays();
}

#[test]
fn hal_r16_hal_r39_a_reposte_and_an_injury_table_of_bens_creature_are_asked_of_ben() {
    let mut t = Table::<HallowedEarth>::load(&party("", true, "9,4"), &[], &[9, 5, 2]);
    t.type_as(ANA, "declare aska move");
    t.type_as(BEN, "declare bren attack cur");
    t.type_as(GM, "declare cur attack bren");
    // Count 2: cur walks at bren and stops 2 yards from it, inside bren's threat range.
    t.type_as(GM, "move 1,2");
    assert_eq!(t.state().distance(2, 1), 2);
    assert_eq!(
        t.game.pending().map(|p| (p.kind(), p.actor())),
        Some(("reposte", Some(1)))
    );
    assert_eq!(asked(&t), [BEN]);
    t.expect_rejection(ANA, "pass", Reject::NOT_YOUR_DECISION);
    t.expect_rejection(GM, "pass", Reject::NOT_YOUR_DECISION);
    t.type_as(BEN, "pass");
    t.type_as(GM, "move 1,2");
    t.dice(&[2]).type_as(GM, "act");
    t.type_as(GM, "end");
    // Count 5: bren's critical with a two-type glaive: bren's player picks the table.
    t.dice(&[20, 8, 1]).type_as(BEN, "act");
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("injury"));
    assert_eq!(asked(&t), [BEN]);
    t.expect_rejection(ANA, "injury slashing", Reject::NOT_YOUR_DECISION);
    t.dice(&[13, 3]).type_as(BEN, "injury slashing");
    assert_eq!(t.state().ch(2).injuries, ["broken finger"]);
    t.assert_dice_used();
}

#[test]
fn hal_r11_a_secret_declaration_is_hidden_from_allies_of_another_seat_until_the_reveal() {
    let mut t = Table::<HallowedEarth>::load(&party("", true, "0,0"), &[], &[5, 3, 7]);
    t.type_as(BEN, "declare bren attack cur");
    let g = text_game(&t);
    // ana, bren's ally, is told only that bren has declared, as the foes' seat would be.
    assert_eq!(g.view_json(ANA)["extra"]["chars"][1]["declared"], "secret");
    let anas: Vec<String> = g.log_for(ANA).into_iter().filter_map(|l| l.text).collect();
    assert!(anas.contains(&"bren declares in secret".to_string()), "{anas:?}");
    assert!(!anas.iter().any(|l| l.contains("attack cur")), "{anas:?}");
    // ben sees his own declaration, the GM every one.
    assert_eq!(g.view_json(BEN)["extra"]["chars"][1]["declared"]["attack"]["target"], 2);
    assert_eq!(g.view_json(GM)["extra"]["chars"][1]["declared"]["attack"]["target"], 2);
    // The shared view: each combatant's seat is its own, and ana sees bren's declaration only
    // as made.
    let view = HallowedEarth::seat_view(t.state(), ANA);
    let seats: Vec<&str> = view.combatants.iter().map(|c| c.seat.as_str()).collect();
    assert_eq!(seats, ["ana", "ben", "gm"]);
    let declared = view.combatants[1]
        .statuses
        .iter()
        .find(|x| x.name == "declared")
        .expect("declared");
    assert_eq!(declared.value, None);
    let declared = HallowedEarth::seat_view(t.state(), BEN).combatants[1]
        .statuses
        .iter()
        .find(|x| x.name == "declared")
        .expect("declared")
        .value
        .clone();
    assert_eq!(declared.as_deref(), Some("attack cur with glaive"));
    assert!(HallowedEarth::hides_from(t.state(), ANA));
    assert!(!HallowedEarth::hides_from(t.state(), BEN));
    // The reveal shows it to everyone.
    t.type_as(ANA, "declare aska move");
    t.type_as(GM, "declare cur move");
    let anas: Vec<String> = text_game(&t).log_for(ANA).into_iter().filter_map(|l| l.text).collect();
    assert!(
        anas.iter().any(|l| l.contains("3 bren: attack cur with glaive")),
        "{anas:?}"
    );
}

#[test]
fn hal_r11_round_the_table_goes_player_by_player_in_the_order_the_encounter_names_their_seats() {
    let mut t = Table::<HallowedEarth>::load(&party("declaration = \"clockwise\"", true, "0,0"), &[], &[5, 3, 7]);
    let mut seen = Vec::new();
    while let Some(p) = t.game.pending().filter(|p| p.kind() == "declare") {
        let who = p.actor().expect("one creature at a time");
        let id = t.state().ch(who).id.to_string();
        seen.push((id.clone(), p.first()));
        t.cmd(&format!("declare {id} move"));
    }
    assert_eq!(
        seen,
        [
            ("aska".to_string(), ANA),
            ("bren".to_string(), BEN),
            ("cur".to_string(), GM)
        ]
    );
    let mut t = Table::<HallowedEarth>::load(
        &party("declaration = \"counterclockwise\"", true, "0,0"),
        &[],
        &[5, 3, 7],
    );
    assert_eq!(
        t.game.pending().and_then(|p| p.actor()),
        Some(1),
        "bren, the last seat, first"
    );
    t.expect_rejection(ANA, "declare aska move", Reject::NOT_YOUR_DECISION);
}

fn random(_: u64) -> Box<dyn fray_engine::Policy<HallowedEarth>> {
    Box::new(fray_engine::RandomLegal::<HallowedEarth>::new())
}

#[test]
fn hal_r11_secret_declarations_of_players_seats_leak_into_no_other_seats_view_log_or_commands() {
    let src = fray_engine::diag::SourceFile {
        name: "party.toml".into(),
        text: party("", true, "0,0"),
    };
    let loaded = HallowedEarth::load(&src, &mut |_| Err("no files".into())).expect("loads");
    let seats: Vec<Seat> = (0..loaded.setup.seats.len() as u8).map(Seat).collect();
    assert_eq!(seats.len(), 4);
    let ai = fray_engine::conformance::hidden_information::<HallowedEarth>(
        &loaded.setup,
        &loaded.options,
        0..6,
        &seats,
        20_000,
        |_| HallowedEarth::heuristic(),
    )
    .unwrap_or_else(|f| panic!("party, heuristic: {f}"));
    let random = fray_engine::conformance::hidden_information::<HallowedEarth>(
        &loaded.setup,
        &loaded.options,
        0..3,
        &seats,
        50_000,
        random,
    )
    .unwrap_or_else(|f| panic!("party, random: {f}"));
    assert!(
        ai.variants_compared > 0 && random.variants_compared > 0 && random.commands_compared > 0,
        "nothing hidden was checked: {ai:?} {random:?}"
    );
}

#[test]
fn the_ferry_example_gives_each_pilgrim_its_players_seat() {
    let e = fray_testkit::example::<HallowedEarth>("ferry.toml");
    assert_eq!(e.setup.seats, ["gm", "jo", "mel", "pat"]);
    let game = Game::<HallowedEarth>::new_seeded(e.setup, e.options, 1).expect("starts");
    let s = game.state();
    let players: Vec<(String, Seat)> = (0..3).map(|c| (s.ch(c).id.to_string(), s.seat_of(c))).collect();
    assert_eq!(
        players,
        [
            ("sefa".to_string(), Seat(1)),
            ("corwin".to_string(), Seat(2)),
            ("hild".to_string(), Seat(3))
        ]
    );
    // Round 1: the three players and the Referee declare at once.
    let asked: Vec<Seat> = game.pending().expect("a decision").seats.iter().collect();
    assert_eq!(asked, [GM, Seat(1), Seat(2), Seat(3)]);
    assert!(HallowedEarth::new_state(&s.setup, &s.options).is_ok());
}
