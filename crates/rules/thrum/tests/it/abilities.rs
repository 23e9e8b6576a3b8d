//! Abilities as data (THR-R223 to THR-R226) and Nova Potential across combats (THR-R188), with
//! the options `rounding` (THR-H5), `non-attack-lines` and `doubles-from` (THR-H27).

use crate::common;
use common::*;
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::text::TextRuleset;
use fray_thrum::Thrum;
use fray_thrum::ability::{
    AbilityBook, Amount, Art, AttackKind, Kind, Line, Op, Reach, Recipient, TargetSpec, Term, TriggerOn, Var, XStatus,
    load_abilities,
};
use fray_thrum::event::{Event, Verdict};

const FIELD: [&str; 2] = [". . . . . . . . . .", ". . . . . . . . . ."];

/// An NPC with every defence at 0 and room for Fatigue.
const GRUNT: &str = "attack = 3\nresilience = 0\nevasion = 0\nresolve = 0\nmax-fatigue-tolerance = 8";

/// Loads one ability file into an empty book.
fn load(text: &str) -> Result<AbilityBook, Vec<Diagnostic>> {
    let f = SourceFile {
        name: "mine.toml".into(),
        text: text.into(),
    };
    let mut book = AbilityBook::default();
    load_abilities(&f, &mut book, &mut Vec::new()).map(|_| book)
}

/// Loads an encounter (with extra files) and returns its diagnostics; panics if it loads.
fn load_errors(toml: &str, files: &[(&str, &str)]) -> Vec<Diagnostic> {
    let src = SourceFile {
        name: "test.toml".into(),
        text: toml.into(),
    };
    let mut read = |p: &str| {
        files
            .iter()
            .find(|(n, _)| *n == p)
            .map(|(n, t)| SourceFile {
                name: n.to_string(),
                text: t.to_string(),
            })
            .ok_or_else(|| format!("no file {p}"))
    };
    match Thrum::load(&src, &mut read) {
        Ok(_) => panic!("the encounter loaded"),
        Err(d) => d,
    }
}

/// 1-based line and column of the first occurrence of `needle` in `text`.
fn line_col(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).expect("needle");
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

fn line(op: Op) -> Line {
    Line {
        op,
        to: Recipient::Target,
        min_tier: 0,
    }
}

// ---------------------------------------------------------------------------------------------
// THR-R223: the record
// ---------------------------------------------------------------------------------------------

const RECORDS: &str = r#"
[[ability]]
id = "storm-lash"
name = "Storm Lash"
art = "kineticism"
type = "action"
attack = "mental"
tags = ["ranged", "finisher"]
range = 5
target = "up-to-2-enemies"
effect = [{ status = "shocked", x = 1 }]
success = [{ stress = 2 }]
critical = [{ condition = "dazed" }]
overexert = [{ label = "surge", extra = [{ stress = 1 }] }]

[[ability]]
id = "guard-up"
art = "brawling"
type = "stance"
range = 1
trigger = { on = "foe-aims-at-ally", defence-boons = 1, ends-stance = "always" }

[[ability]]
id = "thick-skin"
type = "passive"
modifiers = [{ roll = "resilience", boons = 1 }]

[[ability]]
id = "inner-calm"
type = "action"
range = "self"
target = "self"
effect = [{ reduce-stress = 1 }]

[[ability]]
id = "frost-ring"
art = "elementalism"
type = "action"
tags = ["terrain-effect"]
range = 0
target = "aura 2"
terrain = { difficult = "enemies", affects = "enemies" }
"#;

