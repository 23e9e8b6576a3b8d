//! What each ruleset gives a seat's AI ([`fray_engine::Ruleset::seen`]) has the hidden facts
//! masked, and nothing else. (The hidden-information check over every seat of every example,
//! that no seat's view, map, tracker, board, log or AI depends on what it may not see, is the
//! shared suite's, `suite.rs`.)

use fray_engine::text::TextRuleset;
use fray_engine::{Decision, Game, Seat};

/// An example of ruleset `R`.
fn load<R: TextRuleset>(name: &str) -> (R::Setup, R::Options) {
    let loaded = fray_testkit::example::<R>(name);
    (loaded.setup, loaded.options)
}

/// Plays `seeds` combats with the built-in AI and, before every command, calls
/// `each(real, seat, seen)` for every seat whose AI would be given a masked state
/// ([`fray_engine::Ruleset::seen`]); checks that a seat's AI is given the real state whenever nothing is
/// hidden from it, and that a deciding seat's policy is given exactly `seen`. Returns how many
/// masked states it saw.
fn masked_decisions<R: TextRuleset>(
    setup: &R::Setup,
    options: &R::Options,
    seeds: std::ops::Range<u64>,
    mut each: impl FnMut(&R::State, Seat, &R::State),
) -> usize {
    let mut masked = 0;
    for seed in seeds {
        let mut game = Game::<R>::new_seeded(setup.clone(), options.clone(), seed).expect("starts");
        let seats: Vec<Seat> = (0..R::seat_names(game.state()).len() as u8).map(Seat).collect();
        let mut ai = R::heuristic();
        let mut rng = fray_dice::Prng::for_stream(seed, 7);
        let mut steps = 0;
        while let Some(pending) = game.pending() {
            steps += 1;
            assert!(steps < 20_000, "seed {seed} does not end");
            for &seat in &seats {
                let seen = R::seen(game.state(), seat);
                let is_masked = matches!(seen, std::borrow::Cow::Owned(_));
                assert_eq!(is_masked, R::hides_from(game.state(), seat), "seed {seed}, {seat}");
                if let Some(d) = Decision::<R>::new(game.state(), seat) {
                    let v = d.view();
                    assert_eq!(v.masked(), is_masked);
                    assert!(*v == *seen, "the policy is given what `seen` says");
                }
                if is_masked {
                    each(game.state(), seat, &seen);
                    masked += 1;
                }
            }
            let seat = pending.first();
            let d = Decision::<R>::new(game.state(), seat).expect("a decider");
            let answer = ai.choose(&d, &mut rng).expect("an answer");
            game.submit(seat, answer.command).expect("the AI's answer is accepted");
        }
    }
    masked
}

#[test]
fn thr_r219_a_seats_ai_is_not_told_where_a_hidden_foe_stands() {
    use fray_thrum::{Thrum, board::hidden_from};
    let (setup, options) = load::<Thrum>("ruins.toml");
    let n = masked_decisions::<Thrum>(&setup, &options, 0..12, |real, seat, seen| {
        for c in real.ids() {
            let (r, v) = (real.ch(c), seen.ch(c));
            if hidden_from(real, seat, c) {
                assert!(r.pos.is_some(), "a Hidden foe on the map");
                assert_eq!(v.pos, r.hid_at, "a Hidden foe stands where it was last seen");
            } else {
                assert_eq!(r.pos, v.pos, "a seen square is kept");
            }
            let mut unmasked = v.clone();
            unmasked.pos = r.pos;
            assert_eq!(&unmasked, r, "only the square is masked");
        }
    });
    assert!(n > 0, "no Plinker hid");
}

#[test]
fn ingenuity_a_seats_ai_is_not_told_where_a_hidden_foe_stands() {
    use fray_ingenuity::{Ingenuity, data::Cond};
    let (mut setup, options) = load::<Ingenuity>("ambush.toml");
    for c in setup.chars.iter_mut().filter(|c| c.seat == Seat::GM) {
        c.start.conditions |= Cond::Hidden.bit();
    }
    let n = masked_decisions::<Ingenuity>(&setup, &options, 0..6, |real, seat, seen| {
        for c in real.ids() {
            let (r, v) = (real.ch(c), seen.ch(c));
            let hidden = !seat.is_gm() && real.info(c).seat != seat && r.has(Cond::Hidden);
            if hidden && r.pos.is_some() {
                assert!(v.pos.is_none(), "a Hidden foe's square is masked");
            } else {
                assert_eq!(r.pos, v.pos, "a seen square is kept");
            }
            let mut unmasked = v.clone();
            unmasked.pos = r.pos;
            assert_eq!(&unmasked, r, "only the square is masked");
        }
    });
    assert!(n > 0, "nothing was hidden");
}

#[test]
fn hal_r11_a_seats_ai_is_not_told_what_others_declared_in_secret() {
    use fray_hallowed_earth::state::{Action, Free};
    use fray_hallowed_earth::{HallowedEarth, view::hidden_from};
    let mut checked = 0;
    for name in ["roadside.toml", "ferry.toml"] {
        let (setup, options) = load::<HallowedEarth>(name);
        checked += masked_decisions::<HallowedEarth>(&setup, &options, 0..6, |real, seat, seen| {
            for c in real.ids() {
                let (r, v) = (real.ch(c), seen.ch(c));
                if hidden_from(real, seat, c) {
                    assert_eq!(v.declared, r.declared.map(|_| Action::Move), "{name}");
                    assert_eq!(v.declared_free, r.declared_free.map(|_| Free::Speak), "{name}");
                } else {
                    assert_eq!((v.declared, v.declared_free), (r.declared, r.declared_free), "{name}");
                }
                let mut unmasked = v.clone();
                (unmasked.declared, unmasked.declared_free) = (r.declared, r.declared_free);
                assert_eq!(&unmasked, r, "{name}: only the declarations are masked");
            }
        });
    }
    assert!(checked > 0, "no secret declaration was made");
}

#[test]
fn mur_r57_a_seats_ai_is_not_told_where_a_concealed_foe_is() {
    use fray_murdham::{Murdham, view::hidden_from};
    let mut checked = 0;
    for name in ["mill-ambush.toml", "chapel-road.toml", "watchtower.toml"] {
        let (setup, options) = load::<Murdham>(name);
        checked += masked_decisions::<Murdham>(&setup, &options, 0..8, |real, seat, seen| {
            for c in real.ids() {
                let (r, v) = (real.ch(c), seen.ch(c));
                if hidden_from(real, seat, c) {
                    assert_eq!(
                        v.at, real.setup.combatants[c as usize].at,
                        "{name}: it stands where it started"
                    );
                    assert!(!v.cover, "{name}");
                } else {
                    assert_eq!((v.at, v.cover), (r.at, r.cover), "{name}: a seen place is kept");
                }
                let mut unmasked = v.clone();
                (unmasked.at, unmasked.cover) = (r.at, r.cover);
                assert_eq!(&unmasked, r, "{name}: only the place is masked");
            }
        });
    }
    assert!(checked > 0, "nobody was concealed");
}
