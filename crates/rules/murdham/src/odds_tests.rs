//! Tests of the Murdham odds: the worked numbers of the rules, brute-force enumerations of dice
//! sequences, exact sums, closed forms, and the command line's errors.

use super::*;

fn c(v: u64) -> Count {
    Count::from(v)
}

fn ch(num: u64, den: u64) -> Chance {
    Chance::of(num, den)
}

/// `1 / n^k` as a chance.
fn inverse_power(n: u64, k: u32) -> Chance {
    Chance::new(c(1), Count::from(u128::from(n).pow(k)))
}

/// Runs the command line on words split at spaces.
fn run_words(line: &str) -> Result<(String, serde_json::Value), String> {
    let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    parse_and_run(&args)
}

/// The sum of a distribution's counts and tail.
fn mass(d: &TailDist) -> Count {
    d.counts().iter().fold(d.tail().clone(), |acc, x| &acc + x)
}

/// Brute force: every padded sequence of `depth` faces of `die`, as the value of the roll it
/// makes (`None` when every face is the highest: the roll goes on beyond the depth).
fn sequences(die: Die, depth: u32) -> Vec<Option<u32>> {
    let n = die.sides();
    (0..n.pow(depth))
        .map(|mut index| {
            let faces: Vec<u32> = (0..depth)
                .map(|_| {
                    let f = index % n + 1;
                    index /= n;
                    f
                })
                .collect();
            let stop = faces.iter().position(|&f| f != n)?;
            Some(exploding_total(die, &faces[..=stop]).expect("a finished roll"))
        })
        .collect()
}

/// Brute force: the kept roll of every pair of padded sequences (one for a plain roll), as a
/// tally of values up to `(N-1) * depth` and a count above it.
fn brute_kept(die: Die, quality: Quality, depth: u32) -> (Vec<u64>, u64) {
    let cap = ((die.sides() - 1) * depth) as usize;
    let seqs = sequences(die, depth);
    let mut counts = vec![0u64; cap + 1];
    let mut tail = 0u64;
    let mut put = |v: Option<u32>| match v {
        Some(v) => counts[v as usize] += 1,
        None => tail += 1,
    };
    match quality {
        Quality::NoDamage => return (vec![1], 0),
        Quality::Plain => seqs.iter().for_each(|&v| put(v)),
        Quality::Impaired | Quality::Enhanced => {
            for &x in &seqs {
                for &y in &seqs {
                    // A roll beyond the depth is above every roll within it.
                    let kept = match (x, y) {
                        (Some(x), Some(y)) => Some(kept_total(quality, x, y)),
                        (None, None) => None,
                        (Some(v), None) | (None, Some(v)) => (quality == Quality::Impaired).then_some(v),
                    };
                    put(kept);
                }
            }
        }
    }
    (counts, tail)
}

fn assert_matches(d: &TailDist, counts: &[u64], tail: u64, what: &str) {
    let want: Vec<Count> = counts.iter().map(|&v| c(v)).collect();
    assert_eq!(d.counts(), &want[..], "{what}: counts");
    assert_eq!(d.tail(), &c(tail), "{what}: tail");
    assert_eq!(d.total(), &c(counts.iter().sum::<u64>() + tail), "{what}: total");
}

const QUALITIES: [Quality; 4] = [Quality::NoDamage, Quality::Impaired, Quality::Plain, Quality::Enhanced];

/// A spec with the quality `q`.
fn with_quality(die: Die, q: Quality) -> DamageSpec {
    let (impaired, enhanced) = match q {
        Quality::NoDamage => (2, 0),
        Quality::Impaired => (1, 0),
        Quality::Plain => (0, 0),
        Quality::Enhanced => (0, 1),
    };
    DamageSpec {
        impaired,
        enhanced,
        ..DamageSpec::new(die)
    }
}

// ---------------------------------------------------------------------------------------------
// The worked numbers of the rules
// ---------------------------------------------------------------------------------------------

#[test]
fn mur_d6_rolling_6_6_3_is_13_with_chance_one_in_216() {
    assert_eq!(exploding_total(Die::D6, &[6, 6, 3]), Ok(13));
    assert_eq!(exploding_total(Die::D6, &[3]), Ok(3));
    assert_eq!(exploding_total(Die::D4, &[4, 4, 4, 1]), Ok(10));
    assert!(exploding_total(Die::D6, &[6, 6]).unwrap_err().contains("not over"));
    assert!(exploding_total(Die::D6, &[7]).unwrap_err().contains("no face 7"));
    assert!(exploding_total(Die::D6, &[0]).unwrap_err().contains("no face 0"));
    assert!(exploding_total(Die::D6, &[3, 4]).unwrap_err().contains("ended"));
    assert!(exploding_total(Die::D6, &[]).is_err());
    let o = damage(&DamageSpec::new(Die::D6), None).unwrap();
    let p13 = Chance::new(o.rolled.count_eq(13).unwrap(), o.rolled.total().clone());
    assert_eq!(p13, inverse_power(6, 3));
    assert_eq!(p13, ch(1, 216));
    // No armour, medium: dealt is rolled.
    assert_eq!(o.dealt, o.rolled);
    // Every value (N-1)k + r has chance (1/N)^(k+1), for every die.
    for die in Die::ALL {
        let n = u64::from(die.sides());
        let o = damage(&DamageSpec::new(die), None).unwrap();
        assert_eq!(o.rolled.count_eq(0), Some(Count::zero()));
        for v in 1..=o.rolled.cap() {
            let k = (v as u64 - 1) / (n - 1);
            let p = Chance::new(o.rolled.count_eq(v).unwrap(), o.rolled.total().clone());
            assert_eq!(p, inverse_power(n, k as u32 + 1), "{die} = {v}");
        }
        // The multiples of N-1 need the highest face each time: d6 = 5 is a plain 5, 10 is 6+5.
        assert_eq!(
            o.rolled.count_eq(o.rolled.cap() + 1),
            None,
            "beyond the cap is not known alone"
        );
    }
}

