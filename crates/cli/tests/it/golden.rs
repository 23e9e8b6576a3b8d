//! Golden playthroughs: whole seeded combats of the shipped examples, stored as readable logs.
//! A change to the rules shows up here as a visible diff of the log (`cargo insta review`).

use std::path::Path;
use std::process::Command;

fn run(example: &str, seed: u64) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .args(["run", &format!("examples/{example}.toml"), "--seed", &seed.to_string()])
        .output()
        .expect("fray runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn golden_thrum_duel() {
    insta::assert_snapshot!("thrum-duel-seed-1", run("thrum/duel", 1));
    insta::assert_snapshot!("thrum-duel-seed-7", run("thrum/duel", 7));
}

#[test]
fn golden_thrum_skirmish() {
    insta::assert_snapshot!("thrum-skirmish-seed-3", run("thrum/skirmish", 3));
}

#[test]
fn golden_thrum_last_stand() {
    insta::assert_snapshot!("thrum-last-stand-seed-2", run("thrum/last-stand", 2));
}

#[test]
fn golden_thrum_ruins() {
    // Cover, areas, statuses, Buffs, Terrain Effects, Nova, Tier 1 enemies.
    insta::assert_snapshot!("thrum-ruins-seed-4", run("thrum/ruins", 4));
}

#[test]
fn golden_ingenuity_ambush() {
    // An ambush: the opening shot, surprise, intercepts and dodges, the multiple attack penalty.
    insta::assert_snapshot!("ingenuity-ambush-seed-5", run("ingenuity/ambush", 5));
}

#[test]
fn golden_ingenuity_night_raid() {
    insta::assert_snapshot!("ingenuity-night-raid-seed-8", run("ingenuity/night-raid", 8));
}

#[test]
fn golden_ingenuity_shrine() {
    insta::assert_snapshot!("ingenuity-shrine-seed-7", run("ingenuity/shrine", 7));
}

#[test]
fn golden_skeleton_duel() {
    insta::assert_snapshot!("skeleton-duel-seed-7", run("skeleton/duel", 7));
}

#[test]
fn golden_hallowed_earth_roadside() {
    // Shared initiative rolls, declarations and lowest-first counts, Repostes, critical hits
    // and injuries, morale and flight, a failed Heal check, Dying and death.
    insta::assert_snapshot!("hallowed-earth-roadside-seed-1", run("hallowed-earth/roadside", 1));
}

#[test]
fn golden_einfelst_tollwood() {
    // A successful ambush (an extra card for the ambushers, one card for a group), arrows in
    // the dark and against cover, poison, a failed crossing of the brambles, a spell and its
    // resist, fire, a critical injury.
    insta::assert_snapshot!("einfelst-tollwood-seed-31", run("einfelst/tollwood", 31));
}

#[test]
fn golden_einfelst_mill() {
    // A Fear test at the start, a creature with two cards, card swaps after a beaten attack,
    // thrown weapons that land and are picked up, poison, fire put out.
    insta::assert_snapshot!("einfelst-mill-seed-7", run("einfelst/mill", 7));
}

#[test]
fn golden_murdham_crossroads() {
    // An open fight: factions alternating and passing, counters (the one who would suffer more
    // is hit first; a first hit that fells stops the other), a free dodge (dodge blows),
    // exploding damage, critical damage, dying and death a round later, group morale saves that
    // hold, durability rolls.
    insta::assert_snapshot!("murdham-crossroads-seed-4", run("murdham/crossroads", 4));
}

#[test]
fn golden_murdham_mill_ambush() {
    // The ambush bonus turn of concealed outlaws (sneaking moves passed and failed, reveals,
    // attacks the targets cannot react to), a peek from behind a barrier, a garrotte left unused
    // once its wielder is seen (bare hands, impaired), counters, morale.
    insta::assert_snapshot!("murdham-mill-ambush-seed-4", run("murdham/mill-ambush", 4));
}

#[test]
fn golden_murdham_watchtower() {
    // Both optional rules on: a fast action threshold rolled each round and the fast and slow
    // phases; an ogre's doubled damage, the priest's profane powers, the swivel mortar's indirect
    // blast over the walls, a fire flask going astray into a neighbouring zone, a morale save.
    insta::assert_snapshot!("murdham-watchtower-seed-1", run("murdham/watchtower", 1));
}
