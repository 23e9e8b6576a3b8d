//! Campaigns: what outlasts a fight (`TextRuleset::lasting`), the encounter keys that bring it
//! into the next one, and the rests that give it back (`TextRuleset::RESTS`).

use fray_engine::Seat;
use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_hallowed_earth::HallowedEarth;
use fray_hallowed_earth::state::{Conditions, Event};
use fray_testkit::Table;

const PCS: Seat = Seat(1);

/// A field with the players' side `pcs` and the Referee's `foes`; `ash` (pcs, Strength 12,
/// Stress 10, Mana 4) with `ash_extra`, `cy` (pcs, a healer) and `bo` (foes, a maul).
fn encounter(ash_extra: &str) -> String {
    format!(
        r#"ruleset = "hallowed-earth"
[map]
rows = [". . . . . . . .", ". . . . . . . ."]
[[side]]
id = "pcs"
seat = "players"
[[side]]
id = "foes"
seat = "gm"
[[combatant]]
id = "ash"
side = "pcs"
at = "0,0"
strength = 12
stress = 10
mana = 4
weapons = [{{ name = "sword", damage = "1d6" }}]
{ash_extra}
[[combatant]]
id = "cy"
side = "pcs"
at = "0,1"
stress = 10
heal = 2
[[combatant]]
id = "bo"
side = "foes"
at = "1,0"
stress = 10
weapons = [{{ name = "maul", damage = "1d6", crit = 2 }}]
"#
    )
}

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

/// The encounter with ash's table given `values` (a lasting state), as a campaign writes it:
/// a key ash's table already has (`mana`) takes the new value.
fn carried(values: &[(String, String)]) -> String {
    let lines: String = values.iter().map(|(k, v)| format!("{k} = {v}\n")).collect();
    let enc = encounter(&lines);
    if values.iter().any(|(k, _)| k == "mana") {
        enc.replacen("mana = 4\n", "", 1)
    } else {
        enc
    }
}