#[test]
fn mur_impaired_d8_rolling_3_and_7_keeps_3_and_enhanced_d6_4_against_6_3_keeps_8() {
    assert_eq!(kept_total(Quality::Impaired, 3, 7), 3);
    let second = exploding_total(Die::D6, &[6, 3]).unwrap();
    assert_eq!(kept_total(Quality::Enhanced, 4, second), 8);
    assert_eq!(kept_total(Quality::Plain, 4, second), 4);
    assert_eq!(kept_total(Quality::NoDamage, 4, second), 0);
    // Impair and enhance cancel one for one; twice impaired is nothing; more enhancing adds nothing.
    assert_eq!(Quality::from_counts(1, 0), Quality::Impaired);
    assert_eq!(Quality::from_counts(2, 0), Quality::NoDamage);
    assert_eq!(Quality::from_counts(5, 1), Quality::NoDamage);
    assert_eq!(Quality::from_counts(2, 1), Quality::Impaired);
    assert_eq!(Quality::from_counts(1, 1), Quality::Plain);
    assert_eq!(Quality::from_counts(0, 3), Quality::Enhanced);
    assert_eq!(Quality::from_counts(1, 2), Quality::Enhanced);
    // Impaired d8 = 3: one roll 3 and the other 3 or more, either way round:
    // 1/8 * (6/8 + 5/8) = 11/64.
    let o = damage(&with_quality(Die::D8, Quality::Impaired), None).unwrap();
    let p3 = Chance::new(o.rolled.count_eq(3).unwrap(), o.rolled.total().clone());
    assert_eq!(p3, ch(11, 64));
    // Twice impaired deals nothing and rolls nothing.
    let none = damage(&with_quality(Die::D8, Quality::NoDamage), Some(Target::full(9))).unwrap();
    assert_eq!(none.dealt.counts(), &[c(1)]);
    assert_eq!(none.consequences.unwrap().no_damage, Chance::one());
    assert_eq!(none.weapon_breaks, Chance::zero());
}

#[test]
fn mur_light_armour_against_a_2_deals_1_and_a_sweep_of_5_deals_3() {
    let light = DamageSpec {
        armour: 1,
        ..DamageSpec::new(Die::D6)
    };
    assert_eq!(light.dealt(2), 1);
    assert_eq!(light.dealt(1), 0);
    assert_eq!(
        DamageSpec { direct: true, ..light }.dealt(2),
        2,
        "direct ignores armour"
    );
    let sweep = DamageSpec {
        half: true,
        ..DamageSpec::new(Die::D6)
    };
    assert_eq!(sweep.dealt(5), 3, "MUR-R58: half of 5, rounded up");
    let sized = |size, half, double| DamageSpec {
        size,
        half,
        double,
        ..DamageSpec::new(Die::D6)
    };
    assert_eq!(sized(Size::Small, false, false).dealt(5), 3);
    assert_eq!(sized(Size::Tiny, false, false).dealt(5), 2);
    assert_eq!(sized(Size::Tiny, true, false).dealt(5), 1);
    assert_eq!(sized(Size::Large, false, false).dealt(5), 10);
    assert_eq!(sized(Size::Massive, false, true).dealt(5), 40);
    assert_eq!(
        sized(Size::Large, true, false).dealt(5),
        5,
        "one net factor: x2 and /2 cancel"
    );
    assert_eq!(sized(Size::Small, false, true).dealt(5), 5);
    // Against every net factor, scaled is the product or the quotient rounded up, and the least
    // raw roll reaching a value is the least one found by scanning.
    for size in Size::ALL {
        for half in [false, true] {
            for double in [false, true] {
                let s = sized(size, half, double);
                let e = s.exponent();
                for raw in 0..200usize {
                    let want = if e >= 0 {
                        raw * (1 << e)
                    } else {
                        // The least whole number whose multiple reaches the roll.
                        (0..).find(|q| q * (1 << -e) >= raw).unwrap()
                    };
                    assert_eq!(s.scaled(raw), want, "{size:?} {half} {double} {raw}");
                }
                for m in 1..60usize {
                    let least = (1..).find(|&x| s.scaled(x) >= m).unwrap();
                    assert_eq!(s.least_raw_scaled(m), least, "{size:?} {half} {double} {m}");
                }
            }
        }
    }
}

#[test]
fn mur_health_example_critical_on_5_at_full_health_2_at_4_and_9_kills() {
    assert_eq!(critical_threshold(9, false, false), 5);
    assert_eq!(critical_threshold(4, false, false), 2);
    assert_eq!(critical_threshold(9, true, false), 6, "a helmet raises it by 1");
    assert_eq!(critical_threshold(9, true, true), 5, "not against direct damage");
    assert_eq!(
        critical_threshold(1, true, false),
        1,
        "losing all health is critical too"
    );
    assert_eq!(critical_threshold(2, true, false), 2);
    for (health, want_critical) in [(9, 5), (4, 2)] {
        let t = Target {
            health,
            max_health: 9,
            helmet: false,
        };
        let o = damage(&DamageSpec::new(Die::D6), Some(t)).unwrap();
        let k = o.consequences.unwrap();
        assert_eq!(k.critical_from, want_critical);
        assert_eq!(Some(k.critical), o.dealt.chance_ge(want_critical as usize));
        assert_eq!(Some(k.dying), o.dealt.chance_ge(health as usize));
        // 9+ kills at any health: a 6 (5) then 4 or more: 1/6 * 3/6.
        assert_eq!(k.killed, ch(1, 12));
        assert_eq!(k.no_damage, Chance::zero());
    }
}

