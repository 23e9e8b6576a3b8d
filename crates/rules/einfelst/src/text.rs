//! The text layer (`TextRuleset`): encounters in, commands as text, log lines, the pending
//! decision, the summary, the zone map, the tracker, odds. Nothing is hidden in Einfelst Wilds
//! (initiative cards are open, EIN-R45), so every seat sees the same.

use crate::command::{self, Command, PushTo};
use crate::options::ArmourMode;
use crate::setup::Cid;
use crate::state::{AttackKind, Char, Event, Frame, RoundStage, State, Status, Why};
use crate::zones::MapExt;
use crate::{Einfelst, ai, codes, odds, setup};
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::gm::Ruling;
use fray_engine::kit::text::Names;
use fray_engine::resolve::FrameOp;
use fray_engine::text::{Lasting, Loaded, ReadFile, Rest, TextRuleset};
use fray_engine::view::{CombatantView, Gauge, Place, Status as ViewStatus, Table};
use fray_engine::{Pending, Policy, Reject, Seat};
use std::fmt::Write;

fn plural(n: u8, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// What a roll is for, as the end of "X rolls N dice ...".
fn why_word(w: Why) -> &'static str {
    match w {
        Why::Attack => "to attack",
        Why::Defence => "to defend",
        Why::Ambush => "to ambush",
        Why::Spot => "to watch for an ambush",
        Why::Flee => "to flee",
        Why::Chase => "to give chase",
        Why::BreakFree => "to break free",
        Why::Hold => "to hold on",
        Why::Fear => "for a Fear test",
        Why::Fire => "to endure the fire",
        Why::Extinguish => "to put out the fire",
        Why::Poison => "to resist the poison",
        Why::Toxin => "for the poison",
        Why::Fall => "to break the fall",
        Why::Impact => "for the fall",
        Why::Deprivation => "to endure hunger and fatigue",
        Why::Obstacle => "to cross the obstacle",
        Why::Clear => "to clear the way",
        Why::Armour => "for armour",
        Why::Other => "for a test",
    }
}

/// The faces of a roll, as `[6, 2, 1]`.
fn faces_text(faces: &fray_dice::Faces) -> String {
    let f: Vec<String> = faces.iter().map(|x| x.to_string()).collect();
    format!("[{}]", f.join(", "))
}

/// Harm levels in words: `[2, 1]` is "1 moderate, 1 lesser".
fn levels_text(parts: &[u8]) -> String {
    let mut out = Vec::new();
    for (level, word) in [(3, "severe"), (2, "moderate"), (1, "lesser")] {
        let n = parts.iter().filter(|&&p| p == level).count();
        if n > 0 {
            out.push(format!("{n} {word}"));
        }
    }
    out.join(", ")
}

/// A creature's Harm in a few words.
pub fn harm_text(s: &State, c: &Char) -> String {
    let block = &s.blocks[c.block as usize];
    let h = &c.harm;
    if let Some(cap) = block.harm_points {
        return format!("Harm points {}/{cap}", h.points);
    }
    let row = |r: &[u8; 3]| format!("{}/{}/{}", r[0], r[1], r[2]);
    format!("Physical {} Mental {}", row(&h.physical), row(&h.mental))
}

/// Every critical injury a creature has: those it brought from earlier fights, then the one it
/// took in this fight (EIN-H22).
pub fn critical_injuries(c: &Char) -> Vec<String> {
    let mut all = c.scars.clone();
    if let Some(roll) = c.injury {
        let table = crate::data::critical_injuries();
        all.extend(table.get((roll as usize).saturating_sub(1)).cloned());
    }
    all
}

fn status_text(c: &Char) -> &'static str {
    match c.status {
        Status::Fighting => "",
        Status::Incapacitated => ", incapacitated",
        Status::Broken => ", broken (a critical injury)",
        Status::Fled => ", fled",
        Status::Removed => ", removed",
    }
}

/// What the rest `treatment` restores: every Harm row ([`setup::ROW_KEYS`]) and Harm points.
const TREATMENT: [&str; setup::ROW_KEYS.len() + 1] = {
    let mut keys = ["harm-points"; setup::ROW_KEYS.len() + 1];
    let mut i = 0;
    while i < setup::ROW_KEYS.len() {
        keys[i] = setup::ROW_KEYS[i];
        i += 1;
    }
    keys
};

