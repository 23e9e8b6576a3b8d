//! The registry itself: every ruleset has a text and a simulation entry in one order, and an
//! encounter or a record is matched to its ruleset or told where and what is known. (These were
//! the library's unit tests; they live here so that the library, which instantiates every
//! ruleset's entries, is not compiled a second time as a test harness.)

use fray_engine::diag::SourceFile;
use fray_rulesets::{all, by_id, for_encounter, for_record, sim_for_record, sims};

fn file(text: &str) -> SourceFile {
    SourceFile {
        name: "enc.toml".to_string(),
        text: text.to_string(),
    }
}

#[test]
fn every_ruleset_has_a_text_entry_and_a_simulation_entry_in_one_order() {
    let texts: Vec<_> = all().iter().map(|e| e.id()).collect();
    let sims: Vec<_> = sims().iter().map(|e| e.id()).collect();
    assert_eq!(texts, sims);
    let mut unique = texts.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), texts.len(), "ids are unique: {texts:?}");
    for id in ["thrum", "ingenuity", "einfelst", "murdham", "hallowed-earth"] {
        assert!(by_id(id).is_some(), "{id}");
    }
}

#[test]
fn an_encounter_names_its_ruleset_or_is_told_where_and_what_is_known() {
    assert_eq!(
        for_encounter(&file("ruleset = \"murdham\"\n")).map(|e| e.id()),
        Ok("murdham")
    );
    let typo = for_encounter(&file("ruleset = \"murdam\"\n"))
        .map(|e| e.id())
        .unwrap_err();
    assert!(typo.0.contains("enc.toml:1:11"), "{typo}");
    assert!(
        typo.0.contains("unknown ruleset 'murdam' (did you mean 'murdham'?)"),
        "{typo}"
    );
    let none = for_encounter(&file("[map]\n")).map(|e| e.id()).unwrap_err();
    assert!(none.0.contains("expected a line naming the ruleset"), "{none}");
    assert!(none.0.contains("hallowed-earth"), "{none}");
}

#[test]
fn a_record_names_its_ruleset_or_is_refused_as_not_a_record() {
    let rec = SourceFile {
        name: "r.json".to_string(),
        text: "{\"ruleset\": \"thrum\"}".to_string(),
    };
    assert_eq!(for_record(&rec).map(|e| e.id()), Ok("thrum"));
    let bad = SourceFile {
        name: "r.json".to_string(),
        text: "[1,".to_string(),
    };
    let err = for_record(&bad).map(|e| e.id()).unwrap_err();
    assert!(err.0.starts_with("r.json:1:"), "{err}");
    assert!(err.0.contains("not a fray record"), "{err}");
    assert!(sim_for_record(&rec).is_ok());
}
