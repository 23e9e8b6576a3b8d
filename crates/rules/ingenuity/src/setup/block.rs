//! Stat blocks: a template's or a combatant's table turned into a character's numbers.
//!
//! A combatant takes every field it leaves out from its template. Character numbers are derived
//! from attribute and skill dice as the character chapter does (resources 6 + the die's
//! maximum, defences from passive values, speed from size, DEX and Agility); any derived number
//! can be overridden (ING-H24). The decision behind this module: the one reading of a stat
//! block serves the encounter's combatants and the templates the GM may add mid-combat.

use crate::data::{Armoury, Attr, Cond, ItemId};
use crate::options::{DefenceFormula, Options};
use fray_engine::Seat;
use fray_engine::diag::suggestion;
use fray_engine::encounter::{self as enc, Overlay, RawPos, Spanned, seat_of};
use fray_space::{Grid, Pos};
use serde::Deserialize;
use std::collections::BTreeMap;

use super::{CharInfo, Ctx, Start, Stats, Team, is_die, passive, pos, within_limit};

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawNow {
    health: Option<i16>,
    endurance: Option<i16>,
    stamina: Option<i16>,
    focus: Option<i16>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawChar {
    id: Option<Spanned<String>>,
    name: Option<String>,
    template: Option<Spanned<String>>,
    team: Option<Spanned<String>>,
    seat: Option<Spanned<String>>,
    at: Option<Spanned<RawPos>>,
    size: Option<Spanned<i16>>,
    attributes: Option<Spanned<BTreeMap<String, u8>>>,
    skills: Option<Spanned<BTreeMap<String, u8>>>,
    proficiencies: Option<Spanned<BTreeMap<String, i16>>>,
    talents: Option<Vec<Spanned<String>>>,
    items: Option<Vec<Spanned<String>>>,
    held: Option<Vec<Spanned<String>>>,
    unloaded: Option<Vec<Spanned<String>>>,
    durability: Option<Spanned<BTreeMap<String, i16>>>,
    armour: Option<Spanned<String>>,
    health: Option<i16>,
    endurance: Option<i16>,
    stamina: Option<i16>,
    focus: Option<i16>,
    constitution: Option<i16>,
    evasion: Option<i16>,
    willpower: Option<i16>,
    deflection: Option<i16>,
    elemental_deflection: Option<i16>,
    speed: Option<i16>,
    luck_modifier: Option<i16>,
    cannot_be_surprised: Option<bool>,
    now: Option<Spanned<RawNow>>,
    death_difficulty: Option<i16>,
    unconscious: Option<bool>,
    conditions: Option<Vec<Spanned<String>>>,
    dead: Option<Spanned<bool>>,
}

// A combatant takes every field it leaves out from its template.
fray_engine::combatant_table!(RawChar {
    id,
    name,
    template,
    team,
    seat,
    at,
    size,
    attributes,
    skills,
    proficiencies,
    talents,
    items,
    held,
    unloaded,
    durability,
    armour,
    health,
    endurance,
    stamina,
    focus,
    constitution,
    evasion,
    willpower,
    deflection,
    elemental_deflection,
    speed,
    luck_modifier,
    cannot_be_surprised,
    now,
    death_difficulty,
    unconscious,
    conditions,
    dead
});

/// A die of a stat block (`what`): 4, 6, 8, 10 or 12; anything else is reported (and a d6
/// stands in so that reading goes on).
fn die(cx: &mut Ctx, span: std::ops::Range<usize>, what: &str, v: u8) -> u8 {
    if is_die(v) {
        v
    } else {
        cx.err(span, format!("{what} must be a die: 4, 6, 8, 10 or 12 (got {v})"));
        6
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn character(
    cx: &mut Ctx,
    raw: &Spanned<RawChar>,
    base: &RawChar,
    map: &Grid,
    armoury: &Armoury,
    teams: &[Team],
    seats: &mut Vec<String>,
    options: &Options,
    template: bool,
) -> Option<CharInfo> {
    let span = raw.span();
    let r = raw.get_ref().over(base);
    let errors_before = cx.errors.len();
    let id = enc::combatant_id(cx, r.id.as_ref(), span.clone(), template, "guard-1")?;
    if let Some(dead) = r.dead.as_ref().filter(|d| *d.get_ref()) {
        // A campaign writes it for a character that died: the dead do not come back (ING-R62
        // is the last chance a character gets).
        cx.err(
            dead.span(),
            format!("combatant '{id}' is dead (ING-R62): the dead do not fight again, and no rest brings them back"),
        );
        return None;
    }
    // ING-R1: a combatant names exactly one team (one string, no list), and one without a team
    // is refused.
    let team = match (&r.team, template) {
        (Some(s), _) => enc::index_of(cx, s, teams.iter().map(|x| x.id.as_str()), "team").map_or(0, |i| i as u8),
        (None, true) => 0,
        (None, false) => {
            cx.err(span.clone(), format!("combatant '{id}' needs team = \"<team id>\""));
            0
        }
    };
    let seat = match &r.seat {
        Some(s) => seat_of(s.get_ref(), seats),
        None => teams.get(team as usize).map_or(Seat::GM, |t| t.seat),
    };
    let at = match (&r.at, template) {
        (Some(p), _) => pos(cx, p, map).unwrap_or(Pos::new(0, 0)),
        (None, true) => Pos::new(0, 0),
        (None, false) => {
            cx.err(span.clone(), format!("combatant '{id}' needs a square: at = \"x,y\""));
            Pos::new(0, 0)
        }
    };
    let size = match &r.size {
        Some(s) if !(1..=12).contains(s.get_ref()) => {
            cx.err(s.span(), "size runs from 1 (miniscule) to 12 (titanic); medium is 4");
            4
        }
        Some(s) => *s.get_ref(),
        None => 4,
    };
    // Attributes default to d6 (average), skills to d4 (untrained).
    let mut attrs = [6u8; 4];
    if let Some(a) = &r.attributes {
        for (k, v) in a.get_ref() {
            match Attr::parse(k) {
                Some(x) => attrs[x as usize] = die(cx, a.span(), &format!("attribute {k}"), *v),
                None => cx.err(
                    a.span(),
                    format!("unknown attribute '{k}': expected str, dex, int or res"),
                ),
            }
        }
    }
    let mut skills = Vec::new();
    if let Some(s) = &r.skills {
        for (k, v) in s.get_ref() {
            skills.push((k.clone(), die(cx, s.span(), &format!("skill {k}"), *v)));
        }
    }
    let mut profs = Vec::new();
    if let Some(p) = &r.proficiencies {
        for (k, v) in p.get_ref() {
            if !(1..=4).contains(v) {
                cx.err(p.span(), format!("proficiency {k} must be +1 to +4 (got {v})"));
            }
            profs.push((k.clone(), *v));
        }
    }
    let talents: Vec<String> = r.talents.iter().flatten().map(|t| t.get_ref().clone()).collect();
    let has = |t: &str| talents.iter().any(|x| x == t);
    let [s, d, i, re] = attrs;
    let passive_skill = |name: &str| passive(skills.iter().find(|(n, _)| n == name).map_or(4, |(_, d)| *d));
    let prof = |name: &str| profs.iter().find(|(n, _)| n == name).map_or(0, |(_, b)| *b);
    let armour = match &r.armour {
        None => None,
        Some(a) => match armoury.find_armour(a.get_ref()) {
            Some(x) => Some(x),
            None => {
                cx.err(
                    a.span(),
                    format!(
                        "unknown armour '{}'{}",
                        a.get_ref(),
                        suggestion(a.get_ref(), armoury.armour.iter().map(|x| x.id.as_str()))
                    ),
                );
                None
            }
        },
    };
    let rating = armour.map_or(0, |a| armoury.armour[a].rating);
    let (constitution, evasion, willpower) = match options.defence_formula {
        DefenceFormula::Current => (
            passive(re) + passive(s) + prof("fortitude"),
            passive(re) + passive(d) + prof("dodge"),
            passive(re) + passive(i) + prof("resistance"),
        ),
        DefenceFormula::Older => (
            passive(s) + prof("fortitude"),
            passive(d) + prof("dodge"),
            passive(i) + prof("resistance"),
        ),
    };
    let stats = Stats {
        size,
        attrs,
        health: r.health.unwrap_or(6 + i16::from(s)),
        endurance: r
            .endurance
            .unwrap_or(6 + i16::from(re) + if has("toughness") { 4 } else { 0 }),
        stamina: r
            .stamina
            .unwrap_or(6 + i16::from(d) + if has("longevity") { 4 } else { 0 }),
        focus: r
            .focus
            .unwrap_or(6 + i16::from(i) + if has("mindfulness") { 4 } else { 0 }),
        constitution: r.constitution.unwrap_or(constitution),
        evasion: r.evasion.unwrap_or(evasion),
        willpower: r.willpower.unwrap_or(willpower),
        deflection: r.deflection.unwrap_or(passive(re) + rating),
        elemental_deflection: r.elemental_deflection.unwrap_or(passive(i) + rating),
        speed: r
            .speed
            .unwrap_or(size + passive(d) + passive_skill("agility") + prof("running")),
        luck_modifier: r.luck_modifier.unwrap_or(0),
        cannot_be_surprised: r.cannot_be_surprised.unwrap_or(has("danger-sense")),
        skills,
        profs,
    };
    for (what, v) in [
        ("health", stats.health),
        ("endurance", stats.endurance),
        ("stamina", stats.stamina),
        ("focus", stats.focus),
    ] {
        if v < 1 {
            cx.err(span.clone(), format!("maximum {what} must be at least 1"));
        }
    }
    for (what, v) in [
        ("health", stats.health),
        ("endurance", stats.endurance),
        ("stamina", stats.stamina),
        ("focus", stats.focus),
        ("constitution", stats.constitution),
        ("evasion", stats.evasion),
        ("willpower", stats.willpower),
        ("deflection", stats.deflection),
        ("elemental-deflection", stats.elemental_deflection),
        ("speed", stats.speed),
        ("luck-modifier", stats.luck_modifier),
        ("death-difficulty", r.death_difficulty.unwrap_or(0)),
    ] {
        if let Err(m) = within_limit(what, v) {
            cx.err(span.clone(), m);
        }
    }
    // Items.
    let item_ids = |list: &Option<Vec<Spanned<String>>>, cx: &mut Ctx| -> Vec<ItemId> {
        let mut v = Vec::new();
        for x in list.iter().flatten() {
            match armoury.find(x.get_ref()) {
                Some(i) => v.push(i),
                None => cx.err(
                    x.span(),
                    format!(
                        "unknown item '{}'{}",
                        x.get_ref(),
                        suggestion(x.get_ref(), armoury.items.iter().map(|i| i.id.as_str()))
                    ),
                ),
            }
        }
        v
    };
    let items = item_ids(&r.items, cx);
    let held = match &r.held {
        Some(_) => item_ids(&r.held, cx),
        // By default the first weapons that fit in two hands are in hand.
        None => {
            let mut hands = 0;
            let mut v = Vec::new();
            for &it in &items {
                let item = armoury.item(it);
                if item.weapon && hands + item.hands <= 2 && v.is_empty() {
                    hands += item.hands;
                    v.push(it);
                }
            }
            for &it in &items {
                let item = armoury.item(it);
                if !v.contains(&it) && !item.weapon && hands + item.hands <= 2 {
                    hands += item.hands;
                    v.push(it);
                }
            }
            v
        }
    };
    for h in &held {
        let carried = items.iter().filter(|i| *i == h).count();
        let in_hand = held.iter().filter(|i| *i == h).count();
        if in_hand > carried {
            cx.err(
                span.clone(),
                format!("'{}' is held more times than it is carried", armoury.item(*h).id),
            );
        }
    }
    let hands: u8 = held.iter().map(|h| armoury.item(*h).hands).sum();
    if hands > 2 {
        cx.err(span.clone(), "the held items need more than two hands");
    }
    let unloaded = item_ids(&r.unloaded, cx);
    let mut durability = Vec::new();
    if let Some(dm) = &r.durability {
        for (k, v) in dm.get_ref() {
            match armoury.find(k) {
                Some(it) if items.contains(&it) => {
                    if *v < 0 || *v > armoury.item(it).durability {
                        cx.err(
                            dm.span(),
                            format!("durability of '{k}' must be 0 to {}", armoury.item(it).durability),
                        );
                    }
                    durability.push((it, *v));
                }
                _ => cx.err(dm.span(), format!("'{k}' is not one of this combatant's items")),
            }
        }
    }
    let now = r.now.as_ref().map(|n| n.get_ref().clone()).unwrap_or_default();
    let start_of = |v: Option<i16>, max: i16| v.unwrap_or(max);
    let start = Start {
        health: start_of(now.health, stats.health),
        endurance: start_of(now.endurance, stats.endurance),
        stamina: start_of(now.stamina, stats.stamina),
        focus: start_of(now.focus, stats.focus),
        death_difficulty: r.death_difficulty.unwrap_or(options.death_difficulty),
        unconscious: r.unconscious.unwrap_or(false),
        conditions: {
            let mut bits = 0u16;
            for c in r.conditions.iter().flatten() {
                match Cond::parse(c.get_ref()) {
                    Some(x) => bits |= x.bit(),
                    None => cx.err(
                        c.span(),
                        format!(
                            "unknown condition '{}': expected {}",
                            c.get_ref(),
                            Cond::ALL.map(|c| c.name()).join(", ")
                        ),
                    ),
                }
            }
            bits
        },
        items,
        held,
        unloaded,
        durability,
    };
    if let Some(n) = &r.now {
        for (what, v, max) in [
            ("health", start.health, stats.health),
            ("endurance", start.endurance, stats.endurance),
            ("stamina", start.stamina, stats.stamina),
            ("focus", start.focus, stats.focus),
        ] {
            if !(0..=max).contains(&v) {
                cx.err(n.span(), format!("current {what} must be 0 to {max}"));
            }
        }
    }
    if cx.errors.len() > errors_before {
        return None;
    }
    Some(CharInfo {
        name: r.name.clone().unwrap_or_else(|| id.clone()),
        id,
        team,
        seat,
        at,
        stats,
        armour,
        talents,
        start,
    })
}
