//! The text layer (`TextRuleset`): encounters in, commands as text, log lines, the pending
//! decision, the summary, the map, the tracker, odds. A seat is shown what [`crate::view`]
//! lets it know: a secret declaration of another seat reads "declared".

use crate::actions::{act, attack, counted, free, moves};
use crate::command::{self, Command};
use crate::flow;
use crate::state::{Act, Action, Cap, CheckKind, Conditions, Event, Frame, Lost, Phase, State};
use crate::{HallowedEarth, ai, codes, odds, setup, view};
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::gm::Ruling;
use fray_engine::kit::text::{Names, marker};
use fray_engine::resolve::FrameOp;
use fray_engine::text::{Lasting, Loaded, ReadFile, Rest, TextRuleset, grid_text};
use fray_engine::view::{CombatantView, Gauge, Place, Status, Table};
use fray_engine::{Pending, Policy, Reject, Seat};
use std::fmt::Write;

impl TextRuleset for HallowedEarth {
    const EVENT_COMBATANTS: &'static [&'static str] = &["who", "target", "by", "group", "against"];

    const REJECTION_CODES: &'static [&'static str] = codes::ALL;

    /// `with <weapon>` (an attack, a defensive attack, a Reposte) is the one optional phrase
    /// the legal list holds. A cast's `pay mana <M> stress <S>` is typed, never listed (every
    /// split of every cost would swamp the list), so there is nothing of it to fold.
    const OPTION_WORDS: &'static [&'static str] = &["with"];

    /// Legal, but rarely meant, so the prompt lists them only under `choices all`: stabilising
    /// a foe (`heal` on a hostile creature) and dropping one's own weapon as the Free action
    /// (HAL-R17). Attacks, throws, hostile spells and intimidation aimed at allies are not legal
    /// at all (refused as `bad-target`), so there is nothing else to hide.
    const PROMPT_HIDES_WHAT: &'static str =
        "declarations for a creature other than the one due, healing a foe or dropping a weapon";

    fn prompt_hides(s: &State, c: &Command) -> bool {
        use crate::state::Free;
        // HAL-R11: the prompt lists the declarations of the creature due by default; another
        // of the seat's creatures that may come first is declared for by typing its name.
        if let Command::Declare { who, .. } | Command::DeclareFree { who, .. } = c
            && flow::default_declarer(s, s.seat_of(*who)) != Some(*who)
        {
            return true;
        }
        match c {
            Command::Declare {
                who,
                action: Action::Heal { target },
            } => s.hostile(*who, *target),
            Command::DeclareFree {
                free: Free::Drop { .. },
                ..
            } => true,
            _ => false,
        }
    }

    /// The rests between fights (the chapter leaves recovery out, HAL-H19: these are fray's
    /// own). A longer one does what a shorter one does; injuries heal only by `mending`.
    const RESTS: &'static [Rest] = &[
        Rest {
            word: "rest",
            what: "a short rest between fights: lost Stress and spent Mana come back (fray's own, HAL-H19's hook)",
            restores: &["stress-lost", "mana"],
        },
        Rest {
            word: "recovery",
            what: "days of rest and care: Wound Points back to their maximum and the wounds healed, besides Stress and Mana (fray's own)",
            restores: &["stress-lost", "mana", "wp", "stabilized", "wounds"],
        },
        Rest {
            word: "mending",
            what: "combat injuries healed (HAL-R40's \"until healed\"; when, the Referee says): lost ability points, the conditions and the Balance penalty they left, the injuries on the sheet",
            restores: &["ability-loss", "conditions", "balance", "injuries"],
        },
    ];

    /// What outlasts a fight, for every creature of a side a players' seat plays: Stress lost
    /// (HAL-R24 rolls the maximum anew each fight, so the loss is what carries), Wound Points,
    /// Mana, the wounds (HAL-R28, HAL-R32), Stabilized at 0 or below, and what injuries left:
    /// ability damage (HAL-H18), the injuries, their conditions and Balance penalty (HAL-R40).
    /// A dead creature stays dead (HAL-R31).
    fn lasting(s: &State) -> Vec<Lasting> {
        s.ids()
            .filter(|&c| !s.seat_of(c).is_gm())
            .map(|i| {
                let c = s.ch(i);
                let mut values = vec![
                    ("stress-lost".to_string(), (c.stress_max - c.stress).max(0).to_string()),
                    ("wp".to_string(), c.wp.to_string()),
                    ("mana".to_string(), c.mana.to_string()),
                ];
                if c.wp <= 0 {
                    values.push(("stabilized".into(), c.has(Conditions::STABILIZED).to_string()));
                }
                let wounds: Vec<String> = c
                    .wounds
                    .iter()
                    .map(|w| format!("{{ type = {}, amount = {} }}", toml_string(&w.kind), w.amount))
                    .collect();
                values.push(("wounds".into(), format!("[{}]", wounds.join(", "))));
                let loss: Vec<String> = crate::data::Ability::ALL
                    .iter()
                    .zip(c.loss)
                    .filter(|(_, l)| *l != 0)
                    .map(|(a, l)| format!("{} = {l}", a.name()))
                    .collect();
                if !loss.is_empty() {
                    values.push(("ability-loss".into(), format!("{{ {} }}", loss.join(", "))));
                }
                let conditions = c.cond.injury_names();
                if !conditions.is_empty() {
                    let names: Vec<String> = conditions.iter().map(|n| toml_string(n)).collect();
                    values.push(("conditions".into(), format!("[{}]", names.join(", "))));
                }
                if c.balance != 0 {
                    values.push(("balance".into(), c.balance.to_string()));
                }
                if !c.injuries.is_empty() {
                    let names: Vec<String> = c.injuries.iter().map(|n| toml_string(n)).collect();
                    values.push(("injuries".into(), format!("[{}]", names.join(", "))));
                }
                if c.has(Conditions::DEAD) {
                    values.push(("dead".into(), "true".into()));
                }
                Lasting {
                    id: c.id.to_string(),
                    name: c.name.to_string(),
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
        let name = |w: &u16| s.ch(*w).name.as_ref();
        Some(match e {
            Event::Stress { who, max } => {
                let c = s.ch(*who);
                let worn = s
                    .setup
                    .combatants
                    .get(usize::from(*who))
                    .is_some_and(|k| !k.worn.is_fresh());
                if worn {
                    format!(
                        "{}: Stress {} of {max}, Wound Points {} of {} (as earlier fights left it)",
                        name(who),
                        c.stress,
                        c.wp,
                        s.wp_max(*who)
                    )
                } else {
                    format!("{}: Stress {max}, Wound Points {}", name(who), c.wp)
                }
            }
            Event::Initiative { group, roll } => {
                let bases: Vec<String> = group
                    .iter()
                    .map(|c| format!("{} {}", name(c), s.ch(*c).base.unwrap_or(0)))
                    .collect();
                let shared = if group.len() > 1 { "shared " } else { "" };
                format!("Base Initiative: {} ({shared}d12 {roll})", bases.join(", "))
            }
            Event::RoundStarted { round } => format!("Round {round}: declare actions"),
            Event::Declared { who, action: Some(a) } => {
                format!("{} declares: {}", name(who), command::format_action(s, *who, a))
            }
            Event::Declared { who, action: None } => format!("{} declares in secret", name(who)),
            Event::FreeDeclared { who, free: Some(f) } => format!(
                "{} declares a free action: {}",
                name(who),
                command::format_free(s, *who, f)
            ),
            Event::FreeDeclared { who, free: None } => format!("{} declares a free action in secret", name(who)),
            Event::Free { who, free, to } => {
                let weapon = |w: u8| {
                    s.stats(*who)
                        .weapons
                        .get(usize::from(w))
                        .map_or("weapon", |x| x.name.as_str())
                };
                match *free {
                    crate::state::Free::Step => format!(
                        "{} steps to {} (a short move, its free action)",
                        name(who),
                        to.map_or_else(|| s.ch(*who).at.to_string(), |p| p.to_string())
                    ),
                    crate::state::Free::Draw { weapon: w } => format!("{} draws its {}", name(who), weapon(w)),
                    crate::state::Free::Drop { weapon: w } => format!("{} drops its {}", name(who), weapon(w)),
                    crate::state::Free::Speak => format!("{} speaks (its free action)", name(who)),
                }
            }
            Event::Revealed { acts } => {
                let order: Vec<String> = acts.iter().map(|a| act_text(s, a)).collect();
                format!("Round {} order, lowest first: {}", s.round, order.join("; "))
            }
            Event::Scheduled { act, this_round: true } => {
                format!("{} joins this round at count {}", name(&act.who), act.count)
            }
            Event::Scheduled { act, this_round: false } => {
                let catch_up = if s.options.catch_up_on_missed {
                    format!("at {}", act.count - 12)
                } else {
                    "at its new count − 12".to_string()
                };
                format!(
                    "{}'s count {} has passed: it acts next round twice, {catch_up} and at its new count",
                    name(&act.who),
                    act.count
                )
            }
            Event::CountStarted { count } => format!("Count {count}"),
            Event::TurnStarted { act } => {
                let a = &s.acts[usize::from(*act)];
                let mut line = format!("{}'s turn: {}", name(&a.who), doing(s, a));
                // HAL-H16: the declared target is gone when the count comes: the action is lost
                // (or, with `retarget`, may be aimed at another creature).
                if let Some(t) = a.action.target().filter(|&t| act::target_gone(s, t)) {
                    let what = aim(s, a.who, &a.action);
                    let target = s.ch(t);
                    if s.options.retarget {
                        let _ = write!(
                            line,
                            "; {} {}: `act <target>` aims its {what} at another creature in reach, else it is lost",
                            target.name,
                            gone_why(target)
                        );
                    } else {
                        let _ = write!(
                            line,
                            "; its {what} is lost: {} {} (it may still move)",
                            target.name,
                            gone_why(target)
                        );
                    }
                }
                line
            }
            Event::ActLost { act, why } => {
                let a = &s.acts[usize::from(*act)];
                let c = s.ch(a.who);
                let why = match why {
                    Lost::Unable if c.gone() => format!("{} {}", c.name, gone_why(c)),
                    Lost::Unable if c.has(Conditions::PARALYZED) => format!("{} is paralysed", c.name),
                    Lost::Unable if c.actions > 0 => {
                        format!("{} is Dying and has taken its one action this round", c.name)
                    }
                    Lost::Unable => format!("{} has dropped to Dying since it declared", c.name),
                    Lost::Dropped => format!("{} has dropped to 0 Wound Points since it declared", c.name),
                    Lost::Resting => format!("{}'s injury lets it act only every other round", c.name),
                };
                format!("{}'s {} is lost: {why}", c.name, aim(s, a.who, &a.action))
            }
            Event::Moved { who, to, cost } => {
                format!("{} moves to {to} ({})", name(who), counted(*cost, "square", "squares"))
            }
            Event::Frame(FrameOp::Push(Frame::Reposte { by, against })) => {
                // Several creatures whose threat ranges a move entered are pushed last-asked
                // first: the one pushed last is asked first, then those below it.
                let below = s.frames.len().saturating_sub(1);
                let then: Vec<&str> = s.frames[..below]
                    .iter()
                    .rev()
                    .map_while(|f| match f {
                        Frame::Reposte { by: b, against: a } if a == against => Some(name(b)),
                        _ => None,
                    })
                    .collect();
                if then.is_empty() {
                    format!("{} may Reposte against {}", name(by), name(against))
                } else {
                    format!(
                        "{} may Reposte against {} (asked first, then {})",
                        name(by),
                        name(against),
                        then.join(", then ")
                    )
                }
            }
            Event::Frame(FrameOp::Push(Frame::InjuryType { by, types, .. })) => {
                format!("{}'s side picks the injury table: {}", name(by), types.join(" or "))
            }
            Event::Frame(_) | Event::Acting { .. } | Event::TurnEnded { .. } | Event::Intimidated { .. } => {
                return None;
            }
            Event::Guarding { who } => format!("{} is in full defence: Defense {}", name(who), s.defense(*who)),
            Event::Attacked {
                by,
                target,
                natural,
                total,
                defense,
                hit,
                crit,
                reposte,
            } => format!(
                "{}{} on {}: d{} {natural} -> {total} against Defense {defense}: {}",
                name(by),
                if *reposte { "'s Reposte" } else { "'s attack" },
                name(target),
                s.options.check_die,
                match (hit, crit) {
                    (_, true) => "critical hit",
                    (true, false) => "hit",
                    (false, _) => "miss",
                }
            ),
            Event::Damaged {
                who,
                stress,
                wp,
                kind,
                cause,
            } => {
                let c = s.ch(*who);
                let what = match cause {
                    crate::state::Cause::Strain => {
                        format!("pays {} for acting hurt", counted(*wp, "Wound Point", "Wound Points"))
                    }
                    crate::state::Cause::Bleeding => {
                        format!("bleeds {}", counted(*wp, "Wound Point", "Wound Points"))
                    }
                    _ if *stress == 0 && *wp == 0 => "takes no damage (Armour)".to_string(),
                    _ if *wp == 0 => format!("takes {stress} Stress ({kind})"),
                    _ if *stress == 0 => format!("takes {} ({kind})", counted(*wp, "Wound Point", "Wound Points")),
                    _ => format!(
                        "takes {stress} Stress and {} ({kind})",
                        counted(*wp, "Wound Point", "Wound Points")
                    ),
                };
                format!(
                    "{} {what}: Stress {}/{}, Wound Points {}/{}{}",
                    c.name,
                    c.stress,
                    c.stress_max,
                    c.wp,
                    s.wp_max(*who),
                    status(s, *who)
                )
            }
            Event::InjuryRoll { who, roll, chance } => format!(
                "Injury roll for {}: d100 {roll} against {chance}: {}",
                name(who),
                if i16::try_from(*roll).unwrap_or(i16::MAX) <= *chance {
                    "injured"
                } else {
                    "no injury"
                }
            ),
            Event::Injured {
                who,
                table,
                entry,
                main,
                loss,
            } => {
                let e = s.setup.injuries.table(table).get(usize::from(*entry));
                let mut t = format!(
                    "{} suffers a {} injury: {}",
                    name(who),
                    table,
                    e.map_or("?", |e| e.name.as_str())
                );
                if let Some(m) = main {
                    t += if *m { " (main side)" } else { " (off side)" };
                }
                for (a, v) in loss {
                    let _ = write!(t, ", {} -{v}", a.name());
                }
                t
            }
            Event::Checked {
                who,
                kind,
                roll,
                total,
                tn,
                success,
            } => match kind {
                CheckKind::Intimidation => format!(
                    "{}'s Intimidation check: d{} {roll} -> {total}",
                    name(who),
                    s.options.check_die
                ),
                CheckKind::Morale => format!(
                    "{}'s morale: 3d6 {roll} -> {total} against {tn}: {}",
                    name(who),
                    if *success { "holds" } else { "breaks" }
                ),
                k => format!(
                    "{}'s {} check: d{} {roll} -> {total} against TN {tn}: {}",
                    name(who),
                    if *k == CheckKind::Heal { "Heal" } else { "casting" },
                    s.options.check_die,
                    if *success { "success" } else { "failure" }
                ),
            },
            Event::MoraleObvious { who } => format!(
                "{}'s morale: the outcome is obvious to it, so it breaks without a roll",
                name(who)
            ),
            Event::Stabilized { who } => format!("{} is Stabilized", name(who)),
            Event::Spent { who, mana, stress } => format!("{} spends {mana} Mana and {stress} Stress", name(who)),
            Event::Restored { who, stress } => format!(
                "{} recovers {stress} Stress: {}/{}",
                name(who),
                s.ch(*who).stress,
                s.ch(*who).stress_max
            ),
            Event::ItemUsed { who, item } => format!(
                "{} uses {}",
                name(who),
                s.stats(*who)
                    .items
                    .get(usize::from(*item))
                    .map_or("?", |i| i.name.as_str())
            ),
            Event::Thrown { who, weapon } => format!(
                "{} throws its {}",
                name(who),
                s.stats(*who)
                    .weapons
                    .get(usize::from(*weapon))
                    .map_or("?", |w| w.name.as_str())
            ),
            Event::Broke { who } => format!("{} breaks and will flee", name(who)),
            Event::Fled { who } => format!("{} flees the battlefield", name(who)),
            Event::Surrendered { who } => format!("{} surrenders", name(who)),
            Event::RoundEnded { round } => format!("End of round {round}"),
            Event::Ruled(r) => {
                let ruling = command::format(s, &Command::Gm(r.clone()));
                format!("Ruling: {ruling}: {}", ruled(s, r))
            }
            Event::Ended { .. } => format!("The combat ends: {}", result(s)?),
        })
    }

    fn describe_pending(s: &State, p: &Pending<crate::stage::Stage>) -> String {
        now(s, p.seats.first().unwrap_or(Seat::GM))
    }

    /// HAL-R11: while declarations are secret, a seat is told which of its own creatures
    /// declare, and of the other seats only that they are still declaring, as its tracker says.
    fn describe_pending_for(s: &State, _: &Pending<crate::stage::Stage>, seat: Seat) -> String {
        now(s, seat)
    }

    // The title and the seat names come from here.
    fn names(s: &State) -> Option<Names<'_>> {
        let (title, seats) = (&s.setup.title, &s.setup.seats);
        Some(Names { title, seats })
    }

    fn summary(s: &State) -> String {
        let mut out = result(s).map_or_else(|| format!("Round {}, under way", s.round), |r| format!("Result: {r}"));
        for (i, c) in s.chars.iter().enumerate() {
            let side = &s.setup.sides[usize::from(c.side)].name;
            let _ = write!(
                out,
                "\n  {} ({side}): Stress {}/{}, Wound Points {}/{}{}",
                c.name,
                c.stress,
                c.stress_max,
                c.wp,
                s.wp_max(i as u16),
                status(s, i as u16)
            );
        }
        out + "\n"
    }

    /// The battlefield: `#` blocked, `.` open, a letter per creature in the combat, a legend.
    fn map(s: &State, seat: Seat) -> Option<String> {
        let at = |p| s.chars.iter().position(|c| c.at == p && !c.gone());
        let grid = grid_text(&s.setup.map, |p| match at(p) {
            Some(i) => marker(i).to_string(),
            None if s.setup.map.get(p).is_some_and(|c| c.blocked) => "#".into(),
            None => ".".into(),
        });
        let live = s.chars.iter().enumerate().filter(|(_, c)| !c.gone());
        let legend: Vec<String> = live.map(|(i, c)| format!("{} {}", marker(i), c.id)).collect();
        Some(format!(
            "{}\n{grid}Key: # blocked, {}; one square is {}\n",
            now(s, seat),
            legend.join(", "),
            counted(s.options.yards_per_square, "yard", "yards")
        ))
    }

    /// This round's order with counts (or the declarations so far), and every creature's
    /// gauges.
    fn tracker(s: &State, seat: Seat) -> String {
        let mut out = format!("{}\n", now(s, seat));
        if s.phase == Phase::Resolving {
            for slot in s.order.slots() {
                let a = &s.acts[usize::from(slot.who)];
                let mark = if s.turn.is_some_and(|t| t.act == slot.who) {
                    "> "
                } else {
                    "  "
                };
                let done = if slot.acted { ", done" } else { "" };
                let _ = writeln!(out, "{mark}{:>4} {}: {}{done}", a.count, s.ch(a.who).name, doing(s, a));
            }
        }
        for (i, c) in s.chars.iter().enumerate() {
            let i = i as u16;
            let side = &s.setup.sides[usize::from(c.side)].id;
            let mut declared = match (view::known_declaration(s, seat, i), c.declared) {
                (Some(a), _) if s.phase == Phase::Declaring => {
                    format!(", declared {}", command::format_action(s, i, &a))
                }
                (None, Some(_)) if s.phase == Phase::Declaring => ", declared".to_string(),
                _ => String::new(),
            };
            match c.declared_free.filter(|_| s.phase == Phase::Declaring) {
                Some(_) if view::hidden_from(s, seat, i) => declared += ", free action declared",
                Some(f) => {
                    let _ = write!(declared, ", free {}", command::format_free(s, i, &f));
                }
                None => {}
            }
            let _ = writeln!(
                out,
                "  {} ({side}): base {}, Stress {}/{}, Wound Points {}/{}, Defense {} at {}{}{declared}",
                c.name,
                c.base.map_or("-".into(), |b| b.to_string()),
                c.stress,
                c.stress_max,
                c.wp,
                s.wp_max(i),
                s.defense(i),
                c.at,
                status(s, i)
            );
            if let Some(sheet) = sheet(c) {
                let _ = writeln!(out, "      {sheet}");
            }
        }
        out
    }

    fn table(s: &State, seat: Seat) -> Table {
        table(s, seat)
    }

    fn combatant_id(s: &State, index: u16) -> Option<String> {
        s.chars.get(usize::from(index)).map(|c| c.id.to_string())
    }

    fn heuristic() -> Box<dyn Policy<Self>> {
        Box::new(ai::Heuristic::default())
    }

    fn odds(args: &[String]) -> Result<(String, serde_json::Value), String> {
        let (a, o) = odds::parse(args)?;
        let odds = odds::attack(&a, &o)?;
        Ok((
            odds::text(&odds),
            serde_json::to_value(&odds).map_err(|e| e.to_string())?,
        ))
    }

    fn gm_help() -> &'static str {
        "gm set <id> stress|wp|mana +N|-N|=N   gm move <id> <x,y>   gm remove <id>
gm add <new-id> <template> <side> <x,y>   (rolls initiative and declares at once: HAL-R12)
gm unaware <id>    (Surprised this round: a newcomer, or anyone before round 1's declarations)
gm obvious <id>    (its morale checks fail, HAL-R22: on/off)    gm blind <id>   (Blinded on/off)
gm end <side>|none"
    }

    /// The odds of each attack at the prompt: declared attacks, the turn's attack, a Reposte.
    fn note(s: &State, c: &Command) -> Option<String> {
        let (by, target, w, thrown) = match c {
            Command::Declare { who, action } => match *action {
                crate::state::Action::Attack { target, weapon }
                | crate::state::Action::Defensive {
                    target: Some(target),
                    weapon,
                } => (*who, target, weapon, false),
                crate::state::Action::Throw { weapon, target } => (*who, target, weapon, true),
                _ => return None,
            },
            Command::Act(n) => {
                let t = s.turn.as_ref()?;
                match act::turn_action(s, t, *n) {
                    crate::state::Action::Attack { target, weapon }
                    | crate::state::Action::Defensive {
                        target: Some(target),
                        weapon,
                    } => (t.who, target, weapon, false),
                    crate::state::Action::Throw { weapon, target } => (t.who, target, weapon, true),
                    _ => return None,
                }
            }
            Command::Reposte(w) => match s.frames.last()? {
                Frame::Reposte { by, against } => {
                    let w = w.or_else(|| attack::reposte_weapons(s, *by, *against).next())?;
                    (*by, *against, w, false)
                }
                _ => return None,
            },
            _ => return None,
        };
        let weapon = s.stats(by).weapons.get(usize::from(w))?;
        s.chars.get(usize::from(target))?;
        let o = odds::attack(&odds::of(s, by, target, weapon, thrown), &s.options).ok()?;
        Some(format!(
            "hit {:.0}%, critical {:.0}%, expected {:.1} Stress and {:.1} Wound Points, injury {:.1}%",
            100.0 * o.p_hit,
            100.0 * o.p_crit,
            o.expected_stress,
            o.expected_wp,
            100.0 * o.p_injury
        ))
    }

    fn board(s: &State, seat: Seat) -> Option<fray_engine::view::Board> {
        Some(view::board(s, seat))
    }
}

/// An act as text: its count, its creature and its action.
fn act_text(s: &State, a: &Act) -> String {
    format!("{} {}: {}", a.count, s.ch(a.who).name, doing(s, a))
}

/// What an act does: its action and Free action (HAL-R17), or the Free action alone on a turn
/// of its own.
fn doing(s: &State, a: &Act) -> String {
    let catch_up = if a.catch_up { " (catch-up)" } else { "" };
    let free = a.free.map(|f| command::format_free(s, a.who, &f));
    match free {
        Some(f) if a.lone => format!("free {f}"),
        Some(f) => format!("{}, free {f}{catch_up}", command::format_action(s, a.who, &a.action)),
        None => format!("{}{catch_up}", command::format_action(s, a.who, &a.action)),
    }
}

/// A declared action as the object of a sentence: "attack on wolf-1", "sear on wolf-1".
fn aim(s: &State, who: u16, a: &Action) -> String {
    let st = s.stats(who);
    let id = |t: u16| {
        s.chars
            .get(usize::from(t))
            .map_or_else(|| format!("#{t}"), |c| c.id.to_string())
    };
    let weapon = |w: u8| st.weapons.get(usize::from(w)).map_or("weapon", |x| x.name.as_str());
    match *a {
        Action::Attack { target, .. } => format!("attack on {}", id(target)),
        Action::Defensive { target: Some(t), .. } => format!("defensive attack on {}", id(t)),
        Action::Defensive { target: None, .. } => "defensive attack".into(),
        Action::FullDefense => "full defence".into(),
        Action::Cast { spell, target, .. } => format!(
            "{} spell on {}",
            st.spells.get(usize::from(spell)).map_or("spell", |x| x.name.as_str()),
            id(target)
        ),
        Action::Use { item, target } => format!(
            "{} for {}",
            st.items.get(usize::from(item)).map_or("item", |x| x.name.as_str()),
            id(target)
        ),
        Action::Throw { weapon: w, target } => format!("{} thrown at {}", weapon(w), id(target)),
        Action::Heal { target } => format!("Heal check on {}", id(target)),
        Action::Intimidate { target } => format!("Intimidation of {}", id(target)),
        Action::Move => "move".into(),
        Action::Flee => "flight".into(),
    }
}

/// Why a creature is out of the fight, as a predicate: "is dead", "has fled".
fn gone_why(c: &crate::state::Char) -> &'static str {
    if c.has(Conditions::DEAD) {
        "is dead"
    } else if c.has(Conditions::FLED) {
        "has fled"
    } else if c.has(Conditions::SURRENDERED) {
        "has surrendered"
    } else if c.has(Conditions::REMOVED) {
        "was taken out of the fight"
    } else {
        "is out of the fight"
    }
}

