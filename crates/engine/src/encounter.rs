//! The encounter kit: what every ruleset's encounter loader shares.
//!
//! An encounter file is TOML. Its parts that mean the same in every ruleset are read here, and
//! every problem becomes a [`Diagnostic`] at the file, line and column of the value it is
//! about:
//!
//! - [`Diags`]: the diagnostics of one file, each at the start of a byte span
//!   ([`Diags::err`]), and [`parse`] for the document itself;
//! - [`check_ruleset`]: the `ruleset = "..."` line names this ruleset;
//! - [`options`]: the `[options]` table read into the ruleset's own options type and checked;
//! - [`GridMap`] and [`grid`]: the `[map]` of rows of cells read into a [`Grid`], and
//!   [`RawPos`] with [`square`] for a square on it (`"x,y"` or `[x, y]`);
//! - [`RawZone`] and [`zones`]: the `[[zone]]` tables of a zone encounter read into a
//!   [`ZoneMap`], and [`zone_of`] for a zone named by id;
//! - [`is_word`], [`seat_of`], [`index_of`] and [`combatant_id`]: ids, seats and references by
//!   id;
//! - [`Overlay`], [`overlay!`](crate::overlay) and [`template_base`]: stat-block templates that
//!   a combatant overlays field by field, and [`roster`]: templates and combatants read in
//!   order, with the checks every ruleset makes of them (repeated ids, shared squares, the
//!   limit), with [`combatant_table!`](crate::combatant_table) for both traits of a combatant
//!   table at once;
//! - [`recheck_roster`]: a record's combatants checked again as strictly as `roster` read them,
//!   and [`find_id`] for a combatant by the id typed (ignoring case).
//!
//! Sides and seats are in [`sides`](crate::sides).
//!
//! What a ruleset's tables hold, and the sentences about them, stay in the ruleset.

use crate::Seat;
use crate::diag::{Diagnostic, SourceFile};
use fray_space::{Grid, LinkSpec, MAX_ZONES, Pos, Zone, ZoneError, ZoneId, ZoneMap};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

pub use toml::Spanned;

/// A byte range of a file, as TOML spans give them.
pub type Span = Range<usize>;

/// The diagnostics collected while reading one file.
pub struct Diags<'a> {
    /// The file the spans point into.
    pub file: &'a SourceFile,
    /// The problems found so far, in the order found.
    pub errors: Vec<Diagnostic>,
}

impl<'a> Diags<'a> {
    /// No problems yet in `file`.
    pub fn new(file: &'a SourceFile) -> Self {
        Diags {
            file,
            errors: Vec::new(),
        }
    }

    /// A problem at the start of `span`.
    pub fn err(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(Diagnostic::at(self.file, span.start, message));
    }
}

/// The diagnostic for a TOML error: at the error's span (the top of the file for a problem of
/// the document as a whole), with the parser's message.
pub fn toml_diagnostic(file: &SourceFile, e: &toml::de::Error) -> Diagnostic {
    let offset = e.span().map_or(0, |s| s.start);
    Diagnostic::at(file, offset, e.message().trim().to_string())
}

/// Reads a whole file as `T`; a file that is not valid TOML or does not fit `T` is refused
/// with every problem [`Diags::parse`] finds.
pub fn parse<T: DeserializeOwned>(file: &SourceFile) -> Result<T, Vec<Diagnostic>> {
    let (value, d) = Diags::parse(file)?;
    if d.errors.is_empty() { Ok(value) } else { Err(d.errors) }
}

impl<'a> Diags<'a> {
    /// Reads a whole file as `T`, finding every problem rather than the first: a field `T`
    /// has no place for, or a value of the wrong kind, is a diagnostic (with "did you mean"
    /// for a near miss), and the file is read again without that entry, until it fits. The
    /// value read from what is left comes back with those diagnostics, so the loader's own
    /// checks can add theirs (a loader refuses the file while any diagnostic stands). A file
    /// that is not TOML, a missing field, or an entry that cannot be set aside stops the
    /// reading there (`Err`, with every problem found so far).
    pub fn parse<T: DeserializeOwned>(file: &'a SourceFile) -> Result<(T, Diags<'a>), Vec<Diagnostic>> {
        let mut d = Diags::new(file);
        let mut text = file.text.clone();
        let mut set_aside: Vec<String> = Vec::new();
        // Each round sets one entry aside; a file has far fewer problems than this.
        for _ in 0..200 {
            let e = match toml::from_str::<T>(&text) {
                Ok(v) => return Ok((v, d)),
                Err(e) => e,
            };
            let message = e.message().trim().to_string();
            // The field an earlier problem set aside is now missing: that is the same problem.
            let echo =
                message.starts_with("missing field") && set_aside.iter().any(|k| message.contains(&format!("`{k}`")));
            if !echo {
                d.errors.push(Diagnostic::at(
                    file,
                    e.span().map_or(0, |s| s.start),
                    with_hint(&message),
                ));
            }
            let entry = if message.starts_with("missing field") {
                None
            } else {
                e.span().and_then(|s| entry_at(&text, s.start))
            };
            let Some((key, range)) = entry else { break };
            blank(&mut text, range);
            // Setting it aside must leave TOML (a table's header cannot go alone).
            if toml::de::DeTable::parse(&text).is_err() {
                break;
            }
            set_aside.push(key);
        }
        Err(d.errors)
    }
}

/// A serde message with a "did you mean" for an unknown field or variant whose expected names
/// the message lists (`unknown field `strenght`, expected one of `str`, ...`).
fn with_hint(message: &str) -> String {
    let Some(rest) = message
        .strip_prefix("unknown field `")
        .or_else(|| message.strip_prefix("unknown variant `"))
    else {
        return message.to_string();
    };
    let Some((typed, expected)) = rest.split_once('`') else {
        return message.to_string();
    };
    let names: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    let what = if message.starts_with("unknown field") {
        "field"
    } else {
        "variant"
    };
    match crate::diag::did_you_mean(typed, names.iter().copied()) {
        // A long list of names says little once the one meant is named.
        Some(n) if names.len() > 12 => format!("unknown {what} `{typed}` (did you mean `{n}`?)"),
        Some(n) => format!("{message} (did you mean `{n}`?)"),
        None => message.to_string(),
    }
}

