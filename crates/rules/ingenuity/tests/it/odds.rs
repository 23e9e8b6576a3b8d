//! The exact attack odds (src/odds.rs, used by `fray odds ingenuity` and the play notes):
//! against hand-computed fractions, against a brute-force enumeration written here from the
//! rules, and against many seeded attacks played through the real resolver.

use crate::common;
use common::*;
use fray_dice::SeededDice;
use fray_engine::Ruleset;
use fray_engine::text::TextRuleset;
use fray_ingenuity::Ingenuity;
use fray_ingenuity::command::{default_attr, default_prof};
use fray_ingenuity::data::Attr;
use fray_ingenuity::event::Event;
use fray_ingenuity::odds::{self, AttackOdds, Query, attack, parse_query};
use fray_ingenuity::options::SizeShift;
use fray_ingenuity::state::State;
use std::collections::BTreeMap;

/// d4 + d4 against evasion 5, weapon damage 2, critical damage 5 on a 20, deflection 1.
fn d4_d4() -> Query {
    Query {
        attr: 4,
        skill: 4,
        prof: 0,
        modifier: 0,
        advantage: 0,
        evasion: 5,
        size_diff: 0,
        size_shift: SizeShift::Last,
        dodge: None,
        threshold: 20,
        luck_modifier: 0,
        damage: 2,
        critical_damage: 5,
        deflection: Some(1),
        min_damage: 1,
        modified_total: true,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn assert_close(what: &str, got: f64, want: f64) {
    assert!(close(got, want), "{what}: got {got}, want {want}");
}

// ---------------------------------------------------------------------------------------------
// Hand-computed cases
// ---------------------------------------------------------------------------------------------

#[test]
fn d4_plus_d4_against_evasion_5() {
    // 10 of the 16 pairs reach 5; a luck die of 20 (1 in 20) always hits.
    let o = odds::attack(&d4_d4());
    assert_close("hit", o.hit, 1.0 / 20.0 + 19.0 / 20.0 * 10.0 / 16.0);
    assert_close("hit", o.hit, 103.0 / 160.0);
    assert_close("critical", o.critical, 1.0 / 20.0);
    assert_close("miss", o.miss, 57.0 / 160.0);
    assert_close("misfire", o.misfire, 1.0 / 20.0);
    // Mean damage: criticals 1/20 x E[s + 5 - 1] = 1/20 x 9; ordinary hits
    // 19/20 x (6x4 + 7x3 + 8x2 + 9x1)/16. Together 737/160.
    assert_close("mean damage", o.mean_damage, 737.0 / 160.0);
    // P(damage = 9): a critical on a sum of 5 (4/16), or an ordinary hit on a sum of 8 (1/16).
    let p9 = o.damage.iter().find(|(k, _)| *k == 9).map(|(_, p)| *p);
    assert_close(
        "P(9)",
        p9.unwrap_or(0.0),
        1.0 / 20.0 * 4.0 / 16.0 + 19.0 / 20.0 * 1.0 / 16.0,
    );
}

#[test]
fn d4_plus_d4_with_advantage_and_disadvantage() {
    // Rerolling the lower die (the first on a tie) and keeping the better: 53/64 reach 5;
    // twice: 59/64. Disadvantage rerolls the higher and keeps the worse: 23/64.
    let with = |advantage| odds::attack(&Query { advantage, ..d4_d4() });
    assert_close("advantage", with(1).hit, 1071.0 / 1280.0);
    assert_close("double advantage", with(2).hit, 237.0 / 256.0);
    assert_close("disadvantage", with(-1).hit, 501.0 / 1280.0);
    // Criticals do not depend on the rerolls (the luck die is never rerolled).
    for a in [-2, -1, 1, 2] {
        assert_close("critical", with(a).critical, 1.0 / 20.0);
    }
}

#[test]
fn d4_plus_d4_against_a_d4_plus_d4_dodge() {
    // Evasion is max(dodge, 5); the dodge gets +4 on its own luck die of 20.
    let o = odds::attack(&Query {
        dodge: Some((4, 4, 0)),
        ..d4_d4()
    });
    assert_close("hit", o.hit, 5053.0 / 10240.0);
    assert_close("critical", o.critical, 1.0 / 20.0);
}

#[test]
fn a_luck_modifier_widens_criticals_and_removes_misfires() {
    // Threshold 19 with +1: faces 18, 19 and 20 are critical; no face can be 1 or less.
    let o = odds::attack(&Query {
        threshold: 19,
        luck_modifier: 1,
        ..d4_d4()
    });
    assert_close("critical", o.critical, 3.0 / 20.0);
    assert_close("misfire", o.misfire, 0.0);
    assert_close("hit", o.hit, 3.0 / 20.0 + 17.0 / 20.0 * 10.0 / 16.0);
}

#[test]
fn damage_never_drops_below_the_minimum() {
    // Deflection 20: every hit deals exactly 1.
    let o = odds::attack(&Query {
        deflection: Some(20),
        ..d4_d4()
    });
    assert_eq!(o.damage.len(), 1);
    assert_eq!(o.damage[0].0, 1);
    assert_close("P(1)", o.damage[0].1, o.hit);
    assert_close("mean", o.mean_damage, o.hit);
}

// ---------------------------------------------------------------------------------------------
// Brute force from the rules
// ---------------------------------------------------------------------------------------------

/// n x the expected gain of rerolling a die of `n` sides showing `f`: the sum of (x - f) over
/// the faces above f.
fn gain_times_n(n: u8, f: u16) -> u64 {
    let above = u64::from(n).saturating_sub(u64::from(f));
    above * (above + 1) / 2
}

/// The distribution of the two test dice after `advantage` rerolls: advantage rerolls the die
/// whose reroll gains most on average (the attribute die on a tie) and keeps the better face;
/// disadvantage rerolls the die showing more (the attribute die on a tie) and keeps the worse.
fn two_dice(attr: u8, skill: u8, advantage: i8) -> BTreeMap<i16, f64> {
    fn go(faces: [u16; 2], sides: [u8; 2], left: u8, adv: bool, p: f64, out: &mut BTreeMap<i16, f64>) {
        if left == 0 {
            *out.entry((faces[0] + faces[1]) as i16).or_insert(0.0) += p;
            return;
        }
        let which = if adv {
            // gain1 > gain0, compared exactly: g1/n1 > g0/n0.
            let g0 = gain_times_n(sides[0], faces[0]) * u64::from(sides[1]);
            let g1 = gain_times_n(sides[1], faces[1]) * u64::from(sides[0]);
            usize::from(g1 > g0)
        } else {
            usize::from(faces[1] > faces[0])
        };
        for new in 1..=u16::from(sides[which]) {
            let mut f = faces;
            f[which] = if adv { f[which].max(new) } else { f[which].min(new) };
            go(f, sides, left - 1, adv, p / f64::from(sides[which]), out);
        }
    }
    let mut out = BTreeMap::new();
    for a in 1..=u16::from(attr) {
        for s in 1..=u16::from(skill) {
            go(
                [a, s],
                [attr, skill],
                advantage.unsigned_abs(),
                advantage > 0,
                1.0 / f64::from(attr) / f64::from(skill),
                &mut out,
            );
        }
    }
    out
}

/// The odds of an attack by enumerating every attack die, luck die, and dodge die and its luck
/// die, as the chapter describes the attack.
fn brute(q: &Query) -> AttackOdds {
    let attack = two_dice(q.attr, q.skill, q.advantage);
    let dodge: Vec<(Option<i16>, f64)> = match q.dodge {
        None => vec![(None, 1.0)],
        Some((a, s, bonus)) => {
            let mut m: BTreeMap<i16, f64> = BTreeMap::new();
            for (t, p) in two_dice(a, s, 0) {
                for luck in 1..=20i16 {
                    let plus = if luck + q.luck_modifier >= 20 { 4 } else { 0 };
                    *m.entry(t + bonus + plus).or_insert(0.0) += p / 20.0;
                }
            }
            m.into_iter().map(|(k, p)| (Some(k), p)).collect()
        }
    };
    let (mut hit, mut crit, mut misfire) = (0.0, 0.0, 0.0);
    let mut dmg: BTreeMap<i16, f64> = BTreeMap::new();
    for (&dice, &pa) in &attack {
        for luck in 1..=20i16 {
            let pl = pa / 20.0;
            let luck = luck + q.luck_modifier;
            let critical = luck >= q.threshold;
            let total = dice + q.prof + q.modifier;
            for &(d, pd) in &dodge {
                let p = pl * pd;
                if luck <= 1 && !critical {
                    misfire += p;
                }
                let evasion = match (d, q.size_shift) {
                    (None, _) => q.evasion + q.size_diff,
                    (Some(d), SizeShift::Last) => d.max(q.evasion) + q.size_diff,
                    (Some(d), SizeShift::First) => d.max(q.evasion + q.size_diff),
                };
                if !(critical || total >= evasion) {
                    continue;
                }
                hit += p;
                if critical {
                    crit += p;
                }
                let base = if q.modified_total { total } else { dice + q.prof };
                let weapon = if critical { q.critical_damage } else { q.damage };
                let reduction = q.deflection.map_or(0, |d| d - q.size_diff);
                *dmg.entry((base + weapon - reduction).max(q.min_damage)).or_insert(0.0) += p;
            }
        }
    }
    let damage: Vec<(i16, f64)> = dmg.into_iter().collect();
    AttackOdds {
        hit,
        critical: crit,
        miss: 1.0 - hit,
        misfire,
        mean_damage: damage.iter().map(|(k, p)| f64::from(*k) * p).sum(),
        damage,
    }
}

fn assert_same(q: &Query, got: &AttackOdds, want: &AttackOdds) {
    let at = |what: &str, a: f64, b: f64| assert!((a - b).abs() < 1e-9, "{what}: odds {a}, brute force {b}; {q:?}");
    at("hit", got.hit, want.hit);
    at("critical", got.critical, want.critical);
    at("miss", got.miss, want.miss);
    at("misfire", got.misfire, want.misfire);
    at("mean damage", got.mean_damage, want.mean_damage);
    let g: Vec<i16> = got.damage.iter().filter(|(_, p)| *p > 1e-15).map(|(k, _)| *k).collect();
    let w: Vec<i16> = want.damage.iter().map(|(k, _)| *k).collect();
    assert_eq!(g, w, "damage values; {q:?}");
    for ((k, a), (_, b)) in got.damage.iter().filter(|(_, p)| *p > 1e-15).zip(&want.damage) {
        at(&format!("P(damage = {k})"), *a, *b);
    }
}

#[test]
fn the_brute_force_reproduces_the_hand_computed_cases() {
    // A check on the checker.
    let b = brute(&d4_d4());
    assert_close("hit", b.hit, 103.0 / 160.0);
    assert_close("mean", b.mean_damage, 737.0 / 160.0);
    let b = brute(&Query {
        advantage: 1,
        ..d4_d4()
    });
    assert_close("advantage", b.hit, 1071.0 / 1280.0);
    let b = brute(&Query {
        dodge: Some((4, 4, 0)),
        ..d4_d4()
    });
    assert_close("dodge", b.hit, 5053.0 / 10240.0);
}

#[test]
fn exact_odds_match_the_brute_force_on_small_attacks() {
    let mut n = 0;
    for (attr, skill) in [(4, 4), (6, 4), (4, 8), (8, 6)] {
        for advantage in -2..=2i8 {
            for dodge in [None, Some((4, 6, 1))] {
                for (size_diff, size_shift) in [(0, SizeShift::Last), (2, SizeShift::Last), (-1, SizeShift::First)] {
                    for (threshold, luck_modifier, modified_total, deflection) in
                        [(20, 0, true, Some(1)), (18, -1, false, Some(6)), (19, 2, true, None)]
                    {
                        let q = Query {
                            attr,
                            skill,
                            prof: 1,
                            modifier: -2,
                            advantage,
                            evasion: 6,
                            size_diff,
                            size_shift,
                            dodge,
                            threshold,
                            luck_modifier,
                            damage: 3,
                            critical_damage: 7,
                            deflection,
                            min_damage: 1,
                            modified_total,
                        };
                        assert_same(&q, &odds::attack(&q), &brute(&q));
                        n += 1;
                    }
                }
            }
        }
    }
    assert_eq!(n, 4 * 5 * 2 * 3 * 3);
}

// ---------------------------------------------------------------------------------------------
// Against the resolver: many seeded attacks
// ---------------------------------------------------------------------------------------------

/// Frequencies from attacks resolved by the engine.
struct Sim {
    n: usize,
    hits: usize,
    crits: usize,
    damage: BTreeMap<i16, usize>,
    sum: f64,
    sum_sq: f64,
}

/// Resolves `cmd` from `state` `n` times with seeded dice and counts the attack on `target`.
fn simulate(state: &State, cmd: &str, target: &str, n: usize, seed: u64) -> Sim {
    let command = Ingenuity::parse_command(state, cmd).expect("command");
    let pending = Ingenuity::pending(state).expect("a decision");
    let seat = pending.first();
    let plan = Ingenuity::check(state, &pending.stage, seat, &command).expect("legal");
    let target = state.find(target).expect("target");
    let mut dice = SeededDice::new(seed);
    let mut sim = Sim {
        n,
        hits: 0,
        crits: 0,
        damage: BTreeMap::new(),
        sum: 0.0,
        sum_sq: 0.0,
    };
    for _ in 0..n {
        let mut s = state.clone();
        let mut out = Vec::new();
        Ingenuity::resolve(
            &mut fray_engine::Cx::new(&mut s, &mut dice, &mut out),
            &pending.stage,
            seat,
            &command,
            plan.clone(),
        )
        .expect("resolve");
        let mut results = 0;
        for e in &out {
            match e {
                Event::AttackResult { hit, crit, .. } => {
                    results += 1;
                    sim.hits += usize::from(*hit);
                    sim.crits += usize::from(*crit);
                }
                Event::Damaged { who, amount, .. } => {
                    assert_eq!(*who, target);
                    *sim.damage.entry(*amount).or_insert(0) += 1;
                    let a = f64::from(*amount);
                    sim.sum += a;
                    sim.sum_sq += a * a;
                }
                Event::Misfired { .. } => panic!("no misfire is possible here"),
                _ => {}
            }
        }
        assert_eq!(results, 1, "one attack per run");
    }
    sim
}

/// Six standard deviations of a frequency of probability `p` over `n` runs: a seeded run
/// outside it would be a one-in-500-million event, so a failure means the odds are wrong.
fn six_sigma(p: f64, n: usize) -> f64 {
    6.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-12
}

fn compare(o: &AttackOdds, sim: &Sim) {
    let n = sim.n;
    let f = |k: usize| k as f64 / n as f64;
    let check = |what: String, freq: f64, p: f64| {
        assert!(
            (freq - p).abs() <= six_sigma(p, n),
            "{what}: simulated {freq}, exact {p} (tolerance {})",
            six_sigma(p, n)
        );
    };
    check("hit".into(), f(sim.hits), o.hit);
    check("critical".into(), f(sim.crits), o.critical);
    for (k, p) in &o.damage {
        check(
            format!("P(damage = {k})"),
            f(sim.damage.get(k).copied().unwrap_or(0)),
            *p,
        );
    }
    for k in sim.damage.keys() {
        assert!(
            o.damage.iter().any(|(x, _)| x == k),
            "damage {k} happened but has no odds"
        );
    }
    let mean = sim.sum / n as f64;
    let var = sim.sum_sq / n as f64 - mean * mean;
    let tol = 6.0 * (var / n as f64).sqrt() + 1e-12;
    assert!(
        (mean - o.mean_damage).abs() <= tol,
        "mean damage: simulated {mean}, exact {} (tolerance {tol})",
        o.mean_damage
    );
}

const RUNS: usize = 100_000;

/// The query for `who`'s attack on `target` with its first item, as the play notes build it.
fn query(t: &T, who: &str, target: &str) -> Query {
    let (w, x) = (t.id(who), t.id(target));
    odds::query_for(
        t.s(),
        w,
        x,
        0,
        default_attr(t.s(), w, 0),
        default_prof(t.s(), w, 0).as_deref(),
    )
    .expect("query")
}

#[test]
fn odds_match_the_resolver_on_a_plain_spear_thrust() {
    // STR d8 + Combat d6 + martial 1, the spear (4, critical 8 on 19+) against evasion 7 and
    // deflection 2.
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who(
                "hero",
                "pcs",
                "1,0",
                "attributes = { str = 8 }\nskills = { combat = 6 }\nproficiencies = { martial = 1 }\nitems = [\"spear\"]"
            ),
            who(
                "foe",
                "foes",
                "2,0",
                "evasion = 7\ndeflection = 2\nendurance = 60\nhealth = 60\nstamina = 1\nnow = { stamina = 0 }"
            )
        ),
    );
    let t = T::turn_of(&toml, "hero");
    let q = query(&t, "hero", "foe");
    assert_eq!((q.attr, q.skill, q.prof, q.modifier, q.advantage), (8, 6, 1, 0, 0));
    assert_eq!(
        (q.threshold, q.damage, q.critical_damage, q.deflection),
        (19, 4, 8, Some(2))
    );
    compare(&odds::attack(&q), &simulate(t.s(), "attack foe", "foe", RUNS, 1));
}

