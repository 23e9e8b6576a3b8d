//! Other hazards: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r43_h5_falls() {
    let pts = "harm = \"points\"\nharm-capacity = 20\narmour = 2";
    let mut t = duel("", "", pts, 5, 1);
    t.type_as(GM, "gm fall bo 5");
    assert!(tests(&t).is_empty());
    // 10 feet onto stone: 2 dice; 2 against Endure 1: 1 Harm despite the armour.
    t.dice(&cat(&[hits(2, 2), hits(1, 3)])).type_as(GM, "gm fall bo 10");
    assert_eq!(tests(&t), vec![(2, 2), (3, 1)]);
    assert_eq!(t.state().ch(1).harm.points, 1);
    // 20 feet: 4 dice.
    t.dice(&cat(&[hits(0, 4), hits(0, 2)])).type_as(GM, "gm fall bo 20");
    assert_eq!(tests(&t)[0].0, 4);
    // Into deep water: no roll.
    t.type_as(GM, "gm fall bo 20 soft");
    assert!(tests(&t).is_empty());
}

#[test]
fn ein_r44_hunger_and_thirst() {
    let mut t = duel("", "", "", 5, 1);
    t.dice(&hits(0, 3)).type_as(GM, "gm deprive ash mental");
    assert_eq!(mental(&t, "ash"), [1, 0, 0]);
    t.dice(&hits(1, 3)).type_as(GM, "gm deprive ash physical");
    assert_eq!(physical(&t, "ash"), [0, 0, 0]);
}
