//! Events: everything that happens, with every die, and the one function that applies them.

use crate::Ingenuity;
use crate::data::{Attr, Cond};
use crate::setup::{CharInfo, Cid, Objective};
use crate::state::{Carried, Char, Ext, Frame, Phase, Readied, State, Turn};
use fray_engine::Frames;
use fray_engine::Outcome;
use fray_engine::resolve::{FrameOp, apply_frame_op};
use fray_space::Pos;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One die of a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    /// Its sides.
    pub sides: u8,
    /// The face kept.
    pub face: u16,
}

/// A reroll from advantage or disadvantage (core rule 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reroll {
    /// Which die (0: the attribute die, 1: the skill die).
    pub die: u8,
    /// The face before.
    pub old: u16,
    /// The new face.
    pub new: u16,
    /// Advantage (keep the better) or disadvantage (keep the worse).
    pub advantage: bool,
}

/// A test: attribute die + skill die + bonus, with the luck die beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestRoll {
    /// The attribute and skill dice (after rerolls).
    pub dice: [Die; 2],
    /// Rerolls, in order.
    pub rerolls: Vec<Reroll>,
    /// Proficiency and other modifiers.
    pub bonus: i16,
    /// The luck die's face.
    pub luck: u16,
    /// The luck die with modifiers (ING-H18).
    pub luck_total: i16,
    /// +4 from a luck die of 20 or more (tests that are not attacks).
    pub luck_bonus: i16,
    /// The result.
    pub total: i16,
}

impl TestRoll {
    /// The dice and proficiency without other modifiers (for ING-H11's alternative).
    pub fn dice_sum(&self) -> i16 {
        self.dice.iter().map(|d| d.face as i16).sum()
    }
}

/// How a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TurnEnd {
    /// `end`.
    End,
    /// Guard (ING-R21).
    Guard,
    /// Wait (ING-R28).
    Wait,
    /// Ready (ING-R24).
    Ready,
    /// It could not go on (knocked out, stunned or killed during its turn).
    Lost,
}

/// A defensive reaction's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DefenceKind {
    /// Dodge.
    Dodge,
    /// Parry.
    Parry,
    /// Fortify.
    Fortify,
    /// Resist.
    Resist,
    /// Block.
    Block,
    /// Intercept.
    Intercept,
}

impl DefenceKind {
    /// The word used in commands and logs.
    pub fn name(self) -> &'static str {
        match self {
            DefenceKind::Dodge => "dodge",
            DefenceKind::Parry => "parry",
            DefenceKind::Fortify => "fortify",
            DefenceKind::Resist => "resist",
            DefenceKind::Block => "block",
            DefenceKind::Intercept => "intercept",
        }
    }
}

/// A step the rules took by themselves because nobody had a choice to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AutoStep {
    /// The target declares no defence: the attack goes on without asking.
    NoDefence,
    /// The target holds an item that could block but is not asked.
    NoBlock,
    /// The consciousness fortify is not offered: the character falls unconscious (ING-R60,
    /// ING-H8).
    NoFortify,
    /// A readied action's trigger happened but it cannot fire.
    ReadyNotFired,
    /// The opening action (ING-R69) cannot be taken any more; the turn goes on as usual.
    OpeningDropped,
}

/// Why an automatic step happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AutoWhy {
    /// Unconscious (ING-R65).
    Unconscious,
    /// Stunned.
    Stunned,
    /// No reaction left this round (ING-R30).
    NoReaction,
    /// Not enough stamina (ING-R32).
    NoStamina,
    /// Not enough focus (ING-R32).
    NoFocus,
    /// Surprised, with `surprised-can-react = false` (ING-R14).
    Surprised,
    /// The misfired attack was already rolled (`misfire-target-defends = false`).
    MisfireRolled,
    /// The action is not legal now (out of reach, no weapon...).
    NotLegal,
    /// Every defence the target could take against this attack is already taken.
    DefencesTaken,
    /// No defence can answer this attack (nothing in hand to parry with, no effect to resist).
    NoDefenceOpen,
}

