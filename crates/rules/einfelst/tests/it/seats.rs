//! Seats of their own: a player character (or a group sharing a card, EIN-R2) may name the seat
//! that plays it. Every decision about a creature goes to its seat, a seat commands only its own
//! creatures, and a start-of-round swap (EIN-R5) of two players' characters needs both seats,
//! which are asked at once. Creatures of one side stay allies whatever their seats, and nothing
//! is hidden from any seat (EIN-R45).
//!
//! Unless a test says otherwise: zones `a` – `b` (an exit); side `pcs` (player characters, no
//! seat of its own named, so its seat is `pcs`) and side `foes` (the GM's); ash is played by
//! seat `ana`, cy by seat `ben`; every attribute 2 and every combat Action 1 (3 dice a test);
//! a sword (damage 2).

use fray_einfelst::Einfelst;
use fray_einfelst::codes;
use fray_einfelst::state::{Event, RoundStage};
use fray_engine::text::TextRuleset;
use fray_engine::{Reject, Ruleset, Seat, Seats};
use fray_testkit::Table;

const GM: Seat = Seat::GM;
/// The seats in the order they first appear: `gm`, then `pcs` (the side), then the players.
const PCS: Seat = Seat(1);
const ANA: Seat = Seat(2);
const BEN: Seat = Seat(3);

fn enc(top: &str, rest: &str) -> String {
    format!(
        r#"ruleset = "einfelst"
player-sides = ["pcs"]
[[zone]]
id = "a"
links = ["b"]
[[zone]]
id = "b"
exit = true
[[side]]
id = "pcs"
[[side]]
id = "foes"
seat = "gm"
{top}{rest}"#
    )
}

fn who(id: &str, side: &str, extra: &str) -> String {
    format!(
        "[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nzone = \"a\"\n\
         attributes = {{ strength = 2, dexterity = 2, intuition = 2, reason = 2, presence = 2 }}\n\
         actions = {{ strike = 1, shoot = 1, force = 1, endure = 1, finesse = 1, sneak = 1, track = 1, read = 1 }}\n\
         weapons = [\"sword\"]\n{extra}\n"
    )
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

fn hits(k: usize, n: usize) -> Vec<u16> {
    (0..n).map(|i| if i < k { 6 } else { 1 }).collect()
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

fn turn(t: &Table<Einfelst>) -> String {
    let s = t.state();
    s.turn.map(|x| s.ch(x.who).id.clone()).unwrap_or_default()
}

fn deciders(t: &Table<Einfelst>) -> Seats {
    t.game.pending().expect("a decision").seats
}

fn seats(list: &[Seat]) -> Seats {
    list.iter().copied().collect()
}

/// ash (ana's) and cy (ben's) of the players' side, and bo of the GM's, all in zone `a`,
/// holding these cards.
fn two_players(ash: u16, cy: u16, bo: u16) -> Table<Einfelst> {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "seat = \"ana\""),
            who("cy", "pcs", "seat = \"ben\""),
            who("bo", "foes", ""),
        ]
        .concat(),
    );
    Table::<Einfelst>::load(&toml, &[], &cards(&[ash, cy, bo]))
}

#[test]
fn new_seats_join_the_list_where_they_first_appear_and_default_to_the_sides() {
    let t = two_players(9, 5, 2);
    let s = t.state();
    assert_eq!(s.setup.seats, ["gm", "pcs", "ana", "ben"]);
    assert_eq!(s.seat_of(id(&t, "ash")), ANA);
    assert_eq!(s.seat_of(id(&t, "cy")), BEN);
    // bo names no seat: its side's.
    assert_eq!(s.seat_of(id(&t, "bo")), GM);
    assert_eq!(s.setup.combatants[2].seat, None);
    // Allies whatever their seats.
    assert!(!s.foes(id(&t, "ash"), id(&t, "cy")));
    assert!(s.foes(id(&t, "ash"), id(&t, "bo")));
}

