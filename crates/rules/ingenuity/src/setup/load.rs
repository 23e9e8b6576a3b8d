//! Reading an encounter file: its tables, the teams and their seats, the initiative, surprise
//! and the opening action, objectives, and the combatants (through `block`).
//!
//! Every problem of the file is reported at once, each with its line and column; the setup
//! built is then validated as a record's would be. The decision behind this module: the raw
//! shapes of the file (`RawEncounter` and its tables) live with the one function that reads
//! them, apart from the stat blocks, which templates and combatants share.

use crate::data::{Armoury, build};
use crate::options::Options;
use fray_engine::diag::{Diagnostic, SourceFile, suggestion};
use fray_engine::encounter::{self as enc, Diags, GridMap, RawPos, RosterRules, Spanned, seat_of};
use fray_engine::text::ReadFile;
use fray_space::{Grid, Pos};
use serde::Deserialize;
use std::collections::BTreeMap;

use super::block::{RawChar, character};
use super::{CharInfo, Cid, Ctx, MAX_COMBATANTS, MAX_TEAMS, Objective, Opening, Setup, Team, is_word, pos};

// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawEncounter {
    ruleset: Spanned<String>,
    title: Option<String>,
    #[serde(default)]
    item_files: Vec<Spanned<String>>,
    options: Option<Spanned<toml::Table>>,
    map: Spanned<GridMap>,
    #[serde(default)]
    team: Vec<Spanned<RawTeam>>,
    initiative: Option<Spanned<RawInitiative>>,
    #[serde(default)]
    template: BTreeMap<String, Spanned<RawChar>>,
    #[serde(default)]
    combatant: Vec<Spanned<RawChar>>,
    #[serde(default)]
    item: Vec<toml::Value>,
    #[serde(default)]
    armour: Vec<toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTeam {
    id: Spanned<String>,
    name: Option<String>,
    seat: Option<Spanned<String>>,
    policy: Option<String>,
    objective: Option<Spanned<RawObjective>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawObjective {
    test: Spanned<String>,
    #[serde(default)]
    squares: Vec<Spanned<RawPos>>,
    who: Option<Spanned<String>>,
    rounds: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawInitiative {
    started_by: Option<Spanned<String>>,
    attacked: Option<Spanned<String>>,
    #[serde(default)]
    then: Vec<Spanned<String>>,
    surprise: Option<Spanned<String>>,
    opening: Option<Spanned<RawOpening>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOpening {
    who: Spanned<String>,
    action: Spanned<String>,
}

/// Loads and validates an Ingenuity encounter.
pub fn load(source: &SourceFile, read: &mut ReadFile<'_>) -> Result<(Setup, Options), Vec<Diagnostic>> {
    // Every problem of the file's shape at once; the checks below add theirs.
    let (raw, mut cx): (RawEncounter, Diags) = Diags::parse(source)?;
    if !enc::check_ruleset(&mut cx, &raw.ruleset, "ingenuity") {
        return Err(cx.errors);
    }
    let options = enc::options(&mut cx, raw.options.as_ref(), Options::check);

    // Items: the built-in ones, the files the encounter names, and its own [[item]] tables.
    let mut extra = Vec::new();
    for f in &raw.item_files {
        match read(f.get_ref()) {
            Ok(src) => extra.push(src),
            Err(m) => cx.err(f.span(), m),
        }
    }
    if !raw.item.is_empty() || !raw.armour.is_empty() {
        // Inline items are read from the encounter itself so their errors point into it.
        extra.push(inline_items(source));
    }
    let armoury = match build(&extra, &options) {
        Ok(a) => a,
        Err(mut e) => {
            cx.errors.append(&mut e);
            Armoury::default()
        }
    };

    // Map.
    let Some(map) = enc::grid(&mut cx, &raw.map) else {
        return Err(cx.errors);
    };
    if map.cells().iter().any(|c| c.difficult || c.start) {
        cx.err(
            raw.map.span(),
            "Ingenuity maps have no difficult terrain ('d') or starting areas ('s'): use '.', elevations and 'x' for blocked squares",
        );
    }

    // Teams and seats.
    let mut seats = vec!["gm".to_string()];
    let mut teams: Vec<Team> = Vec::new();
    for rt in &raw.team {
        let t = rt.get_ref();
        let id = t.id.get_ref().clone();
        if !is_word(&id) {
            cx.err(t.id.span(), "a team id must be one word of letters, digits and '-'");
        }
        if teams.iter().any(|x| x.id == id) {
            cx.err(t.id.span(), format!("team '{id}' is defined twice"));
        }
        let seat_name = t.seat.as_ref().map_or(id.clone(), |s| s.get_ref().clone());
        if let Some(s) = &t.seat
            && !is_word(s.get_ref())
        {
            cx.err(s.span(), "a seat name must be one word of letters, digits and '-'");
        }
        let seat = seat_of(&seat_name, &mut seats);
        teams.push(Team {
            name: t.name.clone().unwrap_or_else(|| id.clone()),
            id,
            seat,
            policy: t.policy.clone(),
            objective: None,
        });
    }
    if teams.len() < 2 {
        // Point at the team table there is, or at the end of the file where one would go.
        let at = raw.team.first().map_or(source.text.len(), |t| t.span().start);
        cx.err(
            at..at,
            format!(
                "an encounter needs at least two [[team]] tables ({} found)",
                teams.len()
            ),
        );
    }
    if let Some(t) = raw.team.get(MAX_TEAMS) {
        cx.err(t.span(), format!("at most {MAX_TEAMS} teams are supported"));
    }
    let team_index = |cx: &mut Ctx, s: &Spanned<String>, teams: &[Team]| -> Option<u8> {
        enc::index_of(cx, s, teams.iter().map(|t| t.id.as_str()), "team").map(|i| i as u8)
    };

    // Team order (ING-R2 to ING-R4) and surprise (ING-R14).
    let mut order: Vec<u8> = Vec::new();
    let mut surprise = None;
    let mut opening_raw = None;
    if let Some(ri) = &raw.initiative {
        let i = ri.get_ref();
        // Slot 1: the team that started the fight (ING-R2); slot 2: the team it attacked
        // (ING-R3); then the GM's order for the rest (ING-R4).
        for s in i.started_by.iter().chain(i.attacked.iter()).chain(i.then.iter()) {
            if let Some(t) = team_index(&mut cx, s, &teams) {
                if order.contains(&t) {
                    cx.err(
                        s.span(),
                        format!("team '{}' is listed twice in [initiative]", s.get_ref()),
                    );
                } else {
                    order.push(t);
                }
            }
        }
        if let Some(s) = &i.surprise {
            surprise = team_index(&mut cx, s, &teams);
        }
        opening_raw = i.opening.as_ref();
    }
    let listed = order.clone();
    // Teams the [initiative] table does not list follow in file order.
    for t in 0..teams.len() as u8 {
        if !order.contains(&t) {
            order.push(t);
        }
    }

    // Templates and combatants.
    // Typed ids match without regard to case, so ids may not differ only by case.
    let rules = RosterRules {
        limit: MAX_COMBATANTS,
        case_advice: "typed ids ignore case, so give it another id",
        id: |c: &CharInfo| c.id.as_str(),
        square: |c: &CharInfo| Some(c.at),
    };
    let (templates, chars) = enc::roster(
        &mut cx,
        &raw.template,
        &raw.combatant,
        &rules,
        |cx, rc, base, template| character(cx, rc, base, &map, &armoury, &teams, &mut seats, &options, template),
    );
    if raw.combatant.is_empty() {
        // Nothing to point at: the end of the file, where [[combatant]] tables would go.
        let end = source.text.len();
        cx.err(
            end..end,
            "an encounter needs at least one [[combatant]] table (none found in the file)",
        );
    }

    // A team with nobody in it that [initiative] does not list gets its slot when its first
    // member joins (ING-H22, the joining-teams option).
    order.retain(|t| listed.contains(t) || chars.iter().any(|c| c.team == *t));

    // Objectives, now that combatants are known.
    for (k, rt) in raw.team.iter().enumerate() {
        if let Some(o) = &rt.get_ref().objective
            && let Some(obj) = objective(&mut cx, o, &map, &chars)
            && let Some(t) = teams.get_mut(k)
        {
            t.objective = Some(obj);
        }
    }

    let opening = match opening_raw {
        None => None,
        Some(o) => match chars.iter().position(|c| &c.id == o.get_ref().who.get_ref()) {
            Some(i) => Some(Opening {
                who: i as Cid,
                action: o.get_ref().action.get_ref().clone(),
            }),
            None => {
                cx.err(
                    o.get_ref().who.span(),
                    format!(
                        "unknown combatant '{}'{}",
                        o.get_ref().who.get_ref(),
                        suggestion(o.get_ref().who.get_ref(), chars.iter().map(|c| c.id.as_str()))
                    ),
                );
                None
            }
        },
    };
    if let (Some(o), Some(raw_o)) = (&opening, opening_raw)
        && let Some(c) = chars.get(o.who as usize)
        && order.first() != Some(&c.team)
    {
        cx.err(
            raw_o.get_ref().who.span(),
            format!(
                "the opening action's character '{}' must be on the team that started the fight",
                c.id
            ),
        );
    }

    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    let setup = Setup {
        title: raw.title.clone().unwrap_or_else(|| source.name.clone()),
        map,
        seats,
        teams,
        order,
        surprise,
        opening,
        chars,
        templates,
        armoury,
    };
    // What needs the whole encounter: the opening action must be one its character can take
    // at the start (ING-R69). Point at the action text.
    if let (Some(o), Some(raw_o)) = (&setup.opening, opening_raw) {
        match crate::Ingenuity::new_state_checked(&setup, &options) {
            Err(m) => cx.err(raw_o.get_ref().action.span(), m),
            Ok(state) => {
                if let Err(m) = crate::check::opening_action_ok(&state) {
                    cx.err(
                        raw_o.get_ref().action.span(),
                        format!(
                            "the opening action '{}' of {}: {m}",
                            o.action, setup.chars[o.who as usize].id
                        ),
                    );
                }
            }
        }
    }
    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    Ok((setup, options))
}

/// The encounter's own `[[item]]` and `[[armour]]` tables, as an item file (same text, so line
/// numbers in errors point into the encounter).
fn inline_items(source: &SourceFile) -> SourceFile {
    // Keep only the item and armour tables: blank out every other line so offsets stay put.
    let mut out = String::with_capacity(source.text.len());
    let mut keep = false;
    for line in source.text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with('[') {
            keep = t.starts_with("[[item]]") || t.starts_with("[[armour]]");
        }
        if keep {
            out.push_str(line);
        } else {
            out.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        }
    }
    SourceFile {
        name: source.name.clone(),
        text: out,
    }
}

fn objective(cx: &mut Ctx, o: &Spanned<RawObjective>, map: &Grid, chars: &[CharInfo]) -> Option<Objective> {
    let r = o.get_ref();
    let squares: Vec<Pos> = r.squares.iter().filter_map(|s| pos(cx, s, map)).collect();
    let who = match &r.who {
        None => None,
        Some(w) => match chars.iter().position(|c| &c.id == w.get_ref()) {
            Some(i) => Some(i as Cid),
            None => {
                cx.err(
                    w.span(),
                    format!(
                        "unknown combatant '{}'{}",
                        w.get_ref(),
                        suggestion(w.get_ref(), chars.iter().map(|c| c.id.as_str()))
                    ),
                );
                return None;
            }
        },
    };
    match r.test.get_ref().as_str() {
        "reach" if !squares.is_empty() => Some(Objective::Reach { squares, who }),
        "reach" => {
            cx.err(r.test.span(), "a reach objective needs squares = [\"x,y\", ...]");
            None
        }
        "survive" => match r.rounds {
            Some(n) if n > 0 => Some(Objective::Survive { rounds: n }),
            _ => {
                cx.err(r.test.span(), "a survive objective needs rounds = N (N > 0)");
                None
            }
        },
        "down" => match who {
            Some(who) => Some(Objective::Down { who }),
            None => {
                cx.err(r.test.span(), "a down objective needs who = \"<combatant id>\"");
                None
            }
        },
        other => {
            cx.err(
                r.test.span(),
                format!("unknown objective test '{other}': expected reach, survive or down"),
            );
            None
        }
    }
}
