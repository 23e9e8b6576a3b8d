//! The legal list against the check, square by square and command by command.
//!
//! The legal list does not run the check on every `move` it offers: one reachability search
//! gives every square and its path (`check::move_answers`, `check::prompt_move_answers`). The
//! conformance suite checks the list against the commands a game happens to see; this test
//! checks it against every square of the map (and a ring beyond its edges) and every step at the
//! decisions of random legal play on every example under every option variant, and at every
//! fourth decision against every command of the kinds below: a command is listed exactly when
//! `check` accepts it, and with the plan `check` gives it.
//!
//! The check's verdict-only entry points (`check::allowed`, `check::check_code`,
//! `check::plan_of`), which format no sentence, must agree with `check` on every command (its
//! plan too): they are compared over those probes,
//! every placement, answer, delay, stance, trigger and defence, every Action the list's
//! candidates make, and a few commands with indices out of range; and every refusal of `check`
//! must say why.

use fray_dice::Prng;
use fray_engine::gm::Adjust;
use fray_engine::{Decision, Game, Policy, RandomLegal, Ruleset};
use fray_space::{Dir, Pos};
use fray_thrum::Thrum;
use fray_thrum::ability::{AbilityId, Attr, Cond, Defence, XStatus};
use fray_thrum::check::{self, allowed, check, check_code, plan_of};
use fray_thrum::command::{Action, Command, Gauge, Ruling, Target, ThrumRuling};
use fray_thrum::legal;
use fray_thrum::options::Options;
use fray_thrum::setup::Cid;
use fray_thrum::state::State;
use fray_thrum::state::{Pick, StatusRef};

use crate::examples;
use examples::load;

/// Every `move` and `step` a decision could be answered with: each square of the map and of
/// the ring just outside it, each direction with and without a drop roll (and a roll the rules
/// never allow).
fn probes(s: &State) -> Vec<Command> {
    let map = &s.setup.map;
    let mut v = Vec::new();
    for y in -1..=map.height() as i16 {
        for x in -1..=map.width() as i16 {
            v.push(Command::Move(Pos::new(x, y)));
        }
    }
    for dir in Dir::ALL {
        for roll in [None, Some(Attr::End), Some(Attr::Ref), Some(Attr::Pow)] {
            v.push(Command::Step { dir, roll });
        }
    }
    v
}

/// Every command of the kinds a decision may be answered with (not only at this decision),
/// with the Actions the legal list considers for the current character.
fn universe(s: &State) -> Vec<Command> {
    let mut v = probes(s);
    v.extend(s.setup.map.positions().map(Command::Place));
    v.push(Command::Place(Pos::new(-1, -1)));
    v.extend([
        Command::Begin,
        Command::EndTurn,
        Command::Pass,
        Command::Accept,
        Command::Decline,
        Command::Keep,
        Command::Release,
        Command::Reroll,
        Command::Delay(None),
    ]);
    let chars = s.chars.len() as Cid;
    v.extend((0..=chars).map(|c| Command::Delay(Some(c))));
    let abilities = s.setup.book.abilities.len() as AbilityId;
    for id in 0..=abilities {
        v.push(Command::Stance(id));
        v.push(Command::Trigger(id));
    }
    for d in [
        Defence::Resilience,
        Defence::Evasion,
        Defence::Resolve,
        Defence::Decline,
    ] {
        v.push(Command::Defend(d));
        v.extend((0..=abilities).map(|id| Command::DefendWith(d, id)));
    }
    let who = s.turn.who;
    for &id in legal::abilities_of(s, who) {
        let a = s.setup.book.get(id);
        for ov in std::iter::once(None).chain((0..=a.overexert.len() as u8).map(Some)) {
            let size = check::area_size(s, who, &action(id, Target::None, Pick::default(), ov));
            for target in legal::target_candidates(s, who, id, size) {
                for pick in legal::pick_candidates(s, who, id, &target) {
                    v.push(Command::Act(action(id, target.clone(), pick, ov)));
                }
            }
        }
        v.push(Command::Act(action(
            id,
            Target::Chars([chars].into_iter().collect()),
            Pick::default(),
            None,
        )));
    }
    v.push(Command::Act(action(abilities, Target::None, Pick::default(), None)));
    v.extend(rulings(s).into_iter().map(Command::Gm));
    v
}

