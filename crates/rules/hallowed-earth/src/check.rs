//! Legality, from one source: [`check`] refuses a command with a typed rejection or hands
//! back its [`Plan`] (what the check found out that resolving needs), and [`legal`] lists every
//! answer [`check`] accepts, with that plan, in a fixed order. Both read the helpers here (who
//! declares next, movement, reach), which resolution and the AI share.
//!
//! Both work under the decision the game waits for, [`crate::stage::stage`], worked out once at
//! their entry points ([`check_in`], [`legal_in`]) and matched on; GM rulings are no stage. The
//! legal list asks each candidate under the stage it was handed ([`plan_in`]).

use crate::HallowedEarth;
use crate::codes;
use crate::command::{Command, Gauge, OwnRuling, Ruling};
use crate::data::{Hand, STAT_LIMIT, Weapon};
use crate::options::{Declaration, Speech};
use crate::setup::{Cid, MAX_COMBATANTS};
use crate::stage::{Stage, stage};
use crate::state::{Action, Cap, Conditions, Frame, Free, Phase, State, Turn};
use crate::text::counted;
use fray_engine::encounter::is_word;
use fray_engine::gm::Ruling as R;
use fray_engine::{Answer, Reject, Seat};
use fray_space::{DiagonalReach, DiagonalScratch, Metric, Pos, reach_diagonal};

fn no(code: &'static str, reason: impl Into<String>) -> Reject {
    Reject::new(code, reason)
}

/// The checked plan of a command: what [`check`] found out that [`crate::resolve::resolve`]
/// needs, so the resolver does not work it out again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The check learns nothing the resolver needs (declarations, `end`, `pass`, an injury
    /// table, rulings).
    Plain,
    /// A `move` or a short move (`step`): its way through open squares, the squares after the
    /// start (HAL-R18, HAL-R17).
    Walk(Vec<Pos>),
    /// `free`: the declared Free action it takes (HAL-R17).
    Free(Free),
    /// `act`: the declared action, aimed as it is taken, and for a spell what its Mana and
    /// Stress pay (HAL-R26).
    Act {
        /// The action.
        action: Action,
        /// A spell's cost, as it is paid.
        spell: Option<SpellCost>,
    },
    /// `reposte`: the weapon it strikes with (HAL-R14).
    Reposte(u8),
}

/// How a spell's Mana cost is paid (HAL-R26): from Mana and from Stress, 1:1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpellCost {
    /// What is paid from Mana.
    pub mana: i16,
    /// What is paid from Stress.
    pub stress: i16,
}

/// How `who` pays for its spell `spell` now (HAL-R26): the split it chose (`stress`, the part
/// paid in Stress), or by default Mana first and Stress for the rest; `None` for a spell it
/// does not have.
pub fn spell_cost(s: &State, who: Cid, spell: u8, stress: Option<i16>) -> Option<SpellCost> {
    let cost = s.stats(who).spells.get(usize::from(spell))?.mana;
    let mana = match stress {
        Some(paid) => cost - paid,
        None => cost.min(s.ch(who).mana),
    };
    Some(SpellCost {
        mana,
        stress: cost - mana,
    })
}

/// Whether a creature declares this round at all: in the combat, not Surprised (HAL-R3), able
/// to act (not paralysed), not resting from an injury, and not already fleeing (a fleeing
/// creature's flight is declared for it).
pub fn declares(s: &State, c: Cid) -> bool {
    let ch = s.ch(c);
    !ch.gone()
        && ch.base.is_some()
        && !ch.has(Conditions::SURPRISED | Conditions::PARALYZED | Conditions::FLEEING)
        && !resting(s, c)
}

/// An injury that lets a creature act only every second round, and it acted last round.
pub fn resting(s: &State, c: Cid) -> bool {
    let ch = s.ch(c);
    ch.has(Conditions::EVERY_OTHER) && ch.last_acted + 1 == s.round && s.round > 1
}

/// Whether a creature's declaration is due now: in the declaration step, or a newcomer in the
/// middle of a round (HAL-R12).
pub fn due(s: &State, c: Cid) -> bool {
    let ch = s.ch(c);
    if ch.declared.is_some() || !declares(s, c) {
        return false;
    }
    match s.phase {
        Phase::Declaring => true,
        Phase::Resolving => ch.arrived == s.round,
        Phase::Setup => false,
    }
}

/// The order of the one-at-a-time declaration methods (HAL-R11); ties in encounter order
/// (HAL-H20).
pub fn declaration_order(s: &State) -> Vec<Cid> {
    let mut ids: Vec<Cid> = s.ids().collect();
    if s.options.declaration != Declaration::Secret {
        ids.sort_by_key(|&c| declaration_key(s, c));
    }
    ids
}

/// Where `c` comes in the one-at-a-time declaration methods (HAL-R11): lower first, ties in
/// encounter order (HAL-H20).
fn declaration_key(s: &State, c: Cid) -> i64 {
    let o = &s.options;
    let seats = s.setup.seats.len() as u32;
    match o.declaration {
        Declaration::Secret => 0,
        Declaration::Agility => -i64::from(s.score(c, crate::data::Ability::Agility)),
        Declaration::InitiativeModifier => {
            -i64::from(s.modifier(c, crate::data::Ability::Agility)) + i64::from(s.stats(c).initiative)
        }
        // The seats after the Referee's, round the table, the Referee's own creatures last.
        Declaration::Clockwise => i64::from((u32::from(s.seat_of(c).0) + seats - 1) % seats),
        Declaration::Counterclockwise => i64::from(match s.seat_of(c).0 {
            0 => seats,
            n => seats - u32::from(n),
        }),
        Declaration::Listed => o
            .declaration_list
            .iter()
            .position(|id| id.eq_ignore_ascii_case(&s.ch(c).id))
            .map_or(i64::MAX, |p| p as i64),
    }
}

/// The creature whose declaration is due next in the one-at-a-time methods; in the secret
/// method, `None` (every seat declares at once). It allocates nothing: the first due creature
/// of [`declaration_order`], found without sorting.
pub fn next_declarer(s: &State) -> Option<Cid> {
    // A newcomer in the middle of a round declares at once, whatever the method (HAL-R12).
    if s.phase == Phase::Resolving {
        return s.ids().find(|&c| due(s, c));
    }
    if s.options.declaration == Declaration::Secret {
        return None;
    }
    s.ids()
        .filter(|&c| due(s, c))
        .min_by_key(|&c| (declaration_key(s, c), c))
}