#[test]
fn odds_match_the_resolver_on_a_second_attack_with_advantage() {
    // The second attack of the round (-2) on a prone target (melee: advantage), DEX d10 and
    // Combat d4 (different dice, so the choice of the die to reroll matters).
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who(
                "hero",
                "pcs",
                "1,0",
                "attributes = { dex = 10, str = 4 }\nskills = { combat = 4 }\nproficiencies = { finesse = 2 }\nitems = [\"spear\"]"
            ),
            who(
                "foe",
                "foes",
                "2,0",
                "evasion = 9\ndeflection = 3\nendurance = 60\nhealth = 60\nstamina = 1\nnow = { stamina = 0 }\nconditions = [\"prone\"]"
            )
        ),
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[1, 1, 10, 1]);
    t.cmd("attack foe");
    let q = query(&t, "hero", "foe");
    assert_eq!((q.attr, q.skill, q.prof, q.modifier, q.advantage), (10, 4, 2, -2, 1));
    compare(&odds::attack(&q), &simulate(t.s(), "attack foe", "foe", RUNS, 2));
}

/// A hidden hero (size 5) next to a target (size 4) flanked by the hero's ally; the target
/// dodges with DEX d8 + Agility d6 + dodge 1 against the hero's attack.
fn dodge_scene(options: &str) -> (T, Query) {
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}{}{options}",
            who(
                "hero",
                "pcs",
                "0,0",
                "size = 5\nattributes = { str = 6 }\nskills = { combat = 8 }\nproficiencies = { martial = 2 }\nitems = [\"spear\"]\nconditions = [\"hidden\"]"
            ),
            who(
                "foe",
                "foes",
                "1,0",
                "size = 4\nattributes = { dex = 8 }\nskills = { agility = 6 }\nproficiencies = { dodge = 1 }\nevasion = 7\ndeflection = 3\nendurance = 60\nhealth = 60"
            ),
            who("mate", "pcs", "2,0", "")
        ),
    );
    let mut t = T::turn_of(&toml, "hero");
    let mut q = query(&t, "hero", "foe");
    let st = &t.s().info(t.id("foe")).stats;
    assert_eq!((st.attr(Attr::Dex), st.skill("agility"), st.prof("dodge")), (8, 6, 1));
    q.dodge = Some((8, 6, 1));
    t.cmd("attack foe");
    assert_eq!(t.pending(), ("defence", "foe".into()));
    (t, q)
}

