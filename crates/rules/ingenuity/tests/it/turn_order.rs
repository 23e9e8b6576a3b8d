//! Teams, initiative, rounds, surprise and objectives (ING-R1 to ING-R17, ING-R67, ING-R69,
//! ING-H1, ING-H22).

use crate::common;
use common::*;
use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_ingenuity::Ingenuity;
use fray_ingenuity::event::Event;
use fray_ingenuity::state::Phase;

/// The legal commands at a team's pick (asserting that a pick is pending).
fn picks(t: &T) -> Vec<String> {
    assert_eq!(t.pending().0, "pick", "expected a pick, got {:?}", t.pending());
    t.legal()
}

/// Picks a member and ends its turn at once.
fn pass_turn(t: &mut T, id: &str) {
    t.cmd(&format!("pick {id}"));
    t.cmd("end");
}

/// Who started a turn in every event so far, in order.
fn turns_so_far(t: &T) -> Vec<String> {
    t.all_events()
        .iter()
        .filter_map(|e| match e {
            Event::TurnStarted { who } => Some(t.s().info(*who).id.clone()),
            _ => None,
        })
        .collect()
}

/// The diagnostics of an encounter that does not load.
fn load_errors(toml: &str) -> Vec<String> {
    let src = SourceFile {
        name: "test.toml".into(),
        text: toml.into(),
    };
    let mut read = |p: &str| Err(format!("no file {p} in this test"));
    match Ingenuity::load(&src, &mut read) {
        Ok(_) => panic!("the encounter loaded"),
        Err(d) => d.iter().map(|x| x.to_string()).collect(),
    }
}

/// An encounter with its own team tables (instead of the standard two).
fn enc_teams(rows: &[&str], teams: &str, rest: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("  \"{r}\",")).collect();
    format!(
        "ruleset = \"ingenuity\"\ntitle = \"test\"\n\n[map]\nrows = [\n{}\n]\n{teams}\n{ITEMS}\n{rest}",
        rows.join("\n")
    )
}

/// No stamina: no reactions (so no Intercept or defence decisions to answer).
const NO_STAMINA: &str = "stamina = 1\nnow = { stamina = 0 }";

const ROW8: &[&str] = &[". . . . . . . .", ". . . . . . . .", ". . . . . . . ."];

/// Four players against two guards, in a row.
fn four_vs_two(initiative: &str) -> String {
    enc(
        ROW8,
        &format!(
            "{initiative}\n{}{}{}{}{}{}",
            who("p1", "pcs", "0,0", ""),
            who("p2", "pcs", "1,0", ""),
            who("p3", "pcs", "2,0", ""),
            who("p4", "pcs", "3,0", ""),
            who("g1", "foes", "6,2", ""),
            who("g2", "foes", "7,2", ""),
        ),
    )
}

// ---------------------------------------------------------------------------------------------
// Teams and slots
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r1_a_combatant_needs_exactly_one_team() {
    // No team at all: refused.
    let none = enc(ROW8, "[[combatant]]\nid = \"a\"\nat = \"0,0\"\n");
    let e = load_errors(&none);
    assert!(e.iter().any(|m| m.contains("needs team")), "{e:?}");
    // Two teams at once: refused (a team is one name).
    let two = enc(
        ROW8,
        "[[combatant]]\nid = \"a\"\nteam = [\"pcs\", \"foes\"]\nat = \"0,0\"\n",
    );
    assert!(!load_errors(&two).is_empty());
    // With one team each, every combatant is on exactly that team.
    let t = T::new(&four_vs_two(""));
    assert_eq!(t.s().team(t.id("p1")), 0);
    assert_eq!(t.s().team(t.id("g2")), 1);
}

#[test]
fn ing_r2_ing_r3_the_team_that_started_the_fight_picks_first_then_the_attacked_team() {
    // ING-R2, ING-R3
    // The guards (listed second in the file) started the fight by attacking the players.
    let t = T::new(&four_vs_two("[initiative]\nstarted-by = \"foes\"\nattacked = \"pcs\""));
    assert_eq!(t.s().order.slots(), &[1, 0]);
    assert_eq!(picks(&t), vec!["pick g1", "pick g2"]);
    let mut t = t;
    pass_turn(&mut t, "g2");
    assert_eq!(picks(&t), vec!["pick p1", "pick p2", "pick p3", "pick p4"]);

    // With three teams the file order does not decide either: the wolves (listed last) start
    // the fight against the foes (listed second), who take slot 2 ahead of the players.
    let teams = format!("{TEAMS}\n[[team]]\nid = \"wolves\"\nseat = \"gm\"\n");
    let toml = enc_teams(
        ROW8,
        &teams,
        &format!(
            "[initiative]\nstarted-by = \"wolves\"\nattacked = \"foes\"\n{}{}{}",
            who("p", "pcs", "0,0", ""),
            who("f", "foes", "3,0", ""),
            who("w", "wolves", "6,0", ""),
        ),
    );
    let mut t = T::new(&toml);
    assert_eq!(t.s().order.slots(), &[2, 1, 0]);
    for id in ["w", "f", "p"] {
        assert_eq!(picks(&t), vec![format!("pick {id}")]);
        pass_turn(&mut t, id);
    }
}

