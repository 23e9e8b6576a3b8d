//! Rule tests for the blasts, stunts, grappling, sneaking, morale, chases, gear and fast and slow
//! activations of the checklist (the chaos of combat has its own file):
//! tiny encounters, scripted dice, commands typed as the seat asked would type them, through
//! the test kit's `Table`. Each test names the rules it checks (`mur_r31_...`).
//!
//! Unless a test says otherwise: zone `a` links to `b`, `c`, `d`, `e` and `f` (in that order,
//! so a deviating blast from `a` numbers them 1 to 5), `b` links to `g`, and `c` is a hazard
//! (d6); side `pcs` (seat 1, a player side, holding the initiative) against side `foes`
//! (seat 2); the initiative faction opens every round by itself; everyone is a medium human
//! with STR, AGI and WIT 10 and no gear.

use fray_engine::{Ruleset, Seat};
use fray_murdham::Murdham;
use fray_murdham::codes;
use fray_murdham::place::Place;
use fray_murdham::setup::Cid;
use fray_murdham::state::{Char, Event, Phase, Status, Why};
use fray_testkit::Table;

const PCS: Seat = Seat(1);
const FOES: Seat = Seat(2);
const GM: Seat = Seat::GM;

/// Items the tests use besides the shipped ones: a ranged blast weapon of range 2, fragile
/// (already damaged) gear, an improvised weapon written as a fragile simple hand weapon
/// (MUR-R51), and a robust club.
const ITEMS: &str = r#"
[item.bomb]
name = "bomb"
damage = 6
range = 2
keywords = ["blast"]
[item.rusty]
name = "rusty sword"
damage = 6
keywords = ["fragile"]
[item.buckler]
name = "old buckler"
damage = 4
keywords = ["shield", "fragile"]
[item.stool]
name = "stool"
damage = 4
keywords = ["fragile"]
[item.maul]
name = "iron maul"
damage = 4
keywords = ["robust"]
"#;

/// The encounter: `head` goes before everything (top-level keys such as `initiative`),
/// `options` into `[options]` (the initiative faction opens each round by itself unless the
/// options name `opener`), then the characters in `rest`.
fn enc(head: &str, options: &str, rest: &str) -> String {
    let opener = if options.contains("opener") {
        ""
    } else {
        "opener = \"initiative\"\n"
    };
    format!(
        r#"ruleset = "murdham"
player-sides = ["pcs"]
{head}
[options]
{opener}{options}
[[zone]]
id = "a"
links = ["b", "c", "d", "e", "f"]
cover = 2
[[zone]]
id = "b"
links = ["g"]
[[zone]]
id = "c"
tags = ["hazard-6"]
[[zone]]
id = "d"
[[zone]]
id = "e"
[[zone]]
id = "f"
[[zone]]
id = "g"
[[side]]
id = "pcs"
[[side]]
id = "foes"
{ITEMS}
{rest}"#
    )
}

/// The pcs hold the initiative.
const PCS_FIRST: &str = "initiative = \"pcs\"";
/// The foes hold the initiative.
const FOES_FIRST: &str = "initiative = \"foes\"";

/// A character: STR, AGI and WIT 10 unless `extra` sets them.
fn who(id: &str, side: &str, at: &str, extra: &str) -> String {
    let stats: String = ["str", "agi", "wit"]
        .iter()
        .filter(|k| !extra.lines().any(|l| l.trim_start().starts_with(&format!("{k} ="))))
        .map(|k| format!("{k} = 10\n"))
        .collect();
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\n{stats}{extra}\n")
}

fn id(t: &Table<Murdham>, name: &str) -> Cid {
    t.state().find(name).unwrap_or_else(|| panic!("no character {name}"))
}

fn ch<'a>(t: &'a Table<Murdham>, name: &str) -> &'a Char {
    t.state().ch(id(t, name))
}

fn place(t: &Table<Murdham>, p: &str) -> Place {
    Place::parse(p, &t.state().setup.zones).expect("a place")
}

fn name(t: &Table<Murdham>, c: Cid) -> String {
    t.state().ch(c).id.clone()
}

/// The damage each character took in the last command (after armour), in order.
fn damage(t: &Table<Murdham>) -> Vec<(String, i32)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { who, amount, .. } => Some((name(t, *who), *amount)),
            _ => None,
        })
        .collect()
}

/// The saves of the last command: who, the d20 (0 when size or skill decided), passed.
fn saves(t: &Table<Murdham>) -> Vec<(String, u16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Save { who, roll, pass, .. } => Some((name(t, *who), *roll, *pass)),
            _ => None,
        })
        .collect()
}

/// Who holds `x`, by id.
fn holder(t: &Table<Murdham>, x: &str) -> Option<String> {
    ch(t, x).grabbed_by.map(|h| name(t, h))
}

/// The item ids `x` has in its hands (main first).
fn in_hands(t: &Table<Murdham>, x: &str) -> Vec<String> {
    let c = ch(t, x);
    c.hands
        .iter()
        .flatten()
        .map(|&i| c.items[i as usize].id.clone())
        .collect()
}

/// The kind of the pending decision.
fn asked(t: &Table<Murdham>) -> Option<&'static str> {
    t.game.pending().map(|p| p.kind())
}

// ---------------------------------------------------------------------------------------------
// Blasts (MUR-R31, MUR-R58)