/// Whether the one-at-a-time declaration step is under way (not the secret method, nor a
/// newcomer's declaration in the middle of a round).
fn one_at_a_time(s: &State) -> bool {
    s.phase == Phase::Declaring && s.options.declaration != Declaration::Secret
}

/// The creatures `seat` may declare for now, the one due by default first (HAL-R11; the order
/// within a seat is fray's own reading, `seat-picks-declaration-order`). In the secret method,
/// and for newcomers in the middle of a round, a seat declares its creatures still to declare in
/// any order; by default they come in encounter order. In the one-at-a-time methods the
/// method's order between creatures is the rule itself, so a seat may reorder only the run of
/// its own creatures that comes next in that order: nobody else declares between them, so each
/// declaration is still seen by everyone who declares after it. With the option off, only the
/// creature due by default.
pub fn declarers(s: &State, seat: Seat, out: &mut Vec<Cid>) {
    let any = s.options.seat_picks_declaration_order;
    if one_at_a_time(s) {
        let order = declaration_order(s);
        let mut due_ones = order.into_iter().filter(|&c| due(s, c));
        match due_ones.next() {
            Some(first) if s.seat_of(first) == seat => {
                out.push(first);
                if any {
                    out.extend(due_ones.take_while(|&c| s.seat_of(c) == seat));
                }
            }
            _ => {}
        }
    } else {
        let mine = s.ids().filter(|&c| due(s, c) && s.seat_of(c) == seat);
        if any {
            out.extend(mine);
        } else {
            out.extend(mine.take(1));
        }
    }
}

/// The creature `seat` declares for by default now (the first of [`declarers`]).
pub fn default_declarer(s: &State, seat: Seat) -> Option<Cid> {
    if one_at_a_time(s) {
        next_declarer(s).filter(|&c| s.seat_of(c) == seat)
    } else {
        s.ids().find(|&c| due(s, c) && s.seat_of(c) == seat)
    }
}

/// Whether `seat` may declare for `who` now (see [`declarers`]), without listing them all.
fn may_declare(s: &State, seat: Seat, who: Cid) -> bool {
    if !due(s, who) || s.seat_of(who) != seat {
        return false;
    }
    if s.options.seat_picks_declaration_order && !one_at_a_time(s) {
        return true;
    }
    if !one_at_a_time(s) {
        return default_declarer(s, seat) == Some(who);
    }
    let mut out = Vec::new();
    declarers(s, seat, &mut out);
    out.contains(&who)
}

/// Whether a weapon is in hand: not thrown away, its arm not injured (HAL-R40).
pub fn weapon_ready(s: &State, c: Cid, w: u8) -> Result<&Weapon, Reject> {
    weapon_usable(s, c, w, None)
}

/// [`weapon_ready`], counting the weapon `drawing` (a declared Free action's draw) as in hand.
fn weapon_usable(s: &State, c: Cid, w: u8, drawing: Option<u8>) -> Result<&Weapon, Reject> {
    let ch = s.ch(c);
    let Some(weapon) = s.stats(c).weapons.get(usize::from(w)) else {
        return Err(no(codes::NO_WEAPON, format!("{} has no weapon #{w}", ch.name)));
    };
    if ch.thrown & (1 << (w & 15)) != 0 {
        return Err(no(
            codes::NO_WEAPON,
            format!("{} has thrown its {} away", ch.name, weapon.name),
        ));
    }
    // HAL-R17: a weapon out of hand is drawn with a Free action first.
    if ch.away & (1 << (w & 15)) != 0 && drawing != Some(w) {
        return Err(no(
            codes::NO_WEAPON,
            format!(
                "{}'s {} is not in hand: it is drawn as a free action (declare {} free draw {})",
                ch.name, weapon.name, ch.id, weapon.name
            ),
        ));
    }
    let main = ch.has(Conditions::MAIN_ARM);
    let off = ch.has(Conditions::OFF_ARM);
    let hurt = match weapon.hand {
        Hand::Main => main,
        Hand::Off => off,
        Hand::Both => main || off,
        Hand::Natural => false,
    };
    if hurt {
        return Err(no(
            codes::NO_WEAPON,
            format!("{}'s injured arm cannot use its {}", ch.name, weapon.name),
        ));
    }
    Ok(weapon)
}

/// How far a weapon strikes, in squares: its threat range for a melee weapon (HAL-H10), its
/// range for a ranged or thrown one.
pub fn weapon_reach(s: &State, w: &Weapon, thrown: bool) -> u32 {
    let o = &s.options;
    if w.ranged() || thrown {
        o.squares(w.range)
    } else if w.long {
        o.squares(o.long_reach)
    } else {
        o.squares(o.melee_reach)
    }
}

/// A creature's threat range in squares (HAL-H10): the longest reach of its melee weapons in
/// hand, 0 without one.
pub fn threat_range(s: &State, c: Cid) -> u32 {
    let st = s.stats(c);
    (0..st.weapons.len() as u8)
        .filter_map(|w| weapon_ready(s, c, w).ok())
        .filter(|w| !w.ranged())
        .map(|w| weapon_reach(s, w, false))
        .max()
        .unwrap_or(0)
}

/// Squares a creature may move this round (HAL-R18): its Speed, halved in full defence
/// (HAL-R14), Stabilized (HAL-R33), lame or prone (injuries); 1 yard a turn while Incapacitated
/// or Dying (HAL-R29).
pub fn move_budget(s: &State, c: Cid, t: Option<&Turn>) -> u32 {
    let ch = s.ch(c);
    let o = &s.options;
    match s.cap_now(c) {
        Cap::Out => return 0,
        // HAL-R29, HAL-R30: a crawl of 1 yard a turn.
        Cap::Incapacitated | Cap::Dying => {
            let used = t.map_or(0, |t| t.moved);
            return ch.moved + o.squares(1).saturating_sub(used);
        }
        Cap::Able | Cap::Stable => {}
    }
    let full = o.squares(s.stats(c).speed);
    let guarding = s.acts.iter().any(|a| a.who == c && a.action == Action::FullDefense)
        || ch.declared == Some(Action::FullDefense);
    // HAL-R14 (full defence), HAL-R33 (Stabilized), injuries: half speed.
    let halved = guarding || s.cap_now(c) == Cap::Stable || ch.has(Conditions::LAME | Conditions::PRONE);
    if halved { full / 2 } else { full }
}