impl AutoWhy {
    /// The reason, for the log.
    pub fn text(self) -> &'static str {
        match self {
            AutoWhy::Unconscious => "unconscious",
            AutoWhy::Stunned => "stunned",
            AutoWhy::NoReaction => "no reaction left this round",
            AutoWhy::NoStamina => "not enough stamina",
            AutoWhy::NoFocus => "not enough focus",
            AutoWhy::Surprised => "surprised (surprised-can-react = false)",
            AutoWhy::MisfireRolled => "the misfired attack was already rolled (misfire-target-defends = false)",
            AutoWhy::NotLegal => "it is not a legal action now",
            AutoWhy::DefencesTaken => "its defences against this attack are already taken",
            AutoWhy::NoDefenceOpen => "no defence it has answers this attack",
        }
    }
}

/// What resources something cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cost {
    /// Actions.
    pub actions: u8,
    /// Stamina.
    pub stamina: i16,
    /// Focus.
    pub focus: i16,
    /// A reaction (not a free one).
    pub reaction: bool,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// The team order (ING-R2 to ING-R4).
    OrderSet {
        /// Teams, slot 1 first.
        order: Vec<u8>,
    },
    /// A round starts.
    RoundStarted {
        /// Its number (0: the surprise round).
        round: u32,
        /// The surprise round.
        surprise: bool,
    },
    /// A team picked a member, whose turn starts (ING-R7).
    TurnStarted {
        /// Who.
        who: Cid,
    },
    /// A turn ended.
    TurnEnded {
        /// Whose.
        who: Cid,
        /// How.
        how: TurnEnd,
    },
    /// Resources spent.
    Paid {
        /// Who.
        who: Cid,
        /// What.
        cost: Cost,
    },
    /// An action was started that costs more than what was left (ING-R34).
    ExtendedStarted {
        /// Who.
        who: Cid,
        /// What.
        action: Ext,
        /// Its whole cost.
        cost: u8,
        /// Actions still owed.
        owed: u8,
    },
    /// Actions paid toward the extended action in progress.
    ExtendedContinued {
        /// Who.
        who: Cid,
        /// Paid now.
        paid: u8,
        /// Still owed.
        owed: u8,
    },
    /// The extended action in progress was dropped (ING-R35, ING-H17).
    ExtendedAbandoned {
        /// Who.
        who: Cid,
        /// Actions given back (the `refund-abandoned` option).
        refund: u8,
    },
    /// One step of movement.
    Moved {
        /// Who.
        who: Cid,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
        /// Metres it counted.
        metres: u8,
    },
    /// A move action, step or sprint was declared.
    MoveBegun {
        /// Who.
        who: Cid,
        /// What kind (`move`, `step`, `sprint`, `dodge-step`, `ready-move`).
        kind: String,
    },
    /// Two characters swapped squares (Intercept, ING-H21).
    Swapped {
        /// The interceptor.
        a: Cid,
        /// The ally.
        b: Cid,
    },
    /// A condition begins or ends.
    Condition {
        /// Who.
        who: Cid,
        /// Which.
        cond: Cond,
        /// On or off.
        on: bool,
        /// It ends when the character's next turn ends.
        until_turn_end: bool,
    },
    /// What is held changed (Brandish, ING-R19).
    Held {
        /// Who.
        who: Cid,
        /// Slots now in hand.
        slots: Vec<u8>,
    },
    /// An item was dropped (a free action, ING-R29).
    Dropped {
        /// Who.
        who: Cid,
        /// The slot.
        slot: u8,
    },
    /// A thrown weapon left the thrower's hand and lies where it landed.
    Thrown {
        /// Who threw it.
        who: Cid,
        /// The slot.
        slot: u8,
        /// Where it lies.
        to: Pos,
    },
    /// An item was picked up from the ground (Interact).
    PickedUp {
        /// Who.
        who: Cid,
        /// Index into the ground list.
        index: u16,
    },
    /// An item's loaded state changed.
    Loaded {
        /// Who.
        who: Cid,
        /// The slot.
        slot: u8,
        /// Loaded now.
        loaded: bool,
    },
    /// An attack is declared (ING-R37).
    AttackDeclared {
        /// Attacker.
        attacker: Cid,
        /// Target.
        target: Cid,
        /// Item slot.
        slot: u8,
        /// Attribute.
        attr: Attr,
        /// Proficiency.
        prof: Option<String>,
        /// Multiple attack penalty (negative).
        penalty: i16,
        /// Older properties' bonus.
        bonus: i16,
    },
    /// An ally took the target's place (ING-R33).
    Intercepted {
        /// The interceptor (the new target).
        who: Cid,
        /// The ally.
        ally: Cid,
    },
    /// A defensive reaction was taken.
    Defended {
        /// Who.
        who: Cid,
        /// Which.
        kind: DefenceKind,
        /// The test, if it rolls one.
        roll: Option<TestRoll>,
        /// The item slot (parry, block).
        slot: Option<u8>,
        /// Taken as a free reaction.
        free: bool,
    },
    /// The attack roll (ING-R37 to ING-R40).
    AttackRolled {
        /// Attacker.
        attacker: Cid,
        /// The test.
        roll: TestRoll,
        /// Net advantage (negative: disadvantage).
        advantage: i8,
        /// Why (sneak, flanking, prone, cover...).
        reasons: Vec<String>,
    },
    /// A misfire sends the attack to another character (ING-R39).
    Misfired {
        /// The new target.
        target: Cid,
        /// The die that chose it (1..=candidates), if there was a choice.
        pick: Option<u16>,
        /// How many characters could be hit.
        candidates: u8,
    },
    /// Hit or miss.
    AttackResult {
        /// Attacker.
        attacker: Cid,
        /// Target.
        target: Cid,
        /// The evasion it had to meet.
        evasion: i16,
        /// Hit.
        hit: bool,
        /// Critical.
        crit: bool,
    },
    /// A block (ING-R51, ING-R52).
    Blocked {
        /// Who.
        who: Cid,
        /// The item slot.
        slot: u8,
        /// Damage dealt to the item.
        to_item: i16,
        /// Damage that goes through to the blocker.
        overflow: i16,
    },
    /// An item lost durability.
    ItemDamaged {
        /// Whose.
        who: Cid,
        /// Slot.
        slot: u8,
        /// Amount.
        amount: i16,
    },
    /// Damage taken (ING-R41, ING-R42).
    Damaged {
        /// Who.
        who: Cid,
        /// After reduction.
        amount: i16,
        /// Taken from endurance.
        endurance: i16,
        /// Taken from health.
        health: i16,
        /// What reduced it, for the log.
        reduced_by: i16,
        /// Nonlethal source.
        nonlethal: bool,
    },
    /// The consciousness fortify (ING-R60).
    Fortified {
        /// Who.
        who: Cid,
        /// The difficulty (missing health).
        difficulty: i16,
        /// The test.
        roll: TestRoll,
        /// Its result against the difficulty (max with constitution).
        result: i16,
        /// Stayed conscious.
        stayed: bool,
    },
    /// Fell unconscious.
    KnockedOut {
        /// Who.
        who: Cid,
    },
    /// Woke up (Resuscitate, a ruling).
    Revived {
        /// Who.
        who: Cid,
    },
    /// A death check (ING-R62).
    DeathCheck {
        /// Who.
        who: Cid,
        /// The luck die.
        luck: u16,
        /// With modifiers.
        total: i16,
        /// The difficulty.
        difficulty: i16,
        /// Survived.
        survived: bool,
    },
    /// Zero health from a nonlethal source: no death check now (ING-R63).
    SparedByNonlethal {
        /// Who.
        who: Cid,
    },
    /// Died.
    Died {
        /// Who.
        who: Cid,
    },
    /// An on-hit effect was resisted or took hold.
    EffectTested {
        /// Who.
        who: Cid,
        /// The condition.
        cond: Cond,
        /// The difficulty.
        difficulty: i16,
        /// The defence it met or missed.
        defence: i16,
        /// Resisted.
        resisted: bool,
    },
    /// A test (Resuscitate, a task, a killing strike).
    Tested {
        /// Who.
        who: Cid,
        /// What for.
        what: String,
        /// The test.
        roll: TestRoll,
        /// Against.
        difficulty: i16,
        /// Succeeded.
        success: bool,
    },
    /// An action was readied (ING-R24).
    ReadySet {
        /// Who.
        who: Cid,
        /// What.
        readied: Readied,
    },
    /// A readied action fired or ran out.
    ReadyUsed {
        /// Who.
        who: Cid,
        /// Fired (true) or expired (false).
        fired: bool,
    },
    /// An ally was given an action (ING-R20).
    Commanded {
        /// Who commands.
        commander: Cid,
        /// The ally.
        ally: Cid,
    },
    /// An action given by Command is owed from the ally's next turn (ING-H14 alternative).
    Owed {
        /// The ally.
        who: Cid,
    },
    /// The owed actions were taken from this turn.
    OwedPaid {
        /// Who.
        who: Cid,
    },
    /// Interact: a narrative action the GM adjudicates.
    Interacted {
        /// Who.
        who: Cid,
        /// What.
        what: String,
    },
    /// A GM ruling changed a number.
    Set {
        /// Who.
        who: Cid,
        /// What (`health`, `endurance`, `stamina`, `focus`, `death-difficulty`, `durability:<slot>`).
        what: String,
        /// The new value.
        value: i16,
    },
    /// A GM ruling moved a combatant.
    Placed {
        /// Who.
        who: Cid,
        /// Where.
        to: Pos,
    },
    /// A combatant joined mid-combat.
    Joined {
        /// The new combatant's data.
        info: Box<CharInfo>,
        /// Its team is new and takes this slot index.
        slot: Option<u8>,
    },
    /// A combatant left the fight.
    Removed {
        /// Who.
        who: Cid,
    },
    /// A team's objective was replaced (now or when the next round starts).
    ObjectiveSet {
        /// Which team.
        team: u8,
        /// The new objective.
        objective: Option<Objective>,
        /// Waits for the next round.
        deferred: bool,
    },
    /// The GM reordered the teams from the next round.
    OrderChanged {
        /// The new order.
        order: Vec<u8>,
    },
    /// The opening action was taken or could not be (ING-R69).
    OpeningDone,
    /// A step the rules took by themselves, and why (nobody was asked).
    Automatic {
        /// Who it concerns.
        who: Cid,
        /// What happened.
        step: AutoStep,
        /// Why nobody was asked.
        why: AutoWhy,
    },
    /// The combat ended.
    Ended {
        /// How.
        outcome: Outcome,
    },
    /// A frame was pushed (bookkeeping, not shown in logs).
    Push {
        /// The frame.
        frame: Box<Frame>,
    },
    /// The top frame was replaced (bookkeeping).
    Update {
        /// The new top frame.
        frame: Box<Frame>,
    },
    /// The frame at a stack index (bottom = 0) was replaced (bookkeeping; the kit's
    /// [`FrameOp::Set`], which Ingenuity's own resolution does not use).
    SetFrame {
        /// The stack index.
        index: usize,
        /// The new frame.
        frame: Box<Frame>,
    },
    /// The top frame was removed (bookkeeping).
    Pop,
}

