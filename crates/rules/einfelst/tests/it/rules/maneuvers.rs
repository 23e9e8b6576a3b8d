//! Maneuvers: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r17_r18_slow_and_fast_manoeuvres() {
    let mut t = duel("", "", "prone = true", 5, 1);
    // bo: stand (fast) and a test of Read (slow: surveying the field).
    t.cmd("stand");
    t.dice(&hits(1, 3)).cmd("test read");
    assert_eq!(tests(&t), vec![(3, 1)]);
    assert_eq!(turn(&t), "ash");
    // ash: draw (fast), shout (a fast one instead of the slow one), nothing left.
    t.cmd("draw unarmed");
    t.cmd("shout");
    assert_eq!(turn(&t), "bo");
}

#[test]
fn ein_r19_a_reaction_spends_the_round_s_manoeuvres() {
    // ash (card 5) is attacked twice before its turn by bo (1) and cy (2).
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[5, 1, 2]));
    t.cmd("strike ash");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
    t.cmd("end");
    assert_eq!(t.state().ch(id(&t, "ash")).left[0], [1, 0]);
    // A second reaction spends the slow manoeuvre (reaction-may-use-slow).
    t.cmd("strike ash");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
    assert_eq!(t.state().ch(id(&t, "ash")).left[0], [0, 0]);
    // Nothing left for ash's turn: it passes at once, and round 2 begins.
    t.cmd("end");
    assert_eq!((t.state().round, turn(&t)), (2, "bo".to_string()));
    // With the option off, the second attack is not even offered a reaction.
    let toml = enc(
        "reaction-may-use-slow = false",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[5, 1, 2]));
    t.cmd("strike ash");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
    t.cmd("end");
    t.dice(&hits(0, 3)).cmd("strike ash");
    assert_eq!(t.state().ch(id(&t, "ash")).left[0], [1, 0]);
}

#[test]
fn ein_r20_the_defence_is_declared_before_the_roll_and_stays_spent() {
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    assert_eq!(t.game.pending().unwrap().kind(), "reaction");
    t.dice(&cat(&[hits(0, 3), hits(1, 3)])).cmd("parry");
    assert!(t.log().iter().any(|l| l.contains("Miss")));
    assert_eq!(t.state().ch(id(&t, "bo")).left[0], [1, 0]);
}

#[test]
fn ein_r16_a_turn_that_ends_by_itself_says_so_in_the_log() {
    let toml = enc("", &[who("ash", "pcs", "d", ""), who("bo", "foes", "b", "")].concat());
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("move a");
    t.cmd("move b");
    assert!(
        t.log()
            .contains(&"ash has no manoeuvre left: the turn ends".to_string()),
        "{:?}",
        t.log()
    );
    // A turn ended by its seat says nothing of the kind.
    t.cmd("end");
    assert!(!t.log().iter().any(|l| l.contains("the turn ends")), "{:?}", t.log());
}