/// The innermost entry (`key = value`) of the TOML `text` whose key or value holds the byte
/// `offset`: its key and its byte range, from the key to the end of the value, with the comma
/// that separates it from its neighbour in an inline table. `None` when the text is not TOML
/// or no entry holds the offset.
fn entry_at(text: &str, offset: usize) -> Option<(String, Range<usize>)> {
    use toml::de::{DeTable, DeValue};
    // Tables are searched whatever their own spans say (an array of tables is spread over
    // the file); an entry is `key = value`, a key before its value on one line or more.
    fn within(text: &str, t: &DeTable<'_>, offset: usize) -> Option<(String, Range<usize>)> {
        for (k, v) in t.iter() {
            let inner = match v.get_ref() {
                DeValue::Table(t) => within(text, t, offset),
                DeValue::Array(items) => items.iter().find_map(|i| match i.get_ref() {
                    DeValue::Table(t) => within(text, t, offset),
                    _ => None,
                }),
                _ => None,
            };
            if inner.is_some() {
                return inner;
            }
            let (ks, vs) = (k.span(), v.span());
            // Only `key = value` itself: not a `[table]` or `[[table]]` a header opens.
            let assigned = text.get(ks.end..vs.start).is_some_and(|between| between.contains('='));
            if assigned && (ks.start..vs.end).contains(&offset) {
                return Some((k.get_ref().to_string(), ks.start..vs.end));
            }
        }
        None
    }
    let doc = DeTable::parse(text).ok()?;
    let (key, mut range) = within(text, doc.get_ref(), offset)?;
    // An entry of an inline table takes its comma with it, so what is left stays TOML.
    let after = text[range.end..].find(|c: char| !c.is_whitespace() || c == '\n');
    if let Some(i) = after
        && text[range.end + i..].starts_with(',')
    {
        range.end += i + 1;
    } else if let Some(i) = text[..range.start].rfind(|c: char| !c.is_whitespace())
        && text[i..].starts_with(',')
    {
        range.start = i;
    }
    Some((key, range))
}

/// Replaces a byte range of `text` with spaces (new lines kept, so every later line and column
/// stays where it was).
fn blank(text: &mut String, range: Range<usize>) {
    let blanked: String = text[range.clone()]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    // Multi-byte characters become single spaces: pad so later offsets stay put.
    let pad = range.len() - blanked.len();
    text.replace_range(range, &format!("{blanked}{}", " ".repeat(pad)));
}

/// Checks that the `ruleset` value names `id` ("this file is for ruleset 'x', not 'id'" at the
/// value otherwise); returns whether it does.
pub fn check_ruleset(d: &mut Diags, ruleset: &Spanned<String>, id: &str) -> bool {
    if ruleset.get_ref() == id {
        return true;
    }
    d.err(
        ruleset.span(),
        format!("this file is for ruleset '{}', not '{id}'", ruleset.get_ref()),
    );
    false
}

/// The `[options]` table read into `O`, or `O::default()` when there is none. Each name `O`
/// does not have is a diagnostic at its line (with "did you mean" for a near miss) and is left
/// out; a wrong value is a diagnostic at the table and gives the default; a table that fits but
/// fails `check` is a diagnostic and is kept. All start with "in [options]: ".
pub fn options<O: DeserializeOwned + Default>(
    d: &mut Diags,
    table: Option<&Spanned<toml::Table>>,
    check: impl FnOnce(&O) -> Result<(), String>,
) -> O {
    let Some(t) = table else {
        return O::default();
    };
    // Each name the options do not have is a diagnostic at its line and is left out, so every
    // one is found in one reading.
    let mut left = t.get_ref().clone();
    loop {
        match toml::Value::Table(left.clone()).try_into::<O>() {
            Ok(o) => {
                if let Err(m) = check(&o) {
                    d.err(t.span(), format!("in [options]: {m}"));
                }
                return o;
            }
            Err(e) => {
                let message = with_hint(e.message().trim());
                let unknown = message
                    .strip_prefix("unknown field `")
                    .and_then(|r| r.split_once('`'))
                    .map(|(k, _)| k.to_string())
                    .filter(|k| left.contains_key(k));
                let at = unknown
                    .as_deref()
                    .and_then(|k| key_line(&d.file.text, t.span(), k))
                    .map_or(t.span(), |o| o..o);
                d.err(at, format!("in [options]: {message}"));
                match unknown {
                    Some(k) => {
                        left.remove(&k);
                    }
                    None => return O::default(),
                }
            }
        }
    }
}

/// Where the line `key = ...` of the table that starts at `span` starts in `text` (a table
/// header's span is the header alone: its lines run to the next header), if it is there.
fn key_line(text: &str, span: Span, key: &str) -> Option<usize> {
    let rest = text.get(span.start..)?;
    let mut offset = 0;
    for (n, line) in rest.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if n > 0 && trimmed.starts_with('[') {
            break;
        }
        let indent = line.len() - trimmed.len();
        if let Some(after) = trimmed.strip_prefix(key)
            && after.trim_start().starts_with('=')
        {
            return Some(span.start + offset + indent);
        }
        offset += line.len();
    }
    None
}

/// The `[map]` table of a grid encounter: rows of cells from north to south (see
/// [`Grid::parse_rows`] for the cells).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GridMap {
    /// The rows, each a TOML string.
    pub rows: Vec<Spanned<String>>,
}

