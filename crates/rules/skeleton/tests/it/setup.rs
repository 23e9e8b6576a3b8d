//! Encounter files: every problem is reported at its file, line and column.

use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_skeleton::Skeleton;

/// The diagnostics of an encounter, as `fray check` prints them.
fn problems(text: &str) -> Vec<String> {
    let src = SourceFile {
        name: "e.toml".into(),
        text: text.into(),
    };
    match Skeleton::load(&src, &mut |_| Err("no files".into())) {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|x| x.to_string()).collect(),
    }
}

const HEAD: &str =
    "ruleset = \"skeleton\"\n[map]\nrows = [\". . x\"]\n[[side]]\nid = \"red\"\n[[side]]\nid = \"blue\"\n";

#[test]
fn a_good_encounter_loads() {
    let good = format!(
        "{HEAD}[[combatant]]\nid = \"a\"\nside = \"red\"\nat = \"0,0\"\nhealth = 3\nattack = 0\ndefence = 10\nspeed = 1\n\
         [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"1,0\"\nhealth = 3\nattack = 0\ndefence = 10\nspeed = 1\n"
    );
    assert_eq!(problems(&good), Vec::<String>::new());
}

#[test]
fn each_problem_is_at_its_place() {
    let text = format!(
        "{HEAD}[options]\ndodge-bonus = 30\n\
         [[combatant]]\nid = \"a\"\nside = \"green\"\nat = \"0,0\"\nhealth = 3\nattack = 0\ndefence = 10\nspeed = 1\n\
         [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"2,0\"\nhealth = 3\n"
    );
    assert_eq!(
        problems(&text),
        [
            "e.toml:8:1: error: in [options]: dodge-bonus = 30 is outside 0..=20",
            "e.toml:12:8: error: unknown side 'green'",
            "e.toml:21:6: error: square 2,0 is blocked",
            "e.toml:18:1: error: a stat block needs health, attack, defence and speed",
        ]
    );
    let lonely = format!(
        "{HEAD}[[combatant]]\nid = \"a\"\nside = \"red\"\nat = \"0,0\"\nhealth = 3\nattack = 0\ndefence = 1\nspeed = 1\n"
    );
    assert_eq!(problems(&lonely), ["e.toml:6:1: error: side 'blue' has no combatants"]);
    assert_eq!(
        problems("ruleset = \"thrum\"\n[map]\nrows = [\".\"]\n"),
        ["e.toml:1:11: error: this file is for ruleset 'thrum', not 'skeleton'"]
    );
}

#[test]
fn a_combatants_own_seat_is_one_word_and_no_templates() {
    let text = format!(
        "{HEAD}[template.guard]\nseat = \"ana\"\nhealth = 3\nattack = 0\ndefence = 10\nspeed = 1\n\
         [[combatant]]\nid = \"a\"\nside = \"red\"\nseat = \"ana marie\"\nat = \"0,0\"\nhealth = 3\nattack = 0\ndefence = 10\nspeed = 1\n\
         [[combatant]]\nid = \"b\"\nside = \"blue\"\nseat = \"ben\"\nat = \"1,0\"\nhealth = 3\nattack = 0\ndefence = 10\nspeed = 1\n"
    );
    assert_eq!(
        problems(&text),
        [
            "e.toml:9:8: error: a seat belongs to one combatant, not to a template: give it in a [[combatant]] table",
            "e.toml:17:8: error: expected one word of letters, digits and '-'",
        ]
    );
}
