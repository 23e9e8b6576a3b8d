//! `fray sim --vary PATH=V1,V2,...`: one encounter value set to each of several values.
//!
//! The value is written into the user's own text in place (only the old value's characters are
//! replaced, or one `key = value` line is added), never by re-printing the whole file, so every
//! diagnostic can be mapped back to the line and column of the real file.

use fray_engine::diag::{Diagnostic, line_col};
use toml::de::{DeTable, DeValue};
use toml::{Spanned, Value};

/// The values of a `--vary` argument: separated by `;` when there is any `;` (so values may
/// contain commas: `3,4;5,6`), otherwise by commas outside quotes and brackets
/// (`3,4,5`, `[3,4],[5,6]`, `"3,4","5,6"`). Empty values are dropped.
pub fn split_values(list: &str) -> Vec<String> {
    let parts: Vec<String> = if list.contains(';') {
        list.split(';').map(str::to_string).collect()
    } else {
        let mut parts = Vec::new();
        let mut cur = String::new();
        let mut depth = 0i32;
        let mut quote: Option<char> = None;
        for c in list.chars() {
            match (quote, c) {
                (Some(q), _) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '[' | '{') => depth += 1,
                (None, ']' | '}') => depth -= 1,
                (None, ',') if depth <= 0 => {
                    parts.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
            cur.push(c);
        }
        parts.push(cur);
        parts
    };
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// An encounter with one value changed, and where the change sits.
#[derive(Debug)]
pub struct Varied {
    /// The changed text.
    pub text: String,
    /// Byte offset of the change (the same in the original and the changed text).
    at: usize,
    /// Bytes of the original replaced.
    old_len: usize,
    /// Bytes written instead.
    new_len: usize,
    /// What was written, for messages (`at = "3,4"`).
    written: String,
}

/// Reads a value as TOML (numbers, booleans, quoted strings, arrays, inline tables), or else
/// takes it as a plain string (`3,4`, `reroll`).
fn parse_value(value: &str) -> Value {
    toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .filter(|t| t.len() == 1)
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| Value::String(value.to_string()))
}

/// A TOML basic string on one line.
fn quote(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn key_text(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        k.to_string()
    } else {
        quote(k)
    }
}

/// Sets a value in an encounter's TOML by a dotted path. Arrays of tables are addressed by the
/// `id` of their element (`combatant.korrin.speed`) or by index (`side.0.policy`). A missing
/// key is added as a line right under its table's header (or at the top of the file for the
/// top-level table), with dotted keys for missing tables on the way.
pub fn set_path(text: &str, path: &str, value: &str) -> Result<Varied, String> {
    let parts: Vec<&str> = path.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err("a path is keys separated by dots, such as combatant.korrin.speed".into());
    }
    let value = parse_value(value);
    let value_text = match &value {
        Value::String(s) => quote(s),
        v => v.to_string(),
    };
    let root = DeTable::parse(text).map_err(|e| format!("the encounter is not valid TOML: {}", e.message().trim()))?;
    let mut table: &DeTable<'_> = root.get_ref();
    // Where the current table's header is (None for the top-level table), and whether keys can
    // be added to it (not to inline or implicit tables).
    let mut header: Option<std::ops::Range<usize>> = None;
    let mut can_add = true;
    let mut i = 0;
    loop {
        let Some(node) = table.get(parts[i]) else {
            if !can_add {
                return Err(format!(
                    "cannot add '{}' to '{}' (not a [table] of its own): write the key in the file first",
                    parts[i..].join("."),
                    parts[..i].join(".")
                ));
            }
            return add(text, header.as_ref(), &parts, i, &value, &value_text);
        };
        // An array followed by another part: that part picks an element (by index or id).
        let (target, next) = match (node.get_ref(), parts.get(i + 1)) {
            (DeValue::Array(items), Some(part)) => (pick(items, part, path)?, i + 2),
            _ => (node, i + 1),
        };
        if next == parts.len() {
            return replace(text, target, path, &parts, &value, &value_text);
        }
        let DeValue::Table(t) = target.get_ref() else {
            return Err(format!(
                "'{}' in {path} is inside a value, not a table",
                parts[next - 1]
            ));
        };
        let span = target.span();
        can_add = text.get(span.clone()).is_some_and(|s| s.starts_with('['));
        header = Some(span);
        table = t;
        i = next;
    }
}