#[test]
fn hal_r28_r40_h18_what_a_finished_fight_leaves_lasts_for_the_players_creatures_only() {
    // Base Initiative d12s: ash 9, cy 9, bo 1: bo strikes first.
    let mut t = Table::<HallowedEarth>::load(&encounter(""), &[], &[9, 9, 1]);
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare cy move");
    t.type_as(Seat::GM, "declare bo attack ash");
    // A natural 20 and 1 on the d6: 1 × 2 = 2 Wound Points (HAL-R37); the d100 of 1 injures
    // (HAL-R38): the blunt table's 8th entry, crushed shoulder, main arm (d4 2), 2d8 = 7 to
    // Strength and Dexterity (HAL-R40, HAL-R41, HAL-H25).
    t.dice(&[20, 1, 1, 8, 2, 4, 3]).cmd("act");
    t.assert_dice_used();
    t.cmds(&["end", "end", "end"]);
    t.type_as(Seat::GM, "gm set ash stress -3");
    t.type_as(Seat::GM, "gm set ash mana -1");
    t.type_as(Seat::GM, "gm end pcs");
    assert!(t.game.outcome().is_some());
    let lasting = HallowedEarth::lasting(t.state());
    // The Referee's creature leaves nothing; the players' two do.
    let ids: Vec<&str> = lasting.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["ash", "cy"]);
    let ash: Vec<(&str, &str)> = lasting[0]
        .values
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        ash,
        [
            ("stress-lost", "3"),
            // HAL-H18: Strength 12 − 7 = 5 caps the 10 Wound Points left at 5.
            ("wp", "5"),
            ("mana", "3"),
            // HAL-R28: the wound, with its type and amount.
            ("wounds", r#"[{ type = "blunt", amount = 2 }]"#),
            ("ability-loss", "{ strength = 7, dexterity = 7 }"),
            ("conditions", r#"["main-arm-out"]"#),
            ("injuries", r#"["crushed shoulder"]"#),
        ]
    );
    let cy: Vec<&str> = lasting[1].values.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(cy, ["stress-lost", "wp", "mana", "wounds"]);

    // The next encounter with that state written into ash's table starts where this one left.
    let next = carried(&lasting[0].values);
    let t = Table::<HallowedEarth>::load(&next, &[], &[9, 9, 1]);
    let s = t.state();
    let a = s.ch(s.find("ash").unwrap());
    assert_eq!((a.stress, a.stress_max, a.wp, a.mana), (7, 10, 5, 3));
    assert_eq!(s.wp_max(0), 5);
    assert_eq!(a.wounds.len(), 1);
    assert_eq!(a.injuries, ["crushed shoulder"]);
    assert_eq!((a.loss[0], a.loss[2]), (7, 7));
    assert!(a.has(Conditions::MAIN_ARM));
    // The log says it comes in worn.
    assert!(
        t.log()
            .contains(&"ash: Stress 7 of 10, Wound Points 5 of 5 (as earlier fights left it)".to_string()),
        "{:?}",
        t.log()
    );
    // And what it left is the same again.
    assert_eq!(HallowedEarth::lasting(s)[0], lasting[0]);
}

#[test]
fn hal_r24_stress_lost_comes_off_the_maximum_rolled_at_the_start() {
    // Two Hit Dice of d8, the first at its top (first-hd-max), Strength 12 (+1 a die): the
    // second rolls 3: 9 + 4 = 13 Stress, less the 5 lost earlier.
    let enc = encounter("").replace(
        "strength = 12\nstress = 10\n",
        "strength = 12\nhd = 2\nstress-lost = 5\n",
    );
    let t = Table::<HallowedEarth>::load(&enc, &[], &[3, 9, 9, 1]);
    let a = t.state().ch(0);
    assert_eq!((a.stress, a.stress_max), (8, 13));
    // More lost than the new maximum: none left.
    let enc = enc.replace("stress-lost = 5", "stress-lost = 40");
    let t = Table::<HallowedEarth>::load(&enc, &[], &[3, 9, 9, 1]);
    assert_eq!(t.state().ch(0).stress, 0);
}

#[test]
fn hal_r32_a_carried_wound_sets_the_stabilising_tn_and_a_creature_may_start_dying() {
    // ash starts Dying at −2 with a wound of 6 from an earlier fight: cy's Heal check needs
    // 10 + 6 = 16; d20 14 + heal 2 = 16 succeeds.
    let ash = "wp = -2\nwounds = [{ type = \"slashing\", amount = 6 }, { type = \"untyped\", amount = 1 }]\n";
    let mut t = Table::<HallowedEarth>::load(&encounter(ash), &[], &[9, 5, 1]);
    assert_eq!(t.state().ch(0).wp, -2);
    assert!(!t.state().fighting(0), "HAL-R30: Dying is not fighting");
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare cy heal ash");
    t.type_as(Seat::GM, "declare bo move");
    t.cmd("end"); // bo, at 1
    t.dice(&[14]).cmd("act"); // cy, at 5
    assert!(
        t.last.iter().any(|e| matches!(
            e,
            Event::Checked {
                tn: 16,
                success: true,
                ..
            }
        )),
        "{:?}",
        t.last
    );
    assert!(t.state().ch(0).has(Conditions::STABILIZED));
    // A stabilized creature at 0 or below carries that too.
    t.type_as(Seat::GM, "gm end pcs");
    let ash = &HallowedEarth::lasting(t.state())[0];
    assert!(ash.values.contains(&("stabilized".into(), "true".into())), "{ash:?}");
    let next = carried(&ash.values);
    let t = Table::<HallowedEarth>::load(&next, &[], &[9, 5, 1]);
    assert!(t.state().ch(0).has(Conditions::STABILIZED));
}

#[test]
fn hal_r27_r31_the_carried_keys_load_with_clear_errors() {
    // Good values load.
    let good = "stress-lost = 4\nwp = 3\nstabilized = false\nwounds = [{ type = \"piercing/slashing\", amount = 9 }]\n\
                ability-loss = { agility = 2 }\ninjuries = [\"broken shin\"]\nbalance = -5\nconditions = [\"lame\", \"prone\"]\n";
    assert_eq!(problems(&encounter(good)), Vec::<String>::new());
    let cases = [
        // HAL-R27: Strength 12, no bonus.
        (
            "wp = 13",
            "wp = 13 is above the maximum Wound Points, 12 (Strength 12 + wp-bonus 0, HAL-R27)",
        ),
        // HAL-H18: Strength 12 − 4 = 8.
        (
            "wp = 9\nability-loss = { strength = 4 }",
            "wp = 9 is above the maximum Wound Points, 8 (Strength 8 + wp-bonus 0, HAL-R27)",
        ),
        // HAL-R31: dead at −Strength.
        (
            "wp = -12",
            "at -12 Wound Points with Strength 12 the creature is dead (HAL-R31)",
        ),
        ("dead = true", "combatant 'ash' is dead (HAL-R31)"),
        ("stress-lost = -1", "stress-lost = -1 must be within 0..=999"),
        (
            "wounds = [{ type = \"two words\", amount = 2 }]",
            "a wound's type is one word",
        ),
        (
            "wounds = [{ type = \"blunt\", amount = 0 }]",
            "a wound's amount must be within 1..=999",
        ),
        ("wounds = [{ kind = \"blunt\", amount = 2 }]", "unknown field `kind`"),
        ("ability-loss = { luck = 1 }", "unknown field `luck`"),
        (
            "conditions = [\"blinded\"]",
            "unknown condition 'blinded': the conditions injuries leave are lame, prone",
        ),
        ("injuries = [\"\"]", "an injury is a name of 1 to 80 characters"),
    ];
    for (extra, says) in cases {
        let got = problems(&encounter(extra));
        assert!(got.iter().any(|p| p.contains(says)), "{extra}: {got:?}");
    }
    // The error is at the key.
    let got = problems(&encounter("wp = 13"));
    assert!(got[0].starts_with("e.toml:18:6: error:"), "{got:?}");
    // A template gives no creature's state.
    let t = format!("{}[template.x]\nwp = 3\n", encounter(""));
    let got = problems(&t);
    assert!(
        got.iter()
            .any(|p| p.contains("wp belongs to one creature's state, not to a template")),
        "{got:?}"
    );
}

#[test]
fn hal_h19_the_rests_restore_what_they_name() {
    let words: Vec<&str> = HallowedEarth::RESTS.iter().map(|r| r.word).collect();
    assert_eq!(words, ["rest", "recovery", "mending"]);
    // A longer rest does what a shorter one does.
    let rest = HallowedEarth::RESTS[0].restores;
    assert!(rest.iter().all(|k| HallowedEarth::RESTS[1].restores.contains(k)));
    // Every lasting key but `dead` is restored by some rest.
    for key in [
        "stress-lost",
        "wp",
        "mana",
        "stabilized",
        "wounds",
        "ability-loss",
        "conditions",
        "balance",
        "injuries",
    ] {
        assert!(HallowedEarth::RESTS.iter().any(|r| r.restores.contains(&key)), "{key}");
    }
    assert!(!HallowedEarth::RESTS.iter().any(|r| r.restores.contains(&"dead")));
}

#[test]
fn hal_r27_a_record_with_a_worn_state_out_of_range_is_refused() {
    use fray_engine::{EngineError, Ruleset};
    let src = SourceFile {
        name: "e.toml".into(),
        text: encounter("wp = 3"),
    };
    let loaded = HallowedEarth::load(&src, &mut |_| Err("no files".into())).expect("loads");
    let mut v = serde_json::to_value(&loaded.setup).expect("serialises");
    assert_eq!(v["combatants"][0]["worn"]["wp"], 3);
    v["combatants"][0]["worn"]["wp"] = 40.into();
    let setup = serde_json::from_value(v).expect("still a setup");
    match HallowedEarth::new_state(&setup, &loaded.options) {
        Err(EngineError::Invalid(m)) => assert!(m.contains("combatant 'ash': wp = 40 is above"), "{m}"),
        other => panic!("{other:?}"),
    }
}