#[test]
fn thr_r223_an_ability_record_holds_art_type_tags_range_target_trigger_and_lines() {
    let book = load(RECORDS).unwrap_or_else(|d| panic!("{d:?}"));
    let get = |id: &str| book.get(book.find(id).unwrap()).clone();

    let lash = get("storm-lash");
    assert_eq!(lash.name, "Storm Lash");
    assert_eq!(lash.art, Some(Art::Kineticism));
    assert_eq!(lash.kind, Kind::Action);
    assert_eq!(lash.attack, Some(AttackKind::Mental));
    assert!(lash.ranged && lash.finisher && !lash.buff && !lash.terrain_effect);
    assert_eq!(lash.reach, Reach::Squares(Amount::constant(5)));
    assert_eq!(lash.target, TargetSpec::UpToEnemies(2));
    assert_eq!(
        lash.effect,
        vec![line(Op::Status(XStatus::Shocked, Amount::constant(1)))]
    );
    assert_eq!(lash.success, vec![line(Op::Stress(Amount::constant(2)))]);
    assert_eq!(
        lash.critical,
        vec![line(Op::Condition(fray_thrum::ability::Cond::Dazed))]
    );
    assert_eq!(lash.overexert.len(), 1);
    assert_eq!(lash.overexert[0].label, "surge");
    assert_eq!(lash.overexert[0].extra, vec![line(Op::Stress(Amount::constant(1)))]);
    assert!(lash.trigger.is_none());

    let guard = get("guard-up");
    assert_eq!(guard.kind, Kind::Stance);
    assert_eq!(guard.art, Some(Art::Brawling));
    assert_eq!(guard.attack, None);
    assert_eq!(guard.trigger.as_ref().map(|t| t.on), Some(TriggerOn::FoeAimsAtAlly));

    let skin = get("thick-skin");
    assert_eq!(skin.kind, Kind::Passive);
    assert_eq!(skin.modifiers.len(), 1);

    // Range Self, and Range 0 (a number).
    let calm = get("inner-calm");
    assert_eq!((calm.reach, calm.target), (Reach::SelfOnly, TargetSpec::SelfOnly));
    let ring = get("frost-ring");
    assert_eq!(ring.reach, Reach::Squares(Amount::constant(0)));
    assert_eq!(ring.target, TargetSpec::Aura(Amount::constant(2)));
    assert!(ring.terrain_effect && ring.terrain.is_some());
}

#[test]
fn thr_r223_the_shipped_records_fire_burst_and_spirit_armor() {
    let t = T::new(
        &enc(
            &FIELD,
            &format!("{}{}", who("c", "pcs", "0,0", ""), who("e", "npcs", "9,0", GRUNT)),
        ),
        &[6, 6, 1, 1],
    );
    let book = &t.s().setup.book;
    let burst = book.get(book.find("fire-burst").unwrap());
    assert_eq!(burst.art, Some(Art::Elementalism));
    assert_eq!(burst.attack, Some(AttackKind::Physical));
    assert!(burst.ranged);
    assert_eq!(burst.reach, Reach::Squares(Amount::constant(4)));
    assert_eq!(burst.target, TargetSpec::Area(Amount::constant(2)));
    let labels: Vec<&str> = burst.overexert.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, vec!["wide", "fierce", "searing"]);
    let armor = book.get(book.find("spirit-armor").unwrap());
    assert_eq!(armor.art, Some(Art::Animism));
    assert!(armor.buff && armor.attack.is_none());
    assert_eq!(armor.target, TargetSpec::AllyOrSelf);
    assert_eq!(armor.reach, Reach::Squares(Amount::constant(2)));
}

#[test]
fn thr_r223_a_malformed_record_is_reported_with_file_line_and_column() {
    let text = "[[ability]]\nid = \"zap\"\ntype = \"reaction\"\ntags = [\"ranged\", \"sneaky\"]\ntarget = \"enemy\"\n";
    let errs = load(text).unwrap_err();
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert_eq!(errs[0].file, "mine.toml");
    assert_eq!((errs[0].line, errs[0].column), line_col(text, "\"reaction\""));
    assert!(
        errs[0].message.contains("unknown type 'reaction'"),
        "{}",
        errs[0].message
    );
    assert_eq!((errs[1].line, errs[1].column), line_col(text, "\"sneaky\""));
    assert!(errs[1].message.contains("unknown tag 'sneaky'"), "{}", errs[1].message);
    // Broken TOML is located too.
    let broken = "[[ability]]\nid = \"zap\"\ntype = \"action\nrange = 1\n";
    let errs = load(broken).unwrap_err();
    assert_eq!(errs[0].file, "mine.toml");
    assert_eq!(errs[0].line, 3);
    assert!(errs[0].column > 0);
}

#[test]
fn thr_r223_an_encounters_ability_file_is_checked_when_the_encounter_loads() {
    let bad =
        "[[ability]]\nid = \"zap\"\ntype = \"action\"\ntarget = \"enemy\"\nsuccess = [{ fatigue = 2, stress = 1 }]\n";
    let e = with_abilities(
        &FIELD,
        &format!("{}{}", who("c", "pcs", "0,0", ""), who("e", "npcs", "9,0", GRUNT)),
        bad,
    );
    let errs = load_errors(&e.0, &[("test-abilities.toml", bad)]);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].file, "test-abilities.toml");
    assert_eq!((errs[0].line, errs[0].column), line_col(bad, "{ fatigue"));
    assert!(errs[0].message.contains("only one operation"), "{}", errs[0].message);
}