#[test]
fn mur_r31_h22_a_missed_ranged_blast_deviates_by_a_d6_rerolled_above_five_neighbours() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "g", "wield = [\"bomb\"]"),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "d", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    // MUR-R31: any zone within range: `c` is 3 zones away, the bomb reaches 2.
    t.expect_rejection(PCS, "attack c with bomb", codes::OUT_OF_RANGE);
    // Range 2 is beyond half range (1): a WIT save, 15 against 10 misses. `a` has five
    // neighbours (b, c, d, e, f): MUR-H22 rolls a d6 and rolls a 6 again; 3 is `d`.
    t.dice(&[15, 6, 3]).cmd("attack a with bomb");
    let deviated: Vec<(u16, u16, Option<Place>)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Deviated { roll, sides, to } => Some((*roll, *sides, *to)),
            _ => None,
        })
        .collect();
    // The 6 is more than the five zones around: rolled again, landing nowhere yet.
    assert_eq!(deviated, [(6, 6, None), (3, 6, Some(place(&t, "d")))]);
    assert_eq!(saves(&t), [("ash".to_string(), 15, false)]);
    // Everyone in `d` (cy) is hit; nobody in `a`.
    assert_eq!(
        (asked(&t), t.game.pending().and_then(|p| p.actor())),
        (Some("reaction"), Some(id(&t, "cy")))
    );
    t.dice(&[4]).cmd("take");
    assert_eq!(damage(&t), [("cy".to_string(), 4)]);
    assert_eq!((ch(&t, "bo").health, ch(&t, "cy").health), (10, 6));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r31_a_ranged_blast_on_the_attackers_own_zone_hits_the_attacker_too() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"bomb\"]"),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    // Range 0: no save. ash has had its turn, so it cannot dodge its own bomb: it takes the
    // roll (3) at once; bo then chooses its reaction and takes the same roll (MUR-H8).
    t.dice(&[3]).cmd("attack a with bomb");
    assert_eq!(damage(&t), [("ash".to_string(), 3)]);
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(id(&t, "bo")));
    t.cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    assert_eq!(ch(&t, "cy").health, 10);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r58_a_medium_d6_sweep_rolling_5_deals_3_to_small_and_tiny_and_nothing_to_medium() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
            who("sm", "foes", "a", "str = 12\nsize = \"small\""),
            who("md", "foes", "a", ""),
            who("ti", "foes", "a", "str = 16\nsize = \"tiny\""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    t.cmd("attack a sweep");
    // Only the smaller characters are asked, in order; one roll for the whole sweep.
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(id(&t, "sm")));
    t.dice(&[5]).cmd("take");
    assert_eq!(damage(&t), [("sm".to_string(), 3)]);
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(id(&t, "ti")));
    t.cmd("take");
    assert_eq!(damage(&t), [("ti".to_string(), 3)]);
    assert_eq!(ch(&t, "md").health, 10);
    assert_eq!(asked(&t), Some("turn"), "the sweep is over: md is never asked");
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r58_a_blast_aimed_at_one_large_character_loses_blast_and_deals_double() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "b", "wield = [\"bomb\"]"),
            who("ogre", "foes", "a", "size = \"large\""),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    // Only a large or massive character can be a blast's single target.
    t.expect_rejection(PCS, "attack bo with bomb", codes::BAD_TARGET);
    // bo could guard the ogre and declines.
    t.cmds(&["attack ogre with bomb", "decline"]);
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(id(&t, "ogre")));
    t.dice(&[4]).cmd("take");
    assert_eq!(damage(&t), [("ogre".to_string(), 8)]);
    assert_eq!((ch(&t, "ogre").health, ch(&t, "bo").health), (12, 10));
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// Stunts (MUR-R32)

fn duel(head: &str, options: &str, ash: &str, bo: &str) -> Table<Murdham> {
    let toml = enc(
        head,
        options,
        &[who("ash", "pcs", "a", ash), who("bo", "foes", "a", bo)].concat(),
    );
    Table::<Murdham>::load(&toml, &[], &[])
}

fn stunts(t: &Table<Murdham>) -> Vec<(String, Option<bool>)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Stunt { effect, accepted, .. } => Some((effect.clone(), *accepted)),
            _ => None,
        })
        .collect()
}

