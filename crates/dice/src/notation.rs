//! Dice notation for data files and for asking about odds.
//!
//! An expression is a sum of terms joined by `+` or `-`, optionally starting
//! with a sign. A term is a whole-number constant or a dice term
//! `[N]dM[suffix]`, where `N` (default 1) is the number of dice, `M` the
//! number of sides, and the optional suffix chooses which dice count:
//! `khK` or `kK` keeps the highest `K`, `klK` keeps the lowest `K`, `dhK`
//! drops the highest `K` (so keeps the lowest `N-K`) and `dlK` drops the
//! lowest `K`. Letters may be upper or lower case, and spaces may stand
//! around the `+` and `-` between terms but not inside a term.
//!
//! Limits keep every expression's exact distribution and rolled total in
//! range: `1 <= N <= 1000`, `1 <= M <= 1000`, `K <= N` and at most 255 kept
//! dice in a keep rule, constants of magnitude at most 1,000,000, and at
//! most 64 terms. Rolling a term additionally needs `N <=`
//! [`MAX_DICE`]; larger terms exist for exact odds.
//!
//! Parsing never panics: every failure is a [`NotationError`] giving the
//! 1-based character column and saying what was expected and what was
//! found. [`DiceExpr`] prints in a canonical lower-case form (`1d20`,
//! `4d6kh3+2`, `2d6-1`) that parses back to the same value, and serialises
//! as that string.

use std::fmt;
use std::str::FromStr;

use crate::dist::{Dist, DistError};
use crate::faces::MAX_DICE;
use crate::roll::{Keep, Roll, roll};
use crate::source::{Dice, DiceError};

/// The most dice one term may name.
pub const MAX_TERM_DICE: u16 = 1000;
/// The most sides a die may have in notation.
pub const MAX_SIDES: u16 = 1000;
/// The largest magnitude of a constant term.
pub const MAX_CONSTANT: i32 = 1_000_000;
/// The most terms an expression may have.
pub const MAX_TERMS: usize = 64;

/// A parsed dice expression: the sum of its terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DiceExpr {
    /// The terms, in the order written.
    pub terms: Vec<Term>,
}

/// One term of a [`DiceExpr`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// `count` dice of `sides` sides, of which `keep` count, added when
    /// `sign` is positive and subtracted when it is negative. Parsed terms
    /// always have `sign` 1 or -1; a hand-built 0 counts as positive.
    Dice {
        /// +1 to add the kept faces, -1 to subtract them.
        sign: i8,
        /// How many dice are rolled.
        count: u16,
        /// How many sides each die has.
        sides: u16,
        /// Which of the dice count.
        keep: Keep,
    },
    /// A constant, with its sign.
    Const(i32),
}

/// A syntax or range error in dice notation or typed faces.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("column {column}: {message}")]
pub struct NotationError {
    /// The 1-based character column in the input where the problem is.
    pub column: usize,
    /// What was expected and what was found.
    pub message: String,
}

impl NotationError {
    /// An error at `column` (1-based) with the given message.
    pub fn new(column: usize, message: impl Into<String>) -> NotationError {
        NotationError {
            column,
            message: message.into(),
        }
    }
}

impl Term {
    /// The lowest and highest values this term can contribute.
    fn range(&self) -> (i64, i64) {
        match *self {
            Term::Const(c) => (i64::from(c), i64::from(c)),
            Term::Dice {
                sign,
                count,
                sides,
                keep,
            } => {
                let kept = i64::from(kept_count(count, keep));
                let low = kept * i64::from(sides.min(1));
                let high = kept * i64::from(sides);
                if sign < 0 { (-high, -low) } else { (low, high) }
            }
        }
    }
}

/// How many of `count` dice a keep rule keeps.
pub(crate) fn kept_count(count: u16, keep: Keep) -> u16 {
    match keep {
        Keep::All => count,
        Keep::Highest(k) | Keep::Lowest(k) => count.min(u16::from(k)),
    }
}