#[test]
fn mur_group_save_wit_12_6_9_rolling_9_passes_the_12_and_the_9() {
    let o = group_save(&[12, 6, 9]).unwrap();
    assert_eq!(o.by_roll[9 - 1], vec![true, false, true]);
    assert!(save_passes(12, 9) && save_passes(9, 9) && !save_passes(6, 9));
    // Rolls 1-6 pass all three, 7-9 two, 10-12 one, 13-20 none.
    assert_eq!(o.passing, vec![ch(8, 20), ch(3, 20), ch(3, 20), ch(6, 20)]);
    assert_eq!(o.each, vec![ch(12, 20), ch(6, 20), ch(9, 20)]);
    let text = group_save_text(&o);
    assert!(text.contains("rolls 7-9: 12 and 9 pass"), "{text}");
    assert!(text.contains("rolls 13-20: nobody passes"), "{text}");
    // A member at 0 or less never passes.
    let o = group_save(&[0, 20 - 1]).unwrap();
    assert_eq!(o.each, vec![Chance::zero(), ch(19, 20)]);
}

/// Brute force: `P(i wins)` by enumerating every roll of the sides in `set`, a tie at the top
/// rolling again among the tied sides.
fn brute_contest(scores: &[i32], set: &[usize]) -> Vec<Chance> {
    let n = scores.len();
    let mut win = vec![Chance::zero(); n];
    if let [only] = set {
        win[*only] = Chance::one();
        return win;
    }
    let k = set.len() as u32;
    let mut unique = vec![0u64; n];
    let mut ties: Vec<(Vec<usize>, u64)> = Vec::new();
    for index in 0..20u32.pow(k) {
        let mut rest = index;
        let margins: Vec<i32> = set
            .iter()
            .map(|&i| {
                let roll = (rest % 20 + 1) as i32;
                rest /= 20;
                scores[i] - roll
            })
            .collect();
        let top = *margins.iter().max().unwrap();
        let tied: Vec<usize> = set
            .iter()
            .zip(&margins)
            .filter(|(_, m)| **m == top)
            .map(|(i, _)| *i)
            .collect();
        if let [i] = tied[..] {
            unique[i] += 1;
        } else if let Some(entry) = ties.iter_mut().find(|(t, _)| *t == tied) {
            entry.1 += 1;
        } else {
            ties.push((tied, 1));
        }
    }
    let all_tied = ties.iter().find(|(t, _)| t == set).map_or(0, |(_, w)| *w);
    let again = 20u64.pow(k) - all_tied;
    for &i in set {
        let mut acc = ch(unique[i], 1);
        for (t, w) in &ties {
            if t != set && t.contains(&i) {
                acc = acc.plus(&brute_contest(scores, t)[i].times(&c(*w)));
            }
        }
        win[i] = acc.over(&c(again));
    }
    win
}

#[test]
fn mur_contest_str_5_8_9_ranks_8_5_9_on_6_5_20_and_matches_brute_force() {
    let scores = [5, 8, 9];
    let margins: Vec<i32> = scores.iter().zip([6, 5, 20]).map(|(s, r)| s - r).collect();
    assert_eq!(margins, vec![-1, 3, -11]);
    let mut ranking: Vec<usize> = (0..3).collect();
    ranking.sort_by_key(|&i| std::cmp::Reverse(margins[i]));
    assert_eq!(ranking.iter().map(|&i| scores[i]).collect::<Vec<_>>(), vec![8, 5, 9]);
    let o = contest(&scores).unwrap();
    assert_eq!(o.win, brute_contest(&scores, &[0, 1, 2]));
    let sum = o.win.iter().fold(Chance::zero(), |a, w| a.plus(w));
    assert_eq!(sum, Chance::one());
    for set in [
        vec![10, 10],
        vec![1, 19],
        vec![3, 12, 12],
        vec![-5, 7, 19],
        vec![19, 19, 19],
        vec![0, 1],
    ] {
        let idx: Vec<usize> = (0..set.len()).collect();
        assert_eq!(contest(&set).unwrap().win, brute_contest(&set, &idx), "{set:?}");
    }
    // Equal sides win equally, exactly, up to the most sides.
    let o = contest(&[7; MAX_CONTEST]).unwrap();
    assert!(o.win.iter().all(|w| *w == ch(1, MAX_CONTEST as u64)));
    // Any scores: the chances add up to exactly 1 and a higher score never wins less.
    let o = contest(&[1, 4, 4, 9, 15, 19]).unwrap();
    assert_eq!(o.win.iter().fold(Chance::zero(), |a, w| a.plus(w)), Chance::one());
    assert!(o.win.windows(2).all(|w| w[0].to_f64() <= w[1].to_f64()));
    assert_eq!(o.win[1], o.win[2]);
    // Far apart: the lower side cannot win.
    assert_eq!(contest(&[-99, 19]).unwrap().win, vec![Chance::zero(), Chance::one()]);
}

#[test]
fn mur_saves_pass_at_or_under_the_score_and_size_decides_str_saves() {
    assert_eq!(save(12, None).unwrap().pass, ch(12, 20));
    assert_eq!(save(19, None).unwrap().pass, ch(19, 20));
    assert_eq!(save(1, None).unwrap().pass, ch(1, 20));
    let zero = save(0, None).unwrap();
    assert_eq!((zero.pass.clone(), zero.rolled), (Chance::zero(), false));
    assert!(save_text(&zero).contains("no save is possible"));
    assert_eq!(save(-7, None).unwrap().pass, Chance::zero());
    assert!(save(20, None).is_err());
    assert!(save(MIN_SCORE - 1, None).is_err());
    assert_eq!(save(3, Some(SizeEdge::Larger)).unwrap().pass, Chance::one());
    assert_eq!(save(18, Some(SizeEdge::Smaller)).unwrap().pass, Chance::zero());
    assert_eq!(
        save_text(&save(12, None).unwrap()),
        "save against 12: d20 at or under 12: pass 60.0%, fail 40.0%\n"
    );
    for r in 1..=20 {
        assert_eq!(save_passes(12, r), r <= 12);
        assert!(!save_passes(0, r));
    }
}