#[test]
fn mur_r32_an_approved_stunt_accepted_by_the_target_replaces_the_damage_and_any_reaction() {
    let mut t = duel(PCS_FIRST, "", "wield = [\"martial-hand\"]", "");
    t.cmd("act ash");
    t.cmd("attack bo stunt knocks him into the mud");
    // The GM approves first, then the target answers; it cannot dodge instead.
    assert_eq!(
        t.game.pending().map(|p| (p.first(), p.kind())),
        Some((GM, "stunt-approval"))
    );
    t.cmd("approve");
    assert_eq!(t.game.pending().map(|p| (p.first(), p.kind())), Some((FOES, "stunt")));
    assert_eq!(t.legal(), ["accept", "refuse"]);
    t.expect_rejection(FOES, "dodge", codes::NOT_NOW);
    t.cmd("accept");
    assert_eq!(stunts(&t), [("knocks him into the mud".to_string(), Some(true))]);
    assert_eq!(damage(&t), []);
    assert_eq!(ch(&t, "bo").health, 10);
    assert!(t.last.iter().all(|e| !matches!(e, Event::Reacted { .. })));
    assert_eq!(asked(&t), Some("turn"));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r32_a_refused_stunt_is_resolved_as_a_normal_attack_the_target_may_dodge() {
    let mut t = duel(PCS_FIRST, "", "wield = [\"martial-hand\"]", "");
    t.cmd("act ash");
    t.cmds(&["attack bo stunt trips him", "approve", "refuse"]);
    assert_eq!(stunts(&t), [("trips him".to_string(), Some(false))]);
    assert_eq!(asked(&t), Some("reaction"));
    // AGI save 15 against 10 fails: the sword's d6 rolls 4.
    t.dice(&[15, 4]).cmd("dodge");
    assert_eq!(damage(&t), [("bo".to_string(), 4)]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r32_a_stunt_vetoed_by_the_gm_never_reaches_the_target_and_the_attack_deals_damage() {
    let mut t = duel(PCS_FIRST, "", "wield = [\"martial-hand\"]", "");
    t.cmd("act ash");
    t.cmd("attack bo stunt cuts his belt");
    t.expect_rejection(FOES, "accept", fray_engine::Reject::NOT_YOUR_DECISION);
    t.cmd("veto");
    assert_eq!(stunts(&t), [("cuts his belt".to_string(), None)]);
    assert_eq!(asked(&t), Some("reaction"));
    t.dice(&[2]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r32_a_stunt_comes_after_the_to_hit_save_a_miss_asks_nobody() {
    let mut t = duel(PCS_FIRST, "", "wield = [\"martial-hand\"]", "");
    // The GM's ruling asks a WIT save of ash's next attack (MUR-H6): 14 against 10 misses.
    t.cmd("gm hinder ash");
    t.cmd("act ash");
    t.dice(&[14]).cmd("attack bo stunt knocks him into the mud");
    assert_eq!(saves(&t), [("ash".to_string(), 14, false)]);
    assert_eq!(stunts(&t), []);
    assert_eq!(asked(&t), Some("turn"));
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Disarm and grapple (MUR-R34, MUR-R35, MUR-R59)

#[test]
fn mur_r34_a_failed_str_save_drops_the_weapon_the_attacker_chose_a_passed_one_keeps_it() {
    let mut t = duel(
        PCS_FIRST,
        "",
        "wield = [\"martial-hand\"]",
        "wield = [\"martial-hand\", \"shield\"]",
    );
    t.cmd("act ash");
    t.cmd("disarm bo shield");
    // A non-lethal attack may be dodged (MUR-R33): bo takes it and saves STR: 15 fails.
    t.dice(&[15]).cmd("take");
    assert_eq!(saves(&t), [("bo".to_string(), 15, false)]);
    assert_eq!(damage(&t), []);
    assert_eq!(in_hands(&t, "bo"), ["martial-hand"]);
    assert_eq!(t.state().ground.len(), 1);
    assert_eq!(t.state().ground[0].1.id, "shield");
    t.assert_replays();

    let mut t = duel(
        PCS_FIRST,
        "",
        "wield = [\"martial-hand\"]",
        "wield = [\"martial-hand\"]",
    );
    t.cmds(&["act ash", "disarm bo martial-hand"]);
    t.dice(&[10]).cmd("take");
    assert_eq!(saves(&t), [("bo".to_string(), 10, true)]);
    assert_eq!(in_hands(&t, "bo"), ["martial-hand"]);
    assert!(t.state().ground.is_empty());
    t.assert_dice_used();
}

#[test]
fn mur_r59_the_disarm_skill_leaves_no_save_unless_the_target_has_it_too() {
    // ash has the skill, bo not: no save, bo drops its sword.
    let mut t = duel(PCS_FIRST, "", "skills = [\"disarm\"]", "wield = [\"martial-hand\"]");
    t.cmds(&["act ash", "disarm bo martial-hand", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 0, false)]);
    assert_eq!(in_hands(&t, "bo"), Vec::<String>::new());
    // bo has it and ash not: bo cannot be disarmed.
    let mut t = duel(PCS_FIRST, "", "", "wield = [\"martial-hand\"]\nskills = [\"disarm\"]");
    t.cmds(&["act ash", "disarm bo martial-hand", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 0, true)]);
    assert_eq!(in_hands(&t, "bo"), ["martial-hand"]);
    // Both have it: an ordinary save.
    let mut t = duel(
        PCS_FIRST,
        "",
        "skills = [\"disarm\"]",
        "wield = [\"martial-hand\"]\nskills = [\"disarm\"]",
    );
    t.cmds(&["act ash", "disarm bo martial-hand"]);
    t.dice(&[11]).cmd("take");
    assert_eq!(saves(&t), [("bo".to_string(), 11, false)]);
    assert_eq!(in_hands(&t, "bo"), Vec::<String>::new());
    t.assert_dice_used();
}

#[test]
fn mur_r35_a_failed_str_save_against_a_grapple_leaves_the_target_grabbed_and_entangled() {
    let mut t = duel(PCS_FIRST, "", "", "");
    t.cmd("act ash");
    // A grapple is an attack: the main action.
    t.dice(&[12]).cmds(&["grapple bo", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 12, false)]);
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    assert_eq!(damage(&t), []);
    t.expect_rejection(PCS, "grapple bo", codes::NO_ACTION);
    t.cmd("end");
    // MUR-R39: entangled, bo may only spend its turn trying to break free.
    t.cmd("act bo");
    t.expect_rejection(FOES, "attack ash", codes::ENTANGLED);
    t.expect_rejection(FOES, "move b", codes::ENTANGLED);
    t.assert_replays();

    let mut t = duel(PCS_FIRST, "", "", "");
    t.cmd("act ash");
    t.dice(&[3]).cmds(&["grapple bo", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 3, true)]);
    assert_eq!(holder(&t, "bo"), None);
    t.assert_dice_used();
}

#[test]
fn mur_r59_a_large_ogre_without_wrestling_grabs_a_medium_human_with_no_save_and_cannot_be_grabbed() {
    let toml = enc(
        FOES_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("ogre", "foes", "a", "str = 14\nsize = \"large\""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // cy could guard ash (MUR-R24) and declines.
    t.cmds(&["act ogre", "grapple ash", "decline", "take"]);
    assert_eq!(saves(&t), [("ash".to_string(), 0, false)], "no die: size decides");
    assert_eq!(holder(&t, "ash").as_deref(), Some("ogre"));
    // A larger grabber may act freely without letting go.
    t.cmd("say");
    assert_eq!(holder(&t, "ash").as_deref(), Some("ogre"));
    t.cmd("end");
    // The human's grapple against the ogre always fails.
    t.cmds(&["act cy", "grapple ogre"]);
    assert_eq!(saves(&t), [("ogre".to_string(), 0, true)]);
    assert_eq!(holder(&t, "ogre"), None);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r59_wrestling_leaves_no_save_against_a_grapple_and_skilled_wrestlers_are_grabbed_only_by_their_like() {
    let mut t = duel(PCS_FIRST, "", "skills = [\"wrestling\"]", "");
    t.cmds(&["act ash", "grapple bo", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 0, false)]);
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    let mut t = duel(PCS_FIRST, "", "", "skills = [\"wrestling\"]");
    t.cmds(&["act ash", "grapple bo", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 0, true)]);
    assert_eq!(holder(&t, "bo"), None);
    // MUR-R59 [A]: size comes before the skill: a small wrestler still fails against a
    // medium grabber's grapple.
    let mut t = duel(PCS_FIRST, "", "", "skills = [\"wrestling\"]\nsize = \"small\"");
    t.cmds(&["act ash", "grapple bo", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 0, false)]);
    t.assert_dice_used();
}

#[test]
fn mur_r59_a_larger_grabber_throws_the_grabbed_up_to_range_2_for_d4_direct_a_medium_one_cannot() {
    let toml = enc(
        FOES_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "armour = \"heavy\""),
            who("ogre", "foes", "a", "str = 14\nsize = \"large\""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ogre", "grapple ash", "take", "end"]);
    // ash cannot break free from a larger holder (size decides the save).
    t.cmds(&["act ash", "break-free"]);
    assert_eq!(saves(&t), [("ash".to_string(), 0, false)]);
    // Round 2: the ogre throws ash two zones away (a -> b -> g): d4 3, direct, so the heavy
    // armour does not count.
    t.cmd("act ogre");
    t.dice(&[3]).cmd("throw ash g");
    assert_eq!(ch(&t, "ash").at, place(&t, "g"));
    assert_eq!(holder(&t, "ash"), None);
    let hit: Vec<(i32, i32)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { amount, armour, .. } => Some((*amount, *armour)),
            _ => None,
        })
        .collect();
    assert_eq!(hit, [(3, 0)]);
    t.assert_dice_used();
    t.assert_replays();

    // A medium grabber holding a medium character cannot throw it.
    let mut t = held("a", "");
    t.expect_rejection(PCS, "throw bo b", codes::NOT_ALLOWED);
}

// ---------------------------------------------------------------------------------------------
// Shove, entangled, break free, free (MUR-R37, MUR-R39)

/// ash holds bo in zone `zone`, and the next round has begun with ash to act (round 2).
fn held(zone: &str, bo: &str) -> Table<Murdham> {
    let toml = enc(
        PCS_FIRST,
        "",
        &[who("ash", "pcs", zone, ""), who("bo", "foes", zone, bo)].concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    t.dice(&[20]).cmds(&["grapple bo", "take", "end", "act bo"]);
    // bo's try to break free: 20 fails.
    t.dice(&[20]).cmd("break-free");
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    assert_eq!(t.state().round, 2);
    t.cmd("act ash");
    t
}

#[test]
fn mur_r37_a_shove_releases_the_grabbed_and_moves_it_half_a_zone_as_the_main_action() {
    let mut t = held("a", "");
    // Half a zone: onto a border of its zone, not a whole zone.
    t.expect_rejection(PCS, "shove bo b", codes::BAD_MOVE);
    t.cmd("shove bo a|b");
    assert_eq!(ch(&t, "bo").at, place(&t, "a|b"));
    assert_eq!(holder(&t, "bo"), None);
    assert_eq!(ch(&t, "ash").at, place(&t, "a"), "the shover stays");
    // MUR-R37 [A]: the shove was the main action.
    t.expect_rejection(PCS, "attack bo", codes::NO_ACTION);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r37_a_shove_into_a_hazard_of_the_zone_deals_its_die_as_direct_damage() {
    let mut t = held("c", "armour = \"heavy\"");
    t.dice(&[2]).cmd("shove bo hazard");
    let hits: Vec<(String, i32, i32)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Damaged {
                who, amount, armour, ..
            } => Some((name(&t, *who), *amount, *armour)),
            _ => None,
        })
        .collect();
    assert_eq!(hits, [("bo".to_string(), 2, 0)]);
    assert_eq!(holder(&t, "bo"), None);
    t.assert_dice_used();

    // No hazard where bo stands: refused.
    let mut t = held("a", "");
    t.expect_rejection(PCS, "shove bo hazard", codes::NOT_ALLOWED);
}

#[test]
fn mur_r39_breaking_free_takes_the_whole_turn_on_a_str_save() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    t.dice(&[20]).cmds(&["grapple bo", "take", "end", "act bo"]);
    // Only on a fresh turn: the whole turn.
    t.dice(&[7]).cmd("break-free");
    assert_eq!(saves(&t), [("bo".to_string(), 7, true)]);
    assert_eq!(holder(&t, "bo"), None);
    assert!(t.last.iter().any(|e| matches!(e, Event::TurnEnded { .. })));
    assert!(t.state().turn.is_none());
    assert_eq!(t.state().round, 2);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r39_a_nearby_character_frees_the_entangled_with_a_main_action_and_a_str_save() {
    let toml = enc(
        FOES_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act bo");
    // cy declines to guard; ash takes the grapple (it could dodge), fails its save and is
    // held by bo.
    t.dice(&[18]).cmds(&["grapple ash", "decline", "take"]);
    assert_eq!(holder(&t, "ash").as_deref(), Some("bo"));
    t.cmds(&["end", "act cy"]);
    // A failed save: ash stays held, and cy's main action is spent.
    t.dice(&[13]).cmd("free ash");
    assert_eq!(saves(&t), [("cy".to_string(), 13, false)]);
    assert_eq!(holder(&t, "ash").as_deref(), Some("bo"));
    t.expect_rejection(PCS, "free ash", codes::NO_ACTION);
    // ash waits; round 2: the foes first, bo waits; cy tries again and passes.
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmds(&["pass", "act cy"]);
    t.dice(&[4]).cmd("free ash");
    assert_eq!(saves(&t), [("cy".to_string(), 4, true)]);
    assert_eq!(holder(&t, "ash"), None);
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// Sneaking (MUR-R40 to MUR-R42, MUR-R57)

fn revealed(t: &Table<Murdham>) -> Vec<String> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Revealed { who, .. } => Some(name(t, *who)),
            _ => None,
        })
        .collect()
}