impl DiceExpr {
    /// Rolls the expression, describing each dice term to the source as
    /// `"{term} of {expr}"` (or just `"{expr}"` when the expression has a
    /// single dice term).
    ///
    /// Returns the total and one [`Roll`] per dice term, in order. A term
    /// with more than [`MAX_DICE`] dice fails with
    /// [`DiceError::TooManyDice`] before anything is drawn. The total is
    /// accumulated in 64 bits and clamped to the `i32` range; clamping can
    /// only happen for hand-built expressions beyond the notation's limits.
    pub fn roll(&self, dice: &mut dyn Dice) -> Result<(i32, Vec<Roll>), DiceError> {
        self.roll_inner(dice, None)
    }

    /// Rolls the expression like [`DiceExpr::roll`], but prefixes the
    /// reason given to the source with `why`, as in
    /// `"attack: 1d20+5"`.
    pub fn roll_for(&self, dice: &mut dyn Dice, why: &dyn fmt::Display) -> Result<(i32, Vec<Roll>), DiceError> {
        self.roll_inner(dice, Some(why))
    }

    /// Rolls every term in order, with an optional caller reason.
    fn roll_inner(&self, dice: &mut dyn Dice, why: Option<&dyn fmt::Display>) -> Result<(i32, Vec<Roll>), DiceError> {
        let dice_terms = self.terms.iter().filter(|t| matches!(t, Term::Dice { .. })).count();
        // Refuse oversized terms before drawing anything. (A source that
        // fails on a later term may still have dealt the earlier ones.)
        let oversized = self
            .terms
            .iter()
            .any(|t| matches!(t, Term::Dice { count, .. } if usize::from(*count) > MAX_DICE));
        if oversized {
            return Err(DiceError::TooManyDice { max: MAX_DICE });
        }
        let mut total: i64 = 0;
        let mut rolls = Vec::with_capacity(dice_terms);
        for (index, term) in self.terms.iter().enumerate() {
            match *term {
                Term::Const(c) => total = total.saturating_add(i64::from(c)),
                Term::Dice {
                    sign,
                    count,
                    sides,
                    keep,
                } => {
                    let reason = RollReason {
                        expr: self,
                        index,
                        single: dice_terms == 1,
                        why,
                    };
                    let r = roll(dice, usize::from(count), sides, keep, &reason)?;
                    let value = i64::from(r.total);
                    total = if sign < 0 {
                        total.saturating_sub(value)
                    } else {
                        total.saturating_add(value)
                    };
                    rolls.push(r);
                }
            }
        }
        let clamped = total.clamp(i64::from(i32::MIN), i64::from(i32::MAX));
        let total = i32::try_from(clamped).unwrap_or(if clamped < 0 { i32::MIN } else { i32::MAX });
        Ok((total, rolls))
    }

    /// The smallest value the expression can take.
    pub fn min(&self) -> i64 {
        self.terms.iter().fold(0i64, |acc, t| acc.saturating_add(t.range().0))
    }

    /// The largest value the expression can take.
    pub fn max(&self) -> i64 {
        self.terms.iter().fold(0i64, |acc, t| acc.saturating_add(t.range().1))
    }

    /// The exact distribution of the expression (see [`Dist::of_expr`]).
    pub fn dist(&self) -> Result<Dist, DistError> {
        Dist::of_expr(self)
    }
}

/// The reason shown for one dice term of an expression; formatted only if a
/// source needs text.
struct RollReason<'a> {
    expr: &'a DiceExpr,
    index: usize,
    single: bool,
    why: Option<&'a dyn fmt::Display>,
}

impl fmt::Display for RollReason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(why) = self.why {
            write!(f, "{why}: ")?;
        }
        if self.single {
            write!(f, "{}", self.expr)
        } else {
            if let Some(term) = self.expr.terms.get(self.index) {
                write_term_body(f, term)?;
            }
            write!(f, " of {}", self.expr)
        }
    }
}

