//! The text layer (`TextRuleset`): encounters in, commands as text, log lines, the pending
//! decision, the summary, the zone map, the tracker, odds. The map and the tracker a seat is
//! shown leave out the characters hidden from it (MUR-R57).

use crate::command::{self, Command};
use crate::data::{Ability, Injury, Keyword};
use crate::setup::Cid;
use crate::state::{AttackStage, Char, Condition, Event, Frame, Mode, Phase, State, Status, Why, With};
use crate::view::hidden_from;
use crate::{Murdham, ai, codes, setup};
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::gm::Ruling;
use fray_engine::kit::text::Names;
use fray_engine::resolve::FrameOp;
use fray_engine::text::{Lasting, Loaded, ReadFile, Rest, TextRuleset};
use fray_engine::{Pending, Policy, Reject, Seat};
use std::fmt::Write;

/// What a save is for, as the end of "X makes a STR save ...".
fn why_word(w: Why) -> &'static str {
    match w {
        Why::Hit => "to hit",
        Why::Dodge => "to dodge",
        Why::Disarm => "to keep hold of its weapon",
        Why::Grapple => "against the grapple",
        Why::BreakFree => "to break free",
        Why::Free => "to free the one held",
        Why::Influence => "to keep its head",
        Why::Effect => "to shake off the effect",
        Why::Sneak => "to move unseen",
        Why::Morale => "for morale",
        Why::Chase => "to get away",
    }
}

fn status_text(c: &Char) -> String {
    match c.status {
        Status::Up => String::new(),
        Status::Incapacitated => ", incapacitated".into(),
        Status::Dying { rounds } => format!(
            ", dying ({} more round end{})",
            rounds + 1,
            if rounds == 0 { "" } else { "s" }
        ),
        Status::Dead => ", dead".into(),
        Status::Disabled => ", disabled".into(),
        Status::Banished => ", banished".into(),
        Status::Surrendered => ", surrendered".into(),
        Status::Fled => ", fled".into(),
    }
}

/// What an injury leaves, for the log.
fn injury_text(i: Injury) -> &'static str {
    match i {
        Injury::Hobbled => "hobbled (half movement) until a full rest",
        Injury::MainArm => "its main arm is of no use until a full rest",
        Injury::OtherArm => "its other arm is of no use until a full rest",
        Injury::Eye => "an eye lost (ranged attacks and powers at half range) until a full rest",
        Injury::Blind => "blind until a full rest",
    }
}

/// An item's name, or the power's, or bare hands.
fn with_name(s: &State, who: Cid, w: With) -> String {
    let c = match s.chars.get(who as usize) {
        Some(c) => c,
        None => return "?".into(),
    };
    match w {
        With::Unarmed => "bare hands".into(),
        With::Item(i) => c
            .item(i)
            .and_then(|it| s.setup.item(&it.id))
            .map_or("?".into(), |d| d.name.clone()),
        With::Power(i) => c
            .stats
            .powers
            .get(i as usize)
            .and_then(|p| s.setup.powers.get(p))
            .map_or("?".into(), |p| p.name.clone()),
    }
}

fn item_name(s: &State, who: Cid, i: u8) -> String {
    with_name(s, who, With::Item(i))
}