#[test]
fn mur_r40_r41_concealed_ambushers_take_a_bonus_turn_before_round_1_and_their_victims_cannot_react() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cut", "foes", "a", "concealed = true\nwield = [\"martial-hand\"]"),
            who("bo", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::PhaseStarted {
            phase: Phase::Ambush,
            ..
        }
    )));
    assert_eq!((t.state().round, t.state().phase), (0, Phase::Ambush));
    // The pcs have nobody concealed and pass by themselves; only the concealed act.
    assert_eq!(t.game.pending().map(|p| (p.first(), p.kind())), Some((FOES, "faction")));
    t.expect_rejection(FOES, "act bo", codes::CANNOT_ACT);
    t.cmd("act cut");
    // MUR-R41: ash is surprised: no reaction is asked, the sword lands at once.
    t.dice(&[3]).cmd("attack ash");
    assert!(t.last.iter().all(|e| !matches!(e, Event::Reacted { .. })));
    assert_eq!(damage(&t), [("ash".to_string(), 3)]);
    // MUR-R42: attacking revealed cut.
    assert_eq!(revealed(&t), ["cut"]);
    assert!(!ch(&t, "cut").concealed);
    t.cmd("end");
    // MUR-R40 [A]: the bonus turn does not replace cut's round-1 turn.
    assert_eq!((t.state().round, t.state().phase), (1, Phase::Round));
    t.cmds(&["act ash", "end"]);
    t.cmd("act cut");
    assert_eq!(t.state().turn.as_ref().map(|x| x.who), Some(id(&t, "cut")));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r40_r42_a_revealed_ambusher_still_meets_no_reaction_in_the_bonus_turn() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cut", "foes", "b", "concealed = true\nwield = [\"martial-hand\"]"),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act cut");
    // MUR-R42 [A]: moving without sneaking reveals the mover.
    t.cmd("move a");
    assert_eq!(revealed(&t), ["cut"]);
    // No surprise now, but ash, who is not concealed, cannot react in the bonus turn
    // (MUR-R40 [A]): the blow lands without a question.
    t.dice(&[2]).cmd("attack ash");
    assert_eq!(damage(&t), [("ash".to_string(), 2)]);
    assert_eq!(asked(&t), Some("turn"));
    t.assert_dice_used();
}

#[test]
fn mur_r41_an_enemy_attacked_by_a_concealed_character_cannot_react_even_with_its_turn_unspent() {
    for concealed in [false, true] {
        let toml = enc(
            PCS_FIRST,
            "",
            &[
                who("ash", "pcs", "a", ""),
                who("cut", "foes", "a", "wield = [\"martial-hand\"]"),
            ]
            .concat(),
        );
        let mut t = Table::<Murdham>::load(&toml, &[], &[]);
        if concealed {
            t.cmd("gm conceal cut on");
        }
        t.cmds(&["pass", "act cut"]);
        if concealed {
            // ash has not had its turn, yet no reaction is asked: the blow lands at once.
            t.dice(&[4]).cmd("attack ash");
            assert_eq!(revealed(&t), ["cut"]);
        } else {
            t.cmd("attack ash");
            assert_eq!(asked(&t), Some("reaction"));
            assert!(t.legal().contains(&"dodge".to_string()));
            t.dice(&[4]).cmd("take");
        }
        assert_eq!(damage(&t), [("ash".to_string(), 4)]);
        assert_eq!(asked(&t), Some("turn"));
        t.assert_dice_used();
        t.assert_replays();
    }
}

