//! Diagnostics for files people write: where (file, line, column) and what was expected.

use std::fmt;

/// A file given to the engine, with the name used in messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The path or name shown in diagnostics.
    pub name: String,
    /// The whole text.
    pub text: String,
}

/// One problem in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// File name as given.
    pub file: String,
    /// 1-based line (0 when the problem is about the file as a whole).
    pub line: usize,
    /// 1-based column in characters (0 when unknown).
    pub column: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at a byte offset of `file`.
    pub fn at(file: &SourceFile, offset: usize, message: impl Into<String>) -> Diagnostic {
        let (line, column) = line_col(&file.text, offset);
        Diagnostic {
            file: file.name.clone(),
            line,
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: error: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: error: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

/// 1-based line and character column of a byte offset (clamped to the text).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..offset].chars().count() + 1;
    (line, column)
}

/// The candidate a mistyped word most likely meant: the closest by edit distance (letters
/// added, dropped, changed or swapped, case ignored) within a third of the word's length (at
/// least one edit), the first of equally close ones; `None` when nothing is that close or the
/// word is itself a candidate.
pub fn did_you_mean<'c>(typed: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let typed = typed.to_lowercase();
    let limit = (typed.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(&typed, &c.to_lowercase());
        if d == 0 {
            return None;
        }
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// `" (did you mean 'x'?)"` for [`did_you_mean`]'s answer, or nothing.
pub fn suggestion<'c>(typed: &str, candidates: impl IntoIterator<Item = &'c str>) -> String {
    did_you_mean(typed, candidates).map_or_else(String::new, |c| format!(" (did you mean '{c}'?)"))
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbouring characters each cost 1.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_word_is_matched_with_the_closest_candidate() {
        let ids = ["korrin", "sefa", "biffer-1", "biffer-2"];
        assert_eq!(did_you_mean("korin", ids), Some("korrin"));
        assert_eq!(did_you_mean("Sefa", ids), None, "a candidate itself, whatever its case");
        assert_eq!(did_you_mean("sfea", ids), Some("sefa"), "two letters swapped");
        assert_eq!(
            did_you_mean("biffer-3", ids),
            Some("biffer-1"),
            "the first of equally close ones"
        );
        assert_eq!(did_you_mean("plinker", ids), None);
        assert_eq!(
            suggestion("strenght", ["strength", "speed"]),
            " (did you mean 'strength'?)"
        );
        assert_eq!(suggestion("zzz", ["strength"]), "");
    }

    #[test]
    fn line_and_column_count_characters() {
        let t = "ab\ncdé\nf";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 7), (2, 4));
        assert_eq!(line_col(t, 999), (3, 2));
    }
}