/// The squares left to move this turn.
pub fn moves_left(s: &State, t: &Turn) -> u32 {
    move_budget(s, t.who, Some(t)).saturating_sub(s.ch(t.who).moved)
}

/// The shortest way to `to` through open squares, and its cost in squares.
pub fn move_path(s: &State, t: &Turn, to: Pos, scratch: &mut DiagonalScratch) -> Result<(Vec<Pos>, u32), Reject> {
    if s.ch(t.who).at == to {
        return Err(no(codes::BLOCKED, format!("{} is there already", s.ch(t.who).name)));
    }
    if !s.open(to) {
        return Err(no(codes::BLOCKED, format!("{to} is not an open square")));
    }
    let left = moves_left(s, t);
    let r = walk_reach(s, s.ch(t.who).at, u32::MAX, scratch);
    match (r.cost_to(to), r.path_to(to)) {
        (Some(cost), _) if cost > left => Err(no(
            codes::TOO_FAR,
            format!(
                "{to} is {} away and {} left this round",
                counted(cost, "square", "squares"),
                if left == 1 {
                    "1 is".to_string()
                } else {
                    format!("{left} are")
                }
            ),
        )),
        (Some(cost), Some(path)) => Ok((path, cost)),
        _ => Err(no(
            codes::BLOCKED,
            format!("there is no way to {to} through open squares"),
        )),
    }
}

/// The cost of each square of a walk from `from` along `path` (the squares after the start),
/// counted from the start: 1 a step, or with alternating diagonals every second diagonal 2.
pub fn path_costs(s: &State, from: Pos, path: &[Pos]) -> Vec<u32> {
    let alternating = s.options.metric == Metric::AlternatingDiagonal;
    let (mut prev, mut total, mut diagonals) = (from, 0u32, 0u32);
    path.iter()
        .map(|&p| {
            let diagonal = p.x != prev.x && p.y != prev.y;
            if diagonal {
                diagonals += 1;
            }
            total += if alternating && diagonal && diagonals % 2 == 0 {
                2
            } else {
                1
            };
            prev = p;
            total
        })
        .collect()
}

/// Every square a creature at `from` may walk to for at most `budget` squares, through open
/// squares, diagonal steps counted by the `metric` option (HAL-R18).
pub fn walk_reach<'a>(s: &'a State, from: Pos, budget: u32, scratch: &'a mut DiagonalScratch) -> DiagonalReach<'a> {
    let alternating = s.options.metric == Metric::AlternatingDiagonal;
    let enter = |_: Pos, b: Pos| s.open(b).then_some(0);
    reach_diagonal(&s.setup.map, from, budget, alternating, enter, |_| true, scratch)
}

/// Whether a creature can declare `action` (what does not depend on where anyone will be on
/// its count).
pub fn action_ok(s: &State, who: Cid, action: &Action) -> Result<(), Reject> {
    action_ok_with(s, who, action, None)
}

/// [`action_ok`] for an action declared with the Free action `free`: a weapon it draws counts
/// as in hand (HAL-R17).
pub fn action_ok_with(s: &State, who: Cid, action: &Action, free: Option<Free>) -> Result<(), Reject> {
    let drawing = match free {
        Some(Free::Draw { weapon }) => Some(weapon),
        _ => None,
    };
    let weapon_ready = |s, who, w| weapon_usable(s, who, w, drawing);
    let me = s.ch(who);
    let st = s.stats(who);
    let target = |t: Cid, foe: bool| -> Result<(), Reject> {
        match s.chars.get(usize::from(t)) {
            None => Err(no(codes::BAD_TARGET, format!("no combatant #{t}"))),
            Some(c) if c.gone() => Err(no(codes::BAD_TARGET, format!("{} is out of the combat", c.name))),
            Some(c) if foe && c.side == me.side => {
                Err(no(codes::BAD_TARGET, format!("{} is on {}'s side", c.name, me.name)))
            }
            Some(c) if !foe && c.side != me.side => {
                Err(no(codes::BAD_TARGET, format!("{} is a foe of {}", c.name, me.name)))
            }
            Some(_) => Ok(()),
        }
    };
    let speech = || {
        if me.has(Conditions::MUTE) && s.options.silence_blocks_speech_actions {
            Err(no(codes::CANNOT_SPEAK, format!("{} cannot speak", me.name)))
        } else {
            Ok(())
        }
    };
    match *action {
        Action::Attack { target: t, weapon } => {
            weapon_ready(s, who, weapon)?;
            target(t, true)
        }
        Action::Defensive { target: t, weapon } => match t {
            // HAL-R8: without an attack the weapon does not matter (its speed counts as 0).
            None => Ok(()),
            Some(t) => {
                weapon_ready(s, who, weapon)?;
                target(t, true)
            }
        },
        Action::Throw { weapon, target: t } => {
            let w = weapon_ready(s, who, weapon)?;
            if !w.thrown {
                return Err(no(codes::NO_WEAPON, format!("{} is not made for throwing", w.name)));
            }
            target(t, true)
        }
        Action::Cast {
            spell,
            target: t,
            stress,
        } => {
            let Some(sp) = st.spells.get(usize::from(spell)) else {
                return Err(no(codes::BAD_TARGET, format!("{} has no spell #{spell}", me.name)));
            };
            speech()?;
            // HAL-R26: Stress may pay in place of Mana, 1:1, as the caster chose.
            if let Some(paid) = stress {
                let mana = sp.mana - paid;
                let refuse = |why: String| Err(no(codes::SPENT, format!("{} costs {}: {why}", sp.name, sp.mana)));
                if !(0..=sp.mana).contains(&paid) {
                    return refuse(format!("{paid} Stress is not a part of it"));
                }
                if mana > me.mana {
                    return refuse(format!(
                        "{} has {} Mana, not the {mana} to pay in Mana",
                        me.name, me.mana
                    ));
                }
                if paid > me.stress {
                    return refuse(format!(
                        "{} has {} Stress, not the {paid} to pay in Stress",
                        me.name, me.stress
                    ));
                }
            } else if me.mana + me.stress < sp.mana {
                return Err(no(
                    codes::SPENT,
                    format!(
                        "{} costs {} and {} has {} Mana and {} Stress",
                        sp.name, sp.mana, me.name, me.mana, me.stress
                    ),
                ));
            }
            target(t, sp.damage.is_some())
        }
        Action::Use { item, target: t } => {
            let Some(it) = st.items.get(usize::from(item)) else {
                return Err(no(codes::BAD_TARGET, format!("{} has no item #{item}", me.name)));
            };
            if me.used.get(usize::from(item)).copied().unwrap_or(u8::MAX) >= it.count {
                return Err(no(codes::SPENT, format!("{} has no {} left", me.name, it.name)));
            }
            target(t, false)
        }
        Action::Heal { target: t } => {
            target(t, false).or_else(|_| match s.chars.get(usize::from(t)) {
                Some(c) if !c.gone() => Ok(()),
                _ => Err(no(codes::BAD_TARGET, "heal a creature still in the combat")),
            })?;
            let c = s.ch(t);
            // HAL-R32: only the Dying or Incapacitated need stabilising.
            if c.wp > 0 || c.has(Conditions::STABILIZED) {
                return Err(no(
                    codes::BAD_TARGET,
                    format!("{} is not Incapacitated or Dying, or is Stabilized already", c.name),
                ));
            }
            Ok(())
        }
        Action::Intimidate { target: t } => {
            speech()?;
            target(t, true)?;
            // HAL-R19, HAL-H22: only monsters check morale.
            if !s.stats(t).monster && !s.options.pc_morale {
                return Err(no(
                    codes::BAD_TARGET,
                    format!("{} is not a monster: it checks no morale", s.ch(t).name),
                ));
            }
            Ok(())
        }
        Action::FullDefense | Action::Move | Action::Flee => Ok(()),
    }
}