// ---------------------------------------------------------------------------------------------
// Brute force and exactness
// ---------------------------------------------------------------------------------------------

#[test]
fn mur_one_exploding_roll_matches_every_sequence_of_faces() {
    for (die, depths) in [(Die::D4, 1..=6), (Die::D6, 1..=4), (Die::D8, 1..=3), (Die::D12, 1..=2)] {
        for depth in depths {
            let (counts, tail) = brute_kept(die, Quality::Plain, depth);
            assert_matches(
                &exploding(die, depth as usize),
                &counts,
                tail,
                &format!("{die} depth {depth}"),
            );
        }
    }
}

#[test]
fn mur_kept_rolls_match_every_pair_of_sequences() {
    for (die, depths) in [(Die::D4, 1..=4), (Die::D6, 1..=3), (Die::D10, 1..=2)] {
        for depth in depths {
            for q in QUALITIES {
                let (counts, tail) = brute_kept(die, q, depth);
                let what = format!("{die} {q:?} depth {depth}");
                assert_matches(&kept_roll(die, q, depth as usize), &counts, tail, &what);
            }
        }
    }
}

#[test]
fn mur_dealt_damage_matches_the_sequences_through_size_and_armour() {
    let depth = 4;
    for q in [Quality::Impaired, Quality::Plain, Quality::Enhanced] {
        let (raw, raw_tail) = brute_kept(Die::D4, q, depth);
        let rolled = kept_roll(Die::D4, q, depth as usize);
        for size in Size::ALL {
            for (half, double) in [(false, false), (true, false), (false, true)] {
                for (armour, direct) in [(0, false), (2, false), (5, false), (5, true)] {
                    let spec = DamageSpec {
                        size,
                        half,
                        double,
                        armour,
                        direct,
                        ..with_quality(Die::D4, q)
                    };
                    // Everything from the first raw value past the cap up is "more than".
                    let first_beyond = spec.dealt(raw.len());
                    if first_beyond == 0 {
                        assert_eq!(rolled.map_up(|x| spec.dealt(x)), None);
                        continue;
                    }
                    let mut counts = vec![0u64; first_beyond];
                    let mut tail = raw_tail;
                    for (x, &n) in raw.iter().enumerate() {
                        match counts.get_mut(spec.dealt(x)) {
                            Some(slot) => *slot += n,
                            None => tail += n,
                        }
                    }
                    let what = format!("{q:?} {size:?} {half} {double} {armour} {direct}");
                    assert_matches(&rolled.map_up(|x| spec.dealt(x)).unwrap(), &counts, tail, &what);
                }
            }
        }
    }
}

#[test]
fn mur_closed_forms_hold_for_every_die() {
    for die in Die::ALL {
        let n = u64::from(die.sides());
        let plain = damage(&DamageSpec::new(die), None).unwrap().rolled;
        let low = damage(&with_quality(die, Quality::Impaired), None).unwrap().rolled;
        let high = damage(&with_quality(die, Quality::Enhanced), None).unwrap().rolled;
        for k in 0..5u32 {
            // At least (N-1)k + 1: the first k rolls all show the highest face.
            let v = (n - 1) as usize * k as usize + 1;
            assert_eq!(plain.chance_ge(v), Some(inverse_power(n, k)), "{die} >= {v}");
        }
        let p_ge = |d: &TailDist, v: usize| d.chance_ge(v).unwrap();
        for v in 0..=plain.cap().min(low.cap()).min(60) {
            let one = p_ge(&plain, v);
            assert_eq!(
                p_ge(&low, v),
                Chance::new(one.num() * one.num(), one.den() * one.den()),
                "{die} low {v}"
            );
            let under = one.complement();
            let both_under = Chance::new(under.num() * under.num(), under.den() * under.den());
            assert_eq!(p_ge(&high, v).complement(), both_under, "{die} high {v}");
        }
        // The mean counts the "more than" bucket at its least: below the true mean 1 + N/2 by
        // less than 1e-6.
        let exact = 1.0 + n as f64 / 2.0;
        let mean = plain.mean_low();
        assert!(mean <= exact && exact - mean < 1e-6, "{die}: {mean}");
        // E[min] = sum over v >= 1 of P(X >= v)^2, summed far enough in floating point.
        let mut e_min = 0.0;
        for v in 1..2000u64 {
            let k = (v - 1) / (n - 1);
            let r = v - (n - 1) * k;
            let p = (n - r + 1) as f64 / n as f64 * (n as f64).powi(-(k as i32));
            e_min += p * p;
        }
        let mean = low.mean_low();
        assert!(
            mean <= e_min + 1e-12 && e_min - mean < 1e-6,
            "{die}: {mean} against {e_min}"
        );
    }
}