/// Adds `parts[i..] = value` as a line under the header of the table `parts[..i]` (at the top of
/// the file for the top-level table).
fn add(
    text: &str,
    header: Option<&std::ops::Range<usize>>,
    parts: &[&str],
    i: usize,
    value: &Value,
    value_text: &str,
) -> Result<Varied, String> {
    let keys: Vec<String> = parts[i..].iter().map(|k| key_text(k)).collect();
    let line = format!("{} = {value_text}\n", keys.join("."));
    let at = match header {
        None => 0,
        Some(h) => text[h.end..].find('\n').map_or(text.len(), |n| h.end + n + 1),
    };
    let mut out = String::with_capacity(text.len() + line.len() + 1);
    out.push_str(&text[..at]);
    let mut shown = at;
    if at == text.len() && !text.is_empty() && !text.ends_with('\n') {
        out.push('\n');
        shown += 1;
    }
    out.push_str(&line);
    out.push_str(&text[at..]);
    let written = line.trim_end().to_string();
    let path = parts.join(".");
    finish(out, at, 0, line.len() + shown - at, written, &path, parts, value)
}

fn pick<'a, 'i>(items: &'a [Spanned<DeValue<'i>>], part: &str, path: &str) -> Result<&'a Spanned<DeValue<'i>>, String> {
    let idx = match part.parse::<usize>() {
        Ok(n) if n < items.len() => n,
        _ => items
            .iter()
            .position(|it| match it.get_ref() {
                DeValue::Table(t) => t.get("id").and_then(|v| v.get_ref().as_str()) == Some(part),
                _ => false,
            })
            .ok_or_else(|| format!("nothing with id '{part}' on the way to {path}"))?,
    };
    Ok(&items[idx])
}

fn replace(
    text: &str,
    target: &Spanned<DeValue<'_>>,
    path: &str,
    parts: &[&str],
    value: &Value,
    value_text: &str,
) -> Result<Varied, String> {
    let span = target.span();
    // A table given by a header (`[options]`, `[[combatant]]`) is not one value; an inline
    // one (`now = { health = 3 }`, `wounds = [{ amount = 2 }]`) is, and is replaced whole.
    let written = text.get(span.clone()).unwrap_or_default();
    let (is_tables, inline) = match target.get_ref() {
        DeValue::Table(_) => (true, written.starts_with('{')),
        DeValue::Array(a) => (
            a.iter().any(|v| matches!(v.get_ref(), DeValue::Table(_))),
            written.starts_with('[') && !written.starts_with("[["),
        ),
        _ => (false, true),
    };
    if is_tables && !inline {
        return Err(format!("{path} names a table, not a value"));
    }
    let mut out = String::with_capacity(text.len() + value_text.len());
    out.push_str(&text[..span.start]);
    out.push_str(value_text);
    out.push_str(&text[span.end..]);
    let key = parts.last().copied().unwrap_or_default();
    finish(
        out,
        span.start,
        span.end - span.start,
        value_text.len(),
        format!("{key} = {value_text}"),
        path,
        parts,
        value,
    )
}

#[allow(clippy::too_many_arguments)]
fn finish(
    text: String,
    at: usize,
    old_len: usize,
    new_len: usize,
    written: String,
    path: &str,
    parts: &[&str],
    value: &Value,
) -> Result<Varied, String> {
    // The edit must give valid TOML with the value exactly where the path says.
    let doc: toml::Table = toml::from_str(&text).map_err(|_| format!("cannot set {path} in this file"))?;
    let doc = Value::Table(doc);
    if get_at(&doc, parts) != Some(value) {
        return Err(format!("cannot set {path} in this file"));
    }
    Ok(Varied {
        text,
        at,
        old_len,
        new_len,
        written,
    })
}