// ---------------------------------------------------------------------------------------------
// THR-R224: upgrades
// ---------------------------------------------------------------------------------------------

/// Archer C (attack +3, POW 2, REF 2) at 0,0 with Piercing Shot plain and upgraded; enemy E
/// at 7,0.
fn archer(abilities: &str, e_extra: &str) -> T {
    let mut t = T::in_round_one(
        &enc(
            &FIELD,
            &format!(
                "{}{}",
                who(
                    "c",
                    "pcs",
                    "0,0",
                    &format!("attack = 3\nattributes = {{ pow = 2, ref = 2 }}\nabilities = [{abilities}]")
                ),
                who("e", "npcs", "7,0", &format!("{GRUNT}\n{e_extra}"))
            ),
        ),
        &[6, 6, 1, 1],
    );
    if t.turn().0 == "c" {
        t.cmd("begin");
    }
    t
}

#[test]
fn thr_r224_upgrade_c_extends_piercing_shot_to_range_8() {
    // Upgrade c is fray's own example content: a range patch.
    let mut t = archer("\"piercing-shot\", \"piercing-shot+a+c\"", "");
    // E is 7 squares away: out of the base Range 6, within the upgraded 8.
    assert_eq!(t.reject("act piercing-shot e").code, "out-of-range");
    t.cmd("act piercing-shot+a+c e");
    assert_eq!(t.pending(), ("defence", "e".into()));
}

#[test]
fn thr_r224_upgrade_a_adds_half_pow_to_the_critical_fatigue() {
    // THR-R224, THR-H5: 2 Fatigue, + 1 on a Critical, + half of POW 2 = 1 with upgrade a.
    let mut t = archer("\"piercing-shot+a+c\"", "");
    t.cmd("act piercing-shot+a+c e");
    // 6 + 6 + 3 = 15 against 1 + 1 = 2: a Critical.
    t.dice(&[6, 6, 1, 1]);
    t.cmd("defend resilience");
    assert_eq!(contests(&t.last), vec![(15, Some(2), Verdict::AttackerCritical)]);
    assert_eq!(t.ch("e").fatigue, 4);
    // A plain Success deals the 2 of the Success line only.
    let mut t = archer("\"piercing-shot+a+c\"", "");
    t.cmd("act piercing-shot+a+c e");
    t.dice(&[2, 2, 2, 2]);
    t.cmd("defend resilience");
    assert_eq!(contests(&t.last), vec![(7, Some(4), Verdict::AttackerSuccess)]);
    assert_eq!(t.ch("e").fatigue, 2);
    // The book keeps the base record and the upgraded one side by side.
    let book = &t.s().setup.book;
    let base = book.get(book.find("piercing-shot").unwrap());
    let up = book.get(book.find("piercing-shot+a+c").unwrap());
    assert_eq!(base.reach, Reach::Squares(Amount::constant(6)));
    assert_eq!(up.reach, Reach::Squares(Amount::constant(8)));
    assert_eq!(base.critical, vec![line(Op::Fatigue(Amount::constant(1)))]);
    assert_eq!(
        up.critical,
        vec![
            line(Op::Fatigue(Amount::constant(1))),
            line(Op::Fatigue(Amount::parse("half(POW)").unwrap()))
        ]
    );
}

/// C (REF 2, Initiative 2 + 5 + 5 = 12) with Piercing Shot b; E (Initiative 13) 5 squares
/// away acts first; C's turn is up, after E's.
fn quick_archer() -> T {
    let mut t = T::in_round_one(
        &enc(
            &[". . . . . ."],
            &format!(
                "{}{}",
                who(
                    "c",
                    "pcs",
                    "0,0",
                    "attack = 3\nattributes = { ref = 2 }\nabilities = [\"piercing-shot+b\"]"
                ),
                who("e", "npcs", "5,0", &format!("{GRUNT}\ninitiative = 1"))
            ),
        ),
        &[5, 5, 6, 6],
    );
    assert_eq!(t.order(), vec!["e", "c"]);
    t.cmds(&["begin", "end"]);
    t
}

