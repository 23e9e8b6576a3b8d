//! Whom an Action affects (areas, lines and auras, THR-R77 to THR-R87; targets, THR-R88 to
//! THR-R93; Cover and Obstruction, THR-R129, THR-R130): target kinds, range, Obstruction, the
//! squares of a shape and who stands on them. The rules cited at the code here: THR-R48,
//! THR-R78 to THR-R82, THR-R84, THR-R86, THR-R88 to THR-R93, THR-R129 to THR-R131.
//!
//! Part of an Action's check (`actions::action`), in a file of its own because it is the larger
//! half, and the legal list, the AI and the resolver (a shape's squares) ask it on its own.

use crate::ability::{Ability, TargetSpec};
use crate::calc::{self, AimFail, in_range, obstructed, range_of};
use crate::codes::{self, Say, no, on_map};
use crate::command::{Action, CharList, Target};
use crate::options::InfiniteLine;
use crate::setup::Cid;
use crate::state::State;
use fray_engine::Reject;
use fray_space::Pos;

/// The characters an action affects, in resolution order, or why it is illegal.
pub fn action_targets(s: &State, user: Cid, act: &Action) -> Result<CharList, Reject> {
    targets(
        s,
        user,
        act,
        range_of(s, user, s.setup.book.get(act.ability)),
        Say::Sentence,
    )
}

/// Whether [`action_targets`] finds the action's targets legal (nothing formatted).
pub fn can_target(s: &State, user: Cid, act: &Action) -> bool {
    targets(
        s,
        user,
        act,
        range_of(s, user, s.setup.book.get(act.ability)),
        Say::Code,
    )
    .is_ok()
}

