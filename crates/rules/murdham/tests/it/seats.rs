//! Seats of players' own: a character may name `seat = "<name>"`, the seat of the player who
//! plays it. Every decision about it goes to that seat; at its faction's opportunity (MUR-R1)
//! every seat of the faction with a character able to act is asked at once, the first to give
//! the turn to one of its own characters takes it, and the faction passes once each seat asked
//! has passed. Two travellers played by `ana` and `ben` against a cutthroat of the GM's.

use fray_engine::text::TextRuleset;
use fray_engine::{EngineError, Reject, Ruleset, Seat, Summarize};
use fray_murdham::Murdham;
use fray_murdham::state::Event;
use fray_murdham::view::hidden_from;
use fray_testkit::Table;

const PARTY: Seat = Seat(1);
const ANA: Seat = Seat(2);
const BEN: Seat = Seat(3);

/// Zones `yard` and `lane`; the faction `party` (its own seat `party`) holds the initiative and
/// always opens; the `bandits` are the GM's. `rest` adds the characters.
fn enc(rest: &str) -> String {
    format!(
        r#"ruleset = "murdham"
initiative = "party"
player-sides = ["party"]
[options]
opener = "initiative"
[[zone]]
id = "yard"
links = ["lane"]
[[zone]]
id = "lane"
[[side]]
id = "party"
[[side]]
id = "bandits"
seat = "gm"
{rest}"#
    )
}

/// A character with STR, AGI and WIT 10 and a sword, and the lines `extra`.
fn who(id: &str, side: &str, at: &str, extra: &str) -> String {
    format!(
        "[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\nstr = 10\nagi = 10\nwit = 10\nwield = [\"martial-hand\"]\n{extra}\n"
    )
}

/// Wren (ana's) and Brom (ben's) of the party, and the GM's cutthroat, all in the yard.
fn two_players() -> String {
    enc(&[
        who("wren", "party", "yard", "seat = \"ana\""),
        who("brom", "party", "yard", "seat = \"ben\""),
        who("cutthroat", "bandits", "yard", ""),
    ]
    .concat())
}