#[test]
fn mur_r42_a_passed_sneak_keeps_a_mover_concealed_a_failed_one_or_talk_reveals_it() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cut", "foes", "b", "concealed = true\nagi = 12"),
            who("kit", "foes", "b", "concealed = true"),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act cut");
    // AGI save 12 against 12 passes: cut stays concealed in its new place.
    t.dice(&[12]).cmd("move a|b sneak");
    assert_eq!(saves(&t), [("cut".to_string(), 12, true)]);
    assert!(ch(&t, "cut").concealed);
    assert_eq!(ch(&t, "cut").at, place(&t, "a|b"));
    // Talking reveals.
    t.cmd("say");
    assert_eq!(revealed(&t), ["cut"]);
    t.cmds(&["end", "act kit"]);
    // 11 against 10 fails: kit is revealed.
    t.dice(&[11]).cmd("move a|b sneak");
    assert_eq!(saves(&t), [("kit".to_string(), 11, false)]);
    assert_eq!(revealed(&t), ["kit"]);
    // Only a concealed character sneaks.
    t.expect_rejection(FOES, "move b sneak", codes::NOT_ALLOWED);
    t.assert_dice_used();
    t.assert_replays();
}

/// The ids of the characters in `seat`'s view, as the seat is sent it.
fn view_ids(t: &Table<Murdham>, seat: Seat) -> Vec<String> {
    let v = serde_json::to_value(Murdham::view(t.state(), seat)).expect("a view serialises");
    v["characters"]
        .as_array()
        .expect("characters")
        .iter()
        .map(|c| c["id"].as_str().expect("an id").to_string())
        .collect()
}

/// An ambush by a concealed PC (`pc`, weaker than anyone) standing in `pc_at`, an AI bandit in
/// `a` and a visible PC `ally` in `a`.
fn hidden_pc(pc_at: &str) -> Table<Murdham> {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who(
                "pc",
                "pcs",
                pc_at,
                "str = 3\nconcealed = true\nwield = [\"martial-hand\"]",
            ),
            who("ally", "pcs", "a", ""),
            who("bandit", "foes", "a", "wield = [\"martial-hand\"]"),
        ]
        .concat(),
    )
    .replace("id = \"foes\"\n", "id = \"foes\"\npolicy = \"heuristic\"\n");
    Table::<Murdham>::load(&toml, &[], &[])
}

#[test]
fn mur_r57_a_concealed_pc_is_absent_from_the_bandit_seats_view_and_targets_until_it_attacks() {
    let mut t = hidden_pc("a");
    assert_eq!(view_ids(&t, FOES), ["ally", "bandit"]);
    assert_eq!(view_ids(&t, PCS), ["pc", "ally", "bandit"]);
    assert_eq!(view_ids(&t, GM), ["pc", "ally", "bandit"]);
    // The pc lets the bonus turn go by, and waits in round 1; the bandit takes its turn.
    t.cmds(&["pass", "pass", "act bandit"]);
    assert_eq!(t.state().round, 1);
    let legal = t.legal();
    assert!(legal.contains(&"attack ally".to_string()), "{legal:?}");
    assert!(
        legal.iter().all(|c| !c.split_whitespace().any(|w| w == "pc")),
        "{legal:?}"
    );
    t.expect_rejection(FOES, "attack pc", codes::BAD_TARGET);
    assert_eq!(view_ids(&t, FOES), ["ally", "bandit"]);
    t.cmd("end");
    // The pc attacks the bandit: revealed, it appears in the bandit seat's view.
    t.cmd("act pc");
    t.dice(&[2]).cmd("attack bandit");
    assert_eq!(revealed(&t), ["pc"]);
    assert_eq!(view_ids(&t, FOES), ["pc", "ally", "bandit"]);
    t.cmds(&["end", "act ally", "end"]);
    // Round 2: the bandit may now attack the pc.
    assert_eq!(t.state().round, 2);
    t.cmds(&["pass", "act bandit"]);
    assert!(t.legal().contains(&"attack pc".to_string()), "{:?}", t.legal());
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r57_the_ai_bandit_chooses_the_same_whether_the_concealed_pc_stands_in_its_zone_or_not() {
    use fray_engine::text::TextRuleset;
    let choices = |pc_at: &str| -> Vec<String> {
        let mut t = hidden_pc(pc_at);
        t.cmds(&["pass", "pass"]);
        let mut ai = Murdham::heuristic();
        let mut rng = fray_dice::Prng::for_stream(1, 0);
        let mut out = Vec::new();
        while t.game.pending().is_some_and(|p| p.first() == FOES) && out.len() < 6 {
            let (seat, c) = fray_engine::choose_first(&mut *ai, t.state(), &mut rng).expect("a choice");
            out.push(Murdham::format_command(t.state(), &c));
            t.game.submit(seat, c).expect("the AI's command is accepted");
        }
        out
    };
    let near = choices("a");
    // The pc is the weakest enemy: an AI that saw it in its zone would strike it instead.
    assert_eq!(near, ["act bandit", "attack ally"]);
    assert_eq!(choices("b"), near);
    assert_eq!(choices("d"), near);
}

// ---------------------------------------------------------------------------------------------
// Morale and surrender (MUR-R43 to MUR-R46)

/// A group save: the d20, each member with its pass, and why.
type GroupSave = (u16, Vec<(String, bool)>, Why);

/// The group saves of the last command.
fn group_saves(t: &Table<Murdham>) -> Vec<GroupSave> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::GroupSave { roll, members, why } => Some((
                *roll,
                members.iter().map(|(c, _, pass)| (name(t, *c), *pass)).collect(),
                *why,
            )),
            _ => None,
        })
        .collect()
}

fn status(t: &Table<Murdham>, x: &str) -> Status {
    ch(t, x).status
}

