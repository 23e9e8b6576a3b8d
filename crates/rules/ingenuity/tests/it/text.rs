//! The text layer: which typed lines are unreadable (the engine-wide `unknown-command`) and
//! which are commands the rules refuse; the battlefield map, the tracker and the JSON view.

use crate::common;
use common::*;
use fray_engine::Ruleset;
use fray_engine::text::TextRuleset;
use fray_ingenuity::Ingenuity;

fn duel() -> String {
    enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}",
            who(
                "hero",
                "pcs",
                "0,0",
                "items = [\"spear\", \"shield\"]\nheld = [\"shield\"]"
            ),
            who("foe", "foes", "1,0", "items = [\"spear\"]"),
        ),
    )
}

/// The refusal of a line that does not parse.
fn unreadable(t: &T, text: &str) -> fray_engine::Reject {
    match Ingenuity::parse_command(t.s(), text) {
        Ok(c) => panic!("'{text}' parsed as {c:?}"),
        Err(r) => r,
    }
}

#[test]
fn text_that_is_not_a_command_is_unreadable_with_the_engine_code() {
    let t = T::new(&duel());
    for line in [
        "blah",
        "gm frobnicate",
        "gm set hero luck +1",
        "pick nobody",
        "move 3",
        "attack",
        "intercept",
        "",
    ] {
        let r = unreadable(&t, line);
        assert_eq!(r.code, "unknown-command", "'{line}': {}", r.reason);
        assert!(r.is_unreadable(), "'{line}'");
    }
    let mut t = T::turn_of(&duel(), "hero");
    for line in ["attack nobody", "brandish sword", "attack foe with axe", "step here"] {
        assert_eq!(unreadable(&t, line).code, "unknown-command", "'{line}'");
    }
    // A readable command the rules refuse keeps its own code and kind.
    let r = t.reject("stand");
    assert_eq!(r.code, "not-now");
    assert!(!r.is_unreadable());
}

#[test]
fn commands_the_rules_refuse_parse_and_are_refused_by_check() {
    let mut t = T::new(&duel());
    // An action before any turn has begun: the turn must begin first.
    let r = t.reject("attack foe");
    assert_eq!(r.code, "not-now");
    assert!(r.reason.contains("no turn has begun"), "{}", r.reason);
    // Parry and block with no attack to meet.
    t.cmd("pick hero");
    assert_eq!(t.reject("parry spear").code, "not-now");
    assert_eq!(t.reject("block shield").code, "not-now");
    // An attack with nothing in hand that can attack: no-weapon, a rule refusal.
    let r = t.reject("attack foe");
    assert_eq!(r.code, "no-weapon");
    assert!(!r.is_unreadable());
    assert_eq!(t.reject("ready attack when approach").code, "no-weapon");
    assert!(!t.reject("kill foe").is_unreadable());
}

// ---------------------------------------------------------------------------------------------
// Encounter diagnostics
// ---------------------------------------------------------------------------------------------

fn diagnostics(toml: &str) -> Vec<fray_engine::diag::Diagnostic> {
    let src = fray_engine::diag::SourceFile {
        name: "test.toml".into(),
        text: toml.into(),
    };
    let mut read = |p: &str| Err(format!("no file {p}"));
    match Ingenuity::load(&src, &mut read) {
        Ok(_) => panic!("the encounter loaded"),
        Err(d) => d,
    }
}

/// The 1-based line of the first line of `toml` containing `needle`, after `skip` earlier ones.
fn line_of(toml: &str, needle: &str, skip: usize) -> usize {
    toml.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .nth(skip)
        .map(|(i, _)| i + 1)
        .expect("needle present")
}