impl TextRuleset for Einfelst {
    const EVENT_COMBATANTS: &'static [&'static str] = &[
        "who",
        "by",
        "target",
        "beside",
        "holder",
        "held_by",
        "pair",
        "swapped/a",
        "swapped/b",
    ];

    const REJECTION_CODES: &'static [&'static str] = codes::ALL;

    // No command of this ruleset has an optional phrase of two words (a flight's way is a
    // plain zone word, `flee finesse ford`), so OPTION_WORDS stays empty.

    /// The ways to spend an attack's extra successes that stand alone (`spend mental disarm`);
    /// `swap=<card>` and `push=<zone>` are one word each and stay in the command's core.
    const FLAG_WORDS: &'static [&'static str] = &["mental", "disarm", "pin", "silence"];

    /// What the prompt leaves out of its list.
    const PROMPT_HIDES_WHAT: &'static str = "closing in on a creature that is not a foe";

    /// Closing in on a creature that is no foe: legal, but being beside a creature only counts
    /// for a close-combat attack on it (EIN-R12), and attacks on allies are not legal at all
    /// (besides, it only takes the creature out of cover or from far off), so a person rarely
    /// means it; the prompt lists it only under `choices all`.
    fn prompt_hides(s: &State, c: &Command) -> bool {
        match (c, s.turn) {
            (Command::Close(x), Some(t)) => (*x as usize) < s.chars.len() && !s.foes(t.who, *x),
            _ => false,
        }
    }

    /// The rests between fights: fray's own, since the healing rules are on a page of the game
    /// the rules fray follows do not give. Critical injuries are permanent (EIN-H22): no rest
    /// takes them away.
    const RESTS: &'static [Rest] = &[
        Rest {
            word: "rest",
            what: "a night's rest: lesser Harm heals, Physical and Mental, and Harm points are gone (fray's own)",
            restores: &["physical-lesser", "mental-lesser", "harm-points"],
        },
        Rest {
            word: "treatment",
            what: "care and time to heal: every Harm row is cleared, and Harm points (fray's own; critical injuries stay, EIN-H22)",
            restores: &TREATMENT,
        },
    ];

    /// What outlasts a fight, for every player character: the marks on its Harm rows (or its
    /// Harm points), which only healing clears (EIN-R34, EIN-R24, EIN-H13), and its critical
    /// injuries, which nothing does (EIN-H22).
    fn lasting(s: &State) -> Vec<Lasting> {
        s.chars
            .iter()
            .filter(|c| c.pc)
            .map(|c| {
                let mut values: Vec<(String, String)> = match s.blocks[c.block as usize].harm_points {
                    Some(_) => vec![("harm-points".into(), c.harm.points.to_string())],
                    None => setup::ROW_KEYS
                        .iter()
                        .zip(c.harm.physical.iter().chain(&c.harm.mental))
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect(),
                };
                let injuries = critical_injuries(c);
                if !injuries.is_empty() {
                    let texts: Vec<String> = injuries
                        .iter()
                        .map(|i| toml::Value::String(i.clone()).to_string())
                        .collect();
                    values.push(("critical-injuries".into(), format!("[{}]", texts.join(", "))));
                }
                Lasting {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    values,
                }
            })
            .collect()
    }

    fn load(source: &SourceFile, _: &mut ReadFile<'_>) -> Result<Loaded<Self>, Vec<Diagnostic>> {
        let (setup, options) = setup::load(source)?;
        let title = setup.title.clone();
        Ok(Loaded { setup, options, title })
    }

    fn parse_command(s: &State, text: &str) -> Result<Command, Reject> {
        command::parse(s, text)
    }

    fn format_command(s: &State, c: &Command) -> String {
        command::format(s, c)
    }

    fn describe_event(s: &State, e: &Event) -> Option<String> {
        let name = |w: &Cid| s.chars.get(*w as usize).map_or("?", |c| c.name.as_str());
        let zone = |z: fray_space::ZoneId| s.setup.zones.zone(z).map_or("?", |x| x.display_name()).to_string();
        Some(match e {
            Event::Ambushed {
                extra_card_side, bonus, ..
            } => {
                let side = |i: &u8| s.setup.sides.get(*i as usize).map_or("?", |x| x.name.as_str());
                let amb = s.setup.ambush.as_ref().map_or(0, |a| a.side);
                match extra_card_side {
                    Some(x) if *x == amb && *bonus > 0 => format!(
                        "Ambush! {} strike unseen: an extra card each, and +{} on their first manoeuvre",
                        side(x),
                        plural(*bonus, "die", "dice")
                    ),
                    Some(x) if *x == amb => format!("Ambush! {} strike unseen: an extra card each", side(x)),
                    Some(x) => format!("The ambush is spotted: {} draw an extra card each", side(x)),
                    None => "The ambush comes to nothing".into(),
                }
            }
            Event::Drew { who, card } => format!("{} draws card {card}", name(who)),
            Event::Kept { who, card, back } => match back {
                Some(b) => format!("{} keeps card {card} and puts {b} back", name(who)),
                None => {
                    let g = s.ch(*who).group.and_then(|g| s.groups.get(g as usize));
                    match g {
                        Some(g) => format!("{} holds card {card} for the group '{g}'", name(who)),
                        None => return None,
                    }
                }
            },
            Event::NewDeck => "The first deck is used up: a second deck is shuffled in".into(),
            Event::SetupDone => return None,
            Event::RoundStarted { round } => format!("Round {round}"),
            Event::Staged { .. } => "Player characters may swap cards (trade <a> <b>, then ready)".into(),
            Event::Ticked { .. } => return None,
            Event::Proposed { seat, pair } => format!(
                "{} agrees to swap {}'s and {}'s cards{}",
                s.seat_name(Seat(*seat)),
                name(&pair.0),
                name(&pair.1),
                // EIN-R5: a swap of two players' characters waits for both seats.
                match awaiting(s, *pair).as_slice() {
                    [] => String::new(),
                    w => format!(" (waiting for {})", w.join(" and ")),
                }
            ),
            Event::Ready { .. } => return None,
            Event::Swapped {
                a,
                card_a,
                b,
                card_b,
                forced,
            } => format!(
                "{} and {} swap cards: {} now holds {card_b} and {} holds {card_a}{}",
                name(a),
                name(b),
                name(a),
                name(b),
                if *forced
                    && s.stage == RoundStage::Turns
                    && s.options.forced_swap_timing == crate::options::SwapTiming::NextRound
                {
                    " (the order changes from the next round)"
                } else {
                    ""
                }
            ),
            Event::Ordered => {
                let card = |key: i32| crate::state::Card {
                    value: (key / 8) as u8,
                    deck: ((key / 2) % 4) as u8,
                };
                let picks = s.options.group_order == crate::options::GroupOrder::Director;
                let mut order: Vec<String> = Vec::new();
                let slots: Vec<_> = s.order.slots().iter().filter(|x| x.active).collect();
                let mut i = 0;
                while i < slots.len() {
                    let x = slots[i];
                    let c = s.ch(x.who);
                    // EIN-R2: a group on its card, in the order its seat picks as they go.
                    let n = slots[i..]
                        .iter()
                        .take_while(|y| y.key == x.key && s.ch(y.who).group == c.group && s.ch(y.who).shares)
                        .count();
                    if picks && c.shares && n >= 2 {
                        let names: Vec<&str> = slots[i..i + n].iter().map(|y| name(&y.who)).collect();
                        let g = c
                            .group
                            .and_then(|g| s.groups.get(g as usize))
                            .map_or("?", String::as_str);
                        order.push(format!(
                            "{} the group '{g}' ({}, in the order its seat picks)",
                            card(x.key),
                            names.join(", ")
                        ));
                        i += n;
                    } else {
                        order.push(format!("{} {}", card(x.key), name(&x.who)));
                        i += 1;
                    }
                }
                format!("Order: {}", order.join(", "))
            }
            Event::TurnStarted { who, .. } => format!("{}'s turn", name(who)),
            // The turn's line names who the group's seat sent.
            Event::GroupTurn { .. } => return None,
            Event::Cleared { who, a, b } => {
                let label = s
                    .setup
                    .zones
                    .obstacle(*a, *b)
                    .map_or("obstacle".into(), crate::check::label_text);
                format!(
                    "{} clears the {label} away: the way between {} and {} is open to everyone",
                    name(who),
                    zone(*a),
                    zone(*b)
                )
            }
            Event::Spent { .. }
            | Event::Frame(FrameOp::Update(_))
            | Event::Frame(FrameOp::Pop)
            | Event::Frame(FrameOp::Set(..)) => {
                return None;
            }
            Event::Placed {
                who,
                zone: z,
                far,
                cover,
                beside,
            } => match (beside, cover, far) {
                (Some(b), ..) => format!("{} closes in on {}", name(who), name(b)),
                (None, true, _) => format!("{} takes cover", name(who)),
                (None, false, true) => format!("{} moves to a far part of {}", name(who), zone(*z)),
                _ => format!("{} is now in {}", name(who), zone(*z)),
            },
            Event::Frame(FrameOp::Push(f)) => match f {
                Frame::Attack(a) => {
                    let weapon = a.weapon.and_then(|w| s.weapon(w));
                    let with = weapon.map_or(String::new(), |w| format!(" with the {}", w.name));
                    let how = match a.kind {
                        AttackKind::Strike if weapon.is_some_and(|w| w.natural()) => format!(
                            "attacks {} with its {}",
                            name(&a.target),
                            weapon.map_or("?", |w| w.name.as_str())
                        ),
                        AttackKind::Strike => format!("strikes at {}{with}", name(&a.target)),
                        AttackKind::Shoot if weapon.is_some_and(|w| w.kind == crate::data::WeaponKind::Thrown) => {
                            format!(
                                "throws the {} at {}",
                                weapon.map_or("?", |w| w.name.as_str()),
                                name(&a.target)
                            )
                        }
                        AttackKind::Shoot => format!("shoots at {}{with}", name(&a.target)),
                        AttackKind::Unarmed => format!("throws a punch at {}", name(&a.target)),
                        AttackKind::Grapple => format!("grapples {}", name(&a.target)),
                        AttackKind::Shove(PushTo::Down) => format!("tries to knock {} down", name(&a.target)),
                        AttackKind::Shove(_) => format!("tries to shove {}", name(&a.target)),
                        AttackKind::Cast(i) => format!(
                            "casts {} at {}",
                            s.setup.spells.values().nth(i as usize).map_or("?", |x| x.name.as_str()),
                            name(&a.target)
                        ),
                    };
                    let extra = if a.need > 1 {
                        format!(" (needs {} successes)", a.need)
                    } else {
                        String::new()
                    };
                    format!("{} {how}{extra}", name(&a.by))
                }
                Frame::Flee(fl) => match fl.toward {
                    // EIN-R32, EIN-R33: where it flees, before anyone chooses to chase.
                    Some(z) => format!(
                        "{} tries to flee ({}) by way of {}",
                        name(&fl.who),
                        fl.action.word(),
                        zone(z)
                    ),
                    None if s.setup.zones.is_exit(s.ch(fl.who).zone) => format!(
                        "{} tries to flee ({}) from {}, a way out",
                        name(&fl.who),
                        fl.action.word(),
                        zone(s.ch(fl.who).zone)
                    ),
                    None => format!("{} tries to flee ({}) the fight", name(&fl.who), fl.action.word()),
                },
                Frame::Break(b) => format!("{} tries to break free of {}", name(&b.who), name(&b.holder)),
                Frame::Split(sp) => format!(
                    "{} must mark {} {} Harm",
                    name(&sp.who),
                    sp.amount,
                    if sp.mental { "Mental" } else { "Physical" }
                ),
                Frame::Keep(k) => format!("{} draws {} and {}: one to keep", name(&k.who), k.drawn[0], k.drawn[1]),
                Frame::Push(_) => return None,
            },
            Event::Tested {
                who,
                why,
                action,
                pool,
                successes,
                need,
                faces,
            } => {
                let roller = who.map_or("The Director", |w| name(&w)).to_string();
                let act = action.map_or(String::new(), |a| format!(" ({})", a.word()));
                let needs = if *need > 1 {
                    format!(", needs {need}")
                } else {
                    String::new()
                };
                let shown = if faces.is_empty() {
                    String::new()
                } else {
                    format!(" {}", faces_text(faces))
                };
                // A defence names the reaction it rolls for (EIN-R25, EIN-R27).
                let what = match (why, s.frames.last()) {
                    (Why::Defence, Some(Frame::Attack(a))) => match a.defence {
                        Some(crate::state::Defence::Dodge) => "to dodge",
                        Some(crate::state::Defence::Parry) => "to parry",
                        Some(crate::state::Defence::BreakFree) => "to break free",
                        Some(crate::state::Defence::Resist) => "to resist the spell",
                        _ => why_word(*why),
                    },
                    _ => why_word(*why),
                };
                format!(
                    "{roller} rolls {}{act} {what}{shown}: {}{needs}",
                    plural(*pool, "die", "dice"),
                    plural(*successes, "success", "successes")
                )
            }
            Event::AttackResult { target, net, hit, .. } => {
                let kind = match s.frames.last() {
                    Some(Frame::Attack(a)) => Some(a.kind),
                    _ => None,
                };
                match (kind, hit) {
                    (Some(AttackKind::Grapple), true) => format!("{} is caught", name(target)),
                    (Some(AttackKind::Grapple), false) => format!("{} slips the grapple", name(target)),
                    (Some(AttackKind::Shove(_)), true) => format!("The shove moves {}", name(target)),
                    (Some(AttackKind::Shove(_)), false) => format!("{} stands firm", name(target)),
                    (_, true) => {
                        let need = match s.frames.last() {
                            Some(Frame::Attack(a)) => a.need,
                            _ => 1,
                        };
                        match net.saturating_sub(need) {
                            0 => format!("Hit on {}", name(target)),
                            n => format!(
                                "Hit on {}, with {} to spend",
                                name(target),
                                plural(n, "extra success", "extra successes")
                            ),
                        }
                    }
                    (_, false) => format!("Miss: {} is not hit", name(target)),
                }
            }
            Event::Harmed {
                who,
                mental,
                parts,
                points,
            } => {
                let c = s.ch(*who);
                let what = if *points > 0 {
                    plural(*points, "Harm point", "Harm points")
                } else {
                    let sum: u32 = parts.iter().map(|&p| u32::from(p)).sum();
                    format!(
                        "{sum} {} Harm ({})",
                        if *mental { "Mental" } else { "Physical" },
                        levels_text(parts)
                    )
                };
                format!("{} takes {what}: {}{}", c.name, harm_text(s, c), status_text(c))
            }
            Event::Armoured { who, cancelled } => format!("{}'s armour stops {cancelled} Harm", name(who)),
            Event::Restrained { who, by, silenced } => format!(
                "{} is restrained by {}{}",
                name(who),
                name(by),
                if *silenced { ", a hand over its mouth" } else { "" }
            ),
            Event::Freed { who } => format!("{} is free", name(who)),
            Event::StillHeld { who } => format!("{} is still held", name(who)),
            Event::Ignited { who, intensity } => format!("{} catches fire (intensity {intensity})", name(who)),
            Event::Doused { who, saved, out } => match out {
                true => format!("{} puts out the fire", name(who)),
                false => {
                    let need = s
                        .ch(*who)
                        .fire
                        .map_or(0, |f| s.options.fire_extinguish[(f.intensity.clamp(1, 3) - 1) as usize]);
                    format!(
                        "{} keeps at the fire: {saved} of the {need} successes it takes",
                        name(who)
                    )
                }
            },
            Event::Poisoned { who, next, .. } => match next {
                0 => return None,
                n => format!("The poison will deal {n} more Harm to {} next round", name(who)),
            },
            Event::Bonus { who, dice } => format!(
                "{} keeps its nerve: +{} on its next test",
                name(who),
                plural(*dice, "die", "dice")
            ),
            Event::BonusUsed { .. } | Event::AmbushUsed { .. } => return None,
            Event::Wielded { who, weapon } => match weapon.and_then(|w| s.weapon(w)) {
                Some(w) if w.natural() => format!("{} fights with its {}", name(who), w.name),
                Some(w) => format!("{} takes the {} in hand", name(who), w.name),
                None => format!("{} puts the weapon away and fights unarmed", name(who)),
            },
            Event::Dropped { who, weapon, zone: z } => format!(
                "{}'s {} lands in {}",
                name(who),
                s.weapon(*weapon).map_or("weapon", |w| w.name.as_str()),
                zone(*z)
            ),
            Event::PickedUp { who, weapon } => format!(
                "{} picks up a {}",
                name(who),
                s.weapon(*weapon).map_or("weapon", |w| w.name.as_str())
            ),
            Event::Pinned { who, on } => match on {
                true => format!(
                    "{} is pinned down: entering another zone before its next turn is over costs 1 Harm",
                    name(who)
                ),
                false => return None,
            },
            Event::Prone { who, on } => match on {
                true => format!("{} is down", name(who)),
                false => format!("{} stands up", name(who)),
            },
            Event::TriedBreak { .. } => return None,
            Event::Fled { who } => format!("{} escapes from the fight", name(who)),
            Event::FleeFailed { who, caught } => match caught {
                true => format!("{} is caught", name(who)),
                false => format!("{} fails to get away", name(who)),
            },
            Event::Injured { who, roll } => {
                let table = crate::data::critical_injuries();
                let what = table
                    .get((*roll as usize).saturating_sub(1))
                    .map_or("?", String::as_str);
                format!("{} is broken: d6 {roll}, {what}", name(who))
            }
            Event::Pushed {
                who,
                dice,
                successes,
                faces,
            } => format!(
                "{} pushes the roll: {} again{}, {} more",
                name(who),
                plural(*dice, "die", "dice"),
                if faces.is_empty() {
                    String::new()
                } else {
                    format!(" {}", faces_text(faces))
                },
                plural(*successes, "success", "successes")
            ),
            Event::Chasing { who, action } => format!("{} gives chase ({})", name(who), action.word()),
            Event::Quick { who, shout } => match shout {
                true => format!("{} shouts", name(who)),
                false => format!("{} does something quick", name(who)),
            },
            Event::Fell { who, feet, dice } => match dice {
                0 => format!("{} falls {feet} feet without harm", name(who)),
                _ => format!("{} falls {feet} feet", name(who)),
            },
            Event::TurnEnded {
                who,
                how: crate::state::TurnEnd::Spent,
            } => format!("{} has no manoeuvre left: the turn ends", name(who)),
            Event::TurnEnded { .. } => return None,
            Event::Circumstance { name: n, zone: z, on } => format!(
                "{n} {} {}",
                if *on { "now hampers" } else { "no longer hampers" },
                z.map_or("everywhere".to_string(), |z| format!("in {}", zone(z)))
            ),
            Event::Ruled(r) => {
                let ruling = command::format(s, &Command::Gm(r.clone()));
                match (r, result(s)) {
                    (Ruling::End { .. }, Some(res)) => format!("Ruling: {ruling}: the combat ends, {res}"),
                    _ => format!("Ruling: {ruling}"),
                }
            }
            Event::Ended { .. } => format!("The combat ends: {}", result(s)?),
        })
    }

    fn describe_pending(s: &State, _: &Pending<crate::stage::Stage>) -> String {
        now(s)
    }

    // The title and the seat names come from here.
    fn names(s: &State) -> Option<Names<'_>> {
        let (title, seats) = (&s.setup.title, &s.setup.seats);
        Some(Names { title, seats })
    }

    fn summary(s: &State) -> String {
        let mut out = result(s).map_or_else(|| format!("Round {}, under way", s.round), |r| format!("Result: {r}"));
        for c in &s.chars {
            let side = &s.setup.sides[c.side as usize].name;
            let _ = write!(out, "\n  {} ({side}): {}{}", c.name, harm_text(s, c), status_text(c));
        }
        out + "\n"
    }

    /// The zones, one a line, with who stands in each.
    fn map(s: &State, _: Seat) -> Option<String> {
        let mut out = format!("{}\n", now(s));
        for z in s.setup.zones.ids() {
            let who: Vec<String> = s
                .chars
                .iter()
                .filter(|c| c.zone == z && !c.out())
                .map(|c| {
                    let mut w = c.id.clone();
                    if c.cover {
                        w += " (cover)";
                    } else if c.far {
                        w += " (far)";
                    }
                    w
                })
                .collect();
            let _ = writeln!(out, "{}", s.setup.zones.describe(z).unwrap_or_default());
            if !who.is_empty() {
                let _ = writeln!(out, "    {}", who.join(", "));
            }
        }
        // EIN-R15: what blocks the way, and what has been cleared.
        for l in s.setup.zones.links() {
            if let Some((label, _)) = s.obstacle(l.a, l.b).filter(|(_, o)| o.clear) {
                let now = if s.open(l.a, l.b) {
                    "cleared"
                } else {
                    "blocks the way until cleared"
                };
                let id = |z| s.setup.zones.get_id(z).unwrap_or("?");
                let _ = writeln!(
                    out,
                    "the {} between {} and {}: {now}",
                    crate::check::label_text(label),
                    id(l.a),
                    id(l.b)
                );
            }
        }
        Some(out)
    }

    /// The order with who is acting and who has acted, and every creature's cards and Harm.
    fn tracker(s: &State, _: Seat) -> String {
        let mut out = format!("{}\n", now(s));
        for (i, c) in s.chars.iter().enumerate() {
            let acting = if s.turn.is_some_and(|t| t.who as usize == i) {
                "> "
            } else {
                "  "
            };
            let side = &s.setup.sides[c.side as usize];
            // A creature with a seat of its own (a player's) shows it after its side.
            let side = match c.seat.filter(|&x| x != side.seat) {
                Some(x) => format!("{}, {}", side.id, s.seat_name(x)),
                None => side.id.clone(),
            };
            let cards: Vec<String> = c.cards.cards().iter().map(|k| k.to_string()).collect();
            let [slow, fast] = c.total_left();
            let zone = s.setup.zones.get_id(c.zone).unwrap_or("?");
            let mut flags = String::new();
            for (on, w) in [
                (c.held_by.is_some(), " restrained"),
                (c.fire.is_some(), " burning"),
                (c.poison.is_some(), " poisoned"),
                (c.prone, " down"),
                (c.pinned, " pinned"),
            ] {
                if on {
                    flags += w;
                }
            }
            let _ = writeln!(
                out,
                "{acting}{} ({side}) card {}: {} in {zone}, {slow} slow / {fast} fast left{flags}{}",
                c.name,
                cards.join(","),
                harm_text(s, c),
                status_text(c)
            );
            let injuries = critical_injuries(c);
            if !injuries.is_empty() {
                let _ = writeln!(out, "      critical injuries: {}", injuries.join("; "));
            }
        }
        out
    }

    fn table(s: &State, _: Seat) -> Table {
        table(s)
    }

    fn combatant_id(s: &State, index: u16) -> Option<String> {
        s.chars.get(usize::from(index)).map(|c| c.id.clone())
    }

    fn heuristic() -> Box<dyn Policy<Self>> {
        Box::new(ai::Heuristic::default())
    }

    fn odds(args: &[String]) -> Result<(String, serde_json::Value), String> {
        odds::parse_and_run(args)
    }

    fn gm_help() -> &'static str {
        "gm set <id> <gauge> +N|-N|=N   gauges: physical-lesser, physical-moderate, physical-severe,
                                mental-lesser, mental-moderate, mental-severe, points, bonus
