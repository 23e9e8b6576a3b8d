//! Thrum benchmarks on the benchmark encounter (examples/thrum/bench-4v4.toml): one turn played
//! by the heuristic AI, one whole combat, the dice alone of an average combat (the same number
//! of rolls and faces drawn from the same generator), the rules alone (recorded combats checked
//! and resolved again without the AI), and exact odds queries.

use criterion::{Criterion, criterion_group, criterion_main};
use fray_dice::{Dice, DiceError, Faces, Prng, RecordingDice, SeededDice};
use fray_engine::text::TextRuleset;
use fray_engine::{Answer, Cx, Decision, Policy, Ruleset, Seat};
use fray_thrum::state::{State, Step};
use fray_thrum::{Thrum, odds};
use std::hint::black_box;

fn bench_state() -> State {
    let l = fray_testkit::example::<Thrum>("bench-4v4.toml");
    Thrum::new_state(&l.setup, &l.options).expect("state")
}

/// Seeded dice that count what they deal.
struct Counting {
    dice: SeededDice,
    rolls: u64,
    faces: u64,
}

impl Dice for Counting {
    fn roll(
        &mut self,
        count: usize,
        sides: u16,
        why: &dyn std::fmt::Display,
        out: &mut Faces,
    ) -> Result<(), DiceError> {
        self.rolls += 1;
        self.faces += count as u64;
        self.dice.roll(count, sides, why, out)
    }
}

/// A context for the rules-alone benches: keeping the events (cleared first), or not keeping
/// them, as the simulator does.
fn bench_cx<'a>(
    keep: bool,
    s: &'a mut State,
    dice: &'a mut SeededDice,
    events: &'a mut Vec<fray_thrum::event::Event>,
) -> Cx<'a, Thrum> {
    events.clear();
    if keep {
        Cx::new(s, dice, events)
    } else {
        Cx::discarding(s, dice)
    }
}

/// The answer `ai` gives the first decider of `s`, and that seat (`None` once the game is over).
fn choose(ai: &mut dyn Policy<Thrum>, s: &State, rng: &mut Prng) -> Option<(Seat, Answer<Thrum>)> {
    let seat = Thrum::pending(s)?.first();
    let decision = Decision::new(s, seat)?;
    ai.choose(&decision, rng).map(|a| (seat, a))
}

/// Commands as answered, with their plans, replayed without checking them again.
type Answers = Vec<(Seat, Answer<Thrum>)>;

/// Plays a whole combat with the heuristic on every seat; returns the number of rounds.
fn combat(base: &State, seed: u64, ai: &mut dyn Policy<Thrum>, events: &mut Vec<fray_thrum::event::Event>) -> u16 {
    let mut dice = SeededDice::for_stream(seed, 0);
    combat_with(base, seed, ai, events, &mut dice)
}

fn combat_with(
    base: &State,
    seed: u64,
    ai: &mut dyn Policy<Thrum>,
    events: &mut Vec<fray_thrum::event::Event>,
    dice: &mut dyn Dice,
) -> u16 {
    let mut s = base.clone();
    ai.new_combat();
    let mut rng = Prng::for_stream(seed, 1);
    events.clear();
    Thrum::start(&mut Cx::new(&mut s, &mut *dice, events)).expect("start");
    while Thrum::pending(&s).is_some() {
        let (_, a) = choose(ai, &s, &mut rng).expect("a command");
        events.clear();
        fray_thrum::resolve::resolve(&mut Cx::new(&mut s, &mut *dice, events), &a.command, a.plan).expect("resolve");
    }
    s.round
}

/// One combat as recorded: who answered what, and every face the dice dealt, in order.
struct Replay {
    commands: Vec<(Seat, fray_thrum::command::Command)>,
    faces: Vec<u16>,
}

/// Plays `n` combats (seeds 1 to `n`) with the heuristic on every seat and keeps their commands
/// and faces.
fn record_combats(base: &State, ai: &mut dyn Policy<Thrum>, n: u64) -> Vec<Replay> {
    let mut events = Vec::new();
    (1..=n)
        .map(|seed| {
            let mut s = base.clone();
            ai.new_combat();
            let mut dice = RecordingDice::new(SeededDice::for_stream(seed, 0));
            let mut rng = Prng::for_stream(seed, 1);
            let mut commands = Vec::new();
            Thrum::start(&mut Cx::new(&mut s, &mut dice, &mut events)).expect("start");
            while Thrum::pending(&s).is_some() {
                let (seat, a) = choose(ai, &s, &mut rng).expect("a command");
                events.clear();
                fray_thrum::resolve::resolve(&mut Cx::new(&mut s, &mut dice, &mut events), &a.command, a.plan)
                    .expect("resolve");
                commands.push((seat, a.command));
            }
            Replay {
                commands,
                faces: dice.take_drawn(),
            }
        })
        .collect()
}

