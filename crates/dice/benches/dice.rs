//! One die roll and one Thrum-style 2d6-with-Boons roll from the seeded source (no allocation).

use criterion::{Criterion, criterion_group, criterion_main};
use fray_dice::{Keep, SeededDice, roll};
use std::hint::black_box;

fn dice(c: &mut Criterion) {
    let mut d = SeededDice::new(42);
    c.bench_function("prng d6", |b| b.iter(|| black_box(d.prng.die(6))));
    let mut d = SeededDice::new(42);
    c.bench_function("roll 2d6", |b| {
        b.iter(|| black_box(roll(&mut d, 2, 6, Keep::All, &"bench").ok()))
    });
    let mut d = SeededDice::new(42);
    c.bench_function("roll 4d6 keep best 2", |b| {
        b.iter(|| black_box(roll(&mut d, 4, 6, Keep::Highest(2), &"bench").ok()))
    });
}

criterion_group!(benches, dice);
criterion_main!(benches);