impl TextRuleset for Murdham {
    const EVENT_COMBATANTS: &'static [&'static str] = &[
        "who",
        "by",
        "target",
        "next",
        "taunted_by",
        "queue",
        "hider",
        "grabbed_by",
        "frightened_of",
    ];

    const REJECTION_CODES: &'static [&'static str] = codes::ALL;

    /// The rests between fights: the game's day rest (health) and full rest (health, abilities
    /// lowered by injuries and the conditions they left), from its Rest & Recovery chapter, and fray's own refit
    /// for the gear the durability rolls wore out (MUR-R48; the chapters name no repair).
    const RESTS: &'static [Rest] = &[
        Rest {
            word: "rest",
            what: "a day rest (a watch to eat, drink and sleep): health back to its maximum",
            restores: &["health"],
        },
        Rest {
            word: "full-rest",
            what: "a full rest (a week in a settlement): health back, abilities lowered by injuries restored, and the conditions injuries left (a hobbled leg, an arm, an eye) healed",
            restores: &["health", "lowered", "injuries"],
        },
        Rest {
            word: "refit",
            what: "the gear mended and replaced: damaged items and armour repaired, destroyed and used-up ones bought again (fray's own)",
            restores: &["damaged", "lost", "armour-damaged", "armour-lost"],
        },
    ];

    /// What outlasts a fight, for every character a player's seat plays: health (a fight
    /// starts with health between 1 and the maximum, so one left at 0 waits for a rest),
    /// abilities lowered by injuries, the gear the fight and its durability rolls damaged or
    /// destroyed and the consumables used up (MUR-R48 to MUR-R51), the conditions injuries
    /// left, and death.
    fn lasting(state: &State) -> Vec<Lasting> {
        state
            .chars
            .iter()
            .enumerate()
            .filter(|&(i, _)| !state.seat_of(i as Cid).is_gm())
            .map(|(i, ch)| {
                let earlier = state.setup.combatants.get(i).map(|k| &k.worn);
                // Never above the maximum now (a lowered STR lowers it), which the next fight
                // starts within.
                let health = ch.health.min(ch.stats.max_health());
                let mut values = vec![("health".to_string(), health.to_string())];
                if ch.lowered != [0; 3] {
                    let l: Vec<String> = ["str", "agi", "wit"]
                        .iter()
                        .zip(ch.lowered)
                        .filter(|(_, v)| *v > 0)
                        .map(|(k, v)| format!("{k} = {v}"))
                        .collect();
                    values.push(("lowered".into(), format!("{{ {} }}", l.join(", "))));
                }
                // Its own items are the first ones (picked-up ones come after them).
                let own = ch.stats.wield.len() + ch.stats.carry.len();
                let fragile = |id: &str| state.setup.item(id).is_some_and(|d| d.has(Keyword::Fragile));
                let damaged: Vec<String> = ch.items[..own.min(ch.items.len())]
                    .iter()
                    .filter(|it| it.damaged && !it.gone && !fragile(&it.id))
                    .map(|it| toml::Value::String(it.id.clone()).to_string())
                    .collect();
                if !damaged.is_empty() {
                    values.push(("damaged".into(), format!("[{}]", damaged.join(", "))));
                }
                let lost: Vec<String> = earlier
                    .map_or(&[][..], |w| &w.lost[..])
                    .iter()
                    .cloned()
                    .chain(
                        ch.lost
                            .iter()
                            .filter(|&&i| usize::from(i) < own)
                            .filter_map(|&i| ch.items.get(usize::from(i)).map(|it| it.id.clone())),
                    )
                    .map(toml::Value::String)
                    .map(|v| v.to_string())
                    .collect();
                if !lost.is_empty() {
                    values.push(("lost".into(), format!("[{}]", lost.join(", "))));
                }
                if ch.armour_damaged && !ch.armour_lost {
                    values.push(("armour-damaged".into(), "true".into()));
                }
                if ch.armour_lost || earlier.is_some_and(|w| w.armour_lost) {
                    values.push(("armour-lost".into(), "true".into()));
                }
                if !ch.injuries.none() {
                    let words: Vec<String> = ch
                        .injuries
                        .words()
                        .into_iter()
                        .map(|w| toml::Value::String(w.into()).to_string())
                        .collect();
                    values.push(("injuries".into(), format!("[{}]", words.join(", "))));
                }
                if ch.status == Status::Dead {
                    values.push(("dead".into(), "true".into()));
                }
                Lasting {
                    id: ch.id.clone(),
                    name: ch.name.clone(),
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
        let side = |i: &u8| s.setup.sides.get(*i as usize).map_or("?", |x| x.name.as_str());
        let zones = &s.setup.zones;
        Some(match e {
            Event::Initiative { side: x, roll } => match roll {
                Some(r) => format!("Initiative die {r}: {} hold the initiative", side(x)),
                None => format!("{} started the fight and hold the initiative", side(x)),
            },
            Event::RoundStarted { round } => format!("Round {round}"),
            Event::PhaseStarted { phase, fat } => match phase {
                Phase::Ambush => "Ambush! The concealed take a bonus turn before the first round".into(),
                Phase::Fast => {
                    let fat = fat.unwrap_or(0);
                    let from = if s.options.fast_on_tie { fat } else { fat + 1 };
                    format!("Fast action threshold {fat}: fast phase (WIT {from} or more)")
                }
                Phase::Slow => "Slow phase: everyone who has not acted".into(),
                Phase::Morale => return None,
                Phase::Round | Phase::Setup => return None,
            },
            Event::Opens { side: x } => format!("{} act first", side(x)),
            Event::Passed { side: x } => format!("{} pass", side(x)),
            Event::SeatPassed { side: x, seat } => format!(
                "{} passes for now; {} may still act through another player",
                fray_engine::sides::seat_name(&s.setup.seats, *seat),
                side(x)
            ),
            Event::TurnStarted { who } => format!("{}'s turn", name(who)),
            Event::TurnLost { who, timed_out } => match timed_out {
                true => format!("{} hesitates too long: the turn is lost (timer)", name(who)),
                false => format!("{} loses the turn", name(who)),
            },
            Event::TurnEnded { .. } => return None,
            Event::Ran { who, .. } => format!("{} runs (full movement)", name(who)),
            Event::Moved { who, to, cost } => match cost {
                0 => format!("{} is moved to {}", name(who), to.describe(zones)),
                _ => format!("{} moves to {}", name(who), to.describe(zones)),
            },
            Event::Covered { who, cover } => match cover {
                true => format!("{} takes cover", name(who)),
                false => format!("{} leaves cover", name(who)),
            },
            Event::Acted { who, what, .. } => match what.as_str() {
                "" | "shove" | "throw" | "free" => return None,
                w if w.starts_with("says ") => format!("{} {w}", name(who)),
                "interact" => format!("{} does something with the surroundings", name(who)),
                "reload" => format!("{} reloads", name(who)),
                other => format!("{} {other}", name(who)),
            },
            Event::Frame(FrameOp::Push(f)) => match f {
                Frame::Attack(a) => attack_line(s, a),
                Frame::Step(_) => return None,
                Frame::Morale { who } => {
                    let n: Vec<&str> = who.iter().map(name).collect();
                    format!("Morale breaks for {}: surrender or retreat", n.join(", "))
                }
            },
            Event::Frame(_) => return None,
            Event::Save {
                who,
                ability,
                score,
                roll,
                pass,
                why,
            } => {
                let verdict = if *pass { "passes" } else { "fails" };
                if *roll == 0 {
                    format!(
                        "{} {verdict} {} automatically (size or skill)",
                        name(who),
                        why_word(*why)
                    )
                } else {
                    let article = if *ability == Ability::Agi { "an" } else { "a" };
                    format!(
                        "{} rolls {roll} on {article} {} save of {score} {}: {verdict}",
                        name(who),
                        ability.word(),
                        why_word(*why)
                    )
                }
            }
            Event::GroupSave { roll, members, why } => {
                let each: Vec<String> = members
                    .iter()
                    .map(|(c, v, p)| format!("{} {v} {}", name(c), if *p { "passes" } else { "fails" }))
                    .collect();
                let ab = if *why == Why::Chase { Ability::Agi } else { Ability::Wit };
                format!(
                    "Group {} save {}: d20 {roll}: {}",
                    ab.word(),
                    why_word(*why),
                    each.join(", ")
                )
            }
            Event::Reacted { who, what, free } => {
                format!(
                    "{} {what}{}",
                    name(who),
                    if *free {
                        " (a free reaction)"
                    } else {
                        " (its turn this round)"
                    }
                )
            }
            Event::DamageRoll {
                by,
                rolls,
                level,
                total,
            } => {
                let dice: Vec<String> = rolls
                    .iter()
                    .map(|r| r.iter().map(u16::to_string).collect::<Vec<_>>().join("+"))
                    .collect();
                let how = match level {
                    -1 => " impaired",
                    1 => " enhanced",
                    _ => "",
                };
                if rolls.is_empty() {
                    // Impaired twice: no roll, no damage.
                    return Some(format!("{}'s damage is impaired twice: none", name(by)));
                }
                format!("{} rolls damage{how}: {} = {total}", name(by), dice.join(" / "))
            }
            Event::Damaged {
                who,
                amount,
                raw,
                armour,
                ..
            } => {
                if *amount == 0 && *raw == 0 && no_damage_weapon(s) {
                    // A flask that only stuns: its hit is told by the save that follows.
                    return None;
                }
                let c = s.ch(*who);
                let arm = if *armour > 0 {
                    format!(" ({raw} less {armour} armour)")
                } else {
                    String::new()
                };
                let taken = if *amount == 0 && *raw == 0 {
                    "no damage".to_string()
                } else {
                    format!("{amount} damage")
                };
                format!(
                    "{} takes {taken}{arm}: health {}/{}",
                    c.name,
                    c.health,
                    c.stats.max_health()
                )
            }
            Event::Fell { who, status } => match status {
                Status::Incapacitated => format!("{} is incapacitated (critical damage)", name(who)),
                Status::Dying { rounds } if *rounds == s.options.dying_rounds => format!("{} is dying", name(who)),
                Status::Dying { .. } => return None,
                Status::Dead => format!("{} dies", name(who)),
                Status::Disabled => format!("{} is disabled", name(who)),
                Status::Banished => format!("{} is banished", name(who)),
                Status::Surrendered | Status::Fled | Status::Up => return None,
            },
            Event::Healed { who, amount } => format!("{} heals {amount}: health {}", name(who), s.ch(*who).health),
            Event::Injured {
                who,
                roll,
                loss,
                arm,
                lasting,
            } => {
                let dice = match arm {
                    Some(d2) => format!("d6 {roll}, d2 {d2}"),
                    None => format!("d6 {roll}"),
                };
                let what: Vec<String> = loss
                    .map(|(a, n)| format!("{} {n} lower", a.word()))
                    .into_iter()
                    .chain(lasting.map(|i| injury_text(i).to_string()))
                    .collect();
                match (what.is_empty(), *roll) {
                    (true, 1) => format!("{} is saved, and scarred ({dice})", name(who)),
                    (true, _) if !s.options.injury_effects => {
                        format!("{} is saved; the injury ({dice}) leaves nothing fray tracks", name(who))
                    }
                    (true, _) => format!(
                        "{} is saved; the injury ({dice}) adds nothing to what it has",
                        name(who)
                    ),
                    (false, _) => format!("{} is saved but injured ({dice}): {}", name(who), what.join(", and ")),
                }
            }
            Event::Revealed { who, at, .. } => format!("{} is revealed ({})", name(who), at.describe(zones)),
            Event::Grab { who, by } => match by {
                Some(b) => format!("{} is grabbed by {}", name(who), name(b)),
                None => format!("{} is free", name(who)),
            },
            Event::Dropped { who, .. } => format!("{} drops an item", name(who)),
            Event::PickedUp { who, .. } => format!("{} picks something up", name(who)),
            Event::Equipped { who, item, .. } => format!("{} takes up the {}", name(who), item_name(s, *who, *item)),
            Event::Stowed { who, item } => format!("{} puts away the {}", name(who), item_name(s, *who, *item)),
            Event::Used { who, item, spent: true } => {
                let it = s.ch(*who).items.get(*item as usize);
                let d = it.and_then(|i| s.setup.item(&i.id));
                match (it, d) {
                    (Some(i), Some(d)) if i.gone => format!("{}'s {} is used up", name(who), d.name),
                    (Some(_), Some(d)) => format!("{} fires the {}: it must be reloaded", name(who), d.name),
                    _ => format!("{} uses up an item", name(who)),
                }
            }
            Event::Used { .. } => return None,
            Event::Reloaded { who, item } => {
                let left = s.ch(*who).item(*item).and_then(|i| i.spent);
                match left {
                    Some(n) => format!("{} reloads ({n}/{})", name(who), crate::RELOAD_ROUNDS),
                    None => format!("{}'s weapon is loaded", name(who)),
                }
            }
            Event::Worn {
                who,
                item,
                destroyed,
                name: what,
            } => {
                let what = match item {
                    Some(_) => what.clone(),
                    None => "armour".into(),
                };
                format!(
                    "{}'s {what} is {}",
                    name(who),
                    if *destroyed { "destroyed" } else { "damaged" }
                )
            }
            Event::Durability { who, item, roll, sides } => {
                let what = match item {
                    Some(i) => item_name(s, *who, *i),
                    None => "armour".into(),
                };
                format!("Durability of {}'s {what}: d{sides} {roll}", name(who))
            }
            Event::Condition { who, condition } => match condition {
                Condition::LosesTurn(Some(r)) if *r == s.round && s.phase != Phase::Ambush => {
                    format!("{} loses its turn this round", name(who))
                }
                Condition::LosesTurn(Some(r)) => format!("{} will lose its turn in round {r}", name(who)),
                Condition::Frightened(Some(of)) => format!("{} is frightened of {}", name(who), name(of)),
                Condition::Frightened(None) => format!("{} is no longer frightened", name(who)),
                Condition::Taunted(Some(by)) => format!("{} is taunted by {}", name(who), name(by)),
                Condition::Poisoned(true) => format!("{} is poisoned", name(who)),
                Condition::Poisoned(false) => format!("{} is cured of poison", name(who)),
                Condition::Peeking(true) => format!("{} peeks out from behind the barrier", name(who)),
                _ => return None,
            },
            Event::MoraleProof { who } => format!("{} stands firm for the rest of the fight", name(who)),
            Event::Gave { who, status } => match status {
                Status::Fled => format!("{} flees the fight", name(who)),
                _ => format!("{} surrenders", name(who)),
            },
            Event::Resumed { who } => format!("{} is harmed and fights again", name(who)),
            Event::Deviated { roll, sides, to } => match to {
                Some(to) if *sides == 1 => {
                    format!("The blast goes astray into the one zone around: {}", to.describe(zones))
                }
                Some(to) => format!(
                    "The blast goes astray: d{sides} {roll}, it lands in {}",
                    to.describe(zones)
                ),
                None => format!("The blast goes astray: d{sides} {roll}, more than the zones around: rolled again"),
            },
            Event::Stunt {
                by,
                target,
                effect,
                accepted,
            } => match accepted {
                Some(true) => format!("{} accepts: {effect}", name(target)),
                Some(false) => format!("{} refuses the stunt: the attack goes on", name(target)),
                None => format!("The GM refuses {}'s stunt: the attack goes on", name(by)),
            },
            Event::BlowStopped { who } => format!("{} falls before its own blow lands: it deals nothing", name(who)),
            Event::StandInDeclined { who, hider } => format!(
                "{} will not stand in for {}, who may still react",
                name(who),
                name(hider)
            ),
            Event::Ruled(r) => {
                let ruling = command::format(s, &Command::Gm(r.clone()));
                match ruled(s, r) {
                    Some(what) => format!("Ruling: {ruling}: {what}"),
                    None => format!("Ruling: {ruling}"),
                }
            }
            Event::Ended { .. } => format!("The combat ends: {}", result(s)?),
        })
    }

    fn describe_pending(s: &State, _: &Pending<crate::stage::Stage>) -> String {
        now(s)
    }

    /// MUR-R57: a seat the deciding character is concealed from is told only that someone
    /// unseen is deciding, as its tracker and map say.
    fn describe_pending_for(s: &State, _: &Pending<crate::stage::Stage>, seat: Seat) -> String {
        now_for(s, seat)
    }

    /// MUR-R57: nor who it is (the view names it, without its place or numbers).
    fn actor_for(s: &State, p: &Pending<crate::stage::Stage>, seat: Seat) -> Option<u16> {
        let unseen = |w: Cid| hidden_from(s, seat, w);
        p.actor()
            .filter(|&a| !unseen(a) && crate::pending_actor(s).is_none_or(|w| !unseen(w)))
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
            let _ = write!(
                out,
                "\n  {} ({side}): health {}/{}{}",
                c.name,
                c.health,
                c.stats.max_health(),
                status_text(c)
            );
        }
        out + "\n"
    }

    /// The zones, one a line, with who stands in each and on each border (what the seat sees).
    fn map(s: &State, seat: Seat) -> Option<String> {
        let mut out = format!("{}\n", now_for(s, seat));
        let zones = &s.setup.zones;
        let here = |p: crate::place::Place| -> Vec<String> {
            s.ids()
                .filter(|&c| s.ch(c).at == p && !hidden_from(s, seat, c))
                .filter(|&c| !matches!(s.ch(c).status, Status::Dead | Status::Fled | Status::Banished))
                .map(|c| {
                    let ch = s.ch(c);
                    let mut w = ch.id.clone();
                    if ch.cover {
                        w += " (cover)";
                    }
                    if ch.concealed {
                        w += " (concealed)";
                    }
                    if !ch.up() {
                        w += " (down)";
                    }
                    w
                })
                .collect()
        };
        for z in zones.ids() {
            let _ = writeln!(out, "{}", zones.describe(z).unwrap_or_default());
            let who = here(crate::place::Place::zone(z));
            if !who.is_empty() {
                let _ = writeln!(out, "    {}", who.join(", "));
            }
        }
        for l in zones.links() {
            let p = crate::place::Place::border(l.a, l.b);
            let who = here(p);
            if !who.is_empty() {
                let _ = writeln!(out, "  border {}: {}", p.word(zones), who.join(", "));
            }
        }
        Some(out)
    }

    /// Every character the seat sees: faction, place, health, whether it has acted.
    fn tracker(s: &State, seat: Seat) -> String {
        let mut out = format!("{}\n", now_for(s, seat));
        for c in s.ids() {
            if hidden_from(s, seat, c) {
                continue;
            }
            let ch = s.ch(c);
            let acting = if s.turn.as_ref().is_some_and(|t| t.who == c) {
                "> "
            } else {
                "  "
            };
            let side = &s.setup.sides[ch.side as usize].id;
            let mut flags = String::new();
            for (on, w) in [
                (s.order.has_acted(c), " acted"),
                (ch.concealed, " concealed"),
                (ch.grabbed_by.is_some(), " grabbed"),
                (ch.poisoned, " poisoned"),
                (ch.frightened_of.is_some(), " frightened"),
                (ch.lost_round == Some(s.round), " stunned"),
                (ch.morale_proof, " steady"),
                (ch.injuries.hobbled, " hobbled"),
                (ch.injuries.arms[0], " main-arm-injured"),
                (ch.injuries.arms[1], " other-arm-injured"),
                (ch.injuries.eyes == 1, " one-eyed"),
                (ch.injuries.blind(), " blind"),
                (ch.next_hit > 0, " next-hit-enhanced"),
                (ch.next_hit < 0, " next-hit-impaired"),
            ] {
                if on {
                    flags += w;
                }
            }
            let _ = writeln!(
                out,
                "{acting}{} ({side}) STR {} AGI {} WIT {}, health {}/{} at {}{flags}{}",
                ch.name,
                ch.ability(Ability::Str),
                ch.ability(Ability::Agi),
                ch.ability(Ability::Wit),
                ch.health,
                ch.stats.max_health(),
                ch.at.word(&s.setup.zones),
                status_text(ch)
            );
        }
        out
    }

    fn table(s: &State, seat: Seat) -> fray_engine::view::Table {
        crate::view::table(s, seat)
    }

    fn combatant_id(s: &State, index: u16) -> Option<String> {
        s.chars.get(usize::from(index)).map(|c| c.id.clone())
    }

    fn heuristic() -> Box<dyn Policy<Self>> {
        Box::new(ai::Heuristic::default())
    }

    fn odds(args: &[String]) -> Result<(String, serde_json::Value), String> {
        crate::odds::parse_and_run(args)
    }

    /// The exact odds of an attack on one character at the prompt: as it stands, and if the
    /// target dodges when it may.
    /// `attack <id> [with <item>]`, `counter [with <item>]`, `opportunity [with <item>]`.
    const OPTION_WORDS: &'static [&'static str] = &["with"];

    /// `attack <id> [hold] [sweep]`, `move <place> [sneak]`, `shove <id> [hazard]`, `equip
    /// <item> [off]`, `interact [main]`, `counter [grapple]`.
    const FLAG_WORDS: &'static [&'static str] = &["hold", "sweep", "sneak", "hazard", "off", "main", "grapple"];

    /// What the prompt leaves out of its list.
    const PROMPT_HIDES_WHAT: &'static str = "harm aimed at allies or sweeps and blasts that hit no enemy";

    /// Harm aimed at the actor's own side (an attack, a final blow, a disarm or grapple, a
    /// distract, intimidate or taunt; a counter is only ever at the attacker), a sweep or a
    /// blast that would hit no enemy, freeing an entangled enemy and using a draught on an
    /// enemy: legal, rarely meant, so the prompt lists them only under `choices all`.
    fn prompt_hides(s: &State, c: &Command) -> bool {
        let Some(me) = s.turn.as_ref().map(|t| t.who) else {
            return false;
        };
        match c {
            Command::Attack {
                aim: crate::command::Aim::At(x),
                ..
            }
            | Command::Influence { target: x, .. } => !s.enemies(me, *x),
            Command::Attack {
                aim: crate::command::Aim::Place(at),
                with,
                sweep,
                ..
            } => {
                let Ok(p) = crate::check::profile(s, me, *with) else {
                    return false;
                };
                let melee = *sweep || p.range == 0;
                let at = if melee { crate::place::Place::zone(at.a) } else { *at };
                let hit = crate::check::blast_victims(s, me, at, melee, *sweep, p.indirect);
                !hit.iter().any(|&x| s.enemies(me, x))
            }
            Command::Free(x) | Command::Use { on: Some(x), .. } => s.enemies(me, *x),
            _ => false,
        }
    }

    fn note(s: &State, c: &Command) -> Option<String> {
        use crate::check::{may_react, plan};
        use crate::command::Aim;
        let (by, t, with, mode, reaction) = match (c, s.frames.last(), &s.turn) {
            (
                Command::Attack {
                    aim: Aim::At(t),
                    with,
                    mode: mode @ Mode::Harm { .. },
                    sweep: false,
                    stunt: None,
                },
                None,
                Some(turn),
            ) => (turn.who, *t, *with, *mode, false),
            (Command::Opportunity(with), Some(Frame::Step(st)), _) => {
                (st.next, st.who, *with, Mode::Harm { hold: false }, true)
            }
            (
                Command::Counter {
                    with,
                    mode: mode @ Mode::Harm { .. },
                },
                Some(Frame::Attack(a)),
                _,
            ) => (a.target, a.by, *with, *mode, true),
            _ => return None,
        };
        let p = plan(s, by, Aim::At(t), with, mode, false, reaction).ok()?;
        let plain = crate::actions::damage::attack_spec(s, by, t, with, mode, &p, reaction, None)?;
        let mut note = crate::odds::attack_note(&plain);
        let unaware = s.ch(by).concealed;
        let dodge = !reaction && !unaware && p.profile.dodgeable && may_react(s, t, true);
        if dodge
            && let Some(spec) = crate::actions::damage::attack_spec(
                s,
                by,
                t,
                with,
                mode,
                &p,
                true,
                Some(i32::from(s.ch(t).ability(Ability::Agi))),
            )
        {
            note += &format!("; if it dodges: {}", crate::odds::attack_note(&spec));
        }
        Some(note)
    }

    /// MUR-R56: under the chaos of combat a player has `chaos-seconds` to declare a turn; when
    /// they run out the table submits `timed-out` and the turn is lost.
    fn timer(s: &State) -> Option<(u32, Command)> {
        let t = s.turn.as_ref()?;
        let chaos = s.options.chaos && s.frames.is_empty() && crate::check::fresh(s, t);
        (chaos && s.is_player_side(s.ch(t.who).side)).then_some((u32::from(s.options.chaos_seconds), Command::TimedOut))
    }

    fn gm_help() -> &'static str {
        "gm set <id> health|str|agi|wit +N|-N|=N     gm move <id> <place>     gm remove <id>
