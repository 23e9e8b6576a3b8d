//! Campaigns: what outlasts a fight (`TextRuleset::lasting`), the encounter keys that bring it
//! into the next one, and the rests that give it back (`TextRuleset::RESTS`).

use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_murdham::Murdham;
use fray_murdham::state::Status;
use fray_testkit::Table;

/// Zones `a` – `b`; sides `pcs` and `foes` (seats `foes_seat`); the pcs hold the initiative
/// and open every round.
fn enc(foes_seat: &str, rest: &str) -> String {
    format!(
        r#"ruleset = "murdham"
initiative = "pcs"
player-sides = ["pcs"]
[options]
opener = "initiative"
[[zone]]
id = "a"
links = ["b"]
[[zone]]
id = "b"
[[side]]
id = "pcs"
[[side]]
id = "foes"
seat = "{foes_seat}"
{rest}"#
    )
}

/// A character: STR, AGI and WIT 10 unless `extra` sets them.
fn who(id: &str, side: &str, at: &str, extra: &str) -> String {
    let stats: String = ["str", "agi", "wit"]
        .iter()
        .filter(|k| !extra.lines().any(|l| l.trim_start().starts_with(&format!("{k} ="))))
        .map(|k| format!("{k} = 10\n"))
        .collect();
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\n{stats}{extra}\n")
}

const ASH: &str = "wield = [\"martial-hand\"]\ncarry = [\"healing-draught\"]\narmour = \"light\"";

fn problems(text: &str) -> Vec<String> {
    let src = SourceFile {
        name: "e.toml".into(),
        text: text.into(),
    };
    match Murdham::load(&src, &mut |_| Err("no files".into())) {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|x| x.to_string()).collect(),
    }
}

fn lines(values: &[(String, String)]) -> String {
    values.iter().map(|(k, v)| format!("{k} = {v}\n")).collect()
}

