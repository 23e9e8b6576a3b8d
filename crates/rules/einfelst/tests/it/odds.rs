//! Exact odds (`fray odds einfelst`): hand-checked values, brute force over every roll of small
//! pools, and refusals of bad input.

use fray_einfelst::odds::*;

/// `v` as an exact count.
fn c(v: u128) -> Count {
    Count::from(v)
}

/// Runs the command line on words.
fn run(line: &str) -> Result<(String, serde_json::Value), String> {
    let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    parse_and_run(&args)
}

/// The distribution's counts add up to its total, and its top count is not zero.
fn assert_whole(d: &ExactDist, what: &str) {
    let sum = d.counts().iter().fold(Count::zero(), |acc, x| &acc + x);
    assert_eq!(&sum, d.total(), "{what}: counts add up to the total");
    assert!(!d.total().is_zero(), "{what}: some outcome");
    assert!(d.counts().last().is_some_and(|x| !x.is_zero()), "{what}: trimmed");
}

/// Every roll of `n` d6, as success flags for `faces` success faces, visited in turn.
fn each_roll(n: u32, mut visit: impl FnMut(&[u8])) {
    let mut faces = vec![1u8; n as usize];
    for mut i in 0..6u32.pow(n) {
        for face in faces.iter_mut() {
            *face = (i % 6) as u8 + 1;
            i /= 6;
        }
        visit(&faces);
    }
}

/// Successes among `faces` with `f` success faces (the top `f` faces, as the count is all that
/// matters).
fn succ(faces: &[u8], f: u8) -> usize {
    faces.iter().filter(|&&x| x > 6 - f).count()
}

/// A tally of values into exact counts.
fn tally(values: &[u128]) -> Vec<Count> {
    let mut v: Vec<Count> = values.iter().map(|&x| c(x)).collect();
    while v.len() > 1 && v.last().is_some_and(Count::is_zero) {
        v.pop();
    }
    v
}

/// Adds 1 at `k`, growing the vector.
fn bump(counts: &mut Vec<u128>, k: usize) {
    if counts.len() <= k {
        counts.resize(k + 1, 0);
    }
    counts[k] += 1;
}

#[test]
fn ein_odds_one_die_succeeds_one_time_in_six() {
    let d = successes(1, 1).unwrap();
    assert_eq!(d.counts(), [c(5), c(1)]);
    assert_eq!(d.total(), &c(6));
    assert_eq!(d.count_ge(1), c(1));
    assert!((d.p_ge(1) - 1.0 / 6.0).abs() < 1e-15);
    // EIN-H1's option: 5 and 6 succeed.
    let d = successes(1, 2).unwrap();
    assert_eq!(d.counts(), [c(4), c(2)]);
}

#[test]
fn ein_odds_two_dice_at_least_one_success_is_11_in_36() {
    let d = successes(2, 1).unwrap();
    assert_eq!(d.counts(), [c(25), c(10), c(1)]);
    assert_eq!(d.count_ge(1), c(11));
    assert_eq!(d.total(), &c(36));
    let (text, json) = run("pool 2 need 1").unwrap();
    assert!(text.contains("P(at least 1 success) = 30.6%"), "{text}");
    assert_eq!(json["kind"], "pool");
    assert_eq!(json["passes"], "11");
    assert!((json["p_pass"].as_f64().unwrap() - 11.0 / 36.0).abs() < 1e-15);
    assert_eq!(json["successes"]["total"], "36");
    assert_eq!(json["successes"]["outcomes"][1]["count"], "10");
}

#[test]
fn ein_odds_three_toxicity_dice_roll_no_success_579_in_1000() {
    // EIN-H27: (5/6)^3 = 125/216, about 57.9%.
    let d = successes(3, 1).unwrap();
    assert_eq!(d.count_eq(0), c(125));
    assert_eq!(d.total(), &c(216));
    assert_eq!(percent(&d.count_eq(0), d.total()), "57.9%");
    let (text, _) = run("pool 3").unwrap();
    assert!(text.contains("57.9%"), "{text}");
    // Against 1 Endure die, both sides roll nothing in 125 * 5 of 6^4 rolls.
    let p = poison(3, 1, ZeroTie::OneHarm, 1).unwrap();
    assert_eq!(p.zero_zero, c(625));
    assert_eq!(p.outcomes, c(1296));
}

