//! Drawing cards without replacement through the `Dice` trait: every source, the record, replay.

use std::fmt;

use fray_dice::{
    Deck, Dice, DiceError, Faces, InteractiveDice, Prng, RecordingDice, Request, ScriptedDice, SeededDice,
};

/// Pearson's chi-square statistic of `counts` against equal expected counts.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| {
            let d = c as f64 - expected;
            d * d / expected
        })
        .sum()
}

/// The 0.999 quantile of chi-square with 9 and 6 degrees of freedom. The seeds are fixed, so a
/// test below either always passes or always fails. A fair draw passes; one card drawn 10% more
/// often than its share lands near 200 with this many draws (far too small a bias, say 0.1% of all
/// draws moved from one card to another, is not what this guards against).
const CHI2_9_P999: f64 = 27.877;
const CHI2_6_P999: f64 = 22.458;

#[test]
fn seeded_draws_are_uniform_over_the_cards_left() {
    let full = Deck::numbered(10);
    // Cards with gaps and out of the 1..=n pattern: uniform over the cards, not the values.
    let gappy = [1, 2, 3, 5, 8, 9, 10];
    for seed in [1, 42, 2024] {
        let mut dice = SeededDice::new(seed);
        let mut counts = [0u64; 10];
        for _ in 0..100_000 {
            let card = dice.draw(full.cards(), &"uniformity").unwrap();
            counts[usize::from(card - 1)] += 1;
        }
        let chi = chi_square(&counts);
        assert!(chi < CHI2_9_P999, "seed {seed}: {counts:?}, chi-square {chi}");

        let mut counts = [0u64; 7];
        for _ in 0..70_000 {
            let card = dice.draw(&gappy, &"uniformity").unwrap();
            let i = gappy.iter().position(|&c| c == card).expect("a card from the deck");
            counts[i] += 1;
        }
        let chi = chi_square(&counts);
        assert!(chi < CHI2_6_P999, "seed {seed}: {counts:?}, chi-square {chi}");
    }
}

#[test]
fn the_first_card_of_a_fresh_deck_is_uniform_across_streams() {
    // One draw per independent stream, as one per combat in a simulation.
    let mut counts = [0u64; 10];
    for stream in 0..50_000 {
        let mut dice = SeededDice::for_stream(7, stream);
        let card = dice.draw(Deck::numbered(10).cards(), &"first").unwrap();
        counts[usize::from(card - 1)] += 1;
    }
    let chi = chi_square(&counts);
    assert!(chi < CHI2_9_P999, "{counts:?}, chi-square {chi}");
}

#[test]
fn ten_draws_with_the_cards_removed_are_a_permutation() {
    let mut orders = std::collections::HashSet::new();
    for seed in 0..200 {
        let mut dice = SeededDice::new(seed);
        let mut deck = Deck::numbered(10);
        let mut drawn = Vec::new();
        for _ in 0..10 {
            let card = dice.draw(deck.cards(), &"initiative").unwrap();
            assert!(deck.remove(card), "seed {seed}: drew {card}, which was not left");
            drawn.push(card);
        }
        let mut sorted = drawn.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1..=10).collect::<Vec<_>>(), "seed {seed}: {drawn:?}");
        assert_eq!(
            dice.draw(deck.cards(), &"an eleventh card"),
            Err(DiceError::EmptyDeck {
                why: "an eleventh card".into()
            })
        );
        orders.insert(drawn);
    }
    assert!(
        orders.len() > 190,
        "200 seeds gave only {} different orders",
        orders.len()
    );
}

