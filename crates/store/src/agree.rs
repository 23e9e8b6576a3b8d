//! A game's row against its record: the two copies of what the game is must agree.

use crate::{GameRow, StoreError};

/// A game's row and the head of its record say the same ruleset, rules version and seed: the
/// row is what `games` lists and what picks the ruleset, the record what is replayed, so an
/// edit to either alone is tampering and the game is refused, naming the field.
pub(crate) fn row_agrees(row: &GameRow, head: &str) -> Result<(), StoreError> {
    let v: serde_json::Value = serde_json::from_str(head)
        .map_err(|e| StoreError::Invalid(format!("game {}: its record's head is not JSON: {e}", row.id)))?;
    let text = |key: &str| v.get(key).and_then(serde_json::Value::as_str);
    let differs = |row_says: String, record_says: String| {
        StoreError::Invalid(format!(
            "game {}: its row says {row_says} but its record says {record_says}",
            row.id
        ))
    };
    let quoted = |field: &str, s: Option<&str>| s.map_or_else(|| format!("no {field}"), |s| format!("{field} '{s}'"));
    if text("ruleset") != Some(row.ruleset.as_str()) {
        return Err(differs(
            quoted("ruleset", Some(&row.ruleset)),
            quoted("ruleset", text("ruleset")),
        ));
    }
    if let Some(version) = text("version")
        && version != row.version
    {
        return Err(differs(
            quoted("version", Some(&row.version)),
            quoted("version", Some(version)),
        ));
    }
    // The row keeps a seed as SQLite's signed integer, the record as the number it is.
    let seed = v
        .get("seed")
        .and_then(|s| s.as_u64().map(|u| u as i64).or_else(|| s.as_i64()));
    if seed != row.seed {
        let show = |s: Option<i64>| s.map_or_else(|| "no seed".to_string(), |s| format!("seed {}", s as u64));
        return Err(differs(show(row.seed), show(seed)));
    }
    Ok(())
}
