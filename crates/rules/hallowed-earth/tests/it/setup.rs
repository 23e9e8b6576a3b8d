//! Encounter files: every problem is reported at its file, line and column.

use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_hallowed_earth::HallowedEarth;

/// The diagnostics of an encounter, as `fray check` prints them.
fn problems(text: &str) -> Vec<String> {
    let src = SourceFile {
        name: "e.toml".into(),
        text: text.into(),
    };
    match HallowedEarth::load(&src, &mut |_| Err("no files".into())) {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|x| x.to_string()).collect(),
    }
}

const HEAD: &str =
    "ruleset = \"hallowed-earth\"\n[map]\nrows = [\". . x\"]\n[[side]]\nid = \"red\"\n[[side]]\nid = \"blue\"\n";

#[test]
fn a_good_encounter_loads_with_defaults_for_what_it_leaves_out() {
    let good = format!(
        "{HEAD}[[combatant]]\nid = \"a\"\nside = \"red\"\nat = \"0,0\"\n\
         [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"1,0\"\nweapons = [{{ name = \"club\", damage = \"1d6\" }}]\n"
    );
    assert_eq!(problems(&good), Vec::<String>::new());
}

#[test]
fn each_problem_is_at_its_place() {
    let text = format!(
        "{HEAD}[options]\nmelee-reach = 90\n\
         [[combatant]]\nid = \"a\"\nside = \"green\"\nat = \"0,0\"\n\
         [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"2,0\"\n\
         [[combatant]]\nid = \"c\"\nside = \"blue\"\nat = \"1,0\"\nstrength = 0\n"
    );
    assert_eq!(
        problems(&text),
        [
            "e.toml:8:1: error: in [options]: melee-reach = 90 is outside 1..=30",
            "e.toml:12:8: error: unknown side 'green'",
            "e.toml:17:6: error: square 2,0 is blocked",
            "e.toml:18:1: error: strength = 0 is outside 1..=999",
        ]
    );
    let dice = problems(&format!(
        "{HEAD}[[combatant]]\nid = \"a\"\nside = \"red\"\nat = \"0,0\"\nweapons = [{{ name = \"club\", damage = \"1x6\" }}]\n\
         [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"1,0\"\nstrength = 0\n"
    ));
    assert!(dice.iter().any(|p| p.contains("'1x6' is not dice")), "{dice:?}");
    let zero = problems(&format!(
        "{HEAD}[[combatant]]\nid = \"a\"\nside = \"red\"\nat = \"0,0\"\n\
         [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"1,0\"\nstrength = 0\n"
    ));
    assert_eq!(zero, ["e.toml:12:1: error: strength = 0 is outside 1..=999"]);
    let lonely = format!("{HEAD}[[combatant]]\nid = \"a\"\nside = \"red\"\nat = \"0,0\"\n");
    assert_eq!(problems(&lonely), ["e.toml:6:1: error: side 'blue' has no combatants"]);
    assert_eq!(
        problems("ruleset = \"thrum\"\n[map]\nrows = [\".\"]\n"),
        ["e.toml:1:11: error: this file is for ruleset 'thrum', not 'hallowed-earth'"]
    );
}

#[test]
fn weapons_spells_items_injury_tables_and_declaration_lists_are_checked() {
    let two = |a: &str, options: &str| {
        format!(
            "{HEAD}[options]\n{options}\n[[combatant]]\nid = \"a\"\nside = \"red\"\nat = \"0,0\"\n{a}\n\
             [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"1,0\"\n"
        )
    };
    let cases = [
        (
            "weapons = [{ name = \"club\", damage = \"1d6\", crit = 5 }]",
            "",
            "crit = 5 must be 2, 3 or 4",
        ),
        (
            "weapons = [{ name = \"two words\", damage = \"1d6\" }]",
            "",
            "single words",
        ),
        (
            "weapons = [{ name = \"knife\", damage = \"1d4\", thrown = true }]",
            "",
            "needs a range",
        ),
        (
            "spells = [{ name = \"bolt\", tn = 12 }]",
            "",
            "either damage or restores",
        ),
        ("items = [{ name = \"tonic\" }]", "", "what it restores"),
        ("group = \"two words\"", "", "must be one word"),
        (
            "",
            "declaration = \"listed\"\ndeclaration-list = [\"zz\"]",
            "'zz', who is not in the encounter",
        ),
        ("", "declaration = \"by-lot\"", "unknown variant"),
    ];
    for (a, options, says) in cases {
        let got = problems(&two(a, options));
        assert!(got.iter().any(|p| p.contains(says)), "{a} {options}: {got:?}");
    }
    let table = format!(
        "{}[injuries]\nfire = [{{ name = \"burn\", abilities = [\"strength\"] }}]\n",
        two("", "")
    );
    let got = problems(&table);
    assert!(
        got.iter().any(|p| p.contains("needs both the abilities and the dice")),
        "{got:?}"
    );
}