fn bit(c: Cid) -> u64 {
    1u64 << (c as u64 % 64)
}

/// Applies an event: the only function that changes a state.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::OrderSet { order } => {
            let team_of = s.setup.chars.iter().map(|c| c.team).collect();
            s.order = fray_engine::teams::TeamOrder::new(order.clone(), team_of);
        }
        Event::RoundStarted { round, surprise } => {
            s.round = *round;
            s.phase = if *surprise { Phase::Surprise } else { Phase::Rounds };
            s.order.start_round();
            for c in &mut s.chars {
                c.attacks_round = 0;
                c.attacks_own = 0;
            }
            if !*surprise {
                for (team, obj) in std::mem::take(&mut s.pending_objectives) {
                    if let Some(o) = s.objectives.get_mut(team as usize) {
                        *o = obj;
                    }
                }
                if let Some(order) = s.pending_order.take() {
                    s.order.set_slots(order);
                }
            }
        }
        Event::TurnStarted { who } => {
            s.last_auto.clear();
            let opening = !s.opening_done && s.setup.opening.as_ref().is_some_and(|o| o.who == *who);
            s.turn = Some(Turn { who: *who, opening });
            let c = &mut s.chars[*who as usize];
            // ING-R18: each turn starts with three actions.
            c.econ
                .start_turn(crate::state::ACTIONS_PER_TURN, crate::state::REACTIONS_PER_ROUND);
            c.moved = false;
            c.stepped = false;
            c.sprints = 0;
            c.commanded = 0;
            c.hit_mask = 0;
            c.attacked_mask = 0;
            c.missed_with = None;
            c.swings.iter_mut().for_each(|x| *x = 0);
            c.ext_settled = c.econ.extended.is_none();
            // Guard, Seek Cover and a readied action last until the next turn (ING-R21,
            // ING-R24, ING-R26).
            c.conds &= !(Cond::Guarding.bit() | Cond::Cover.bit());
            c.ready = None;
            if s.options.reaction_refresh == crate::options::ReactionRefresh::EveryTurn {
                for (i, o) in s.chars.iter_mut().enumerate() {
                    if i != *who as usize {
                        o.econ.reactions_used = 0;
                        o.econ.reaction_cap = o.econ.reaction_cap.max(crate::state::REACTIONS_PER_ROUND);
                    }
                }
            }
        }
        Event::TurnEnded { who, how } => {
            s.order.took_turn(*who);
            let extra = s.options.wait_extra_reactions;
            let c = &mut s.chars[*who as usize];
            c.econ.end_turn();
            // Wait: extra reactions until the next turn (ING-R28, ING-H16).
            if *how == TurnEnd::Wait {
                c.econ.extra_reaction(extra);
            }
            c.conds &= !c.conds_until_turn;
            c.conds_until_turn = 0;
            if s.turn.as_ref().is_some_and(|t| t.who == *who) {
                s.turn = None;
            }
        }
        Event::Paid { who, cost } => {
            let c = &mut s.chars[*who as usize];
            c.econ.spend(cost.actions);
            c.stamina -= cost.stamina;
            c.focus -= cost.focus;
            if cost.reaction {
                c.econ.use_reaction(false);
            }
        }
        Event::ExtendedStarted {
            who,
            action,
            owed,
            cost,
        } => {
            let c = &mut s.chars[*who as usize];
            c.econ.actions = 0;
            c.econ.extended = Some(fray_engine::economy::Extended {
                action: action.clone(),
                cost: *cost,
                owed: *owed,
            });
            c.ext_settled = true;
        }
        Event::ExtendedContinued { who, paid, owed } => {
            let c = &mut s.chars[*who as usize];
            c.econ.spend(*paid);
            c.ext_settled = true;
            if *owed == 0 {
                c.econ.extended = None;
            } else if let Some(x) = &mut c.econ.extended {
                x.owed = *owed;
            }
        }
        Event::ExtendedAbandoned { who, refund } => {
            let c = &mut s.chars[*who as usize];
            c.econ.extended = None;
            c.econ.actions = c.econ.actions.saturating_add(*refund);
            c.ext_settled = true;
        }
        Event::Moved { who, to, .. } => {
            let c = &mut s.chars[*who as usize];
            c.pos = Some(*to);
            // Seek Cover lasts while the character stays behind cover (ING-R26).
            c.conds &= !Cond::Cover.bit();
        }
        Event::MoveBegun { who, kind } => {
            let step_uses_move = s.options.step_uses_move;
            let c = &mut s.chars[*who as usize];
            match kind.as_str() {
                "move" => c.moved = true,
                "step" => {
                    c.stepped = true;
                    if step_uses_move {
                        c.moved = true;
                    }
                }
                "sprint" => c.sprints += 1,
                _ => {}
            }
        }
        Event::Swapped { a, b } => {
            let pa = s.chars[*a as usize].pos;
            let pb = s.chars[*b as usize].pos;
            s.chars[*a as usize].pos = pb;
            s.chars[*b as usize].pos = pa;
            s.chars[*a as usize].conds &= !Cond::Cover.bit();
            s.chars[*b as usize].conds &= !Cond::Cover.bit();
        }
        Event::Condition {
            who,
            cond,
            on,
            until_turn_end,
        } => {
            let lost = s.options.interrupted_extended == crate::options::InterruptedExtended::Lost;
            let c = &mut s.chars[*who as usize];
            // ING-H17: stunned, like knocked out, interrupts an extended action.
            if *on && *cond == Cond::Stunned && lost {
                c.econ.extended = None;
            }
            if *on {
                c.conds |= cond.bit();
                if *until_turn_end {
                    c.conds_until_turn |= cond.bit();
                } else {
                    c.conds_until_turn &= !cond.bit();
                }
            } else {
                c.conds &= !cond.bit();
                c.conds_until_turn &= !cond.bit();
            }
        }
        Event::Held { who, slots } => {
            let c = &mut s.chars[*who as usize];
            for (i, k) in c.items.iter_mut().enumerate() {
                k.held = slots.contains(&(i as u8));
            }
        }
        Event::Dropped { who, slot } => {
            let c = &mut s.chars[*who as usize];
            if (*slot as usize) < c.items.len() {
                let mut k = c.items.remove(*slot as usize);
                c.swings.remove(*slot as usize);
                k.held = false;
                if let Some(p) = c.pos {
                    s.ground.push((p, k));
                }
                let c = &mut s.chars[*who as usize];
                if let Some(m) = c.missed_with {
                    c.missed_with = match m.cmp(slot) {
                        std::cmp::Ordering::Less => Some(m),
                        std::cmp::Ordering::Equal => None,
                        std::cmp::Ordering::Greater => Some(m - 1),
                    };
                }
            }
        }
        Event::Thrown { who, slot, to } => {
            let c = &mut s.chars[*who as usize];
            if (*slot as usize) < c.items.len() {
                let mut k = c.items.remove(*slot as usize);
                c.swings.remove(*slot as usize);
                k.held = false;
                c.missed_with = match c.missed_with {
                    Some(m) if m == *slot => None,
                    Some(m) if m > *slot => Some(m - 1),
                    other => other,
                };
                s.ground.push((*to, k));
            }
        }
        Event::PickedUp { who, index } => {
            if (*index as usize) < s.ground.len() {
                let (_, mut k) = s.ground.remove(*index as usize);
                k.held = false;
                let c = &mut s.chars[*who as usize];
                c.items.push(k);
                c.swings.push(0);
            }
        }
        Event::Loaded { who, slot, loaded } => {
            if let Some(k) = s.chars[*who as usize].items.get_mut(*slot as usize) {
                k.loaded = *loaded;
            }
        }
        Event::AttackDeclared {
            attacker, target, slot, ..
        } => {
            let own = s.turn.as_ref().is_some_and(|t| t.who == *attacker);
            let c = &mut s.chars[*attacker as usize];
            c.attacks_round = c.attacks_round.saturating_add(1);
            if own {
                c.attacks_own = c.attacks_own.saturating_add(1);
            }
            c.attacked_mask |= bit(*target);
            if let Some(n) = c.swings.get_mut(*slot as usize) {
                *n = n.saturating_add(1);
            }
        }
        Event::Intercepted { .. } => {}
        // The reaction (unless free) was used by the `Paid` event before it: nothing to count
        // again here (a dodge after Wait must leave the second reaction, ING-R28).
        Event::Defended { .. } => {}
        Event::AttackRolled { .. } | Event::Misfired { .. } => {}
        Event::AttackResult {
            attacker, target, hit, ..
        } => {
            if let Some(Frame::Attack(a)) = s.stack.last() {
                let slot = a.slot;
                let c = &mut s.chars[*attacker as usize];
                if *hit {
                    c.hit_mask |= bit(*target);
                    if c.missed_with == Some(slot) {
                        c.missed_with = None;
                    }
                } else {
                    c.missed_with = Some(slot);
                }
            }
        }
        Event::Blocked { .. } => {}
        Event::ItemDamaged { who, slot, amount } => {
            if let Some(k) = s.chars[*who as usize].items.get_mut(*slot as usize) {
                k.durability = (k.durability - amount).max(0);
            }
        }
        Event::Damaged {
            who, endurance, health, ..
        } => {
            let c = &mut s.chars[*who as usize];
            c.endurance -= endurance;
            c.health -= health;
        }
        Event::Fortified { .. } => {}
        Event::KnockedOut { who } => {
            let c = &mut s.chars[*who as usize];
            c.unconscious = true;
            c.conds |= Cond::Prone.bit();
            c.ready = None;
            if s.options.interrupted_extended == crate::options::InterruptedExtended::Lost {
                c.econ.extended = None;
            }
        }
        Event::Revived { who } => {
            let c = &mut s.chars[*who as usize];
            c.unconscious = false;
            c.zero_nonlethal = false;
        }
        Event::DeathCheck {
            who,
            survived,
            difficulty,
            ..
        } => {
            let step = s.options.death_difficulty_step;
            let c = &mut s.chars[*who as usize];
            c.zero_nonlethal = false;
            if *survived {
                c.death_difficulty = difficulty + step;
            }
        }
        Event::SparedByNonlethal { who } => {
            s.chars[*who as usize].zero_nonlethal = true;
        }
        Event::Died { who } => {
            let c = &mut s.chars[*who as usize];
            c.dead = true;
            c.unconscious = true;
            c.ready = None;
            c.econ.extended = None;
        }
        Event::EffectTested { .. } => {}
        Event::Tested { .. } => {}
        Event::ReadySet { who, readied } => {
            s.chars[*who as usize].ready = Some(readied.clone());
        }
        Event::ReadyUsed { who, .. } => {
            s.chars[*who as usize].ready = None;
        }
        Event::Commanded { commander, ally } => {
            s.chars[*commander as usize].commanded |= bit(*ally);
        }
        Event::Interacted { .. } => {}
        Event::Owed { who } => {
            let c = &mut s.chars[*who as usize];
            c.owed = c.owed.saturating_add(1);
        }
        Event::OwedPaid { who } => s.chars[*who as usize].owed = 0,
        Event::Set { who, what, value } => {
            let c = &mut s.chars[*who as usize];
            match what.as_str() {
                "health" => c.health = *value,
                "endurance" => c.endurance = *value,
                "stamina" => c.stamina = *value,
                "focus" => c.focus = *value,
                "death-difficulty" => c.death_difficulty = *value,
                w => {
                    if let Some(slot) = w.strip_prefix("durability:").and_then(|x| x.parse::<usize>().ok())
                        && let Some(k) = c.items.get_mut(slot)
                    {
                        k.durability = *value;
                    }
                }
            }
        }
        Event::Placed { who, to } => {
            s.chars[*who as usize].pos = Some(*to);
        }
        Event::Joined { info, slot } => {
            let setup = Arc::make_mut(&mut s.setup);
            setup.chars.push((**info).clone());
            let team = info.team;
            let ch = Char::new(info, setup);
            s.chars.push(ch);
            if let Some(i) = slot {
                s.order.insert_team(team, *i as usize);
            }
            s.order.add_member(team);
        }
        Event::Removed { who } => {
            let c = &mut s.chars[*who as usize];
            c.out = true;
            c.ready = None;
        }
        Event::ObjectiveSet {
            team,
            objective,
            deferred,
        } => {
            if *deferred {
                s.pending_objectives.push((*team, objective.clone()));
            } else if let Some(o) = s.objectives.get_mut(*team as usize) {
                *o = objective.clone();
            }
        }
        Event::OrderChanged { order } => s.pending_order = Some(order.clone()),
        Event::Automatic { who, step, why } => {
            if s.last_auto.len() >= 8 {
                s.last_auto.remove(0);
            }
            s.last_auto.push((*who, *step, *why));
        }
        Event::OpeningDone => {
            s.opening_done = true;
            if let Some(t) = &mut s.turn {
                t.opening = false;
            }
        }
        Event::Ended { outcome } => {
            s.outcome = Some(outcome.clone());
            s.stack.clear();
        }
        Event::Push { frame } => apply_frame_op(&mut s.stack, FrameOp::Push(&**frame)),
        Event::Update { frame } => apply_frame_op(&mut s.stack, FrameOp::Update(&**frame)),
        Event::SetFrame { index, frame } => apply_frame_op(&mut s.stack, FrameOp::Set(*index, &**frame)),
        Event::Pop => apply_frame_op(&mut s.stack, FrameOp::Pop),
    }
}

/// The resolution stack (attacks, readied-action windows, the consciousness fortify, the
/// options after a dodge, walks) lives in `State::stack` and changes by Ingenuity's own frame
/// events.
impl Frames for Ingenuity {
    type Frame = Frame;

    fn frames(s: &State) -> &[Frame] {
        &s.stack
    }

    fn frame_event(op: FrameOp<Frame>) -> Event {
        match op {
            FrameOp::Push(f) => Event::Push { frame: Box::new(f) },
            FrameOp::Update(f) => Event::Update { frame: Box::new(f) },
            FrameOp::Set(index, f) => Event::SetFrame {
                index,
                frame: Box::new(f),
            },
            FrameOp::Pop => Event::Pop,
        }
    }
}

/// The ground items next to or under a square.
pub fn ground_near(s: &State, p: Pos) -> impl Iterator<Item = (usize, &Carried)> {
    s.ground
        .iter()
        .enumerate()
        .filter(move |(_, (q, _))| fray_space::chebyshev(*q, p) <= 1)
        .map(|(i, (_, k))| (i, k))
}