#[test]
fn ids_that_differ_only_by_case_are_refused_at_the_second_id() {
    // Typed ids match without regard to case, so `Biffer` and `biffer` could not be told apart.
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who("biffer", "pcs", "0,0", ""),
            who("Biffer", "foes", "2,0", "")
        ),
    );
    let d = diagnostics(&toml);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].message.contains("only by case"), "{}", d[0].message);
    assert_eq!(d[0].line, line_of(&toml, "id = \"Biffer\"", 0));
    assert!(d[0].column > 0);
}

#[test]
fn errors_that_span_fields_point_at_a_line_and_column() {
    // No combatant at all: the end of the file, where they would go.
    let toml = enc(&[". . . ."], "");
    let d = diagnostics(&toml);
    assert!(d.iter().all(|x| x.line > 0 && x.column > 0), "{d:?}");
    assert!(d.iter().any(|x| x.message.contains("at least one [[combatant]]")));

    // An opening action naming a missing combatant: at its `who`.
    let base = format!(
        "{}{}",
        who("hero", "pcs", "0,0", "items = [\"spear\"]"),
        who("foe", "foes", "2,0", "")
    );
    let toml = enc(
        &[". . . ."],
        &format!(
            "[initiative]\nstarted-by = \"pcs\"\nopening = {{ who = \"nobody\", action = \"attack foe\" }}\n{base}"
        ),
    );
    let d = diagnostics(&toml);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].line, line_of(&toml, "opening =", 0));
    assert!(d[0].column > 1);

    // An opening action that is not an action of its character's: at the action.
    let toml = enc(
        &[". . . ."],
        &format!(
            "[initiative]\nstarted-by = \"pcs\"\nopening = {{ who = \"hero\", action = \"frobnicate foe\" }}\n{base}"
        ),
    );
    let d = diagnostics(&toml);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].message.contains("frobnicate"), "{}", d[0].message);
    assert_eq!(d[0].line, line_of(&toml, "opening =", 0));

    // The opener on the wrong team: at its `who`.
    let toml = enc(
        &[". . . ."],
        &format!(
            "[initiative]\nstarted-by = \"foes\"\nopening = {{ who = \"hero\", action = \"attack foe\" }}\n{base}"
        ),
    );
    let d = diagnostics(&toml);
    assert!(d[0].message.contains("team that started the fight"), "{}", d[0].message);
    assert_eq!(d[0].line, line_of(&toml, "opening =", 0));
}

// ---------------------------------------------------------------------------------------------
// The battlefield map, the tracker and the view
// ---------------------------------------------------------------------------------------------

fn example(name: &str) -> T {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../examples/ingenuity")
        .join(name);
    T::new(&std::fs::read_to_string(path).expect("example exists"))
}

#[test]
fn the_map_of_the_ambush_shows_terrain_markers_a_legend_and_whose_turn() {
    let mut t = example("ambush.toml");
    let gm = Ingenuity::map(t.s(), fray_engine::Seat::GM).expect("Ingenuity has a map");
    insta::assert_snapshot!("ambush_map_at_the_start", gm);
    // Once a turn has begun the header names who acts.
    let who = t.legal()[0].clone();
    t.cmd(&who);
    let map = Ingenuity::map(t.s(), fray_engine::Seat::GM).expect("map");
    let acting = t.turn().expect("a turn began");
    let name = t.s().name(t.id(&acting)).to_string();
    assert!(
        map.lines().next().expect("header").contains(&format!("{name}'s turn")),
        "{map}"
    );
    assert!(
        map.contains(&format!("{acting} ({name}")) && map.contains(": acting"),
        "{map}"
    );
}

/// Two allies and a hidden, readied, guarding foe.
fn tracked() -> T {
    let toml = enc(
        &[". . . . x .", ". . 1 . . ."],
        &format!(
            "{}{}{}",
            who("hero", "pcs", "0,0", "items = [\"spear\"]"),
            who("medic", "pcs", "0,1", "now = { endurance = 2 }"),
            who("foe", "foes", "5,0", "items = [\"spear\"]\nconditions = [\"hidden\"]"),
        ),
    );
    let mut t = T::turn_of(&toml, "hero");
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("ready attack when approach");
    t
}