#[test]
fn ing_r4_further_teams_follow_in_the_gms_order() {
    let teams = "[[team]]\nid = \"pcs\"\nseat = \"players\"\n\n[[team]]\nid = \"foes\"\nseat = \"gm\"\n\n[[team]]\nid = \"wolves\"\nseat = \"gm\"\n\n[[team]]\nid = \"crows\"\nseat = \"gm\"\n";
    let people = format!(
        "{}{}{}{}",
        who("p", "pcs", "0,0", ""),
        who("f", "foes", "2,0", ""),
        who("w", "wolves", "4,0", ""),
        who("c", "crows", "6,0", ""),
    );
    // The GM puts the crows before the wolves (against file order).
    let toml = enc_teams(
        ROW8,
        teams,
        &format!("[initiative]\nstarted-by = \"pcs\"\nattacked = \"foes\"\nthen = [\"crows\", \"wolves\"]\n{people}"),
    );
    let mut t = T::new(&toml);
    assert_eq!(t.s().order.slots(), &[0, 1, 3, 2]);
    for id in ["p", "f", "c", "w"] {
        assert_eq!(picks(&t), vec![format!("pick {id}")]);
        pass_turn(&mut t, id);
    }
    // Without `then`, the teams not listed follow in file order.
    let toml = enc_teams(
        ROW8,
        teams,
        &format!("[initiative]\nstarted-by = \"pcs\"\nattacked = \"foes\"\n{people}"),
    );
    assert_eq!(T::new(&toml).s().order.slots(), &[0, 1, 2, 3]);
}

#[test]
fn ing_r5_the_team_order_is_fixed_by_default() {
    let mut t = T::new(&four_vs_two(""));
    let r = t.reject("gm order foes,pcs");
    assert_eq!(r.code, "bad-ruling");
    // A whole round later the players still pick first.
    for id in ["p1", "g1", "p2", "g2", "p3", "p4"] {
        pass_turn(&mut t, id);
    }
    assert_eq!(t.s().round, 2);
    assert_eq!(picks(&t), vec!["pick p1", "pick p2", "pick p3", "pick p4"]);
}

#[test]
fn ing_r5_option_team_order_gm_between_rounds_reorders_from_the_next_round() {
    let mut t = T::new(&four_vs_two("[options]\nteam-order = \"gm-between-rounds\""));
    pass_turn(&mut t, "p1");
    t.cmd("gm order foes,pcs");
    // This round keeps its order: the guards pick now, then the players.
    pass_turn(&mut t, "g1");
    assert_eq!(picks(&t), vec!["pick p2", "pick p3", "pick p4"]);
    for id in ["p2", "g2", "p3", "p4"] {
        pass_turn(&mut t, id);
    }
    // Round 2: the guards hold slot 1.
    assert_eq!(t.s().round, 2);
    assert_eq!(t.s().order.slots(), &[1, 0]);
    assert_eq!(picks(&t), vec!["pick g1", "pick g2"]);
}

// ---------------------------------------------------------------------------------------------
// Rounds
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r6_ing_r10_one_turn_each_per_round_then_a_new_round_at_slot_1() {
    // ING-R6, ING-R10
    let mut t = T::new(&four_vs_two(""));
    assert_eq!(t.s().round, 1);
    for id in ["p1", "g1", "p2", "g2", "p3"] {
        pass_turn(&mut t, id);
        assert_eq!(t.s().round, 1);
    }
    // p1 has had its turn: it cannot be picked again this round.
    assert_eq!(t.reject("pick p1").code, "not-now");
    pass_turn(&mut t, "p4");
    // Everyone has acted: round 2 starts, and the players (slot 1) pick again, even though
    // they also took the last turn of round 1.
    assert_eq!(t.s().round, 2);
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::RoundStarted {
            round: 2,
            surprise: false
        }
    )));
    let mut seen = turns_so_far(&t);
    seen.sort();
    assert_eq!(seen, vec!["g1", "g2", "p1", "p2", "p3", "p4"]);
    assert_eq!(picks(&t), vec!["pick p1", "pick p2", "pick p3", "pick p4"]);
}

#[test]
fn ing_r7_seed_example_players_and_guards_alternate() {
    // The players started the fight (one of them attacked a guard): Roland goes first, the
    // guards let their captain act, then Clementine, then a guard.
    let toml = enc(
        ROW8,
        &format!(
            "[initiative]\nstarted-by = \"pcs\"\nattacked = \"foes\"\n{}{}{}{}",
            who("roland", "pcs", "0,0", ""),
            who("clementine", "pcs", "1,0", ""),
            who("captain", "foes", "6,2", ""),
            who("guard", "foes", "7,2", ""),
        ),
    );
    let mut t = T::new(&toml);
    assert_eq!(picks(&t), vec!["pick roland", "pick clementine"]);
    // A member of the team not on the clock cannot be picked.
    assert_eq!(t.reject("pick captain").code, "not-now");
    pass_turn(&mut t, "roland");
    assert_eq!(picks(&t), vec!["pick captain", "pick guard"]);
    assert_eq!(t.reject("pick clementine").code, "not-now");
    pass_turn(&mut t, "captain");
    assert_eq!(picks(&t), vec!["pick clementine"]);
    pass_turn(&mut t, "clementine");
    assert_eq!(picks(&t), vec!["pick guard"]);
    pass_turn(&mut t, "guard");
    assert_eq!(turns_so_far(&t), vec!["roland", "captain", "clementine", "guard"]);
    assert_eq!(t.s().round, 2);
}

