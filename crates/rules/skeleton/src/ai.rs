//! The built-in AI (`fray run`, `heuristic` in `fray sim`): dodge when it may; attack the
//! weakest adjacent foe; otherwise walk to the square nearest a foe (by walking distance round
//! blocked squares), if that is nearer than where it stands; otherwise end the turn.

use crate::Skeleton;
use crate::command::Command;
use crate::stage::{Stage, stage};
use crate::state::State;
use fray_dice::Prng;
use fray_engine::{Answer, Decision, Policy};
use fray_space::{PathScratch, Pos, reach};

/// The heuristic policy.
#[derive(Default)]
pub struct Heuristic {
    legal: Vec<Answer<Skeleton>>,
}

impl Policy<Skeleton> for Heuristic {
    fn choose(&mut self, d: &Decision<'_, Skeleton>, _: &mut Prng) -> Option<Answer<Skeleton>> {
        self.legal.clear();
        d.legal(&mut self.legal);
        let view = d.view();
        let s: &State = &view;
        let Some(Stage::Turn { who, .. }) = stage(s) else {
            return self.legal.first().cloned(); // a defence: `dodge` is listed first when allowed
        };
        // Every answer it gives is one of the legal ones, with the plan listed for it.
        let pick = |legal: &mut Vec<Answer<Skeleton>>, c: Command| {
            let i = legal.iter().position(|a| a.command == c)?;
            Some(legal.swap_remove(i))
        };
        let health = |a: &Answer<Skeleton>| match a.command {
            Command::Attack(x) => Some((s.ch(x).health, x)),
            _ => None,
        };
        if let Some((_, x)) = self.legal.iter().filter_map(health).min() {
            return pick(&mut self.legal, Command::Attack(x));
        }
        let me = s.ch(who);
        let foes: Vec<Pos> = s
            .chars
            .iter()
            .filter(|c| !c.out() && c.side != me.side)
            .map(|c| c.at)
            .collect();
        let far = walking_distances(s, &foes);
        let distance = |p: Pos| s.setup.map.index(p).map_or(u32::MAX, |i| far[i]);
        let best = self.legal.iter().filter_map(|a| match a.command {
            Command::Move(p) => Some((distance(p), p)),
            _ => None,
        });
        match best.min() {
            Some((d, p)) if d < distance(me.at) => pick(&mut self.legal, Command::Move(p)),
            _ => pick(&mut self.legal, Command::End),
        }
    }

    fn name(&self) -> &str {
        "heuristic"
    }
}

/// For every square (by grid index), the steps to the nearest of `from` round blocked squares.
fn walking_distances(s: &State, from: &[Pos]) -> Vec<u32> {
    let map = &s.setup.map;
    let mut best = vec![u32::MAX; map.len()];
    let mut scratch = PathScratch::new();
    for &f in from {
        let step = |_: Pos, b: Pos| map.get(b).is_some_and(|c| !c.blocked).then_some(1);
        let r = reach(map, f, u32::MAX, step, |_| true, &mut scratch);
        for (p, d) in r.destinations() {
            if let Some(i) = map.index(p) {
                best[i] = best[i].min(d);
            }
        }
    }
    best
}