#[test]
fn the_tracker_lists_the_order_who_acted_gauges_and_conditions_with_their_end() {
    let t = tracked();
    let gm = Ingenuity::tracker(t.s(), fray_engine::Seat::GM);
    for want in [
        "1. pcs: acted hero; yet to act medic",
        "2. foes: acted foe; yet to act nobody",
        "endurance 2/",
        "harmed: while endurance is at most half of",
        "hidden: until the GM removes it",
        "readied: attack when approach: until it fires or their next turn starts (ING-R24)",
        "A1 hero (hero) at 0,0",
        "B1 foe (foe) at 5,0",
    ] {
        assert!(gm.contains(want), "missing '{want}' in\n{gm}");
    }
    // The players' seat sees neither the hidden foe's square nor its gauges or readied action.
    let players = t.s().setup.seats.iter().position(|s| s == "players").expect("seat") as u8;
    let pc = Ingenuity::tracker(t.s(), fray_engine::Seat(players));
    assert!(pc.contains("B1 foe (foe) position unknown"), "{pc}");
    assert!(!pc.contains("readied"), "{pc}");
    assert!(pc.contains("endurance 2/"), "{pc}");
    let map = Ingenuity::map(t.s(), fray_engine::Seat(players)).expect("map");
    assert!(!map.contains("B1"), "{map}");
}

#[test]
fn the_view_has_the_order_who_acted_every_gauge_and_status_for_the_seat() {
    let t = tracked();
    let v = serde_json::to_value(Ingenuity::view(t.s(), fray_engine::Seat::GM)).expect("the view serialises");
    assert_eq!(v["picking"], "pcs");
    assert_eq!(v["acted"], serde_json::json!(["hero", "foe"]));
    assert_eq!(v["order"][0]["team"], "pcs");
    assert_eq!(v["order"][0]["to-act"], serde_json::json!(["medic"]));
    let foe = &v["combatants"][2];
    assert_eq!(foe["acted"], true);
    assert_eq!(foe["stamina"], foe["max"]["stamina"]);
    let statuses: Vec<&str> = foe["statuses"]
        .as_array()
        .expect("statuses")
        .iter()
        .filter_map(|x| x["name"].as_str())
        .collect();
    assert_eq!(statuses, vec!["hidden", "readied: attack when approach"]);
    let players = t.s().setup.seats.iter().position(|s| s == "players").expect("seat") as u8;
    let v = serde_json::to_value(Ingenuity::view(t.s(), fray_engine::Seat(players))).expect("the view serialises");
    let foe = &v["combatants"][2];
    assert!(foe["pos"].is_null() && foe["stamina"].is_null() && foe["statuses"].is_null());
    assert_eq!(v["combatants"][1]["statuses"][0]["name"], "harmed");
}

#[test]
fn ing_r62_a_dead_character_is_refused_at_its_dead_key_and_carried_durability_is_checked() {
    // A campaign writes `dead = true` for a character that died: no rest brings it back.
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who("hero", "pcs", "0,0", "dead = true"),
            who("foe", "foes", "2,0", "")
        ),
    );
    let d = diagnostics(&toml);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message.contains("combatant 'hero' is dead (ING-R62)"),
        "{}",
        d[0].message
    );
    assert_eq!(d[0].line, line_of(&toml, "dead = true", 0));
    // Durability carried beyond the item's own is refused with the item's range.
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who(
                "hero",
                "pcs",
                "0,0",
                "items = [\"buckler\"]\ndurability = { buckler = 40 }"
            ),
            who("foe", "foes", "2,0", "")
        ),
    );
    let d = diagnostics(&toml);
    assert!(
        d.iter()
            .any(|x| x.message.contains("durability of 'buckler' must be 0 to")),
        "{d:?}"
    );
}