gm add <new-id> <template> <faction> <place>   gm end <faction>|none
gm conceal <id> on|off      gm hinder <id>      gm penetrate <id>      gm overwhelm <id>
gm frighten <id> <of-id>    gm calm <id>        gm poison <id> on|off  gm stun <id>
gm enhance <id>    gm impair <id>    (the next hit on it deals enhanced | impaired damage)
gm heal <id> <amount>       gm chase <faction> even|faster|slower"
    }

    fn board(s: &State, seat: Seat) -> Option<fray_engine::view::Board> {
        Some(crate::view::board(s, seat))
    }
}

/// Whether the attack being landed is made with something that deals no damage (a flask of
/// flash powder), read while its hit is logged.
fn no_damage_weapon(s: &State) -> bool {
    match s.frames.last() {
        Some(Frame::Attack(a)) => crate::check::profile(s, a.by, a.with).is_ok_and(|p| p.die == 0),
        _ => false,
    }
}

/// What a GM ruling changed, read from the state it left (`None` when the events after it say
/// it: a healing, a chase's flight, the end of the combat).
fn ruled(s: &State, r: &command::Ruling) -> Option<String> {
    use crate::command::{Gauge, OwnRuling as O, Pace};
    let name = |w: &Cid| s.chars.get(*w as usize).map_or("?", |c| c.name.as_str());
    let side = |i: &u8| s.setup.sides.get(*i as usize).map_or("?", |x| x.name.as_str());
    let zones = &s.setup.zones;
    let c = |w: &Cid| s.chars.get(*w as usize);
    Some(match r {
        Ruling::Adjust {
            who,
            gauge: Gauge::Health,
            ..
        } => {
            let c = c(who)?;
            format!("{}'s health is {}/{}", c.name, c.health, c.stats.max_health())
        }
        Ruling::Adjust {
            who,
            gauge: Gauge::Ability(a),
            ..
        } => {
            let c = c(who)?;
            let health = if *a == Ability::Str {
                format!(" (maximum health {})", c.stats.max_health())
            } else {
                String::new()
            };
            format!("{}'s {} is {}{health}", c.name, a.word(), c.ability(*a))
        }
        Ruling::Move { who, to } => format!("{} is put at {}", name(who), to.describe(zones)),
        Ruling::Add { id, side: x, at, .. } => format!(
            "{} joins {} at {}, to act from the next round",
            s.find(id).map_or(id.as_str(), |w| name(&w)),
            side(x),
            at.describe(zones)
        ),
        Ruling::Remove { who } => format!("{} leaves the fight", name(who)),
        // The combat's end follows, with its result.
        Ruling::End { .. } => return None,
        Ruling::Other(o) => match o {
            O::Conceal { who, on: true } => format!("{} is concealed: its enemies lose sight of it", name(who)),
            O::Conceal { who, on: false } => format!("{} is revealed ({})", name(who), c(who)?.at.describe(zones)),
            O::Hinder { who } => format!("{}'s next attack needs a WIT save to hit", name(who)),
            O::Penetrate { who } => format!("{}'s next attack goes through cover", name(who)),
            O::Overwhelm { who } => format!("{}'s next distract, intimidate or taunt allows no save", name(who)),
            O::Frighten { who, of } => format!("{} is frightened of {}", name(who), name(of)),
            O::Calm { who } => format!("{} is no longer frightened", name(who)),
            O::Poison { who, on: true } => format!("{} is poisoned: 1 damage at each round's end", name(who)),
            O::Poison { who, on: false } => format!("{} is cured of poison", name(who)),
            O::Stun { who } => match c(who)?.lost_round {
                Some(r) if r == s.round && s.phase != Phase::Ambush => {
                    format!("{} is stunned: it loses its turn this round", name(who))
                }
                Some(r) => format!("{} is stunned: it will lose its turn in round {r}", name(who)),
                None => return None,
            },
            O::Enhance { who } | O::Impair { who } => match c(who)?.next_hit {
                1 => format!("the next hit on {} deals enhanced damage", name(who)),
                -1 => format!("the next hit on {} deals impaired damage", name(who)),
                -2 => format!("the next hit on {} deals no damage (impaired twice)", name(who)),
                _ => format!(
                    "the next hit on {} deals its damage as rolled (the rulings cancel)",
                    name(who)
                ),
            },
            O::Heal { .. } => return None,
            O::Chase { side: x, pace } => match pace {
                Pace::Faster => format!("{} are faster and get away", side(x)),
                Pace::Slower => format!("{} are slower and cannot get away: the fight goes on", side(x)),
                Pace::Even => format!("{} run at even pace: one group AGI save says who gets away", side(x)),
            },
        },
    })
}

