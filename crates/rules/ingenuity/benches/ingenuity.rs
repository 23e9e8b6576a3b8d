//! Ingenuity benchmarks on the ambush encounter (examples/ingenuity/ambush.toml): a whole combat
//! played by the heuristic AI on every seat, the intercept test of an attack (a goal-first
//! search per ally), the squares a combatant can move to (one full search), and
//! exact attack odds with and without a dodge (what the AI's odds memo saves on a repeat).

use criterion::{Criterion, criterion_group, criterion_main};
use fray_dice::{Prng, SeededDice};
use fray_engine::text::TextRuleset;
use fray_engine::{Answer, Cx, Decision, Policy, Ruleset, Seat};
use fray_ingenuity::state::{Frame, State};
use fray_ingenuity::{Ingenuity, check, legal, odds};
use std::hint::black_box;

fn ambush() -> State {
    let l = fray_testkit::example::<Ingenuity>("ambush.toml");
    Ingenuity::new_state(&l.setup, &l.options).expect("state")
}

/// The answer of `ai` to the pending decision of `s` (for its first decider), with that seat.
fn answer(ai: &mut dyn Policy<Ingenuity>, s: &State, rng: &mut Prng) -> Option<(Seat, Answer<Ingenuity>)> {
    let seat = Ingenuity::pending(s)?.first();
    let d = Decision::new(s, seat)?;
    ai.choose(&d, rng).map(|a| (seat, a))
}

/// Plays a whole combat with one policy on every seat; returns the number of rounds.
fn combat(
    base: &State,
    seed: u64,
    ai: &mut dyn Policy<Ingenuity>,
    events: &mut Vec<fray_ingenuity::event::Event>,
) -> u32 {
    let mut s = base.clone();
    ai.new_combat();
    let mut dice = SeededDice::for_stream(seed, 0);
    let mut rng = Prng::for_stream(seed, 1);
    events.clear();
    Ingenuity::start(&mut Cx::new(&mut s, &mut dice, events)).expect("start");
    while Ingenuity::pending(&s).is_some() {
        let (_, a) = answer(ai, &s, &mut rng).expect("an answer");
        events.clear();
        let st = fray_ingenuity::stage::stage(&s);
        fray_ingenuity::resolve::resolve(&mut Cx::new(&mut s, &mut dice, events), st.as_ref(), &a.command, a.plan)
            .expect("resolve");
    }
    s.round
}

fn ingenuity(c: &mut Criterion) {
    let base = ambush();
    let mut ai = Ingenuity::heuristic();
    let mut events = Vec::new();

    c.bench_function("ingenuity whole combat (heuristic, ambush)", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            black_box(combat(&base, seed, &mut *ai, &mut events))
        })
    });

    // The first attack of a seeded combat that an ally of its target may intercept, as it is
    // declared: who may intercept it.
    let mut s = base.clone();
    let mut dice = SeededDice::new(7);
    let mut rng = Prng::from_seed(7);
    ai.new_combat();
    Ingenuity::start(&mut Cx::new(&mut s, &mut dice, &mut events)).expect("start");
    let attack = loop {
        let open = s.stack.iter().find_map(|f| match f {
            Frame::Attack(a) if !check::intercept_candidates(&s, a).is_empty() => Some((**a).clone()),
            _ => None,
        });
        if let Some(a) = open {
            break a;
        }
        let (_, a) = answer(&mut *ai, &s, &mut rng).expect("an interceptable attack before the end");
        let st = fray_ingenuity::stage::stage(&s);
        fray_ingenuity::resolve::resolve(
            &mut Cx::new(&mut s, &mut dice, &mut events),
            st.as_ref(),
            &a.command,
            a.plan,
        )
        .expect("resolve");
    };
    eprintln!(
        "ambush: {} attacks {}, who may be intercepted by {:?}",
        s.name(attack.attacker),
        s.name(attack.target),
        check::intercept_candidates(&s, &attack)
    );
    c.bench_function("ingenuity intercept candidates (ambush)", |b| {
        b.iter(|| black_box(check::intercept_candidates(&s, &attack)))
    });

    let hild = base.find("hild").expect("Hild is in the ambush");
    c.bench_function("ingenuity move squares (ambush, Hild at the start)", |b| {
        b.iter(|| black_box(legal::move_squares(&base, hild)))
    });

    let plain = odds::parse_query(
        &[
            "--attr",
            "d8",
            "--skill",
            "d6",
            "--prof",
            "2",
            "--damage",
            "4",
            "--advantage",
            "1",
        ]
        .map(String::from),
    )
    .expect("query");
    let mut dodged = plain.clone();
    dodged.dodge = Some((6, 8, 1));
    c.bench_function("ingenuity exact attack odds (advantage)", |b| {
        b.iter(|| black_box(odds::attack(&plain)))
    });
    c.bench_function("ingenuity exact attack odds (advantage, dodge)", |b| {
        b.iter(|| black_box(odds::attack(&dodged)))
    });
}

criterion_group!(benches, ingenuity);
criterion_main!(benches);