#[test]
fn mur_r44_a_group_wit_12_6_and_9_rolling_9_keeps_12_and_9_for_the_stretch_and_6_gives_up() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"simple-hand\"]"),
            who("m12", "foes", "a", "wit = 12"),
            who("m6", "foes", "a", "wit = 6"),
            who("m9", "foes", "a", "wit = 9"),
            who("x1", "foes", "b", ""),
            who("x2", "foes", "b", ""),
            who("x3", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // Half the group leaves: 3 of 6 (MUR-R43).
    t.cmds(&["gm remove x1", "gm remove x2", "gm remove x3", "pass"]);
    // MUR-R5, MUR-R44: at the end of the round, one d20 for the whole group.
    t.dice(&[9]).cmd("pass");
    assert_eq!(
        group_saves(&t),
        [(
            9,
            vec![
                ("m12".to_string(), true),
                ("m6".to_string(), false),
                ("m9".to_string(), true)
            ],
            Why::Morale
        )]
    );
    assert!(ch(&t, "m12").morale_proof && ch(&t, "m9").morale_proof && !ch(&t, "m6").morale_proof);
    // The WIT 6 member must surrender or retreat.
    assert_eq!(t.game.pending().map(|p| (p.first(), p.kind())), Some((FOES, "morale")));
    assert_eq!(t.legal(), ["surrender", "retreat"]);
    t.cmd("surrender");
    assert_eq!(status(&t, "m6"), Status::Surrendered);
    assert_eq!(t.state().round, 2);
    // MUR-R46: harmed by the enemy, the surrendered m6 fights again (and, MUR-H11, is not
    // checked again). m12 and m9 could guard it and decline.
    // m6 cannot react: the blow lands as soon as the guards have declined.
    t.cmds(&["act ash", "attack m6", "decline"]);
    t.dice(&[3]).cmd("decline");
    assert_eq!(damage(&t), [("m6".to_string(), 3)]);
    assert_eq!(status(&t, "m6"), Status::Up);
    assert!(t.last.iter().any(|e| matches!(e, Event::Resumed { .. })));
    // Round 2 ends with the group still at half: nobody is left to check, no die is rolled.
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 3);
    assert_eq!(group_saves(&t), []);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r43_a_group_checks_only_once_down_to_half_its_original_number() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("f1", "foes", "b", ""),
            who("f2", "foes", "b", ""),
            who("f3", "foes", "b", ""),
            who("f4", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // 3 of 4 left: no check (a die asked here would make the command fail).
    t.cmds(&["gm remove f4", "pass", "pass"]);
    assert_eq!(t.state().round, 2);
    assert_eq!(group_saves(&t), []);
    // 2 of 4: the group checks; 15 fails both.
    t.cmd("gm remove f3");
    t.cmd("pass");
    t.dice(&[15]).cmd("pass");
    assert_eq!(
        group_saves(&t),
        [(
            15,
            vec![("f1".to_string(), false), ("f2".to_string(), false)],
            Why::Morale
        )]
    );
    t.cmds(&["retreat", "surrender"]);
    assert_eq!(
        (status(&t, "f1"), status(&t, "f2")),
        (Status::Fled, Status::Surrendered)
    );
    assert!(t.state().outcome.is_some(), "nobody of the foes fights on");
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r43_a_lone_fighter_checks_once_damage_leaves_it_at_half_health() {
    let toml = enc(
        FOES_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "helmet = true"),
            who("bo", "foes", "a", "wield = [\"martial-hand\"]"),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // 5 of 10: not critical (the helmet puts that at 6), but half health.
    t.cmds(&["act bo", "attack ash"]);
    t.dice(&[5]).cmd("take");
    assert_eq!((ch(&t, "ash").health, status(&t, "ash")), (5, Status::Up));
    t.cmds(&["end", "act ash"]);
    // WIT save 4 against 10 passes: ash fights on and never checks again.
    t.dice(&[4]).cmd("end");
    assert_eq!(group_saves(&t), [(4, vec![("ash".to_string(), true)], Why::Morale)]);
    t.cmds(&["pass", "pass"]);
    assert_eq!(t.state().round, 3);
    assert_eq!(group_saves(&t), []);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r45_the_fearless_never_check_morale() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("brave", "foes", "b", "skills = [\"bravery\"]"),
            who("mindless", "foes", "b", "mind = \"mindless\""),
            who("bones", "foes", "b", "kind = \"undead\""),
            who("rager", "foes", "b", "skills = [\"frenzied\"]"),
            who("plain", "foes", "b", ""),
            who("x1", "foes", "d", ""),
            who("x2", "foes", "d", ""),
            who("x3", "foes", "d", ""),
            who("x4", "foes", "d", ""),
            who("x5", "foes", "d", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&[
        "gm remove x1",
        "gm remove x2",
        "gm remove x3",
        "gm remove x4",
        "gm remove x5",
        "pass",
    ]);
    t.dice(&[3]).cmd("pass");
    assert_eq!(group_saves(&t), [(3, vec![("plain".to_string(), true)], Why::Morale)]);
    t.assert_dice_used();
}

#[test]
fn mur_r46_surrender_takes_the_whole_turn_and_harm_from_the_enemy_ends_it() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "b", ""),
            who("bo", "foes", "a", "wield = [\"martial-hand\"]"),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "say"]);
    t.expect_rejection(PCS, "surrender", codes::NO_ACTION);
    t.cmd("end");
    t.cmds(&["pass", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmds(&["act ash", "surrender"]);
    assert_eq!(status(&t, "ash"), Status::Surrendered);
    assert!(t.state().turn.is_none(), "the turn is over");
    // bo strikes the surrendered ash, who cannot react: ash fights again.
    t.cmd("act bo");
    t.dice(&[2]).cmd("attack ash");
    assert_eq!(damage(&t), [("ash".to_string(), 2)]);
    assert_eq!(status(&t, "ash"), Status::Up);
    assert!(ch(&t, "ash").morale_proof);
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// Long chases (MUR-R47)

fn chase() -> Table<Murdham> {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "b", "agi = 12"),
            who("cy", "foes", "b", "agi = 6"),
        ]
        .concat(),
    );
    Table::<Murdham>::load(&toml, &[], &[])
}

#[test]
fn mur_r47_a_long_chase_at_even_pace_is_one_group_agi_save_who_fails_is_caught() {
    let mut t = chase();
    t.dice(&[9]).cmd("gm chase foes even");
    assert_eq!(
        group_saves(&t),
        [(9, vec![("bo".to_string(), true), ("cy".to_string(), false)], Why::Chase)]
    );
    assert_eq!((status(&t, "bo"), status(&t, "cy")), (Status::Fled, Status::Up));
    assert!(t.state().outcome.is_none());
    // Not in the middle of a turn.
    t.cmd("act ash");
    t.expect_rejection(GM, "gm chase foes even", codes::BAD_RULING);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r47_a_faster_side_escapes_without_a_save_and_a_slower_one_cannot() {
    let mut t = chase();
    t.cmd("gm chase foes faster");
    assert_eq!(group_saves(&t), []);
    assert_eq!((status(&t, "bo"), status(&t, "cy")), (Status::Fled, Status::Fled));
    assert_eq!(t.state().outcome.as_ref().and_then(|o| o.winner), Some(0));
    let mut t = chase();
    t.cmd("gm chase foes slower");
    assert_eq!(group_saves(&t), []);
    assert_eq!((status(&t, "bo"), status(&t, "cy")), (Status::Up, Status::Up));
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Gear degradation (MUR-R48 to MUR-R51, MUR-H25)

/// The durability rolls of the last command: whose, which item (none: armour), die, faces.
fn durability(t: &Table<Murdham>) -> Vec<(String, Option<u8>, u16, u16)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Durability { who, item, roll, sides } => Some((name(t, *who), *item, *roll, *sides)),
            _ => None,
        })
        .collect()
}

/// What wore out in the last command: whose, the item's name, destroyed.
fn worn(t: &Table<Murdham>) -> Vec<(String, String, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Worn {
                who,
                name: n,
                destroyed,
                ..
            } => Some((name(t, *who), n.clone(), *destroyed)),
            _ => None,
        })
        .collect()
}