/// The seats the pending decision names, by name, and its kind.
fn asked(t: &Table<Murdham>) -> (&'static str, Vec<String>) {
    let p = t.game.pending().expect("a decision");
    let names = p.seats.iter().map(|s| Murdham::seat_name(t.state(), s)).collect();
    (p.kind(), names)
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The legal commands of `seat`, printed.
fn legal_of(t: &Table<Murdham>, seat: Seat) -> Vec<String> {
    t.game
        .legal_commands(seat)
        .iter()
        .map(|c| Murdham::format_command(t.state(), c))
        .collect()
}

#[test]
fn mur_r1_every_player_of_the_faction_is_asked_and_the_first_to_act_takes_the_turn() {
    let mut t = Table::<Murdham>::load(&two_players(), &[], &[]);
    assert_eq!(t.state().setup.seats, ["gm", "party", "ana", "ben"]);
    // MUR-R1: the party's opportunity goes to both players at once.
    assert_eq!(asked(&t), ("faction", names(&["ana", "ben"])));
    assert_eq!(
        Murdham::describe_pending(t.state(), &t.game.pending().expect("a decision")),
        "Round 1: party: act <id> or pass (asked: ana, ben, each for its own characters)"
    );
    // Each is offered its own character.
    assert_eq!(legal_of(&t, ANA), ["act wren", "pass"]);
    assert_eq!(legal_of(&t, BEN), ["act brom", "pass"]);
    // Ana cannot give the turn to ben's character: the reason says whose it is.
    let r = t.expect_rejection(ANA, "act brom", Reject::NOT_YOUR_DECISION);
    assert_eq!(
        r.reason,
        "brom is played by ben, not by ana: a seat gives the turn only to its own characters (or passes)"
    );
    // The party's own seat plays nobody and is not asked.
    t.expect_rejection(PARTY, "act wren", Reject::NOT_YOUR_DECISION);
    // Ana answers first: wren's turn, ana's alone.
    t.type_as(ANA, "act wren");
    assert_eq!(t.log(), ["wren's turn"]);
    assert_eq!(asked(&t), ("turn", names(&["ana"])));
    t.expect_rejection(BEN, "end", Reject::NOT_YOUR_DECISION);
    t.type_as(ANA, "end");
    // The cutthroat attacks brom: brom's reaction is ben's to choose.
    t.type_as(Seat::GM, "act cutthroat");
    t.type_as(Seat::GM, "attack brom");
    assert_eq!(asked(&t), ("reaction", names(&["ben"])));
    t.expect_rejection(ANA, "dodge", Reject::NOT_YOUR_DECISION);
    // MUR-R20: AGI save 3 against 10 passes: the attack misses.
    t.dice(&[3]).type_as(BEN, "dodge");
    t.type_as(Seat::GM, "end");
    // Wren acted and brom reacted (MUR-R10): the party has nobody to ask, and passes.
    assert!(t.log().contains(&"party pass".to_string()), "{:?}", t.log());
    assert_eq!(t.state().round, 2);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r1_r3_the_faction_passes_once_every_player_asked_has_passed() {
    let mut t = Table::<Murdham>::load(&two_players(), &[], &[]);
    // Ana passes for her own characters: ben is still asked, and the faction has not passed.
    let events = t.type_as(ANA, "pass");
    assert!(
        matches!(events[..], [Event::SeatPassed { side: 0, seat: ANA }]),
        "{events:?}"
    );
    assert_eq!(
        t.log(),
        ["ana passes for now; party may still act through another player"]
    );
    assert_eq!(asked(&t), ("faction", names(&["ben"])));
    assert_eq!(
        Murdham::describe_pending(t.state(), &t.game.pending().expect("a decision")),
        "Round 1: party: act <id> or pass (asked: ben; passed: ana)"
    );
    assert_eq!(t.state().passed, [false, false]);
    // Having passed, ana is not asked again at this opportunity.
    t.expect_rejection(ANA, "act wren", Reject::NOT_YOUR_DECISION);
    // Ben passes too: now the party passes (MUR-R1), and the bandits are asked.
    t.type_as(BEN, "pass");
    assert_eq!(t.log(), ["party pass"]);
    assert_eq!(asked(&t), ("faction", names(&["gm"])));
    // MUR-R3: every faction has passed in a row: the round is over.
    t.type_as(Seat::GM, "pass");
    assert_eq!(t.state().round, 2);
    // At the next opportunity both are asked again; ben answers first this time.
    assert_eq!(asked(&t), ("faction", names(&["ana", "ben"])));
    t.type_as(BEN, "act brom");
    t.type_as(BEN, "end");
    t.type_as(Seat::GM, "pass");
    // Only ana has someone left to act: her pass is the party's, and after the bandits' pass
    // it ends the round.
    assert_eq!(asked(&t), ("faction", names(&["ana"])));
    t.type_as(ANA, "pass");
    assert_eq!(t.log(), ["party pass", "Round 3", "party act first"]);
    t.assert_replays();
}

#[test]
fn a_faction_played_from_one_seat_passes_at_once_as_before() {
    // The same fight with no seats of their own: one seat, one pass, the faction's.
    let toml = enc(&[
        who("wren", "party", "yard", ""),
        who("brom", "party", "yard", ""),
        who("cutthroat", "bandits", "yard", ""),
    ]
    .concat());
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    assert_eq!(t.state().setup.seats, ["gm", "party"]);
    assert_eq!(asked(&t), ("faction", names(&["party"])));
    assert_eq!(legal_of(&t, PARTY), ["act wren", "act brom", "pass"]);
    assert_eq!(
        Murdham::describe_pending(t.state(), &t.game.pending().expect("a decision")),
        "Round 1: party: act <id> or pass"
    );
    let events = t.type_as(PARTY, "pass");
    assert!(matches!(events[0], Event::Passed { side: 0 }), "{events:?}");
}

#[test]
fn a_ruling_that_leaves_no_other_player_to_ask_passes_the_faction() {
    let mut t = Table::<Murdham>::load(&two_players(), &[], &[]);
    t.type_as(ANA, "pass");
    // MUR-R4: ben's only character is stunned: nobody the party still asks can act.
    t.type_as(Seat::GM, "gm stun brom");
    assert!(t.log().contains(&"party pass".to_string()), "{:?}", t.log());
    assert_eq!(asked(&t), ("faction", names(&["gm"])));
    t.assert_replays();
}

#[test]
fn the_opening_is_asked_of_every_player_of_the_initiative_faction() {
    let toml = two_players().replace("opener = \"initiative\"", "");
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    assert_eq!(asked(&t), ("open", names(&["ana", "ben"])));
    t.type_as(BEN, "open bandits");
    assert_eq!(asked(&t), ("faction", names(&["gm"])));
}

#[test]
fn the_shared_view_and_the_simulation_name_each_characters_own_seat() {
    let t = Table::<Murdham>::load(&two_players(), &[], &[]);
    for seat in [Seat::GM, PARTY, ANA, BEN] {
        let v = Murdham::seat_view(t.state(), seat);
        let seats: Vec<(&str, &str)> = v.combatants.iter().map(|c| (c.id.as_str(), c.seat.as_str())).collect();
        assert_eq!(seats, [("wren", "ana"), ("brom", "ben"), ("cutthroat", "gm")]);
    }
    let s = t.state();
    assert_eq!((s.seat_of(0), s.seat_of(1), s.seat_of(2)), (ANA, BEN, Seat::GM));
    let policies: Vec<String> = Murdham::seats(s).into_iter().map(|p| p.name).collect();
    assert_eq!(policies, ["party", "gm", "ana", "ben"]);
    // What outlasts the fight is kept for the players' characters, not the GM's.
    let lasting: Vec<String> = Murdham::lasting(s).into_iter().map(|l| l.id).collect();
    assert_eq!(lasting, ["wren", "brom"]);
}

#[test]
fn mur_r57_a_player_sees_a_concealed_ally_of_another_players_and_no_concealed_enemy() {
    let toml = enc(&[
        who("wren", "party", "yard", "seat = \"ana\"\nconcealed = true"),
        who("brom", "party", "yard", "seat = \"ben\""),
        who("lurker", "bandits", "lane", "concealed = true"),
        who("cutthroat", "bandits", "yard", ""),
    ]
    .concat());
    let t = Table::<Murdham>::load(&toml, &[], &[]);
    let s = t.state();
    let (wren, lurker) = (0, 2);
    // Ben plays a character of the party: wren, ana's, is his concealed ally.
    assert!(!hidden_from(s, BEN, wren) && !hidden_from(s, ANA, wren));
    // The party's own seat plays no character of it: wren is hidden from it.
    assert!(hidden_from(s, PARTY, wren));
    // Neither player sees the GM's concealed lurker; the GM sees everyone.
    assert!(hidden_from(s, ANA, lurker) && hidden_from(s, BEN, lurker));
    assert!(!hidden_from(s, Seat::GM, wren) && !hidden_from(s, Seat::GM, lurker));
    let place_of = |seat: Seat, id: &str| {
        let v = Murdham::seat_view(s, seat);
        v.combatants.iter().find(|c| c.id == id).and_then(|c| c.place.clone())
    };
    assert!(place_of(BEN, "wren").is_some());
    assert!(place_of(PARTY, "wren").is_none());
    assert!(place_of(BEN, "lurker").is_none());
    // Characters of one faction stay allies whatever their seats.
    assert!(!s.enemies(wren, 1) && s.enemies(wren, 3));
}

#[test]
fn a_record_naming_a_seat_that_does_not_exist_is_refused() {
    let t = Table::<Murdham>::load(&two_players(), &[], &[]);
    let setup = &t.state().setup;
    let mut v = serde_json::to_value(&**setup).expect("serialises");
    assert_eq!(v["combatants"][1]["seat"], 3);
    assert!(
        v["combatants"][2].get("seat").is_none(),
        "the cutthroat's seat is its faction's: not written"
    );
    v["combatants"][1]["seat"] = 4.into();
    let edited = serde_json::from_value(v).expect("still a setup");
    match Murdham::new_state(&edited, &t.state().options) {
        Err(EngineError::Invalid(m)) => assert_eq!(m, "combatant 'brom' names seat 4, which does not exist"),
        other => panic!("{:?}", other.map(|_| ())),
    }
}