/// Writes a term without its sign.
fn write_term_body(f: &mut fmt::Formatter<'_>, term: &Term) -> fmt::Result {
    match *term {
        Term::Const(c) => write!(f, "{}", c.unsigned_abs()),
        Term::Dice { count, sides, keep, .. } => {
            write!(f, "{count}d{sides}")?;
            match keep {
                Keep::All => Ok(()),
                Keep::Highest(k) => write!(f, "kh{k}"),
                Keep::Lowest(k) => write!(f, "kl{k}"),
            }
        }
    }
}

/// Whether a term is subtracted.
fn is_negative(term: &Term) -> bool {
    match *term {
        Term::Const(c) => c < 0,
        Term::Dice { sign, .. } => sign < 0,
    }
}

/// Prints the canonical form: lower case, no spaces, an explicit count on
/// every dice term (`1d20`), `kh`/`kl` for keep rules, and a leading `-`
/// only when the first term is subtracted. An empty expression prints as
/// `0`.
impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return f.write_str("0");
        }
        for (i, term) in self.terms.iter().enumerate() {
            if is_negative(term) {
                f.write_str("-")?;
            } else if i > 0 {
                f.write_str("+")?;
            }
            write_term_body(f, term)?;
        }
        Ok(())
    }
}

impl FromStr for DiceExpr {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<DiceExpr, NotationError> {
        Parser::new(s).expression()
    }
}

impl TryFrom<String> for DiceExpr {
    type Error = NotationError;

    fn try_from(s: String) -> Result<DiceExpr, NotationError> {
        s.parse()
    }
}

impl From<DiceExpr> for String {
    fn from(expr: DiceExpr) -> String {
        expr.to_string()
    }
}

/// A hand-written recursive-descent parser over the characters of the
/// input; positions are character indices, so columns count characters.
struct Parser {
    chars: Vec<char>,
    pos: usize,
}

/// A run of digits and where it started.
struct Number {
    /// The value, or `None` if it does not fit in a `u32`.
    value: Option<u32>,
    /// The digits as written.
    text: String,
    /// The 1-based column of the first digit.
    column: usize,
}

impl Parser {
    fn new(s: &str) -> Parser {
        Parser {
            chars: s.chars().collect(),
            pos: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn column(&self) -> usize {
        self.pos + 1
    }

    /// Describes the character at the cursor for an error message.
    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("{c:?}"),
            None => "the end of the input".to_string(),
        }
    }