#[test]
fn odds_match_the_resolver_against_a_dodge_with_double_advantage_and_size() {
    let (t, q) = dodge_scene("");
    assert_eq!((q.advantage, q.size_diff, q.size_shift), (2, 1, SizeShift::Last));
    compare(&odds::attack(&q), &simulate(t.s(), "dodge", "foe", RUNS, 3));
}

#[test]
fn odds_match_the_resolver_with_the_options_changed() {
    // Size shift first, critical damage as a bonus, and a luck modifier of 2 (which also gives
    // the dodge its +4 on 18 or more).
    let (t, q) = dodge_scene(
        "[options]\nsize-shift = \"first\"\ncritical-damage = \"bonus\"\nluck-modifier = 2\ndamage-total = \"unmodified\"\n",
    );
    assert_eq!(
        (q.size_shift, q.critical_damage, q.luck_modifier, q.modified_total),
        (SizeShift::First, 12, 2, false)
    );
    compare(&odds::attack(&q), &simulate(t.s(), "dodge", "foe", RUNS, 4));
}

#[test]
fn odds_match_the_resolver_on_a_ranged_shot_at_a_prone_smaller_target() {
    // The ember rod (INT, fire 3, critical 7 on 19+): disadvantage against a prone target,
    // the attacker smaller by 1, elemental deflection 2; a third attack of the round (-4).
    let toml = enc(
        &[". . . . . ."],
        &format!(
            "{}{}",
            who(
                "hero",
                "pcs",
                "0,0",
                "size = 3\nattributes = { int = 12 }\nskills = { combat = 6 }\nproficiencies = { arcana = 3 }\nitems = [\"ember-rod\"]"
            ),
            who(
                "foe",
                "foes",
                "4,0",
                "size = 4\nevasion = 5\ndeflection = 9\nelemental-deflection = 2\nendurance = 60\nhealth = 60\nstamina = 1\nnow = { stamina = 0 }\nconditions = [\"prone\"]"
            )
        ),
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[1, 1, 10, 1, 1, 1, 10, 1]);
    t.cmd("attack foe");
    t.cmd("attack foe");
    let q = query(&t, "hero", "foe");
    assert_eq!(
        (q.attr, q.prof, q.modifier, q.advantage, q.size_diff),
        (12, 3, -4, -1, -1)
    );
    assert_eq!(q.deflection, Some(2));
    compare(&odds::attack(&q), &simulate(t.s(), "attack foe", "foe", RUNS, 5));
}