#[test]
fn mur_r48_after_the_fight_used_weapons_and_hit_armour_roll_1_in_4_and_a_1_damages_them() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who(
                "ash",
                "pcs",
                "a",
                "wield = [\"martial-hand\"]\ncarry = [\"simple-hand\"]\narmour = \"light\"",
            ),
            who("bo", "foes", "a", "armour = \"light\""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    // bo leaves: the fight is over. ash's sword attacked (the club it carries did not, and its
    // armour was never hit); bo's armour was hit.
    t.dice(&[1, 1]).cmd("gm remove bo");
    assert_eq!(
        durability(&t),
        [("ash".to_string(), Some(0), 1, 4), ("bo".to_string(), None, 1, 4)]
    );
    assert_eq!(
        worn(&t),
        [
            ("ash".to_string(), "sword".to_string(), false),
            ("bo".to_string(), "armour".to_string(), false)
        ]
    );
    assert!(ch(&t, "ash").items[0].damaged && ch(&t, "bo").armour_damaged);
    assert!(t.state().outcome.is_some());
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r48_a_damaged_item_that_fails_again_is_destroyed_and_robust_items_roll_1_in_8() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"rusty\"]"),
            who("cy", "pcs", "a", "wield = [\"maul\"]"),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // Fragile: it starts damaged.
    assert!(ch(&t, "ash").items[0].damaged);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[2]).cmd("take");
    t.cmds(&["end", "pass", "act cy", "attack bo"]);
    t.dice(&[2]).cmd("take");
    assert_eq!(ch(&t, "bo").health, 6);
    t.dice(&[1, 1]).cmd("gm remove bo");
    assert_eq!(
        durability(&t),
        [("ash".to_string(), Some(0), 1, 4), ("cy".to_string(), Some(0), 1, 8)]
    );
    assert_eq!(
        worn(&t),
        [
            ("ash".to_string(), "rusty sword".to_string(), true),
            ("cy".to_string(), "iron maul".to_string(), false)
        ]
    );
    assert_eq!(ch(&t, "ash").live_items().count(), 0, "the item is gone");
    assert!(ch(&t, "cy").items[0].damaged);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_h25_a_shield_that_gave_its_plus_1_makes_its_durability_roll_after_the_fight() {
    // bo holds a sword and a shield (items 0 and 1), or two shields.
    let fight = |bo: &str, options: &str| {
        let toml = enc(
            PCS_FIRST,
            options,
            &[
                who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
                who("bo", "foes", "a", bo),
            ]
            .concat(),
        );
        let mut t = Table::<Murdham>::load(&toml, &[], &[]);
        t.cmds(&["act ash", "attack bo"]);
        t
    };
    let sword_and_shield = "wield = [\"martial-hand\", \"shield\"]";
    let rolls = |t: &Table<Murdham>| -> Vec<(String, Option<u8>)> {
        durability(t).into_iter().map(|(w, i, _, _)| (w, i)).collect()
    };
    let ash_sword = || ("ash".to_string(), Some(0));
    // bo dodges and fails: its shield gives its +1 against the hit, and is used.
    let mut t = fight(sword_and_shield, "");
    t.dice(&[15, 3]).cmd("dodge");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    t.dice(&[2, 3]).cmd("gm remove bo");
    assert_eq!(rolls(&t), [ash_sword(), ("bo".to_string(), Some(1))]);
    t.assert_dice_used();
    t.assert_replays();
    // bo takes the hit without reacting: the shield gives nothing, and makes no roll.
    let mut t = fight(sword_and_shield, "");
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    t.dice(&[2]).cmd("gm remove bo");
    assert_eq!(rolls(&t), [ash_sword()]);
    t.assert_dice_used();
    // bo dodges and passes: no hit, nothing used.
    let mut t = fight(sword_and_shield, "");
    t.dice(&[5]).cmd("dodge");
    t.dice(&[2]).cmd("gm remove bo");
    assert_eq!(rolls(&t), [ash_sword()]);
    t.assert_dice_used();
    // Two shields give +1 against every attack: both gave it, and both roll (a 1 damages the
    // second).
    let two = "wield = [\"shield\", \"shield\"]";
    let mut t = fight(two, "");
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    t.dice(&[2, 2, 1]).cmd("gm remove bo");
    assert_eq!(
        rolls(&t),
        [ash_sword(), ("bo".to_string(), Some(0)), ("bo".to_string(), Some(1))]
    );
    assert_eq!(worn(&t), [("bo".to_string(), "shield".to_string(), false)]);
    assert!(ch(&t, "bo").items[1].damaged && !ch(&t, "bo").items[0].damaged);
    t.assert_dice_used();
    t.assert_replays();
    // fray 0.1.0 counted only the first of two.
    let mut t = fight(two, "both-shields-used = false");
    t.dice(&[3]).cmd("take");
    t.dice(&[2, 2]).cmd("gm remove bo");
    assert_eq!(rolls(&t), [ash_sword(), ("bo".to_string(), Some(0))]);
    t.assert_dice_used();
}

#[test]
fn mur_r49_r51_an_improvised_weapon_is_already_damaged_and_breaks_when_its_die_shows_1() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"stool\"]"),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    assert!(
        ch(&t, "ash").items[0].damaged,
        "MUR-R51: improvised means already damaged"
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[1]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 1)]);
    assert_eq!(worn(&t), [("ash".to_string(), "stool".to_string(), true)]);
    assert_eq!(ch(&t, "ash").live_items().count(), 0, "the item is gone");
    t.assert_replays();

    // MUR-H25: a 1 rolled after a maximum does not count (4, then 1: 3 + 1 = 4).
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[4, 1]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 4)]);
    assert_eq!(worn(&t), []);
    assert_eq!(in_hands(&t, "ash"), ["stool"]);
    t.assert_dice_used();

    // An undamaged club rolling 1 is not hurt.
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"simple-hand\"]"),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[1]).cmd("take");
    assert_eq!(worn(&t), []);
    assert_eq!(in_hands(&t, "ash"), ["simple-hand"]);
    t.assert_dice_used();
}

#[test]
fn mur_r50_a_hit_of_8_before_armour_destroys_a_damaged_shield_which_still_protects_against_it() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"martial-great\"]"),
            who("bo", "foes", "a", "str = 19\nwield = [\"buckler\"]"),
        ]
        .concat(),
    );
    let hit = |t: &Table<Murdham>| -> Vec<(i32, i32, i32)> {
        t.last
            .iter()
            .filter_map(|e| match e {
                Event::Damaged {
                    raw, armour, amount, ..
                } => Some((*raw, *armour, *amount)),
                _ => None,
            })
            .collect()
    };
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    // bo dodges (so its shield counts) and fails (15); the greataxe's d8 rolls 8, then 1:
    // 7 + 1 = 8 before armour.
    t.dice(&[15, 8, 1]).cmd("dodge");
    assert_eq!(worn(&t), [("bo".to_string(), "old buckler".to_string(), true)]);
    assert_eq!(hit(&t), [(8, 1, 7)]);
    assert_eq!(in_hands(&t, "bo"), Vec::<String>::new());
    t.assert_replays();

    // 7 before armour leaves it.
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[15, 7]).cmd("dodge");
    assert_eq!(worn(&t), []);
    assert_eq!(hit(&t), [(7, 1, 6)]);
    assert_eq!(in_hands(&t, "bo"), ["buckler"]);
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Fast and slow activations (MUR-R52 to MUR-R54)

