//! Campaigns: what outlasts a fight (`TextRuleset::lasting`), the encounter keys that bring it
//! into the next one, and the rests that give it back (`TextRuleset::RESTS`).

use fray_einfelst::Einfelst;
use fray_einfelst::state::Status;
use fray_engine::Seat;
use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_testkit::Table;

const GM: Seat = Seat::GM;

/// Zone `a`; the player side `pcs` (seat `players`) with `ash`, the GM's `foes` with `bo`;
/// every attribute 2, Strike 1 (3 dice), a sword (damage 2). `ash_extra` goes into ash's
/// table, `more` after everything.
fn encounter(options: &str, ash_extra: &str, more: &str) -> String {
    let who = |id: &str, side: &str, extra: &str| {
        format!(
            "[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nzone = \"a\"\n\
             attributes = {{ strength = 2, dexterity = 2, intuition = 2, reason = 2, presence = 2 }}\n\
             actions = {{ strike = 1, force = 1, endure = 1, finesse = 1 }}\nweapons = [\"sword\"]\n{extra}\n"
        )
    };
    format!(
        "ruleset = \"einfelst\"\nplayer-sides = [\"pcs\"]\n[options]\n{options}\n[[zone]]\nid = \"a\"\n\
         [[side]]\nid = \"pcs\"\nseat = \"players\"\n[[side]]\nid = \"foes\"\nseat = \"gm\"\n{}{}{more}",
        who("ash", "pcs", ash_extra),
        who("bo", "foes", "")
    )
}

/// The faces that draw these card values, in order, from a fresh deck of 1 to 10.
fn cards(values: &[u16]) -> Vec<u16> {
    let mut deck: Vec<u16> = (1..=10).collect();
    values
        .iter()
        .map(|v| {
            let i = deck.iter().position(|c| c == v).expect("a card still in the deck");
            deck.remove(i);
            i as u16 + 1
        })
        .collect()
}

/// `k` successes among `n` dice.
fn hits(k: usize, n: usize) -> Vec<u16> {
    (0..n).map(|i| if i < k { 6 } else { 1 }).collect()
}

fn problems(text: &str) -> Vec<String> {
    let src = SourceFile {
        name: "e.toml".into(),
        text: text.into(),
    };
    match Einfelst::load(&src, &mut |_| Err("no files".into())) {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|x| x.to_string()).collect(),
    }
}

/// `values` as the lines of a table.
fn lines(values: &[(String, String)]) -> String {
    values.iter().map(|(k, v)| format!("{k} = {v}\n")).collect()
}

#[test]
fn ein_r34_h22_the_harm_rows_and_critical_injuries_of_player_characters_outlast_the_fight() {
    // bo (card 1) strikes ash (card 5), whose lesser and moderate Physical rows are full.
    let mut t = Table::<Einfelst>::load(&encounter("", "", ""), &[], &cards(&[5, 1]));
    for g in ["physical-lesser =2", "physical-moderate =2", "mental-lesser =1"] {
        t.type_as(GM, &format!("gm set ash {g}"));
    }
    t.cmd("strike ash");
    t.dice(&hits(1, 3)).cmd("pass");
    // Two lesser: the severe slot, then past the top row: broken, d6 4 (EIN-H22).
    t.dice(&[4]).cmd("split 1+1");
    assert_eq!(t.state().ch(0).status, Status::Broken);
    // The fight is over: the players' side has nobody left in it.
    assert!(t.game.outcome().is_some());
    let lasting = Einfelst::lasting(t.state());
    // Only the player character: bo leaves nothing.
    assert_eq!(lasting.len(), 1);
    let injury = &fray_einfelst::data::critical_injuries()[3];
    let ash: Vec<(&str, String)> = lasting[0].values.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    assert_eq!(
        ash,
        [
            ("physical-lesser", "2".to_string()),
            ("physical-moderate", "2".into()),
            ("physical-severe", "1".into()),
            ("mental-lesser", "1".into()),
            ("mental-moderate", "0".into()),
            ("mental-severe", "0".into()),
            ("critical-injuries", format!("[\"{injury}\"]")),
        ]
    );

    // Written into the next encounter: the severe mark keeps ash out (EIN-H2) ...
    let next = encounter("", &lines(&lasting[0].values), "");
    let got = problems(&next);
    assert!(
        got.iter()
            .any(|p| p.contains("physical-severe: a severe mark incapacitates (EIN-H2")),
        "{got:?}"
    );
    // ... the night's rest does not clear it ...
    let rest = Einfelst::RESTS.iter().find(|r| r.word == "rest").unwrap();
    let kept: Vec<(String, String)> = lasting[0]
        .values
        .iter()
        .filter(|(k, _)| !rest.restores.contains(&k.as_str()))
        .cloned()
        .collect();
    assert!(!problems(&encounter("", &lines(&kept), "")).is_empty());
    // ... treatment does, and the critical injury stays for good.
    let treatment = Einfelst::RESTS.iter().find(|r| r.word == "treatment").unwrap();
    let kept: Vec<(String, String)> = lasting[0]
        .values
        .iter()
        .filter(|(k, _)| !treatment.restores.contains(&k.as_str()))
        .cloned()
        .collect();
    assert_eq!(
        kept.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["critical-injuries"]
    );
    let t = Table::<Einfelst>::load(&encounter("", &lines(&kept), ""), &[], &cards(&[5, 1]));
    let ash = t.state().ch(0);
    assert_eq!((ash.harm.physical, ash.status), ([0, 0, 0], Status::Fighting));
    assert_eq!(ash.scars, std::slice::from_ref(injury));
    assert_eq!(
        Einfelst::lasting(t.state())[0].values.last().unwrap().1,
        format!("[\"{injury}\"]")
    );
    assert!(Einfelst::tracker(t.state(), GM).contains(&format!("critical injuries: {injury}")));
}

