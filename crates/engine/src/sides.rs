//! Sides and seats as the skeleton (and a ruleset copied from it) writes them: `[[side]]`
//! tables with an id, a name, the seat that decides for the side and an AI policy, read into a
//! list of [`Side`]s and a list of seat names with the GM's seat first.
//!
//! - [`read`]: the tables read, each problem a diagnostic at its value;
//! - [`check`]: the same lists checked again when a setup comes from a record, and
//!   [`empty_side`] for a side without combatants (in a file or a record), [`apart`] for
//!   combatants of a zone map that no links join;
//! - [`seat_name`], [`seat_by_name`] and [`seat_policies`]: what the text layer and the
//!   simulation reports ask of the seat list.
//!
//! A ruleset whose sides hold more (Thrum's kind, Ingenuity's objectives) or whose sentences
//! differ keeps its own reading, and can still use the seat helpers.

use crate::encounter::{self as enc, Diags, Spanned};
use crate::{Seat, SeatPolicy};
use serde::{Deserialize, Serialize};

/// A side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// The id used in the file and in `gm end`.
    pub id: String,
    /// The name in logs.
    pub name: String,
    /// The seat that decides for its members.
    pub seat: Seat,
    /// The AI policy the file names for simulations, if any.
    pub policy: Option<String>,
}

/// A `[[side]]` table as written: `id`, and optionally `name` (the id otherwise), `seat` (the
/// id otherwise) and `policy`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    /// The side's id.
    pub id: Spanned<String>,
    /// Its name in logs.
    pub name: Option<String>,
    /// The seat that decides for it.
    pub seat: Option<Spanned<String>>,
    /// The AI policy for simulations.
    pub policy: Option<String>,
}

/// Reads the `[[side]]` tables in order into the seat names (`"gm"` first, then each new seat
/// in the order the sides name them) and the sides. An id or seat that is not one word is a
/// diagnostic at it, a repeated side id one at the repeat, and fewer than two sides one at the
/// last table (the top of the file when there is none).
pub fn read(d: &mut Diags, raw: &[Spanned<RawSide>]) -> (Vec<String>, Vec<Side>) {
    let mut seats = vec!["gm".to_string()];
    let mut sides: Vec<Side> = Vec::new();
    for s in raw.iter().map(Spanned::get_ref) {
        let id = s.id.get_ref();
        let seat = s.seat.as_ref().unwrap_or(&s.id);
        for word in [&s.id, seat] {
            if !enc::is_word(word.get_ref()) {
                d.err(word.span(), "expected one word of letters, digits and '-'");
            }
        }
        if sides.iter().any(|x| &x.id == id) {
            d.err(s.id.span(), format!("side '{id}' is defined twice"));
        }
        sides.push(Side {
            id: id.clone(),
            name: s.name.clone().unwrap_or_else(|| id.clone()),
            seat: enc::seat_of(seat.get_ref(), &mut seats),
            policy: s.policy.clone(),
        });
    }
    if sides.len() < 2 {
        d.err(
            raw.last().map_or(0..0, Spanned::span),
            "an encounter needs at least two [[side]] tables",
        );
    }
    if let Some(extra) = raw.get(MAX_SIDES) {
        d.err(extra.span(), format!("an encounter has at most {MAX_SIDES} sides"));
    }
    (seats, sides)
}

/// The most sides an encounter may have.
pub const MAX_SIDES: usize = 16;

/// Checks seats and sides from a record as strictly as [`read`] checks a file: seat 0 is `gm`
/// and there are at most 256 seats, every seat name and side id is one word and none repeats,
/// there are 2 to [`MAX_SIDES`] sides, and every side's seat exists.
pub fn check(seats: &[String], sides: &[Side]) -> Result<(), String> {
    if seats.first().map(String::as_str) != Some("gm") || seats.len() > 256 {
        return Err("seat 0 must be gm, and there are at most 256 seats".into());
    }
    if !(2..=MAX_SIDES).contains(&sides.len()) {
        return Err(format!("an encounter needs 2 to {MAX_SIDES} sides"));
    }
    for (what, names) in [
        ("seat", seats.iter().collect::<Vec<_>>()),
        ("side", sides.iter().map(|x| &x.id).collect()),
    ] {
        for (i, n) in names.iter().enumerate() {
            if !enc::is_word(n) {
                return Err(format!("{what} '{n}' is not one word of letters, digits and '-'"));
            }
            if names[..i].contains(n) {
                return Err(format!("{what} '{n}' is defined twice"));
            }
        }
    }
    if let Some(x) = sides.iter().find(|x| x.seat.0 as usize >= seats.len()) {
        return Err(format!("side '{}' names seat {}, which does not exist", x.id, x.seat.0));
    }
    Ok(())
}