gm move <id> <zone>            gm remove <id>          gm end <side>|none
gm add <new-id> <template> <side> <zone>   (draws a card from what is left of the deck)
gm fear <id> <value> [controlled|risky|desperate]
gm ignite <id> <1-3>           gm douse <id>
gm poison <id> <toxicity> [mental]         gm antidote <id>
gm fall <id> <feet> [soft]     gm deprive <id> physical|mental
gm prone <id> on|off           gm release <id>
gm circumstance <name> on|off [zone]"
    }

    /// The exact odds of an attack at the prompt.
    fn note(s: &State, c: &Command) -> Option<String> {
        let t = s.turn?;
        let (x, kind) = match c {
            Command::Strike(x) => (*x, AttackKind::Strike),
            Command::Shoot(x) => (*x, AttackKind::Shoot),
            Command::Punch(x) => (*x, AttackKind::Unarmed),
            _ => return None,
        };
        let who = t.who;
        let action = crate::check::attack_action(s, kind, s.ch(who).wield);
        let att = crate::resolve::pool(s, who, action, crate::resolve::Kind::Attack, 0).0;
        let need = crate::check::attack_need(s, who, x, kind);
        let damage = match kind {
            AttackKind::Unarmed => 1,
            _ => s.ch(who).wield.and_then(|w| s.weapon(w)).map_or(1, |w| w.damage),
        };
        let armour = s.stats(x).armour;
        let defence = if kind.melee() {
            crate::check::parry_action(s, x)
        } else {
            crate::data::Action::Finesse
        };
        let def = crate::resolve::pool(s, x, defence, crate::resolve::Kind::Defence, 0).0;
        let roll = s.options.armour_mode == ArmourMode::Roll;
        let faces = s.options.success_faces.len() as u8;
        Some(format!(
            "{}; against a defence: {}",
            odds::attack_note(att, None, need, damage, armour, roll, faces),
            odds::attack_note(att, Some(def), need, damage, armour, roll, faces)
        ))
    }

    fn board(s: &State, _: Seat) -> Option<fray_engine::view::Board> {
        Some(crate::zones::board(s))
    }
}