/// [`action_targets`], its refusal said as `say` asks.
pub(crate) fn targets(s: &State, user: Cid, act: &Action, range: Option<i16>, say: Say) -> Result<CharList, Reject> {
    let a = s.setup.book.get(act.ability);
    debug_assert_eq!(range, range_of(s, user, a), "the range passed in is the ability's");
    let upos = s
        .ch(user)
        .pos
        .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))?;
    let single = |t: Cid, ok: bool, what: &str| -> Result<CharList, Reject> {
        single_target(s, user, a, range, t, ok, what, say)
    };
    let one = |list: &[Cid]| -> Result<Cid, Reject> {
        match list {
            [t] => Ok(*t),
            _ => Err(no(say, codes::INVALID_TARGET, || {
                format!("{} takes exactly one target", a.id)
            })),
        }
    };
    match (&a.target, &act.target) {
        // Self is the user (THR-R88); the kinds of one character are in `of_kind`.
        (TargetSpec::SelfOnly, Target::None) => Ok(CharList::from_slice(&[user])),
        (TargetSpec::Ally, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an ally")
        }
        (TargetSpec::AllyOrSelf, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an ally or yourself")
        }
        (TargetSpec::Enemy, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an enemy")
        }
        (TargetSpec::Character, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "a character")
        }
        (TargetSpec::IncapacitatedAlly, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an Incapacitated ally")
        }
        (TargetSpec::IncapacitatedEnemy, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an Incapacitated enemy")
        }
        // THR-R92: "up to N enemies" is 1 to N enemies (distinct ones, by `distinct-targets`),
        // each checked for range below.
        (TargetSpec::UpToEnemies(n), Target::Chars(l)) => {
            if l.is_empty() || l.len() > *n as usize {
                return Err(no(say, codes::INVALID_TARGET, || {
                    format!("{} takes 1 to {n} enemies", a.id)
                }));
            }
            let ordered = if s.options.distinct_targets {
                l.windows(2).all(|w| w[0] < w[1])
            } else {
                l.windows(2).all(|w| w[0] <= w[1])
            };
            if !ordered {
                return Err(no(
                    say,
                    codes::INVALID_TARGET,
                    || "list each target once, in the order the encounter lists them (the prompt shows the accepted form)",
                ));
            }
            for t in l {
                single(*t, of_kind(s, user, &a.target, *t), "an enemy")?;
            }
            Ok(l.clone())
        }
        // THR-R92: "All Enemies" is every enemy on the map, within range when one is given.
        (TargetSpec::AllEnemies, Target::None) => Ok(all_enemies(s, user, range)),
        (TargetSpec::Square, Target::Square(p)) => {
            if !in_range(s, user, range, *p) {
                return Err(no(say, codes::OUT_OF_RANGE, || format!("{p} is out of range")));
            }
            on_map(s, *p, say)?;
            let free = s.setup.map.get(*p).is_some_and(|c| !c.blocked);
            let occupant = s.occupant(*p);
            let swap_ok = !s.options.teleport_needs_empty && occupant.is_some_and(|o| s.allies(user, o));
            if !free || (occupant.is_some() && !swap_ok) {
                return Err(no(say, codes::OCCUPIED, || format!("{p} is not an empty square")));
            }
            // Lines of a square-targeted ability (a teleport) apply to the user.
            Ok(CharList::from_slice(&[user]))
        }
        (spec, target) if spec.is_shape() => {
            let squares = shape_squares(s, user, act, upos).ok_or_else(|| {
                no(say, codes::INVALID_TARGET, || {
                    format!("{} needs {}", a.id, shape_hint(spec))
                })
            })?;
            let _ = target;
            if squares.is_empty() {
                return Err(no(say, codes::INVALID_TARGET, || "the shape lies entirely off the map"));
            }
            // Auras sit on the user and Line ∞ starts next to it: neither needs a range check.
            if !matches!(spec, TargetSpec::Aura(_) | TargetSpec::LineToEdge) {
                // THR-R80, THR-R81: some square within range (the user's own for Range 0).
                let r = range.unwrap_or(0);
                let ok = if r == 0 {
                    squares.contains(&upos)
                } else {
                    squares.iter().any(|p| in_range(s, user, range, *p))
                };
                if !ok && r == 0 {
                    // THR-R48, THR-R80: Range 0 reaches only the user's own square.
                    return Err(no(say, codes::OUT_OF_RANGE, || {
                        format!(
                            "{} has Range 0: its area must include its user's square ({upos})",
                            a.name
                        )
                    }));
                }
                if !ok {
                    return Err(no(
                        say,
                        codes::OUT_OF_RANGE,
                        || "no square of the shape is within range",
                    ));
                }
            }
            if calc::rolls(s, a) {
                // THR-R129, THR-R130: the shape needs at least one square that is not Obstructed.
                // THR-R131: so an Area 2 over an Obstructed (1,0) and a clear (2,0) is legal,
                // and it still hits whoever stands on (1,0) (`shape_hits` asks no Obstruction).
                if squares.iter().all(|p| obstructed(s, user, a, *p)) {
                    return Err(no(say, codes::OBSTRUCTED, || "every square of the shape is Obstructed"));
                }
            }
            Ok(shape_hits(s, user, spec, &squares))
        }
        (spec, _) => Err(no(say, codes::INVALID_TARGET, || {
            format!("{} needs {}", a.id, shape_hint(spec))
        })),
    }
}

/// The enemies of `user` an ability that targets all of them within `range` affects.
pub(crate) fn all_enemies(s: &State, user: Cid, range: Option<i16>) -> CharList {
    s.ids()
        .filter(|&t| s.enemies(user, t) && targetable(s, t))
        .filter(|&t| range.is_none() || s.ch(t).pos.is_some_and(|p| in_range(s, user, range, p)))
        .collect()
}

/// The characters on a shape's `squares` that an ability of target kind `spec` used by `user`
/// affects: in turn order (the first slot of each), those without a slot last, by id.
pub(crate) fn shape_hits(s: &State, user: Cid, spec: &TargetSpec, squares: &[Pos]) -> CharList {
    let aura = matches!(spec, TargetSpec::Aura(_));
    let on_shape = square_set(squares);
    let hit = s.in_turn_order(|t| {
        targetable(s, t) && s.ch(t).pos.is_some_and(|p| on_shape(&p)) && !(aura && t == user) // THR-R82
    });
    hit.into_iter().collect()
}

