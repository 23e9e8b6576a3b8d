//! The battlefield a client draws (`TextRuleset::board`): the yard's squares with what the
//! skeleton reads of them.

use fray_engine::text::TextRuleset;
use fray_engine::view::Board;
use fray_engine::{Game, Seat};
use fray_skeleton::Skeleton;

#[test]
fn the_board_lists_every_square_of_the_yard_and_its_walls() {
    let e = fray_testkit::example::<Skeleton>("duel.toml");
    let game = Game::<Skeleton>::new_seeded(e.setup, e.options, 1).expect("starts");
    let Some(Board::Grid { cells, areas }) = Skeleton::board(game.state(), Seat::GM) else {
        panic!("the skeleton's board is a grid");
    };
    assert_eq!(cells.len(), 7 * 4, "every square of the 7 by 4 yard");
    let blocked: Vec<(i32, i32)> = cells
        .iter()
        .filter(|c| c.terrain == ["blocked"])
        .map(|c| (c.x, c.y))
        .collect();
    assert_eq!(blocked, [(3, 1), (3, 2)], "the well, as commands write its squares");
    assert!(cells.iter().all(|c| c.elevation.is_none()), "no elevations");
    assert!(cells.iter().all(|c| c.terrain.is_empty() || c.terrain == ["blocked"]));
    assert!(areas.is_empty());
    for seat in [Seat(1), Seat(2)] {
        assert_eq!(
            Skeleton::board(game.state(), seat),
            Skeleton::board(game.state(), Seat::GM)
        );
    }
}
