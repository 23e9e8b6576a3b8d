//! The stage's promise over example playouts: `pending` is what `stage::stage` says, asked of
//! the seat that plays its combatant, and every answer the legal list gives is accepted by the
//! check under the same stage with the same plan.

use fray_dice::Prng;
use fray_engine::{Answer, Decision, Game, Policy, RandomLegal, Ruleset};
use fray_skeleton::Skeleton;
use fray_skeleton::check;
use fray_skeleton::codes;
use fray_skeleton::command::Command;
use fray_skeleton::stage::{Stage, stage};
use fray_skeleton::state::State;
use fray_space::Pos;

/// What the stage promises in one position: `pending` is the stage, asked of the seat that
/// plays its combatant, with the stage's kind and actor; every listed command is accepted by
/// the check under the same stage with the plan the list gave; a command of the other kind of
/// decision is refused as not asked now. How many positions asked something (0 or 1).
fn position(s: &State) -> usize {
    let st = stage(s);
    let pending = Skeleton::pending(s);
    // Every decision has one decider: the seat that plays the combatant it is about.
    let seat = |st: &Stage| s.seat_of(st.actor().expect("every decision has a decider"));
    assert_eq!(
        pending,
        st.map(|st| fray_engine::Pending::one(seat(&st), st)),
        "pending is not what the stage says: {st:?}"
    );
    assert_eq!(
        pending.map(|p| (p.kind(), p.actor())),
        st.map(|st| (st.kind(), st.actor()))
    );
    let Some(st) = st else { return 0 };
    let mut legal: Vec<Answer<Skeleton>> = Vec::new();
    check::legal(s, &st, &mut legal);
    assert!(!legal.is_empty(), "{st:?} lists nothing");
    for a in &legal {
        assert_eq!(
            check::check(s, Some(&st), &a.command),
            Ok(a.plan),
            "{st:?}: {:?}",
            a.command
        );
    }
    let probes = [
        (Command::Dodge, "defence"),
        (Command::Take, "defence"),
        (Command::End, "turn"),
        (Command::Attack(0), "turn"),
        (Command::Move(Pos::new(0, 0)), "turn"),
    ];
    for (cmd, kind) in probes {
        if kind != st.kind() {
            let r = check::check(s, Some(&st), &cmd).expect_err("another decision's command");
            assert_eq!(r.code, codes::NOT_NOW, "{st:?}: {cmd:?}: {}", r.reason);
        }
    }
    1
}

#[test]
fn stage_agrees_with_pending_and_legal_with_check_over_example_playouts() {
    let mut seen = [0; 2];
    for seed in 0..20 {
        let l = fray_testkit::example::<Skeleton>("duel.toml");
        let mut game = Game::<Skeleton>::new_seeded(l.setup, l.options, seed).expect("the example starts");
        let mut rng = Prng::for_stream(seed, 1);
        let mut random = RandomLegal::<Skeleton>::new();
        let mut heuristic = fray_skeleton::ai::Heuristic::default();
        // Half the playouts random, half the built-in AI.
        let policy: &mut dyn Policy<Skeleton> = if seed % 2 == 0 { &mut random } else { &mut heuristic };
        for _ in 0..2_000 {
            let Some(p) = game.pending() else { break };
            position(game.state());
            seen[usize::from(p.kind() == "turn")] += 1;
            let seat = p.first();
            let d = Decision::<Skeleton>::with_pending(game.state(), seat, p).expect("a decision");
            let a = policy.choose(&d, &mut rng).expect("a legal answer");
            game.submit(seat, a.command).expect("a listed answer is accepted");
        }
        assert_eq!(position(game.state()), 0, "a settled combat asks nothing");
    }
    // Both kinds of decision come up, or this test checks less than it says.
    assert!(seen.iter().all(|&n| n > 0), "defences and turns: {seen:?}");
}