#[test]
fn ing_r8_a_team_may_change_its_member_order_each_round() {
    let mut t = T::new(&four_vs_two(""));
    for id in ["p1", "g1", "p2", "g2", "p3", "p4"] {
        pass_turn(&mut t, id);
    }
    for id in ["p4", "g2", "p3", "g1", "p2", "p1"] {
        pass_turn(&mut t, id);
    }
    assert_eq!(t.s().round, 3);
    assert_eq!(
        turns_so_far(&t),
        vec!["p1", "g1", "p2", "g2", "p3", "p4", "p4", "g2", "p3", "g1", "p2", "p1"]
    );
}

#[test]
fn ing_r9_seed_example_four_players_against_two_guards() {
    // Once both teams have taken two turns each, only the players have members left to act,
    // and they take the remaining turns back to back.
    let mut t = T::new(&four_vs_two(""));
    for id in ["p1", "g1", "p2", "g2"] {
        pass_turn(&mut t, id);
    }
    assert_eq!(picks(&t), vec!["pick p3", "pick p4"]);
    pass_turn(&mut t, "p3");
    // The guards are skipped: the players pick again at once.
    assert_eq!(picks(&t), vec!["pick p4"]);
    assert_eq!(t.reject("pick g1").code, "not-now");
    pass_turn(&mut t, "p4");
    assert_eq!(t.s().round, 2);
}

#[test]
fn ing_r11_an_unconscious_character_cannot_be_given_a_turn() {
    let toml = enc(
        ROW8,
        &format!(
            "{}{}{}{}",
            who("p1", "pcs", "0,0", ""),
            who("p2", "pcs", "1,0", "unconscious = true"),
            who("g1", "foes", "6,2", ""),
            who("g2", "foes", "7,2", ""),
        ),
    );
    let mut t = T::new(&toml);
    assert_eq!(picks(&t), vec!["pick p1"]);
    assert_eq!(t.reject("pick p2").code, "not-now");
    pass_turn(&mut t, "p1");
    // Knocked out by the GM before its turn: g2 cannot be picked either.
    t.cmd("gm knockout g2");
    assert_eq!(picks(&t), vec!["pick g1"]);
    assert_eq!(t.reject("pick g2").code, "not-now");
    pass_turn(&mut t, "g1");
    // Nobody else can act: the round is over.
    assert_eq!(t.s().round, 2);
    assert_eq!(picks(&t), vec!["pick p1"]);
}

/// Roland, Clementine and Bert against a captain and a guard with a nonlethal club. Roland
/// hangs on at 1 health with no endurance, no stamina (no defence) and no evasion.
fn roland_and_clementine() -> String {
    enc(
        ROW8,
        &format!(
            "{}{}{}{}{}",
            who(
                "roland",
                "pcs",
                "2,1",
                "evasion = 0\ndeflection = 0\nstamina = 1\nnow = { endurance = 0, health = 1, stamina = 0 }"
            ),
            who(
                "clementine",
                "pcs",
                "3,1",
                &format!("skills = {{ handling = 4 }}\n{NO_STAMINA}")
            ),
            who("bert", "pcs", "0,0", NO_STAMINA),
            who("captain", "foes", "7,2", ""),
            who(
                "guard",
                "foes",
                "2,2",
                "attributes = { str = 6 }\nskills = { combat = 4 }\nitems = [\"club\"]"
            ),
        ),
    )
}

/// The guard clubs Roland down: 3 + 2 = 5, plus the club's 2 = 7 against no deflection: his
/// last health point goes and he falls unconscious (the club is nonlethal: no death check).
fn guard_knocks_out_roland(t: &mut T) {
    t.cmd("pick guard");
    t.dice(&[3, 2, 10]);
    t.cmd("attack roland");
    assert!(t.ch("roland").unconscious);
    t.cmd("end");
}

#[test]
fn ing_r12_seed_example_roland_is_resuscitated_and_acts_later_that_round() {
    let mut t = T::new(&roland_and_clementine());
    pass_turn(&mut t, "bert");
    guard_knocks_out_roland(&mut t);
    // Roland is down: the players can only give the turn to Clementine (ING-R11).
    assert_eq!(picks(&t), vec!["pick clementine"]);
    t.cmd("pick clementine");
    // Resuscitate (2 actions): INT d6 5 + Handling d4 3 = 8, meets 8 (ING-H9).
    t.dice(&[5, 3, 10]);
    t.cmd("resuscitate roland");
    assert!(!t.ch("roland").unconscious);
    t.cmd("end");
    // A player just took a turn: the guards' team picks next, not Roland.
    assert_eq!(picks(&t), vec!["pick captain"]);
    assert_eq!(t.reject("pick roland").code, "not-now");
    pass_turn(&mut t, "captain");
    // Then the players may give Roland his turn this round.
    assert_eq!(picks(&t), vec!["pick roland"]);
    t.cmd("pick roland");
    assert_eq!(t.turn().as_deref(), Some("roland"));
    assert_eq!(t.s().round, 1);
    t.assert_dice_used();
}