/// Reads the `[map]` rows into a grid. An empty map is a diagnostic at the table; a bad cell is
/// one at the cell ("in the map: ..."). `None` after any problem.
pub fn grid(d: &mut Diags, map: &Spanned<GridMap>) -> Option<Grid> {
    let rows: Vec<&str> = map.get_ref().rows.iter().map(|r| r.get_ref().as_str()).collect();
    if rows.is_empty() {
        d.err(map.span(), "the map needs at least one row");
        return None;
    }
    match Grid::parse_rows(&rows) {
        Ok(g) => Some(g),
        Err(e) => {
            let row = &map.get_ref().rows[e.row.min(rows.len() - 1)];
            // +1 skips the opening quote of the TOML string.
            let offset = row.span().start + 1 + e.column.saturating_sub(1);
            d.errors
                .push(Diagnostic::at(d.file, offset, format!("in the map: {}", e.message)));
            None
        }
    }
}

/// A square as written: `"x,y"` or `[x, y]`.
#[derive(Deserialize, Clone, Debug, PartialEq)]
#[serde(untagged)]
pub enum RawPos {
    /// `[x, y]`.
    Pair([i64; 2]),
    /// `"x,y"`.
    Text(String),
}

/// The square `raw` names, if it is one and it is on the map; a diagnostic at it otherwise.
pub fn square(d: &mut Diags, raw: &Spanned<RawPos>, map: &Grid) -> Option<Pos> {
    let p = match raw.get_ref() {
        RawPos::Pair([x, y]) => match (i16::try_from(*x), i16::try_from(*y)) {
            (Ok(x), Ok(y)) => Some(Pos::new(x, y)),
            _ => None,
        },
        RawPos::Text(t) => t.parse::<Pos>().ok(),
    };
    match p {
        None => {
            d.err(raw.span(), "expected a square as \"x,y\" or [x, y]");
            None
        }
        Some(p) if !map.contains(p) => {
            d.err(
                raw.span(),
                format!(
                    "square {p} is outside the map (x 0..{}, y 0..{})",
                    map.width() - 1,
                    map.height() - 1
                ),
            );
            None
        }
        Some(p) => Some(p),
    }
}

/// One word of letters, digits, '-' and '_' (ids of sides, teams, seats, combatants and zones):
/// [`fray_space::is_word`].
pub fn is_word(s: &str) -> bool {
    fray_space::is_word(s)
}

/// A `[[zone]]` table of a zone encounter (see docs/encounters.md, "Zone maps").
#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
pub struct RawZone {
    /// The id, one word, typed in commands.
    pub id: Spanned<String>,
    /// An optional display name.
    pub name: Option<Spanned<String>>,
    /// The zones this one is linked to. Links are undirected: listing one from either end, or
    /// from both, gives the same link.
    #[serde(default)]
    pub links: Vec<Spanned<String>>,
    /// How many cover spots the zone has (default 0).
    #[serde(default)]
    pub cover: u8,
    /// Whether the zone is an exit from the battlefield (default `false`).
    #[serde(default)]
    pub exit: bool,
    /// Free words the ruleset interprets (`dark`, `water`).
    #[serde(default)]
    pub tags: Vec<Spanned<String>>,
    /// Obstacle labels by linked zone: `{ woods = "brambles" }` puts `brambles` on the link to
    /// `woods` (which either end may list).
    #[serde(default)]
    pub obstacles: BTreeMap<Spanned<String>, Spanned<String>>,
}

/// "unknown zone 'x' (did you mean 'y'?); the zones are: a, b, c".
pub fn unknown_zone<'i>(name: &str, ids: impl IntoIterator<Item = &'i str>) -> String {
    let ids: Vec<&str> = ids.into_iter().collect();
    format!(
        "unknown zone '{name}'{}; the zones are: {}",
        crate::diag::suggestion(name, ids.iter().copied()),
        ids.join(", ")
    )
}

/// The lower-case ids of a link's ends, in sorted order: one key for both directions.
fn link_key(a: &str, b: &str) -> (String, String) {
    let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
    if a <= b { (a, b) } else { (b, a) }
}