#[test]
fn mur_r48_what_a_fight_leaves_lowered_abilities_worn_and_spent_gear_and_health_lasts() {
    // Both sides are played by players' seats here, so both leave their state.
    let toml = enc(
        "foes",
        &[
            who("ash", "pcs", "a", ASH),
            who("bo", "foes", "a", "health = 3"),
            who("dee", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    // 5 is more than bo's 3, less than its STR: dying.
    t.dice(&[5]).cmd("take");
    assert!(matches!(t.state().ch(1).status, Status::Dying { .. }));
    // ash gives bo its draught: healed by 2, saved; the injury d6 2 lowers STR by the d4, 3.
    t.dice(&[2, 2, 3]).cmd("use healing-draught bo");
    assert_eq!(t.state().ch(1).stats.abilities[0], 7);
    // The fight ends; MUR-R48: ash's sword attacked and its durability roll of 1 damages it.
    t.dice(&[1]).cmd("gm end pcs");
    assert!(t.state().outcome.is_some());
    t.assert_dice_used();
    let lasting = Murdham::lasting(t.state());
    let values = |id: &str| {
        let l = lasting.iter().find(|l| l.id == id).unwrap();
        l.values.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>()
    };
    assert_eq!(
        values("ash"),
        [
            "health = 10",
            "damaged = [\"martial-hand\"]",
            "lost = [\"healing-draught\"]"
        ]
    );
    assert_eq!(values("bo"), ["health = 2", "lowered = { str = 3 }"]);

    // The next encounter with that state: the sword starts damaged, the draught is gone, bo's
    // STR is 7 (and so its maximum health).
    let ash = lasting.iter().find(|l| l.id == "ash").unwrap();
    let bo = lasting.iter().find(|l| l.id == "bo").unwrap();
    let next = enc(
        "foes",
        &[
            who("ash", "pcs", "a", &format!("{ASH}\n{}", lines(&ash.values))),
            who("bo", "foes", "a", &lines(&bo.values)),
        ]
        .concat(),
    );
    let t = Table::<Murdham>::load(&next, &[], &[]);
    let a = t.state().ch(0);
    assert_eq!(
        a.live_items().map(|(_, it)| it.id.as_str()).collect::<Vec<_>>(),
        ["martial-hand"]
    );
    assert!(a.items[0].damaged);
    let b = t.state().ch(1);
    assert_eq!((b.stats.abilities[0], b.stats.max_health(), b.health), (7, 7, 2));
    // And it carries on: the same state comes out of a fight that changed nothing.
    let again = Murdham::lasting(t.state());
    assert_eq!(again[..], lasting[..2]);
}

#[test]
fn mur_r48_the_gms_characters_leave_nothing_and_the_dead_stay_dead() {
    let toml = enc(
        "gm",
        &[
            who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
            who("bo", "foes", "a", "health = 3"),
        ]
        .concat(),
    );
    let t = Table::<Murdham>::load(&toml, &[], &[]);
    let ids: Vec<String> = Murdham::lasting(t.state()).into_iter().map(|l| l.id).collect();
    assert_eq!(ids, ["ash"]);
    // A dead character is refused at its key.
    let got = problems(&enc(
        "gm",
        &[who("ash", "pcs", "a", "dead = true"), who("bo", "foes", "a", "")].concat(),
    ));
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].contains("combatant 'ash' is dead"), "{got:?}");
}

#[test]
fn mur_r48_r50_the_carried_keys_load_with_clear_errors() {
    let good = format!(
        "{ASH}\ncarry = [\"healing-draught\", \"simple-hand\"]\nlowered = {{ str = 2, wit = 1 }}\n\
         damaged = [\"martial-hand\"]\nlost = [\"healing-draught\"]\narmour-damaged = true"
    )
    .replace("carry = [\"healing-draught\"]\n", "");
    let toml = enc(
        "gm",
        &[who("ash", "pcs", "a", &good), who("bo", "foes", "a", "")].concat(),
    );
    assert_eq!(problems(&toml), Vec::<String>::new());
    let t = Table::<Murdham>::load(&toml, &[], &[]);
    let a = t.state().ch(0);
    assert_eq!(a.stats.abilities, [8, 10, 9]);
    assert_eq!(a.stats.carry, ["simple-hand"]);
    assert!(a.armour_damaged);
    let cases = [
        (
            "lowered = { str = 10 }",
            "lowered str = 10 leaves 'ash' STR 0: an ability at 0 or below kills",
        ),
        ("lowered = { luck = 1 }", "unknown field `luck`"),
        ("lost = [\"lance\"]", "lost names 'lance', which 'ash' does not have"),
        (
            "wield = [\"martial-hand\"]\ndamaged = [\"martial-hand\", \"martial-hand\"]",
            "damaged names 'martial-hand', which 'ash' does not have (in wield or carry, once for each)",
        ),
        ("armour-lost = true", "armour-lost: 'ash' wears no armour to lose"),
        ("armour-damaged = true", "armour-damaged: 'ash' wears no armour"),
        // Health is checked against the lowered maximum.
        (
            "lowered = { str = 4 }\nhealth = 7",
            "health = 7: it starts between 1 and its maximum, 6",
        ),
    ];
    for (extra, says) in cases {
        let got = problems(&enc(
            "gm",
            &[who("ash", "pcs", "a", extra), who("bo", "foes", "a", "")].concat(),
        ));
        assert!(got.iter().any(|p| p.contains(says)), "{extra}: {got:?}");
    }
    // Lost armour: none worn.
    let t = Table::<Murdham>::load(
        &enc(
            "gm",
            &[
                who("ash", "pcs", "a", "armour = \"heavy\"\narmour-lost = true"),
                who("bo", "foes", "a", ""),
            ]
            .concat(),
        ),
        &[],
        &[],
    );
    assert_eq!(t.state().ch(0).stats.armour, 0);
    assert!(
        Murdham::lasting(t.state())[0]
            .values
            .contains(&("armour-lost".into(), "true".into()))
    );
    // A template gives no character's state.
    let got = problems(&format!(
        "{}[template.x]\nstr = 9\nagi = 9\nwit = 9\nlowered = {{ str = 1 }}\n",
        enc("gm", &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat())
    ));
    assert!(
        got.iter()
            .any(|p| p.contains("lowered belongs to one character's state, not to a template")),
        "{got:?}"
    );
}

#[test]
fn the_rests_are_the_games_day_and_full_rests_and_frays_refit() {
    let words: Vec<&str> = Murdham::RESTS.iter().map(|r| r.word).collect();
    assert_eq!(words, ["rest", "full-rest", "refit"]);
    let restores = |w: &str| Murdham::RESTS.iter().find(|r| r.word == w).unwrap().restores;
    assert_eq!(restores("rest"), ["health"]);
    assert_eq!(restores("full-rest"), ["health", "lowered", "injuries"]);
    assert_eq!(restores("refit"), ["damaged", "lost", "armour-damaged", "armour-lost"]);
    assert!(!Murdham::RESTS.iter().any(|r| r.restores.contains(&"dead")));
}

#[test]
fn a_score_the_gm_lowers_is_kept_lowered_and_a_raise_gives_it_back() {
    let toml = enc("gm", &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat());
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.type_as(fray_engine::Seat::GM, "gm set ash agi -3");
    t.type_as(fray_engine::Seat::GM, "gm set ash wit -1");
    t.type_as(fray_engine::Seat::GM, "gm set ash agi +1");
    assert_eq!(
        Murdham::lasting(t.state())[0].values[1],
        ("lowered".to_string(), "{ agi = 2, wit = 1 }".to_string())
    );
    // A lower STR is a lower maximum health: the health kept is never above it, so the next
    // encounter takes it.
    t.type_as(fray_engine::Seat::GM, "gm set ash str -4");
    let ash = &Murdham::lasting(t.state())[0];
    assert_eq!(ash.values[0], ("health".to_string(), "6".to_string()));
    let next = enc(
        "gm",
        &[who("ash", "pcs", "a", &lines(&ash.values)), who("bo", "foes", "a", "")].concat(),
    );
    assert_eq!(problems(&next), Vec::<String>::new());
}

#[test]
fn mur_health_the_conditions_injuries_leave_last_into_the_next_fight_until_a_full_rest() {
    let toml = enc(
        "gm",
        &[
            who("ash", "pcs", "a", "injuries = [\"eye\", \"hobbled\", \"main-arm\"]"),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    assert_eq!(problems(&toml), Vec::<String>::new());
    let t = Table::<Murdham>::load(&toml, &[], &[]);
    let ash = t.state().ch(0);
    assert!(ash.injuries.hobbled && ash.injuries.arms == [true, false] && ash.injuries.eyes == 1);
    // They come out again for the next encounter (until `full-rest` takes the key away).
    let lasting = Murdham::lasting(t.state());
    assert!(
        lasting[0]
            .values
            .contains(&("injuries".into(), "[\"hobbled\", \"main-arm\", \"eye\"]".into())),
        "{:?}",
        lasting[0].values
    );
    let got = problems(&enc(
        "gm",
        &[
            who("ash", "pcs", "a", "injuries = [\"limp\"]"),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    ));
    assert!(
        got.iter()
            .any(|p| p.contains("injuries: 'limp' is not one of hobbled, main-arm, other-arm, eye, blind")),
        "{got:?}"
    );
    let got = problems(&format!(
        "{}[template.x]\nstr = 9\nagi = 9\nwit = 9\ninjuries = [\"hobbled\"]\n",
        enc("gm", &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat())
    ));
    assert!(
        got.iter()
            .any(|p| p.contains("injuries belongs to one character's state, not to a template")),
        "{got:?}"
    );
}