#[test]
fn thr_r224_thr_r18_upgrade_b_a_critical_adds_ref_to_initiative() {
    let mut t = quick_archer();
    t.cmd("act piercing-shot+b e");
    // 6 + 6 + 3 = 15 against 2: a Critical raises C's Initiative by REF 2.
    t.dice(&[6, 6, 1, 1]);
    t.cmd("defend resilience");
    assert_eq!(contests(&t.last), vec![(15, Some(2), Verdict::AttackerCritical)]);
    assert_eq!(t.ch("c").initiative, 14);
    assert!(
        t.last
            .iter()
            .any(|e| matches!(e, Event::InitiativeChanged { delta: 2, .. }))
    );
    // THR-R18: the order changes at the start of the next round.
    assert_eq!(t.order(), vec!["e", "c"]);
    t.cmd("end");
    assert_eq!(t.s().round, 2);
    assert_eq!(t.order(), vec!["c", "e"]);
}

#[test]
fn thr_r224_upgrade_b_a_hit_without_a_critical_or_a_miss_leaves_initiative_alone() {
    for dice in [[2, 2, 2, 2], [1, 1, 6, 6]] {
        let mut t = quick_archer();
        t.cmd("act piercing-shot+b e");
        t.dice(&dice);
        t.cmd("defend resilience");
        assert_ne!(contests(&t.last)[0].2, Verdict::AttackerCritical);
        assert_eq!(t.ch("c").initiative, 12);
        assert!(!t.last.iter().any(|e| matches!(e, Event::InitiativeChanged { .. })));
    }
}

#[test]
fn thr_r224_an_unknown_upgrade_letter_is_reported_with_file_line_and_column() {
    let toml = enc(
        &FIELD,
        &format!(
            "{}{}",
            who("c", "pcs", "0,0", "abilities = [\"piercing-shot+a+d\"]"),
            who("e", "npcs", "9,0", GRUNT)
        ),
    );
    let errs = load_errors(&toml, &[]);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].file, "test.toml");
    assert_eq!((errs[0].line, errs[0].column), line_col(&toml, "\"piercing-shot+a+d\""));
    assert!(
        errs[0]
            .message
            .contains("'piercing-shot' has no upgrade 'd' (upgrades: a, b, c)"),
        "{}",
        errs[0].message
    );
}

#[test]
fn thr_r224_a_malformed_upgrade_in_an_ability_file_is_reported() {
    let text = "[[ability]]\nid = \"zap\"\ntype = \"action\"\nupgrade = [\n  { name = \"a\", range = 2 },\n  { name = \"a\", range = \"far\" },\n]\n";
    let errs = load(text).unwrap_err();
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert_eq!((errs[0].line, errs[0].column), (6, 12));
    assert!(
        errs[0].message.contains("upgrade 'a' is defined twice"),
        "{}",
        errs[0].message
    );
    assert_eq!((errs[1].line, errs[1].column), line_col(text, "\"far\""));
    assert!(errs[1].message.contains("unknown value 'far'"), "{}", errs[1].message);
}

const WHACK: &str = r#"
[[ability]]
id = "whack"
art = "brawling"
type = "action"
attack = "physical"
range = 1
target = "enemy"
success = [{ fatigue = 1 }]
upgrade = [{ name = "a", add-success = [{ fatigue = "half(POW)" }] }]
"#;

/// C (POW 3, attack +3) next to E, with Whack or Whack+a.
fn whack(ability: &str, options: &str) -> T {
    let e = with_abilities(
        &FIELD,
        &format!(
            "{options}{}{}",
            who(
                "c",
                "pcs",
                "0,0",
                &format!("attack = 3\nattributes = {{ pow = 3 }}\nabilities = [\"{ability}\"]")
            ),
            who("e", "npcs", "1,0", GRUNT)
        ),
        WHACK,
    );
    let mut t = t_with(&e, &[6, 6, 1, 1]);
    t.skip_round_zero();
    t.cmd("begin");
    t.cmd(&format!("act {ability} e"));
    // 3 + 3 + 3 = 9 against 3 + 2 = 5: a Success.
    t.dice(&[3, 3, 3, 2]);
    t.cmd("defend resilience");
    assert_eq!(contests(&t.last), vec![(9, Some(5), Verdict::AttackerSuccess)]);
    t
}

#[test]
fn thr_r224_thr_h5_an_upgrade_adds_half_an_attribute_rounded_down() {
    assert_eq!(whack("whack", "").ch("e").fatigue, 1);
    let t = whack("whack+a", "");
    // 1 + half(POW 3) = 1 + 1.
    assert_eq!(t.ch("e").fatigue, 2);
    let book = &t.s().setup.book;
    let up = book.get(book.find("whack+a").unwrap());
    assert_eq!(
        up.success,
        vec![
            line(Op::Fatigue(Amount::constant(1))),
            line(Op::Fatigue(Amount {
                terms: vec![Term::Half(Var::Attr(fray_thrum::ability::Attr::Pow))]
            }))
        ]
    );
}

