//! Records written before a change still replay. `crates/cli/tests/fixtures/records/
//! skeleton-duel-seed-7.json` is `fray run examples/skeleton/duel.toml --seed 7 --record ...`
//! by a build from before combatants could name seats of their own: its setup has no `seat`
//! for any combatant, and each one's seat is its side's.

use fray_dice::Prng;
use fray_engine::text::TextRuleset;
use fray_engine::{Game, Record, choose_first};
use fray_skeleton::Skeleton;

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../cli/tests/fixtures/records")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fight `fray run` plays: the built-in AI on every seat, its choices drawn from stream 1
/// of the seed.
fn run(seed: u64) -> Game<Skeleton> {
    let e = fray_testkit::example::<Skeleton>("duel.toml");
    let mut game = Game::<Skeleton>::new_seeded(e.setup, e.options, seed).expect("starts");
    let (mut ai, mut rng) = (Skeleton::heuristic(), Prng::for_stream(seed, 1));
    while let Some((seat, c)) = choose_first(&mut *ai, game.state(), &mut rng) {
        game.submit(seat, c).expect("the AI's command is accepted");
    }
    game
}

#[test]
fn a_record_from_before_seats_of_their_own_replays_and_is_the_fight_played_now() {
    let text = fixture("skeleton-duel-seed-7.json");
    let raw: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let combatants = raw["setup"]["combatants"].as_array().expect("combatants");
    assert!(
        combatants.iter().all(|c| c.get("seat").is_none()),
        "the fixture names no combatant's seat"
    );
    let old = Record::<Skeleton>::from_json(&text).expect("the old record reads");
    let game = Game::<Skeleton>::replay(&old).expect("the old record replays");
    let s = game.state();
    for c in s.ids() {
        let side = &s.setup.sides[s.ch(c).side as usize];
        assert_eq!(s.seat_of(c), side.seat, "{}'s seat is its side's", s.ch(c).id);
    }
    // Played afresh now, the same fight gives the same record, byte for byte.
    assert_eq!(run(7).record().to_json(), text.trim_end());
}