#[test]
fn ein_odds_one_attack_die_without_defence_hits_one_time_in_six() {
    let spec = AttackSpec {
        attack: 1,
        defence: None,
        need: 1,
        damage: 2,
        armour: 0,
        armour_mode: ArmourMode::Cancel,
        faces: 1,
    };
    let o = attack(&spec).unwrap();
    assert_eq!((o.hits.clone(), o.outcomes.clone()), (c(1), c(6)));
    assert!((o.p_hit - 1.0 / 6.0).abs() < 1e-15);
    assert_eq!(o.defender_swaps, Count::zero());
    // A hit deals the weapon's 2 and nothing more: one die leaves no extra success.
    assert_eq!(o.harm.counts(), [c(5), Count::zero(), c(1)]);
    assert_eq!(
        o.harm_on_hit.as_ref().unwrap().counts(),
        [Count::zero(), Count::zero(), c(1)]
    );
    assert!((o.expected_harm - 2.0 / 6.0).abs() < 1e-15);
    assert_eq!(o.expected_harm_on_hit, Some(2.0));
    assert_eq!(
        attack_note(1, None, 1, 2, 0, false, 1),
        "hit 16.7%, harm 0.3 on average (2.0 on a hit)"
    );
}

#[test]
fn ein_odds_attack_and_defence_are_symmetric() {
    for faces in [1, 3, 5] {
        for a in 1..=6u8 {
            for d in 1..=6u8 {
                let spec = |attack, defence| AttackSpec {
                    attack,
                    defence: Some(defence),
                    need: 1,
                    damage: 1,
                    armour: 0,
                    armour_mode: ArmourMode::Cancel,
                    faces,
                };
                let ad = attack(&spec(a, d)).unwrap();
                let da = attack(&spec(d, a)).unwrap();
                // Hitting with 1 needed is having more successes; the defence swaps when it has
                // more: each is the other seen from the other side.
                assert_eq!(ad.hits, da.defender_swaps, "{a} vs {d}, {faces} faces");
                let op = opposed(a, d, faces).unwrap();
                assert_eq!(ad.hits, op.first_more);
                assert_eq!(ad.defender_swaps, op.second_more);
                if a == d {
                    assert_eq!(op.first_more, op.second_more);
                    assert_eq!(ad.hits, ad.defender_swaps);
                }
            }
        }
    }
    // The note names the swap when there is a defence.
    let note = attack_note(2, Some(2), 1, 1, 0, false, 1);
    assert!(note.starts_with("hit ") && note.contains(", defender swaps "), "{note}");
}

#[test]
fn ein_odds_opposed_outcomes_sum_to_every_roll() {
    for faces in 1..=6u8 {
        for a in [1u8, 2, 5, 13, 32] {
            for b in [1u8, 3, 8, 32] {
                let o = opposed(a, b, faces).unwrap();
                let sum = &(&o.first_more + &o.tie) + &o.second_more;
                assert_eq!(sum, o.outcomes, "{a} vs {b}, {faces} faces");
                assert_eq!(&o.outcomes, o.left.total());
                assert_eq!(o.left.count_ge(1), o.first_more, "1 or more left is strictly more");
                assert!((o.p_first_more + o.p_tie + o.p_second_more - 1.0).abs() < 1e-12);
                assert_whole(&o.left, "left");
            }
        }
    }
    // EIN-R30: break free 2 against Hold 2 is a tie, which changes nothing.
    let (text, json) = run("opposed 2 vs 2").unwrap();
    assert!(text.contains("first more: ") && text.contains("tie: "), "{text}");
    assert_eq!(json["kind"], "opposed");
    assert_eq!(json["first_more"], json["second_more"]);
}

