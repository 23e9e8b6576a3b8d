//! The legal list against the check, square by square and command by command.
//!
//! `legal_commands` does not run the check on every `move` it offers: one reachability search
//! gives every square (`check::moves`, `check::prompt_moves`). The conformance suite checks the
//! list against the commands a game happens to see; this test checks it against every square of
//! the map (and a ring beyond its edges), every step, and the candidates the list is built from,
//! at the decisions of random legal play on every example under every option variant: a `move`
//! or `step` is listed exactly when `check` accepts it.

use fray_dice::Prng;
use fray_engine::{Decision, Game, Policy, RandomLegal, Ruleset};
use fray_space::{Dir, Pos};
use fray_thrum::Thrum;
use fray_thrum::ability::Attr;
use fray_thrum::check::check;
use fray_thrum::command::Command;
use fray_thrum::options::Options;
use fray_thrum::state::State;

mod examples;
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

/// Compares the list with the check at this decision; returns how many probes were compared.
fn compare(s: &State, what: &str) -> usize {
    let Some(pending) = Thrum::pending(s) else { return 0 };
    let mut legal = Vec::new();
    Thrum::legal_commands(s, pending.first(), &mut legal);
    let probes = probes(s);
    for c in &probes {
        let listed = legal.contains(c);
        let accepted = check(s, c);
        assert_eq!(
            listed,
            accepted.is_ok(),
            "{what}: {c:?} is {} but the check says {accepted:?} (decision {pending:?})",
            if listed { "listed" } else { "not listed" },
        );
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
        compared += compare(game.state(), &what);
        let seat = pending.first();
        let decision = Decision::new(game.state(), seat).expect("the pending seat decides");
        let c = policy.choose(&decision, &mut rng).expect("something is legal");
        game.submit(seat, c).expect("a listed command is accepted");
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
fn moves_listed_are_moves_accepted_duel() {
    suite("duel.toml");
}

#[test]
fn moves_listed_are_moves_accepted_skirmish() {
    suite("skirmish.toml");
}

#[test]
fn moves_listed_are_moves_accepted_last_stand() {
    suite("last-stand.toml");
}

#[test]
fn moves_listed_are_moves_accepted_ruins() {
    suite("ruins.toml");
}

#[test]
fn moves_listed_are_moves_accepted_bench() {
    suite("bench-4v4.toml");
}
