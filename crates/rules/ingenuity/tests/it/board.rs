//! The battlefield a client draws (`TextRuleset::board`): every square with its elevation and
//! walls, and the items lying on the ground.

use crate::common;
use common::*;
use fray_engine::text::TextRuleset;
use fray_engine::view::{AreaView, Board, Place};
use fray_engine::{Game, Ruleset, Seat};
use fray_ingenuity::Ingenuity;
use fray_ingenuity::data::Cond;

fn grid(b: Option<Board>) -> (Vec<fray_engine::view::Cell>, Vec<AreaView>) {
    match b {
        Some(Board::Grid { cells, areas }) => (cells, areas),
        other => panic!("Ingenuity's board is a grid: {other:?}"),
    }
}

#[test]
fn the_shrine_board_has_its_raised_floor_and_walls() {
    let e = fray_testkit::example::<Ingenuity>("shrine.toml");
    let game = Game::<Ingenuity>::new_seeded(e.setup, e.options, 1).expect("starts");
    let (cells, areas) = grid(Ingenuity::board(game.state(), Seat::GM));
    assert_eq!(cells.len(), 10 * 8);
    let at = |x: i32, y: i32| cells.iter().find(|c| (c.x, c.y) == (x, y)).expect("a square");
    // Rows are written north to south: the dais (2) is on the fifth, y = 3.
    assert_eq!(at(3, 3).elevation, Some(2));
    assert_eq!(at(2, 4).elevation, Some(1));
    assert_eq!(at(0, 0).elevation, Some(0));
    assert_eq!(at(1, 5).terrain, ["blocked"]);
    assert!(at(2, 3).terrain.is_empty());
    assert!(areas.is_empty());
    // A combatant's square is a square of the board, at the same elevation.
    for c in Ingenuity::seat_view(game.state(), Seat::GM).combatants {
        if let Some(Place::Square { x, y, elevation }) = c.place {
            assert_eq!(at(x, y).elevation, elevation, "{}", c.id);
        }
    }
}

#[test]
fn a_dropped_item_lies_on_its_square_of_the_board_for_every_seat() {
    let field = [". . . . .", ". . . . ."];
    let toml = enc(
        &field,
        &format!(
            "{}{}",
            who("runner", "pcs", "1,0", "items = [\"spear\"]"),
            who("foe", "foes", "4,1", "")
        ),
    );
    let mut t = T::turn_of(&toml, "runner");
    t.cmd("drop spear");
    for seat in [Seat::GM, Seat(1), Seat(2)] {
        let (_, areas) = grid(Ingenuity::board(t.s(), seat));
        assert_eq!(
            areas,
            [AreaView {
                name: "spear".into(),
                squares: vec![[1, 0]],
                by: None,
                tags: vec!["item".into()],
            }],
            "{seat}"
        );
    }
}

#[test]
fn a_hidden_foe_changes_nothing_on_the_board() {
    let field = [". . . . .", ". . . . .", ". . . . ."];
    let toml = enc(
        &field,
        &format!(
            "{}{}",
            who("runner", "pcs", "0,0", ""),
            who("foe", "foes", "3,1", "conditions = [\"hidden\"]")
        ),
    );
    let t = T::turn_of(&toml, "runner");
    assert!(t.ch("foe").has(Cond::Hidden));
    let players = Seat(1);
    let board = Ingenuity::board(t.s(), players);
    let mut others = Vec::new();
    Ingenuity::indistinguishable(t.s(), players, &mut others);
    assert!(!others.is_empty(), "the foe is hidden from the players");
    for other in &others {
        assert_eq!(Ingenuity::board(other, players), board);
    }
}