/// How far (in squares) the action reaches, and whether it needs the target at all.
fn action_reach(s: &State, who: Cid, action: &Action) -> Option<u32> {
    let st = s.stats(who);
    match *action {
        Action::Attack { weapon, .. } | Action::Defensive { weapon, .. } => {
            st.weapons.get(usize::from(weapon)).map(|w| weapon_reach(s, w, false))
        }
        Action::Throw { weapon, .. } => st.weapons.get(usize::from(weapon)).map(|w| weapon_reach(s, w, true)),
        Action::Cast { spell, .. } => st.spells.get(usize::from(spell)).map(|sp| s.options.squares(sp.range)),
        Action::Use { .. } | Action::Heal { .. } => Some(s.options.squares(s.options.heal_reach)),
        Action::Intimidate { .. } => Some(u32::MAX),
        Action::FullDefense | Action::Move | Action::Flee => None,
    }
}

/// The declared action of the turn under way, as it would be taken with `new_target`.
pub fn turn_action(s: &State, t: &Turn, new_target: Option<Cid>) -> Action {
    let a = s.acts[usize::from(t.act)].action;
    match new_target {
        Some(n) => a.with_target(n),
        None => a,
    }
}

/// Whether the turn's declared action can be taken now, aimed as declared or (HAL-H16's
/// option) at `new_target`, and its plan.
pub fn act_ok(s: &State, t: &Turn, new_target: Option<Cid>) -> Result<Plan, Reject> {
    let declared = s.acts[usize::from(t.act)].action;
    let me = s.ch(t.who);
    if s.acts[usize::from(t.act)].lone {
        return Err(no(
            codes::CANNOT_ACT,
            "this turn is for the Free action alone: free, step or end",
        ));
    }
    if t.acted {
        return Err(no(
            codes::CANNOT_ACT,
            format!("{} has taken its action this turn", me.name),
        ));
    }
    if matches!(declared, Action::FullDefense | Action::Move | Action::Flee) {
        return Err(no(
            codes::CANNOT_ACT,
            "the declared action has nothing to do now: move or end",
        ));
    }
    if matches!(declared, Action::Defensive { target: None, .. }) && new_target.is_none() {
        return Err(no(
            codes::CANNOT_ACT,
            "a defensive attack without a target has nothing to do: move or end",
        ));
    }
    let cap = s.cap_now(t.who);
    // HAL-R30: the Dying take one action a round, and not both move and act.
    if cap == Cap::Dying && (t.moved > 0 || me.actions > 0) {
        return Err(no(
            codes::CANNOT_ACT,
            format!("{} is Dying: one action a round, and not after moving", me.name),
        ));
    }
    if let Some(n) = new_target {
        let old = declared.target();
        let gone = old.is_some_and(|o| target_gone(s, o));
        if !s.options.retarget || !gone {
            return Err(no(
                codes::BAD_TARGET,
                "a declaration is binding: a new target only when the declared one is gone (option retarget)",
            ));
        }
        if Some(n) == old {
            return Err(no(codes::BAD_TARGET, "that is the declared target"));
        }
    }
    let action = turn_action(s, t, new_target);
    // HAL-H16: a declaration binds; with its target gone the action is lost.
    if let Some(target) = action.target()
        && new_target.is_none()
        && target_gone(s, target)
    {
        return Err(no(
            codes::BAD_TARGET,
            format!("{} is gone: the action is lost", s.ch(target).name),
        ));
    }
    // HAL-R10: an act that was possible when its count began still happens, whatever another
    // act of the same count did to its creature since.
    let fixed = new_target.is_none() && !s.caps.is_empty() && s.ready.contains(&t.act);
    if !fixed {
        action_ok(s, t.who, &action)?;
    } else if let Some(w) = action_weapon(&action)
        && me.away & (1 << (w & 15)) != 0
    {
        // HAL-R17: a weapon the declared Free action draws must be drawn before it is used
        // (and one dropped since the count began is out of hand).
        let name = s
            .stats(t.who)
            .weapons
            .get(usize::from(w))
            .map_or("weapon", |x| x.name.as_str());
        let draw = if s.acts[usize::from(t.act)].free == Some(Free::Draw { weapon: w }) && !t.freed {
            ": draw it first (free)"
        } else {
            ""
        };
        return Err(no(
            codes::NO_WEAPON,
            format!("{}'s {name} is not in hand{draw}", me.name),
        ));
    }
    if let Some(target) = action.target() {
        let reach = action_reach(s, t.who, &action).unwrap_or(0);
        let d = s.distance(t.who, target);
        if d > reach {
            return Err(no(
                codes::OUT_OF_REACH,
                format!(
                    "{} is {} away and the action reaches {}",
                    s.ch(target).name,
                    counted(d, "square", "squares"),
                    counted(reach, "square", "squares")
                ),
            ));
        }
    }
    let spell = match action {
        Action::Cast { spell, stress, .. } => Some(
            spell_cost(s, t.who, spell, stress)
                .ok_or_else(|| no(codes::BAD_TARGET, format!("{} has no spell #{spell}", me.name)))?,
        ),
        _ => None,
    };
    Ok(Plan::Act { action, spell })
}

