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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let t = "ab\ncdé\nf";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 7), (2, 4));
        assert_eq!(line_col(t, 999), (3, 2));
    }
}
