//! The text layer: which typed lines are unreadable (the engine-wide `unknown-command`) and
//! which are commands the rules refuse; the battlefield map, the tracker and the JSON view.

mod common;
use common::*;
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