/// The weapon an action uses, if any.
fn action_weapon(a: &Action) -> Option<u8> {
    match *a {
        Action::Attack { weapon, .. }
        | Action::Defensive {
            target: Some(_),
            weapon,
        }
        | Action::Throw { weapon, .. } => Some(weapon),
        _ => None,
    }
}

/// Whether `who` could take the Free action `f` now, as far as its weapons, speech and state go
/// (HAL-R17, HAL-R29, HAL-R30).
pub fn free_ok(s: &State, who: Cid, f: Free) -> Result<(), Reject> {
    let me = s.ch(who);
    let o = &s.options;
    let weapon = |w: u8| match s.stats(who).weapons.get(usize::from(w)) {
        None => Err(no(codes::NO_WEAPON, format!("{} has no weapon #{w}", me.name))),
        Some(_) if me.thrown & (1 << (w & 15)) != 0 => {
            Err(no(codes::NO_WEAPON, format!("{} has thrown it away", me.name)))
        }
        Some(x) if x.hand == Hand::Natural => Err(no(
            codes::NO_WEAPON,
            format!("{}'s {} is part of it: never drawn or dropped", me.name, x.name),
        )),
        Some(x) => Ok(x),
    };
    match f {
        Free::Step => {
            if o.squares(o.free_move) == 0 {
                return Err(no(codes::CANNOT_ACT, "free-move is 0: there is no short move"));
            }
            // HAL-R29, HAL-R30: the Incapacitated and the Dying only crawl.
            if matches!(s.cap_now(who), Cap::Incapacitated | Cap::Dying | Cap::Out) {
                return Err(no(
                    codes::CANNOT_MOVE,
                    format!("{} can only crawl: no short move", me.name),
                ));
            }
            Ok(())
        }
        Free::Draw { weapon: w } => {
            let x = weapon(w)?;
            if me.away & (1 << (w & 15)) == 0 {
                return Err(no(
                    codes::NO_WEAPON,
                    format!("{}'s {} is in hand already", me.name, x.name),
                ));
            }
            // An injured arm cannot take it up either.
            weapon_usable(s, who, w, Some(w)).map(drop)
        }
        Free::Drop { weapon: w } => {
            let x = weapon(w)?;
            if me.away & (1 << (w & 15)) != 0 {
                return Err(no(codes::NO_WEAPON, format!("{}'s {} is not in hand", me.name, x.name)));
            }
            Ok(())
        }
        Free::Speak => {
            if o.speech == Speech::NotAnAction {
                return Err(no(
                    codes::CANNOT_ACT,
                    "speaking is not an action (speech = \"not-an-action\"): just speak",
                ));
            }
            if me.has(Conditions::MUTE) {
                return Err(no(codes::CANNOT_SPEAK, format!("{} cannot speak", me.name)));
            }
            Ok(())
        }
    }
}

/// Whether the turn's declared Free action can be taken now (`free`, or `step` for a short
/// move): declared, not yet taken, and within the limits of the Dying (HAL-R30: one action of
/// any kind, not both move and act; speech is no action).
pub fn free_now(s: &State, t: &Turn, step: bool) -> Result<Free, Reject> {
    let me = s.ch(t.who);
    let Some(f) = s.acts[usize::from(t.act)].free else {
        return Err(no(
            codes::CANNOT_ACT,
            format!("{} declared no free action for this turn", me.name),
        ));
    };
    if t.freed {
        return Err(no(
            codes::CANNOT_ACT,
            format!("{} has taken its free action this turn", me.name),
        ));
    }
    if step != (f == Free::Step) {
        return Err(no(
            codes::CANNOT_ACT,
            if step {
                "the free action declared is not a short move: free"
            } else {
                "the free action declared is a short move: step <x,y>"
            },
        ));
    }
    if f.is_action() && s.cap_now(t.who) == Cap::Dying && (t.moved > 0 || me.actions > 0) {
        return Err(no(
            codes::CANNOT_ACT,
            format!("{} is Dying: one action a round, and not after moving", me.name),
        ));
    }
    free_ok(s, t.who, f)?;
    Ok(f)
}

/// The short move's way to `to`: through open squares, at most `free-move` yards, taking
/// nothing from the round's Speed (HAL-R17).
pub fn step_path(s: &State, t: &Turn, to: Pos, scratch: &mut DiagonalScratch) -> Result<(Vec<Pos>, u32), Reject> {
    let at = s.ch(t.who).at;
    if at == to {
        return Err(no(codes::BLOCKED, format!("{} is there already", s.ch(t.who).name)));
    }
    if !s.open(to) {
        return Err(no(codes::BLOCKED, format!("{to} is not an open square")));
    }
    let most = s.options.squares(s.options.free_move);
    let r = walk_reach(s, at, u32::MAX, scratch);
    match (r.cost_to(to), r.path_to(to)) {
        (Some(cost), _) if cost > most => Err(no(
            codes::TOO_FAR,
            format!(
                "{to} is {} away and a short move goes {}",
                counted(cost, "square", "squares"),
                counted(most, "square", "squares")
            ),
        )),
        (Some(cost), Some(path)) => Ok((path, cost)),
        _ => Err(no(
            codes::BLOCKED,
            format!("there is no way to {to} through open squares"),
        )),
    }
}

/// A declared target that is gone (HAL-H16): dead, fled, surrendered or removed before this
/// count began (one killed on this very count is still there: HAL-R10).
pub fn target_gone(s: &State, t: Cid) -> bool {
    s.chars
        .get(usize::from(t))
        .is_none_or(|c| c.gone() && (s.caps.is_empty() || s.cap_now(t) == Cap::Out))
}

/// The weapons `by` could Reposte with against `against`: melee weapons in hand that reach it
/// (HAL-H9: a Reposte is a weapon attack within the threat range).
pub fn reposte_weapons(s: &State, by: Cid, against: Cid) -> impl Iterator<Item = u8> + '_ {
    let d = s.distance(by, against);
    (0..s.stats(by).weapons.len() as u8)
        .filter(move |&w| weapon_ready(s, by, w).is_ok_and(|x| !x.ranged() && weapon_reach(s, x, false) >= d))
}