/// Reads the `[[zone]]` tables into a [`ZoneMap`] (each zone's [`ZoneId`] is its position in
/// the file). Links are declared in file order, each zone's `links` in turn; a link listed again
/// from its other end is the same link (its place in the order is the first listing). Every
/// problem is a diagnostic: no zones at all (at line 1, column 1), more than 64 (at the first zone
/// beyond), a bad or repeated id (also by case), a bad name or tag (at it), a link to an unknown
/// zone ("unknown zone 'x'; the zones are: ..."), to the zone itself or listed twice from the
/// same zone (at the name in `links`), an obstacle on a zone this one has no link to (at the
/// key), a bad obstacle label or one the link's other end gives differently (at the label).
/// `None` after any problem.
pub fn zones(d: &mut Diags, raw: &[Spanned<RawZone>]) -> Option<ZoneMap> {
    if raw.is_empty() {
        // A problem of the whole file, placed at its start as the other whole-file ones are.
        d.err(0..0, "a zone encounter needs at least one [[zone]]");
        return None;
    }
    if let Some(extra) = raw.get(MAX_ZONES) {
        d.err(extra.span(), format!("at most {MAX_ZONES} zones are supported"));
        return None;
    }
    let mut links: Vec<LinkSpec> = Vec::new();
    // Where each link was first listed (the name in `links`) and where its obstacle came from.
    let mut link_spans: Vec<Span> = Vec::new();
    let mut label_spans: Vec<Option<Span>> = Vec::new();
    let mut by_key: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut listed: BTreeSet<(String, String)> = BTreeSet::new();
    for z in raw.iter().map(Spanned::get_ref) {
        let from = z.id.get_ref();
        for to in &z.links {
            let directed = (from.to_ascii_lowercase(), to.get_ref().to_ascii_lowercase());
            let key = link_key(from, to.get_ref());
            // Listed from the other end already: the same link. Listed from this end again: a
            // second link, which the map refuses as a repeat.
            if listed.insert(directed) && by_key.contains_key(&key) {
                continue;
            }
            by_key.entry(key).or_insert(links.len());
            links.push(LinkSpec::new(from.clone(), to.get_ref().clone()));
            link_spans.push(to.span());
            label_spans.push(None);
        }
    }
    let mut fine = true;
    for z in raw.iter().map(Spanned::get_ref) {
        let from = z.id.get_ref();
        for (to, label) in &z.obstacles {
            let Some(&k) = by_key.get(&link_key(from, to.get_ref())) else {
                d.err(
                    to.span(),
                    format!("zone '{from}' has no link to '{}' to put an obstacle on", to.get_ref()),
                );
                fine = false;
                continue;
            };
            match &links[k].obstacle {
                Some(other) if other != label.get_ref() => {
                    d.err(
                        label.span(),
                        format!(
                            "the link between '{}' and '{}' already has the obstacle '{other}'",
                            links[k].a, links[k].b
                        ),
                    );
                    fine = false;
                }
                Some(_) => {}
                None => {
                    links[k].obstacle = Some(label.get_ref().clone());
                    label_spans[k] = Some(label.span());
                }
            }
        }
    }
    let specs: Vec<Zone> = raw
        .iter()
        .map(|z| {
            let z = z.get_ref();
            Zone {
                id: z.id.get_ref().clone(),
                name: z.name.as_ref().map(|n| n.get_ref().clone()),
                cover: z.cover,
                exit: z.exit,
                tags: z.tags.iter().map(|t| t.get_ref().clone()).collect(),
            }
        })
        .collect();
    let problems = ZoneMap::problems(&specs, &links);
    for p in &problems {
        let zone = |i: usize| raw[i].get_ref();
        let (span, message) = match p {
            ZoneError::NoZones | ZoneError::TooManyZones { .. } => (raw[0].span(), p.to_string()),
            ZoneError::BadId { zone: i, .. } | ZoneError::DuplicateId { zone: i, .. } => {
                (zone(*i).id.span(), p.to_string())
            }
            ZoneError::BadName { zone: i, .. } => {
                let span = zone(*i).name.as_ref().map_or_else(|| raw[*i].span(), Spanned::span);
                (span, p.to_string())
            }
            ZoneError::BadTag { zone: i, tag_index, .. } | ZoneError::DuplicateTag { zone: i, tag_index, .. } => {
                (zone(*i).tags[*tag_index].span(), p.to_string())
            }
            ZoneError::UnknownZone { link, name } => (
                link_spans[*link].clone(),
                unknown_zone(name, raw.iter().map(|z| z.get_ref().id.get_ref().as_str())),
            ),
            ZoneError::SelfLink { link, .. } | ZoneError::DuplicateLink { link, .. } => {
                (link_spans[*link].clone(), p.to_string())
            }
            ZoneError::BadObstacle { link, .. } => (
                label_spans[*link].clone().unwrap_or_else(|| link_spans[*link].clone()),
                p.to_string(),
            ),
        };
        d.err(span, message);
    }
    if !fine || !problems.is_empty() {
        return None;
    }
    ZoneMap::new(specs, links).ok()
}

/// The zone `name` names (ignoring case); "unknown zone 'x'; the zones are: a, b, c" at it
/// otherwise.
pub fn zone_of(d: &mut Diags, name: &Spanned<String>, map: &ZoneMap) -> Option<ZoneId> {
    let found = map.find(name.get_ref());
    if found.is_none() {
        d.err(
            name.span(),
            unknown_zone(name.get_ref(), map.zones().iter().map(|z| z.id.as_str())),
        );
    }
    found
}

/// The seat called `name`, added to `seats` (seat numbers are positions in it; the GM's seat,
/// `"gm"`, comes first) if it is new.
pub fn seat_of(name: &str, seats: &mut Vec<String>) -> Seat {
    match seats.iter().position(|s| s == name) {
        Some(i) => Seat(i as u8),
        None => {
            seats.push(name.to_string());
            Seat((seats.len() - 1) as u8)
        }
    }
}

/// The position of the id `name` names among `ids`; "unknown WHAT 'name'" at it otherwise.
pub fn index_of<'i>(
    d: &mut Diags,
    name: &Spanned<String>,
    ids: impl IntoIterator<Item = &'i str>,
    what: &str,
) -> Option<usize> {
    let ids: Vec<&str> = ids.into_iter().collect();
    let found = ids.iter().position(|id| id == name.get_ref());
    if found.is_none() {
        d.err(
            name.span(),
            format!(
                "unknown {what} '{}'{}",
                name.get_ref(),
                crate::diag::suggestion(name.get_ref(), ids.iter().copied())
            ),
        );
    }
    found
}

/// A combatant's (or template's) id. An id must be one word (the diagnostic gives `example`,
/// such as "guard-1"); a combatant without one is refused at its table (`None`), a template
/// without one has the empty id.
pub fn combatant_id(
    d: &mut Diags,
    id: Option<&Spanned<String>>,
    table: Span,
    template: bool,
    example: &str,
) -> Option<String> {
    match id {
        Some(id) => {
            if !is_word(id.get_ref()) {
                d.err(
                    id.span(),
                    format!("an id must be one word of letters, digits and '-' (e.g. \"{example}\")"),
                );
            }
            Some(id.get_ref().clone())
        }
        None if template => Some(String::new()),
        None => {
            d.err(table, "a combatant needs an id");
            None
        }
    }
}

/// Which earlier id a new combatant id clashes with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdClash<'a> {
    /// The same id again.
    Twice,
    /// An id that differs only by case (typed ids ignore case, so both could never be named).
    ByCase(&'a str),
}