/// What every seat is shown in the shape every ruleset shares (nothing is hidden): what the
/// tracker shows, each creature in its zone, with its Harm rows (or Harm points), manoeuvres
/// left, cards and conditions.
fn table(s: &State) -> Table {
    let status = |name: &str, value: Option<String>, ends: Option<&str>| ViewStatus {
        name: name.to_string(),
        value,
        ends: ends.map(str::to_string),
    };
    let combatants = s
        .chars
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let block = &s.blocks[c.block as usize];
            let h = &c.harm;
            let mut gauges = Vec::new();
            match block.harm_points {
                Some(cap) => gauges.push(Gauge::of("harm-points", h.points, cap)),
                None => {
                    for (key, (v, slots)) in setup::ROW_KEYS.iter().zip(
                        h.physical
                            .iter()
                            .chain(&h.mental)
                            .zip(s.options.harm_slots.iter().cycle()),
                    ) {
                        gauges.push(Gauge::of(key, *v, *slots));
                    }
                }
            }
            let [slow, fast] = c.total_left();
            // EIN-R16, EIN-R19: each card brings the stat block's manoeuvres for the round.
            let cards = c.cards.len().max(1) as u8;
            let [slow_max, fast_max] = block.maneuvers.map(|m| m.saturating_mul(cards));
            gauges.push(Gauge::of("slow-left", slow, slow_max));
            gauges.push(Gauge::of("fast-left", fast, fast_max));
            let mut statuses: Vec<ViewStatus> = c
                .cards
                .cards()
                .iter()
                .map(|k| status("card", Some(k.to_string()), None))
                .collect();
            match c.status {
                Status::Fighting => {}
                Status::Incapacitated => statuses.push(ViewStatus::on("incapacitated")),
                Status::Broken => statuses.push(ViewStatus::on("broken")),
                Status::Fled => statuses.push(ViewStatus::on("fled")),
                Status::Removed => statuses.push(ViewStatus::on("removed")),
            }
            let id = |x: Cid| {
                s.chars
                    .get(x as usize)
                    .map_or_else(|| format!("#{x}"), |o| o.id.clone())
            };
            if c.far {
                statuses.push(ViewStatus::on("far"));
            }
            if c.cover {
                statuses.push(ViewStatus::on("cover"));
            }
            if let Some(b) = c.beside {
                statuses.push(status("beside", Some(id(b)), None));
            }
            if let Some(by) = c.held_by {
                statuses.push(status("restrained", Some(id(by)), None));
            }
            if c.silenced {
                statuses.push(ViewStatus::on("silenced"));
            }
            if let Some(f) = c.fire {
                statuses.push(status("burning", Some(f.intensity.to_string()), None));
            }
            if let Some(p) = c.poison {
                statuses.push(status("poisoned", Some(p.next.to_string()), None));
            }
            if c.prone {
                statuses.push(ViewStatus::on("down"));
            }
            if c.pinned {
                statuses.push(status("pinned", None, Some("when it next enters a zone")));
            }
            for injury in critical_injuries(c) {
                statuses.push(status("critical-injury", Some(injury), None));
            }
            let gone = matches!(c.status, Status::Fled | Status::Removed);
            CombatantView {
                id: c.id.clone(),
                name: c.name.clone(),
                side: s.setup.sides[c.side as usize].id.clone(),
                seat: fray_engine::sides::seat_name(&s.setup.seats, s.seat_of(i as Cid)),
                place: s
                    .setup
                    .zones
                    .get_id(c.zone)
                    .filter(|_| !gone)
                    .map(|z| Place::Zone { zone: z.to_string() }),
                gauges,
                statuses,
                out: c.out(),
            }
        })
        .collect();
    Table {
        round: s.round,
        phase: match s.stage {
            RoundStage::Setup => None,
            RoundStage::Hazards => Some("hazards".into()),
            RoundStage::Swaps => Some("swaps".into()),
            RoundStage::Turns => Some("turns".into()),
        },
        order: s.order.slots().iter().map(|sl| s.ch(sl.who).id.clone()).collect(),
        combatants,
        sides: s.setup.sides.iter().map(|x| x.id.clone()).collect(),
        unseen: Vec::new(),
    }
}

