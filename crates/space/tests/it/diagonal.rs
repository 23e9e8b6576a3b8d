//! The alternating-diagonal search against a slow reference written differently (a Dijkstra
//! that picks the next state by scanning every state, with no queue), and both searches for
//! one square (`reach_diagonal_to`, `cheapest_diagonal`) against the full one: same costs,
//! same stopping squares, same paths (same tie-breaks).

use fray_space::{
    Cell, DiagonalScratch, Dir, Grid, Pos, alternating_diagonal, cheapest_diagonal, chebyshev, reach_diagonal,
    reach_diagonal_to,
};
use proptest::prelude::*;

/// Small maps with some walls and some difficult squares.
fn cell() -> impl Strategy<Value = Cell> + Clone {
    (prop::bool::weighted(0.2), prop::bool::weighted(0.15)).prop_map(|(difficult, blocked)| Cell {
        elevation: 0,
        difficult,
        blocked,
        start: false,
    })
}

/// A grid, a start on it, a "may stop here" mask, a "may not enter" mask (someone stands
/// there), a budget, whether diagonals alternate, and the extra price of a difficult square (1,
/// or 400 so that costs run past the searches' bucketed range into their heap).
type Case = (Grid, Pos, Vec<bool>, Vec<bool>, u32, bool, u32);

fn case() -> impl Strategy<Value = Case> {
    (1u16..=9, 1u16..=9)
        .prop_flat_map(|(w, h)| {
            prop::collection::vec(cell(), usize::from(w) * usize::from(h))
                .prop_map(move |cells| Grid::from_cells(w, h, cells).expect("cell count matches the size"))
        })
        .prop_flat_map(|g| {
            let len = g.len();
            (
                Just(g),
                0..len,
                prop::collection::vec(prop::bool::weighted(0.8), len),
                prop::collection::vec(prop::bool::weighted(0.1), len),
                0u32..=14,
                any::<bool>(),
                prop::bool::weighted(0.25),
            )
        })
        .prop_map(|(g, start, stop, wall, budget, alternating, dear)| {
            let start = g.pos_of(start);
            let (budget, price) = if dear { (budget * 250, 400) } else { (budget, 1) };
            (g, start, stop, wall, budget, alternating, price)
        })
}

/// The extra price of a step from `a` to `b`: `price` more into a difficult square, one more
/// for a diagonal out of one; no entry where `wall` says.
fn enter(g: &Grid, wall: &[bool], price: u32, a: Pos, b: Pos) -> Option<u32> {
    let (i, j) = (g.index(a)?, g.index(b)?);
    if wall[j] {
        return None;
    }
    let diagonal = a.x != b.x && a.y != b.y;
    Some(price * u32::from(g.cells()[j].difficult) + u32::from(diagonal && g.cells()[i].difficult))
}

/// What the reference finds for one square: its cost, whether the mover may end there, and
/// the path.
#[derive(Debug, PartialEq)]
struct Answer {
    cost: Option<u32>,
    ends: bool,
    path: Option<Vec<Pos>>,
}