/// Faces dealt in order from a recorded list: the cheapest source that replays a combat.
struct SliceDice<'a> {
    faces: &'a [u16],
    at: usize,
}

impl Dice for SliceDice<'_> {
    fn roll(
        &mut self,
        count: usize,
        _sides: u16,
        _why: &dyn std::fmt::Display,
        out: &mut Faces,
    ) -> Result<(), DiceError> {
        let faces = self
            .faces
            .get(self.at..self.at + count)
            .ok_or(DiceError::TooManyDice { max: 0 })?;
        self.at += count;
        out.extend_from_slice(faces)
    }

    fn draw(&mut self, _deck: &[u16], _why: &dyn std::fmt::Display) -> Result<u16, DiceError> {
        let card = *self.faces.get(self.at).ok_or(DiceError::TooManyDice { max: 0 })?;
        self.at += 1;
        Ok(card)
    }
}

/// Replays one recorded combat from a fresh start: `check` then `resolve` of every command with
/// the recorded faces. Returns the last round, which must be the round the combat ended in.
fn replay(base: &State, r: &Replay, events: &mut Vec<fray_thrum::event::Event>) -> u16 {
    let mut s = base.clone();
    let mut dice = SliceDice { faces: &r.faces, at: 0 };
    events.clear();
    Thrum::start(&mut Cx::new(&mut s, &mut dice, events)).expect("start");
    for (_, c) in &r.commands {
        let plan = fray_thrum::check::check(&s, c).expect("a recorded command is legal");
        events.clear();
        fray_thrum::resolve::resolve(&mut Cx::new(&mut s, &mut dice, events), c, plan).expect("resolve");
    }
    assert!(
        Thrum::pending(&s).is_none() && dice.at == r.faces.len(),
        "the replay ended with the combat"
    );
    s.round
}

/// The rules alone, once over a fixed set of recorded combats and no timing: the same work for
/// any build, so a profiler's counts compare builds exactly. Each variant is its own function
/// for the profiler to single out, for example
/// `FRAY_BENCH_ONCE=1 valgrind --tool=callgrind --toggle-collect='thrum::once_*' BENCH --bench none`
/// (the bench binary from `cargo bench -p fray-thrum --bench thrum --no-run`).
fn once(
    base: &State,
    recorded: &[(u64, Answers)],
    replays: &[Replay],
    events: &mut Vec<fray_thrum::event::Event>,
) -> u64 {
    once_resolve_kept(base, recorded, events)
        + once_resolve_not_kept(base, recorded, events)
        + once_check_resolve(base, replays, events)
}

/// Every command of the recorded combats resolved, with the events kept.
#[inline(never)]
fn once_resolve_kept(base: &State, recorded: &[(u64, Answers)], events: &mut Vec<fray_thrum::event::Event>) -> u64 {
    resolve_all(true, base, recorded, events)
}

/// Every command of the recorded combats resolved, as the simulator does (events not kept).
#[inline(never)]
fn once_resolve_not_kept(base: &State, recorded: &[(u64, Answers)], events: &mut Vec<fray_thrum::event::Event>) -> u64 {
    resolve_all(false, base, recorded, events)
}

fn resolve_all(
    keep: bool,
    base: &State,
    recorded: &[(u64, Answers)],
    events: &mut Vec<fray_thrum::event::Event>,
) -> u64 {
    let mut rounds = 0u64;
    for (seed, cmds) in recorded {
        let mut s = base.clone();
        let mut dice = SeededDice::for_stream(*seed, 0);
        Thrum::start(&mut bench_cx(keep, &mut s, &mut dice, events)).expect("start");
        for (_, a) in cmds {
            let cx = &mut bench_cx(keep, &mut s, &mut dice, events);
            fray_thrum::resolve::resolve(cx, &a.command, a.plan.clone()).expect("resolve");
        }
        rounds += u64::from(s.round);
    }
    black_box(rounds)
}

/// Every recorded combat replayed: each command checked then resolved with its recorded faces.
#[inline(never)]
fn once_check_resolve(base: &State, replays: &[Replay], events: &mut Vec<fray_thrum::event::Event>) -> u64 {
    black_box(replays.iter().map(|r| u64::from(replay(base, r, events))).sum())
}

