//! The battlefield a client draws (`TextRuleset::board`): every square of the map with what
//! the rules read of it.

use fray_engine::text::TextRuleset;
use fray_engine::view::Board;
use fray_engine::{Game, Seat};
use fray_hallowed_earth::HallowedEarth;

#[test]
fn the_board_lists_every_square_and_the_blocked_ones() {
    let e = fray_testkit::example::<HallowedEarth>("duel.toml");
    let game = Game::<HallowedEarth>::new_seeded(e.setup, e.options, 1).expect("starts");
    let Some(Board::Grid { cells, areas }) = HallowedEarth::board(game.state(), Seat::GM) else {
        panic!("a grid");
    };
    assert_eq!(cells.len(), 9 * 5);
    let blocked: Vec<(i32, i32)> = cells
        .iter()
        .filter(|c| c.terrain == ["blocked"])
        .map(|c| (c.x, c.y))
        .collect();
    // Rows are written north to south: the corners and the middle square are blocked.
    assert_eq!(blocked, [(0, 0), (8, 0), (4, 2), (0, 4), (8, 4)]);
    assert!(cells.iter().all(|c| c.elevation.is_none()));
    assert!(areas.is_empty());
}

#[test]
fn every_seat_sees_the_same_board_while_declarations_are_secret() {
    let e = fray_testkit::example::<HallowedEarth>("ferry.toml");
    let game = Game::<HallowedEarth>::new_seeded(e.setup, e.options, 3).expect("starts");
    let s = game.state();
    let gm = HallowedEarth::board(s, Seat::GM);
    assert!(gm.is_some());
    for seat in (1..HallowedEarth::seat_names(s).len() as u8).map(Seat) {
        assert_eq!(HallowedEarth::board(s, seat), gm, "{seat}");
    }
}