#[test]
fn ein_r5_every_seat_that_may_swap_is_asked_at_once_and_a_swap_needs_both() {
    let mut t = two_players(9, 5, 2);
    assert_eq!(t.state().stage, RoundStage::Swaps);
    // EIN-R5: both players at once, and nobody else (the side's own seat plays nobody).
    assert_eq!(deciders(&t), seats(&[ANA, BEN]));
    assert_eq!(t.game.pending().unwrap().kind(), "card-swaps");
    assert!(t.game.legal_commands(ANA).len() >= 2);
    assert!(t.game.legal_commands(PCS).is_empty());
    t.expect_rejection(GM, "trade ash cy", Reject::NOT_YOUR_DECISION);
    // ana agrees alone: nothing changes hands, and the log says who is awaited.
    let ev = t.type_as(ANA, "trade ash cy");
    assert_eq!(
        ev,
        [Event::Proposed {
            seat: ANA.0,
            pair: (0, 1)
        }]
    );
    assert_eq!(t.log(), ["ana agrees to swap ash's and cy's cards (waiting for ben)"]);
    assert_eq!(card_of(&t, "ash"), [9]);
    assert_eq!(card_of(&t, "cy"), [5]);
    let prompt = Einfelst::describe_pending(t.state(), &t.game.pending().unwrap());
    assert!(prompt.ends_with("(ash and cy wait for ben)"), "{prompt}");
    t.expect_rejection(ANA, "trade ash cy", codes::BAD_TRADE);
    assert_eq!(deciders(&t), seats(&[ANA, BEN]));
    // ben agrees too: the swap takes place.
    let ev = t.type_as(BEN, "trade cy ash");
    assert!(matches!(ev.as_slice(), [Event::Proposed { seat, .. }, Event::Swapped { .. }] if *seat == BEN.0));
    assert_eq!(card_of(&t, "ash"), [5]);
    assert_eq!(card_of(&t, "cy"), [9]);
    // Each answers ready for itself; the round goes on once both have.
    t.type_as(BEN, "ready");
    assert_eq!(deciders(&t), seats(&[ANA]));
    t.expect_rejection(BEN, "ready", Reject::NOT_YOUR_DECISION);
    t.type_as(ANA, "ready");
    assert_eq!(t.state().stage, RoundStage::Turns);
    assert_eq!(turn(&t), "bo");
    t.assert_replays();
}

#[test]
fn ein_r5_ana_cannot_swap_bens_cards_nor_agree_for_him() {
    // ben plays two characters, cy and dee; ana plays ash.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "seat = \"ana\""),
            who("cy", "pcs", "seat = \"ben\""),
            who("dee", "pcs", "seat = \"ben\""),
            who("bo", "foes", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[9, 5, 3, 2]));
    assert_eq!(deciders(&t), seats(&[ANA, BEN]));
    // Two of ben's characters: ana has no say at all, and is told whose they are.
    let r = t.expect_rejection(ANA, "trade cy dee", codes::BAD_TRADE);
    assert_eq!(
        r.reason,
        "cy and dee are ben's: ana swaps cards only for its own characters"
    );
    // ben swaps his own two alone.
    t.type_as(BEN, "trade cy dee");
    assert_eq!((card_of(&t, "cy"), card_of(&t, "dee")), (vec![3], vec![5]));
    // ana's proposal with one of ben's waits for ben ...
    t.type_as(ANA, "trade ash dee");
    assert_eq!(card_of(&t, "ash"), [9]);
    // ... and once ben is done without agreeing, it never happens: ana, whose every swap now
    // waits on ben, is done too, and the turns begin.
    let ev = t.type_as(BEN, "ready");
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Ready { .. }))
            .collect::<Vec<_>>(),
        [&Event::Ready { seat: BEN.0 }, &Event::Ready { seat: ANA.0 }]
    );
    assert_eq!(t.state().stage, RoundStage::Turns);
    assert_eq!(card_of(&t, "ash"), [9]);
    assert_eq!(card_of(&t, "dee"), [5]);
    t.assert_replays();
}

#[test]
fn ein_r5_a_seat_done_swapping_is_not_waited_for() {
    // ash (ana) and cy (ben) and fay (ana again): ana may still swap her own two after ben is
    // done, but not with ben's cy.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "seat = \"ana\""),
            who("cy", "pcs", "seat = \"ben\""),
            who("fay", "pcs", "seat = \"ana\""),
            who("bo", "foes", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[9, 5, 3, 2]));
    t.type_as(BEN, "ready");
    assert_eq!(deciders(&t), seats(&[ANA]));
    let r = t.expect_rejection(ANA, "trade ash cy", codes::BAD_TRADE);
    assert_eq!(r.reason, "cy is ben's, and ben is done swapping this round");
    t.type_as(ANA, "trade ash fay");
    assert_eq!((card_of(&t, "ash"), card_of(&t, "fay")), (vec![3], vec![9]));
    t.type_as(ANA, "ready");
    assert_eq!(t.state().stage, RoundStage::Turns);
}

