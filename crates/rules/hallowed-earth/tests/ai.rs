//! The built-in AI decides from what its seat may know: never from another seat's secret
//! declaration (HAL-R11).

use fray_dice::Prng;
use fray_engine::text::TextRuleset;
use fray_engine::{Decision, Game, Seat};
use fray_hallowed_earth::HallowedEarth;
use fray_hallowed_earth::command::parse;
use fray_testkit::example;

/// The foes' AI's first declaration after the travellers' seat has declared `theirs` for each
/// of its creatures, in secret.
fn foes_choice(theirs: &str) -> String {
    let e = example::<HallowedEarth>("roadside.toml");
    let mut g = Game::<HallowedEarth>::new_seeded(e.setup, e.options, 5).expect("starts");
    let pcs = HallowedEarth::seat_by_name(g.state(), "travellers").expect("seat");
    let gm = Seat::GM;
    for id in ["oda", "brannoc", "wenna"] {
        let c = parse(g.state(), &format!("declare {id} {theirs}")).expect("parses");
        g.submit(pcs, c).expect("accepted");
    }
    let s = g.state();
    let d = Decision::<HallowedEarth>::new(s, gm).expect("the raiders' seat (the GM's) declares");
    let mut ai = HallowedEarth::heuristic();
    let c = ai.choose(&d, &mut Prng::from_seed(1)).expect("a choice");
    HallowedEarth::format_command(s, &c)
}

#[test]
fn hal_r11_the_ai_decides_the_same_whatever_the_other_seat_declared_in_secret() {
    let a = foes_choice("full-defense");
    let b = foes_choice("flee");
    assert!(a.starts_with("declare warrior-1 attack"), "{a}");
    assert_eq!(a, b);
}
