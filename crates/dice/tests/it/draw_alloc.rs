//! A seeded draw allocates nothing. The counting allocator below serves this whole test binary;
//! it counts per thread, so the tests running beside this one on other threads do not disturb it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use fray_dice::{Deck, Dice, Faces, SeededDice};

/// The system allocator, counting the allocations made on each thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed unchanged to the system allocator; the counter is a
// const-initialised thread-local `Cell`, which itself never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's contract for `alloc` is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc` is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn seeded_draws_and_rolls_do_not_allocate() {
    let mut dice = SeededDice::new(3);
    let mut deck = Deck::numbered(10);
    let dyn_dice: &mut dyn Dice = &mut dice;
    let mut out = Faces::new();
    let before = allocations();
    let mut sum = 0u32;
    for _ in 0..10_000 {
        let card = dyn_dice.draw(deck.cards(), &"initiative").unwrap_or(0);
        sum += u32::from(card);
        dyn_dice.roll(2, 6, &"attack", &mut out).unwrap_or(());
        out.clear();
    }
    // Removing a card shifts the deck in place.
    let card = dyn_dice.draw(deck.cards(), &"initiative").unwrap_or(0);
    assert!(deck.remove(card));
    assert_eq!(allocations() - before, 0);
    assert!(sum > 10_000);
}