#[test]
fn every_decision_about_bens_creature_goes_to_ben_and_only_ben() {
    let mut t = two_players(9, 5, 2);
    // Once ana is done, ben's one possible swap (with ana's ash) never can be: he is done too.
    t.type_as(ANA, "ready");
    assert_eq!(t.state().stage, RoundStage::Turns);
    // bo (card 2, the GM's) attacks cy: ben answers the reaction.
    assert_eq!(turn(&t), "bo");
    t.type_as(GM, "strike cy");
    let p = t.game.pending().unwrap();
    assert_eq!(
        (p.seats, p.kind(), p.actor()),
        (seats(&[BEN]), "reaction", Some(id(&t, "cy")))
    );
    let r = t.expect_rejection(ANA, "pass", Reject::NOT_YOUR_DECISION);
    assert!(r.reason.contains("reaction"), "{}", r.reason);
    t.expect_rejection(GM, "pass", Reject::NOT_YOUR_DECISION);
    // One success of three dice: a hit for the sword's 2 Harm, which ben splits.
    t.dice(&hits(1, 3)).type_as(BEN, "pass");
    let p = t.game.pending().unwrap();
    assert_eq!((p.seats, p.kind()), (seats(&[BEN]), "harm"));
    t.expect_rejection(ANA, "split 1+1", Reject::NOT_YOUR_DECISION);
    t.type_as(BEN, "split 1+1");
    t.type_as(GM, "end");
    // cy's turn (card 5) is ben's; ash's (card 9) is ana's.
    assert_eq!(turn(&t), "cy");
    assert_eq!(deciders(&t), seats(&[BEN]));
    t.expect_rejection(ANA, "end", Reject::NOT_YOUR_DECISION);
    t.type_as(BEN, "end");
    assert_eq!(turn(&t), "ash");
    assert_eq!(deciders(&t), seats(&[ANA]));
    t.expect_rejection(BEN, "end", Reject::NOT_YOUR_DECISION);
    // The GM keeps its rulings over everyone.
    t.type_as(GM, "gm set cy physical-lesser -1");
    t.type_as(ANA, "end");
    t.assert_replays();
}

#[test]
fn ein_r2_a_group_names_its_seat_and_its_members_take_it() {
    // The pack's table seats it at `gm`, though its side `foes2` names none (its seat is
    // `foes2`); the solo creature of that side keeps the side's seat.
    let toml = enc(
        "[[side]]\nid = \"foes2\"\n[group.pack]\nseat = \"gm\"\n",
        &[
            who("ash", "pcs", "seat = \"ana\""),
            who("w1", "foes2", "group = \"pack\""),
            who("w2", "foes2", "group = \"pack\""),
            who("rook", "foes2", ""),
            who("bo", "foes", ""),
        ]
        .concat(),
    );
    // Draws: ash, the pack (one card), rook, bo.
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[9, 2, 5, 7]));
    let s = t.state();
    assert_eq!(s.setup.seats, ["gm", "pcs", "foes2", "ana"]);
    assert_eq!(s.seat_of(id(&t, "w1")), GM);
    assert_eq!(s.seat_of(id(&t, "w2")), GM);
    assert_eq!(s.seat_of(id(&t, "rook")), Seat(2));
    // One player character alone: no swap stage. The pack's card comes up: the GM picks.
    let p = t.game.pending().unwrap();
    assert_eq!((p.seats, p.kind()), (seats(&[GM]), "group-turn"));
    let r = t.expect_rejection(GM, "act ash", codes::BAD_TARGET);
    assert!(r.reason.starts_with("ash is ana's"), "{}", r.reason);
    t.type_as(GM, "act w2");
    assert_eq!(turn(&t), "w2");
    t.type_as(GM, "end");
    t.type_as(GM, "end");
    assert_eq!(turn(&t), "rook");
    assert_eq!(deciders(&t), seats(&[Seat(2)]));
}

