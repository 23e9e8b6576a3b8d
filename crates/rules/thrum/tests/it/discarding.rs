//! The simulator resolves with a context that keeps no events (`Cx::discarding`), where Thrum
//! moves each frame event's frame onto the stack instead of copying it (`apply_owned`). That
//! must leave the state exactly as the context that keeps the events does. Both make a frame's
//! small changes where it lies (`Cx::change`), so the `FrameChanged` events kept must also
//! rebuild that state when applied one by one.

use fray_dice::{Prng, SeededDice};
use fray_engine::text::TextRuleset;
use fray_engine::{Cx, Decision, Ruleset};
use fray_thrum::Thrum;

#[test]
fn a_discarding_context_leaves_the_same_state_as_one_that_keeps_the_events() {
    for name in ["bench-4v4.toml", "ruins.toml", "skirmish.toml", "last-stand.toml"] {
        let l = fray_testkit::example::<Thrum>(name);
        let base = Thrum::new_state(&l.setup, &l.options).expect("state");
        for seed in 1..=4u64 {
            let (mut kept, mut dropped) = (base.clone(), base.clone());
            let (mut dice_k, mut dice_d) = (SeededDice::for_stream(seed, 0), SeededDice::for_stream(seed, 0));
            let mut events = Vec::new();
            Thrum::start(&mut Cx::new(&mut kept, &mut dice_k, &mut events)).expect("start");
            let mut applied = base.clone();
            events.iter().for_each(|e| Thrum::apply(&mut applied, e));
            assert_eq!(applied, kept, "{name} seed {seed}: the start's events applied");
            let mut cx = Cx::discarding(&mut dropped, &mut dice_d);
            Thrum::start(&mut cx).expect("start");
            assert_eq!(
                cx.emitted_count(),
                events.len(),
                "{name} seed {seed}: events at the start"
            );
            assert!(cx.emitted().is_empty());
            assert_eq!(kept, dropped, "{name} seed {seed}: the state after the start");
            let mut ai = Thrum::heuristic();
            let mut rng = Prng::for_stream(seed, 1);
            let mut commands = 0;
            while Thrum::pending(&kept).is_some() && commands < 2000 {
                let pending = Thrum::pending(&kept).expect("a decision");
                let (seat, stage) = (pending.first(), pending.stage);
                let decision = Decision::new(&kept, seat).expect("the pending seat decides");
                let answer = ai.choose(&decision, &mut rng).expect("an answer");
                let c = answer.command;
                events.clear();
                let kept_cx = &mut Cx::new(&mut kept, &mut dice_k, &mut events);
                Thrum::resolve(kept_cx, &stage, seat, &c, answer.plan.clone()).expect("resolve");
                let mut cx = Cx::discarding(&mut dropped, &mut dice_d);
                Thrum::resolve(&mut cx, &stage, seat, &c, answer.plan).expect("resolve");
                assert_eq!(cx.emitted_count(), events.len(), "{name} seed {seed}: events of {c:?}");
                assert_eq!(kept, dropped, "{name} seed {seed}: the state after {c:?}");
                events.iter().for_each(|e| Thrum::apply(&mut applied, e));
                assert_eq!(applied, kept, "{name} seed {seed}: the events of {c:?} applied");
                commands += 1;
            }
            assert!(commands > 10, "{name} seed {seed}: only {commands} commands");
        }
    }
}