/// A combatant's own seat, as its `seat = "name"` gives it: the seat called `name`, added to
/// `seats` (after the sides' seats, in the order of first appearance) if it is new; `None` when
/// it names none (its side's seat decides for it) or names one that is not one word, which is
/// a diagnostic at the name.
pub fn own_seat(d: &mut Diags, seat: Option<&Spanned<String>>, seats: &mut Vec<String>) -> Option<Seat> {
    let name = seat?;
    if !enc::is_word(name.get_ref()) {
        d.err(name.span(), "expected one word of letters, digits and '-'");
        return None;
    }
    Some(enc::seat_of(name.get_ref(), seats))
}

/// Checks a combatant's own seat from a record as strictly as [`own_seat`] reads it: it is one
/// of `seats` (or `None`, its side's).
pub fn check_own_seat(seats: &[String], id: &str, seat: Option<Seat>) -> Result<(), String> {
    match seat {
        Some(x) if x.0 as usize >= seats.len() => {
            Err(format!("combatant '{id}' names seat {}, which does not exist", x.0))
        }
        _ => Ok(()),
    }
}

/// The first side no combatant is on (`members` gives each combatant's side), with "side 'id'
/// has no combatants".
pub fn empty_side(sides: &[Side], members: impl IntoIterator<Item = usize> + Clone) -> Option<(usize, String)> {
    let i = (0..sides.len()).find(|i| !members.clone().into_iter().any(|m| m == *i))?;
    Some((i, format!("side '{}' has no combatants", sides[i].id)))
}

/// For a zone map: the first combatant (index into `members`, each a side index and a zone)
/// that no chain of links joins to the first combatant's zone, with the sentence saying so.
/// Such a fight could never end: whoever stands apart can neither reach the others nor be
/// reached. `None` when every combatant can reach every other.
pub fn apart(
    map: &fray_space::ZoneMap,
    sides: &[Side],
    members: impl IntoIterator<Item = (usize, fray_space::ZoneId)>,
) -> Option<(usize, String)> {
    let members: Vec<(usize, fray_space::ZoneId)> = members.into_iter().collect();
    let &(first_side, first_zone) = members.first()?;
    let (i, &(side, zone)) = members
        .iter()
        .enumerate()
        .find(|(_, (_, z))| map.distance(first_zone, *z).is_none())?;
    let side_id = |i: usize| sides.get(i).map_or("?", |s| s.id.as_str());
    Some((
        i,
        format!(
            "no links join zone '{}' (side '{}') to zone '{}' (side '{}'): those who start there could never reach each other, so the fight could never end",
            map.id(zone),
            side_id(side),
            map.id(first_zone),
            side_id(first_side)
        ),
    ))
}

/// The name of `seat` in `seats`, or its number when there is no such seat.
pub fn seat_name(seats: &[String], seat: Seat) -> String {
    seats.get(seat.0 as usize).cloned().unwrap_or_else(|| seat.to_string())
}

/// The seat called `name` (exactly) in `seats`.
pub fn seat_by_name(seats: &[String], name: &str) -> Option<Seat> {
    seats.iter().position(|s| s == name).map(|i| Seat(i as u8))
}