fn args(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

#[test]
fn advantage_and_disadvantage_flags_net_out_as_in_play() {
    // ING-R43 to ING-R47: each advantage cancels one disadvantage, whatever the flags' order.
    let q = parse_query(&args(&["--advantage", "2", "--disadvantage", "1"])).expect("parses");
    assert_eq!(q.advantage, 1);
    let q = parse_query(&args(&["--disadvantage", "1", "--advantage", "2"])).expect("parses");
    assert_eq!(q.advantage, 1);
    let q = parse_query(&args(&["--disadvantage", "3"])).expect("parses");
    assert_eq!(q.advantage, -3);
    let q = parse_query(&args(&["--advantage", "1", "--disadvantage", "1"])).expect("parses");
    assert_eq!(q.advantage, 0);
    assert!(parse_query(&args(&["--advantage", "4"])).is_err());
    assert!(parse_query(&args(&["--disadvantage", "-1"])).is_err());
}

#[test]
fn numbers_outside_the_supported_range_are_refused_not_wrapped() {
    for (flag, v) in [
        ("--damage", "32767"),
        ("--evasion", "20000"),
        ("--modifier", "-32768"),
        ("--prof", "1000"),
        ("--crit-damage", "99999999999"),
        ("--deflection", "-1000"),
        ("--luck-modifier", "5000"),
        ("--threshold", "1000"),
        ("--attacks-before", "100"),
    ] {
        let e = parse_query(&args(&[flag, v])).expect_err(flag);
        assert!(e.contains(flag), "{e}");
    }
    // The extremes that are accepted give exact, unwrapped answers.
    let q = parse_query(&args(&[
        "--damage",
        "999",
        "--crit-damage",
        "999",
        "--prof",
        "999",
        "--modifier",
        "999",
    ]))
    .expect("parses");
    let o = attack(&q);
    assert_close("hit", o.hit, 1.0);
    assert!(o.mean_damage > 2000.0, "{}", o.mean_damage);
    let q = parse_query(&args(&[
        "--evasion",
        "999",
        "--attacks-before",
        "99",
        "--modifier",
        "-900",
    ]));
    assert!(q.is_err(), "the modifier would come to -900 - 198");
}