#[test]
fn the_shared_view_gives_each_creature_its_own_seat_and_hides_nothing() {
    let t = two_players(9, 5, 2);
    let s = t.state();
    let v = Einfelst::seat_view(s, ANA);
    let got: Vec<(&str, &str, &str)> = v
        .combatants
        .iter()
        .map(|c| (c.id.as_str(), c.side.as_str(), c.seat.as_str()))
        .collect();
    assert_eq!(got, [("ash", "pcs", "ana"), ("cy", "pcs", "ben"), ("bo", "foes", "gm")]);
    // EIN-R45: every seat is shown every creature, cards and all: the same table.
    for seat in [GM, PCS, BEN] {
        assert_eq!(Einfelst::seat_view(s, seat).combatants, v.combatants);
    }
    assert_eq!(
        v.deciding.map(|d| d.seats),
        Some(vec!["ana".to_string(), "ben".to_string()])
    );
    // The tracker names a player's seat after the side.
    let tracker = Einfelst::tracker(s, GM);
    assert!(tracker.contains("cy (pcs, ben) card 5"), "{tracker}");
    assert!(tracker.contains("bo (foes) card 2"), "{tracker}");
}

#[test]
fn a_side_with_one_seat_swaps_as_before() {
    // Without seats of their own, one seat speaks for both characters with one `trade`.
    let toml = enc(
        "",
        &[who("ash", "pcs", ""), who("cy", "pcs", ""), who("bo", "foes", "")].concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[9, 5, 2]));
    assert_eq!(t.state().setup.seats, ["gm", "pcs"]);
    assert_eq!(deciders(&t), seats(&[PCS]));
    let ev = t.type_as(PCS, "trade ash cy");
    assert!(matches!(ev.as_slice(), [Event::Proposed { .. }, Event::Swapped { .. }]));
    assert_eq!(t.log()[0], "pcs agrees to swap ash's and cy's cards");
    // Done swapping that pair, the seat is still asked until it says ready.
    assert_eq!(deciders(&t), seats(&[PCS]));
    t.type_as(PCS, "ready");
    assert_eq!(turn(&t), "bo");
}

// --- The encounter file ---------------------------------------------------------------------

fn problems(text: &str) -> Vec<String> {
    let src = fray_engine::diag::SourceFile {
        name: "e.toml".into(),
        text: text.into(),
    };
    match Einfelst::load(&src, &mut |_| Err("no files".into())) {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|x| x.to_string()).collect(),
    }
}

/// `e.toml:LINE:COLUMN` of the first occurrence of `needle`.
fn at(text: &str, needle: &str) -> String {
    let i = text.find(needle).unwrap_or_else(|| panic!("no {needle:?}"));
    let line = text[..i].matches('\n').count() + 1;
    let column = i - text[..i].rfind('\n').map_or(0, |n| n + 1) + 1;
    format!("e.toml:{line}:{column}")
}

fn one_problem(text: &str, needle: &str, says: &str) {
    assert_eq!(
        problems(text),
        [format!("{}: error: {says}", at(text, needle))],
        "{text}"
    );
}

#[test]
fn a_bad_seat_is_a_diagnostic_at_its_value() {
    let text = enc(
        "",
        &[who("ash", "pcs", "seat = \"ana b\""), who("bo", "foes", "")].concat(),
    );
    one_problem(
        &text,
        "\"ana b\"",
        "seat = \"ana b\": a seat name is one word of letters, digits and '-' (a player's name, or \"gm\")",
    );
    // Not a string at all: the file's shape, at the value.
    let text = enc("", &[who("ash", "pcs", "seat = 3"), who("bo", "foes", "")].concat());
    let got = problems(&text);
    assert!(got.len() == 1 && got[0].starts_with(&at(&text, "3\n")), "{got:?}");
    // A template's seat is checked once, at the template, however many use it.
    let text = enc(
        "[template.pc]\nseat = \"x y\"\n",
        &[
            who("ash", "pcs", "template = \"pc\""),
            who("cy", "pcs", "template = \"pc\""),
            who("bo", "foes", ""),
        ]
        .concat(),
    );
    one_problem(
        &text,
        "\"x y\"",
        "seat = \"x y\": a seat name is one word of letters, digits and '-' (a player's name, or \"gm\")",
    );
}