/// Whether `by` may Reposte now at all (HAL-R17, HAL-R30): its Reaction unused, able to act,
/// and, if Dying, no action taken this round.
pub fn may_react(s: &State, by: Cid) -> bool {
    let c = s.ch(by);
    let cap = s.cap_now(by);
    // HAL-R30: a Dying creature's one action a round, and not on its own turn.
    let dying_busy = cap == Cap::Dying && (c.actions > 0 || s.turn.is_some_and(|t| t.who == by));
    !c.gone() && !c.reacted && cap != Cap::Out && !c.has(Conditions::SURPRISED) && !dying_busy
}

/// Whether the creature whose turn it is may move at all now (HAL-R30: not the Dying after
/// acting; not without movement left).
pub fn move_allowed(s: &State, t: &Turn) -> Result<(), Reject> {
    let me = s.ch(t.who);
    let act = &s.acts[usize::from(t.act)];
    if act.lone {
        return Err(no(
            codes::CANNOT_MOVE,
            "this turn is for the Free action alone: the creature moves on its action's turn",
        ));
    }
    let freed = t.freed && act.free.is_some_and(Free::is_action);
    if s.cap_now(t.who) == Cap::Dying && (t.acted || freed) {
        return Err(no(
            codes::CANNOT_MOVE,
            format!("{} is Dying and has acted: it cannot move too", me.name),
        ));
    }
    if moves_left(s, t) == 0 {
        return Err(no(
            codes::CANNOT_MOVE,
            format!("{} has no movement left this round", me.name),
        ));
    }
    Ok(())
}

/// Whether the rules accept `c` from `seat` now, and its plan.
pub fn check(s: &State, seat: Seat, c: &Command) -> Result<Plan, Reject> {
    check_in(s, seat, stage(s).as_ref(), c)
}

/// The plan [`check`] gives a command it accepts under the stage `st` of `s` the caller has
/// already worked out, `None` for one it refuses: what the legal list asks of each candidate.
pub fn plan_in(s: &State, seat: Seat, st: &Stage, c: &Command) -> Option<Plan> {
    check_in(s, seat, Some(st), c).ok()
}

/// The refusal of a command that answers no part of the decision asked now.
fn not_now() -> Reject {
    no(codes::NOT_NOW, "that is not an answer to the decision asked now")
}

/// [`check`] under the stage `st` the caller has already worked out ([`stage`] of `s`; `None`
/// when nothing is asked, and every command but a GM ruling is refused).
pub fn check_in(s: &State, seat: Seat, st: Option<&Stage>, c: &Command) -> Result<Plan, Reject> {
    // GM rulings are no stage: they are accepted whatever the game waits for.
    if let Command::Gm(r) = c {
        return ruling(s, r).map(|()| Plan::Plain);
    }
    let Some(st) = st else {
        return Err(not_now());
    };
    match (*st, c) {
        (Stage::Reposte { .. }, Command::Pass) => Ok(Plan::Plain),
        (Stage::Reposte { by, against }, Command::Reposte(w)) => {
            let mut weapons = reposte_weapons(s, by, against);
            match w {
                Some(w) if weapons.any(|x| x == *w) => Some(*w),
                // The first weapon that reaches, by default.
                None => weapons.next(),
                _ => None,
            }
            .map(Plan::Reposte)
            .ok_or_else(|| no(codes::OUT_OF_REACH, "no weapon in hand reaches the creature"))
        }
        (Stage::Injury { .. }, Command::Injury(t)) => injury_type(s, t),
        // A declaration under a turn is told why it may not be made now, as under the
        // declarations (its creature has declared, has none to make, or is another seat's).
        (Stage::Declare { .. } | Stage::Turn(_), Command::Declare { who, action }) => {
            declare(s, seat, *who, action).map(|()| Plan::Plain)
        }
        (Stage::Declare { .. } | Stage::Turn(_), Command::DeclareFree { who, free }) => {
            declare_free(s, seat, *who, *free).map(|()| Plan::Plain)
        }
        (Stage::Turn(t), _) if s.phase == Phase::Resolving => turn(s, &t, c),
        _ => Err(not_now()),
    }
}

/// An injury table picked (HAL-R39): one of the damage types of the frame on top of the stack.
fn injury_type(s: &State, t: &str) -> Result<Plan, Reject> {
    let Some(Frame::InjuryType { types, .. }) = s.frames.last() else {
        return Err(not_now());
    };
    if types.iter().any(|x| x == t) {
        Ok(Plan::Plain)
    } else {
        Err(no(
            codes::BAD_INJURY_TYPE,
            format!(
                "'{t}' is not one of the damage types{}: {}",
                fray_engine::diag::suggestion(t, types.iter().map(String::as_str)),
                types.join(", ")
            ),
        ))
    }
}

/// The answers of a turn on a count (HAL-R9, HAL-R17, HAL-R18).
fn turn(s: &State, t: &Turn, c: &Command) -> Result<Plan, Reject> {
    match c {
        Command::Move(to) => {
            move_allowed(s, t)?;
            move_path(s, t, *to, &mut DiagonalScratch::new()).map(|(path, _)| Plan::Walk(path))
        }
        Command::Act(n) => act_ok(s, t, *n),
        Command::Free => free_now(s, t, false).map(Plan::Free),
        Command::Step(to) => {
            free_now(s, t, true)?;
            step_path(s, t, *to, &mut DiagonalScratch::new()).map(|(path, _)| Plan::Walk(path))
        }
        Command::End => Ok(Plan::Plain),
        _ => Err(not_now()),
    }
}

fn declare(s: &State, seat: Seat, who: Cid, action: &Action) -> Result<(), Reject> {
    let Some(c) = s.chars.get(usize::from(who)) else {
        return Err(no(codes::BAD_TARGET, format!("no combatant #{who}")));
    };
    if s.seat_of(who) != seat {
        return Err(not_yours(s, who));
    }
    if c.declared.is_some() {
        return Err(no(
            codes::ALREADY_DECLARED,
            format!("{} has declared this round", c.name),
        ));
    }
    may_declare_now(s, seat, who)?;
    // HAL-R17: a weapon its declared Free action draws may be used.
    action_ok_with(s, who, action, c.declared_free)
}