/// "X win (reason)" or "no winner (reason)", once the combat has ended.
fn result(s: &State) -> Option<String> {
    fray_engine::kit::text::result(&s.setup.sides, s.outcome.as_ref())
}

/// The line that opens an attack in the log.
fn attack_line(s: &State, a: &crate::state::Attack) -> String {
    let name = |w: Cid| s.chars.get(w as usize).map_or("?", |c| c.name.as_str());
    let with = with_name(s, a.by, a.with);
    let target = match (a.blast, a.focused) {
        (Some(p), false) => p.describe(&s.setup.zones),
        _ => name(a.target).to_string(),
    };
    let what = match a.mode {
        Mode::Harm { hold } => {
            let verb = if matches!(a.with, With::Power(_)) {
                "invokes"
            } else if a.opportunity {
                "makes an opportunity attack on"
            } else if a.sweep {
                "sweeps through"
            } else {
                "attacks"
            };
            match a.with {
                With::Power(_) => format!("{verb} {with} on {target}"),
                _ => format!(
                    "{verb} {target} with {with}{}",
                    if hold { ", holding back" } else { "" }
                ),
            }
        }
        Mode::FinalBlow => format!("deals {target} a final blow"),
        Mode::Disarm { item } => format!("tries to disarm {target} of the {}", item_name(s, a.target, item)),
        Mode::Grapple => format!("tries to grapple {target}"),
    };
    let mut line = format!("{} {what}", name(a.by));
    if a.surprise {
        line += " (unseen: no reaction)";
    }
    if let Some(st) = &a.stunt {
        line += &format!(", proposing instead: {st}");
    }
    line
}