/// "X win (reason)" or "no winner (reason)", once the combat has ended.
fn result(s: &State) -> Option<String> {
    fray_engine::kit::text::result(&s.setup.sides, s.outcome.as_ref())
}

/// The pending decision (or the end) in a sentence.
fn now(s: &State) -> String {
    let name = |w: Cid| s.ch(w).name.as_str();
    if let Some(f) = s.frames.last() {
        return match f {
            Frame::Attack(a) if a.defence.is_none() => {
                // Only the reactions the target may take (EIN-R25, EIN-R27, EIN-H10, EIN-H14).
                use crate::state::Defence as D;
                let mut how: Vec<&str> = [
                    (D::Dodge, "dodge"),
                    (D::Parry, "parry"),
                    (D::BreakFree, "break-free"),
                    (D::Resist, "resist"),
                ]
                .into_iter()
                .filter(|(d, _)| crate::check::defence_ok(s, a, *d).is_ok())
                .map(|(_, w)| w)
                .collect();
                how.push("pass");
                format!(
                    "{} attacks {}: {} (before the roll)",
                    name(a.by),
                    name(a.target),
                    or_list(&how)
                )
            }
            Frame::Attack(a) if a.defender_swap.is_none() && crate::check::defender_may_swap(s, a) => format!(
                "{} beat {}'s attack: swap <{}'s card> <own card> to exchange them, or pass",
                name(a.target),
                name(a.by),
                name(a.by)
            ),
            Frame::Attack(a) => {
                let extra = crate::check::extra(s, a).unwrap_or(0);
                let (options, rest) = spend_options(s, a);
                format!(
                    "{} hits with {}: spend{options}; {rest}",
                    name(a.by),
                    plural(extra, "extra success", "extra successes")
                )
            }
            Frame::Flee(fl) => {
                let way = fl
                    .toward
                    .map_or(String::new(), |z| format!(" by way of {}", zone_words(s, z)));
                match crate::resolve::next_chaser(s, fl) {
                    Some(c) => format!(
                        "{} flees{way}: {} may chase finesse|track, or pass",
                        name(fl.who),
                        name(c)
                    ),
                    None => format!("{} flees{way}", name(fl.who)),
                }
            }
            Frame::Break(b) => format!(
                "{} tries to break free: {} may hold, or pass",
                name(b.who),
                name(b.holder)
            ),
            Frame::Split(sp) => {
                // The ways the Harm may be split, each adding up to it (EIN-R34).
                let ways: Vec<String> = crate::check::splits(sp.amount)
                    .iter()
                    .map(|p| {
                        let p: Vec<String> = p.iter().map(u8::to_string).collect();
                        format!("split {}", p.join("+"))
                    })
                    .collect();
                let listed = if ways.len() <= 4 {
                    or_list(&ways.iter().map(String::as_str).collect::<Vec<_>>())
                } else {
                    format!(
                        "split <levels that add up to {}>, such as {} or {}",
                        sp.amount, ways[0], ways[1]
                    )
                };
                format!(
                    "{} marks {} {} Harm: {listed}",
                    name(sp.who),
                    sp.amount,
                    if sp.mental { "Mental" } else { "Physical" }
                )
            }
            Frame::Keep(k) => format!("{}: keep {} or keep {}", name(k.who), k.drawn[0], k.drawn[1]),
            Frame::Push(p) => format!(
                "{}'s {} test: {} of {} dice: push (roll the {} that missed again, for 1 Harm) or accept",
                name(p.who),
                p.action.word(),
                plural(p.got, "success", "successes"),
                p.pool,
                p.pool - p.got
            ),
        };
    }
    if s.stage == RoundStage::Swaps {
        // EIN-R5: the swaps proposed that wait for another seat still deciding.
        let waiting: Vec<String> = s
            .proposals
            .iter()
            .filter_map(|p| {
                let w = awaiting(s, p.pair);
                (!w.is_empty()).then(|| {
                    format!(
                        "{} and {} wait for {}",
                        s.ch(p.pair.0).id,
                        s.ch(p.pair.1).id,
                        w.join(" and ")
                    )
                })
            })
            .collect();
        let waiting = if waiting.is_empty() {
            String::new()
        } else {
            format!(" ({})", waiting.join("; "))
        };
        return format!(
            "Round {}: player characters may swap cards: trade <a> <b>, or ready{waiting}",
            s.round
        );
    }
    let choices = crate::check::group_choices(s);
    match (s.turn, result(s)) {
        (Some(t), _) => {
            let c = s.ch(t.who);
            let [slow, fast] = c.left[t.n as usize];
            format!(
                "Round {}: {}'s turn in {}: {slow} slow, {fast} fast left",
                s.round,
                c.name,
                zone_words(s, c.zone)
            )
        }
        (None, None) if choices != 0 => {
            let ids: Vec<&str> = s
                .ids()
                .filter(|&c| c < 64 && choices >> c & 1 == 1)
                .map(|c| s.ch(c).id.as_str())
                .collect();
            let first = choices.trailing_zeros() as Cid;
            let group = s.ch(first).group.and_then(|g| s.groups.get(g as usize));
            let card = s.ch(first).cards.best().map_or("?".into(), |c| c.to_string());
            format!(
                "Round {}: card {card} of the group '{}' comes up: act {} (the one that acts now)",
                s.round,
                group.map_or("?", String::as_str),
                ids.join("|")
            )
        }
        (None, r) => r.map(|r| format!("The combat is over: {r}")).unwrap_or_default(),
    }
}