/// The fastest of `k` passes of each rules-alone variant over the recorded combats (passes of
/// the three variants interleaved), in µs per combat.
fn best_of(
    k: u32,
    base: &State,
    recorded: &[(u64, Answers)],
    replays: &[Replay],
    events: &mut Vec<fray_thrum::event::Event>,
) {
    let mut best = [f64::INFINITY; 3];
    for _ in 0..k {
        for (i, b) in best.iter_mut().enumerate() {
            let t = std::time::Instant::now();
            let n = match i {
                0 => {
                    once_resolve_kept(base, recorded, events);
                    recorded.len()
                }
                1 => {
                    once_resolve_not_kept(base, recorded, events);
                    recorded.len()
                }
                _ => {
                    once_check_resolve(base, replays, events);
                    replays.len()
                }
            };
            *b = b.min(t.elapsed().as_secs_f64() * 1e6 / n as f64);
        }
    }
    eprintln!(
        "best of {k} passes, µs per combat: resolve, events kept {:.1}; resolve, events not kept {:.1}; check + resolve {:.1}",
        best[0], best[1], best[2]
    );
}

fn thrum(c: &mut Criterion) {
    let base = bench_state();
    let mut ai = Thrum::heuristic();
    let mut events = Vec::new();

    // A position at the start of round 2, reached once; each iteration plays one turn from it.
    let mut mid = base.clone();
    let mut dice = SeededDice::new(7);
    let mut rng = Prng::from_seed(7);
    Thrum::start(&mut Cx::new(&mut mid, &mut dice, &mut events)).expect("start");
    while Thrum::pending(&mid).is_some() && (mid.round < 2 || mid.turn.step != Step::Slot) {
        let (_, a) = choose(&mut *ai, &mid, &mut rng).expect("a command");
        fray_thrum::resolve::resolve(&mut Cx::new(&mut mid, &mut dice, &mut events), &a.command, a.plan)
            .expect("resolve");
    }
    c.bench_function("thrum one turn (heuristic, bench-4v4)", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            let mut s = mid.clone();
            let who = s.turn.who;
            let mut dice = SeededDice::new(seed);
            let mut rng = Prng::from_seed(seed);
            while let Some((_, a)) = choose(&mut *ai, &s, &mut rng) {
                events.clear();
                fray_thrum::resolve::resolve(&mut Cx::new(&mut s, &mut dice, &mut events), &a.command, a.plan)
                    .expect("resolve");
                if s.turn.who != who || Thrum::pending(&s).is_none() {
                    break;
                }
            }
            black_box(s.round)
        })
    });

    c.bench_function("thrum whole combat (heuristic, bench-4v4)", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            black_box(combat(&base, seed, &mut *ai, &mut events))
        })
    });

    // The dice alone: the average number of rolls and faces of the combats above (seeds 1 to
    // 200), drawn from the same generator with the same calls. Compare with the whole combat.
    let (mut rolls, mut faces) = (0u64, 0u64);
    let samples = 200u64;
    for seed in 1..=samples {
        let mut counting = Counting {
            dice: SeededDice::for_stream(seed, 0),
            rolls: 0,
            faces: 0,
        };
        combat_with(&base, seed, &mut *ai, &mut events, &mut counting);
        rolls += counting.rolls;
        faces += counting.faces;
    }
    let per_roll = (faces as f64 / rolls as f64).round().max(1.0) as usize;
    let rolls = rolls / samples;
    eprintln!(
        "bench-4v4: an average combat makes {rolls} rolls of about {per_roll} dice ({} faces)",
        faces / samples
    );
    c.bench_function("dice alone of one combat (bench-4v4)", |b| {
        let mut seed = 0u64;
        let mut out = Faces::new();
        b.iter(|| {
            seed += 1;
            let mut dice = SeededDice::for_stream(seed, 0);
            let mut sum = 0u64;
            for _ in 0..rolls {
                out.clear();
                dice.roll(per_roll, 6, &"bench", &mut out).expect("dice");
                sum += out.iter().map(u64::from).sum::<u64>();
            }
            black_box(sum)
        })
    });

    // The rules alone: the answers (commands and their plans) of 50 heuristic combats recorded
    // once, then resolved again from the start with the same dice and no AI. The time per combat is the floor a faster AI
    // could approach: the throughput of a policy that costs nothing.
    let recorded: Vec<(u64, Answers)> = (1..=50u64)
        .map(|seed| {
            let mut s = base.clone();
            ai.new_combat();
            let mut dice = SeededDice::for_stream(seed, 0);
            let mut rng = Prng::for_stream(seed, 1);
            let mut cmds = Vec::new();
            Thrum::start(&mut Cx::new(&mut s, &mut dice, &mut events)).expect("start");
            while Thrum::pending(&s).is_some() {
                let (seat, a) = choose(&mut *ai, &s, &mut rng).expect("a command");
                let plan = a.plan.clone();
                fray_thrum::resolve::resolve(&mut Cx::new(&mut s, &mut dice, &mut events), &a.command, plan)
                    .expect("resolve");
                cmds.push((seat, a));
            }
            (seed, cmds)
        })
        .collect();
    let per = recorded.iter().map(|(_, c)| c.len()).sum::<usize>() / recorded.len();
    eprintln!("bench-4v4: an average combat has {per} commands");
    // Once with the events kept (cleared after each command), once as the simulator runs the
    // rules: the events applied and not kept (`Cx::discarding`), so the frames they carry are
    // moved onto the stack, not copied.
    for keep in [true, false] {
        let name = if keep {
            "rules alone of one combat, no AI (bench-4v4)"
        } else {
            "rules alone of one combat, events not kept (bench-4v4)"
        };
        c.bench_function(name, |b| {
            let mut i = 0usize;
            b.iter(|| {
                let (seed, cmds) = &recorded[i % recorded.len()];
                i += 1;
                let mut s = base.clone();
                let mut dice = SeededDice::for_stream(*seed, 0);
                Thrum::start(&mut bench_cx(keep, &mut s, &mut dice, &mut events)).expect("start");
                for (_, a) in cmds {
                    let cx = &mut bench_cx(keep, &mut s, &mut dice, &mut events);
                    fray_thrum::resolve::resolve(cx, &a.command, a.plan.clone()).expect("resolve");
                }
                black_box(s.round)
            })
        });
    }

    // The rules alone, as a user's replay would run them: the commands (seat and command) and
    // every face of K heuristic combats recorded once, outside the timed loop; each iteration
    // starts a fresh combat and checks then resolves each recorded command with the recorded
    // faces (dealt from a slice, so the dice cost next to nothing). No AI, no generator.
    let replays = record_combats(&base, &mut *ai, 100);
    let commands = replays.iter().map(|r| r.commands.len()).sum::<usize>() as f64 / replays.len() as f64;
    let faces = replays.iter().map(|r| r.faces.len()).sum::<usize>() as f64 / replays.len() as f64;
    eprintln!(
        "bench-4v4 replays: {} combats, {commands:.0} commands and {faces:.0} faces on average",
        replays.len()
    );
    // With FRAY_BENCH_ONCE set, the rules alone run exactly once over the recorded combats
    // (see `once`), for a profiler to count; give a filter that matches no benchmark.
    if std::env::var_os("FRAY_BENCH_ONCE").is_some() {
        let n = once(&base, &recorded, &replays, &mut events);
        eprintln!("rules alone once over the recorded combats: {n}");
    }
    // With FRAY_BENCH_BEST=K, the three rules-alone variants run K times each, interleaved, and
    // the fastest pass of each is printed per combat: on a shared machine, where neighbours
    // slow some passes down, the fastest pass is the steadiest figure to compare builds by.
    if let Some(k) = std::env::var("FRAY_BENCH_BEST")
        .ok()
        .and_then(|k| k.parse::<u32>().ok())
    {
        best_of(k, &base, &recorded, &replays, &mut events);
    }
    c.bench_function("rules alone: check + resolve of recorded combats (bench-4v4)", |b| {
        let mut i = 0usize;
        b.iter(|| {
            let r = &replays[i % replays.len()];
            i += 1;
            black_box(replay(&base, r, &mut events))
        })
    });

    let q = odds::parse_query(
        &[
            "--attack",
            "3",
            "--boons",
            "1",
            "--defend",
            "2",
            "--defence",
            "evasion",
            "--cover",
        ]
        .map(String::from),
    )
    .expect("query");
    c.bench_function("thrum exact attack odds", |b| b.iter(|| black_box(odds::attack(q))));
    let expr: fray_dice::DiceExpr = "4d6kh3+2d6kl1".parse().expect("expr");
    c.bench_function("exact distribution 4d6kh3+2d6kl1", |b| {
        b.iter(|| black_box(fray_dice::Dist::of_expr(&expr).ok()))
    });
}

criterion_group!(benches, thrum);
criterion_main!(benches);
