//! Fear: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r35_h8_fear_help_dice_from_the_player_characters_present() {
    let fear_pool = |others_here: usize, elsewhere: usize, severe: usize| {
        let mut rest = vec![who("ash", "pcs", "a", "")];
        for i in 0..others_here {
            let m = if i < severe { "\nharm = \"track\"" } else { "" };
            rest.push(who(&format!("p{i}"), "pcs", "a", m));
        }
        for i in 0..elsewhere {
            rest.push(who(&format!("q{i}"), "pcs", "d", ""));
        }
        rest.push(who("bo", "foes", "b", ""));
        let n = rest.len();
        let toml = enc("", &rest.concat());
        let mut draw: Vec<u16> = (1..=n as u16).collect();
        draw.rotate_left(0);
        let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&draw));
        if t.state().stage == RoundStage::Swaps {
            t.type_as(PCS, "ready");
        }
        for i in 0..severe {
            t.type_as(GM, &format!("gm set p{i} mental-severe =1"));
        }
        let pool = 3 + others_here.min(3) - severe.min(others_here);
        t.dice(&hits(2, pool.min(6))).type_as(GM, "gm fear ash 1");
        tests(&t)[0].0 as usize
    };
    // Two companions in ash's zone and one elsewhere: +2.
    assert_eq!(fear_pool(2, 1, 0), 5);
    // Three companions, one with Severe Mental Harm: +2.
    assert_eq!(fear_pool(3, 0, 1), 5);
    // Five: +3 (the cap).
    assert_eq!(fear_pool(5, 0, 0), 6);
}

#[test]
fn ein_r36_h17_a_controlled_success_gives_a_die_on_the_next_test() {
    let mut t = duel("", "", "", 1, 5);
    t.dice(&hits(3, 3)).type_as(GM, "gm fear ash 2 controlled");
    assert_eq!(mental(&t, "ash"), [0, 0, 0]);
    assert_eq!(t.state().ch(0).bonus, 1);
    t.cmd("strike bo");
    t.dice(&hits(0, 4)).cmd("pass");
    assert_eq!(tests(&t), vec![(4, 0)]);
    assert_eq!(t.state().ch(0).bonus, 0); // EIN-H17: then it is gone
}