/// Whether `id` clashes with one of `earlier` (see [`IdClash`]).
pub fn id_clash<'i>(id: &str, earlier: impl IntoIterator<Item = &'i str>) -> Option<IdClash<'i>> {
    let o = earlier.into_iter().find(|o| o.eq_ignore_ascii_case(id))?;
    Some(if o == id { IdClash::Twice } else { IdClash::ByCase(o) })
}

/// A raw table whose fields a combatant takes from its template when it leaves them out.
pub trait Overlay {
    /// This table with every field it leaves out taken from `base`.
    fn over(&self, base: &Self) -> Self;
}

/// Implements [`Overlay`] for a struct whose fields are all `Option`s:
/// `overlay!(RawChar { id, name, speed });` must list every field.
#[macro_export]
macro_rules! overlay {
    ($t:ident { $($f:ident),* $(,)? }) => {
        impl $crate::encounter::Overlay for $t {
            fn over(&self, base: &Self) -> Self {
                $t { $($f: self.$f.clone().or_else(|| base.$f.clone()),)* }
            }
        }
    };
}

/// Implements [`Overlay`] (as [`overlay!`](crate::overlay) does) and [`CombatantTable`] for a
/// combatant table whose fields are all `Option`s and include `id` and `template` (both
/// `Option<Spanned<String>>`): `combatant_table!(RawChar { id, template, speed });` must list
/// every field.
#[macro_export]
macro_rules! combatant_table {
    ($t:ident { $($f:ident),* $(,)? }) => {
        $crate::overlay!($t { $($f),* });
        impl $crate::encounter::CombatantTable for $t {
            fn id(&self) -> Option<&$crate::encounter::Spanned<String>> {
                self.id.as_ref()
            }
            fn template(&self) -> Option<&$crate::encounter::Spanned<String>> {
                self.template.as_ref()
            }
        }
    };
}

/// The template a combatant names (`template = "name"`), or the default table when it names
/// none; `None` with "unknown template 'name'" at the name when there is no such template.
pub fn template_base<T: Clone + Default>(
    d: &mut Diags,
    name: Option<&Spanned<String>>,
    templates: &BTreeMap<String, Spanned<T>>,
) -> Option<T> {
    match name {
        None => Some(T::default()),
        Some(t) => match templates.get(t.get_ref()) {
            Some(b) => Some(b.get_ref().clone()),
            None => {
                d.err(
                    t.span(),
                    format!(
                        "unknown template '{}'{}",
                        t.get_ref(),
                        crate::diag::suggestion(t.get_ref(), templates.keys().map(String::as_str))
                    ),
                );
                None
            }
        },
    }
}

/// A combatant (or template) table as the kit reads it.
pub trait CombatantTable: Overlay + Clone + Default {
    /// The `id` field.
    fn id(&self) -> Option<&Spanned<String>>;
    /// The `template` field.
    fn template(&self) -> Option<&Spanned<String>>;
}

/// How [`roster`] sees a ruleset's combatants.
pub struct RosterRules<C> {
    /// The most combatants an encounter may have ("at most N combatants are supported").
    pub limit: usize,
    /// The end of the sentence for ids that differ only by case ("combatant id 'a' differs from
    /// 'A' only by case; ADVICE").
    pub case_advice: &'static str,
    /// A built combatant's id.
    pub id: fn(&C) -> &str,
    /// The square a built combatant starts on, if it has one now.
    pub square: fn(&C) -> Option<Pos>,
}

/// Reads the templates (each built alone, in name order) and then the combatants (each built
/// over the template it names, in file order) with `build(diags, table, base, is_template)`.
/// A combatant whose id repeats an earlier one (or differs from it only by case) is refused at
/// its id, one on an occupied square at its table, and tables beyond the limit at the first of
/// them; the combatant is kept in all three cases, so later checks see it.
pub fn roster<R: CombatantTable, C>(
    d: &mut Diags,
    templates: &BTreeMap<String, Spanned<R>>,
    combatants: &[Spanned<R>],
    rules: &RosterRules<C>,
    mut build: impl FnMut(&mut Diags, &Spanned<R>, &R, bool) -> Option<C>,
) -> (BTreeMap<String, C>, Vec<C>) {
    let mut built = BTreeMap::new();
    for (name, t) in templates {
        if let Some(c) = build(d, t, &R::default(), true) {
            built.insert(name.clone(), c);
        }
    }
    let mut chars: Vec<C> = Vec::new();
    for rc in combatants {
        let Some(base) = template_base(d, rc.get_ref().template(), templates) else {
            continue;
        };
        let Some(c) = build(d, rc, &base, false) else {
            continue;
        };
        let id = (rules.id)(&c);
        let id_at = rc.get_ref().id().map_or(rc.span(), |i| i.span());
        match id_clash(id, chars.iter().map(|o| (rules.id)(o))) {
            None => {}
            Some(IdClash::Twice) => d.err(id_at, format!("combatant '{id}' is defined twice")),
            Some(IdClash::ByCase(o)) => d.err(
                id_at,
                format!(
                    "combatant id '{id}' differs from '{o}' only by case; {}",
                    rules.case_advice
                ),
            ),
        }
        if let Some(p) = (rules.square)(&c)
            && chars.iter().any(|o| (rules.square)(o) == Some(p))
        {
            d.err(rc.span(), format!("square {p} already holds another combatant"));
        }
        chars.push(c);
    }
    if let Some(extra) = combatants.get(rules.limit) {
        d.err(
            extra.span(),
            format!("at most {} combatants are supported", rules.limit),
        );
    }
    (built, chars)
}

/// The position of the id typed as `typed` among `ids`: typed ids ignore case.
pub fn find_id<'i>(ids: impl IntoIterator<Item = &'i str>, typed: &str) -> Option<usize> {
    ids.into_iter().position(|id| id.eq_ignore_ascii_case(typed))
}

