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
    HallowedEarth::format_command(s, &c.command)
}

#[test]
fn hal_r11_the_ai_decides_the_same_whatever_the_other_seat_declared_in_secret() {
    let a = foes_choice("full-defense");
    let b = foes_choice("flee");
    assert!(a.starts_with("declare warrior-1 attack"), "{a}");
    assert_eq!(a, b);
}

#[test]
fn hal_r17_the_ai_draws_a_weapon_as_its_free_action_when_it_has_none_in_hand() {
    let toml = r#"ruleset = "hallowed-earth"
[map]
rows = [". . . . .", ". . . . ."]
[[side]]
id = "pcs"
[[side]]
id = "foes"
[[combatant]]
id = "ash"
side = "pcs"
at = "0,0"
stress = 10
weapons = [{ name = "sword", damage = "1d6", drawn = false }]
[[combatant]]
id = "bo"
side = "foes"
at = "1,0"
stress = 10
weapons = [{ name = "club", damage = "1d4" }]
"#;
    let source = fray_engine::diag::SourceFile {
        name: "duel.toml".into(),
        text: toml.into(),
    };
    let (setup, options) = fray_hallowed_earth::setup::load(&source).unwrap_or_else(|e| panic!("{e:?}"));
    let mut g = Game::<HallowedEarth>::new_seeded(setup, options, 3).expect("starts");
    let mut ai = HallowedEarth::heuristic();
    let mut rng = Prng::from_seed(1);
    let mut typed = Vec::new();
    for _ in 0..8 {
        let Some((seat, c)) = fray_engine::choose_first(&mut *ai, g.state(), &mut rng) else {
            break;
        };
        typed.push(HallowedEarth::format_command(g.state(), &c));
        g.submit(seat, c).expect("the AI's command is accepted");
    }
    let at = |t: &str| {
        typed
            .iter()
            .position(|c| c == t)
            .unwrap_or_else(|| panic!("{t}: {typed:?}"))
    };
    // It declares the draw first, then the attack with the weapon it draws, and on its turn
    // draws before it attacks.
    assert!(at("declare ash free draw sword") < at("declare ash attack bo with sword"));
    let free = typed.iter().rposition(|c| c == "free").expect("the draw is taken");
    assert!(typed[free + 1..].iter().any(|c| c == "act"), "{typed:?}");
}
