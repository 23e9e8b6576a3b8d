//! Property tests for the public API: metric laws, pathfinding against a
//! brute-force reference, and text and serde round trips.

use fray_space::{
    Cell, Dir, Grid, PathScratch, Pos, StepTable, alternating_diagonal, cheapest_path, cheapest_path_indexed,
    cheapest_path_pruned, chebyshev, reach, reach_indexed,
};
use proptest::prelude::*;

fn any_pos() -> impl Strategy<Value = Pos> {
    (any::<i16>(), any::<i16>()).prop_map(|(x, y)| Pos::new(x, y))
}

fn any_cell() -> impl Strategy<Value = Cell> + Clone {
    (any::<i8>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(elevation, difficult, blocked, start)| Cell {
        elevation,
        difficult,
        blocked,
        start,
    })
}

/// Small maps with gentle slopes and some walls, so that paths are varied.
fn terrain_cell() -> impl Strategy<Value = Cell> + Clone {
    (-3i8..=3, prop::bool::weighted(0.2), prop::bool::weighted(0.15)).prop_map(|(elevation, difficult, blocked)| Cell {
        elevation,
        difficult,
        blocked,
        start: false,
    })
}

fn grid_of(cell: impl Strategy<Value = Cell> + Clone) -> impl Strategy<Value = Grid> {
    (1u16..=9, 1u16..=9).prop_flat_map(move |(w, h)| {
        prop::collection::vec(cell.clone(), usize::from(w) * usize::from(h))
            .prop_map(move |cells| Grid::from_cells(w, h, cells).expect("cell count matches the size"))
    })
}

/// A grid, a start square on it, and a per-square "may stop here" mask.
fn search_case() -> impl Strategy<Value = (Grid, Pos, Vec<bool>, u32)> {
    grid_of(terrain_cell()).prop_flat_map(|g| {
        let len = g.len();
        let start = (0..len).prop_map({
            let g = g.clone();
            move |i| g.pos_of(i)
        });
        (
            Just(g),
            start,
            prop::collection::vec(prop::bool::weighted(0.8), len),
            0u32..=25,
        )
    })
}

/// A terrain pricing for the tests (a ruleset passes its own): 1 per step, plus 1 for leaving
/// a difficult square, plus a level for each level of height change beyond the first; blocked
/// squares cannot be entered, nor squares that are not adjacent.
fn step_cost(grid: &Grid, a: Pos, b: Pos) -> Option<u32> {
    let (from, to) = (grid.get(a)?, grid.get(b)?);
    if to.blocked || chebyshev(a, b) != 1 {
        return None;
    }
    let levels = (i32::from(to.elevation) - i32::from(from.elevation)).unsigned_abs();
    Some(1 + u32::from(from.difficult) + levels.saturating_sub(1))
}

/// Bellman-Ford relaxation to a fixed point: the unbounded cheapest cost to
/// every square, passing through any enterable square.
fn reference_costs(grid: &Grid, start: Pos) -> Vec<Option<u32>> {
    let mut best: Vec<Option<u32>> = vec![None; grid.len()];
    best[grid.index(start).expect("start is on the grid")] = Some(0);
    loop {
        let mut changed = false;
        for from in grid.positions() {
            let Some(here) = best[grid.index(from).expect("on grid")] else {
                continue;
            };
            for d in Dir::ALL {
                let to = from.step(d);
                let (Some(j), Some(c)) = (grid.index(to), step_cost(grid, from, to)) else {
                    continue;
                };
                if best[j].is_none_or(|old| here + c < old) {
                    best[j] = Some(here + c);
                    changed = true;
                }
            }
        }
        if !changed {
            return best;
        }
    }
}