#[test]
fn ing_r12_a_revived_character_who_already_acted_is_not_picked_again() {
    let mut t = T::new(&roland_and_clementine());
    pass_turn(&mut t, "roland");
    guard_knocks_out_roland(&mut t);
    t.cmd("pick clementine");
    t.dice(&[5, 3, 10]);
    t.cmd("resuscitate roland");
    assert!(!t.ch("roland").unconscious);
    t.cmd("end");
    pass_turn(&mut t, "captain");
    // Roland had his turn before he fell: only Bert is left to pick.
    assert_eq!(picks(&t), vec!["pick bert"]);
    assert_eq!(t.reject("pick roland").code, "not-now");
    pass_turn(&mut t, "bert");
    assert_eq!(t.s().round, 2);
}

// ---------------------------------------------------------------------------------------------
// The end of the combat and objectives
// ---------------------------------------------------------------------------------------------

fn outcome(t: &T) -> Option<(Option<u8>, String)> {
    t.s().outcome.as_ref().map(|o| (o.winner, o.reason.clone()))
}

/// A fighter with a spear next to a single foe who cannot defend and is at 1 health.
fn duel(options: &str) -> String {
    enc(
        ROW8,
        &format!(
            "{options}\n{}{}",
            who(
                "hero",
                "pcs",
                "0,0",
                "attributes = { str = 6 }\nskills = { combat = 6 }\nitems = [\"club\"]"
            ),
            who(
                "foe",
                "foes",
                "1,0",
                "evasion = 0\ndeflection = 0\nstamina = 1\nnow = { endurance = 0, health = 1, stamina = 0 }"
            ),
        ),
    )
}

#[test]
fn ing_r13_ing_h1_combat_ends_when_only_one_team_has_able_members() {
    // ING-R13, ING-H1
    let mut t = T::turn_of(&duel(""), "hero");
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    assert!(t.ch("foe").unconscious);
    assert_eq!(outcome(&t), Some((Some(0), "last-team-standing".into())));
    assert!(t.last.iter().any(|e| matches!(e, Event::Ended { .. })));
    assert_eq!(t.reject("end").code, "game-over");
}

#[test]
fn ing_h1_option_end_when_objective_or_gm_keeps_going_with_one_team_standing() {
    // ING-H1 (alternative)
    let mut t = T::turn_of(&duel("[options]\nend-when = \"objective-or-gm\""), "hero");
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    assert!(t.ch("foe").unconscious);
    assert_eq!(outcome(&t), None);
    t.cmd("end");
    // A new round: the hero acts again; the GM ends the fight.
    assert_eq!(t.s().round, 2);
    assert_eq!(picks(&t), vec!["pick hero"]);
    t.cmd("gm end pcs");
    assert_eq!(outcome(&t), Some((Some(0), "gm-ended".into())));
}

/// Standard teams where the players have an objective from the encounter file.
fn with_objective(objective: &str, foes_objective: &str) -> String {
    let teams = format!(
        "[[team]]\nid = \"pcs\"\nseat = \"players\"\n{objective}\n\n[[team]]\nid = \"foes\"\nseat = \"gm\"\n{foes_objective}\n"
    );
    enc_teams(
        ROW8,
        &teams,
        &format!(
            "{}{}{}{}",
            who("runner", "pcs", "0,0", ""),
            who("p2", "pcs", "0,1", ""),
            who("boss", "foes", "7,2", ""),
            who("guard", "foes", "6,2", ""),
        ),
    )
}

#[test]
fn ing_r13_ing_h1_reaching_the_objective_square_ends_the_combat() {
    // ING-R13, ING-H1
    let toml = with_objective(
        "objective = { test = \"reach\", squares = [\"4,0\"], who = \"runner\" }",
        "",
    );
    let mut t = T::turn_of(&toml, "runner");
    assert_eq!(outcome(&t), None);
    t.cmd("move 4,0");
    assert_eq!(outcome(&t), Some((Some(0), "objective".into())));
}

#[test]
fn ing_r13_ing_h1_a_reach_objective_by_one_member_ignores_the_others() {
    // ING-R13, ING-H1
    let toml = with_objective(
        "objective = { test = \"reach\", squares = [\"4,0\", \"4,1\"], who = \"runner\" }",
        "",
    );
    let mut t = T::new(&toml);
    t.cmd("pick p2");
    t.cmd("move 4,1");
    // p2 stands on an objective square, but the objective names the runner.
    assert_eq!(outcome(&t), None);
    t.cmd("end");
    pass_turn(&mut t, "boss");
    t.cmd("pick runner");
    t.cmd("move 4,0");
    assert_eq!(outcome(&t), Some((Some(0), "objective".into())));
}