/// Whether `seat` may declare for `who` now, it being its creature yet to declare: its
/// declaration is due, no turn is under way, and the method lets this seat declare for it now.
fn may_declare_now(s: &State, seat: Seat, who: Cid) -> Result<(), Reject> {
    if !due(s, who) {
        return Err(no(
            codes::NOT_NOW,
            format!("{} has no declaration to make now", s.ch(who).name),
        ));
    }
    if s.turn.is_some() && s.phase == Phase::Declaring {
        return Err(no(codes::NOT_NOW, "a turn is under way"));
    }
    if !may_declare(s, seat, who) {
        return Err(no(codes::NOT_YOUR_CREATURE, not_yet(s, seat)));
    }
    Ok(())
}

/// A Free action declared before the creature's action (HAL-R17).
fn declare_free(s: &State, seat: Seat, who: Cid, free: Free) -> Result<(), Reject> {
    let Some(c) = s.chars.get(usize::from(who)) else {
        return Err(no(codes::BAD_TARGET, format!("no combatant #{who}")));
    };
    if !s.options.free_actions {
        return Err(no(codes::NOT_NOW, "there are no Free actions (free-actions = false)"));
    }
    if s.seat_of(who) != seat {
        return Err(not_yours(s, who));
    }
    if c.declared.is_some() {
        return Err(no(
            codes::ALREADY_DECLARED,
            format!(
                "{} has declared this round: a free action is declared before the action",
                c.name
            ),
        ));
    }
    if c.declared_free.is_some() {
        return Err(no(
            codes::ALREADY_DECLARED,
            format!("{} has declared its free action this round", c.name),
        ));
    }
    may_declare_now(s, seat, who)?;
    free_ok(s, who, free)
}

/// Why a seat may not declare for `who`: it is another seat's creature, and the reason names
/// that seat. A seat commands only its own creatures, allies of another seat included (the GM's
/// seat too: it rules on any creature, `gm ...`, but declares only for those it runs).
fn not_yours(s: &State, who: Cid) -> Reject {
    no(
        codes::NOT_YOUR_CREATURE,
        format!(
            "{} belongs to seat '{}': only that seat declares for it",
            s.ch(who).name,
            s.seat_name_of(who)
        ),
    )
}

/// Why a creature of `seat` may not declare yet: whose declaration is due.
fn not_yet(s: &State, seat: Seat) -> String {
    let mut mine = Vec::new();
    declarers(s, seat, &mut mine);
    let names: Vec<&str> = mine.iter().map(|&c| s.ch(c).name.as_ref()).collect();
    match (next_declarer(s), names.as_slice()) {
        (_, [one]) => format!("it is {one}'s turn to declare"),
        (_, [first, rest @ ..]) if !rest.is_empty() => format!(
            "it is {first}'s turn to declare, or this seat's {} first",
            rest.join(" or ")
        ),
        (Some(next), _) => format!("it is {}'s turn to declare", s.ch(next).name),
        (None, _) => "this seat has no declaration due".into(),
    }
}

fn ruling(s: &State, r: &Ruling) -> Result<(), Reject> {
    let bad = |m: String| Err(no(codes::BAD_RULING, m));
    let live = |w: &Cid| match s.chars.get(usize::from(*w)) {
        Some(c) if c.gone() => bad(format!("{} is out of the combat", c.name)),
        Some(_) => Ok(()),
        None => bad(format!("no combatant #{w}")),
    };
    match r {
        R::Adjust { who, gauge, by } => {
            live(who)?;
            let c = s.ch(*who);
            let (now, lo, hi) = match gauge {
                Gauge::Stress => (c.stress, 0, c.stress_max),
                Gauge::Wp => (c.wp, -STAT_LIMIT, s.wp_max(*who)),
                Gauge::Mana => (c.mana, 0, STAT_LIMIT),
            };
            match by.apply(now) {
                v if (lo..=hi).contains(&v) => Ok(()),
                v => bad(format!(
                    "{} would be {v}: it must stay within {lo}..={hi}",
                    gauge.name()
                )),
            }
        }
        R::Move { who, to } if s.open(*to) => live(who),
        R::Move { to, .. } => bad(format!("{to} is not an open square")),
        R::Add { id, template, side, at } => {
            if !is_word(id) || s.find(id).is_some() {
                bad(format!("'{id}' is not a new one-word id"))
            } else if !s.setup.templates.contains_key(template) {
                bad(format!(
                    "no template '{template}'{}",
                    fray_engine::diag::suggestion(template, s.setup.templates.keys().map(String::as_str))
                ))
            } else if usize::from(*side) >= s.setup.sides.len() || !s.open(*at) || s.chars.len() >= MAX_COMBATANTS {
                bad(format!(
                    "no room for '{id}' on {at} (or no such side, or {MAX_COMBATANTS} combatants already)"
                ))
            } else if s.phase == Phase::Setup {
                bad("newcomers join once the first round has begun".into())
            } else {
                Ok(())
            }
        }
        R::Remove { who } => live(who),
        R::End { winner: Some(w) } if usize::from(*w) >= s.setup.sides.len() => bad(format!("no side #{w}")),
        R::End { .. } => Ok(()),
        R::Other(OwnRuling::Unaware(who)) => {
            live(who)?;
            let c = s.ch(*who);
            let fresh = c.arrived == s.round || s.round <= 1;
            if c.declared.is_some() || !fresh || c.has(Conditions::SURPRISED) {
                bad(format!(
                    "{} cannot be made unaware now: only a newcomer, or anyone in round 1, before declaring",
                    c.name
                ))
            } else {
                Ok(())
            }
        }
        R::Other(OwnRuling::Obvious(who)) => live(who),
        R::Other(OwnRuling::Blind(who)) => live(who),
    }
}

/// Every action a creature could declare now, in a fixed order.
pub fn declarable(s: &State, who: Cid, out: &mut Vec<Action>) {
    let st = s.stats(who);
    let all = || s.ids();
    let free = s.ch(who).declared_free;
    let mut push = |a: Action| {
        if action_ok_with(s, who, &a, free).is_ok() {
            out.push(a);
        }
    };
    for w in 0..st.weapons.len() as u8 {
        for t in all() {
            push(Action::Attack { target: t, weapon: w });
        }
    }
    for w in 0..st.weapons.len() as u8 {
        for t in all() {
            push(Action::Defensive {
                target: Some(t),
                weapon: w,
            });
        }
    }
    push(Action::Defensive {
        target: None,
        weapon: 0,
    });
    push(Action::FullDefense);
    for sp in 0..st.spells.len() as u8 {
        for t in all() {
            // HAL-R26: listed with the default split (Mana first); `pay ...` chooses another.
            push(Action::Cast {
                spell: sp,
                target: t,
                stress: None,
            });
        }
    }
    for it in 0..st.items.len() as u8 {
        for t in all() {
            push(Action::Use { item: it, target: t });
        }
    }
    for w in 0..st.weapons.len() as u8 {
        for t in all() {
            push(Action::Throw { weapon: w, target: t });
        }
    }
    for t in all() {
        push(Action::Heal { target: t });
    }
    for t in all() {
        push(Action::Intimidate { target: t });
    }
    push(Action::Move);
    push(Action::Flee);
}

