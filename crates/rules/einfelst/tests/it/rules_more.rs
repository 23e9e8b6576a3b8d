//! More rule tests, one rule each, for rules the long `rules.rs` checks only alongside others:
//! the fast manoeuvres (EIN-R18), what a held creature may still do (EIN-R31) and the Mental
//! Harm of a failed Fear test by position (EIN-R37).
//!
//! The same tiny encounter as `rules.rs`: zones `a` (1 cover spot) – `b`, and `d` off `a`;
//! ash (side `pcs`, the players' seat) and bo (side `foes`, the GM's) in zone `a`, every
//! attribute 2 and every combat Action 1 (3 dice a test), each with a sword. Cards are dealt
//! first, one draw each in encounter order; sixes are successes.

use fray_einfelst::Einfelst;
use fray_einfelst::codes;
use fray_engine::Seat;
use fray_testkit::Table;

const GM: Seat = Seat::GM;

/// ash and bo in zone `a`, ash drawing card 1 (so it acts first) and bo card 5; `ash` and `bo`
/// add keys to their stats.
fn duel(options: &str, ash: &str, bo: &str) -> Table<Einfelst> {
    let stats = "attributes = { strength = 2, dexterity = 2, intuition = 2, reason = 2, presence = 2 }\n\
                 actions = { strike = 1, shoot = 1, force = 1, endure = 1, finesse = 1, sneak = 1, track = 1, read = 1 }\n\
                 weapons = [\"sword\"]";
    let toml = format!(
        r#"ruleset = "einfelst"
player-sides = ["pcs"]
[options]
{options}
[[zone]]
id = "a"
links = ["b", "d"]
cover = 1
[[zone]]
id = "b"
[[zone]]
id = "d"
[[side]]
id = "pcs"
seat = "players"
[[side]]
id = "foes"
seat = "gm"
[[combatant]]
id = "ash"
side = "pcs"
zone = "a"
{stats}
{ash}
[[combatant]]
id = "bo"
side = "foes"
zone = "a"
{stats}
{bo}
"#
    );
    // The first face draws card 1 of the ten; the fourth face of the nine left draws card 5.
    Table::<Einfelst>::load(&toml, &[], &[1, 4])
}

/// `k` successes among `n` dice.
fn hits(k: usize, n: usize) -> Vec<u16> {
    (0..n).map(|i| if i < k { 6 } else { 1 }).collect()
}

/// The slow and fast manoeuvres creature `n` (0 ash, 1 bo) has left on its card.
fn left(t: &Table<Einfelst>, n: usize) -> [u8; 2] {
    t.state().chars[n].left[0]
}

#[test]
fn ein_r18_each_fast_manoeuvre_spends_the_fast_one_and_leaves_the_slow() {
    // Each of these takes no test and costs one fast manoeuvre, the slow one still there:
    // standing up, drawing, shouting, handling an object, taking cover, moving within the
    // zone (apart, or beside a creature) and moving to the next zone.
    for (ash, command) in [
        ("prone = true", "stand"),
        ("", "draw unarmed"),
        ("", "shout"),
        ("", "interact"),
        ("", "cover"),
        ("", "withdraw"),
        ("", "move b"),
        ("", "close bo"),
    ] {
        let mut t = duel("", ash, "");
        assert_eq!(left(&t, 0), [1, 1], "{command}");
        t.cmd(command);
        assert_eq!(left(&t, 0), [1, 0], "{command} is a fast manoeuvre");
    }
    // So is picking up a dropped item: ash knocks bo's sword away (1 extra success), and bo
    // picks it up on its turn, with its slow manoeuvre still to spend.
    let mut t = duel("", "", "");
    t.cmd("strike bo");
    t.dice(&hits(2, 3)).cmd("pass");
    t.cmd("spend disarm");
    t.cmd("split 1+1");
    t.cmd("end");
    assert_eq!(t.state().ch(1).wield, None);
    t.cmd("pickup sword");
    assert_eq!(left(&t, 1), [1, 0]);
    assert!(t.state().ch(1).wield.is_some());
}

#[test]
fn ein_r31_a_held_creature_may_parry_but_neither_attack_nor_flee() {
    // ash grapples bo (1 success, no reaction): bo is held.
    let mut t = duel("dodge-melee = true", "", "");
    t.cmd("grapple bo");
    t.dice(&hits(1, 3)).cmd("pass");
    assert_eq!(t.state().ch(1).held_by, Some(0));
    t.cmd("end");
    // bo's turn: no attack of any kind, no flight.
    for command in ["strike ash", "punch ash", "grapple ash", "shove ash b", "flee finesse"] {
        t.expect_rejection(GM, command, codes::RESTRAINED);
    }
    t.cmd("end");
    // ash strikes with 1 success; bo may parry (not dodge, even with `dodge-melee`), and its
    // 1 success cancels the blow.
    t.cmd("strike bo");
    t.expect_rejection(GM, "dodge", codes::BAD_REACTION);
    t.dice(&[hits(1, 3), hits(1, 3)].concat()).cmd("parry");
    assert!(t.log().iter().any(|l| l.contains("Miss")), "{:?}", t.log());
    assert_eq!(t.state().ch(1).harm.physical, [0, 0, 0]);
}

/// The Mental Harm a failed Fear test of 2 (no success) deals ash: the sum of any way the
/// split it asks for adds up.
fn fear_harm(options: &str, ruling: &str) -> u8 {
    let mut t = duel(options, "", "");
    t.dice(&hits(0, 3)).type_as(GM, ruling);
    let legal = t.legal();
    let parts = legal
        .iter()
        .find_map(|c| c.strip_prefix("split "))
        .unwrap_or_else(|| panic!("a split of the Harm is asked: {legal:?}"));
    parts.split('+').map(|p| p.parse::<u8>().unwrap()).sum()
}

#[test]
fn ein_r37_a_failed_fear_test_deals_mental_harm_by_position_risky_by_default() {
    assert_eq!(fear_harm("", "gm fear ash 2 controlled"), 2);
    assert_eq!(fear_harm("", "gm fear ash 2 risky"), 3);
    assert_eq!(fear_harm("", "gm fear ash 2 desperate"), 4);
    // No position named: Risky.
    assert_eq!(fear_harm("", "gm fear ash 2"), 3);
    // The options change the table and the default.
    assert_eq!(fear_harm("default-position = \"desperate\"", "gm fear ash 2"), 4);
    assert_eq!(fear_harm("fear-harm = [1, 1, 2]", "gm fear ash 2 desperate"), 2);
    // Only the Mental track is marked.
    let mut t = duel("", "", "");
    t.dice(&hits(0, 3)).type_as(GM, "gm fear ash 2 controlled");
    t.cmd("split 2");
    assert_eq!(t.state().ch(0).harm.mental, [0, 1, 0]);
    assert_eq!(t.state().ch(0).harm.physical, [0, 0, 0]);
}
