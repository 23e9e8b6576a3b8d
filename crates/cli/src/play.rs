//! `fray play`: table play at a prompt or from a script.
//!
//! At each pending decision the prompt names the seat that must decide and lists every legal
//! command exactly as it can be typed. Lines come from the terminal or, when stdin is not a
//! terminal, one per line from stdin, so whole fights can be scripted. Besides game commands
//! the prompt understands `help`, `show`, `choices`, `undo` and `quit`; GM rulings start with
//! `gm`. The record (with `--record`) is rewritten after every accepted command, so nothing
//! already played is lost when something goes wrong later.

use crate::{Fail, open_game, print_header, print_log, random_seed};
use fray_dice::{DiceError, InteractiveDice, ScriptedDice, parse_faces};
use fray_engine::Seat;
use fray_engine::SubmitError;
use fray_engine::text::{AnyGame, NewDice};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::rc::Rc;

/// Where typed lines come from.
struct Input {
    lines: Box<dyn Iterator<Item = std::io::Result<String>>>,
    line: usize,
    terminal: bool,
    /// A complaint about typed dice in a script (scripts stop on bad dice instead of asking
    /// again).
    complaint: Option<String>,
}

impl Input {
    fn read(&mut self, prompt: &str) -> Option<String> {
        if self.terminal {
            say_nonl!("{prompt}");
            let _ = std::io::stdout().flush();
        }
        let l = self.lines.next()?.ok()?;
        self.line += 1;
        if !self.terminal {
            say!("{prompt}{l}");
        }
        Some(l)
    }
}

const HELP: &str = "\
Type one of the choices listed at the prompt, or:
  show       the state of every combatant
  choices    list the legal choices again
  undo       take back the last command
  quit       stop here (the record keeps everything played so far)
  gm ...     a GM ruling, at any time:";

const HELP_END: &str = "Lines starting with # are comments. See docs/commands.md for every command.";

fn print_choices(choices: &[String]) {
    let mut line = String::from("  ");
    for c in choices {
        if line.len() + c.len() + 3 > 100 && !line.trim().is_empty() {
            say!("{}", line.trim_end());
            line = String::from("  ");
        }
        line.push_str(c);
        line.push_str(" | ");
    }
    let l = line.trim_end().trim_end_matches('|').trim_end();
    if !l.trim().is_empty() {
        say!("{l}");
    }
}

/// Notes such as attack odds, one line per distinct note (the first command it belongs to).
fn print_notes(choices: &[String], notes: &[Option<String>]) {
    let mut seen: Vec<&str> = Vec::new();
    for (c, n) in choices.iter().zip(notes) {
        if let Some(n) = n
            && !seen.contains(&n.as_str())
        {
            seen.push(n);
            let head: Vec<&str> = c.split_whitespace().take(3).collect();
            say!("    {}: {n}", head.join(" "));
        }
    }
}

fn save(record: Option<&Path>, game: &dyn AnyGame) -> Result<(), Fail> {
    crate::write_record(record, game)
}

/// Runs table play.
pub fn play(path: &Path, seed: Option<u64>, dice: Option<&str>, record: Option<&Path>, json: bool) -> Result<(), Fail> {
    let stdin = std::io::stdin();
    let terminal = stdin.is_terminal();
    let input = Rc::new(RefCell::new(Input {
        lines: Box::new(stdin.lock().lines()),
        line: 0,
        terminal,
        complaint: None,
    }));
    let source = match (seed, dice) {
        (_, Some("manual")) => {
            let ask_in = Rc::clone(&input);
            let complain_in = Rc::clone(&input);
            let ask = move |count: usize, sides: u16, why: &str| -> Result<Vec<u16>, DiceError> {
                let mut inp = ask_in.borrow_mut();
                if let Some(c) = inp.complaint.take() {
                    return Err(DiceError::Aborted(format!("line {}: {c}", inp.line)));
                }
                let text = inp
                    .read(&format!("roll {count}d{sides} for {why}: "))
                    .ok_or_else(|| DiceError::Aborted("the input ended while dice were being typed".into()))?;
                match parse_faces(&text) {
                    Ok(f) => Ok(f),
                    Err(e) if inp.terminal => {
                        say!("  {e}: type {count} numbers from 1 to {sides}, such as 3 5");
                        Ok(Vec::new())
                    }
                    Err(e) => Err(DiceError::Aborted(format!("line {}: bad dice '{text}': {e}", inp.line))),
                }
            };
            let complain = move |msg: &str| {
                let mut inp = complain_in.borrow_mut();
                if inp.terminal {
                    say!("  {msg}");
                } else {
                    inp.complaint = Some(msg.to_string());
                }
            };
            NewDice::Source(Box::new(InteractiveDice::new(ask, complain)))
        }
        (_, Some(list)) => {
            let faces = parse_faces(list).map_err(|e| Fail::input(format!("--dice: {e}")))?;
            NewDice::Source(Box::new(ScriptedDice::new(faces)))
        }
        (Some(s), None) => NewDice::Seeded(s),
        (None, None) => NewDice::Seeded(random_seed()),
    };
    let mut game = open_game(path, source)?;
    print_header(&*game, false);
    print_log(&game.full_log(), false);
    save(record, &*game)?;
    while let Some(p) = game.pending() {
        say!("[{}] {}", p.seat_name, p.prompt);
        print_choices(&p.choices);
        print_notes(&p.choices, &p.notes);
        let line = input.borrow_mut().read("> ");
        let Some(line) = line else {
            save(record, &*game)?;
            say!("(the input ended before the combat did; the record holds everything so far)");
            return Ok(());
        };
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let line_no = input.borrow().line;
        match text {
            "help" | "?" => {
                say!("{HELP}");
                for l in game.gm_help().lines() {
                    say!("               {l}");
                }
                say!("{HELP_END}");
                continue;
            }
            "show" => {
                say_nonl!("{}", game.summary());
                continue;
            }
            "choices" => {
                print_choices(&p.choices);
                continue;
            }
            "quit" => {
                save(record, &*game)?;
                say!("(stopped; the record holds everything so far)");
                return Ok(());
            }
            "undo" => {
                match game.undo() {
                    Ok(true) => say!("(the last command was taken back)"),
                    Ok(false) => say!("(nothing to undo)"),
                    Err(e) => return Err(Fail::input(format!("undo failed: {e}"))),
                }
                save(record, &*game)?;
                continue;
            }
            _ => {}
        }
        let seat = if text.starts_with("gm ") || text == "gm" {
            Seat::GM
        } else {
            p.seat
        };
        match game.submit_text(seat, text) {
            Ok(log) => {
                print_log(&log, false);
                save(record, &*game)?;
            }
            Err(SubmitError::Rejected(r)) => {
                let bad_text = r.code == fray_engine::Reject::UNKNOWN_COMMAND;
                if terminal {
                    say!("  rejected: {}", r.reason);
                    continue;
                }
                save(record, &*game)?;
                let code = if bad_text { 2 } else { 1 };
                return Err(Fail {
                    code,
                    message: format!("line {line_no}: rejected ({}): {}", r.code, r.reason),
                });
            }
            Err(SubmitError::Engine(e)) => {
                save(record, &*game)?;
                return Err(Fail::input(format!(
                    "line {line_no}: {e} (nothing from this command was applied)"
                )));
            }
        }
    }
    say_nonl!("{}", game.summary());
    if json {
        say!(
            "{}",
            serde_json::to_string_pretty(&game.view_json(Seat::GM)).unwrap_or_default()
        );
    }
    save(record, &*game)
}