#[test]
fn mur_every_distribution_adds_up_to_exactly_one() {
    let targets = [
        None,
        Some(Target::full(9)),
        Some(Target {
            health: 3,
            max_health: 40,
            helmet: true,
        }),
    ];
    for die in Die::ALL {
        for q in QUALITIES {
            for size in [Size::Tiny, Size::Medium, Size::Massive] {
                for armour in [0, 3, 17] {
                    for target in targets {
                        let spec = DamageSpec {
                            size,
                            armour,
                            ..with_quality(die, q)
                        };
                        let o = damage(&spec, target).unwrap();
                        assert_eq!(&mass(&o.rolled), o.rolled.total());
                        assert_eq!(&mass(&o.dealt), o.dealt.total());
                        assert_eq!(o.rolled.total(), o.dealt.total());
                        let a = attack(&AttackSpec {
                            damage: spec,
                            hit: Some(11),
                            dodge: Some(4),
                            target,
                        })
                        .unwrap();
                        assert_eq!(&mass(&a.per_attack), a.per_attack.total());
                    }
                }
            }
        }
    }
}

#[test]
fn mur_exact_chances_do_not_depend_on_how_deep_the_rolls_are_followed() {
    let cases = [
        (DamageSpec::new(Die::D6), Target::full(9)),
        (
            with_quality(Die::D4, Quality::Impaired),
            Target {
                health: 4,
                max_health: 9,
                helmet: true,
            },
        ),
        (
            DamageSpec {
                size: Size::Tiny,
                half: true,
                armour: 3,
                ..with_quality(Die::D4, Quality::Enhanced)
            },
            Target::full(30),
        ),
        (
            DamageSpec {
                size: Size::Massive,
                double: true,
                armour: 9,
                ..with_quality(Die::D20, Quality::Enhanced)
            },
            Target {
                health: 60,
                max_health: 84,
                helmet: true,
            },
        ),
        (
            DamageSpec {
                direct: true,
                armour: 4,
                ..with_quality(Die::D12, Quality::Impaired)
            },
            Target {
                health: 1,
                max_health: 200,
                helmet: true,
            },
        ),
    ];
    for (spec, target) in cases {
        let need = target.max_health as usize;
        let usual = damage(&spec, Some(target)).unwrap();
        let deeper = damage_exact_to(&spec, Some(target), 5 * need + 100).unwrap();
        assert!(deeper.depth > usual.depth);
        assert_eq!(usual.consequences, deeper.consequences, "{spec:?}");
        assert_eq!(usual.weapon_breaks, deeper.weapon_breaks);
        assert_eq!(usual.armour_breaks, deeper.armour_breaks);
        let shared = usual.dealt.cap();
        for v in 0..=shared + 1 {
            assert_eq!(usual.dealt.chance_ge(v), deeper.dealt.chance_ge(v), "{spec:?} >= {v}");
        }
        // The "more than" bucket stays below about 1 in 10^9.
        assert!(usual.dealt.tail().ratio(usual.dealt.total()) < 3e-9, "{spec:?}");
    }
}

#[test]
fn mur_what_lies_beyond_the_cap_is_below_one_in_a_billion_per_roll() {
    for die in Die::ALL {
        for q in [Quality::Impaired, Quality::Plain, Quality::Enhanced] {
            for size in Size::ALL {
                for (half, double) in [(false, false), (true, false), (false, true)] {
                    for armour in [0, 1, 7, MAX_ARMOUR] {
                        let spec = DamageSpec {
                            size,
                            half,
                            double,
                            armour,
                            ..with_quality(die, q)
                        };
                        let o = damage(&spec, None).unwrap();
                        let p = o.dealt.tail().ratio(o.dealt.total());
                        // Two rolls: either may go beyond for the higher one.
                        let bound = if q == Quality::Enhanced { 2e-9 } else { 1e-9 };
                        assert!(p > 0.0 && p < bound, "{spec:?}: {p}");
                        assert!(o.dealt.cap() >= 1, "{spec:?}: no damage is exact");
                    }
                }
            }
        }
    }
}

#[test]
fn mur_gear_breaks_on_a_kept_1_and_on_8_before_armour() {
    let six = |q| damage(&with_quality(Die::D6, q), None).unwrap();
    assert_eq!(six(Quality::Plain).weapon_breaks, ch(1, 6));
    assert_eq!(six(Quality::Impaired).weapon_breaks, ch(11, 36));
    assert_eq!(six(Quality::Enhanced).weapon_breaks, ch(1, 36));
    // 8 before armour on a d6: a 6 then 3 or more.
    assert_eq!(six(Quality::Plain).armour_breaks, ch(4, 36));
    let armoured = damage(
        &DamageSpec {
            armour: 5,
            ..DamageSpec::new(Die::D6)
        },
        None,
    )
    .unwrap();
    assert_eq!(armoured.armour_breaks, ch(4, 36), "counted before armour");
    let large = damage(
        &DamageSpec {
            size: Size::Large,
            ..DamageSpec::new(Die::D6)
        },
        None,
    )
    .unwrap();
    assert_eq!(large.armour_breaks, ch(1, 2), "a large 4 is 8");
}

// ---------------------------------------------------------------------------------------------
// Attacks and counters
// ---------------------------------------------------------------------------------------------