/// What a GM ruling did, read after it was applied.
fn ruled(s: &State, r: &crate::command::Ruling) -> String {
    use crate::command::{Gauge, OwnRuling};
    let name = |w: &u16| s.chars.get(usize::from(*w)).map_or("?", |c| c.name.as_ref());
    match r {
        Ruling::Adjust {
            who,
            gauge: Gauge::Mana,
            ..
        } => format!("{} now has {} Mana", name(who), s.ch(*who).mana),
        Ruling::Adjust { who, .. } => {
            let c = s.ch(*who);
            format!(
                "{} now has Stress {}/{}, Wound Points {}/{}{}",
                c.name,
                c.stress,
                c.stress_max,
                c.wp,
                s.wp_max(*who),
                status(s, *who)
            )
        }
        Ruling::Move { who, to } => format!("{} is placed at {to}", name(who)),
        Ruling::Add { id, side, at, .. } => {
            let side = s.setup.sides.get(usize::from(*side)).map_or("?", |x| x.name.as_str());
            format!("{id} joins {side} at {at}")
        }
        Ruling::Remove { who } => format!("{} is taken out of the fight", name(who)),
        Ruling::End { .. } => match result(s) {
            Some(res) => format!("the combat ends, {res}"),
            None => "the combat ends".into(),
        },
        Ruling::Other(OwnRuling::Unaware(who)) => {
            format!("{} is Surprised: it neither declares nor acts this round", name(who))
        }
        Ruling::Other(OwnRuling::Obvious(who)) if s.ch(*who).has(Conditions::HOPELESS) => {
            format!("the outcome is now obvious to {}: its morale checks fail", name(who))
        }
        Ruling::Other(OwnRuling::Obvious(who)) => format!("the outcome is no longer obvious to {}", name(who)),
        Ruling::Other(OwnRuling::Blind(who)) if s.ch(*who).has(Conditions::BLINDED) => format!(
            "{} is Blinded: -{} to its attack rolls",
            name(who),
            s.options.blinded_attack_penalty
        ),
        Ruling::Other(OwnRuling::Blind(who)) => format!("{} is no longer Blinded", name(who)),
    }
}