pub(crate) fn shape_hint(spec: &TargetSpec) -> &'static str {
    match spec {
        TargetSpec::SelfOnly | TargetSpec::AllEnemies | TargetSpec::Aura(_) => "no target",
        TargetSpec::Area(_) => "an area: area x,y (its south-west corner)",
        TargetSpec::Line(_) => "a line: line x,y <dir>",
        TargetSpec::LineToEdge => "a direction: toward <dir>",
        TargetSpec::Square => "a square: at x,y",
        TargetSpec::UpToEnemies(_) => "one or more enemy ids separated by commas",
        _ => "one target id",
    }
}

/// Whether [`action_targets`] may accept the one character `t` as the target of an ability
/// aimed as `spec` by `user`: `false` only where it refuses `t` whatever else holds (a
/// character off the map or out of the fight, of the wrong side, not Incapacitated where that
/// is asked, or not targetable). The legal list, which tries every character, passes over
/// those first.
pub fn may_target(s: &State, user: Cid, spec: &TargetSpec, t: Cid) -> bool {
    let one_character = matches!(
        spec,
        TargetSpec::Ally
            | TargetSpec::AllyOrSelf
            | TargetSpec::Enemy
            | TargetSpec::UpToEnemies(_)
            | TargetSpec::Character
            | TargetSpec::IncapacitatedAlly
            | TargetSpec::IncapacitatedEnemy
    );
    if !one_character {
        return true;
    }
    (t as usize) < s.chars.len() && of_kind(s, user, spec, t) && aimable(s, spec, t)
}

/// Whether `t` is of the kind of character `spec` asks for, seen from `user`: Ally and Enemy
/// follow `State::allies` and `State::enemies` (THR-R89, THR-R90); a Character is Self, an
/// Ally or an Enemy (THR-R91); the Incapacitated kinds ask for that too.
pub(crate) fn of_kind(s: &State, user: Cid, spec: &TargetSpec, t: Cid) -> bool {
    match spec {
        // THR-R89: an Ally is another character of the user's side.
        TargetSpec::Ally => s.allies(user, t),
        TargetSpec::AllyOrSelf => t == user || s.allies(user, t),
        // THR-R90: an Enemy is a character of an opposing side.
        TargetSpec::Enemy | TargetSpec::UpToEnemies(_) => s.enemies(user, t),
        // THR-R91: a Character is anyone: Self, an Ally or an Enemy.
        TargetSpec::Character => true,
        TargetSpec::IncapacitatedAlly => s.allies(user, t) && s.ch(t).incapacitated,
        TargetSpec::IncapacitatedEnemy => s.enemies(user, t) && s.ch(t).incapacitated,
        _ => false,
    }
}

/// Whether a character of the right kind can be aimed at as `spec`'s target at all: in the
/// fight, on the map and targetable (THR-R93; an Incapacitated kind asks for one anyway).
pub(crate) fn aimable(s: &State, spec: &TargetSpec, t: Cid) -> bool {
    let needs_incap = matches!(spec, TargetSpec::IncapacitatedAlly | TargetSpec::IncapacitatedEnemy);
    s.ch(t).present() && s.ch(t).pos.is_some() && (needs_incap || targetable(s, t))
}

/// Whether a character can be picked as a target at all (THR-R93).
pub fn targetable(s: &State, t: Cid) -> bool {
    let c = s.ch(t);
    // THR-R93: an Incapacitated character stays a legal target (by default).
    c.present() && c.pos.is_some() && (!c.incapacitated || s.options.incapacitated_targetable)
}

#[allow(clippy::too_many_arguments)] // the target's facts, and how to say a refusal
pub(crate) fn single_target(
    s: &State,
    user: Cid,
    a: &Ability,
    range: Option<i16>,
    t: Cid,
    ok: bool,
    what: &str,
    say: Say,
) -> Result<CharList, Reject> {
    if t as usize >= s.chars.len() {
        return Err(no(say, codes::INVALID_TARGET, || "no such combatant"));
    }
    if !ok || !aimable(s, &a.target, t) {
        return Err(no(say, codes::INVALID_TARGET, || {
            format!("{} must target {what}", a.id)
        }));
    }
    let Some(from) = s.ch(user).pos else {
        return Err(no(say, codes::OUT_OF_RANGE, || {
            format!("{} is out of range of {}", s.name(t), a.id)
        }));
    };
    match calc::aim_from(s, user, a, range, t, from) {
        Ok(()) => Ok(CharList::from_slice(&[t])),
        Err(AimFail::Range) => Err(no(say, codes::OUT_OF_RANGE, || {
            format!("{} is out of range of {}", s.name(t), a.id)
        })),
        Err(AimFail::Obstructed) => Err(no(say, codes::OBSTRUCTED, || {
            format!("{} is Obstructed from {}", s.name(t), s.name(user))
        })),
        Err(AimFail::Wall) => Err(no(say, codes::OBSTRUCTED, || {
            format!("a wall blocks the line to {}", s.name(t))
        })),
    }
}