#[test]
fn mur_attack_hits_when_to_hit_passes_and_the_dodge_fails() {
    let base = AttackSpec {
        damage: DamageSpec::new(Die::D8),
        hit: Some(12),
        dodge: Some(10),
        target: Some(Target::full(9)),
    };
    let o = attack(&base).unwrap();
    assert_eq!(o.hit, ch(3, 10));
    assert_eq!(o.to_hit, Some(ch(12, 20)));
    assert_eq!(o.dodged, Some(ch(10, 20)));
    assert_eq!(attack(&AttackSpec { dodge: None, ..base }).unwrap().hit, ch(12, 20));
    assert_eq!(attack(&AttackSpec { hit: None, ..base }).unwrap().hit, ch(1, 2));
    assert_eq!(
        attack(&AttackSpec {
            hit: None,
            dodge: None,
            ..base
        })
        .unwrap()
        .hit,
        Chance::one()
    );
    assert_eq!(
        attack(&AttackSpec { hit: Some(0), ..base }).unwrap().hit,
        Chance::zero()
    );
    // Per attack = P(hit) x on a hit, and a miss deals nothing.
    let per = o.consequences.clone().unwrap();
    let on_hit = o.on_hit.consequences.clone().unwrap();
    let times = |a: &Chance, b: &Chance| Chance::new(a.num() * b.num(), a.den() * b.den());
    assert_eq!(per.critical, times(&o.hit, &on_hit.critical));
    assert_eq!(per.dying, times(&o.hit, &on_hit.dying));
    assert_eq!(per.killed, times(&o.hit, &on_hit.killed));
    assert_eq!(
        per.no_damage,
        o.hit.complement().plus(&times(&o.hit, &on_hit.no_damage))
    );
    // A d8 on a hit: 5+ is half, 9+ is an 8 then 2 or more.
    assert_eq!(on_hit.critical, ch(1, 2));
    assert_eq!(on_hit.dying, ch(7, 64));
    assert_eq!(
        attack_note(&base),
        "hit 30.0%, damage 1.5 on average after armour (5.0 on a hit), critical 15.0%, dying 3.3%, killed 3.3%"
    );
    assert_eq!(
        attack_note(&AttackSpec { target: None, ..base }),
        "hit 30.0%, damage 1.5 on average after armour (5.0 on a hit)"
    );
    assert!(attack_note(&AttackSpec { hit: Some(25), ..base }).starts_with("no odds: hit: "));
    let bad_armour = AttackSpec {
        damage: DamageSpec {
            armour: MAX_ARMOUR + 1,
            ..base.damage
        },
        ..base
    };
    assert!(attack_note(&bad_armour).starts_with("no odds: armour 51"));
}

/// A distribution from hand-made counts and tail.
fn dist(counts: &[u64], tail: u64) -> TailDist {
    TailDist {
        counts: counts.iter().map(|&v| c(v)).collect(),
        tail: c(tail),
        total: c(counts.iter().sum::<u64>() + tail),
    }
}

fn victim(health: u32, max_health: u32) -> Option<Victim> {
    Some((
        Target {
            health,
            max_health,
            helmet: false,
        },
        false,
    ))
}

#[test]
fn mur_counter_3_against_5_lands_the_counter_first_and_4_against_4_lands_both() {
    // The attack would deal 3 and the counter 5: the counter lands first; 5 is critical for an
    // attacker at 9, so the 3 never land.
    let x = exchange(
        &TailDist::constant(3),
        &TailDist::constant(5),
        victim(9, 9),
        victim(9, 9),
    )
    .unwrap();
    assert_eq!(x.counter_first, Chance::one());
    assert_eq!(x.attack_stopped, Some(Chance::one()));
    assert_eq!(x.counter_stopped, Some(Chance::zero()));
    assert_eq!(x.attack_after.unwrap().no_damage, Chance::one());
    assert_eq!(x.counter_after.unwrap().critical, Chance::one());
    // An attacker at 20 shrugs off 5 (critical from 10): both blows land, the counter first.
    let x = exchange(
        &TailDist::constant(3),
        &TailDist::constant(5),
        victim(9, 9),
        victim(20, 20),
    )
    .unwrap();
    assert_eq!(x.attack_stopped, Some(Chance::zero()));
    assert_eq!(x.attack_after.unwrap().no_damage, Chance::zero());
    // 4 against 4: together, neither stops the other.
    let x = exchange(
        &TailDist::constant(4),
        &TailDist::constant(4),
        victim(4, 9),
        victim(4, 9),
    )
    .unwrap();
    assert_eq!(x.together, Chance::one());
    assert_eq!(
        (x.attack_stopped, x.counter_stopped),
        (Some(Chance::zero()), Some(Chance::zero()))
    );
    assert_eq!(
        x.attack_after.unwrap().dying,
        Chance::one(),
        "both land: 4 of 4 is dying"
    );
    // MUR-H10: 0 against 0 is a tie.
    let x = exchange(&TailDist::constant(0), &TailDist::constant(0), None, None).unwrap();
    assert_eq!(x.together, Chance::one());
    assert_eq!(x.attack_after, None);
}

/// Brute force of an exchange: every pair of values (the tail as one value above the cap, two
/// tails undecided), with the rules applied pair by pair.
fn brute_exchange(a: &TailDist, c_: &TailDist, counterer: Victim, attacker: Victim) -> Exchange {
    let cap = [a, c_]
        .into_iter()
        .filter(|d| !d.tail().is_zero())
        .map(TailDist::cap)
        .min()
        .unwrap_or(a.cap().max(c_.cap()));
    let (a, c_) = (a.with_cap(cap).unwrap(), c_.with_cap(cap).unwrap());
    let weight = |d: &TailDist, v: usize| {
        if v > cap {
            d.tail().clone()
        } else {
            d.counts()[v].clone()
        }
    };
    let (ka, kc) = (stops_from(counterer), stops_from(attacker));
    let mut n = [(); 14].map(|_| Count::zero());
    for x in 0..=cap + 1 {
        for y in 0..=cap + 1 {
            let w = &weight(&a, x) * &weight(&c_, y);
            let mut add_to = |i: usize| n[i] = &n[i] + &w;
            if x > cap && y > cap {
                add_to(3);
                continue;
            }
            let first = x.cmp(&y);
            add_to(match first {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => 2,
            });
            let attack_stops = first.is_gt() && x >= ka;
            let counter_stops = first.is_lt() && y >= kc;
            if attack_stops {
                add_to(4);
            }
            if counter_stops {
                add_to(5);
            }
            // What lands: the attack unless stopped, with x; the counter likewise with y.
            let (ta, tc) = (counterer.0, attacker.0);
            let crit_a = critical_threshold(ta.health, ta.helmet, counterer.1) as usize;
            let crit_c = critical_threshold(tc.health, tc.helmet, attacker.1) as usize;
            let a_hurts = if counter_stops { 0 } else { x };
            let c_hurts = if attack_stops { 0 } else { y };
            for (i, hurt, crit, t) in [(6, a_hurts, crit_a, ta), (10, c_hurts, crit_c, tc)] {
                if hurt == 0 {
                    add_to(i);
                }
                if hurt >= crit {
                    add_to(i + 1);
                }
                if hurt >= t.health as usize {
                    add_to(i + 2);
                }
                if hurt >= t.max_health as usize {
                    add_to(i + 3);
                }
            }
        }
    }
    let total = a.total() * c_.total();
    let p = |i: usize| Chance::new(n[i].clone(), total.clone());
    let after = |i: usize, v: Victim| Consequences {
        target: v.0,
        critical_from: critical_threshold(v.0.health, v.0.helmet, v.1),
        no_damage: p(i),
        critical: p(i + 1),
        dying: p(i + 2),
        killed: p(i + 3),
    };
    Exchange {
        cap,
        attack_first: p(0),
        counter_first: p(1),
        together: p(2),
        undecided: p(3),
        counter_stopped: Some(p(4)),
        attack_stopped: Some(p(5)),
        attack_after: Some(after(6, counterer)),
        counter_after: Some(after(10, attacker)),
    }
}

