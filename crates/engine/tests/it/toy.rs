//! The engine's own tests, on a toy ruleset (a dice race): authority, rejections that leave the
//! state untouched, records that replay bit for bit, divergence detection, undo, typed dice, and
//! the conformance suite itself. The engine never depends on a real ruleset.

use fray_dice::{Dice, ScriptedDice};
use fray_engine::conformance::{Config, run};
use fray_engine::{
    Cx, EngineError, Game, Outcome, Pending, Policy, RandomLegal, Record, Reject, Ruleset, Seat, SubmitError,
};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU8, Ordering};

/// Two players take turns: roll a d6 and add it, or hold (pass the turn). First to 10 wins.
/// The GM may set a score.
struct Race;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
struct St {
    scores: [u8; 2],
    turn: u8,
    winner: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Cmd {
    Roll,
    Hold,
    SetScore(u8, u8),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Ev {
    Rolled(u8, u16),
    Passed(u8),
    Score(u8, u8),
    Won(u8),
}

/// The toy's decision: its kind and the combatant it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Asked {
    kind: &'static str,
    actor: Option<u16>,
}

impl fray_engine::Stage for Asked {
    fn kind(&self) -> &'static str {
        self.kind
    }
    fn actor(&self) -> Option<u16> {
        self.actor
    }
}

impl Ruleset for Race {
    const ID: &'static str = "race";
    const VERSION: &'static str = "1";
    type Options = u8; // the target score minus 10
    type Setup = ();
    type State = St;
    type Command = Cmd;
    type Event = Ev;
    type Checked = ();
    type Stage = Asked;

    fn new_state(_: &(), _: &u8) -> Result<St, EngineError> {
        Ok(St::default())
    }
    fn start(_: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        Ok(())
    }
    fn pending(s: &St) -> Option<Pending<Asked>> {
        s.winner.is_none().then(|| {
            Pending::one(
                Seat(s.turn + 1),
                Asked {
                    kind: "turn",
                    actor: None,
                },
            )
        })
    }
    fn is_ruling(c: &Cmd) -> bool {
        matches!(c, Cmd::SetScore(..))
    }
    fn legal(_: &St, _: &Asked, _: Seat, out: &mut Vec<fray_engine::Answer<Self>>) {
        out.push(fray_engine::Answer::new(Cmd::Roll, ()));
        out.push(fray_engine::Answer::new(Cmd::Hold, ()));
    }
    fn check(_: &St, _: &Asked, _: Seat, c: &Cmd) -> Result<(), Reject> {
        match c {
            Cmd::SetScore(p, _) if *p > 1 => Err(Reject::new("no-such-player", "players are 0 and 1")),
            _ => Ok(()),
        }
    }
    fn resolve(cx: &mut Cx<'_, Self>, _: &Asked, _: Seat, c: &Cmd, (): ()) -> Result<(), EngineError> {
        race_resolve(cx, c)
    }
    fn apply(s: &mut St, e: &Ev) {
        match e {
            Ev::Rolled(p, f) => {
                s.scores[*p as usize] += *f as u8;
                s.turn = 1 - s.turn;
            }
            Ev::Passed(_) => s.turn = 1 - s.turn,
            Ev::Score(p, v) => s.scores[*p as usize] = *v,
            Ev::Won(p) => s.winner = Some(*p),
        }
    }
    fn outcome(s: &St) -> Option<Outcome> {
        s.winner.map(|w| Outcome {
            winner: Some(w),
            reason: "reached 10".into(),
        })
    }
    type View<'a> = &'a St;
    fn view(s: &St, _: Seat) -> &St {
        s
    }
}

fn scripted(faces: &[u16]) -> Box<dyn Dice> {
    Box::new(ScriptedDice::new(faces.iter().copied()))
}

#[test]
fn authority_is_checked_before_the_rules() {
    let mut g = Game::<Race>::new_seeded((), 0, 7).unwrap();
    // Player 2's seat cannot answer player 1's decision.
    match g.submit(Seat(2), Cmd::Roll) {
        Err(SubmitError::Rejected(r)) => assert_eq!(r.code, Reject::NOT_YOUR_DECISION),
        other => panic!("{other:?}"),
    }
    // Only the GM makes rulings, at any time.
    match g.submit(Seat(1), Cmd::SetScore(0, 9)) {
        Err(SubmitError::Rejected(r)) => assert_eq!(r.code, Reject::GM_ONLY),
        other => panic!("{other:?}"),
    }
    g.submit(Seat::GM, Cmd::SetScore(0, 9)).unwrap();
    assert_eq!(g.state().scores[0], 9);
}

