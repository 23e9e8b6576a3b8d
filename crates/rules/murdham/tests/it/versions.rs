//! Records of Murdham rules version 0.1.0 still replay on 0.2.0. 0.2.0 plays the rules file's
//! readings where 0.1.0 played fray's own; each of those changes is an option, and a 0.1.0
//! record is replayed with the options set to the readings it was played by
//! (`Ruleset::earlier_options`). It then comes out as a 0.2.0 record of the same fight.
//!
//! Two 0.1.0 records are kept in `crates/cli/tests/fixtures/records/`:
//!
//! - `murdham-mill-ambush-seed-7-v0.1.0.json`: `fray run examples/murdham/mill-ambush.toml
//!   --seed 7 --record ...` by the 0.1.0 build, the built-in AI on every seat;
//! - `murdham-what-changed-v0.1.0.json`: a short fight played with `fray play
//!   tests/fixtures/what-changed.toml --dice 2,5,4,3,1,5,3,15,2,2,2,2,2,2 --record ...` by the
//!   0.1.0 build, typing `act cy`, `attack dee`, `end`, `act ash`, `attack eve with shell`,
//!   `take`, `end`, `pass`, `act fay`, `attack gil`, `decline`, `decline`, `counter`, `gm heal
//!   gil 1`, `end`, `pass`, `act cy`, `attack bo`, `decline`, `hide-behind dee`, `decline`,
//!   `attack b with flash-powder`, `take`, `end`, `gm end pcs`: it goes through each thing
//!   0.2.0 plays differently.