#[test]
fn mur_counter_exchange_matches_pair_by_pair_brute_force() {
    let hand_made = [
        (dist(&[1, 2, 3, 0, 5, 1], 2), dist(&[0, 4, 1, 1, 2], 3)),
        (dist(&[3, 0, 0, 7], 0), dist(&[1, 1, 1, 1, 1, 1, 1], 1)),
        (dist(&[2, 2, 1], 5), dist(&[9], 0)),
    ];
    for (a, c_) in &hand_made {
        // Every threshold must lie within the common exact part: health up to its cap plus 1.
        let top = [a, c_]
            .into_iter()
            .filter(|d| !d.tail().is_zero())
            .map(TailDist::cap)
            .min()
            .unwrap() as u32
            + 1;
        let victims = [victim(1, 1), victim(2, top), victim(top, top)].map(Option::unwrap);
        for ce in victims {
            for at in victims {
                assert_eq!(
                    exchange(a, c_, Some(ce), Some(at)).unwrap(),
                    brute_exchange(a, c_, ce, at)
                );
            }
        }
        // A threshold beyond it is refused, not guessed.
        assert!(exchange(a, c_, victim(top + 1, top + 1), None).is_err());
    }
    // Real blows: an impaired d4 against armour 1 and a helmet, and a small d6 sweep... against
    // a d8 counter.
    let attack = Blow {
        damage: DamageSpec {
            armour: 1,
            ..with_quality(Die::D4, Quality::Impaired)
        },
        target: Some(Target {
            health: 5,
            max_health: 8,
            helmet: true,
        }),
    };
    let counter_blow = Blow {
        damage: DamageSpec {
            size: Size::Small,
            ..DamageSpec::new(Die::D8)
        },
        target: Some(Target::full(6)),
    };
    let o = counter(&attack, &counter_blow).unwrap();
    let ce = (attack.target.unwrap(), false);
    let at = (counter_blow.target.unwrap(), false);
    assert_eq!(o.exchange, brute_exchange(&o.attack.dealt, &o.counter.dealt, ce, at));
    let x = &o.exchange;
    let sum = [&x.attack_first, &x.counter_first, &x.together, &x.undecided]
        .into_iter()
        .fold(Chance::zero(), |acc, p| acc.plus(p));
    assert_eq!(sum, Chance::one());
    assert!(x.undecided.to_f64() < 1e-15);
    // Without healths nothing is stopped or tallied after the exchange.
    let bare = counter(
        &Blow { target: None, ..attack },
        &Blow {
            target: None,
            ..counter_blow
        },
    )
    .unwrap();
    assert_eq!(bare.exchange.attack_first, x.attack_first);
    assert_eq!(
        (bare.exchange.counter_stopped, bare.exchange.attack_after),
        (None, None)
    );
    // A health out of range on either side is refused before any work.
    let absurd = Blow {
        target: Some(Target::full(u32::MAX)),
        ..counter_blow
    };
    assert!(
        counter(&attack, &absurd)
            .unwrap_err()
            .starts_with("the counter: health")
    );
    assert!(
        counter(&absurd, &counter_blow)
            .unwrap_err()
            .starts_with("the attack: health")
    );
}

#[test]
fn mur_durability_fails_on_1_in_4_or_1_in_8_for_robust_items() {
    let o = durability(false);
    assert_eq!(
        (o.fails.clone(), o.damaged.clone(), o.destroyed_if_damaged.clone()),
        (ch(1, 4), ch(1, 4), ch(1, 4))
    );
    assert_eq!((o.fights_new, o.fights_damaged), (8, 4));
    let o = durability(true);
    assert_eq!(o.fails, ch(1, 8));
    assert_eq!((o.fights_new, o.fights_damaged), (16, 8));
    assert!(durability_text(&o).contains("1:8 (12.5%)"));
}

// ---------------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------------