/// The size of an area after Overexert.
pub fn area_size(s: &State, user: Cid, act: &Action) -> i16 {
    let a = s.setup.book.get(act.ability);
    if let Some(o) = act.overexert.and_then(|i| a.overexert.get(i as usize))
        && let Some(size) = &o.area
    {
        return calc::eval(s, user, size);
    }
    match &a.target {
        TargetSpec::Area(x) | TargetSpec::Line(x) | TargetSpec::Aura(x) => calc::eval(s, user, x),
        _ => 0,
    }
}

/// Whether a square is one of `squares` (a shape's), tested for many characters: the first 16
/// are packed into a fixed array compared all at once, the rest (rare) one by one.
pub(crate) fn square_set(squares: &[Pos]) -> impl Fn(&Pos) -> bool + '_ {
    let pack = |p: &Pos| u32::from(p.x as u16) << 16 | u32::from(p.y as u16);
    // `u32::MAX` packs (-1, -1), which no shape square is (shapes are clipped to the map), and
    // stands for "no square" in the unused slots.
    let mut first = [u32::MAX; 16];
    for (slot, p) in first.iter_mut().zip(squares) {
        *slot = pack(p);
    }
    let rest = squares.get(16..).unwrap_or(&[]);
    move |p: &Pos| {
        let k = pack(p);
        let found = k != u32::MAX && first.iter().fold(false, |any, &q| any | (q == k)) || rest.contains(p);
        debug_assert_eq!(found, squares.contains(p));
        found
    }
}

/// The squares of a shape, as [`shape_squares`] gives them.
pub type ShapeSquares = smallvec::SmallVec<[Pos; 16]>;

/// The squares of a shape (clipped to the map), or `None` if the target kind does not fit.
/// Shapes of up to 16 squares are held inline: the legal list tries hundreds of placements per
/// decision.
pub fn shape_squares(s: &State, user: Cid, act: &Action, upos: Pos) -> Option<ShapeSquares> {
    let a = s.setup.book.get(act.ability);
    let map = &s.setup.map;
    let size = area_size(s, user, act).max(1) as u16;
    let on_map = |p: &Pos| map.contains(*p);
    let v: ShapeSquares = match (&a.target, &act.target) {
        // THR-R78: Area X is the X-by-X block on the grid (from its south-west corner).
        (TargetSpec::Area(_), Target::Area(anchor)) => fray_space::area(*anchor, size).filter(on_map).collect(),
        // THR-R79: Line X is X consecutive squares along a row, a column or a diagonal.
        (TargetSpec::Line(_), Target::Line(start, dir)) => {
            fray_space::line(*start, *dir, size).filter(on_map).collect()
        }
        // THR-R86: Line ∞ runs in one of the 8 directions from a square next to the user (by
        // default; `infinite-line`) to the map's edge.
        (TargetSpec::LineToEdge, Target::Toward(dir)) => {
            let start = match s.options.infinite_line {
                InfiniteLine::Adjacent => upos.step(*dir),
                InfiniteLine::UserSquare => upos,
            };
            if !map.contains(start) {
                return Some(ShapeSquares::new());
            }
            fray_space::line_to_edge(map, start, *dir).filter(on_map).collect()
        }
        // THR-R82, THR-R84: Aura X is every square within X of the user but its own (Aura 1:
        // 8 squares, Aura 2: 24).
        (TargetSpec::Aura(_), Target::None) => fray_space::aura(upos, size).filter(on_map).collect(),
        _ => return None,
    };
    Some(v)
}
