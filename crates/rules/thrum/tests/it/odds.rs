//! Exact attack odds against large seeded Monte Carlo runs: sampled with the same dice code the
//! engine rolls with, each outcome's frequency must lie within 5 standard errors of the exact
//! probability.

use fray_dice::{Keep, SeededDice, roll};
use fray_thrum::odds::{AttackQuery, Side, attack, parse_query};
use fray_thrum::resolve::verdict_of;

fn kept(dice: &mut SeededDice, net: i16) -> i16 {
    let keep = match net {
        n if n > 0 => Keep::Highest(2),
        n if n < 0 => Keep::Lowest(2),
        _ => Keep::All,
    };
    roll(dice, 2 + net.unsigned_abs() as usize, 6, keep, &"mc")
        .map(|r| r.total as i16)
        .unwrap_or(0)
}

fn check(q: AttackQuery, n: u64, seed: u64) {
    let exact = attack(q).unwrap();
    let mut dice = SeededDice::new(seed);
    let mut counts = [0u64; 4];
    let mut trials = 0u64;
    while trials < n {
        let a = kept(&mut dice, q.attack.net) + q.attack.modifier;
        let d = kept(&mut dice, q.defence.net) + q.defence.modifier;
        if a == d && q.reroll_ties {
            continue;
        }
        trials += 1;
        let k = match verdict_of(a, d, q.margin, q.defence_margin) {
            fray_thrum::event::Verdict::DefenderCritical => 0,
            fray_thrum::event::Verdict::DefenderSuccess => 1,
            fray_thrum::event::Verdict::AttackerSuccess => 2,
            fray_thrum::event::Verdict::AttackerCritical => 3,
        };
        counts[k] += 1;
    }
    let ps = [
        exact.defender_critical,
        exact.defender_success,
        exact.attacker_success,
        exact.attacker_critical,
    ];
    for (k, p) in ps.iter().enumerate() {
        let p = p.value();
        let freq = counts[k] as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
        assert!(
            (freq - p).abs() < 5.0 * se,
            "{q:?} outcome {k}: exact {p}, sampled {freq} ({} standard errors)",
            (freq - p).abs() / se
        );
    }
}

fn q(am: i16, an: i16, dm: i16, dn: i16, reroll: bool) -> AttackQuery {
    AttackQuery {
        attack: Side { modifier: am, net: an },
        defence: Side { modifier: dm, net: dn },
        margin: 5,
        defence_margin: 5,
        reroll_ties: reroll,
        hit: 2,
        critical: 1,
        critical_replaces: false,
        vulnerable: 0,
    }
}

#[test]
fn exact_attack_odds_match_400000_sampled_contests() {
    check(q(3, 0, 1, 1, false), 400_000, 1);
    check(q(2, 2, 0, -1, false), 400_000, 2);
    check(q(0, -2, 3, 3, true), 400_000, 3);
    check(q(5, 1, 0, 0, true), 400_000, 4);
}

#[test]
fn expected_damage_matches_a_sampled_mean() {
    let query = AttackQuery {
        vulnerable: 1,
        critical: 3,
        critical_replaces: true,
        ..q(3, 1, 1, 0, false)
    };
    let exact = attack(query).unwrap().expected_damage;
    let mut dice = SeededDice::new(9);
    let n = 400_000u64;
    let mut total = 0i64;
    let mut sq = 0i64;
    for _ in 0..n {
        let a = kept(&mut dice, 1) + 3;
        let d = kept(&mut dice, 0) + 1;
        let dmg = match verdict_of(a, d, 5, 5) {
            fray_thrum::event::Verdict::AttackerCritical => 3 + 1,
            fray_thrum::event::Verdict::AttackerSuccess => 2 + 1,
            _ => 0,
        };
        total += dmg;
        sq += dmg * dmg;
    }
    let mean = total as f64 / n as f64;
    let var = sq as f64 / n as f64 - mean * mean;
    let se = (var / n as f64).sqrt();
    assert!((mean - exact).abs() < 5.0 * se, "exact {exact}, sampled {mean}");
}

fn args(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

#[test]
fn large_arguments_never_wrap() {
    // 32767 + 1 would wrap to -32768 in 16 bits: the damage is counted in wide integers.
    let q = parse_query(&args("--attack 20 --hit 32767 --critical 32767")).unwrap();
    let o = attack(q).unwrap();
    let hit = o.attacker_success.value();
    let crit = o.attacker_critical.value();
    let want = 32767.0 * hit + 65534.0 * crit;
    assert!(
        (o.expected_damage - want).abs() < 1e-6 * want,
        "{} vs {want}",
        o.expected_damage
    );
    assert!(o.expected_damage > 0.0);
    // Modifiers at both ends of 16 bits: certain outcomes, not wrapped ones.
    let o = attack(parse_query(&args("--attack 32767 --defend -32768")).unwrap()).unwrap();
    assert_eq!(o.attacker_critical.value(), 1.0);
    let o = attack(parse_query(&args("--attack -32768 --defend 32767")).unwrap()).unwrap();
    assert_eq!(o.defender_critical.value(), 1.0);
}

#[test]
fn values_outside_the_supported_range_are_refused_with_a_reason() {
    // Not a 16-bit number at all.
    let e = parse_query(&args("--hit 40000")).unwrap_err();
    assert!(e.contains("-32768 to 32767"), "{e}");
    // 32767 Defence Boons plus Evasion's automatic one would wrap in 16 bits.
    let e = parse_query(&args("--defence evasion --defence-boons 32767")).unwrap_err();
    assert!(e.contains("at most 30"), "{e}");
    // 30 Boons on each side: 64 dice, too many outcomes to count in 128 bits.
    let e = parse_query(&args("--boons 30 --defence-boons 30")).unwrap_err();
    assert!(e.contains("both rolls together"), "{e}");
    // The same query built by hand is refused by the computation itself.
    let big = AttackQuery {
        attack: Side { modifier: 0, net: 30 },
        defence: Side { modifier: 0, net: -30 },
        ..q(0, 0, 0, 0, false)
    };
    assert!(attack(big).is_err());
    // The largest supported pair still computes, and its probabilities add up to 1.
    let o = attack(
        parse_query(&args(
            "--boons 30 --defence-banes 8 --hit 32767 --critical 32767 --vulnerable 32767",
        ))
        .unwrap(),
    )
    .unwrap();
    let sum = o.defender_critical.value()
        + o.defender_success.value()
        + o.attacker_success.value()
        + o.attacker_critical.value();
    assert!((sum - 1.0).abs() < 1e-12);
    assert!(o.expected_damage > 0.0);
    assert!(parse_query(&args("--boons 30 --defence-banes 9")).is_err());
}