/// Checks a record's combatants again as [`roster`] and the loader did: at most the limit, and
/// each in turn has a one-word id on an existing side (of `sides`), an id no earlier one has
/// (ignoring case) and an open square of `map` no earlier one stands on, then passes `more`
/// (the ruleset's own checks of it). A combatant without a square (`rules.square` gives
/// `None`) is not checked for one, and a game without squares (zones) passes no grid.
pub fn recheck_roster<C>(
    combatants: &[C],
    sides: usize,
    map: Option<&Grid>,
    rules: &RosterRules<C>,
    side: impl Fn(&C) -> usize,
    mut more: impl FnMut(&C) -> Result<(), String>,
) -> Result<(), String> {
    if combatants.len() > rules.limit {
        return Err(format!("at most {} combatants are supported", rules.limit));
    }
    for (i, c) in combatants.iter().enumerate() {
        let earlier = &combatants[..i];
        let id = (rules.id)(c);
        if side(c) >= sides || !is_word(id) {
            return Err(format!("combatant '{id}' has a bad id or side"));
        }
        if id_clash(id, earlier.iter().map(|e| (rules.id)(e))).is_some() {
            return Err(format!("combatant id '{id}' is used twice"));
        }
        if let Some(at) = (rules.square)(c)
            && (map.and_then(|m| m.get(at)).is_none_or(|cell| cell.blocked)
                || earlier.iter().any(|e| (rules.square)(e) == Some(at)))
        {
            return Err(format!("combatant '{id}' stands on {at}, which is not an open square"));
        }
        more(c)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    fn file(text: &str) -> SourceFile {
        SourceFile {
            name: "enc.toml".into(),
            text: text.into(),
        }
    }

    fn texts(d: &Diags) -> Vec<String> {
        d.errors.iter().map(|e| e.to_string()).collect()
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        ruleset: Spanned<String>,
        options: Option<Spanned<toml::Table>>,
        map: Option<Spanned<GridMap>>,
        #[serde(default)]
        at: Vec<Spanned<RawPos>>,
        #[serde(default)]
        template: BTreeMap<String, Spanned<Raw>>,
        #[serde(default)]
        combatant: Vec<Spanned<Raw>>,
    }

    #[derive(Deserialize, Clone, Default, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Raw {
        id: Option<Spanned<String>>,
        template: Option<Spanned<String>>,
        speed: Option<i16>,
        reach: Option<i16>,
    }
    crate::combatant_table!(Raw {
        id,
        template,
        speed,
        reach
    });

    #[derive(Deserialize, Default, Debug, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "kebab-case")]
    struct Opts {
        #[serde(default)]
        max_rounds: u16,
    }

    #[test]
    fn a_document_that_does_not_fit_is_one_diagnostic_at_its_place() {
        let f = file("ruleset = \"toy\"\nnonsense = 1\n");
        let e = parse::<Doc>(&f).err().expect("unknown field");
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].line, e[0].column), (2, 1));
        assert!(e[0].message.contains("unknown field `nonsense`"), "{}", e[0].message);
        let e = parse::<Doc>(&file("ruleset = \n")).err().expect("not TOML");
        assert_eq!(e[0].line, 1);
    }

    #[test]
    fn every_field_that_does_not_fit_is_reported_and_the_rest_is_read() {
        // Unknown fields at the top, in two tables of an array, in an inline table, and a
        // value of the wrong kind: each is a diagnostic at its place, each with the name meant
        // where one is close, and what is left is read for the loader's own checks.
        let f = file(concat!(
            "ruleset = \"toy\"\n",
            "nonsense = 1\n",
            "[[combatant]]\n",
            "id = \"a\"\n",
            "sped = 3\n",
            "[[combatant]]\n",
            "id = \"b\"\n",
            "reach = \"far\"\n",
            "[template.t]\n",
            "x = { y = 1 }\n",
        ));
        let e = parse::<Doc>(&f).err().expect("problems");
        // Found in the order the reader meets the keys; the command line sorts them by place.
        let mut found: Vec<(usize, &str)> = e.iter().map(|d| (d.line, d.message.as_str())).collect();
        found.sort();
        assert_eq!(found.len(), 4, "{found:#?}");
        assert_eq!(found[0].0, 2);
        assert!(found[0].1.starts_with("unknown field `nonsense`"));
        assert_eq!(found[1].0, 5);
        assert!(found[1].1.ends_with("(did you mean `speed`?)"), "{}", found[1].1);
        assert_eq!(found[2].0, 8);
        assert!(found[2].1.contains("invalid type"), "{}", found[2].1);
        assert_eq!(found[3].0, 10);
        assert!(found[3].1.starts_with("unknown field `x`"), "{}", found[3].1);
        // The value read from what is left comes with them.
        let left = file("ruleset = \"toy\"\nnonsense = 1\n[[combatant]]\nid = \"a\"\n");
        let (doc, d) = Diags::parse::<Doc>(&left).unwrap();
        assert_eq!(d.errors.len(), 1);
        assert_eq!(doc.combatant.len(), 1);
        // Inside an inline table, an entry goes with its comma: what is left is still TOML.
        let inline = file("ruleset = \"toy\"\ncombatant = [{ id = \"a\", sped = 2, reach = 1 }]\n");
        let (doc, d) = Diags::parse::<Doc>(&inline).unwrap();
        assert_eq!(d.errors.len(), 1, "{:?}", texts(&d));
        assert_eq!(doc.combatant[0].get_ref().reach, Some(1));
        // A missing field stops the reading: nothing after it is guessed at.
        let e = parse::<Doc>(&file("nonsense = 1\n")).err().unwrap();
        assert_eq!(e.len(), 2);
        assert!(e[1].message.contains("missing field `ruleset`"), "{}", e[1].message);
    }

    #[test]
    fn the_ruleset_line_must_name_this_ruleset() {
        let f = file("\nruleset = \"other\"\n");
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        assert!(!check_ruleset(&mut d, &doc.ruleset, "toy"));
        assert_eq!(
            texts(&d),
            ["enc.toml:2:11: error: this file is for ruleset 'other', not 'toy'"]
        );
        let mut d = Diags::new(&f);
        assert!(check_ruleset(&mut d, &doc.ruleset, "other"));
        assert!(d.errors.is_empty());
    }

    #[test]
    fn options_are_read_checked_or_defaulted() {
        let check = |o: &Opts| {
            if o.max_rounds > 99 {
                Err("max-rounds is at most 99".to_string())
            } else {
                Ok(())
            }
        };
        let f = file("ruleset = \"toy\"\n[options]\nmax-rounds = 7\n");
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        assert_eq!(options(&mut d, doc.options.as_ref(), check), Opts { max_rounds: 7 });
        assert!(d.errors.is_empty());

        let f = file("ruleset = \"toy\"\n[options]\nmax-rounds = 700\n");
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        assert_eq!(options(&mut d, doc.options.as_ref(), check), Opts { max_rounds: 700 });
        assert_eq!(
            texts(&d),
            ["enc.toml:2:1: error: in [options]: max-rounds is at most 99"]
        );

        let f = file("ruleset = \"toy\"\n[options]\nmax-turns = 7\n");
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        assert_eq!(options(&mut d, doc.options.as_ref(), check), Opts::default());
        assert_eq!(d.errors.len(), 1);
        assert!(
            d.errors[0]
                .message
                .starts_with("in [options]: unknown field `max-turns`")
        );
        // Every unknown name, each at its line, with the name meant; the rest still applies.
        let f = file("ruleset = \"toy\"\n[options]\nmax-turns = 7\nmax-round = 3\nmax-rounds = 5\n");
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        assert_eq!(options(&mut d, doc.options.as_ref(), check), Opts { max_rounds: 5 });
        let mut t = texts(&d);
        t.sort();
        assert_eq!(t.len(), 2, "{t:?}");
        assert!(
            t[0].starts_with("enc.toml:3:1: error: in [options]: unknown field `max-turns`"),
            "{t:?}"
        );
        assert!(
            t[1].starts_with("enc.toml:4:1: error: in [options]: unknown field `max-round`"),
            "{t:?}"
        );
        assert!(t[1].ends_with("(did you mean `max-rounds`?)"), "{t:?}");

        let f = file("ruleset = \"toy\"\n");
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        assert_eq!(
            options(&mut d, doc.options.as_ref(), |_: &Opts| Err("never".into())),
            Opts::default()
        );
        assert!(d.errors.is_empty());
    }

    #[test]
    fn a_map_is_read_and_a_bad_cell_is_pointed_at() {
        let f = file(
            "ruleset = \"toy\"\nat = [\"1,1\", [2, 0], \"5,0\", \"a\"]\n[map]\nrows = [\n  \". . .\",\n  \". x .\",\n]\n",
        );
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        let g = grid(&mut d, doc.map.as_ref().expect("map")).expect("grid");
        assert_eq!((g.width(), g.height()), (3, 2));
        let squares: Vec<Option<Pos>> = doc.at.iter().map(|p| square(&mut d, p, &g)).collect();
        assert_eq!(squares, [Some(Pos::new(1, 1)), Some(Pos::new(2, 0)), None, None]);
        assert_eq!(
            texts(&d),
            [
                "enc.toml:2:22: error: square 5,0 is outside the map (x 0..2, y 0..1)",
                "enc.toml:2:29: error: expected a square as \"x,y\" or [x, y]",
            ]
        );

        let f = file("ruleset = \"toy\"\n[map]\nrows = [\n  \". . .\",\n  \". ? .\",\n]\n");
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        assert!(grid(&mut d, doc.map.as_ref().expect("map")).is_none());
        assert_eq!(d.errors.len(), 1);
        assert_eq!((d.errors[0].line, d.errors[0].column), (5, 6), "at the ?");
        assert!(d.errors[0].message.starts_with("in the map: "));

        let f = file("ruleset = \"toy\"\n[map]\nrows = []\n");
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        assert!(grid(&mut d, doc.map.as_ref().expect("map")).is_none());
        assert_eq!(texts(&d), ["enc.toml:2:1: error: the map needs at least one row"]);
    }

    #[test]
    fn seats_ids_and_references() {
        let mut seats = vec!["gm".to_string()];
        assert_eq!(seat_of("players", &mut seats), Seat(1));
        assert_eq!(seat_of("gm", &mut seats), Seat::GM);
        assert_eq!(seat_of("players", &mut seats), Seat(1));
        assert_eq!(seats, ["gm", "players"]);
        assert!(is_word("guard-1") && is_word("a_b") && !is_word("") && !is_word("two words"));
        assert_eq!(id_clash("Ann", ["bob", "ann"]), Some(IdClash::ByCase("ann")));
        assert_eq!(id_clash("ann", ["bob", "ann"]), Some(IdClash::Twice));
        assert_eq!(id_clash("cy", ["bob", "ann"]), None);

        let f =
            file("ruleset = \"toy\"\n[[combatant]]\nid = \"bad id\"\ntemplate = \"orc\"\n[[combatant]]\nspeed = 3\n");
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        let c = &doc.combatant;
        assert_eq!(
            combatant_id(&mut d, c[0].get_ref().id.as_ref(), c[0].span(), false, "guard-1").as_deref(),
            Some("bad id")
        );
        assert_eq!(combatant_id(&mut d, None, c[1].span(), false, "guard-1"), None);
        assert_eq!(
            combatant_id(&mut d, None, c[1].span(), true, "guard-1").as_deref(),
            Some("")
        );
        let name = c[0].get_ref().template.as_ref().expect("template");
        assert_eq!(index_of(&mut d, name, ["elf", "orc"], "kind"), Some(1));
        assert_eq!(index_of(&mut d, name, ["elf"], "kind"), None);
        assert_eq!(
            texts(&d),
            [
                "enc.toml:3:6: error: an id must be one word of letters, digits and '-' (e.g. \"guard-1\")",
                "enc.toml:5:1: error: a combatant needs an id",
                "enc.toml:4:12: error: unknown kind 'orc'",
            ]
        );
    }

    #[test]
    fn a_combatant_overlays_its_template() {
        let f = file(
            "ruleset = \"toy\"\n[template.orc]\nspeed = 5\nreach = 2\n[[combatant]]\nid = \"a\"\ntemplate = \"orc\"\nreach = 1\n[[combatant]]\nid = \"b\"\ntemplate = \"elf\"\n[[combatant]]\nid = \"c\"\n",
        );
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        let mut out = Vec::new();
        for c in &doc.combatant {
            if let Some(base) = template_base(&mut d, c.get_ref().template.as_ref(), &doc.template) {
                let r = c.get_ref().over(&base);
                out.push((r.id.map(|i| i.into_inner()), r.speed, r.reach));
            }
        }
        assert_eq!(
            out,
            [
                (Some("a".to_string()), Some(5), Some(1)),
                (Some("c".to_string()), None, None)
            ]
        );
        assert_eq!(texts(&d), ["enc.toml:11:12: error: unknown template 'elf'"]);
    }

    #[test]
    fn a_roster_reads_templates_then_combatants_and_refuses_clashes() {
        let f = file(
            "ruleset = \"toy\"\n[template.orc]\nspeed = 5\n[[combatant]]\nid = \"a\"\ntemplate = \"orc\"\n[[combatant]]\nid = \"A\"\nreach = 1\n[[combatant]]\nid = \"a\"\nreach = 1\n[[combatant]]\nid = \"b\"\ntemplate = \"elf\"\n",
        );
        let doc: Doc = parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        let rules = RosterRules {
            limit: 3,
            case_advice: "pick another",
            id: |c: &(String, Option<i16>, bool)| c.0.as_str(),
            square: |c: &(String, Option<i16>, bool)| c.1.map(|r| Pos::new(r, 0)),
        };
        let (templates, chars) = roster(&mut d, &doc.template, &doc.combatant, &rules, |d, t, base, template| {
            let r = t.get_ref().over(base);
            let id = combatant_id(d, r.id.as_ref(), t.span(), template, "x")?;
            Some((id, r.reach.or(r.speed), template))
        });
        assert_eq!(templates.get("orc"), Some(&(String::new(), Some(5), true)));
        let ids: Vec<&str> = chars.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(ids, ["a", "A", "a"]);
        assert_eq!(chars[0].1, Some(5), "from the template");
        assert_eq!(
            texts(&d),
            [
                "enc.toml:8:6: error: combatant id 'A' differs from 'a' only by case; pick another",
                "enc.toml:11:6: error: combatant 'a' is defined twice",
                "enc.toml:10:1: error: square 1,0 already holds another combatant",
                "enc.toml:15:12: error: unknown template 'elf'",
                "enc.toml:13:1: error: at most 3 combatants are supported",
            ]
        );
    }

    #[test]
    fn ids_are_found_ignoring_case() {
        assert_eq!(find_id(["bob", "Ann"], "ann"), Some(1));
        assert_eq!(find_id(["bob", "Ann"], "BOB"), Some(0));
        assert_eq!(find_id(["bob", "Ann"], "cy"), None);
    }

    #[test]
    fn a_records_roster_is_checked_again() {
        // (id, side, square): squares 0..3 along the top row; the middle one is blocked.
        type C = (&'static str, usize, Option<i16>);
        let map = Grid::parse_rows(&[". x ."]).expect("map");
        let rules = RosterRules {
            limit: 3,
            case_advice: "",
            id: |c: &C| c.0,
            square: |c: &C| c.2.map(|x| Pos::new(x, 0)),
        };
        let check = |cs: &[C]| {
            let mut seen = Vec::new();
            let r = recheck_roster(
                cs,
                2,
                Some(&map),
                &rules,
                |c: &C| c.1,
                |c| {
                    seen.push(c.0);
                    if c.0 == "bad" { Err("bad stats".into()) } else { Ok(()) }
                },
            );
            (r, seen)
        };
        assert_eq!(
            check(&[("a", 0, Some(0)), ("b", 1, Some(2)), ("c", 1, None)]),
            (Ok(()), vec!["a", "b", "c"])
        );
        let four = [("a", 0, Some(0)), ("b", 1, Some(2)), ("c", 1, None), ("d", 1, None)];
        assert_eq!(check(&four).0.unwrap_err(), "at most 3 combatants are supported");
        let fails = |cs: &[C]| check(cs).0.unwrap_err();
        assert_eq!(fails(&[("a", 2, Some(0))]), "combatant 'a' has a bad id or side");
        assert_eq!(fails(&[("a b", 0, Some(0))]), "combatant 'a b' has a bad id or side");
        assert_eq!(
            fails(&[("a", 0, Some(0)), ("A", 1, Some(2))]),
            "combatant id 'A' is used twice"
        );
        assert_eq!(
            fails(&[("a", 0, Some(1))]),
            "combatant 'a' stands on 1,0, which is not an open square"
        );
        assert_eq!(
            fails(&[("a", 0, Some(5))]),
            "combatant 'a' stands on 5,0, which is not an open square"
        );
        assert_eq!(
            fails(&[("a", 0, Some(0)), ("b", 1, Some(0))]),
            "combatant 'b' stands on 0,0, which is not an open square"
        );
        // The ruleset's own checks run for each combatant after the kit's, in order.
        assert_eq!(
            check(&[("bad", 0, Some(0)), ("a", 0, Some(0))]),
            (Err("bad stats".into()), vec!["bad"])
        );
        assert_eq!(
            check(&[("a", 0, Some(0)), ("bad", 0, Some(0))]).0.unwrap_err(),
            "combatant 'bad' stands on 0,0, which is not an open square"
        );
    }
}
