//! Seats per player, as every ruleset's table shows them: a seat that types while another is
//! asked is told, by name, who is asked and what about.

use fray_engine::Reject;
use fray_engine::Seat;
use fray_engine::SubmitError;
use fray_engine::diag::SourceFile;
use fray_engine::text::{AnyGame, NewDice};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn start(example: &str) -> Box<dyn AnyGame> {
    let path = root().join("examples").join(example);
    let src = SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("readable"),
    };
    let mut read = |name: &str| -> Result<SourceFile, String> { Err(format!("no {name}")) };
    let entry = fray_rulesets::for_encounter(&src).expect("a known ruleset");
    entry
        .new_game(&src, &mut read, NewDice::Seeded(3))
        .unwrap_or_else(|e| panic!("{example}: {e}"))
}

#[test]
fn a_seat_that_is_not_asked_is_told_by_name_who_is() {
    for example in ["murdham/chapel-road.toml", "einfelst/barrow.toml"] {
        let mut game = start(example);
        let names = game.seat_names();
        assert!(names.len() > 3, "{example}: a seat per player: {names:?}");
        let mut rng = fray_dice::Prng::from_seed(3);
        // Play on until a player's seat (not the GM's) is asked alone.
        let mut tried = false;
        for _ in 0..500 {
            let Some(p) = game.pending() else { break };
            if p.deciders.len() == 1 && !p.seat.is_gm() {
                let other = (1..names.len() as u8)
                    .map(Seat)
                    .find(|s| *s != p.seat)
                    .expect("another player's seat");
                match game.submit_text(other, "pass") {
                    Err(SubmitError::Rejected(r)) => {
                        assert_eq!(r.code, Reject::NOT_YOUR_DECISION, "{example}: {r:?}");
                        let me = &names[other.0 as usize];
                        let asked = &names[p.seat.0 as usize];
                        assert!(
                            r.reason
                                .starts_with(&format!("{me} may not answer this: the game is waiting for {asked}")),
                            "{example}: {}",
                            r.reason
                        );
                    }
                    other => panic!("{example}: {other:?}"),
                }
                tried = true;
                break;
            }
            if game.ai_step(&mut rng).is_err() {
                break;
            }
        }
        assert!(tried, "{example}: no player's seat was ever asked alone");
    }
}