    fn error(&self, expected: &str) -> NotationError {
        NotationError::new(self.column(), format!("{expected}, found {}", self.found()))
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// Consumes the next character if it is `want` in either case.
    fn eat_letter(&mut self, want: char) -> bool {
        if self.peek().is_some_and(|c| c.eq_ignore_ascii_case(&want)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Reads a run of ASCII digits, or returns `None` if there is none.
    fn number(&mut self) -> Option<Number> {
        let column = self.column();
        let mut value = Some(0u32);
        let mut text = String::new();
        while let Some(c) = self.peek() {
            let Some(digit) = c.to_digit(10).filter(|_| c.is_ascii_digit()) else {
                break;
            };
            value = value.and_then(|v| v.checked_mul(10)).and_then(|v| v.checked_add(digit));
            text.push(c);
            self.pos += 1;
        }
        if text.is_empty() {
            None
        } else {
            Some(Number { value, text, column })
        }
    }

    /// Reads a number that must lie in `low..=high`; `what` names it in
    /// messages.
    fn bounded(&mut self, low: u32, high: u32, what: &str, after: &str) -> Result<u32, NotationError> {
        let Some(n) = self.number() else {
            return Err(self.error(&format!("expected {what} after {after}")));
        };
        match n.value {
            Some(v) if (low..=high).contains(&v) => Ok(v),
            _ => Err(NotationError::new(
                n.column,
                format!("expected {what} from {low} to {high}, found {}", n.text),
            )),
        }
    }

    fn expression(&mut self) -> Result<DiceExpr, NotationError> {
        let mut terms = Vec::new();
        self.skip_spaces();
        let mut negative = match self.peek() {
            Some('-') => {
                self.pos += 1;
                true
            }
            Some('+') => {
                self.pos += 1;
                false
            }
            _ => false,
        };
        loop {
            self.skip_spaces();
            if terms.len() >= MAX_TERMS {
                return Err(NotationError::new(
                    self.column(),
                    format!("an expression may have at most {MAX_TERMS} terms"),
                ));
            }
            terms.push(self.term(negative)?);
            self.skip_spaces();
            negative = match self.peek() {
                None => break,
                Some('+') => false,
                Some('-') => true,
                Some(_) => {
                    return Err(self.error("expected '+', '-' or the end of the expression after a term"));
                }
            };
            self.pos += 1;
        }
        Ok(DiceExpr { terms })
    }

    fn term(&mut self, negative: bool) -> Result<Term, NotationError> {
        let count = self.number();
        if self.eat_letter('d') {
            let count = match count {
                None => 1,
                Some(n) => match n.value.and_then(|v| u16::try_from(v).ok()) {
                    Some(v) if (1..=MAX_TERM_DICE).contains(&v) => v,
                    _ => {
                        return Err(NotationError::new(
                            n.column,
                            format!("expected a number of dice from 1 to {MAX_TERM_DICE}, found {}", n.text),
                        ));
                    }
                },
            };
            return self.dice_rest(negative, count);
        }
        match count {
            Some(n) => {
                let magnitude = n
                    .value
                    .and_then(|v| i32::try_from(v).ok())
                    .filter(|v| *v <= MAX_CONSTANT);
                match magnitude {
                    Some(v) => Ok(Term::Const(if negative { -v } else { v })),
                    None => Err(NotationError::new(
                        n.column,
                        format!("expected a constant of at most {MAX_CONSTANT}, found {}", n.text),
                    )),
                }
            }
            None => Err(self.error("expected a number or a dice term like '2d6'")),
        }
    }

    /// Parses the rest of a dice term after the `d`.
    fn dice_rest(&mut self, negative: bool, count: u16) -> Result<Term, NotationError> {
        let sides = self.bounded(1, u32::from(MAX_SIDES), "a number of sides", "'d'")?;
        let sides = u16::try_from(sides).unwrap_or(MAX_SIDES);
        let keep = self.keep_suffix(count)?;
        Ok(Term::Dice {
            sign: if negative { -1 } else { 1 },
            count,
            sides,
            keep,
        })
    }

    /// Parses an optional keep or drop suffix for `count` dice.
    fn keep_suffix(&mut self, count: u16) -> Result<Keep, NotationError> {
        let n = u32::from(count);
        if self.eat_letter('k') {
            let (highest, after) = if self.eat_letter('h') {
                (true, "'kh'")
            } else if self.eat_letter('l') {
                (false, "'kl'")
            } else if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                (true, "'k'")
            } else {
                return Err(self.error("expected 'h', 'l' or a number of dice to keep after 'k'"));
            };
            let column = self.column();
            let k = self.bounded(0, n, "a number of dice to keep", after)?;
            let k = small_keep(k, column)?;
            return Ok(if highest { Keep::Highest(k) } else { Keep::Lowest(k) });
        }
        if self.eat_letter('d') {
            let (drop_highest, after) = if self.eat_letter('h') {
                (true, "'dh'")
            } else if self.eat_letter('l') {
                (false, "'dl'")
            } else {
                return Err(self.error("expected 'h' or 'l' after a drop 'd'"));
            };
            let column = self.column();
            let dropped = self.bounded(0, n, "a number of dice to drop", after)?;
            let k = small_keep(n - dropped, column)?;
            return Ok(if drop_highest {
                Keep::Lowest(k)
            } else {
                Keep::Highest(k)
            });
        }
        Ok(Keep::All)
    }
}

/// Checks that a number of kept dice fits a keep rule.
fn small_keep(k: u32, column: usize) -> Result<u8, NotationError> {
    u8::try_from(k).map_err(|_| {
        NotationError::new(
            column,
            format!("a keep rule may keep at most {} dice, but this keeps {k}", u8::MAX),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::ScriptedDice;
    use proptest::prelude::*;

    fn parse(s: &str) -> DiceExpr {
        s.parse().unwrap()
    }

    fn err(s: &str) -> String {
        s.parse::<DiceExpr>().unwrap_err().to_string()
    }

    fn dice(sign: i8, count: u16, sides: u16, keep: Keep) -> Term {
        Term::Dice {
            sign,
            count,
            sides,
            keep,
        }
    }

    #[test]
    fn parses_basic_forms() {
        assert_eq!(parse("d20").terms, [dice(1, 1, 20, Keep::All)]);
        assert_eq!(parse("2d6-1").terms, [dice(1, 2, 6, Keep::All), Term::Const(-1)]);
        assert_eq!(
            parse("3d6kh2+1").terms,
            [dice(1, 3, 6, Keep::Highest(2)), Term::Const(1)]
        );
        assert_eq!(parse("4d6k3").terms, [dice(1, 4, 6, Keep::Highest(3))]);
        assert_eq!(parse("4D6KL2").terms, [dice(1, 4, 6, Keep::Lowest(2))]);
        assert_eq!(parse("4d6dl1").terms, [dice(1, 4, 6, Keep::Highest(3))]);
        assert_eq!(parse("4d6dh1").terms, [dice(1, 4, 6, Keep::Lowest(3))]);
        assert_eq!(
            parse(" -1d4 + 2d6 - 3 ").terms,
            [dice(-1, 1, 4, Keep::All), dice(1, 2, 6, Keep::All), Term::Const(-3)]
        );
        assert_eq!(parse("+5").terms, [Term::Const(5)]);
        assert_eq!(parse("-0").terms, [Term::Const(0)]);
        assert_eq!(parse("3d6kh0").terms, [dice(1, 3, 6, Keep::Highest(0))]);
    }

    #[test]
    fn displays_canonically() {
        assert_eq!(parse("d20").to_string(), "1d20");
        assert_eq!(parse("3D6 KH2".replace(' ', "").as_str()).to_string(), "3d6kh2");
        assert_eq!(parse("2d6 - 1").to_string(), "2d6-1");
        assert_eq!(parse("-d4+3").to_string(), "-1d4+3");
        assert_eq!(parse("4d6dl1").to_string(), "4d6kh3");
        assert_eq!(parse("2d20k1").to_string(), "2d20kh1");
        assert_eq!(DiceExpr { terms: vec![] }.to_string(), "0");
    }

    #[test]
    fn error_messages_say_what_was_expected() {
        assert_eq!(err("10dx"), "column 4: expected a number of sides after 'd', found 'x'");
        assert_eq!(
            err(""),
            "column 1: expected a number or a dice term like '2d6', found the end of the input"
        );
        assert_eq!(
            err("2d6+"),
            "column 5: expected a number or a dice term like '2d6', found the end of the input"
        );
        assert_eq!(
            err("2d6 3"),
            "column 5: expected '+', '-' or the end of the expression after a term, found '3'"
        );
        assert_eq!(
            err("2d6 kh1"),
            "column 5: expected '+', '-' or the end of the expression after a term, found 'k'"
        );
        assert_eq!(
            err("2d0"),
            "column 3: expected a number of sides from 1 to 1000, found 0"
        );
        assert_eq!(
            err("2d1001"),
            "column 3: expected a number of sides from 1 to 1000, found 1001"
        );
        assert_eq!(
            err("0d6"),
            "column 1: expected a number of dice from 1 to 1000, found 0"
        );
        assert_eq!(
            err("99999999999d6"),
            "column 1: expected a number of dice from 1 to 1000, found 99999999999"
        );
        assert_eq!(
            err("1+99999999999999999999999"),
            "column 3: expected a constant of at most 1000000, found 99999999999999999999999"
        );
        assert_eq!(
            err("4d6kh5"),
            "column 6: expected a number of dice to keep from 0 to 4, found 5"
        );
        assert_eq!(
            err("4d6dl5"),
            "column 6: expected a number of dice to drop from 0 to 4, found 5"
        );
        assert_eq!(
            err("4d6kx"),
            "column 5: expected 'h', 'l' or a number of dice to keep after 'k', found 'x'"
        );
        assert_eq!(
            err("4d6kh"),
            "column 6: expected a number of dice to keep after 'kh', found the end of the input"
        );
        assert_eq!(
            err("4d6dx"),
            "column 5: expected 'h' or 'l' after a drop 'd', found 'x'"
        );
        assert_eq!(
            err("1000d6kh300"),
            "column 9: a keep rule may keep at most 255 dice, but this keeps 300"
        );
        assert_eq!(
            err("1000d6dl1"),
            "column 9: a keep rule may keep at most 255 dice, but this keeps 999"
        );
        assert!(err("é+1").starts_with("column 1:"));
        assert_eq!(
            err("1+é"),
            "column 3: expected a number or a dice term like '2d6', found 'é'"
        );
        assert_eq!(
            err("--1"),
            "column 2: expected a number or a dice term like '2d6', found '-'"
        );
    }

    #[test]
    fn term_limit() {
        let ok = vec!["1"; 64].join("+");
        assert_eq!(parse(&ok).terms.len(), 64);
        let too_many = vec!["1"; 65].join("+");
        assert_eq!(err(&too_many), "column 129: an expression may have at most 64 terms");
    }

    #[test]
    fn min_and_max() {
        let e = parse("2d6+1d4-3");
        assert_eq!((e.min(), e.max()), (0, 13));
        let e = parse("-4d6kh3+1");
        assert_eq!((e.min(), e.max()), (-17, -2));
        let e = parse("1000d1000");
        assert_eq!((e.min(), e.max()), (1000, 1_000_000));
    }

    #[test]
    fn rolls_every_term() {
        let e = parse("2d6+1d4-3");
        let mut dice = ScriptedDice::new([6, 5, 2]);
        let (total, rolls) = e.roll(&mut dice).unwrap();
        assert_eq!(total, 10);
        assert_eq!(rolls.len(), 2);
        assert_eq!(rolls[0].faces.as_slice(), &[6, 5]);
        assert_eq!(rolls[1].faces.as_slice(), &[2]);

        let e = parse("-4d6kh3+10");
        let mut dice = ScriptedDice::new([1, 6, 6, 2]);
        let (total, rolls) = e.roll(&mut dice).unwrap();
        assert_eq!(total, -4);
        assert_eq!(rolls[0].describe(), "[(1), 6, 6, 2] = 14");
    }

    #[test]
    fn rolling_too_many_dice_draws_nothing() {
        let e = parse("1d6+33d6");
        let mut dice = ScriptedDice::new([1; 40]);
        assert_eq!(e.roll(&mut dice), Err(DiceError::TooManyDice { max: MAX_DICE }));
        assert_eq!(dice.consumed(), 0);
    }

    #[test]
    fn roll_reasons_name_the_term() {
        let mut seen = Vec::new();
        let mut dice = crate::source::InteractiveDice::new(
            |request: crate::source::Request<'_>, why: &str| {
                seen.push(why.to_string());
                match request {
                    crate::source::Request::Roll { count, .. } => Ok(vec![1; count]),
                    crate::source::Request::Draw { .. } => Err(DiceError::Aborted("not a roll".into())),
                }
            },
            |_: &str| {},
        );
        parse("2d6+1d4").roll(&mut dice).unwrap();
        parse("1d20+5").roll_for(&mut dice, &"attack").unwrap();
        let (_ask, _complain) = dice.into_parts();
        assert_eq!(seen, ["2d6 of 2d6+1d4", "1d4 of 2d6+1d4", "attack: 1d20+5"]);
    }

    #[test]
    fn hand_built_extremes_do_not_panic() {
        let e = DiceExpr {
            terms: vec![Term::Const(i32::MAX); 70],
        };
        assert_eq!(e.roll(&mut ScriptedDice::new([])).unwrap().0, i32::MAX);
        assert_eq!(e.max(), 70 * i64::from(i32::MAX));
        let e = DiceExpr {
            terms: vec![dice(0, 2, 0, Keep::All)],
        };
        assert_eq!((e.min(), e.max()), (0, 0));
        assert!(e.roll(&mut ScriptedDice::new([1, 1])).is_err());
    }

    /// A valid term, as the parser could produce it.
    fn arb_term() -> impl Strategy<Value = Term> {
        let dice_term = (
            any::<bool>(),
            1u16..=MAX_TERM_DICE,
            1u16..=MAX_SIDES,
            0u8..3,
            any::<u8>(),
        )
            .prop_map(|(negative, count, sides, rule, k)| {
                let most = u8::try_from(count).unwrap_or(u8::MAX);
                let k = k % most.saturating_add(1).max(1);
                let k = k.min(most);
                let keep = match rule {
                    0 => Keep::All,
                    1 => Keep::Highest(k),
                    _ => Keep::Lowest(k),
                };
                Term::Dice {
                    sign: if negative { -1 } else { 1 },
                    count,
                    sides,
                    keep,
                }
            });
        prop_oneof![dice_term, (-MAX_CONSTANT..=MAX_CONSTANT).prop_map(Term::Const)]
    }

    proptest! {
        #[test]
        fn display_round_trips(terms in proptest::collection::vec(arb_term(), 1..=MAX_TERMS)) {
            let e = DiceExpr { terms };
            let text = e.to_string();
            let back: DiceExpr = text.parse().map_err(|err| TestCaseError::fail(format!("{text}: {err}")))?;
            prop_assert_eq!(&back, &e);
            prop_assert_eq!(back.to_string(), text);
        }

        #[test]
        fn arbitrary_text_never_panics(text in any::<String>()) {
            if let Ok(e) = text.parse::<DiceExpr>() {
                prop_assert_eq!(e.to_string().parse::<DiceExpr>(), Ok(e));
            }
        }

        #[test]
        fn notation_like_text_never_panics(text in "[0-9dDkKhHlL+\\- %x]{0,40}") {
            match text.parse::<DiceExpr>() {
                Ok(e) => {
                    prop_assert_eq!(e.to_string().parse::<DiceExpr>(), Ok(e.clone()));
                    prop_assert!(e.min() <= e.max());
                }
                Err(err) => prop_assert!(err.column >= 1 && err.column <= text.chars().count() + 1),
            }
        }

        #[test]
        fn rolled_totals_stay_within_bounds(
            terms in proptest::collection::vec(arb_term(), 1..=8),
            seed in any::<u64>(),
        ) {
            let e = DiceExpr { terms };
            let mut dice = crate::source::SeededDice::new(seed);
            match e.roll(&mut dice) {
                Ok((total, _)) => {
                    prop_assert!(e.min() <= i64::from(total) && i64::from(total) <= e.max());
                }
                Err(err) => prop_assert_eq!(err, DiceError::TooManyDice { max: MAX_DICE }),
            }
        }
    }

    #[test]
    fn serde_uses_the_canonical_string() {
        let e = parse("d20 + 5");
        assert_eq!(serde_json::to_string(&e).unwrap(), "\"1d20+5\"");
        let back: DiceExpr = serde_json::from_str("\"4d6dl1\"").unwrap();
        assert_eq!(back, parse("4d6kh3"));
        let bad = serde_json::from_str::<DiceExpr>("\"4d\"").unwrap_err();
        assert!(bad.to_string().contains("column 3"), "{bad}");
    }
}