/// A creature's condition, as a suffix.
fn status(s: &State, c: u16) -> String {
    let ch = s.ch(c);
    let mut parts: Vec<&str> = Vec::new();
    let flags = [
        (Conditions::DEAD, "dead"),
        (Conditions::FLED, "fled"),
        (Conditions::SURRENDERED, "surrendered"),
        (Conditions::REMOVED, "removed"),
        (Conditions::FLEEING, "fleeing"),
        (Conditions::SURPRISED, "surprised"),
        (Conditions::STABILIZED, "stabilized"),
        (Conditions::GUARDING, "full defence"),
        (Conditions::PRONE, "prone"),
        (Conditions::PARALYZED, "paralysed"),
        (Conditions::CONCUSSED, "concussed"),
        (Conditions::BLINDED, "blinded"),
    ];
    if !ch.gone() {
        match ch.cap() {
            Cap::Incapacitated => parts.push("Incapacitated"),
            Cap::Dying => parts.push("Dying"),
            Cap::Stable if ch.wp < 0 => parts.push("Dying"),
            Cap::Stable => parts.push("Incapacitated"),
            _ => {}
        }
    }
    // Out of the fight, only how it left counts (a dead creature is no longer in full defence).
    let gone = Conditions::DEAD | Conditions::FLED | Conditions::SURRENDERED | Conditions::REMOVED;
    let shown = |f: u32| ch.has(f) && (!ch.gone() || f & gone != 0);
    parts.extend(flags.iter().filter(|(f, _)| shown(*f)).map(|(_, n)| *n));
    if parts.is_empty() {
        String::new()
    } else {
        format!(" [{}]", parts.join(", "))
    }
}