#[test]
fn a_seeded_draw_is_the_roll_of_a_die_with_one_side_per_card() {
    let deck = [2, 5, 9, 11];
    let mut drawn = SeededDice::new(99);
    let mut prng = Prng::from_seed(99);
    for _ in 0..1000 {
        let card = drawn.draw(&deck, &"x").unwrap();
        assert_eq!(card, deck[usize::from(prng.die(4) - 1)]);
    }
    // Frozen: records store a seed, so the cards a seed draws must never change (checked against
    // an independent Python xoshiro256** with Lemire reduction).
    let mut dice = SeededDice::new(42);
    let mut deck = Deck::numbered(10);
    let mut drawn = Vec::new();
    while !deck.is_empty() {
        let card = dice.draw(deck.cards(), &"initiative").unwrap();
        deck.remove(card);
        drawn.push(card);
    }
    assert_eq!(drawn, [1, 5, 8, 10, 9, 6, 4, 7, 3, 2]);
    // Rolls after draws continue the same generator.
    let mut out = Faces::new();
    dice.roll(3, 6, &"after", &mut out).unwrap();
    let mut prng = Prng::from_seed(42);
    for n in (1..=10).rev() {
        prng.die(n);
    }
    assert_eq!(out.as_slice(), [prng.die(6), prng.die(6), prng.die(6)]);
}

/// Draws a hand like EIN-H25's: two cards, keep the higher, put the other back, then the rest
/// draw one each; rolls in between. Returns the cards kept, in order.
fn einfelst_like_start(dice: &mut dyn Dice) -> Result<Vec<u16>, DiceError> {
    let mut deck = Deck::numbered(10);
    let mut kept = Vec::new();
    let mut out = Faces::new();
    dice.roll(2, 6, &"the ambush", &mut out)?;
    let a = dice.draw(deck.cards(), &"the ambusher's first card")?;
    deck.remove(a);
    let b = dice.draw(deck.cards(), &"the ambusher's second card")?;
    deck.remove(b);
    deck.put_back(a.min(b));
    kept.push(a.max(b));
    for who in ["Ana", "Bo", "the wolves"] {
        let card = dice.draw(deck.cards(), &format_args!("{who}'s card"))?;
        deck.remove(card);
        kept.push(card);
    }
    Ok(kept)
}

#[test]
fn recorded_cards_replay_from_a_script_and_from_the_seed() {
    let mut rec = RecordingDice::new(SeededDice::new(5));
    let kept = einfelst_like_start(&mut rec).unwrap();
    let record = rec.take_drawn();
    // Two faces, then five card values (not positions).
    assert_eq!(record.len(), 7);
    assert!(record[2..].iter().all(|c| (1..=10).contains(c)));

    // Unseeded replay: the record becomes a script, and the values come out again.
    let mut script = ScriptedDice::new(record.iter().copied());
    let mut replay = RecordingDice::new(&mut script);
    assert_eq!(einfelst_like_start(&mut replay).unwrap(), kept);
    assert_eq!(replay.take_drawn(), record);
    assert_eq!(script.remaining(), 0);

    // Seeded replay: the same generator draws the same cards.
    let mut again = RecordingDice::new(SeededDice::new(5));
    assert_eq!(einfelst_like_start(&mut again).unwrap(), kept);
    assert_eq!(again.drawn, record);

    // Through trait objects, as the engine holds its source.
    let mut boxed: Box<dyn Dice> = Box::new(ScriptedDice::new(record.iter().copied()));
    let mut by_ref = RecordingDice::new(&mut *boxed);
    assert_eq!(einfelst_like_start(&mut by_ref).unwrap(), kept);
    assert_eq!(by_ref.drawn, record);
}