#[test]
fn ing_r13_ing_h1_downing_the_named_enemy_ends_the_combat() {
    // ING-R13, ING-H1
    let toml = with_objective("objective = { test = \"down\", who = \"boss\" }", "");
    let mut t = T::new(&toml);
    pass_turn(&mut t, "runner");
    t.cmd("gm knockout p2");
    assert_eq!(outcome(&t), None);
    // The guard still stands, but the boss is down: the players met their objective.
    t.cmd("gm knockout boss");
    assert_eq!(outcome(&t), Some((Some(0), "objective".into())));
}

#[test]
fn ing_r13_ing_h1_surviving_the_rounds_ends_the_combat() {
    // ING-R13, ING-H1
    let toml = with_objective("", "objective = { test = \"survive\", rounds = 2 }");
    let mut t = T::new(&toml);
    for id in ["runner", "boss", "p2", "guard"] {
        pass_turn(&mut t, id);
    }
    // One round survived: not yet.
    assert_eq!(outcome(&t), None);
    assert_eq!(t.s().round, 2);
    for id in ["runner", "boss", "p2"] {
        pass_turn(&mut t, id);
    }
    assert_eq!(outcome(&t), None);
    pass_turn(&mut t, "guard");
    assert_eq!(outcome(&t), Some((Some(1), "objective".into())));
}

#[test]
fn ing_r67_an_objective_changed_mid_round_counts_from_the_next_round() {
    let toml = with_objective("", "");
    let mut t = T::turn_of(&toml, "runner");
    t.cmd("move 4,0");
    t.cmd("gm objective pcs reach 4,0");
    // The change waits for the next round: the runner stands on the square, no end yet.
    assert_eq!(outcome(&t), None);
    assert_eq!(t.s().objectives[0], None);
    t.cmd("end");
    for id in ["boss", "p2", "guard"] {
        pass_turn(&mut t, id);
    }
    // Round 2 starts with the new objective, already met.
    assert_eq!(outcome(&t), Some((Some(0), "objective".into())));
}

#[test]
fn ing_r67_option_objective_changes_any_time_takes_effect_at_once() {
    let toml = with_objective("", "").replace(
        "title = \"test\"\n",
        "title = \"test\"\n[options]\nobjective-changes = \"any-time\"\n",
    );
    let mut t = T::turn_of(&toml, "runner");
    t.cmd("move 4,0");
    t.cmd("gm objective pcs reach 4,0");
    assert_eq!(outcome(&t), Some((Some(0), "objective".into())));
}

#[test]
fn ing_r67_the_end_check_uses_the_current_objective() {
    // The players' objective from the file is replaced (between rounds: before anyone acts)
    // by none: reaching the old square no longer ends the combat.
    let toml = with_objective("objective = { test = \"reach\", squares = [\"4,0\"] }", "");
    let mut t = T::new(&toml);
    t.cmd("gm objective pcs none");
    t.cmd("pick runner");
    t.cmd("move 4,0");
    assert_eq!(outcome(&t), None);
    // A new objective given mid-round is checked as soon as the next round makes it current.
    t.cmd("end");
    pass_turn(&mut t, "boss");
    t.cmd("gm objective pcs down guard");
    t.cmd("gm knockout guard");
    // The boss still stands and the old objective (none) is still the current one.
    assert_eq!(outcome(&t), None);
    pass_turn(&mut t, "p2");
    // Round 2 makes the new objective current: the guard is down.
    assert_eq!(t.s().round, 2);
    assert_eq!(outcome(&t), Some((Some(0), "objective".into())));
}

// ---------------------------------------------------------------------------------------------
// The action that started the fight (ING-R69)
// ---------------------------------------------------------------------------------------------

fn opening(options: &str) -> String {
    enc(
        ROW8,
        &format!(
            "{options}\n[initiative]\nstarted-by = \"pcs\"\nattacked = \"foes\"\nopening = {{ who = \"clementine\", action = \"attack guard\" }}\n{}{}{}{}",
            who("roland", "pcs", "0,0", ""),
            who(
                "clementine",
                "pcs",
                "4,1",
                "attributes = { str = 6 }\nskills = { combat = 6 }\nitems = [\"spear\"]"
            ),
            who("captain", "foes", "7,2", NO_STAMINA),
            who(
                "guard",
                "foes",
                "5,1",
                "evasion = 20\nstamina = 1\nnow = { stamina = 0 }"
            ),
        ),
    )
}

#[test]
fn ing_r69_the_trigger_attacks_first_in_its_own_turn_but_need_not_go_first() {
    let mut t = T::new(&opening(""));
    // trigger-acts-first is off: the players let Roland act first.
    assert_eq!(picks(&t), vec!["pick roland", "pick clementine"]);
    pass_turn(&mut t, "roland");
    pass_turn(&mut t, "captain");
    t.cmd("pick clementine");
    // The attack that started the fight comes first: nothing else is allowed.
    assert_eq!(t.reject("move 4,0").code, "not-now");
    assert_eq!(t.reject("end").code, "not-now");
    assert_eq!(t.legal(), vec!["attack guard"]);
    t.dice(&[2, 2, 10]);
    t.cmd("attack guard");
    assert_eq!(t.ch("clementine").econ.actions, 2);
    // Then her turn goes on as normal.
    t.cmd("move 4,0");
}