fn get_at<'a>(node: &'a Value, parts: &[&str]) -> Option<&'a Value> {
    let Some((head, rest)) = parts.split_first() else {
        return Some(node);
    };
    let child = match node {
        Value::Table(t) => t.get(*head)?,
        Value::Array(items) => match head.parse::<usize>() {
            Ok(n) if n < items.len() => &items[n],
            _ => items
                .iter()
                .find(|it| it.get("id").and_then(|v| v.as_str()) == Some(*head))?,
        },
        _ => return None,
    };
    get_at(child, rest)
}

/// Byte offset of a 1-based line and character column in `text` (clamped).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(n) => start += n + 1,
            None => return text.len(),
        }
    }
    let rest = &text[start..];
    let end = rest.find('\n').unwrap_or(rest.len());
    start
        + rest[..end]
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(end, |(i, _)| i)
}

impl Varied {
    /// Moves a diagnostic about the changed text of `file` back to the original text, and says
    /// which `--vary` value was in force (`note`). A problem inside the written value points at
    /// the original value's place and says what was written there.
    pub fn map(&self, d: Diagnostic, file: &str, original: &str, note: &str) -> Diagnostic {
        let mut d = self.map_back(d, file, original, "--vary");
        d.message.push_str(&format!(" [{note}]"));
        d
    }