#[test]
fn a_scripted_card_is_a_value_that_must_be_in_the_deck() {
    let deck = [2, 5, 9];
    let mut dice = ScriptedDice::new([9, 4, 5]);
    assert_eq!(dice.draw(&deck, &"Ana's card"), Ok(9), "the value, not the 9th card");
    let err = dice.draw(&deck, &"Bo's card").unwrap_err();
    assert_eq!(
        err,
        DiceError::NotInDeck {
            card: 4,
            deck: vec![2, 5, 9],
            why: "Bo's card".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "card 4 is not in the deck (in the deck: 2 5 9) (for Bo's card)"
    );
    assert_eq!(
        (dice.consumed(), dice.remaining()),
        (1, 2),
        "a refused card consumes nothing"
    );
    // An empty deck is refused before the script is looked at.
    assert_eq!(
        dice.draw(&[], &"nobody"),
        Err(DiceError::EmptyDeck { why: "nobody".into() })
    );
    assert_eq!(dice.remaining(), 2);
    let mut dice = ScriptedDice::new([]);
    let err = dice.draw(&deck, &"Cy's card").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the scripted dice ran out (needed a card for Cy's card)"
    );
    let huge = vec![1; 70_000];
    assert_eq!(
        dice.draw(&huge, &"too many"),
        Err(DiceError::DeckTooLarge {
            len: 70_000,
            max: 65_535
        })
    );
}

#[test]
fn every_source_refuses_an_empty_deck() {
    let empty = DiceError::EmptyDeck { why: "x".into() };
    assert_eq!(SeededDice::new(1).draw(&[], &"x"), Err(empty.clone()));
    assert_eq!(ScriptedDice::new([1]).draw(&[], &"x"), Err(empty.clone()));
    assert_eq!(FaceOne.draw(&[], &"x"), Err(empty.clone()));
    let mut rec = RecordingDice::new(SeededDice::new(1));
    assert_eq!(rec.draw(&[], &"x"), Err(empty.clone()));
    assert!(rec.drawn.is_empty());
    let mut asked = 0;
    let mut dice = InteractiveDice::new(
        |_: Request<'_>, _: &str| {
            asked += 1;
            Ok(vec![1])
        },
        |_: &str| {},
    );
    assert_eq!(dice.draw(&[], &"x"), Err(empty));
    let _ = dice.into_parts();
    assert_eq!(asked, 0, "an empty deck asks nobody");
}

/// A source that only knows how to roll: every die shows its highest face.
struct FaceOne;

impl Dice for FaceOne {
    fn roll(&mut self, count: usize, sides: u16, _why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        for _ in 0..count {
            out.push(sides)?;
        }
        Ok(())
    }
}

#[test]
fn a_source_that_only_rolls_draws_by_position() {
    // The default draw rolls a d(cards left) and takes that card.
    assert_eq!(FaceOne.draw(&[3, 7, 4], &"x"), Ok(4));
    assert_eq!(FaceOne.draw(&[6], &"x"), Ok(6));
    let mut rec = RecordingDice::new(FaceOne);
    assert_eq!(rec.draw(&[3, 7, 8], &"x"), Ok(8));
    assert_eq!(rec.drawn, [8], "the record keeps the value");
}

#[test]
fn interactive_draws_reask_until_the_card_is_in_the_deck() {
    let mut answers = vec![Ok(vec![4]), Ok(vec![]), Ok(vec![2, 5]), Ok(vec![5])].into_iter();
    let mut asked = Vec::new();
    let mut complaints = Vec::new();
    let mut dice = InteractiveDice::new(
        |request: Request<'_>, why: &str| {
            asked.push(format!("{request:?} for {why}"));
            answers
                .next()
                .unwrap_or_else(|| Err(DiceError::Aborted("no more".into())))
        },
        |msg: &str| complaints.push(msg.to_string()),
    );
    assert_eq!(dice.draw(&[2, 5, 9], &format_args!("{}'s card", "Ana")), Ok(5));
    // Rolls still ask for a roll.
    let mut out = Faces::new();
    assert_eq!(
        dice.roll(1, 6, &"a roll", &mut out),
        Err(DiceError::Aborted("no more".into()))
    );
    let _ = dice.into_parts();
    assert_eq!(
        asked,
        [
            "Draw { deck: [2, 5, 9] } for Ana's card",
            "Draw { deck: [2, 5, 9] } for Ana's card",
            "Draw { deck: [2, 5, 9] } for Ana's card",
            "Draw { deck: [2, 5, 9] } for Ana's card",
            "Roll { count: 1, sides: 6 } for a roll",
        ]
    );
    assert_eq!(
        complaints,
        [
            "4 is not in the deck: the cards left are 2 5 9",
            "expected 1 card, got 0",
            "expected 1 card, got 2",
        ]
    );
}

#[test]
fn an_interactive_draw_ends_when_the_person_gives_up() {
    let mut dice = InteractiveDice::new(
        |_: Request<'_>, _: &str| Err(DiceError::Aborted("line 3: card 4 is not in the deck".into())),
        |_: &str| {},
    );
    assert_eq!(
        dice.draw(&[1, 2], &"x"),
        Err(DiceError::Aborted("line 3: card 4 is not in the deck".into()))
    );
}