#[test]
fn ing_r69_option_trigger_acts_first_forces_the_first_pick() {
    let mut t = T::new(&opening("[options]\ntrigger-acts-first = true"));
    assert_eq!(picks(&t), vec!["pick clementine"]);
    assert_eq!(t.reject("pick roland").code, "not-now");
    t.cmd("pick clementine");
    t.dice(&[2, 2, 10]);
    t.cmd("attack guard");
    t.cmd("end");
    pass_turn(&mut t, "captain");
    // Later picks are free again.
    assert_eq!(picks(&t), vec!["pick roland"]);
}

// ---------------------------------------------------------------------------------------------
// Surprise (ING-R14 to ING-R17)
// ---------------------------------------------------------------------------------------------

/// Three goblins catch the players by surprise; `clementine` is the extra on her.
fn goblins(clementine: &str, options: &str) -> String {
    enc(
        ROW8,
        &format!(
            "{options}\n[initiative]\nstarted-by = \"foes\"\nattacked = \"pcs\"\nsurprise = \"foes\"\n{}{}{}{}{}",
            who("roland", "pcs", "0,0", "evasion = 0\ndeflection = 0"),
            who(
                "clementine",
                "pcs",
                "4,1",
                &format!("attributes = {{ str = 6 }}\nskills = {{ combat = 6 }}\nitems = [\"spear\"]\n{clementine}")
            ),
            who(
                "g1",
                "foes",
                "1,0",
                &format!("attributes = {{ str = 6 }}\nskills = {{ combat = 4 }}\nitems = [\"club\"]\n{NO_STAMINA}")
            ),
            who(
                "g2",
                "foes",
                "5,1",
                "evasion = 0\ndeflection = 0\nstamina = 1\nnow = { endurance = 0, health = 1, stamina = 0 }"
            ),
            who("g3", "foes", "7,2", NO_STAMINA),
        ),
    )
}

#[test]
fn ing_r14_ing_r17_only_the_surprising_team_acts_in_the_surprise_round() {
    // ING-R14, ING-R17
    let mut t = T::new(&goblins("", ""));
    assert_eq!(t.s().phase, Phase::Surprise);
    assert_eq!(t.s().round, 0);
    // The goblins take all their turns back to back; no player may be picked.
    for id in ["g2", "g1", "g3"] {
        assert!(!picks(&t).contains(&"pick roland".to_string()));
        assert_eq!(t.reject("pick clementine").code, "not-now");
        pass_turn(&mut t, id);
    }
    // ING-R17: then normal rounds, alternating from slot 1 (the goblins).
    assert_eq!(t.s().phase, Phase::Rounds);
    assert_eq!(t.s().round, 1);
    assert_eq!(picks(&t), vec!["pick g1", "pick g2", "pick g3"]);
    pass_turn(&mut t, "g1");
    assert_eq!(picks(&t), vec!["pick roland", "pick clementine"]);
    assert_eq!(turns_so_far(&t), vec!["g2", "g1", "g3", "g1"]);
}

#[test]
fn ing_r15_ing_r16_seed_example_clementines_danger_sense_in_the_surprise_round() {
    // ING-R15, ING-R16
    let mut t = T::new(&goblins("talents = [\"danger-sense\"]", ""));
    assert_eq!(t.s().phase, Phase::Surprise);
    // The surprise round alternates: goblins, Clementine, goblins...
    assert_eq!(picks(&t), vec!["pick g1", "pick g2", "pick g3"]);
    pass_turn(&mut t, "g3");
    assert_eq!(picks(&t), vec!["pick clementine"]);
    t.cmd("pick clementine");
    // She defeats a goblin: 3 + 3 = 6, spear 4: 10 damage to its last health point; it dies
    // on a death check luck die of 1.
    t.dice(&[3, 3, 10, 1]);
    t.cmd("attack g2");
    assert!(t.ch("g2").dead);
    t.cmd("end");
    // One goblin fewer attacks in the surprise round; Roland (surprised) never acts in it.
    assert_eq!(picks(&t), vec!["pick g1"]);
    pass_turn(&mut t, "g1");
    // ING-R17: normal rounds follow, and Clementine acts again in round 1.
    assert_eq!(t.s().phase, Phase::Rounds);
    assert_eq!(t.s().round, 1);
    assert_eq!(picks(&t), vec!["pick g1", "pick g3"]);
    pass_turn(&mut t, "g1");
    assert_eq!(picks(&t), vec!["pick roland", "pick clementine"]);
    assert_eq!(turns_so_far(&t), vec!["g3", "clementine", "g1", "g1"]);
    t.assert_dice_used();
}

#[test]
fn ing_r15_cannot_be_surprised_is_also_a_plain_flag() {
    let mut t = T::new(&goblins("cannot-be-surprised = true", ""));
    pass_turn(&mut t, "g1");
    assert_eq!(picks(&t), vec!["pick clementine"]);
}

