//! Protection: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_r28_r15_a_direct_blast_does_not_reach_behind_a_barrier_an_indirect_one_fires_over_it() {
    // Direct: range 2, beyond half range, a save (5 passes); only `out` is hit.
    let mut t = barrier("bomb");
    t.dice(&[5]).cmd("attack wall with bomb");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("out".to_string())));
    t.dice(&[4]).cmd("take");
    assert_eq!(damage(&t), [("out".to_string(), 4)]);
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    assert_eq!(ch(&t, "hid").health, 10);
    t.assert_dice_used();
    t.assert_replays();
    // Indirect: over the barrier, which gives `hid` no cover against it (MUR-R15).
    let mut t = barrier("shell");
    t.dice(&[5]).cmd("attack wall with shell");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("hid".to_string())));
    t.dice(&[4]).cmd("take");
    assert_eq!(damage(&t), [("hid".to_string(), 4)]);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("out".to_string())));
    t.cmd("take");
    assert_eq!(damage(&t), [("out".to_string(), 4)]);
    t.assert_dice_used();
    t.assert_replays();
}