/// Appends every declaration `seat` may make for `who` now under the stage `st` of `s`, with
/// its plan, in a fixed order (what [`legal`] lists for that creature; the AI lists only the
/// creature due by default).
pub fn declarations(
    s: &State,
    seat: Seat,
    st: &Stage,
    who: Cid,
    with_free: bool,
    out: &mut Vec<Answer<HallowedEarth>>,
) {
    let push = |out: &mut Vec<Answer<HallowedEarth>>, c: Command| {
        if let Some(plan) = plan_in(s, seat, st, &c) {
            out.push(Answer::new(c, plan));
        }
    };
    let mut actions = Vec::new();
    declarable(s, who, &mut actions);
    for action in actions {
        push(out, Command::Declare { who, action });
    }
    // HAL-R17: the Free actions it may declare first, after the actions.
    if with_free && s.options.free_actions && s.ch(who).declared_free.is_none() {
        let n = s.stats(who).weapons.len() as u8;
        push(out, Command::DeclareFree { who, free: Free::Step });
        let draws = (0..n).map(|weapon| Free::Draw { weapon });
        let drops = (0..n).map(|weapon| Free::Drop { weapon });
        for free in draws.chain(drops) {
            push(out, Command::DeclareFree { who, free });
        }
        push(out, Command::DeclareFree { who, free: Free::Speak });
    }
}

/// The squares the turn's creature may move to now (HAL-R18), from one search through open
/// squares within the movement it has left; `None` when it may not move at all
/// ([`move_allowed`]). Its squares other than the start are the moves [`check`] accepts, and
/// [`walk_plan`] gives each the plan [`check`] would.
pub fn move_reach<'a>(s: &'a State, t: &Turn, scratch: &'a mut DiagonalScratch) -> Option<DiagonalReach<'a>> {
    move_allowed(s, t).ok()?;
    Some(walk_reach(s, s.ch(t.who).at, moves_left(s, t), scratch))
}

/// The plan of a move (or short move) to `to` found by a search of [`move_reach`] (or, for
/// a short move, [`walk_reach`] within `free-move`): its way there. The search went no further
/// than the movement allowed, and a cheapest way within it is the one the whole search finds,
/// so the plan is the one [`check`] gives.
pub fn walk_plan(r: &DiagonalReach<'_>, to: Pos) -> Option<Plan> {
    r.path_to(to).map(Plan::Walk)
}

/// Every legal answer of `seat` to the pending decision, with its plan.
pub fn legal(s: &State, seat: Seat, out: &mut Vec<Answer<HallowedEarth>>) {
    if let Some(st) = stage(s) {
        legal_in(s, seat, &st, out);
    }
}

/// [`legal`] under the stage `st` of `s` the caller has already worked out: every candidate is
/// checked under it ([`plan_in`]).
pub fn legal_in(s: &State, seat: Seat, st: &Stage, out: &mut Vec<Answer<HallowedEarth>>) {
    answers(s, seat, st, true, out)
}

/// [`legal_in`], or with `moves` false all but the moves and short moves of a turn (which take
/// a search each to list: the AI lists them only when it would move, from [`move_reach`]).
pub fn answers(s: &State, seat: Seat, st: &Stage, moves: bool, out: &mut Vec<Answer<HallowedEarth>>) {
    let push = |out: &mut Vec<Answer<HallowedEarth>>, c: Command| {
        if let Some(plan) = plan_in(s, seat, st, &c) {
            out.push(Answer::new(c, plan));
        }
    };
    match *st {
        Stage::Reposte { by, against } => {
            for w in reposte_weapons(s, by, against) {
                push(out, Command::Reposte(Some(w)));
            }
            push(out, Command::Pass);
        }
        Stage::Injury { .. } => {
            if let Some(Frame::InjuryType { types, .. }) = s.frames.last() {
                for t in types {
                    push(out, Command::Injury(t.clone()));
                }
            }
        }
        Stage::Declare { .. } => {
            // HAL-R11: the declarations of every creature the seat may declare for now, the one
            // due by default first.
            let mut who = Vec::new();
            declarers(s, seat, &mut who);
            for c in who {
                declarations(s, seat, st, c, true, out);
            }
        }
        Stage::Turn(t) => turn_answers(s, &t, moves, out, push),
    }
}

/// The answers of a turn, in their fixed order: act (and, with `retarget`, at each new
/// target), the Free action, the moves and short moves (with `moves`), end.
fn turn_answers(
    s: &State,
    t: &Turn,
    moves: bool,
    out: &mut Vec<Answer<HallowedEarth>>,
    push: impl Fn(&mut Vec<Answer<HallowedEarth>>, Command),
) {
    push(out, Command::Act(None));
    if s.options.retarget {
        for n in s.ids() {
            push(out, Command::Act(Some(n)));
        }
    }
    push(out, Command::Free);
    // The moves `check` accepts are the squares one search reaches within the movement
    // left: they are listed from that search, each with its way, not checked one by one
    // (a search each).
    let at = s.ch(t.who).at;
    let mut scratch = DiagonalScratch::new();
    if moves && let Some(r) = move_reach(s, t, &mut scratch) {
        for (p, _) in r.destinations().filter(|(p, _)| *p != at) {
            if let Some(plan) = walk_plan(&r, p) {
                out.push(Answer::new(Command::Move(p), plan));
            }
        }
    }
    // HAL-R17: a declared short move's squares, from one search as well.
    if moves && free_now(s, t, true).is_ok() {
        let most = s.options.squares(s.options.free_move);
        let r = walk_reach(s, at, most, &mut scratch);
        for (p, _) in r.destinations().filter(|(p, _)| *p != at) {
            if let Some(plan) = walk_plan(&r, p) {
                out.push(Answer::new(Command::Step(p), plan));
            }
        }
    }
    out.push(Answer::new(Command::End, Plan::Plain));
}