/// For `Summarize::seats`: each seat of `deciders` (a seat and the policy named for it, for
/// each side or combatant in order) once, in the order of its first appearance, with the
/// policy named there and its name in `seats` (empty when there is none).
pub fn seat_policies<'p>(
    seats: &[String],
    deciders: impl IntoIterator<Item = (Seat, Option<&'p String>)>,
) -> Vec<SeatPolicy> {
    let mut out: Vec<SeatPolicy> = Vec::new();
    for (seat, policy) in deciders {
        if !out.iter().any(|p| p.seat == seat) {
            out.push(SeatPolicy {
                seat,
                name: seats.get(seat.0 as usize).cloned().unwrap_or_default(),
                policy: policy.cloned(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;

    #[derive(Deserialize)]
    struct Doc {
        #[serde(default)]
        side: Vec<Spanned<RawSide>>,
    }

    fn read_text(text: &str) -> (Vec<String>, Vec<Side>, Vec<String>) {
        let f = SourceFile {
            name: "enc.toml".into(),
            text: text.into(),
        };
        let doc: Doc = enc::parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        let (seats, sides) = read(&mut d, &doc.side);
        let errors = d.errors.iter().map(|e| e.to_string()).collect();
        (seats, sides, errors)
    }

    #[test]
    fn sides_are_read_with_their_seats_gm_first() {
        let (seats, sides, errors) = read_text(
            "[[side]]\nid = \"heroes\"\nname = \"The heroes\"\npolicy = \"heuristic\"\n[[side]]\nid = \"orcs\"\nseat = \"gm\"\n[[side]]\nid = \"wolves\"\nseat = \"heroes\"\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(seats, ["gm", "heroes"]);
        let got: Vec<(&str, &str, Seat, Option<&str>)> = sides
            .iter()
            .map(|s| (s.id.as_str(), s.name.as_str(), s.seat, s.policy.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("heroes", "The heroes", Seat(1), Some("heuristic")),
                ("orcs", "orcs", Seat::GM, None),
                ("wolves", "wolves", Seat(1), None),
            ]
        );
        assert_eq!(check(&seats, &sides), Ok(()));
    }

    #[test]
    fn bad_words_repeats_and_too_few_sides_are_pointed_at() {
        let (_, sides, errors) =
            read_text("[[side]]\nid = \"a b\"\n[[side]]\nid = \"c\"\nseat = \"x y\"\n[[side]]\nid = \"c\"\n");
        assert_eq!(sides.len(), 3, "every table is kept");
        assert_eq!(
            errors,
            [
                // Once as the id and once as the seat it also names.
                "enc.toml:2:6: error: expected one word of letters, digits and '-'",
                "enc.toml:2:6: error: expected one word of letters, digits and '-'",
                "enc.toml:5:8: error: expected one word of letters, digits and '-'",
                "enc.toml:7:6: error: side 'c' is defined twice",
            ]
        );
        let (_, _, errors) = read_text("[[side]]\nid = \"a\"\n");
        assert_eq!(
            errors,
            ["enc.toml:1:1: error: an encounter needs at least two [[side]] tables"]
        );
        let (_, _, errors) = read_text("");
        assert_eq!(
            errors,
            ["enc.toml:1:1: error: an encounter needs at least two [[side]] tables"]
        );
    }

    fn side(id: &str, seat: u8) -> Side {
        Side {
            id: id.into(),
            name: id.into(),
            seat: Seat(seat),
            policy: None,
        }
    }

    #[test]
    fn a_records_seats_and_sides_are_checked_again() {
        let seats = vec!["gm".to_string(), "p".to_string()];
        let two = [side("a", 1), side("b", 0)];
        assert_eq!(check(&seats, &two), Ok(()));
        let no_gm = vec!["p".to_string()];
        assert_eq!(
            check(&no_gm, &two).unwrap_err(),
            "seat 0 must be gm, and there are at most 256 seats"
        );
        let many: Vec<String> = (0..257)
            .map(|i| if i == 0 { "gm".into() } else { format!("s{i}") })
            .collect();
        assert!(check(&many, &two).is_err());
        assert_eq!(
            check(&seats, &two[..1]).unwrap_err(),
            "an encounter needs 2 to 16 sides"
        );
        let seventeen: Vec<Side> = (0..17).map(|i| side(&format!("s{i}"), 0)).collect();
        assert!(check(&seats, &seventeen).is_err());
        assert!(check(&seats, &seventeen[..16]).is_ok());
        assert_eq!(
            check(&seats, &[side("a", 0), side("b", 2)]).unwrap_err(),
            "side 'b' names seat 2, which does not exist"
        );
        // As strict as the loader: words, and no repeats.
        assert_eq!(
            check(&seats, &[side("a", 0), side("a", 1)]).unwrap_err(),
            "side 'a' is defined twice"
        );
        assert_eq!(
            check(&seats, &[side("a b", 0), side("c", 1)]).unwrap_err(),
            "side 'a b' is not one word of letters, digits and '-'"
        );
        let twice = vec!["gm".to_string(), "gm".to_string()];
        assert_eq!(check(&twice, &two).unwrap_err(), "seat 'gm' is defined twice");
    }

    #[test]
    fn more_sides_than_the_most_is_pointed_at_the_first_extra_table() {
        let text: String = (0..=MAX_SIDES).map(|i| format!("[[side]]\nid = \"s{i}\"\n")).collect();
        let (_, sides, errors) = read_text(&text);
        assert_eq!(sides.len(), MAX_SIDES + 1);
        assert_eq!(errors, ["enc.toml:33:1: error: an encounter has at most 16 sides"]);
        let (_, _, errors) = read_text(&text[..text.rfind("[[side]]").unwrap_or(0)]);
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn a_combatants_own_seat_joins_the_seats_and_is_checked_again() {
        #[derive(Deserialize)]
        struct One {
            seat: Option<Spanned<String>>,
        }
        let f = SourceFile {
            name: "enc.toml".into(),
            text: "seat = \"ana\"\n".into(),
        };
        let mut seats = vec!["gm".to_string(), "party".to_string()];
        let one: One = enc::parse(&f).expect("valid");
        let mut d = Diags::new(&f);
        assert_eq!(own_seat(&mut d, one.seat.as_ref(), &mut seats), Some(Seat(2)));
        assert_eq!(own_seat(&mut d, None, &mut seats), None);
        let again: One = enc::parse(&f).expect("valid");
        assert_eq!(own_seat(&mut d, again.seat.as_ref(), &mut seats), Some(Seat(2)));
        assert_eq!(seats, ["gm", "party", "ana"]);
        let bad = SourceFile {
            name: "enc.toml".into(),
            text: "seat = \"a b\"\n".into(),
        };
        let one: One = enc::parse(&bad).expect("valid");
        let mut d = Diags::new(&bad);
        assert_eq!(own_seat(&mut d, one.seat.as_ref(), &mut seats), None);
        let errors: Vec<String> = d.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            ["enc.toml:1:8: error: expected one word of letters, digits and '-'"]
        );
        assert_eq!(seats.len(), 3, "a bad name is no seat");
        assert_eq!(check_own_seat(&seats, "a", Some(Seat(2))), Ok(()));
        assert_eq!(check_own_seat(&seats, "a", None), Ok(()));
        assert_eq!(
            check_own_seat(&seats, "a", Some(Seat(3))).unwrap_err(),
            "combatant 'a' names seat 3, which does not exist"
        );
    }

    #[test]
    fn a_side_without_combatants_is_found() {
        let three = [side("a", 0), side("b", 0), side("c", 0)];
        assert_eq!(empty_side(&three, [0, 2, 0, 1]), None);
        assert_eq!(
            empty_side(&three, [2, 0]),
            Some((1, "side 'b' has no combatants".to_string()))
        );
        assert_eq!(empty_side(&three, []).map(|(i, _)| i), Some(0));
    }

    #[test]
    fn seats_by_number_and_name_and_their_policies() {
        let seats = vec!["gm".to_string(), "players".to_string()];
        assert_eq!(seat_name(&seats, Seat(1)), "players");
        assert_eq!(seat_name(&seats, Seat(7)), Seat(7).to_string());
        assert_eq!(seat_by_name(&seats, "players"), Some(Seat(1)));
        assert_eq!(seat_by_name(&seats, "Players"), None);
        let smart = "heuristic".to_string();
        let got = seat_policies(&seats, [(Seat(1), Some(&smart)), (Seat(0), None), (Seat(1), None)]);
        assert_eq!(
            got,
            [
                SeatPolicy {
                    seat: Seat(1),
                    name: "players".into(),
                    policy: Some(smart.clone())
                },
                SeatPolicy {
                    seat: Seat::GM,
                    name: "gm".into(),
                    policy: None
                },
            ]
        );
    }
}