/// Dijkstra over (square, parity) that settles the unsettled state with the least
/// (cost, 2 × square + parity) by scanning all of them; a state's predecessor is the first
/// settled state that reached it at its final cost.
fn reference(
    g: &Grid,
    start: Pos,
    stop: &[bool],
    wall: &[bool],
    price: u32,
    budget: u32,
    alternating: bool,
) -> Vec<Answer> {
    let n = 2 * g.len();
    let mut dist = vec![u32::MAX; n];
    let mut prev = vec![usize::MAX; n];
    let mut settled = vec![false; n];
    let origin = g.index(start).expect("start on grid");
    dist[2 * origin] = 0;
    while let Some(s) = (0..n)
        .filter(|&s| !settled[s] && dist[s] != u32::MAX)
        .min_by_key(|&s| (dist[s], s))
    {
        settled[s] = true;
        let here = g.pos_of(s / 2);
        let parity = s % 2;
        for dir in Dir::ALL {
            let next = here.step(dir);
            let Some(j) = g.index(next) else { continue };
            if g.cells()[j].blocked {
                continue;
            }
            let diagonal = next.x != here.x && next.y != here.y;
            let (metric, np) = if diagonal && alternating {
                (1 + parity as u32, 1 - parity)
            } else {
                (1, parity)
            };
            let Some(extra) = enter(g, wall, price, here, next) else {
                continue;
            };
            let cost = dist[s] + metric + extra;
            let t = 2 * j + np;
            if cost <= budget && !settled[t] && cost < dist[t] {
                dist[t] = cost;
                prev[t] = s;
            }
        }
    }
    (0..g.len())
        .map(|i| {
            let best = [2 * i, 2 * i + 1]
                .into_iter()
                .filter(|&s| settled[s])
                .min_by_key(|&s| (dist[s], s));
            let Some(mut s) = best else {
                return Answer {
                    cost: None,
                    ends: false,
                    path: None,
                };
            };
            let cost = dist[s];
            let mut path = Vec::new();
            while prev[s] != usize::MAX {
                path.push(g.pos_of(s / 2));
                s = prev[s];
            }
            path.reverse();
            Answer {
                cost: Some(cost),
                ends: i == origin || stop[i],
                path: Some(path),
            }
        })
        .collect()
}

fn answers(r: &fray_space::DiagonalReach<'_>, p: Pos) -> Answer {
    Answer {
        cost: r.cost_to(p),
        ends: r.can_end_on(p),
        path: r.path_to(p),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn the_search_matches_the_reference_and_the_goal_search_matches_the_search(
        (g, start, stop, wall, budget, alternating, price) in case(),
        (other, other_start, _, _, other_budget, _, _) in case(),
    ) {
        let expected = reference(&g, start, &stop, &wall, price, budget, alternating);
        let can_stop = |p: Pos| g.index(p).is_some_and(|i| stop[i]);
        // A scratch left over from another search must not matter.
        let mut scratch = DiagonalScratch::new();
        let _ = reach_diagonal(&other, other_start, other_budget, true, |_, _| Some(0), |_| true, &mut scratch);
        let r = reach_diagonal(&g, start, budget, alternating, |a, b| enter(&g, &wall, price, a, b), can_stop, &mut scratch);
        let mut listed = Vec::new();
        for (i, want) in expected.iter().enumerate() {
            let p = g.pos_of(i);
            prop_assert_eq!(&answers(&r, p), want, "square {}", p);
            if let Some(c) = want.cost {
                // Open ground is a true lower bound on every cost.
                let bound = if alternating { alternating_diagonal(start, p) } else { u32::from(chebyshev(start, p)) };
                prop_assert!(c >= bound, "{} costs {} below the open-ground {}", p, c, bound);
                if want.ends && p != start {
                    listed.push((p, c));
                }
            }
        }
        prop_assert_eq!(r.destinations().collect::<Vec<_>>(), listed);
        for (i, want) in expected.iter().enumerate() {
            let goal = g.pos_of(i);
            let r = reach_diagonal_to(
                &g, start, goal, budget, alternating, |a, b| enter(&g, &wall, price, a, b), can_stop, &mut scratch,
            );
            prop_assert_eq!(&answers(&r, goal), want, "goal {}", goal);
            let cheapest = cheapest_diagonal(&g, start, goal, budget, alternating, |a, b| enter(&g, &wall, price, a, b), &mut scratch);
            prop_assert_eq!(cheapest, want.cost, "cheapest to {}", goal);
        }
        // A goal off the map is never reached.
        let off = Pos::new(-1, 0);
        let r = reach_diagonal_to(&g, start, off, budget, alternating, |_, _| Some(0), |_| true, &mut scratch);
        prop_assert_eq!(answers(&r, off), Answer { cost: None, ends: false, path: None });
        prop_assert_eq!(cheapest_diagonal(&g, start, off, budget, alternating, |_, _| Some(0), &mut scratch), None);
    }
}