#[test]
fn every_shape_problem_of_a_file_is_reported_at_once_with_did_you_mean() {
    // Two misspelt fields in two combatants and a taken square: all three at once (the loader
    // reads the file with every shape problem set aside, then adds its own checks), each
    // misspelling with its likely word.
    let text = format!(
        "{HEAD}[[combatant]]\nid = \"a\"\nside = \"red\"\nat = \"0,0\"\nstrenght = 12\n\
         [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"1,0\"\nagillity = 9\n\
         [[combatant]]\nid = \"c\"\nside = \"blue\"\nat = \"1,0\"\n"
    );
    let p = problems(&text);
    assert!(
        p.iter()
            .any(|l| l.contains("strenght") && l.contains("did you mean `strength`")),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|l| l.contains("agillity") && l.contains("did you mean `agility`")),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|l| l.contains("square 1,0 already holds another combatant")),
        "{p:?}"
    );
    assert_eq!(p.len(), 3, "{p:?}");
    // The ruleset's own checks: an unknown condition, a declaration-list id.
    let text =
        ("ruleset = \"hallowed-earth\"\n[options]\ndeclaration = \"listed\"\ndeclaration-list = [\"bb\", \"a\"]\n\
         [map]\nrows = [\". . x\"]\n[[side]]\nid = \"red\"\n[[side]]\nid = \"blue\"\n\
         [[combatant]]\nid = \"a\"\nside = \"red\"\nat = \"0,0\"\nconditions = [\"lamme\"]\n\
         [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"1,0\"\n")
            .to_string();
    let p = problems(&text);
    assert!(
        p.iter()
            .any(|l| l.contains("unknown condition 'lamme' (did you mean 'lame'?)")),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|l| l.contains("declaration-list names 'bb', who is not in the encounter (did you mean 'b'?)")),
        "{p:?}"
    );
}

#[test]
fn a_combatants_own_seat_is_one_word_and_a_bad_one_is_reported_at_its_value() {
    // HEAD is 7 lines; each combatant table then starts a line of its own.
    let two = |a: &str| {
        format!(
            "{HEAD}[[combatant]]\nid = \"a\"\nside = \"red\"\nat = \"0,0\"\n{a}\n\
             [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"1,0\"\n"
        )
    };
    assert_eq!(problems(&two("seat = \"ana\"")), Vec::<String>::new());
    // Line 12 is the seat's: its value starts at column 8.
    assert_eq!(
        problems(&two("seat = \"ana lee\"")),
        ["e.toml:12:8: error: seat 'ana lee' must be one word of letters, digits and '-'"]
    );
    let typed = problems(&two("seat = 3"));
    assert_eq!(typed.len(), 1, "{typed:?}");
    assert!(typed[0].starts_with("e.toml:12:8: error: "), "{typed:?}");
    // A seat belongs to one creature: a template may not name one.
    let template = format!(
        "{HEAD}[template.cur]\nseat = \"ana\"\n[[combatant]]\nid = \"a\"\ntemplate = \"cur\"\nside = \"red\"\nat = \"0,0\"\n\
         [[combatant]]\nid = \"b\"\nside = \"blue\"\nat = \"1,0\"\n"
    );
    assert_eq!(
        problems(&template),
        ["e.toml:9:8: error: seat belongs to one creature, not to a template: give it in a [[combatant]] table"]
    );
}