use fray_dice::Prng;
use fray_engine::{EngineError, Game, Record, Ruleset, choose_first};
use fray_murdham::Murdham;
use fray_murdham::options::Options;
use fray_murdham::state::Event;

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../cli/tests/fixtures/records")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn record(name: &str) -> Record<Murdham> {
    Record::<Murdham>::from_json(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn all_events(r: &Record<Murdham>) -> impl Iterator<Item = &Event> {
    r.start
        .events
        .iter()
        .chain(r.entries.iter().flat_map(|e| e.events.iter()))
}

/// The events compared across versions: all but the bookkeeping.
fn kept(r: &Record<Murdham>) -> Vec<Event> {
    all_events(r).filter(|e| !Murdham::is_bookkeeping(e)).cloned().collect()
}

/// The fight `fray run` plays on this setup with these options and seed: the built-in AI on
/// every seat, its choices drawn from stream 1 of the seed.
fn run(setup: &fray_murdham::setup::Setup, options: &Options, seed: u64) -> Game<Murdham> {
    use fray_engine::text::TextRuleset;
    let mut game = Game::<Murdham>::new_seeded(setup.clone(), options.clone(), seed).expect("starts");
    let (mut ai, mut rng) = (Murdham::heuristic(), Prng::for_stream(seed, 1));
    while let Some((seat, c)) = choose_first(&mut *ai, game.state(), &mut rng) {
        game.submit(seat, c).expect("the AI's command is accepted");
    }
    game
}

/// Fails with the first line where two records' JSON differ.
fn same_json(a: &str, b: &str, what: &str) {
    if let Some((n, (x, y))) = a.lines().zip(b.lines()).enumerate().find(|(_, (x, y))| x != y) {
        panic!("{what}: line {} differs: {x:?} / {y:?}", n + 1);
    }
    assert_eq!(a.lines().count(), b.lines().count(), "{what}: one record is longer");
}

/// A 0.1.0 record's options as 0.2.0 replays them.
fn as_0_1_0_played(r: &Record<Murdham>) -> Options {
    let mut o = r.options.clone();
    Murdham::earlier_options("0.1.0", &mut o);
    o
}

#[test]
fn a_0_1_0_record_replays_and_becomes_the_0_2_0_record_of_the_same_fight() {
    let old = record("murdham-mill-ambush-seed-7-v0.1.0.json");
    assert_eq!(old.version, "0.1.0");
    let game = Game::<Murdham>::replay(&old).expect("0.1.0 records replay");
    let now = game.record();
    assert_eq!(now.version, Murdham::VERSION);
    assert_eq!(now.options, as_0_1_0_played(&old), "the readings 0.1.0 played by stay");
    // The same fight played by 0.2.0 itself with those readings.
    let fresh = run(&old.setup, &now.options, 7);
    same_json(&now.to_json(), &fresh.record().to_json(), "replayed / played afresh");
    // Every event but the bookkeeping is the one 0.1.0 recorded, in the same order.
    assert_eq!(kept(&old), kept(now));
}

#[test]
fn the_stored_0_2_0_record_is_the_fight_0_2_0_plays_by_default() {
    let now = record("murdham-mill-ambush-seed-7.json");
    assert_eq!(now.version, Murdham::VERSION);
    let e = fray_testkit::example::<Murdham>("mill-ambush.toml");
    assert_eq!(now.options, e.options);
    let fresh = run(&e.setup, &e.options, 7);
    assert_eq!(
        fresh.record().to_json(),
        fixture("murdham-mill-ambush-seed-7.json").trim_end()
    );
}

#[test]
fn a_0_1_0_record_of_each_change_replays_with_the_readings_it_was_played_by() {
    let old = record("murdham-what-changed-v0.1.0.json");
    let game = Game::<Murdham>::replay(&old).expect("the 0.1.0 record replays");
    assert_eq!(game.record().version, Murdham::VERSION);
    assert_eq!(kept(&old), kept(game.record()));
    assert!(game.outcome().is_some(), "the fight ends");
}

/// The record's commands played again with `options`, each drawing the faces its entry drew:
/// the events but the bookkeeping, or the command that went otherwise.
fn replayed_with(r: &Record<Murdham>, options: &Options) -> Result<Vec<Event>, String> {
    use fray_dice::ScriptedDice;
    let dice = Box::new(ScriptedDice::new(r.start.dice.clone()));
    let mut g = Game::<Murdham>::new_with_dice(r.setup.clone(), options.clone(), dice).map_err(|e| e.to_string())?;
    let mut events: Vec<Event> = g.record().start.events.clone();
    for (i, e) in r.entries.iter().enumerate() {
        g.set_dice(Box::new(ScriptedDice::new(e.dice.clone())));
        let out = g
            .submit(e.seat, e.command.clone())
            .map_err(|x| format!("command {}: {x:?}", i + 1))?;
        events.extend(out.iter().cloned());
    }
    Ok(events.into_iter().filter(|e| !Murdham::is_bookkeeping(e)).collect())
}

#[test]
fn each_reading_0_1_0_played_by_is_needed_to_play_its_record_of_what_changed_again() {
    let old = record("murdham-what-changed-v0.1.0.json");
    let then = as_0_1_0_played(&old);
    assert_eq!(replayed_with(&old, &then).as_ref(), Ok(&kept(&old)));
    // Each option at its 0.2.0 default plays some step of that fight otherwise.
    let now = Options::default();
    type Flip = fn(&mut Options, &Options);
    let flips: &[(&str, Flip)] = &[
        ("both-shields-used", |o, d| o.both_shields_used = d.both_shields_used),
        ("indirect-over-cover", |o, d| {
            o.indirect_over_cover = d.indirect_over_cover
        }),
        ("declined-hide-keeps-reaction", |o, d| {
            o.declined_hide_keeps_reaction = d.declined_hide_keeps_reaction
        }),
    ];
    for (name, flip) in flips {
        let mut o = then.clone();
        flip(&mut o, &now);
        assert_ne!(o, then, "{name} is a reading 0.1.0 played otherwise");
        assert_ne!(
            replayed_with(&old, &o).as_ref(),
            Ok(&kept(&old)),
            "{name} changes nothing"
        );
    }
}

#[test]
fn a_0_1_0_record_is_still_checked_event_by_event_outside_the_bookkeeping() {
    let old = record("murdham-mill-ambush-seed-7-v0.1.0.json");
    // Taking out one event that is not bookkeeping: the replay notices.
    fray_testkit::versions::a_missing_event_is_noticed(old, "damage dealt in the ambush", |ev| {
        matches!(ev, Event::Damaged { .. })
    });
}

#[test]
fn a_record_of_a_version_not_listed_is_refused_with_the_versions_that_replay() {
    let mut old = record("murdham-mill-ambush-seed-7-v0.1.0.json");
    old.version = "0.0.9".into();
    match Game::<Murdham>::replay(&old) {
        Err(EngineError::Invalid(m)) => assert_eq!(
            m,
            "the record was written by murdham rules version 0.0.9, this is version 0.2.0, which replays records of 0.1.0 too"
        ),
        other => panic!("a 0.0.9 record was not refused: {:?}", other.is_ok()),
    }
}

#[test]
fn records_from_before_seats_of_their_own_load_with_each_character_played_from_its_factions_seat() {
    for name in [
        "murdham-mill-ambush-seed-7.json",
        "murdham-mill-ambush-seed-7-v0.1.0.json",
    ] {
        let text = fixture(name);
        let raw: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let combatants = raw["setup"]["combatants"].as_array().expect("combatants");
        assert!(
            combatants.iter().all(|c| c.get("seat").is_none()),
            "{name} names no character's seat"
        );
        let game = Game::<Murdham>::replay(&record(name)).expect("replays");
        let s = game.state();
        for c in s.ids() {
            assert_eq!(
                s.seat_of(c),
                s.setup.sides[s.ch(c).side as usize].seat,
                "{name}: {}",
                s.ch(c).id
            );
        }
    }
}