#[test]
fn thr_h5_option_rounding_up() {
    let t = whack("whack+a", "[options]\nrounding = \"up\"\n");
    // 1 + half(POW 3) rounded up = 1 + 2.
    assert_eq!(t.ch("e").fatigue, 3);
}

// ---------------------------------------------------------------------------------------------
// THR-R225: abilities without an Attack tag
// ---------------------------------------------------------------------------------------------

const MEND: &str = r#"
[[ability]]
id = "mend"
type = "action"
range = 1
target = "ally-or-self"
effect = [{ reduce-fatigue = 1 }]
success = [{ reduce-fatigue = 1 }]
"#;

fn mend(options: &str) -> T {
    let e = with_abilities(
        &FIELD,
        &format!(
            "{options}{}{}{}",
            who("c", "pcs", "0,0", "abilities = [\"mend\"]"),
            who("a", "pcs", "1,0", ""),
            who("e", "npcs", "9,0", GRUNT)
        ),
        MEND,
    );
    let mut t = t_with(&e, &[6, 6, 5, 5, 1, 1]);
    t.skip_round_zero();
    t.set("a", "fatigue", 3);
    t.cmd("begin");
    t.cmd("act mend a");
    t.assert_dice_used();
    assert!(contests(&t.last).is_empty());
    assert!(!t.last.iter().any(|e| matches!(e, Event::DefenceChosen { .. })));
    t
}

#[test]
fn thr_r225_an_ability_without_an_attack_tag_applies_effect_and_success_directly() {
    let t = mend("");
    assert_eq!(t.ch("a").fatigue, 1);
}

#[test]
fn thr_r225_option_non_attack_lines_effect_only() {
    let t = mend("[options]\nnon-attack-lines = \"effect-only\"\n");
    assert_eq!(t.ch("a").fatigue, 2);
}

// ---------------------------------------------------------------------------------------------
// THR-R226, THR-R188: Nova (Final Flourish)
// ---------------------------------------------------------------------------------------------

/// Duelist S (attack +3) next to E, with Final Flourish; `nova` is S's carried Potential.
/// S acts first; E, last, begins its turns by itself.
fn duelist(nova: &str) -> T {
    let mut t = T::in_round_one(
        &enc(
            &FIELD,
            &format!(
                "{}{}",
                who(
                    "s",
                    "pcs",
                    "0,0",
                    &format!("attack = 3\nabilities = [\"final-flourish\"]\n{nova}")
                ),
                who("e", "npcs", "1,0", GRUNT)
            ),
        ),
        &[6, 6, 1, 1],
    );
    t.cmd("begin");
    t
}

fn potential(t: &T) -> u8 {
    t.ch("s").nova[0].potential
}

/// From S's turn: S and E end their turns; S's next turn begins.
fn next_round(t: &mut T) {
    t.cmds(&["end", "end", "begin"]);
}

#[test]
fn thr_r226_final_flourish_earns_1_potential_per_round_end_capped_at_its_cost() {
    let mut t = duelist("");
    // Round Zero earned nothing.
    assert_eq!(potential(&t), 0);
    let r = t.reject("act final-flourish e");
    assert_eq!(r.code, "not-now");
    assert!(r.reason.contains("needs 3 Potential and has 0"), "{}", r.reason);
    next_round(&mut t);
    assert_eq!(potential(&t), 1);
    assert!(
        t.all_events()
            .iter()
            .any(|e| matches!(e, Event::NovaEarned { potential: 1, .. }))
    );
    next_round(&mut t);
    next_round(&mut t);
    assert_eq!(potential(&t), 3);
    next_round(&mut t);
    assert_eq!(potential(&t), 3);
    assert_eq!(t.s().round, 5);
}

#[test]
fn thr_r226_spending_potential_uses_the_nova_once_per_combat() {
    let mut t = duelist("nova = { final-flourish = 3 }");
    t.cmd("act final-flourish e");
    assert_eq!(potential(&t), 0);
    assert!(t.ch("s").nova[0].used);
    // 6 + 6 + 3 = 15 against 2: a Critical for 3 + 2 Fatigue.
    t.dice(&[6, 6, 1, 1]);
    t.cmd("defend resilience");
    assert_eq!(t.ch("e").fatigue, 5);
    // Three rounds later it has 3 Potential again, but it was already used this combat.
    next_round(&mut t);
    next_round(&mut t);
    next_round(&mut t);
    assert_eq!(potential(&t), 3);
    let r = t.reject("act final-flourish e");
    assert_eq!(r.code, "not-now");
    assert!(r.reason.contains("already used this combat"), "{}", r.reason);
}