#[test]
fn ein_r2_a_group_has_one_seat() {
    // A member naming another seat than its group's table.
    let text = enc(
        "[group.pack]\nseat = \"gm\"\n",
        &[
            who("ash", "pcs", ""),
            who("w1", "foes", "group = \"pack\""),
            who("w2", "foes", "group = \"pack\"\nseat = \"ben\""),
        ]
        .concat(),
    );
    one_problem(
        &text,
        "\"ben\"",
        "'w2' is in the group 'pack', whose members share one initiative card (EIN-R2) and so one seat, 'gm' ([group.pack] names it): name that seat or none",
    );
    // Without a table, the first member that names a seat gives the group its seat, and the
    // others (before or after it) take it.
    let text = enc(
        "",
        &[
            who("ash", "pcs", ""),
            who("w1", "foes", "group = \"pack\""),
            who("w2", "foes", "group = \"pack\"\nseat = \"cara\""),
            who("w3", "foes", "group = \"pack\"\nseat = \"dan\""),
        ]
        .concat(),
    );
    one_problem(
        &text,
        "\"dan\"",
        "'w3' is in the group 'pack', whose members share one initiative card (EIN-R2) and so one seat, 'cara' ('w2' names it first): name that seat or none",
    );
    let good = text.replace("seat = \"dan\"", "seat = \"cara\"");
    let src = fray_engine::diag::SourceFile {
        name: "e.toml".into(),
        text: good,
    };
    let loaded = Einfelst::load(&src, &mut |_| Err("no files".into())).expect("loads");
    let s = &loaded.setup;
    assert_eq!(s.seats, ["gm", "pcs", "cara"]);
    let got: Vec<Option<Seat>> = s.combatants.iter().map(|c| c.seat).collect();
    assert_eq!(got, [None, Some(Seat(2)), Some(Seat(2)), Some(Seat(2))]);
    // A table for a group nobody is in.
    let text = enc(
        "[group.pak]\nseat = \"gm\"\n",
        &[who("ash", "pcs", ""), who("w1", "foes", "group = \"pack\"")].concat(),
    );
    one_problem(
        &text,
        "[group.pak]",
        "[group.pak]: no combatant is in the group 'pak' (group = \"pak\")",
    );
}

#[test]
fn a_records_setup_may_not_name_a_seat_that_does_not_exist() {
    let toml = enc(
        "",
        &[who("ash", "pcs", "seat = \"ana\""), who("bo", "foes", "")].concat(),
    );
    let src = fray_engine::diag::SourceFile {
        name: "e.toml".into(),
        text: toml,
    };
    let e = Einfelst::load(&src, &mut |_| Err("no files".into())).expect("loads");
    assert!(Einfelst::new_state(&e.setup, &e.options).is_ok());
    let mut v = serde_json::to_value(&e.setup).expect("serialises");
    assert_eq!(v["combatants"][0]["seat"], 2);
    // Without the key: as before, its side's seat.
    assert!(v["combatants"][1].get("seat").is_none());
    v["combatants"][0]["seat"] = 3.into();
    let bad: fray_einfelst::setup::Setup = serde_json::from_value(v.clone()).expect("still a setup");
    match Einfelst::new_state(&bad, &e.options) {
        Err(fray_engine::EngineError::Invalid(m)) => {
            assert_eq!(m, "combatant 'ash': seat 3 does not exist (3 seats)")
        }
        other => panic!("{other:?}"),
    }
    // Two members of one group on two seats.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", ""),
            who("w1", "foes", "group = \"pack\""),
            who("w2", "foes", "group = \"pack\""),
        ]
        .concat(),
    );
    let src = fray_engine::diag::SourceFile {
        name: "e.toml".into(),
        text: toml,
    };
    let e = Einfelst::load(&src, &mut |_| Err("no files".into())).expect("loads");
    let mut v = serde_json::to_value(&e.setup).expect("serialises");
    v["combatants"][2]["seat"] = 1.into();
    let bad: fray_einfelst::setup::Setup = serde_json::from_value(v).expect("still a setup");
    match Einfelst::new_state(&bad, &e.options) {
        Err(fray_engine::EngineError::Invalid(m)) => {
            assert_eq!(m, "combatants 'w1' and 'w2' share a group but not a seat")
        }
        other => panic!("{other:?}"),
    }
}