#[test]
fn ein_odds_every_distribution_counts_sum_to_its_total() {
    for faces in 1..=6u8 {
        for n in 1..=32u8 {
            let d = successes(n, faces).unwrap();
            assert_whole(&d, "successes");
            assert_eq!(d.total(), &c(6u128.pow(u32::from(n))));
        }
    }
    for (a, d, r, mode) in [
        (32, Some(32), 32, ArmourMode::Roll),
        (7, Some(3), 2, ArmourMode::Cancel),
        (5, None, 4, ArmourMode::Roll),
        (1, Some(32), 0, ArmourMode::Roll),
    ] {
        let o = attack(&AttackSpec {
            attack: a,
            defence: d,
            need: 2,
            damage: 3,
            armour: r,
            armour_mode: mode,
            faces: 1,
        })
        .unwrap();
        assert_whole(&o.net, "net");
        assert_whole(&o.harm, "harm");
        if let Some(e) = &o.extra_on_hit {
            assert_whole(e, "extra");
            assert_eq!(e.total(), &o.hits);
        }
        if let Some(h) = &o.harm_on_hit {
            assert_whole(h, "harm on a hit");
        }
    }
    // 32 against 32 with 32 armour dice: 6^96 rolls, more than a u128 holds.
    let o = attack(&AttackSpec {
        attack: 32,
        defence: Some(32),
        need: 1,
        damage: 2,
        armour: 32,
        armour_mode: ArmourMode::Roll,
        faces: 3,
    })
    .unwrap();
    assert_eq!(
        o.harm.total().to_string(),
        "504103876157462118901767181449118688686067677834070116931382690099920633856"
    );
    assert_eq!(
        o.outcomes.to_string(),
        "63340286662973277706162286946811886609896461828096"
    );
    assert_eq!(o.hits, o.defender_swaps, "equal pools");
    for z in [ZeroTie::OneHarm, ZeroTie::NoHarm] {
        let p = poison(9, 4, z, 1).unwrap();
        assert_whole(&p.harm, "poison");
        assert_whole(&p.harm_all_rounds, "poison over every round");
        let sum = &(&p.victim_more + &p.tie) + &p.victim_fewer;
        assert_eq!(sum, p.outcomes);
    }
    for feet in [0, 9, 10, 14, 15, 60, 160] {
        let f = fall(feet, 1, 10, 3, 2).unwrap();
        assert_whole(&f.harm, "fall");
    }
}

#[test]
fn ein_odds_pools_match_every_roll_of_up_to_four_dice() {
    for faces in 1..=6u8 {
        for n in 1..=4u32 {
            let mut counts = vec![0u128; n as usize + 1];
            each_roll(n, |roll| counts[succ(roll, faces)] += 1);
            let d = successes(n as u8, faces).unwrap();
            assert_eq!(d.counts(), tally(&counts), "{n} dice, {faces} faces");
            assert_eq!(d.total(), &c(6u128.pow(n)));
        }
    }
}