#[test]
fn thr_r226_carried_potential_is_capped_at_the_cost() {
    let t = duelist("nova = { final-flourish = 5 }");
    assert_eq!(potential(&t), 3);
}

const LUCKY: &str = r#"
[[ability]]
id = "lucky-strike"
type = "action"
attack = "physical"
range = 1
target = "enemy"
nova = { cost = 2, earn = "doubles-on-attack" }
success = [{ fatigue = 3 }]
"#;

/// C (Lucky Strike, a Nova earned by doubles on attack rolls) shoots a Basic Attack (Ranged) at
/// the adjacent E: 1 Bane, so 3 dice, the worst two kept. Returns the Potential afterwards.
fn lucky(options: &str, faces: &[u16]) -> u8 {
    let e = with_abilities(
        &FIELD,
        &format!(
            "{options}{}{}",
            who("c", "pcs", "0,0", "attack = 3\nabilities = [\"lucky-strike\"]"),
            who("e", "npcs", "1,0", GRUNT)
        ),
        LUCKY,
    );
    let mut t = t_with(&e, &[6, 6, 1, 1]);
    t.skip_round_zero();
    t.cmd("begin");
    t.cmd("act basic-attack e");
    t.dice(faces).dice(&[1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    t.ch("c").nova[0].potential
}

#[test]
fn thr_r226_thr_h27_doubles_count_only_among_the_kept_dice() {
    // 6, 6, 1 keeps 1 and 6: no doubles; 2, 2, 5 keeps 2 and 2: doubles.
    assert_eq!(lucky("", &[6, 6, 1]), 0);
    assert_eq!(lucky("", &[2, 2, 5]), 1);
}

#[test]
fn thr_h27_option_doubles_from_all_dice() {
    assert_eq!(lucky("[options]\ndoubles-from = \"all-dice\"\n", &[6, 6, 1]), 1);
    assert_eq!(lucky("[options]\ndoubles-from = \"all-dice\"\n", &[6, 5, 1]), 0);
}

#[test]
fn thr_r188_nova_potential_at_the_end_of_combat_is_carried_in_plus_earned() {
    let mut t = duelist("nova = { final-flourish = 1 }");
    next_round(&mut t);
    assert_eq!(potential(&t), 2);
    t.cmd("gm end pcs");
    assert!(t.s().outcome.is_some());
    // 1 carried in + 1 earned: the end state keeps 2, ready for the next encounter, and the
    // once-per-combat mark is cleared.
    assert_eq!(potential(&t), 2);
    assert!(!t.ch("s").nova[0].used);
    let mut next = duelist(&format!("nova = {{ final-flourish = {} }}", potential(&t)));
    assert_eq!(potential(&next), 2);
    next_round(&mut next);
    next.cmd("act final-flourish e");
    assert_eq!(potential(&next), 0);
}

#[test]
fn thr_r188_a_campaign_keeps_nova_potential_until_downtime() {
    let mut t = duelist("nova = { final-flourish = 1 }");
    next_round(&mut t);
    t.cmd("gm end pcs");
    // The PC leaves its Potential in the roster, written as the encounter key `nova`; the NPC
    // leaves nothing.
    let lasting = Thrum::lasting(t.s());
    assert_eq!(lasting.len(), 1);
    assert_eq!(
        lasting[0].values.last(),
        Some(&("nova".to_string(), "{ final-flourish = 2 }".to_string()))
    );
    let next = duelist(&format!("nova = {}", lasting[0].values[3].1));
    assert_eq!(potential(&next), 2);
    // Downtime loses it (THR-R188).
    assert!(Thrum::RESTS[0].restores.contains(&"nova"));
}

#[test]
fn thr_r188_spent_potential_is_gone_from_the_end_state() {
    let mut t = duelist("nova = { final-flourish = 3 }");
    t.cmd("act final-flourish e");
    t.dice(&[1, 1, 6, 6]);
    t.cmd("defend resilience");
    next_round(&mut t);
    t.cmd("gm end pcs");
    // 3 carried + 1 earned - 3 spent.
    assert_eq!(potential(&t), 1);
}