/// GM rulings, most of them refused: out-of-range combatants, gauges set too low or too high,
/// statuses, squares, templates and sides that do not fit.
fn rulings(s: &State) -> Vec<Ruling> {
    let chars = s.chars.len() as Cid;
    let mut v = Vec::new();
    for who in [0, chars - 1, chars] {
        for gauge in [Gauge::Fatigue, Gauge::StressTolerance, Gauge::Wounds, Gauge::Initiative] {
            for by in [Adjust::Add(-50), Adjust::Set(2), Adjust::Set(4)] {
                v.push(Ruling::Adjust { who, gauge, by });
            }
        }
        for status in [StatusRef::X(XStatus::ALL[0]), StatusRef::Cond(Cond::ALL[0])] {
            for by in [Adjust::Set(-1), Adjust::Set(1), Adjust::Set(300)] {
                v.push(Ruling::Other(ThrumRuling::Status { who, status, by }));
            }
        }
        for on in [false, true] {
            v.push(Ruling::Other(ThrumRuling::Incapacitate { who, on }));
        }
        for to in [Pos::new(0, 0), Pos::new(-1, 0), s.ch(0).pos.unwrap_or(Pos::new(0, 0))] {
            v.push(Ruling::Move { who, to });
        }
        v.push(Ruling::Remove { who });
    }
    let template = s.setup.templates.keys().next().cloned().unwrap_or_default();
    for (id, template, side, at) in [
        ("new-one", template.clone(), 0, Pos::new(0, 0)),
        ("bad id!", template.clone(), 0, Pos::new(0, 0)),
        ("new-two", "no-such-template".to_string(), 0, Pos::new(0, 0)),
        ("new-three", template.clone(), 9, Pos::new(0, 0)),
        ("new-four", template, 0, Pos::new(-1, -1)),
    ] {
        v.push(Ruling::Add {
            id: id.to_string(),
            template,
            side,
            at,
        });
    }
    v.push(Ruling::End { winner: None });
    v.push(Ruling::End { winner: Some(9) });
    v
}

fn action(ability: AbilityId, target: Target, pick: Pick, overexert: Option<u8>) -> Action {
    Action {
        ability,
        target,
        pick,
        overexert,
    }
}

/// The verdict-only entry points agree with `check` on every command of the universe, and every
/// refusal of `check` has a sentence; returns how many commands were compared.
fn verdicts(s: &State, what: &str) -> usize {
    let all = universe(s);
    for c in &all {
        let full = check(s, c);
        assert_eq!(
            allowed(s, c),
            full.is_ok(),
            "{what}: allowed({c:?}) disagrees with {full:?}"
        );
        assert_eq!(
            check_code(s, c),
            full.clone().map_err(|r| r.code),
            "{what}: check_code({c:?}) disagrees with check"
        );
        assert_eq!(
            plan_of(s, c),
            full.as_ref().ok().cloned(),
            "{what}: plan_of({c:?}) disagrees with check"
        );
        if let Err(r) = &full {
            assert!(
                !r.reason.is_empty(),
                "{what}: {c:?} is refused ({}) without a sentence",
                r.code
            );
        }
    }
    all.len()
}

/// Compares the list with the check at this decision, over the probes or (`all`) the whole
/// universe but its rulings (which the list never offers); returns how many commands were
/// compared.
fn compare(s: &State, what: &str, all: bool) -> usize {
    let Some(pending) = Thrum::pending(s) else { return 0 };
    let mut answers = Vec::new();
    Thrum::legal(s, &pending.stage, pending.first(), &mut answers);
    let probes = if all { universe(s) } else { probes(s) };
    for c in probes.iter().filter(|c| !matches!(c, Command::Gm(_))) {
        let listed = answers.iter().find(|a| a.command == *c);
        let accepted = check(s, c);
        assert_eq!(
            listed.is_some(),
            accepted.is_ok(),
            "{what}: {c:?} is {} but the check says {accepted:?} (decision {pending:?})",
            if listed.is_some() { "listed" } else { "not listed" },
        );
        if let (Some(a), Ok(plan)) = (listed, &accepted) {
            assert_eq!(
                &a.plan, plan,
                "{what}: {c:?} is listed with another plan than its check's"
            );
        }
    }
    probes.len()
}

/// Random legal play on an example with the given options, comparing at every decision.
fn play(name: &str, variant: &str, options: &Options, seed: u64, max_commands: usize) -> usize {
    let (setup, _) = load(name);
    let mut game = Game::<Thrum>::new_seeded(setup, options.clone(), seed).expect("the example starts");
    let mut policy = RandomLegal::<Thrum>::new();
    let mut rng = Prng::for_stream(seed, 0x1E6A);
    let mut compared = 0;
    for step in 0..max_commands {
        let Some(pending) = game.pending() else { break };
        let what = format!("{name} ({variant}), seed {seed}, command {step}");
        let all = step % 4 == 0;
        compared += compare(game.state(), &what, all);
        if all {
            compared += verdicts(game.state(), &what);
        }
        let seat = pending.first();
        let decision = Decision::new(game.state(), seat).expect("the pending seat decides");
        let c = policy.choose(&decision, &mut rng).expect("something is legal");
        game.submit(seat, c.command).expect("a listed command is accepted");
    }
    compared
}

fn suite(name: &str) {
    let (_, options) = load(name);
    let mut compared = play(name, "as shipped", &options, 1, 600);
    for (variant, o) in Options::variants() {
        compared += play(name, variant, &o, 2, 150);
    }
    assert!(compared > 10_000, "{name}: only {compared} probes were compared");
}

#[test]
fn list_and_verdicts_agree_with_check_duel() {
    suite("duel.toml");
}

#[test]
fn list_and_verdicts_agree_with_check_skirmish() {
    suite("skirmish.toml");
}

#[test]
fn list_and_verdicts_agree_with_check_last_stand() {
    suite("last-stand.toml");
}

#[test]
fn list_and_verdicts_agree_with_check_ruins() {
    suite("ruins.toml");
}

#[test]
fn list_and_verdicts_agree_with_check_bench() {
    suite("bench-4v4.toml");
}