/// Roland (a shield in hand, no endurance left, constitution 0) is caught by surprise by a
/// goblin with a spear next to him; Pat, too slow to intercept, keeps the fight going;
/// `options` goes into `[options]`.
fn ambushed(options: &str) -> T {
    ambushed_with(options, "evasion = 0")
}

/// [`ambushed`] with Roland's evasion (or other fields) given.
fn ambushed_with(options: &str, roland: &str) -> T {
    let toml = enc(
        ROW8,
        &format!(
            "[options]\n{options}\n[initiative]\nstarted-by = \"foes\"\nattacked = \"pcs\"\nsurprise = \"foes\"\n{}{}{}",
            who("pat", "pcs", "7,2", "speed = 1"),
            who(
                "roland",
                "pcs",
                "0,0",
                &format!("items = [\"shield\"]\n{roland}\ndeflection = 0\nconstitution = 0\nnow = {{ endurance = 0 }}")
            ),
            who(
                "g1",
                "foes",
                "1,0",
                &format!("attributes = {{ str = 6 }}\nskills = {{ combat = 4 }}\nitems = [\"spear\"]\n{NO_STAMINA}")
            ),
        ),
    );
    let mut t = T::new(&toml);
    assert_eq!(t.s().phase, Phase::Surprise);
    t.cmd("pick g1");
    t
}

#[test]
fn ing_r14_ing_r30_ing_r60_a_surprised_character_still_reacts_by_default() {
    // ING-R14 keeps only actions from the surprised; reactions happen on anyone's turn
    // (ING-R30), so by default (`surprised-can-react = true`) Roland may dodge, block, and is
    // offered the consciousness fortify, which is a reaction (ING-R60).
    let mut t = ambushed("");
    t.cmd("attack roland");
    assert_eq!(t.pending(), ("defence", "roland".into()));
    assert!(t.legal().contains(&"dodge".to_string()));
    // He passes on the dodge; 3 + 2 = 5 hits evasion 0 for 5 + 4 = 9.
    t.dice(&[3, 2, 10]);
    t.cmd("pass");
    assert_eq!(t.pending(), ("block", "roland".into()));
    assert!(t.legal().contains(&"block shield".to_string()));
    t.cmd("pass");
    // 9 to health: 3 of 12 left, missing 9 > constitution 0: fortify or fall.
    assert_eq!(t.ch("roland").health, 3);
    assert_eq!(t.pending(), ("fortify", "roland".into()));
    t.dice(&[6, 4, 10]);
    t.cmd("fortify");
    assert!(!t.ch("roland").unconscious);
    assert_eq!(t.s().phase, Phase::Surprise);
    t.assert_dice_used();
}

#[test]
fn ing_r14_ing_r30_a_surprised_character_can_dodge_by_default() {
    // ING-R14, ING-R30: the dodge is rolled before the attack (ING-H12).
    let mut t = ambushed("");
    t.cmd("attack roland");
    t.dice(&[6, 4, 10, 1, 1, 10]);
    t.cmd("dodge");
    assert_eq!(t.results(), vec![(false, false, 10)]);
    t.assert_dice_used();
}

#[test]
fn ing_r14_option_surprised_characters_take_no_reactions_and_the_log_says_why() {
    // ING-R14 with `surprised-can-react = false`: no defence, no block and no fortify for
    // Roland in the surprise round (ING-R60 then knocks him out); each step says why.
    let mut t = ambushed("surprised-can-react = false");
    t.dice(&[3, 2, 10]);
    t.cmd("attack roland");
    assert_eq!(t.results(), vec![(true, false, 0)]);
    assert!(t.ch("roland").unconscious);
    let log = t.log();
    let why = "surprised (surprised-can-react = false)";
    for line in [
        format!("roland cannot defend against this attack: {why}"),
        format!("roland cannot block: {why}"),
        format!("roland cannot fortify to stay conscious: {why}"),
        "roland falls unconscious".to_string(),
    ] {
        assert!(log.contains(&line), "missing '{line}' in {log:#?}");
    }
    // A defence typed now is refused with what happened.
    let r = t.reject("dodge");
    assert_eq!(r.code, "not-now");
    assert!(
        r.reason.contains("could not defend") && r.reason.contains("surprised"),
        "{}",
        r.reason
    );
    let r = t.reject("fortify");
    assert!(
        r.reason.contains("could not fortify") && r.reason.contains("surprised"),
        "{}",
        r.reason
    );
    t.assert_dice_used();
}