#[test]
fn mur_command_line_reads_words_in_any_order() {
    let (_, a) = run_words("damage d6 enhanced size large armour 2 health 4/9 helmet").unwrap();
    let (_, b) = run_words("damage helmet health 4/9 armour 2 size large enhanced d6").unwrap();
    assert_eq!(a, b);
    assert_eq!(a["kind"], "damage");
    assert_eq!(a["quality"], "enhanced");
    assert_eq!(a["spec"]["size"], "large");
    assert_eq!(a["consequences"]["critical_from"], 3);
    // Impairments and enhancements count.
    let (_, j) = run_words("damage d6 impaired impaired enhanced").unwrap();
    assert_eq!(j["quality"], "impaired");
    let (_, j) = run_words("damage d6 impaired2").unwrap();
    assert_eq!(j["quality"], "no-damage");
    let (_, j) = run_words("damage d6 armor 1").unwrap();
    assert_eq!(j["spec"]["armour"], 1);
    let (_, j) = run_words("damage d6").unwrap();
    assert_eq!(j["rolled"]["outcomes"][0]["value"], 1);
    assert_eq!(j["more_than"], serde_json::Value::Null);
    assert!(j["dealt"]["more_than"]["count"].is_string());
    assert_eq!(j["weapon_breaks"]["num"], "1");
    assert_eq!(j["weapon_breaks"]["den"], "6");
    let (_, j) = run_words("save smaller 9").unwrap();
    assert_eq!(
        (j["kind"].clone(), j["edge"].clone()),
        ("save".into(), "smaller".into())
    );
    let (_, j) = run_words("attack dodge 10 d8 hit 12 health 9").unwrap();
    assert_eq!(
        (j["kind"].clone(), j["hit"]["den"].clone()),
        ("attack".into(), "10".into())
    );
    let (text, j) = run_words("counter d6 armour 1 health 9 vs health 8/10 d8").unwrap();
    assert_eq!(j["kind"], "counter");
    assert!(j["attack_first"]["p"].is_f64() && j["counter_stopped"]["p"].is_f64());
    assert!(
        text.contains("after the exchange, the attacker (health 8/10)"),
        "{text}"
    );
    for (line, kind) in [
        ("group-save 12 6 9", "group-save"),
        ("contest 5 8 9", "contest"),
        ("durability robust", "durability"),
        ("durability", "durability"),
    ] {
        assert_eq!(run_words(line).unwrap().1["kind"], kind, "{line}");
    }
}

#[test]
fn mur_bad_input_is_an_error_naming_the_word() {
    let cases = [
        ("", "nothing to work out"),
        ("roll d6", "'roll' is not a calculation"),
        ("save", "needs a score"),
        ("save 20", "from -99 to 19"),
        ("save twelve", "'twelve'"),
        ("save 12 13", "'13': a save has one score"),
        ("save larger smaller", "'smaller'"),
        ("group-save", "0 members"),
        ("group-save 12 x", "'x'"),
        ("group-save 12 25", "25"),
        ("contest 5", "1 sides"),
        ("contest 1 2 3 4 5 6 7", "7 sides"),
        ("damage", "needs a damage die"),
        ("damage d7", "d7: a damage die is"),
        ("damage d6 d8", "'d8': a blow rolls one damage die"),
        ("damage d6 size huge", "size huge"),
        ("damage d6 size", "'size' needs a size"),
        ("damage d6 size large size small", "'size' is given twice"),
        ("damage d6 armour", "'armour' needs a number"),
        ("damage d6 armour 51", "armour 51"),
        ("damage d6 armour -1", "armour -1"),
        ("damage d6 half half", "'half' is given twice"),
        ("damage d6 health 10/9", "health 10"),
        ("damage d6 health 0/9", "health 0"),
        ("damage d6 health 9/0", "health 0"),
        ("damage d6 health 5/201", "health 201"),
        ("damage d6 health x", "health x"),
        ("damage d6 helmet", "'helmet' only matters"),
        ("damage d6 hit 12", "'hit' is not understood in 'damage'"),
        ("damage d6 sweep", "'sweep' is not understood"),
        ("attack d6 hit 20", "hit 20"),
        ("attack d6 hit", "'hit' needs a score"),
        ("attack d6 dodge 5 dodge 6", "'dodge' is given twice"),
        ("attack hit 12", "'attack' needs a damage die"),
        ("counter d6 d8", "needs 'vs'"),
        ("counter d6 vs", "the counter (after 'vs') needs a damage die"),
        ("counter vs d6", "the attack (before 'vs') needs a damage die"),
        ("counter d6 vs d8 vs d4", "'vs' is given twice"),
        ("counter d6 hit 12 vs d8", "'hit' is not understood in 'counter'"),
        ("durability fragile", "'fragile'"),
        ("durability robust robust", "robust once"),
    ];
    for (line, want) in cases {
        let e = run_words(line).expect_err(line);
        assert!(e.contains(want), "{line:?}: {e}");
        assert!(e.ends_with(GRAMMAR), "{line:?}: {e}");
    }
}

#[test]
fn mur_no_sequence_of_words_panics() {
    let vocab = [
        "save",
        "group-save",
        "contest",
        "damage",
        "attack",
        "counter",
        "durability",
        "d4",
        "d6",
        "d20",
        "d0",
        "d",
        "D8",
        "vs",
        "impaired",
        "enhanced2",
        "size",
        "tiny",
        "massive",
        "half",
        "double",
        "armour",
        "50",
        "0",
        "-5",
        "19",
        "direct",
        "health",
        "1/1",
        "200/200",
        "3/",
        "/4",
        "helmet",
        "hit",
        "dodge",
        "robust",
        "larger",
        "99999999999",
    ];
    // A fixed linear congruential walk over the vocabulary: many short lines, the same each run.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..3000 {
        let len = 1 + (state >> 60) as usize % 7;
        let mut args = Vec::with_capacity(len);
        for _ in 0..len {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            args.push(vocab[(state >> 33) as usize % vocab.len()].to_string());
        }
        if let Ok((text, json)) = parse_and_run(&args) {
            assert!(!text.is_empty() && json["kind"].is_string(), "{args:?}");
        }
    }
}