/// What happened in the whole game, compactly: phases (with the threshold), openings, turns,
/// reactions and passes.
fn trace(t: &Table<Murdham>) -> Vec<String> {
    let side = |i: &u8| t.state().setup.sides[*i as usize].id.clone();
    t.all_events()
        .iter()
        .filter_map(|e| match e {
            Event::RoundStarted { round } => Some(format!("round {round}")),
            Event::PhaseStarted { phase, fat } => Some(match fat {
                Some(f) => format!("{phase:?} phase, FAT {f}"),
                None => format!("{phase:?} phase"),
            }),
            Event::Opens { side: s } => Some(format!("{} open", side(s))),
            Event::TurnStarted { who } => Some(format!("{}'s turn", name(t, *who))),
            Event::Reacted { who, what, .. } => Some(format!("{} {what}", name(t, *who))),
            Event::Passed { side: s } => Some(format!("{} pass", side(s))),
            _ => None,
        })
        .collect()
}

#[test]
fn mur_r52_r53_r54_the_seeds_walk_through_fat_9_fast_then_slow_phase() {
    let toml = enc(
        PCS_FIRST,
        "fast-slow = true\nopener = \"choose\"",
        &[
            who("balthasar", "pcs", "a", "wit = 12"),
            who("sybilla", "pcs", "a", "wit = 6"),
            who("theobald", "pcs", "a", "wit = 9\nwield = [\"martial-hand\"]"),
            who("bandit-1", "foes", "a", "wit = 8"),
            who("bandit-2", "foes", "b", "wit = 8"),
            who("leader", "foes", "b", "wit = 10"),
        ]
        .concat(),
    );
    // MUR-R52: the round opens with the d20 for the fast action threshold: 9.
    let mut t = Table::<Murdham>::load(&toml, &[], &[9]);
    assert_eq!((t.state().phase, t.state().fat), (Phase::Fast, Some(9)));
    t.cmd("open pcs");
    // MUR-R53: only WIT 9 or more acts now (MUR-H15: Theobald's 9 equals the threshold).
    t.expect_rejection(PCS, "act sybilla", codes::CANNOT_ACT);
    t.cmd("act theobald");
    t.cmd("attack bandit-1");
    // MUR-R54: bandit-1 (WIT 8) may react in the fast phase: its AGI save 3 passes.
    t.dice(&[3]).cmd("dodge");
    assert_eq!(damage(&t), []);
    t.cmd("end");
    t.expect_rejection(FOES, "act bandit-2", codes::CANNOT_ACT);
    t.expect_rejection(FOES, "act bandit-1", codes::CANNOT_ACT);
    t.cmds(&["act leader", "end"]);
    // Balthasar could act but waits: the players pass, the bandits have nobody and pass.
    t.cmd("pass");
    assert_eq!(t.state().phase, Phase::Slow);
    t.cmd("open pcs");
    t.cmds(&["act sybilla", "end"]);
    // The dodging bandit used its turn.
    t.expect_rejection(FOES, "act bandit-1", codes::CANNOT_ACT);
    t.cmds(&["act bandit-2", "end", "act balthasar"]);
    // The next round's threshold (15) is rolled once both factions have passed.
    t.dice(&[15]).cmd("end");
    assert_eq!(
        trace(&t),
        [
            "round 1",
            "Fast phase, FAT 9",
            "pcs open",
            "theobald's turn",
            "bandit-1 dodges",
            "leader's turn",
            "pcs pass",
            "foes pass",
            "Slow phase",
            "pcs open",
            "sybilla's turn",
            "bandit-2's turn",
            "balthasar's turn",
            "foes pass",
            "pcs pass",
            "Morale phase",
            "round 2",
            "Fast phase, FAT 15",
        ]
    );
    // bandit-1 had no turn in either phase.
    assert!(
        t.all_events()
            .iter()
            .all(|e| !matches!(e, Event::TurnStarted { who } if *who == id(&t, "bandit-1")))
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r53_h15_with_fast_on_tie_off_a_wit_equal_to_the_threshold_waits_for_the_slow_phase() {
    let toml = enc(
        PCS_FIRST,
        "fast-slow = true\nfast-on-tie = false",
        &[who("ash", "pcs", "a", "wit = 9"), who("bo", "foes", "b", "wit = 9")].concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[9]);
    // Nobody is fast: both factions pass by themselves and the slow phase begins.
    assert_eq!(t.state().phase, Phase::Slow);
    t.cmds(&["act ash", "end", "act bo"]);
    t.dice(&[20]).cmd("end");
    assert_eq!((t.state().round, t.state().fat), (2, Some(20)));
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Non-lethal counters, holding on, hiding behind the held (MUR-R33, MUR-R36, MUR-R38)

#[test]
fn mur_r33_a_grapple_used_to_counter_is_resolved_after_the_attack_it_answers() {
    let mut t = duel(FOES_FIRST, "", "", "wield = [\"martial-hand\"]");
    t.cmds(&["act bo", "attack ash"]);
    // The sword's d6 rolls 2 first, then bo's STR save against the grapple: 15 fails.
    t.dice(&[2, 15]).cmd("counter grapple");
    let order: Vec<&str> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { .. } => Some("damage"),
            Event::Grab { by: Some(_), .. } => Some("grab"),
            _ => None,
        })
        .collect();
    assert_eq!(order, ["damage", "grab"]);
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r36_a_holder_drags_the_held_along_and_any_other_action_lets_go() {
    let mut t = held("a", "");
    t.cmd("move a|b");
    assert_eq!(ch(&t, "bo").at, place(&t, "a|b"));
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    // Talking is neither moving nor attacking the held: a medium holder lets go.
    t.cmd("say");
    assert_eq!(holder(&t, "bo"), None);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r38_a_grabber_hides_behind_the_character_it_holds_who_has_no_say() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "a", "wield = [\"martial-hand\"]"),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // cy declines to guard bo; bo fails its save (20) and is held.
    t.cmds(&["act ash", "grapple bo", "decline"]);
    t.dice(&[20]).cmd("take");
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    // Round 2: ash waits with its turn unspent; cy strikes at it.
    t.cmds(&["end", "pass", "pass", "act cy", "attack ash"]);
    assert_eq!(t.state().round, 2);
    // bo becomes the target without being asked, and, held, cannot react: d6 3.
    t.dice(&[3]).cmd("hide-behind bo");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    assert_eq!(ch(&t, "ash").health, 10);
    t.assert_dice_used();
    t.assert_replays();
}
