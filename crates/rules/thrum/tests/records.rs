//! A record is untrusted input (issue 9): records of seeded games on every shipped example,
//! edited one number at a time (every index, count, stat and square of the embedded setup,
//! options and commands), must load, replay and show their state without a panic. Bad edits are
//! errors; most edits are.

use fray_dice::Prng;
use fray_engine::conformance::edited_records_never_panic;
use fray_engine::text::TextRuleset;
use fray_engine::{Game, Ruleset, choose_first};
use fray_thrum::Thrum;

mod examples;
use examples::load;

/// The record of a seeded game on `name` after at most `commands` commands of the built-in AI.
fn record(name: &str, seed: u64, commands: usize) -> String {
    let (setup, options) = load(name);
    let mut game = Game::<Thrum>::new_seeded(setup, options, seed).expect("the example starts");
    let mut ai = Thrum::heuristic();
    let mut rng = Prng::for_stream(seed, 1);
    for _ in 0..commands {
        let Some((seat, c)) = choose_first(&mut *ai, game.state(), &mut rng) else {
            break;
        };
        game.submit(seat, c).expect("the AI's command is accepted");
    }
    game.record().to_json()
}

fn edits(name: &str, commands: usize, max_edits: usize) {
    let json = record(name, 7, commands);
    // The unedited record replays.
    let r = fray_engine::Record::<Thrum>::from_json(&json).expect("record reads back");
    Game::<Thrum>::replay(&r).expect("the unedited record replays");
    let tried = edited_records_never_panic::<Thrum>(&json, max_edits).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(tried >= max_edits / 2, "{name}: only {tried} edits tried");
}

#[test]
fn edited_duel_records_never_panic() {
    edits("duel.toml", 40, 800);
}

#[test]
fn edited_skirmish_records_never_panic() {
    edits("skirmish.toml", 40, 800);
}

#[test]
fn edited_last_stand_records_never_panic() {
    edits("last-stand.toml", 40, 800);
}

#[test]
fn edited_ruins_records_never_panic() {
    edits("ruins.toml", 40, 800);
}

#[test]
fn edited_bench_records_never_panic() {
    edits("bench-4v4.toml", 30, 600);
}

#[test]
fn new_state_refuses_a_setup_with_a_bad_index() {
    let (mut setup, options) = load("duel.toml");
    setup.chars[0].side = 200;
    match Thrum::new_state(&setup, &options) {
        Err(fray_engine::EngineError::Invalid(m)) => assert!(m.contains("side"), "{m}"),
        other => panic!("expected Invalid, got {:?}", other.map(|_| ())),
    }
}