#[test]
fn ein_h2_harm_carried_into_a_fight_costs_dice_there() {
    // One lesser Physical mark: ash's Strike of 3 dice rolls 2.
    let mut t = Table::<Einfelst>::load(&encounter("", "physical-lesser = 1", ""), &[], &cards(&[1, 5]));
    assert_eq!(t.state().ch(0).harm.physical, [1, 0, 0]);
    t.cmd("strike bo");
    t.dice(&hits(0, 2)).cmd("pass");
    t.assert_dice_used();
}

#[test]
fn ein_r24_h13_harm_points_carry_for_a_creature_that_counts_them() {
    let pts = "harm = \"points\"\nharm-capacity = 3";
    let mut t = Table::<Einfelst>::load(
        &encounter("", &format!("{pts}\nharm-points = 2"), ""),
        &[],
        &cards(&[1, 5]),
    );
    assert_eq!(t.state().ch(0).harm.points, 2);
    t.type_as(GM, "gm set ash points +1");
    t.type_as(GM, "gm end pcs");
    assert_eq!(
        Einfelst::lasting(t.state())[0].values,
        [("harm-points".to_string(), "3".to_string())]
    );
}

#[test]
fn ein_h2_h13_the_carried_keys_load_with_clear_errors() {
    let good = "physical-lesser = 2\nphysical-moderate = 1\nmental-lesser = 1\ncritical-injuries = [\"broken ribs\"]";
    assert_eq!(problems(&encounter("", good, "")), Vec::<String>::new());
    // With severe-incapacitates off, a severe mark does not keep a creature out.
    assert_eq!(
        problems(&encounter("severe-incapacitates = false", "mental-severe = 1", "")),
        Vec::<String>::new()
    );
    let pts = "harm = \"points\"\nharm-capacity = 3\n";
    let cases = [
        (
            "",
            "physical-lesser = 3",
            "physical-lesser = 3: the row has 2 slots (the harm-slots option)",
        ),
        ("harm-slots = [3, 2, 1]", "physical-lesser = 4", "the row has 3 slots"),
        (
            "",
            "physical-severe = 1",
            "physical-severe: a severe mark incapacitates (EIN-H2",
        ),
        (
            "",
            "harm-points = 1",
            "harm-points is for a creature with harm = \"points\" (EIN-R24)",
        ),
        (
            "",
            &format!("{pts}mental-lesser = 1"),
            "mental-lesser: this creature counts Harm points",
        ),
        (
            "",
            &format!("{pts}harm-points = 4"),
            "harm-points = 4 is more than its harm-capacity 3",
        ),
        (
            "",
            "critical-injuries = [\"\"]",
            "a critical injury is a text of 1 to 200 characters",
        ),
        ("", "physical-lesser = -1", "invalid value"),
    ];
    for (options, extra, says) in cases {
        let got = problems(&encounter(options, extra, ""));
        assert!(got.iter().any(|p| p.contains(says)), "{extra}: {got:?}");
    }
    // The error is at the key (line 20 of the file).
    let got = problems(&encounter("", "physical-lesser = 3", ""));
    assert!(got[0].starts_with("e.toml:20:19: error:"), "{got:?}");
    // A template gives no creature's state.
    let got = problems(&encounter("", "", "[template.x]\nmental-lesser = 1\n"));
    assert!(
        got.iter()
            .any(|p| p.contains("mental-lesser belongs to one creature's state, not to a template")),
        "{got:?}"
    );
}

#[test]
fn ein_h22_no_rest_takes_a_critical_injury_away_and_treatment_clears_every_row() {
    let words: Vec<&str> = Einfelst::RESTS.iter().map(|r| r.word).collect();
    assert_eq!(words, ["rest", "treatment"]);
    for r in Einfelst::RESTS {
        assert!(!r.restores.contains(&"critical-injuries"), "{}", r.word);
    }
    for key in fray_einfelst::setup::ROW_KEYS {
        assert!(Einfelst::RESTS[1].restores.contains(&key), "{key}");
    }
}