proptest! {
    #[test]
    fn chebyshev_is_a_symmetric_metric(a in any_pos(), b in any_pos(), c in any_pos()) {
        prop_assert_eq!(chebyshev(a, b), chebyshev(b, a));
        prop_assert_eq!(chebyshev(a, a), 0);
        prop_assert_eq!(chebyshev(a, b) == 0, a == b);
        let direct = u32::from(chebyshev(a, c));
        let detour = u32::from(chebyshev(a, b)) + u32::from(chebyshev(b, c));
        prop_assert!(direct <= detour);
    }

    #[test]
    fn alternating_diagonal_is_symmetric_and_bounded(a in any_pos(), b in any_pos()) {
        let cheb = u32::from(chebyshev(a, b));
        let alt = alternating_diagonal(a, b);
        prop_assert_eq!(alt, alternating_diagonal(b, a));
        prop_assert!(cheb <= alt && alt <= cheb + cheb / 2);
    }

    #[test]
    fn pos_text_and_serde_round_trip(p in any_pos()) {
        prop_assert_eq!(p.to_string().parse::<Pos>(), Ok(p));
        prop_assert_eq!(format!("( {} , {} )", p.x, p.y).parse::<Pos>(), Ok(p));
        let json = serde_json::to_string(&p).expect("serialises");
        prop_assert_eq!(&json, &format!("[{},{}]", p.x, p.y));
        prop_assert_eq!(serde_json::from_str::<Pos>(&json).expect("array form"), p);
        let text = format!("\"{p}\"");
        prop_assert_eq!(serde_json::from_str::<Pos>(&text).expect("string form"), p);
    }

    #[test]
    fn arbitrary_text_never_panics(s in ".{0,40}") {
        let _ = s.parse::<Pos>();
        let _ = s.parse::<Dir>();
        let _ = Grid::parse_rows(&[s.as_str(), s.as_str()]);
    }

    #[test]
    fn rotation_is_a_group_action(steps in any::<i32>(), more in -20i32..20) {
        for d in Dir::ALL {
            let turned = d.rotate_cw(steps);
            prop_assert_eq!(turned.rotate_cw(more), d.rotate_cw(steps.rem_euclid(8) + more));
            prop_assert_eq!(turned.rotate_cw(-steps.rem_euclid(8)), d);
            prop_assert_eq!(Dir::between(Pos::new(0, 0), Pos::new(0, 0).step(turned)), Some(turned));
        }
    }

    #[test]
    fn render_then_parse_gives_the_same_grid(g in grid_of(any_cell())) {
        let rows = g.render_rows();
        prop_assert_eq!(rows.len(), usize::from(g.height()));
        prop_assert_eq!(Grid::parse_rows(&rows), Ok(g.clone()));
        let json = serde_json::to_string(&g).expect("serialises");
        prop_assert_eq!(serde_json::from_str::<Grid>(&json).expect("deserialises"), g);
    }

    #[test]
    fn reach_costs_are_optimal_and_match_their_paths(
        (g, start, stop_mask, budget) in search_case()
    ) {
        let can_stop = |p: Pos| g.index(p).is_some_and(|i| stop_mask[i]);
        let reference = reference_costs(&g, start);
        let mut scratch = PathScratch::new();
        let r = reach(&g, start, budget, |a, b| step_cost(&g, a, b), can_stop, &mut scratch);

        prop_assert_eq!(r.cost_to(start), Some(0));
        let mut listed = Vec::new();
        for p in g.positions() {
            let i = g.index(p).expect("on grid");
            let expected = if p == start {
                Some(0)
            } else {
                reference[i].filter(|&c| c <= budget && stop_mask[i])
            };
            prop_assert_eq!(r.cost_to(p), expected, "cost to {}", p);
            let Some(cost) = expected else {
                prop_assert_eq!(r.path_to(p), None);
                continue;
            };
            if p != start {
                listed.push((p, cost));
            }
            // The path is a chain of legal steps whose costs add up.
            let path = r.path_to(p).expect("reachable squares have paths");
            prop_assert_eq!(path.last().copied().unwrap_or(start), p);
            let mut at = start;
            let mut total = 0;
            for &next in &path {
                let c = step_cost(&g, at, next);
                prop_assert!(c.is_some(), "illegal step {} -> {}", at, next);
                total += c.unwrap_or(0);
                at = next;
            }
            prop_assert_eq!(total, cost);

            // cheapest_path finds the same path (same tie-breaks).
            let mut other = PathScratch::new();
            let found = cheapest_path(
                &g, start, p, budget, |a, b| step_cost(&g, a, b), can_stop, &mut other,
            );
            prop_assert_eq!(found, Some((path, cost)));
        }
        let destinations: Vec<(Pos, u32)> = r.destinations().collect();
        prop_assert_eq!(destinations, listed);
    }

    #[test]
    fn reach_is_deterministic_across_scratch_states(
        (g, start, stop_mask, budget) in search_case(),
        (other, other_start, _, other_budget) in search_case(),
    ) {
        let can_stop = |p: Pos| g.index(p).is_some_and(|i| stop_mask[i]);
        let snapshot = |scratch: &mut PathScratch| {
            let r = reach(&g, start, budget, |a, b| step_cost(&g, a, b), can_stop, scratch);
            r.destinations().map(|(p, c)| (p, c, r.path_to(p))).collect::<Vec<_>>()
        };
        let fresh = snapshot(&mut PathScratch::new());
        let mut reused = PathScratch::new();
        let _ = reach(
            &other, other_start, other_budget, |a, b| step_cost(&other, a, b), |_| true,
            &mut reused,
        );
        prop_assert_eq!(snapshot(&mut reused), fresh);
    }

    #[test]
    fn table_searches_match_position_searches(
        (g, start, stop_mask, budget) in search_case()
    ) {
        // The step table holds exactly the pricing function's price for every square and
        // direction.
        let table = StepTable::new(&g, step_cost);
        for i in 0..g.len() {
            let here = g.pos_of(i);
            for (d, dir) in Dir::ALL.iter().enumerate() {
                let next = here.checked_step(*dir).filter(|q| g.index(*q).is_some());
                prop_assert_eq!(table.neighbour(i, d), next.and_then(|q| g.index(q)));
                prop_assert_eq!(table.cost(i, d), next.and_then(|q| step_cost(&g, here, q)));
            }
        }
        // Searches through the table settle the same squares at the same costs with the same
        // paths (same tie-breaks) as the searches by position.
        let can_stop = |p: Pos| g.index(p).is_some_and(|i| stop_mask[i]);
        let mut a = PathScratch::new();
        let by_pos = reach(&g, start, budget, |x, y| step_cost(&g, x, y), can_stop, &mut a);
        let mut b = PathScratch::new();
        let by_index = reach_indexed(
            &g, &table, start, budget,
            |i, d, _| table.cost(i, d),
            |j| stop_mask[j],
            &mut b,
        );
        let listed: Vec<_> = by_pos.destinations().map(|(p, c)| (p, c, by_pos.path_to(p))).collect();
        let indexed: Vec<_> = by_index.destinations().map(|(p, c)| (p, c, by_index.path_to(p))).collect();
        prop_assert_eq!(&indexed, &listed);
        for (p, c, path) in listed {
            let mut s = PathScratch::new();
            let found = cheapest_path_indexed(
                &g, &table, start, p, budget,
                |i, d, _| table.cost(i, d),
                |j| stop_mask[j],
                &mut s,
            );
            prop_assert_eq!(found, path.map(|path| (path, c)));
        }
    }

    #[test]
    fn pruned_path_searches_match_full_ones(
        (g, start, stop_mask, budget) in search_case(),
        scale in 1u32..4,
    ) {
        // Every step of the test pricing costs at least 1, so `scale` times it at least `scale`.
        let table = StepTable::new(&g, |g, a, b| step_cost(g, a, b).map(|c| c * scale));
        let budget = budget * scale;
        for goal in (0..g.len()).map(|i| g.pos_of(i)) {
            let mut a = PathScratch::new();
            let full = cheapest_path_indexed(
                &g, &table, start, goal, budget,
                |i, d, _| table.cost(i, d),
                |j| stop_mask[j],
                &mut a,
            );
            for least in 1..=scale {
                let mut b = PathScratch::new();
                let pruned = cheapest_path_pruned(
                    &g, &table, start, goal, budget, least,
                    |i, d, _| table.cost(i, d),
                    |j| stop_mask[j],
                    &mut b,
                );
                prop_assert_eq!(&pruned, &full, "goal {} least step {}", goal, least);
            }
        }
    }
}
