//! Encounter validation that is about more than one field: ids that differ only by case, and
//! problems of the file as a whole, which still point at a line (issue 9).

use crate::common;
use common::*;
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::text::TextRuleset;
use fray_thrum::Thrum;

fn load(toml: &str) -> Result<(), Vec<Diagnostic>> {
    let src = SourceFile {
        name: "test.toml".into(),
        text: toml.into(),
    };
    Thrum::load(&src, &mut |p: &str| Err(format!("no file {p}"))).map(|_| ())
}

fn errors(toml: &str) -> Vec<Diagnostic> {
    load(toml).expect_err("the encounter should be refused")
}

/// The 1-based line of the first line of `toml` that contains `needle`.
fn line_of(toml: &str, needle: &str) -> usize {
    toml.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle}"))
        + 1
}

#[test]
fn combatant_ids_that_differ_only_by_case_are_refused_at_the_second_id() {
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who("biffer", "npcs", "0,0", ""),
            who("Biffer", "pcs", "2,0", "")
        ),
    );
    let errs = errors(&toml);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].message.contains("only by case"), "{}", errs[0].message);
    assert_eq!(errs[0].line, line_of(&toml, "id = \"Biffer\""));
}

#[test]
fn a_combatant_defined_twice_is_refused_at_its_second_id() {
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who("biffer", "npcs", "0,0", ""),
            who("biffer", "pcs", "2,0", "")
        ),
    );
    let errs = errors(&toml);
    assert!(errs[0].message.contains("defined twice"), "{}", errs[0].message);
    let second = toml
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("id = \"biffer\""))
        .nth(1);
    assert_eq!(Some(errs[0].line), second.map(|(i, _)| i + 1));
}

#[test]
fn an_encounter_without_combatants_is_refused_with_a_line() {
    let toml = enc(&[". . . ."], "");
    let errs = errors(&toml);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].message.contains("no combatants"), "{}", errs[0].message);
    assert_eq!(errs[0].line, 1);
}

#[test]
fn side_problems_point_at_the_side_tables() {
    // Two PC sides and no NPC side: the first side's kind.
    let toml = enc(&[". . . ."], &who("a", "pcs", "0,0", "")).replace("kind = \"npc\"", "kind = \"pc\"");
    let errs = errors(&toml);
    assert!(errs[0].message.contains("one of kind \"npc\""), "{}", errs[0].message);
    assert_eq!(errs[0].line, line_of(&toml, "kind = \"pc\""));
}

#[test]
fn a_missing_table_still_has_a_line() {
    let errs = errors("ruleset = \"thrum\"\n");
    assert!(errs.iter().all(|d| d.line >= 1), "{errs:?}");
}