/// Every condition flag, in bit order, with its name and when it ends by itself (if it does).
const FLAGS: [(u32, &str, Option<&str>); 18] = [
    (Conditions::SURPRISED, "surprised", Some("end of the round")),
    (Conditions::STABILIZED, "stabilized", None),
    (Conditions::DEAD, "dead", None),
    (Conditions::FLEEING, "fleeing", None),
    (Conditions::FLED, "fled", None),
    (Conditions::SURRENDERED, "surrendered", None),
    (Conditions::REMOVED, "removed", None),
    (Conditions::PRONE, "prone", None),
    (Conditions::PARALYZED, "paralyzed", None),
    (Conditions::CONCUSSED, "concussed", None),
    (Conditions::MUTE, "mute", None),
    (Conditions::LAME, "lame", None),
    (Conditions::EVERY_OTHER, "every-other-turn", None),
    (Conditions::MAIN_ARM, "main-arm-out", None),
    (Conditions::OFF_ARM, "off-arm-out", None),
    (Conditions::BLINDED, "blinded", None),
    (Conditions::HOPELESS, "obvious", None),
    (Conditions::GUARDING, "full-defence", Some("end of the round")),
];

/// What `seat` is shown in the shape every ruleset shares: what its tracker shows, each set
/// condition flag as a status of its own, and a declaration secret from the seat as made,
/// without what it is (HAL-R11).
pub(crate) fn table(s: &State, seat: Seat) -> Table {
    let status = |name: &str, value: Option<String>, ends: Option<&str>| Status {
        name: name.to_string(),
        value,
        ends: ends.map(str::to_string),
    };
    let declaring = s.phase == Phase::Declaring;
    let resolving = s.phase == Phase::Resolving;
    let combatants = s
        .chars
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let i = i as u16;
            let mut gauges = vec![
                Gauge::of("stress", c.stress, c.stress_max),
                Gauge::of("wound-points", c.wp, s.wp_max(i)),
            ];
            let mana = s.stats(i).mana;
            if mana > 0 || c.mana > 0 {
                gauges.push(Gauge::of("mana", c.mana, mana));
            }
            if let Some(b) = c.base {
                gauges.push(Gauge::count("base-initiative", b));
            }
            gauges.push(Gauge::count("defense", s.defense(i)));
            let mut statuses = Vec::new();
            if !c.gone() {
                match c.cap() {
                    Cap::Incapacitated => statuses.push(Status::on("incapacitated")),
                    Cap::Dying => statuses.push(Status::on("dying")),
                    Cap::Stable if c.wp < 0 => statuses.push(Status::on("dying")),
                    Cap::Stable => statuses.push(Status::on("incapacitated")),
                    _ => {}
                }
            }
            // Out of the fight, only how it left counts, and what its injuries left.
            let gone = Conditions::DEAD | Conditions::FLED | Conditions::SURRENDERED | Conditions::REMOVED;
            let kept = gone | Conditions::INJURY_FLAGS;
            for (flag, name, ends) in FLAGS {
                if c.has(flag) && (!c.gone() || flag & kept != 0) {
                    statuses.push(status(name, None, ends));
                }
            }
            for w in &c.wounds {
                statuses.push(status("wound", Some(format!("{} {}", w.amount, w.kind)), None));
            }
            for n in &c.injuries {
                statuses.push(status("injury", Some(n.clone()), None));
            }
            for (a, l) in crate::data::Ability::ALL.iter().zip(c.loss) {
                if l != 0 {
                    statuses.push(status(&format!("{}-loss", a.name()), Some(l.to_string()), None));
                }
            }
            if c.balance != 0 {
                statuses.push(status("balance", Some(format!("{:+}", c.balance)), None));
            }
            // HAL-R11: a secret declaration shows as made, not what it is.
            let hidden = view::hidden_from(s, seat, i);
            if declaring && c.declared.is_some() {
                let what = view::known_declaration(s, seat, i).map(|a| command::format_action(s, i, &a));
                statuses.push(status("declared", what, Some("when the round's actions are ordered")));
            }
            if declaring && let Some(f) = c.declared_free {
                let what = (!hidden).then(|| command::format_free(s, i, &f));
                statuses.push(status(
                    "free-action-declared",
                    what,
                    Some("when the round's actions are ordered"),
                ));
            }
            let acted = resolving
                && s.order
                    .slots()
                    .iter()
                    .any(|sl| sl.acted && s.acts.get(usize::from(sl.who)).is_some_and(|a| a.who == i));
            if acted {
                statuses.push(status("acted", None, Some("end of the round")));
            }
            CombatantView {
                id: c.id.to_string(),
                name: c.name.to_string(),
                side: s.setup.sides[usize::from(c.side)].id.clone(),
                seat: fray_engine::sides::seat_name(&s.setup.seats, s.seat_of(i)),
                place: (!c.gone()).then(|| Place::square(c.at.x, c.at.y)),
                gauges,
                statuses,
                out: !matches!(c.cap(), Cap::Able),
            }
        })
        .collect();
    let order = if resolving {
        s.order
            .slots()
            .iter()
            .filter_map(|sl| s.acts.get(usize::from(sl.who)))
            .map(|a| s.ch(a.who).id.to_string())
            .collect()
    } else {
        Vec::new()
    };
    Table {
        round: s.round,
        phase: match s.phase {
            Phase::Setup => None,
            Phase::Declaring => Some("declare".into()),
            Phase::Resolving => Some("act".into()),
        },
        order,
        combatants,
        sides: s.setup.sides.iter().map(|x| x.id.clone()).collect(),
        unseen: Vec::new(),
    }
}