#[test]
fn ein_odds_attacks_match_every_roll_of_up_to_five_dice() {
    // Every attack pool and defence (none, or a pool) with at most 5 dice between them, against
    // flat armour: hits, card swaps and Harm by brute force.
    for faces in [1u8, 2, 3] {
        for a in 1..=5u8 {
            for d in 0..=(5 - a) {
                let defence = (d > 0).then_some(d);
                let n = u32::from(a + d);
                let mut rolls: Vec<(usize, usize)> = Vec::new();
                each_roll(n, |roll| {
                    let (att, def) = roll.split_at(usize::from(a));
                    rolls.push((succ(att, faces), succ(def, faces)));
                });
                for need in 1..=3u8 {
                    for damage in 0..=2u8 {
                        for armour in 0..=2u8 {
                            let o = attack(&AttackSpec {
                                attack: a,
                                defence,
                                need,
                                damage,
                                armour,
                                armour_mode: ArmourMode::Cancel,
                                faces,
                            })
                            .unwrap();
                            let (mut hits, mut swaps, mut harm) = (0u128, 0u128, vec![0u128]);
                            let mut on_hit = vec![0u128];
                            for &(x, y) in &rolls {
                                let net = x.saturating_sub(y);
                                swaps += u128::from(y > x);
                                let h = if net >= usize::from(need) {
                                    hits += 1;
                                    let h = (usize::from(damage) + net - usize::from(need))
                                        .saturating_sub(usize::from(armour));
                                    bump(&mut on_hit, h);
                                    h
                                } else {
                                    0
                                };
                                bump(&mut harm, h);
                            }
                            let what = format!("{a} vs {d}, need {need}, damage {damage}, armour {armour}");
                            assert_eq!(o.outcomes, c(6u128.pow(n)), "{what}");
                            assert_eq!(o.hits, c(hits), "{what}");
                            assert_eq!(o.defender_swaps, c(swaps), "{what}");
                            assert_eq!(o.harm.counts(), tally(&harm), "{what}");
                            match &o.harm_on_hit {
                                Some(h) => assert_eq!(h.counts(), tally(&on_hit), "{what}"),
                                None => assert_eq!(hits, 0, "{what}"),
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn ein_odds_rolled_armour_matches_every_roll() {
    // EIN-H6's other mode: armour rolls dice, and each success cancels 1 Harm.
    for faces in [1u8, 2] {
        for a in 1..=3u8 {
            for d in 0..=(4 - a).min(2) {
                for r in 1..=(6 - a - d).min(2) {
                    let defence = (d > 0).then_some(d);
                    let n = u32::from(a + d + r);
                    for need in 1..=2u8 {
                        for damage in 0..=2u8 {
                            let mut harm = vec![0u128];
                            each_roll(n, |roll| {
                                let (att, rest) = roll.split_at(usize::from(a));
                                let (def, arm) = rest.split_at(usize::from(d));
                                let net = succ(att, faces).saturating_sub(succ(def, faces));
                                let h = if net >= usize::from(need) {
                                    (usize::from(damage) + net - usize::from(need)).saturating_sub(succ(arm, faces))
                                } else {
                                    0
                                };
                                bump(&mut harm, h);
                            });
                            let o = attack(&AttackSpec {
                                attack: a,
                                defence,
                                need,
                                damage,
                                armour: r,
                                armour_mode: ArmourMode::Roll,
                                faces,
                            })
                            .unwrap();
                            let what = format!("{a} vs {d}, armour {r} rolled, need {need}, damage {damage}");
                            assert_eq!(o.harm.counts(), tally(&harm), "{what}");
                            assert_eq!(o.harm.total(), &c(6u128.pow(n)), "{what}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn ein_odds_poison_and_falls_match_every_roll() {
    for faces in [1u8, 2, 4] {
        for t in 1..=4u8 {
            for v in 1..=(5 - t) {
                let n = u32::from(t + v);
                for zero_tie in [ZeroTie::OneHarm, ZeroTie::NoHarm] {
                    // EIN-R41: victim more → 0; tie → 1 (EIN-H27 for 0-0); fewer → the poison's.
                    let mut harm = vec![0u128];
                    each_roll(n, |roll| {
                        let (p, e) = roll.split_at(usize::from(t));
                        let (p, e) = (succ(p, faces), succ(e, faces));
                        let h = if e > p {
                            0
                        } else if e == p {
                            usize::from(!(p == 0 && zero_tie == ZeroTie::NoHarm))
                        } else {
                            p
                        };
                        bump(&mut harm, h);
                    });
                    let o = poison(t, v, zero_tie, faces).unwrap();
                    assert_eq!(o.harm.counts(), tally(&harm), "poison {t} vs {v}, {zero_tie:?}");
                }
                // EIN-R43: Harm is the Director's successes less the victim's, if positive.
                let mut harm = vec![0u128];
                each_roll(n, |roll| {
                    let (dir, e) = roll.split_at(usize::from(t));
                    bump(&mut harm, succ(dir, faces).saturating_sub(succ(e, faces)));
                });
                let o = fall(5 * u32::from(t), 1, 0, v, faces).unwrap();
                assert_eq!(o.dice, t);
                assert_eq!(o.harm.counts(), tally(&harm), "fall of {t} dice vs {v}");
            }
        }
    }
}

#[test]
fn ein_odds_poison_zero_tie_option_moves_the_zero_zero_rolls() {
    let one = poison(3, 2, ZeroTie::OneHarm, 1).unwrap();
    let none = poison(3, 2, ZeroTie::NoHarm, 1).unwrap();
    // 5^5 rolls have no 6 at all.
    assert_eq!(one.zero_zero, c(3125));
    assert_eq!(&one.harm.count_eq(0) + &one.zero_zero, none.harm.count_eq(0));
    assert_eq!(
        one.harm.count_eq(1).checked_sub(&one.zero_zero),
        Some(none.harm.count_eq(1))
    );
    // EIN-R42: a first dose of 3 totals 3 + 2 + 1 over the rounds.
    assert_eq!(one.harm.count_eq(3), one.harm_all_rounds.count_eq(6));
    let (text, json) = run("poison 3 vs 2 zero-tie none").unwrap();
    assert!(text.contains("a 0-0 tie deals no Harm"), "{text}");
    assert_eq!(json["zero_tie"], "none");
    assert_eq!(json["kind"], "poison");
    let (_, json) = run("poison 3 vs 2").unwrap();
    assert_eq!(json["zero_tie"], "one-harm");
}

#[test]
fn ein_odds_fall_dice_follow_whole_five_foot_steps() {
    // EIN-H5: 10 ft → 2 dice, 14 ft → 2, 15 ft → 3, 20 ft → 4; under 10 ft no roll.
    assert_eq!(fall_dice(5, 1, 10), 0);
    assert_eq!(fall_dice(9, 1, 10), 0);
    assert_eq!(fall_dice(10, 1, 10), 2);
    assert_eq!(fall_dice(14, 1, 10), 2);
    assert_eq!(fall_dice(15, 1, 10), 3);
    assert_eq!(fall_dice(20, 1, 10), 4);
    assert_eq!(fall_dice(20, 2, 10), 8);
    let (text, json) = run("fall 5 vs 3").unwrap();
    assert!(text.contains("no roll") && text.contains("under 10 ft"), "{text}");
    assert_eq!(json["rolled"], false);
    assert_eq!(json["harm"]["total"], "1");
    let (text, json) = run("fall 10 vs 1").unwrap();
    assert!(
        text.contains("rolls 2 dice") && text.contains("armour does not protect"),
        "{text}"
    );
    assert_eq!(json["dice"], 2);
    // 2 dice against 1: Harm 2 needs both sixes and no Endure six.
    assert_eq!(json["harm"]["outcomes"][2]["count"], "5");
    let (_, json) = run("fall 20 vs 2 dice-per-5ft 2 faces 2").unwrap();
    assert_eq!(json["dice"], 8);
    assert_eq!(json["faces"], 2);
}

#[test]
fn ein_odds_text_and_json_of_an_attack_agree() {
    let (text, json) = run("attack 4 vs 2 need 2 damage 2 armour 1 faces 2").unwrap();
    assert!(
        text.starts_with("attack of 4 dice against a defence of 2 dice, needing 2 successes left"),
        "{text}"
    );
    assert!(
        text.contains("the defence beats the attack and may swap cards: "),
        "{text}"
    );
    assert_eq!(json["kind"], "attack");
    assert_eq!(json["spec"]["armour_mode"], "cancel");
    assert_eq!(json["spec"]["defence"], 2);
    let o = attack(&AttackSpec {
        attack: 4,
        defence: Some(2),
        need: 2,
        damage: 2,
        armour: 1,
        armour_mode: ArmourMode::Cancel,
        faces: 2,
    })
    .unwrap();
    assert_eq!(json["hits"], o.hits.to_string());
    assert_eq!(json["outcomes"], "46656");
    assert_eq!(json["p_hit"].as_f64(), Some(o.p_hit));
    assert_eq!(json["expected_harm"].as_f64(), Some(o.expected_harm));
    let hit_line = format!("hit: {}", percent(&o.hits, &o.outcomes));
    assert!(text.contains(&hit_line), "{text}");
    let harm = &json["harm"]["outcomes"];
    assert_eq!(harm[0]["p_ge"].as_f64(), Some(1.0));
    assert_eq!(harm[1]["count"], o.harm.count_eq(1).to_string());
    // Rolled armour, by either spelling.
    let (_, json) = run("attack 4 armor 2 armor-mode roll").unwrap();
    assert_eq!(json["spec"]["armour_mode"], "roll");
    assert_eq!(json["spec"]["defence"], serde_json::Value::Null);
    // An attack that cannot hit says so.
    let (text, json) = run("attack 1 need 2").unwrap();
    assert!(text.contains("the attack cannot hit"), "{text}");
    assert_eq!(json["harm_on_hit"], serde_json::Value::Null);
    assert_eq!(attack_note(1, None, 2, 2, 0, false, 1), "hit 0.0%, no harm");
}

#[test]
fn ein_odds_bad_input_is_refused_with_a_sentence() {
    for (line, word) in [
        ("pool 0", "pool 0"),
        ("pool 33", "pool 33"),
        ("pool three", "pool three"),
        ("pool 3 bogus 1", "'bogus'"),
        ("pool 3 faces 7", "faces 7"),
        ("faces 0 pool 3", "faces 0"),
        ("pool 3 faces", "'faces'"),
        ("pool 3 faces 2 faces 2", "'faces'"),
        ("pool", "'pool'"),
        ("", "nothing"),
        ("roll 3", "'roll'"),
        ("attack 3 need 0", "need 0"),
        ("attack 3 vs 0", "vs 0"),
        ("attack 3 vs 2 vs 2", "'vs'"),
        ("attack 3 need", "'need'"),
        ("attack 3 armour-mode soak", "armour-mode soak"),
        ("attack 3 armour 40 armour-mode roll", "armour 40 in roll mode"),
        ("attack 3 armour 1 armor 1", "'armour'"),
        ("opposed 3", "'vs'"),
        ("opposed 3 2", "'2'"),
        ("poison 3 vs 2 zero-tie sometimes", "zero-tie sometimes"),
        ("poison 33 vs 2", "poison 33"),
        ("fall 200 vs 2", "200 ft"),
        ("fall 20 vs 2 dice-per-5ft 0", "dice-per-5ft 0"),
        ("fall -5 vs 2", "fall -5"),
    ] {
        let err = run(line).expect_err(line);
        assert!(err.contains(word), "{line}: {err}");
        assert!(err.contains(GRAMMAR), "{line}: {err}");
    }
    assert!(successes(0, 1).is_err());
    assert!(successes(33, 1).is_err());
    assert!(successes(3, 0).is_err());
    assert!(successes(3, 7).unwrap_err().contains("7 success faces"));
    assert!(opposed(0, 1, 1).is_err());
    assert!(poison(1, 0, ZeroTie::OneHarm, 1).is_err());
    assert!(fall(20, 1, 10, 0, 1).is_err());
    assert!(fall(20, 0, 10, 1, 1).is_err());
    assert!(fall(u32::MAX, 255, 10, 1, 1).is_err());
    assert!(attack_note(0, None, 1, 1, 0, false, 1).starts_with("no odds: "));
    assert!(attack_note(3, Some(33), 1, 1, 0, false, 1).starts_with("no odds: "));
    assert!(attack_note(3, None, 1, 1, 33, true, 1).starts_with("no odds: "));
}

#[test]
fn ein_odds_percentages_round_exactly_and_mark_the_extremes() {
    assert_eq!(percent(&c(1), &c(16)), "6.3%", "6.25 rounds half up");
    assert_eq!(percent(&c(1), &c(2000)), "0.1%", "0.05 rounds half up");
    assert_eq!(percent(&c(1), &c(2001)), "<0.1%");
    assert_eq!(percent(&c(1999), &c(2000)), ">99.9%");
    assert_eq!(percent(&c(0), &c(7)), "0.0%");
    assert_eq!(percent(&c(7), &c(7)), "100.0%");
    // 32 dice all showing a success: possible, so not 0.0%.
    let d = successes(32, 1).unwrap();
    assert_eq!(percent(&d.count_eq(32), d.total()), "<0.1%");
}

#[test]
fn ein_odds_counts_do_exact_arithmetic_past_u128() {
    let six = c(6);
    let mut p = c(1);
    for _ in 0..96 {
        p = &p * &six;
    }
    assert_eq!(
        p.to_string(),
        "504103876157462118901767181449118688686067677834070116931382690099920633856"
    );
    assert_eq!(p.to_u128(), None);
    let (q, r) = p.div_rem(&c(6u128.pow(40))).unwrap();
    assert_eq!(r, Count::zero());
    assert_eq!(q, &c(6u128.pow(28)) * &c(6u128.pow(28)));
    let big = c(u128::MAX);
    let sum = &big + &c(1);
    assert_eq!(sum.to_string(), "340282366920938463463374607431768211456");
    assert_eq!(sum.checked_sub(&c(1)), Some(big.clone()));
    assert_eq!(big.checked_sub(&sum), None);
    assert!(big < sum && c(2) > c(1) && Count::zero() < c(1));
    assert_eq!(c(12_345).to_u128(), Some(12_345));
    assert_eq!(c(1_000_000_007).div_rem(&c(1000)), Some((c(1_000_000), c(7))));
    assert_eq!(c(5).div_rem(&Count::zero()), None);
    assert!((p.ratio(&(&p * &c(4))) - 0.25).abs() < 1e-15);
    assert_eq!(Count::zero().to_string(), "0");
    assert_eq!(
        serde_json::to_value(c(10u128.pow(30))).unwrap(),
        "1000000000000000000000000000000"
    );
}
