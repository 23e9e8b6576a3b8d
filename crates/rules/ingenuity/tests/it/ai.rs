//! The built-in AI decides from what its seat is shown.

use crate::common;

use common::{T, enc, who};
use fray_dice::Prng;
use fray_engine::text::TextRuleset;
use fray_engine::{Seat, choose_first};
use fray_ingenuity::{Ingenuity, calc};

/// `hero` between two identical foes, `a` west and `b` east, on one row.
fn between() -> String {
    let hero = "attributes = { str = 6, dex = 6 }\nskills = { combat = 6 }\nitems = [\"spear\"]";
    enc(
        &[". . . . ."],
        &format!(
            "{}{}{}",
            who("a", "foes", "1,0", ""),
            who("hero", "pcs", "2,0", hero),
            who("b", "foes", "3,0", "")
        ),
    )
}

/// The heuristic's command for the players' seat after the GM has lowered `worn`'s endurance
/// to just above half (so it is not yet "harmed", which every seat is shown).
fn choice_with_worn(worn: &str) -> String {
    let mut t = T::turn_of(&between(), "hero");
    let c = t.id(worn);
    let max = t.s().info(c).stats.endurance;
    let keep = max / 2 + 1;
    t.type_as(Seat::GM, &format!("gm set {worn} endurance ={keep}"));
    assert!(!calc::harmed(t.s(), c) && !calc::bloodied(t.s(), c));
    assert!(t.s().ch(c).endurance < max, "the ruling lowered {worn}'s endurance");
    let mut ai = Ingenuity::heuristic();
    let (seat, cmd) = choose_first(&mut *ai, t.s(), &mut Prng::from_seed(1)).expect("a decision is pending");
    assert_eq!(Ingenuity::seat_name(t.s(), seat), "players");
    Ingenuity::format_command(t.s(), &cmd)
}

/// A foe's endurance is not shown to the players' seat (only whether it is harmed or
/// bloodied), so the players' AI must pick the same target whichever of two look-alike foes
/// has less of it left. (Before, it read the numbers and went for the worn one.)
#[test]
fn the_players_ai_does_not_read_foes_endurance() {
    let a = choice_with_worn("a");
    let b = choice_with_worn("b");
    assert!(a.starts_with("attack "), "{a}");
    assert_eq!(a, b);
}