/// The seats a proposed swap of `pair` still waits for: those of the two that have not agreed
/// and are still deciding (EIN-R5).
fn awaiting(s: &State, pair: (Cid, Cid)) -> Vec<String> {
    let agreed = s.proposals.iter().find(|p| p.pair == pair).map(|p| p.agreed);
    let (a, b) = (s.seat_of(pair.0), s.seat_of(pair.1));
    let need = if a == b { vec![a] } else { vec![a, b] };
    need.into_iter()
        .filter(|&x| s.swapping.contains(x) && !agreed.is_some_and(|g| g.contains(x)))
        .map(|x| s.seat_name(x))
        .collect()
}

/// A zone as the prompt names it: its id (what is typed), and its name when it has one.
fn zone_words(s: &State, z: fray_space::ZoneId) -> String {
    match s.setup.zones.zone(z) {
        Some(x) => match &x.name {
            Some(n) => format!("{} ({n})", x.id),
            None => x.id.clone(),
        },
        None => "?".into(),
    }
}

/// "a, b or c".
fn or_list(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The options an attack's extra successes may buy (EIN-R23, EIN-R6, EIN-R28), as the prompt
/// shows them, and what becomes of those not spent on one.
fn spend_options(s: &State, a: &crate::state::AttackFrame) -> (String, &'static str) {
    let t = s.ch(a.target);
    let harmful = a.kind.harmful();
    let blow = a.kind.blow();
    let mine = crate::actions::hit::attacker_card(s, a);
    let swap = t.cards.cards().iter().any(|&c| mine.is_some_and(|m| m != c));
    let disarm = crate::actions::hit::may_disarm(s, a);
    let mut out = String::new();
    for (on, w) in [
        (swap, " [swap=<card>]"),
        (harmful, " [mental]"),
        (blow, " [push=<zone>|far|down]"),
        (disarm, " [disarm]"),
        (a.kind == AttackKind::Shoot, " [pin]"),
        (a.kind == AttackKind::Grapple, " [silence]"),
    ] {
        if on {
            out += w;
        }
    }
    let rest = if harmful {
        "every success not spent adds 1 Harm"
    } else {
        "the successes not spent are lost"
    };
    (out, rest)
}