/// What a creature's sheet records of its hurts: its wounds (HAL-R28), injuries (HAL-R38)
/// with the ability damage (HAL-H18), Balance penalty and conditions they left; `None` for an
/// unhurt creature.
fn sheet(c: &crate::state::Char) -> Option<String> {
    let mut parts = Vec::new();
    if !c.wounds.is_empty() {
        let w: Vec<String> = c.wounds.iter().map(|w| format!("{} {}", w.amount, w.kind)).collect();
        parts.push(format!("wounds {}", w.join(", ")));
    }
    if !c.injuries.is_empty() {
        parts.push(format!("injuries: {}", c.injuries.join(", ")));
    }
    let loss: Vec<String> = crate::data::Ability::ALL
        .iter()
        .zip(c.loss)
        .filter(|(_, l)| *l != 0)
        .map(|(a, l)| format!("{} -{l}", a.name()))
        .collect();
    if !loss.is_empty() {
        parts.push(loss.join(", "));
    }
    if c.balance != 0 {
        parts.push(format!("Balance {:+}", c.balance));
    }
    let conditions = c.cond.injury_names();
    if !conditions.is_empty() {
        parts.push(conditions.join(", "));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// "X win (reason)" or "no winner (reason)", once the combat has ended.
fn result(s: &State) -> Option<String> {
    fray_engine::kit::text::result(&s.setup.sides, s.outcome.as_ref())
}

/// The pending decision (or the end) in a sentence, as `seat` may know it.
fn now(s: &State, seat: Seat) -> String {
    if let Some(r) = result(s) {
        return format!("The combat is over: {r}");
    }
    if let Some(f) = s.frames.last() {
        return match f {
            Frame::Reposte { by, against } => format!(
                "{} may Reposte against {}: reposte [with <weapon>] or pass",
                s.ch(*by).name,
                s.ch(*against).name
            ),
            Frame::InjuryType { types, .. } => format!("Pick the injury table: injury {}", types.join(" | injury ")),
        };
    }
    if let Some(c) = flow::next_declarer(s) {
        // HAL-R11: the creature due, and the others of its seat's run that may come first.
        let mut run = Vec::new();
        flow::declarers(s, s.seat_of(c), &mut run);
        let others: Vec<&str> = run.iter().skip(1).map(|&x| s.ch(x).name.as_ref()).collect();
        let first = or_first(&others);
        let when = match s.phase {
            Phase::Resolving => " (just arrived)",
            _ => "",
        };
        return format!("Round {}: {}{when} declares an action{first}", s.round, s.ch(c).name);
    }
    if s.phase == Phase::Declaring {
        let mut mine = Vec::new();
        flow::declarers(s, seat, &mut mine);
        let names: Vec<&str> = mine.iter().map(|&c| s.ch(c).name.as_ref()).collect();
        let others: Vec<&str> = s
            .ids()
            .filter(|&c| flow::due(s, c) && s.seat_of(c) != seat && (seat.is_gm() || !mine.contains(&c)))
            .map(|c| s.ch(c).name.as_ref())
            .collect();
        let mut line = format!("Round {}: secret declarations", s.round);
        match names.as_slice() {
            [] => {}
            [one] => {
                let _ = write!(line, "; {one} declares an action");
            }
            [first, rest @ ..] => {
                let _ = write!(line, "; {first} declares an action{}", or_first(rest));
            }
        }
        if !others.is_empty() && seat.is_gm() {
            let _ = write!(line, "; still to declare in other seats: {}", others.join(", "));
        } else if !others.is_empty() {
            let _ = write!(line, "; other seats still declaring");
        }
        return line;
    }
    match &s.turn {
        Some(t) => {
            use crate::state::Free;
            let c = s.ch(t.who);
            let act = &s.acts[usize::from(t.act)];
            let mut what = command::format_action(s, t.who, &act.action);
            if act.catch_up {
                what += " (catch-up)";
            }
            let gone = act.action.target().filter(|&x| act::target_gone(s, x));
            let busy = matches!(
                act.action,
                Action::FullDefense | Action::Move | Action::Flee | Action::Defensive { target: None, .. }
            );
            let mut can: Vec<String> = Vec::new();
            if moves::move_allowed(s, t).is_ok() {
                let left = counted(moves::moves_left(s, t), "square", "squares");
                can.push(format!("move <x,y> ({left} left)"));
            }
            if t.acted {
                what += ", taken";
            } else if let Some(x) = gone {
                let _ = write!(what, ", lost: {} {}", s.ch(x).name, gone_why(s.ch(x)));
                if s.options.retarget {
                    can.push("act <new-target>".into());
                }
            } else if !(busy || s.cap_now(t.who) == Cap::Dying && t.moved > 0) {
                can.push("act".into());
            }
            // HAL-R17: the Free action declared with it.
            if let Some(f) = act.free {
                let free = command::format_free(s, t.who, &f);
                what = if act.lone {
                    format!("free {free}")
                } else {
                    format!("{what}; free {free}")
                };
                if t.freed {
                    what += ", taken";
                } else if free::free_now(s, t, f == Free::Step).is_ok() {
                    can.push(if f == Free::Step {
                        let most = counted(s.options.squares(s.options.free_move), "square", "squares");
                        format!("step <x,y> (up to {most})")
                    } else {
                        "free".into()
                    });
                }
            }
            can.push("end".into());
            format!(
                "Round {}, count {}: {}'s turn ({what}): {}",
                s.round,
                act.count,
                c.name,
                either(&can)
            )
        }
        None => format!("Round {}", s.round),
    }
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// The other creatures a seat may declare for first: " (or first b)", " (or first any of b, c)".
fn or_first(others: &[&str]) -> String {
    match others {
        [] => String::new(),
        [one] => format!(" (or first {one})"),
        more => format!(" (or first any of {})", more.join(", ")),
    }
}

/// "a", "a or b", "a, b or c".
fn either(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}