/// The pending decision (or the end) in a sentence, as `seat` may know it.
fn now_for(s: &State, seat: Seat) -> String {
    match crate::pending_actor(s) {
        Some(w) if hidden_from(s, seat, w) => format!("Round {}: someone unseen is deciding", s.round),
        _ => now(s),
    }
}

/// The pending decision in a sentence, for a refusal of a command that does not answer it.
pub(crate) fn asked(s: &State) -> String {
    now(s)
}

/// The pending decision (or the end) in a sentence.
fn now(s: &State) -> String {
    let name = |w: Cid| s.chars.get(w as usize).map_or("?", |c| c.name.as_str());
    let side = |i: u8| s.setup.sides.get(i as usize).map_or("?", |x| x.name.as_str());
    if let Some(f) = s.frames.last() {
        return match f {
            Frame::Attack(a) => match a.stage {
                AttackStage::Approve => format!(
                    "GM: {} proposes a stunt on {}: {} (approve or veto)",
                    name(a.by),
                    name(a.target),
                    a.stunt.as_deref().unwrap_or("")
                ),
                AttackStage::Answer => format!(
                    "{}: {} proposes instead of damage: {} (accept or refuse)",
                    name(a.target),
                    name(a.by),
                    a.stunt.as_deref().unwrap_or("")
                ),
                AttackStage::Guard { next } => format!(
                    "{} is attacked by {}: {} may guard it (guard or decline)",
                    name(a.target),
                    name(a.by),
                    name(next)
                ),
                AttackStage::Agree { who } => format!(
                    "{} would hide behind {} from {}'s attack: {} agrees to stand in, or declines",
                    name(a.target),
                    name(who),
                    name(a.by),
                    name(who)
                ),
                _ => {
                    // Only the reactions open now.
                    let mut open = vec!["take"];
                    if crate::check::dodge_open(s, a).is_some() {
                        open.push("dodge");
                    }
                    let mut legal = Vec::new();
                    crate::check::legal(s, s.seat_of(a.target), &mut legal);
                    if legal.iter().any(|a| matches!(a.command, Command::Counter { .. })) {
                        open.push("counter [with <item>]");
                    }
                    if legal.iter().any(|a| matches!(a.command, Command::HideBehind(_))) {
                        open.push("hide-behind <id>");
                    }
                    format!("{} is attacked by {}: {}", name(a.target), name(a.by), open.join(", "))
                }
            },
            Frame::Step(st) => format!(
                "{} moves away from {}: opportunity [with <item>] or decline",
                name(st.who),
                name(st.next)
            ),
            Frame::Morale { who } => format!(
                "{} failed morale: surrender or retreat",
                who.first().map_or("?", |w| name(*w))
            ),
        };
    }
    if let Some(r) = result(s) {
        return format!("The combat is over: {r}");
    }
    if s.opening {
        return format!(
            "Round {}: {} choose who acts first (open <faction>)",
            s.round,
            side(s.initiative)
        );
    }
    if let Some(t) = &s.turn {
        let c = s.ch(t.who);
        // MUR-R55: under the chaos of combat players talk only through `say`, a bonus action.
        let chaos = if s.options.chaos && s.is_player_side(c.side) {
            "; chaos of combat: no talk but `say <words>`, a bonus action"
        } else {
            ""
        };
        return format!(
            "Round {}: {}'s turn at {} ({} action{} left{}, {} half zone{} of movement{chaos})",
            s.round,
            c.name,
            c.at.describe(&s.setup.zones),
            t.actions,
            if t.actions == 1 { "" } else { "s" },
            if t.main { ", main used" } else { "" },
            t.halves,
            if t.halves == 1 { "" } else { "s" }
        );
    }
    let phase = match s.phase {
        Phase::Ambush => " (ambush bonus turn)",
        Phase::Fast => " (fast phase)",
        Phase::Slow => " (slow phase)",
        _ => "",
    };
    match crate::flow::faction_to_pick(s) {
        Some(f) => {
            // Several players of one faction: each is asked for its own characters.
            let asked = crate::flow::seats_asked(s, f);
            let names = |x: fray_engine::Seats| {
                let n: Vec<String> = x
                    .iter()
                    .map(|x| fray_engine::sides::seat_name(&s.setup.seats, x))
                    .collect();
                n.join(", ")
            };
            let players = match (asked.len() > 1, s.seats_passed.is_empty()) {
                (false, true) => String::new(),
                (true, true) => format!(" (asked: {}, each for its own characters)", names(asked)),
                (_, false) => format!(" (asked: {}; passed: {})", names(asked), names(s.seats_passed)),
            };
            format!("Round {}{phase}: {}: act <id> or pass{players}", s.round, side(f))
        }
        None => format!("Round {}", s.round),
    }
}