#[test]
fn the_summary_tells_apart_two_combatants_of_one_name() {
    let toml = enc(
        &[". . . . . ."],
        &format!(
            "[template.bandit]\nname = \"Bandit\"\nitems = [\"spear\"]\n{}{}{}",
            who("hero", "pcs", "0,0", "items = [\"spear\"]"),
            who("bandit-1", "foes", "4,0", "template = \"bandit\""),
            who("bandit-2", "foes", "5,0", "template = \"bandit\""),
        ),
    );
    let t = T::new(&toml);
    let summary = Ingenuity::summary(t.s());
    assert!(summary.contains("  Bandit (bandit-1) "), "{summary}");
    assert!(summary.contains("  Bandit (bandit-2) "), "{summary}");
    assert!(!summary.contains("  Bandit  "), "{summary}");
}

#[test]
fn the_shared_view_shows_teams_gauges_conditions_and_squares_but_not_what_a_seat_may_not_see() {
    use fray_engine::Seat;
    use fray_engine::view::Place;
    let t = tracked();
    let v = Ingenuity::seat_view(t.s(), Seat::GM);
    assert_eq!(v.ruleset, "ingenuity");
    assert_eq!(v.order, ["pcs", "foes"]);
    let ids: Vec<&str> = v.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["hero", "medic", "foe"]);
    let medic = &v.combatants[1];
    assert_eq!((medic.side.as_str(), medic.seat.as_str()), ("pcs", "players"));
    let endurance = medic.gauges.iter().find(|g| g.name == "endurance").expect("endurance");
    assert_eq!(endurance.value, 2);
    assert_eq!(endurance.max, Some(i64::from(t.s().info(1).stats.endurance)));
    assert!(medic.statuses.iter().any(|x| x.name == "harmed"));
    assert_eq!(
        v.combatants[0].place,
        Some(Place::Square {
            x: 0,
            y: 0,
            elevation: Some(0)
        })
    );
    let foe = &v.combatants[2];
    assert_eq!(foe.seat, "gm");
    assert!(foe.place.is_some());
    let readied = foe.statuses.iter().find(|x| x.name == "readied").expect("readied");
    assert_eq!(readied.value.as_deref(), Some("attack when approach"));
    assert!(foe.statuses.iter().any(|x| x.name == "acted"));
    assert!(v.deciding.is_some_and(|d| d.seats == ["players"] && d.actor.is_none()));
    // The players' seat sees neither the hidden foe's square nor its gauges or readied action,
    // in this position or any it cannot tell from it.
    let players = Ingenuity::seat_by_name(t.s(), "players").expect("seat");
    let pv = Ingenuity::seat_view(t.s(), players);
    let foe = &pv.combatants[2];
    assert!(foe.place.is_none() && foe.gauges.is_empty());
    assert!(foe.statuses.iter().any(|x| x.name == "hidden"));
    assert!(!foe.statuses.iter().any(|x| x.name == "readied"));
    assert!(pv.combatants[1].gauges.iter().any(|g| g.name == "endurance"));
    let mut others = Vec::new();
    Ingenuity::indistinguishable(t.s(), players, &mut others);
    assert!(!others.is_empty());
    for other in &others {
        assert_eq!(Ingenuity::seat_view(other, players), pv);
    }
    // On the foe's turn the players are told its actions left, not its stamina or focus.
    let mut t = T::turn_of(&duel(), "hero");
    t.cmd("end");
    t.cmd("pick foe");
    let players = Ingenuity::seat_by_name(t.s(), "players").expect("seat");
    let gm = Ingenuity::seat_view(t.s(), Seat::GM);
    assert!(gm.deciding.is_some_and(|d| d.text.contains("stamina")));
    let d = Ingenuity::seat_view(t.s(), players).deciding.expect("a decision");
    assert_eq!(d.actor.as_deref(), Some("foe"));
    assert!(
        d.text.contains("action(s) left") && !d.text.contains("stamina"),
        "{}",
        d.text
    );
}