    /// Moves a diagnostic about the changed text of `file` back to `original`, the text before
    /// the change; a problem inside the written value points at the original value's place and
    /// says what was written there and by what (`by`).
    pub fn map_back(&self, mut d: Diagnostic, file: &str, original: &str, by: &str) -> Diagnostic {
        if d.file == file && d.line > 0 {
            let off = offset_of(&self.text, d.line, d.column.max(1));
            let (orig, inside) = if off < self.at {
                (off, false)
            } else if off >= self.at + self.new_len {
                (off - self.new_len + self.old_len, false)
            } else {
                (self.at, true)
            };
            (d.line, d.column) = line_col(original, orig);
            if inside {
                d.message
                    .push_str(&format!(" (in `{}`, written here by {by})", self.written));
            }
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "ruleset = \"thrum\"\ntitle = \"t\"\n\n[[combatant]]\nid = \"a\"\nspeed = 4\nat = \"1,1\"\n\n[[combatant]]\nid = \"b\"\n\n[options]\ntie-rule = \"defender\" # comment\n";

    #[test]
    fn values_split_on_semicolons_or_on_commas_outside_brackets_and_quotes() {
        assert_eq!(split_values("3,4,5"), ["3", "4", "5"]);
        assert_eq!(split_values("3,4;5,6"), ["3,4", "5,6"]);
        assert_eq!(split_values("3,4;"), ["3,4"]);
        assert_eq!(split_values("[3,4],[5,6]"), ["[3,4]", "[5,6]"]);
        assert_eq!(split_values("\"3,4\", \"5,6\""), ["\"3,4\"", "\"5,6\""]);
        assert!(split_values(" , ").is_empty());
    }

    #[test]
    fn an_existing_value_is_replaced_in_place() {
        let v = set_path(TEXT, "combatant.a.speed", "6").unwrap();
        assert_eq!(v.text, TEXT.replace("speed = 4", "speed = 6"));
        let v = set_path(TEXT, "combatant.a.at", "3,4").unwrap();
        assert_eq!(v.text, TEXT.replace("at = \"1,1\"", "at = \"3,4\""));
        let v = set_path(TEXT, "options.tie-rule", "reroll").unwrap();
        assert_eq!(v.text, TEXT.replace("\"defender\"", "\"reroll\""));
        assert!(v.text.contains("# comment"));
        let v = set_path(TEXT, "combatant.0.speed", "5").unwrap();
        assert!(v.text.contains("speed = 5"));
    }

    #[test]
    fn a_missing_key_is_added_under_its_tables_header() {
        let v = set_path(TEXT, "combatant.b.speed", "6").unwrap();
        assert_eq!(
            v.text,
            TEXT.replace("[[combatant]]\nid = \"b\"", "[[combatant]]\nspeed = 6\nid = \"b\"")
        );
        let v = set_path(TEXT, "map.rows", "[\"..\"]").unwrap();
        assert!(v.text.starts_with("map.rows = [\"..\"]\nruleset"), "{}", v.text);
        let v = set_path(TEXT, "options.new-thing", "true").unwrap();
        assert!(v.text.contains("[options]\nnew-thing = true\ntie-rule"), "{}", v.text);
    }

    #[test]
    fn paths_that_name_nothing_or_tables_are_refused() {
        assert!(
            set_path(TEXT, "combatant.zz.speed", "1")
                .unwrap_err()
                .contains("nothing with id 'zz'")
        );
        assert!(set_path(TEXT, "ruleset.x", "1").unwrap_err().contains("inside a value"));
        assert!(
            set_path(TEXT, "combatant.a", "1")
                .unwrap_err()
                .contains("names a table")
        );
        assert!(set_path(TEXT, "options", "1").unwrap_err().contains("names a table"));
        assert!(set_path(TEXT, "a..b", "1").is_err());
        // A value that is not one TOML value is taken as a string, never as more TOML.
        let v = set_path(TEXT, "title", "1\n[x]").unwrap();
        assert!(v.text.contains("title = \"1\\n[x]\""), "{}", v.text);
    }

    #[test]
    fn an_inline_table_or_array_of_tables_is_one_value_and_is_replaced_whole() {
        let text = "[[combatant]]\nid = \"a\"\nnow = { health = 3 }\nwounds = [{ type = \"blunt\", amount = 2 }]\n";
        let v = set_path(text, "combatant.a.now", "{ health = 5, focus = 1 }").unwrap();
        assert!(v.text.contains("now = { focus = 1, health = 5 }\n"), "{}", v.text);
        let v = set_path(text, "combatant.a.wounds", "[]").unwrap();
        assert!(v.text.contains("wounds = []\n"), "{}", v.text);
        let v = set_path(text, "combatant.a.wounds", "[{ type = \"cold\", amount = 1 }]").unwrap();
        assert!(
            v.text.contains("wounds = [{ amount = 1, type = \"cold\" }]\n"),
            "{}",
            v.text
        );
        // Tables with headers are still refused.
        assert!(set_path(text, "combatant", "1").unwrap_err().contains("names a table"));
    }

    #[test]
    fn diagnostics_are_moved_back_to_the_original_file() {
        let v = set_path(TEXT, "combatant.a.at", "12,34").unwrap();
        let d = |line, column| Diagnostic {
            file: "f.toml".into(),
            line,
            column,
            message: "bad".into(),
        };
        // After the change on the same line: the column moves back by the longer value.
        let at_line = 7;
        let m = v.map(d(at_line, 1), "f.toml", TEXT, "with x");
        assert_eq!((m.line, m.column, m.message.as_str()), (7, 1, "bad [with x]"));
        // Inside the written value: the original value's place, naming what was written.
        let m = v.map(d(at_line, 8), "f.toml", TEXT, "with x");
        assert_eq!((m.line, m.column), (7, 6));
        assert!(
            m.message.contains("in `at = \"12,34\"`, written here by --vary"),
            "{}",
            m.message
        );
        // An added line: later lines move up by one.
        let v = set_path(TEXT, "combatant.b.speed", "6").unwrap();
        let m = v.map(d(13, 1), "f.toml", TEXT, "n");
        assert_eq!((m.line, m.column), (12, 1));
        // Other files are left alone but still get the note.
        let mut other = d(3, 2);
        other.file = "arts.toml".into();
        let m = v.map(other, "f.toml", TEXT, "n");
        assert_eq!((m.line, m.column, m.message.as_str()), (3, 2, "bad [n]"));
    }
}