#[test]
fn a_rejected_command_changes_nothing_and_records_nothing() {
    let mut g = Game::<Race>::new_seeded((), 0, 7).unwrap();
    let before = g.state().clone();
    assert!(g.submit(Seat::GM, Cmd::SetScore(5, 1)).is_err());
    assert_eq!(g.state(), &before);
    assert!(g.record().entries.is_empty());
}

#[test]
fn a_finished_game_takes_nothing() {
    let mut g = Game::<Race>::new_with_dice((), 0, scripted(&[6, 1, 6])).unwrap();
    g.submit(Seat::GM, Cmd::SetScore(0, 8)).unwrap();
    g.submit(Seat(1), Cmd::Roll).unwrap();
    assert!(g.outcome().is_some());
    match g.submit(Seat(2), Cmd::Roll) {
        Err(SubmitError::Rejected(r)) => assert_eq!(r.code, Reject::GAME_OVER),
        other => panic!("{other:?}"),
    }
}

#[test]
fn dice_that_run_out_leave_the_state_as_it_was() {
    let mut g = Game::<Race>::new_with_dice((), 0, scripted(&[2])).unwrap();
    g.submit(Seat(1), Cmd::Roll).unwrap();
    let before = g.state().clone();
    match g.submit(Seat(2), Cmd::Roll) {
        Err(SubmitError::Engine(EngineError::Dice(_))) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(g.state(), &before);
    assert_eq!(g.record().entries.len(), 1);
}

#[test]
fn records_replay_bit_for_bit_seeded_and_typed() {
    let mut g = Game::<Race>::new_seeded((), 0, 99).unwrap();
    for i in 0..6 {
        g.submit(Seat(1 + (i % 2)), if i % 3 == 0 { Cmd::Hold } else { Cmd::Roll })
            .unwrap();
    }
    let json = g.record().to_json();
    let back: Record<Race> = Record::from_json(&json).unwrap();
    let r = Game::<Race>::replay(&back).unwrap();
    assert_eq!(r.state(), g.state());

    let mut t = Game::<Race>::new_with_dice((), 0, scripted(&[3, 4])).unwrap();
    t.submit(Seat(1), Cmd::Roll).unwrap();
    t.submit(Seat(2), Cmd::Roll).unwrap();
    assert_eq!(t.record().seed, None);
    assert_eq!(t.record().entries[1].dice, vec![4]);
    let r = Game::<Race>::replay(t.record()).unwrap();
    assert_eq!(r.state().scores, [3, 4]);
}

#[test]
fn a_tampered_record_is_an_error_not_a_warning() {
    let mut g = Game::<Race>::new_with_dice((), 0, scripted(&[3, 4])).unwrap();
    g.submit(Seat(1), Cmd::Roll).unwrap();
    g.submit(Seat(2), Cmd::Roll).unwrap();
    let mut bad = g.record().clone();
    bad.entries[1].events[0] = Ev::Rolled(1, 5);
    match Game::<Race>::replay(&bad) {
        Err(EngineError::Diverged { at, .. }) => assert_eq!(at, "command 2"),
        other => panic!("{:?}", other.map(|g| g.state().clone())),
    }
    let mut bad = g.record().clone();
    bad.entries[0].dice = vec![];
    assert!(matches!(Game::<Race>::replay(&bad), Err(EngineError::Diverged { .. })));
    let mut bad = g.record().clone();
    bad.version = "0".into();
    assert!(matches!(Game::<Race>::replay(&bad), Err(EngineError::Invalid(_))));
}

#[test]
fn undo_rebuilds_from_the_record_and_continues_the_same_dice_stream() {
    let mut g = Game::<Race>::new_seeded((), 0, 5).unwrap();
    g.submit(Seat(1), Cmd::Roll).unwrap();
    let after_one = g.state().clone();
    g.submit(Seat(2), Cmd::Roll).unwrap();
    let after_two = g.state().clone();
    assert!(g.undo().unwrap());
    assert_eq!(g.state(), &after_one);
    // The same command draws the same die again: undo is not a reroll.
    g.submit(Seat(2), Cmd::Roll).unwrap();
    assert_eq!(g.state(), &after_two);
    assert!(g.undo().unwrap());
    assert!(g.undo().unwrap());
    assert!(!g.undo().unwrap());
}

#[test]
fn the_conformance_suite_passes_on_the_toy() {
    let report = run::<Race>(
        &(),
        &0,
        &Config {
            seeds: 0..50,
            ..Config::default()
        },
        |_| Box::new(RandomLegal::<Race>::new()) as Box<dyn Policy<Race>>,
    )
    .unwrap();
    assert_eq!(report.playouts, 50);
    assert!(report.legal_checked > 0 && report.legal_resolved > 0);
}

/// The race, but its enumeration also lists a command its own check refuses.
struct Liar;

impl Ruleset for Liar {
    const ID: &'static str = "liar";
    const VERSION: &'static str = "1";
    type Options = u8;
    type Setup = ();
    type State = St;
    type Command = Cmd;
    type Event = Ev;
    type Checked = ();
    type Stage = Asked;
    fn new_state(a: &(), b: &u8) -> Result<St, EngineError> {
        Race::new_state(a, b)
    }
    fn start(_: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        Ok(())
    }
    fn pending(s: &St) -> Option<Pending<Asked>> {
        Race::pending(s)
    }
    fn is_ruling(_: &Cmd) -> bool {
        false
    }
    fn legal(s: &St, _: &Asked, _: Seat, out: &mut Vec<fray_engine::Answer<Self>>) {
        let mut inner = Vec::new();
        Race::legal(
            s,
            &Asked {
                kind: "turn",
                actor: None,
            },
            Seat(1),
            &mut inner,
        );
        out.extend(inner.into_iter().map(|a| fray_engine::Answer::new(a.command, ())));
        out.push(fray_engine::Answer::new(Cmd::SetScore(7, 0), ()));
    }
    fn check(s: &St, _: &Asked, _: Seat, c: &Cmd) -> Result<(), Reject> {
        Race::check(
            s,
            &Asked {
                kind: "turn",
                actor: None,
            },
            Seat(1),
            c,
        )
    }
    fn resolve(cx: &mut Cx<'_, Self>, _: &Asked, _: Seat, c: &Cmd, (): ()) -> Result<(), EngineError> {
        race_resolve(cx, c)
    }
    fn apply(s: &mut St, e: &Ev) {
        Race::apply(s, e)
    }
    fn outcome(s: &St) -> Option<Outcome> {
        Race::outcome(s)
    }
    type View<'a> = &'a St;
    fn view(s: &St, _: Seat) -> &St {
        s
    }
}

#[test]
fn the_conformance_suite_catches_an_enumeration_listing_an_illegal_command() {
    let failure = run::<Liar>(
        &(),
        &0,
        &Config {
            seeds: 0..3,
            ..Config::default()
        },
        |_| Box::new(RandomLegal::<Liar>::new()) as Box<dyn Policy<Liar>>,
    )
    .unwrap_err();
    assert!(failure.what.contains("was rejected"), "{failure}");
}

/// The race's resolution, for the race and the variants below that share its state and events.
fn race_resolve<R: Ruleset<State = St, Event = Ev>>(cx: &mut Cx<'_, R>, c: &Cmd) -> Result<(), EngineError> {
    match c {
        Cmd::Roll => {
            let r = fray_dice::roll(cx.dice, 1, 6, fray_dice::Keep::All, &"a race roll")?;
            let p = cx.s.turn;
            cx.emit(Ev::Rolled(p, r.faces.as_slice()[0]));
            if cx.s.scores[p as usize] >= 10 {
                cx.emit(Ev::Won(p));
            }
        }
        Cmd::Hold => {
            let p = cx.s.turn;
            cx.emit(Ev::Passed(p));
        }
        Cmd::SetScore(p, v) => cx.emit(Ev::Score(*p, *v)),
    }
    Ok(())
}

/// The race with an opening roll per player at the start, like initiative.
struct Opening;

impl Ruleset for Opening {
    const ID: &'static str = "opening";
    const VERSION: &'static str = "1";
    type Options = u8;
    type Setup = ();
    type State = St;
    type Command = Cmd;
    type Event = Ev;
    type Checked = ();
    type Stage = Asked;
    fn new_state(a: &(), b: &u8) -> Result<St, EngineError> {
        Race::new_state(a, b)
    }
    fn start(cx: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        for p in 0..2u8 {
            let r = fray_dice::roll(cx.dice, 1, 6, fray_dice::Keep::All, &"an opening roll")?;
            cx.emit(Ev::Score(p, r.faces.as_slice()[0] as u8));
        }
        Ok(())
    }
    fn pending(s: &St) -> Option<Pending<Asked>> {
        Race::pending(s)
    }
    fn is_ruling(c: &Cmd) -> bool {
        Race::is_ruling(c)
    }
    fn legal(s: &St, _: &Asked, _: Seat, out: &mut Vec<fray_engine::Answer<Self>>) {
        let mut inner = Vec::new();
        Race::legal(
            s,
            &Asked {
                kind: "turn",
                actor: None,
            },
            Seat(1),
            &mut inner,
        );
        out.extend(inner.into_iter().map(|a| fray_engine::Answer::new(a.command, ())));
    }
    fn check(s: &St, _: &Asked, _: Seat, c: &Cmd) -> Result<(), Reject> {
        Race::check(
            s,
            &Asked {
                kind: "turn",
                actor: None,
            },
            Seat(1),
            c,
        )
    }
    fn resolve(cx: &mut Cx<'_, Self>, _: &Asked, _: Seat, c: &Cmd, (): ()) -> Result<(), EngineError> {
        race_resolve(cx, c)
    }
    fn apply(s: &mut St, e: &Ev) {
        Race::apply(s, e)
    }
    fn outcome(s: &St) -> Option<Outcome> {
        Race::outcome(s)
    }
    type View<'a> = &'a St;
    fn view(s: &St, _: Seat) -> &St {
        s
    }
}

#[test]
fn a_start_that_runs_out_of_dice_keeps_an_unfinished_record_that_replay_refuses() {
    let Err(failed) = Game::<Opening>::new_with_dice_or_record((), 3, scripted(&[4])) else {
        panic!("the start should have run out of dice");
    };
    assert!(matches!(failed.error, EngineError::Dice(_)), "{:?}", failed.error);
    let rec = &failed.record;
    assert!(rec.start.unfinished);
    assert_eq!(rec.start.dice, vec![4]);
    assert_eq!(rec.start.events, vec![Ev::Score(0, 4)]);
    assert_eq!((rec.options, rec.seed, rec.entries.len()), (3, None, 0));
    // The flag survives JSON, and replay refuses the record with what is missing.
    let back = Record::<Opening>::from_json(&rec.to_json()).unwrap();
    assert!(back.start.unfinished);
    match Game::replay(&back) {
        Err(EngineError::Invalid(m)) => {
            assert_eq!(m, "the record stops during the start: 1 face typed, more needed")
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("an unfinished record replayed"),
    }
    // The older constructor gives the plain error; a start that finishes writes no flag.
    assert!(matches!(
        Game::<Opening>::new_with_dice((), 0, scripted(&[])),
        Err(EngineError::Dice(_))
    ));
    let Ok(g) = Game::<Opening>::new_with_dice_or_record((), 0, scripted(&[4, 5])) else {
        panic!("the start had its dice");
    };
    assert!(!g.record().start.unfinished);
    assert!(!g.record().to_json().contains("unfinished"));
    assert_eq!(g.state().scores, [4, 5]);
    Game::replay(g.record()).unwrap();
}

#[test]
fn every_record_carries_its_layout_format_and_other_formats_are_refused() {
    let mut g = Game::<Race>::new_with_dice((), 0, scripted(&[3, 4])).unwrap();
    g.submit(Seat(1), Cmd::Roll).unwrap();
    let json = g.record().to_json();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["format"], serde_json::json!(fray_engine::RECORD_FORMAT));
    // A record from before the field existed has format 1's layout and still replays.
    let mut old = v.clone();
    old.as_object_mut().unwrap().remove("format");
    let back: Record<Race> = Record::from_json(&old.to_string()).unwrap();
    assert_eq!(back.format, 1);
    assert!(Game::<Race>::replay(&back).is_ok());
    // A record from a newer fray is refused with a reason, not misread.
    let mut newer = g.record().clone();
    newer.format = fray_engine::RECORD_FORMAT + 1;
    match Game::<Race>::replay(&newer) {
        Err(EngineError::Invalid(m)) => assert!(m.contains("newer fray"), "{m}"),
        other => panic!("{:?}", other.map(|g| g.state().clone())),
    }
}

/// Cards without replacement (like Einfelst's initiative deck): at the start each player draws a
/// card from 1..=10; then, in turn, a player draws one more, or draws two, keeps the higher and
/// puts the other back (EIN-H25's shape). The deck lives in the state and changes only in
/// `apply`. Whoever holds the 10 when the deck is empty wins.
struct Cards;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct CardSt {
    deck: fray_dice::Deck,
    held: [Vec<u16>; 2],
    turn: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum CardCmd {
    Draw,
    DrawTwoKeepOne,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum CardEv {
    Drew(u8, u16),
    PutBack(u8, u16),
    Turn(u8),
}

impl Cards {
    fn draw(cx: &mut Cx<'_, Self>, p: u8) -> Result<u16, EngineError> {
        let card = cx.dice.draw(cx.s.deck.cards(), &format_args!("player {p}'s card"))?;
        cx.emit(CardEv::Drew(p, card));
        Ok(card)
    }
}

impl Ruleset for Cards {
    const ID: &'static str = "cards";
    const VERSION: &'static str = "1";
    type Options = u8;
    type Setup = ();
    type State = CardSt;
    type Command = CardCmd;
    type Event = CardEv;
    type Checked = ();
    type Stage = Asked;

    fn new_state(_: &(), _: &u8) -> Result<CardSt, EngineError> {
        Ok(CardSt {
            deck: fray_dice::Deck::numbered(10),
            held: [Vec::new(), Vec::new()],
            turn: 0,
        })
    }
    fn start(cx: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        for p in 0..2 {
            Self::draw(cx, p)?;
        }
        Ok(())
    }
    fn pending(s: &CardSt) -> Option<Pending<Asked>> {
        (!s.deck.is_empty()).then(|| {
            Pending::one(
                Seat(s.turn + 1),
                Asked {
                    kind: "turn",
                    actor: None,
                },
            )
        })
    }
    fn is_ruling(_: &CardCmd) -> bool {
        false
    }
    fn legal(s: &CardSt, _: &Asked, _: Seat, out: &mut Vec<fray_engine::Answer<Self>>) {
        out.push(fray_engine::Answer::new(CardCmd::Draw, ()));
        if s.deck.len() >= 2 {
            out.push(fray_engine::Answer::new(CardCmd::DrawTwoKeepOne, ()));
        }
    }
    fn check(s: &CardSt, _: &Asked, _: Seat, c: &CardCmd) -> Result<(), Reject> {
        match c {
            CardCmd::DrawTwoKeepOne if s.deck.len() < 2 => Err(Reject::new("one-card-left", "only one card is left")),
            _ => Ok(()),
        }
    }
    fn resolve(cx: &mut Cx<'_, Self>, _: &Asked, _: Seat, c: &CardCmd, (): ()) -> Result<(), EngineError> {
        let p = cx.s.turn;
        let first = Self::draw(cx, p)?;
        if *c == CardCmd::DrawTwoKeepOne {
            let second = Self::draw(cx, p)?;
            cx.emit(CardEv::PutBack(p, first.min(second)));
        }
        cx.emit(CardEv::Turn(1 - p));
        Ok(())
    }
    fn apply(s: &mut CardSt, e: &CardEv) {
        match *e {
            CardEv::Drew(p, card) => {
                s.deck.remove(card);
                s.held[usize::from(p)].push(card);
            }
            CardEv::PutBack(p, card) => {
                let held = &mut s.held[usize::from(p)];
                if let Some(i) = held.iter().position(|&c| c == card) {
                    held.remove(i);
                    s.deck.put_back(card);
                }
            }
            CardEv::Turn(p) => s.turn = p,
        }
    }
    fn outcome(s: &CardSt) -> Option<Outcome> {
        s.deck.is_empty().then(|| Outcome {
            winner: s.held.iter().position(|h| h.contains(&10)).map(|p| p as u8),
            reason: "holds the 10".into(),
        })
    }
    type View<'a> = &'a CardSt;
    fn view(s: &CardSt, _: Seat) -> &CardSt {
        s
    }
}

#[test]
fn cards_drawn_without_replacement_are_recorded_by_value_and_replay() {
    for seed in 0..20 {
        let mut g = Game::<Cards>::new_seeded((), 0, seed).unwrap();
        let mut i = 0;
        while g.outcome().is_none() {
            let seat = Seat(g.state().turn + 1);
            let cmd = if i % 3 == 1 && g.state().deck.len() >= 2 {
                CardCmd::DrawTwoKeepOne
            } else {
                CardCmd::Draw
            };
            g.submit(seat, cmd).unwrap();
            i += 1;
        }
        // Every card ended in a hand exactly once.
        let mut all: Vec<u16> = g.state().held.concat();
        all.sort_unstable();
        assert_eq!(all, (1..=10).collect::<Vec<_>>(), "seed {seed}");
        // The record keeps the values drawn, in the order the events show them.
        let rec = g.record();
        let drawn_in_events = |events: &[CardEv]| -> Vec<u16> {
            events
                .iter()
                .filter_map(|e| match e {
                    CardEv::Drew(_, c) => Some(*c),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(rec.start.dice, drawn_in_events(&rec.start.events));
        for entry in &rec.entries {
            assert_eq!(entry.dice, drawn_in_events(&entry.events));
        }
        let back = Record::<Cards>::from_json(&rec.to_json()).unwrap();
        assert_eq!(Game::replay(&back).unwrap().state(), g.state());
        // The same values typed in (no seed) replay the same way.
        let mut typed = rec.clone();
        typed.seed = None;
        assert_eq!(Game::replay(&typed).unwrap().state(), g.state());
    }
}

#[test]
fn typed_cards_must_be_in_the_deck_and_a_record_with_a_drawn_card_diverges() {
    let mut g = Game::<Cards>::new_with_dice((), 0, scripted(&[7, 3, 9, 2])).unwrap();
    assert_eq!(g.state().held, [vec![7], vec![3]]);
    g.submit(Seat(1), CardCmd::DrawTwoKeepOne).unwrap();
    assert_eq!(g.state().held[0], [7, 9]);
    assert!(g.state().deck.contains(2), "the lower card went back");
    assert_eq!(g.record().entries[0].dice, [9, 2]);
    Game::replay(g.record()).unwrap();
    // The 7 is in player 1's hand: typing it again is refused and nothing changes.
    g.set_dice(scripted(&[7]));
    let before = g.state().clone();
    match g.submit(Seat(2), CardCmd::Draw) {
        Err(SubmitError::Engine(EngineError::Dice(e))) => {
            assert_eq!(
                e.to_string(),
                "card 7 is not in the deck (in the deck: 1 2 4 5 6 8 10) (for player 1's card)"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(g.state(), &before);
    // A record edited to draw the 7 twice does not replay.
    let mut bad = g.record().clone();
    bad.entries[0].dice = vec![7, 2];
    match Game::replay(&bad) {
        Err(EngineError::Diverged { at, what }) => {
            assert_eq!(at, "command 1");
            assert!(what.contains("card 7 is not in the deck"), "{what}");
        }
        other => panic!("{:?}", other.map(|g| g.state().clone())),
    }
}

#[test]
fn the_conformance_suite_passes_on_the_card_toy() {
    let report = run::<Cards>(
        &(),
        &0,
        &Config {
            seeds: 0..30,
            ..Config::default()
        },
        |_| Box::new(RandomLegal::<Cards>::new()) as Box<dyn Policy<Cards>>,
    )
    .unwrap();
    assert_eq!(report.playouts, 30);
}

/// The race played in strict turns (player 1 may only roll, player 2 only hold), whose check
/// leaves a mark in the state (through an atomic) whenever it refuses a command: a rejected
/// command that changes the state, which the conformance suite must catch and name.
struct Meddler;

#[derive(Debug, Serialize, Deserialize, Default)]
struct Marked {
    race: St,
    refusals: AtomicU8,
}

impl Clone for Marked {
    fn clone(&self) -> Self {
        let refusals = AtomicU8::new(self.refusals.load(Ordering::Relaxed));
        Marked {
            race: self.race.clone(),
            refusals,
        }
    }
}

impl PartialEq for Marked {
    fn eq(&self, other: &Self) -> bool {
        self.race == other.race && self.refusals.load(Ordering::Relaxed) == other.refusals.load(Ordering::Relaxed)
    }
}

impl Ruleset for Meddler {
    const ID: &'static str = "meddler";
    const VERSION: &'static str = "1";
    type Options = u8;
    type Setup = ();
    type State = Marked;
    type Command = Cmd;
    type Event = Ev;
    type Checked = ();
    type Stage = Asked;
    fn new_state(_: &(), _: &u8) -> Result<Marked, EngineError> {
        Ok(Marked::default())
    }
    fn start(_: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        Ok(())
    }
    fn pending(s: &Marked) -> Option<Pending<Asked>> {
        Race::pending(&s.race)
    }
    fn is_ruling(c: &Cmd) -> bool {
        Race::is_ruling(c)
    }
    fn legal(s: &Marked, _: &Asked, _: Seat, out: &mut Vec<fray_engine::Answer<Self>>) {
        let only = if s.race.turn == 0 { Cmd::Roll } else { Cmd::Hold };
        out.push(fray_engine::Answer::new(only, ()));
    }
    fn check(s: &Marked, _: &Asked, _: Seat, c: &Cmd) -> Result<(), Reject> {
        match (s.race.turn, c) {
            (0, Cmd::Roll) | (1, Cmd::Hold) => Ok(()),
            _ => {
                s.refusals.fetch_add(1, Ordering::Relaxed);
                Err(Reject::new("not-now", "not this player's move"))
            }
        }
    }
    fn resolve(cx: &mut Cx<'_, Self>, _: &Asked, _: Seat, c: &Cmd, (): ()) -> Result<(), EngineError> {
        let p = cx.s.race.turn;
        match c {
            Cmd::Roll => {
                let r = fray_dice::roll(cx.dice, 1, 6, fray_dice::Keep::All, &"a race roll")?;
                cx.emit(Ev::Rolled(p, r.faces.as_slice()[0]));
                if cx.s.race.scores[p as usize] >= 10 {
                    cx.emit(Ev::Won(p));
                }
            }
            Cmd::Hold => cx.emit(Ev::Passed(p)),
            Cmd::SetScore(who, v) => cx.emit(Ev::Score(*who, *v)),
        }
        Ok(())
    }
    fn apply(s: &mut Marked, e: &Ev) {
        Race::apply(&mut s.race, e)
    }
    fn outcome(s: &Marked) -> Option<Outcome> {
        Race::outcome(&s.race)
    }
    type View<'a> = &'a Marked;
    fn view(s: &Marked, _: Seat) -> &Marked {
        s
    }
}

#[test]
fn the_conformance_suite_names_a_rejected_command_that_changed_the_state() {
    let failure = run::<Meddler>(
        &(),
        &0,
        &Config {
            seeds: 0..3,
            ..Config::default()
        },
        |_| Box::new(RandomLegal::<Meddler>::new()) as Box<dyn Policy<Meddler>>,
    )
    .unwrap_err();
    assert!(
        failure.what.starts_with("rejected command ") && failure.what.ends_with("changed the state"),
        "{failure}"
    );
}

#[test]
fn the_shares_of_a_plans_seeds_hold_every_seed_once_in_order() {
    use fray_engine::conformance::Share;
    for n in [0u64, 1, 7, 100, 1000, 1001] {
        for of in 1..=12u64 {
            let seeds: Vec<u64> = (0..of).flat_map(|index| Share { index, of }.of_seeds(n)).collect();
            assert_eq!(seeds, (0..n).collect::<Vec<_>>(), "{n} seeds in {of} shares");
        }
    }
    assert_eq!(Share::ALL.of_seeds(40), 0..40);
}

/// A player of the race who always holds: with both seats so played the race never ends.
struct AlwaysHold;

impl Policy<Race> for AlwaysHold {
    fn choose(
        &mut self,
        decision: &fray_engine::Decision<'_, Race>,
        _: &mut fray_dice::Prng,
    ) -> Option<fray_engine::Answer<Race>> {
        decision.answer(Cmd::Hold).ok()
    }
    fn name(&self) -> &str {
        "always-hold"
    }
}

#[test]
fn a_combat_that_never_ends_stops_at_the_engines_decision_limit_and_says_so() {
    use fray_engine::play::{DECISION_LIMIT, Everyone, PlayError, Sink, play};
    let mut state = St::default();
    let mut dice = ScriptedDice::new(std::iter::empty());
    let mut rng = fray_dice::Prng::from_seed(1);
    let mut hold = AlwaysHold;
    let played = play::<Race>(
        &mut state,
        &mut dice,
        &mut rng,
        &mut Everyone(&mut hold),
        |_| false,
        &mut Sink::Discard,
    );
    match played {
        Err(e @ PlayError::Endless(n)) => {
            assert_eq!(n, DECISION_LIMIT);
            assert_eq!(
                e.to_string(),
                format!("the combat did not end within {DECISION_LIMIT} decisions")
            );
        }
        other => panic!("the endless race was not stopped: {:?}", other.map(|_| ())),
    }
    assert_eq!(state.winner, None, "nobody won by holding");
}
