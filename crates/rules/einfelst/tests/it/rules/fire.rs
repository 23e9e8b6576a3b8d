//! Fire: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r38_r39_h4_catching_fire_and_burning_at_the_start_of_each_later_round() {
    let mut t = duel("", "", "", 1, 5);
    // EIN-R38: catching fire: 1 Physical Harm, no roll.
    t.type_as(GM, "gm ignite ash 2");
    assert_eq!(physical(&t, "ash"), [1, 0, 0]);
    assert!(tests(&t).is_empty());
    // EIN-R39: only put it out, flee or shout.
    t.expect_rejection(PCS, "strike bo", codes::BURNING);
    t.expect_rejection(PCS, "move b", codes::BURNING);
    t.cmd("end");
    // Round 2: intensity 2, Endure 1 success of 2 dice (3 − 1 Harm): 1 Physical Harm.
    t.dice(&hits(1, 2)).cmd("end");
    assert_eq!(tests(&t), vec![(2, 1)]);
    assert_eq!(physical(&t, "ash"), [2, 0, 0]);
}

#[test]
fn ein_r39_r40_enduring_the_fire_and_putting_it_out_over_two_rounds() {
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9", 5, 1);
    t.type_as(GM, "gm ignite bo 2");
    assert_eq!(t.state().ch(1).harm.points, 1);
    // EIN-R40: Finesse (3 dice − 1): 1 success of the 2 needed; it still burns.
    t.dice(&hits(1, 2)).cmd("extinguish");
    assert!(t.state().ch(1).fire.is_some());
    t.cmd("end");
    // Round 2: bo endures with 3 successes (2 dice and a bonus die): no damage (EIN-R39).
    t.type_as(GM, "gm set bo bonus =1");
    t.dice(&hits(3, 3)).cmd("end");
    assert_eq!(t.state().ch(1).harm.points, 1);
    // 1 more success makes 2: the fire is out.
    t.dice(&hits(1, 2)).cmd("extinguish");
    assert!(t.state().ch(1).fire.is_none());
}
