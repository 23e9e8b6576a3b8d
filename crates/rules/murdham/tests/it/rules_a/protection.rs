//! Protection: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------- protection

#[test]
fn mur_r26_concealment_makes_damage_impaired() {
    let mut t = table(
        PLAIN,
        &[who("ash", "pcs", "brush", ""), who("bo", "foes", "brush", "")],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5, 2]).cmd("take");
    assert_eq!(
        t.log(),
        ["ash rolls damage impaired: 5 / 2 = 2", "bo takes 2 damage: health 8/10"]
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r27_cover_adds_one_armour_unless_the_attack_goes_through_it() {
    let sling = "wield = [\"missile-hand\"]";
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "b", sling),
            who("cy", "pcs", "b", sling),
            who("bo", "foes", "a", "cover = true"),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(t.log()[1], "bo takes 2 damage (3 less 1 armour): health 8/10");
    // The GM rules that cy's shot goes through the cover (MUR-H7).
    t.cmds(&["end", "pass", "act cy", "gm penetrate cy", "attack bo"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(t.log()[1], "bo takes 3 damage: health 5/10");
    // Cover data: gunpowder goes through a fence.
    let toml = enc(
        PLAIN,
        &[
            who("ash", "pcs", "b", "wield = [\"handgun\"]"),
            who("bo", "foes", "a", "cover = true"),
            "[penetration]\nfence = [\"gunpowder\"]\n".to_string(),
        ]
        .concat(),
    )
    .replace(
        "cover = 1\n[[zone]]\nid = \"b\"",
        "cover = 1\ntags = [\"fence\"]\n[[zone]]\nid = \"b\"",
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(health(&t, "bo"), 7);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r28_a_barrier_blocks_attacks_but_one_who_peeks_out_to_attack_only_has_cover() {
    let sling = "wield = [\"missile-hand\"]";
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "h", sling),
            who("cy", "pcs", "h", sling),
            who("bo", "foes", "wall", &format!("cover = true\n{sling}")),
        ],
        &[],
    );
    t.cmd("act cy");
    t.expect_rejection(PCS, "attack bo", codes::NOT_ALLOWED);
    t.cmds(&["end", "act bo", "attack ash"]);
    assert_eq!(t.log()[0], "bo peeks out from behind the barrier");
    // ash counters: bo's 3 against ash, ash's 3 less 1 for the cover against bo.
    t.dice(&[3, 3]).cmd("counter");
    assert_eq!((health(&t, "ash"), health(&t, "bo")), (7, 8));
    t.assert_dice_used();
    t.assert_replays();
}
