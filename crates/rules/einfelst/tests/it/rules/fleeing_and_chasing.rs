//! Fleeing and chasing: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r32_fleeing_and_its_limits() {
    // ash in b, next to the exit c; bo in a.
    let toml = enc("", &[who("ash", "pcs", "b", ""), who("bo", "foes", "a", "")].concat());
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.dice(&hits(1, 3)).cmd("flee finesse");
    assert_eq!(t.state().ch(0).status, Status::Fled);
    // A failure: it stays.
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.dice(&hits(0, 3)).cmd("flee sneak");
    assert_eq!(
        (t.state().ch(0).status, zone_of(&t, "ash")),
        (Status::Fighting, "b".to_string())
    );
    // A foe in the way (c): no flight.
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "b", "")].concat());
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.expect_rejection(PCS, "flee finesse", codes::NO_ESCAPE);
    // A foe in the fleer's own zone does not block it.
    let toml = enc("", &[who("ash", "pcs", "b", ""), who("bo", "foes", "b", "")].concat());
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("flee finesse");
    t.dice(&hits(1, 3)).cmd("pass"); // bo does not chase
    assert_eq!(t.state().ch(0).status, Status::Fled);
}

#[test]
fn ein_r33_h26_chasing() {
    // ash flees from a toward the exit c (by b); bo chases.
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat());
    // Flee 2, chase 2: caught; both one zone on (b).
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("flee finesse");
    t.dice(&cat(&[hits(2, 3), hits(2, 3)])).cmd("chase track");
    assert_eq!(t.state().ch(0).status, Status::Fighting);
    assert_eq!((zone_of(&t, "ash"), zone_of(&t, "bo")), ("b".into(), "b".into()));
    // Flee 2, chase 1: away; the chaser still moves (chaser-moves-on-escape).
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("flee finesse");
    t.dice(&cat(&[hits(2, 3), hits(1, 3)])).cmd("chase finesse");
    assert_eq!(t.state().ch(0).status, Status::Fled);
    assert_eq!(zone_of(&t, "bo"), "b");
}

#[test]
fn ein_r32_r33_a_fleer_may_name_its_way_and_the_log_says_where_before_anyone_chases() {
    // Two ways out of a: d (an exit, the shortest) and b, then c (an exit).
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat()).replacen(
        "id = \"d\"",
        "id = \"d\"\nexit = true",
        1,
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    let legal = t.legal();
    for c in ["flee finesse", "flee finesse b", "flee finesse d", "flee sneak b"] {
        assert!(legal.contains(&c.to_string()), "{c} not in {legal:?}");
    }
    t.expect_rejection(PCS, "flee finesse c", codes::OUT_OF_REACH);
    t.cmd("flee finesse b");
    // The log names the way before the chase is asked.
    assert!(
        t.log().contains(&"ash tries to flee (finesse) by way of b".to_string()),
        "{:?}",
        t.log()
    );
    assert_eq!(t.game.pending().unwrap().kind(), "chase");
    assert_eq!(prompt(&t), "ash flees by way of b: bo may chase finesse|track, or pass");
    // Caught: both move into the zone named, not the shortest way's d.
    t.dice(&cat(&[hits(1, 3), hits(1, 3)])).cmd("chase track");
    assert_eq!((zone_of(&t, "ash"), zone_of(&t, "bo")), ("b".into(), "b".into()));
    // A zone a foe holds is no way out; a fleer in an exit zone names none.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "b", ""),
            who("cy", "pcs", "c", ""),
        ]
        .concat(),
    )
    .replacen("id = \"d\"", "id = \"d\"\nexit = true", 1);
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5, 2]));
    t.type_as(PCS, "ready");
    let r = t.expect_rejection(PCS, "flee finesse b", codes::NO_ESCAPE);
    assert!(r.reason.contains("a foe holds b"), "{}", r.reason);
    t.cmd("end");
    assert_eq!(turn(&t), "cy");
    t.expect_rejection(PCS, "flee finesse b", codes::NO_ESCAPE);
    assert!(t.legal().contains(&"flee finesse".to_string()));
}
