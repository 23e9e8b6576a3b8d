//! Zone-map queries allocate nothing once the map is built. The counting allocator below serves
//! this whole test binary; it counts per thread, so the tests running beside these on other
//! threads do not disturb them.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use fray_space::{LinkSpec, Zone, ZoneId, ZoneMap, ZoneSet};

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

#[test]
fn distances_bands_sets_and_paths_do_not_allocate() {
    // A ring of 64 zones with a few chords; every tenth zone is an exit.
    let zones = (0..64)
        .map(|i| Zone {
            exit: i % 10 == 0,
            ..Zone::new(format!("z{i}"))
        })
        .collect();
    let mut links: Vec<LinkSpec> = (0..64)
        .map(|i| LinkSpec::new(format!("z{i}"), format!("z{}", (i + 1) % 64)))
        .collect();
    links.extend(
        (0..64)
            .step_by(8)
            .map(|i| LinkSpec::new(format!("z{i}"), format!("z{}", (i + 29) % 64))),
    );
    let map = ZoneMap::new(zones, links).expect("valid");
    let blocked: ZoneSet = map.ids().filter(|z| z.index() % 7 == 3).collect();

    let before = ALLOCATIONS.with(Cell::get);
    let mut total = 0usize;
    for a in map.ids() {
        for b in map.ids() {
            total += usize::from(map.distance(a, b).unwrap_or(0));
            total += map.path_avoiding(a, b, blocked).map_or(0, |p| p.len());
        }
        total += map.within(a, 1, 3).union(blocked).iter().count();
        total += map.step_toward(a, map.exits(), blocked).map_or(0, ZoneId::index);
        total += map.neighbours(a).len() + map.adjacent(a).len();
    }
    assert_eq!(ALLOCATIONS.with(Cell::get) - before, 0);
    assert!(total > 0);
}