#[test]
fn ing_r14_option_surprised_characters_cannot_dodge_but_react_in_round_one() {
    // ING-R14, ING-R17: with the option off the bar lasts only for the surprise round.
    let mut t = ambushed_with("surprised-can-react = false", "evasion = 5");
    t.dice(&[1, 1, 10]);
    t.cmd("attack roland");
    assert_eq!(t.results(), vec![(false, false, 5)]);
    assert_eq!(t.pending(), ("turn", "g1".into()));
    t.cmd("end");
    // Round 1: g1 (slot 1) attacks again; Roland may dodge now.
    t.cmd("pick g1");
    t.cmd("attack roland");
    assert_eq!(t.pending(), ("defence", "roland".into()));
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Teams joining mid-combat (ING-H22)
// ---------------------------------------------------------------------------------------------

/// Players and foes, plus a third team with nobody in it yet that [initiative] does not list.
fn joining(options: &str) -> String {
    let teams = format!("{TEAMS}\n[[team]]\nid = \"wolves\"\nseat = \"gm\"\n");
    enc_teams(
        ROW8,
        &teams,
        &format!(
            "{options}\n[initiative]\nstarted-by = \"pcs\"\nattacked = \"foes\"\n[template.wolf]\nname = \"Wolf\"\n{}{}{}{}",
            who("a", "pcs", "0,0", ""),
            who("b", "pcs", "1,0", ""),
            who("f1", "foes", "6,2", ""),
            who("f2", "foes", "7,2", ""),
        ),
    )
}

#[test]
fn ing_h22_a_joining_team_takes_the_last_slot() {
    let mut t = T::new(&joining(""));
    // The empty team has no slot yet.
    assert_eq!(t.s().order.slots(), &[0, 1]);
    t.cmd("pick a");
    t.cmd("gm add w1 wolf wolves 4,2");
    t.cmd("end");
    assert_eq!(t.s().order.slots(), &[0, 1, 2]);
    // After the foes, the wolves; then the players again.
    pass_turn(&mut t, "f1");
    assert_eq!(picks(&t), vec!["pick w1"]);
    pass_turn(&mut t, "w1");
    for id in ["b", "f2"] {
        pass_turn(&mut t, id);
    }
    assert_eq!(turns_so_far(&t), vec!["a", "f1", "w1", "b", "f2"]);
    assert_eq!(t.s().round, 2);
}

#[test]
fn ing_h22_option_joining_teams_next_goes_right_after_the_acting_team() {
    let mut t = T::new(&joining("[options]\njoining-teams = \"next\""));
    t.cmd("pick a");
    t.cmd("gm add w1 wolf wolves 4,2");
    t.cmd("end");
    assert_eq!(t.s().order.slots(), &[0, 2, 1]);
    // Right after the players: the wolves pick before the foes.
    assert_eq!(picks(&t), vec!["pick w1"]);
    for id in ["w1", "f1", "b", "f2"] {
        pass_turn(&mut t, id);
    }
    assert_eq!(turns_so_far(&t), vec!["a", "w1", "f1", "b", "f2"]);
}

#[test]
fn ing_h22_a_joiner_to_an_existing_team_just_adds_a_member() {
    let mut t = T::new(&joining(""));
    pass_turn(&mut t, "a");
    t.cmd("gm add f3 wolf foes 4,2");
    assert_eq!(t.s().order.slots(), &[0, 1]);
    assert_eq!(picks(&t), vec!["pick f1", "pick f2", "pick f3"]);
}

#[test]
fn ing_r5_option_team_order_given_before_anyone_acts_applies_to_that_round() {
    // Between rounds (here: before the first pick of round 1) the new order takes effect at
    // once.
    let mut t = T::new(&four_vs_two("[options]\nteam-order = \"gm-between-rounds\""));
    t.cmd("gm order foes,pcs");
    assert_eq!(t.s().order.slots(), &[1, 0]);
    assert_eq!(picks(&t), vec!["pick g1", "pick g2"]);
}

#[test]
fn ing_h22_option_joining_teams_next_between_turns_goes_after_the_team_that_last_acted() {
    let mut t = T::new(&joining("[options]\njoining-teams = \"next\""));
    pass_turn(&mut t, "a");
    // The foes are about to pick; the wolves join right after the players, and the foes keep
    // their pick.
    t.cmd("gm add w1 wolf wolves 4,2");
    assert_eq!(t.s().order.slots(), &[0, 2, 1]);
    assert_eq!(picks(&t), vec!["pick f1", "pick f2"]);
    for id in ["f1", "b", "w1", "f2"] {
        pass_turn(&mut t, id);
    }
    assert_eq!(turns_so_far(&t), vec!["a", "f1", "b", "w1", "f2"]);
}

#[test]
fn ing_h22_a_team_listed_in_initiative_keeps_its_slot_while_empty() {
    // The wolves are listed before the foes: they hold slot 2 although nobody is in the team
    // yet (so they are skipped); the first wolf to join acts in that slot.
    let toml = joining("").replace("attacked = \"foes\"\n", "attacked = \"wolves\"\nthen = [\"foes\"]\n");
    let mut t = T::new(&toml);
    assert_eq!(t.s().order.slots(), &[0, 2, 1]);
    pass_turn(&mut t, "a");
    assert_eq!(picks(&t), vec!["pick f1", "pick f2"]);
    t.cmd("gm add w1 wolf wolves 4,2");
    assert_eq!(t.s().order.slots(), &[0, 2, 1]);
    // Their slot comes right after the players': the wolf picks now.
    assert_eq!(picks(&t), vec!["pick w1"]);
    for id in ["w1", "f1", "b", "f2"] {
        pass_turn(&mut t, id);
    }
    assert_eq!(turns_so_far(&t), vec!["a", "w1", "f1", "b", "f2"]);
}
