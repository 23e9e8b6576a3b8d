//! `fray play`: table play at a prompt or from a script.
//!
//! At each pending decision the prompt names the seat that must decide and lists the legal
//! commands: in full when there are few, families of square-only differences once with a count
//! (`choices all` prints every one; see [`crate::choices`]). At a terminal the prompt is a line
//! editor (history, editing, Tab completion of the legal commands, ids, squares, prompt words
//! and GM rulings); when stdin is not a terminal, lines are read one per line, so whole fights
//! can be scripted, and a line that is not UTF-8 is bad input naming its line. Besides game
//! commands the prompt understands `help`, `show`, `map`, `state`, `choices`, `undo` and
//! `quit`; GM rulings start with `gm`. The record (with `--record`) is written after every
//! accepted command (to a new file renamed over the old), so nothing already played is lost
//! when something goes wrong later. With `--save DB` (and in `fray resume`) every accepted
//! command, undo and redo is a step saved in the database in its own transaction before its log
//! is printed and before the next prompt: what the screen acknowledged is on disk.

use crate::saves::{self, Save};
use crate::{Fail, choices, open_game_source, print_header, print_log, random_seed};
use fray_dice::Prng;
use fray_dice::{DeckList, Dice, DiceError, Faces, InteractiveDice, Request, ScriptedDice, parse_faces};
use fray_engine::Seat;
use fray_engine::SubmitError;
use fray_engine::text::{AnyGame, EntryJson, LogLine, NewDice, PendingText};
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal};
use std::path::Path;
use std::rc::Rc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The words Tab completes at the current decision (shared with the line editor).
type Words = Rc<RefCell<Vec<String>>>;

/// The line editor's helper: completion from the current decision's words.
struct Completion {
    words: Words,
}

impl Completer for Completion {
    type Candidate = String;
    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<String>)> {
        let upto = line.get(..pos).unwrap_or(line);
        Ok(choices::complete(&self.words.borrow(), upto))
    }
}

impl Hinter for Completion {
    type Hint = String;
}
impl Highlighter for Completion {}
impl Validator for Completion {}
impl Helper for Completion {}

/// Where typed lines come from.
enum Source {
    /// A person at a terminal, through the line editor.
    Terminal(Box<Editor<Completion, DefaultHistory>>),
    /// A script (or a pipe): raw lines, checked to be UTF-8, read on their own thread so that
    /// a decision under a declaration timer can stop waiting for them.
    Script(mpsc::Receiver<Result<Vec<u8>, String>>),
}

/// What a read gave.
enum Got {
    /// A line.
    Line(String),
    /// The end of the input.
    End,
    /// The declaration timer ran out first.
    Late,
}

/// Reads `input` line by line on a thread of its own and sends each line (with its end) down
/// the channel; an I/O error is sent once and ends the thread.
fn line_reader(mut input: impl BufRead + Send + 'static) -> mpsc::Receiver<Result<Vec<u8>, String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        loop {
            let mut buf = Vec::new();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {
                    if tx.send(Ok(buf)).is_err() {
                        break;
                    }
                }
                Err(e) => {
                    let _ = tx.send(Err(e.to_string()));
                    break;
                }
            }
        }
    });
    rx
}

/// Where typed lines come from, and how far we are.
struct Input {
    source: Source,
    line: usize,
    /// A complaint about typed dice in a script (scripts stop on bad dice instead of asking
    /// again).
    complaint: Option<String>,
    /// Tab completion words for the current question.
    words: Words,
}

impl Input {
    fn terminal(&self) -> bool {
        matches!(self.source, Source::Terminal(_))
    }

    /// The next line: `Ok(None)` at the end of the input (or Ctrl-D / Ctrl-C at a terminal),
    /// an error for a line that cannot be read (not UTF-8, an I/O error).
    fn read(&mut self, prompt: &str) -> Result<Option<String>, String> {
        match self.read_by(prompt, None)? {
            Got::Line(l) => Ok(Some(l)),
            Got::End | Got::Late => Ok(None),
        }
    }

    /// The next line, given up at `deadline` (a declaration timer). A script stops waiting at
    /// the deadline; at a terminal the line editor cannot be interrupted, so a line typed after
    /// the deadline comes too late and is dropped.
    fn read_by(&mut self, prompt: &str, deadline: Option<Instant>) -> Result<Got, String> {
        match &mut self.source {
            Source::Terminal(ed) => match ed.readline(prompt) {
                Ok(l) => {
                    self.line += 1;
                    if !l.trim().is_empty() {
                        let _ = ed.add_history_entry(l.as_str());
                    }
                    if deadline.is_some_and(|d| Instant::now() > d) {
                        return Ok(Got::Late);
                    }
                    Ok(Got::Line(l))
                }
                Err(ReadlineError::Eof | ReadlineError::Interrupted) => Ok(Got::End),
                Err(e) => Err(format!("cannot read the terminal: {e}")),
            },
            Source::Script(r) => {
                let got = match deadline {
                    None => r.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                    Some(d) => r.recv_timeout(d.saturating_duration_since(Instant::now())),
                };
                let mut buf = match got {
                    Ok(Ok(b)) => b,
                    Ok(Err(e)) => return Err(format!("line {}: cannot read the input: {e}", self.line + 1)),
                    Err(mpsc::RecvTimeoutError::Timeout) => return Ok(Got::Late),
                    Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(Got::End),
                };
                self.line += 1;
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                let l = String::from_utf8(buf).map_err(|e| {
                    let col = e.utf8_error().valid_up_to() + 1;
                    format!("line {}, column {col}: the line is not UTF-8 text", self.line)
                })?;
                say!("{prompt}{l}");
                Ok(Got::Line(l))
            }
        }
    }
}

const HELP: &str = "\
Type one of the choices listed at the prompt (Tab completes at a terminal), or:
  show [SEAT]     the combat tracker: turn order, who has acted or delayed, gauges, statuses
  map [SEAT]      the battlefield as text, with a legend
  state [SEAT]    the state as JSON, as the seat may see it (default: the seat deciding)
  choices         the legal choices again (long families once, with a count)
  choices all     every legal choice in full;  choices json: as a JSON array
  ai              let the built-in AI answer this decision (once)
  undo            take back the last command
  redo            bring back the command undone last (while nothing else was played since)
  quit            stop here (a --record file or a --save database keeps everything so far)
  gm ...          a GM ruling, at any time:";

const HELP_END: &str = "Lines starting with # are comments. See docs/commands.md for every command.";

/// The prompt words, for completion.
const PROMPT_WORDS: [&str; 12] = [
    "help",
    "ai",
    "show",
    "map",
    "state",
    "choices",
    "choices all",
    "choices json",
    "undo",
    "redo",
    "quit",
    "gm",
];

/// The width the choice lists are wrapped to: an 80-column terminal.
const WIDTH: usize = 80;

/// Prints choices as lines of at most [`WIDTH`] columns separated by `|` (a choice longer
/// than that on a line of its own).
fn print_wrapped<S: AsRef<str>>(items: &[S]) {
    let mut line = String::from("  ");
    for c in items {
        let c = c.as_ref();
        if line.len() + c.len() + 3 > WIDTH && !line.trim().is_empty() {
            say!("{}", line.trim_end().trim_end_matches('|').trim_end());
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

/// `text` in lines of at most `width` characters, broken at spaces (a longer word stands on a
/// line of its own).
fn words_wrapped(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The choices the prompt shows: every legal one but those the ruleset leaves out of the list
/// (all of them when it would leave out every one).
fn shown_choices(p: &PendingText) -> Vec<&String> {
    let shown: Vec<&String> = p
        .choices
        .iter()
        .zip(&p.hidden)
        .filter(|(_, h)| !**h)
        .map(|(c, _)| c)
        .collect();
    if shown.is_empty() {
        p.choices.iter().collect()
    } else {
        shown
    }
}

/// Prints the choices people read: those the ruleset leaves out are counted, long square
/// families are shown once with a count, commands that differ only in their last word or in
/// optional phrases are folded into one line; then the notes (such as odds) of the plain form
/// of each choice shown.
fn print_choices(p: &PendingText) {
    let shown = shown_choices(p);
    let owned: Vec<String> = shown.iter().map(|c| c.to_string()).collect();
    let optional = choices::Optional {
        options: p.option_words,
        flags: p.flag_words,
    };
    let lines: Vec<String> = choices::fold(choices::group(&owned), optional)
        .iter()
        .map(ToString::to_string)
        .collect();
    print_wrapped(&lines);
    let left_out = p.choices.len() - shown.len();
    if left_out > 0 {
        let note = format!(
            "(and {left_out} more rarely meant, such as {}: `choices all` lists every choice)",
            p.hides_what
        );
        for line in words_wrapped(&note, WIDTH - 2) {
            say!("  {line}");
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for (c, n) in p.choices.iter().zip(&p.notes) {
        if let Some(n) = n
            && shown.contains(&c)
            && choices::plain(c, optional)
            && !seen.contains(&n.as_str())
        {
            seen.push(n);
            say!("    {c}: {n}");
        }
    }
}

/// The seat a prompt word is about: the one named after it, or the seat deciding.
fn seat_arg(game: &dyn AnyGame, arg: &str, pending: Seat) -> Result<Seat, String> {
    if arg.is_empty() {
        return Ok(pending);
    }
    game.seat_by_name(arg)
        .ok_or_else(|| format!("no seat '{arg}' (the GM seat is 'gm')"))
}

/// The words Tab completes at this decision: the legal commands, the prompt words (with seat
/// names where they take one) and the GM rulings with every combatant id.
fn completion_words(game: &dyn AnyGame, p: &PendingText) -> Vec<String> {
    let mut words = p.choices.clone();
    words.extend(PROMPT_WORDS.iter().map(|w| w.to_string()));
    let seats = ["gm".to_string(), p.seat_name.clone()];
    for w in ["show", "map", "state"] {
        words.extend(seats.iter().map(|s| format!("{w} {s}")));
    }
    // Every combatant's id, from the view every ruleset shares.
    let ids: Vec<String> = game.seat_view(Seat::GM).combatants.into_iter().map(|c| c.id).collect();
    words.extend(choices::gm_candidates(game.gm_help(), &ids));
    words
}

/// Answers a prompt word; `false` when the line is not one.
fn prompt_word(game: &dyn AnyGame, p: &PendingText, text: &str) -> bool {
    let (head, arg) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let arg = arg.trim();
    match (head, arg) {
        ("help" | "?", "") => {
            say!("{HELP}");
            for l in game.gm_help().lines() {
                say!("                    {l}");
            }
            say!("{HELP_END}");
        }
        ("show" | "map" | "state", _) => match seat_arg(game, arg, p.seat) {
            Err(e) => say!("  {e}"),
            Ok(seat) => match head {
                "show" => say_nonl!("{}", ensure_newline(game.tracker(seat))),
                "map" => match game.map(seat) {
                    Some(m) => say_nonl!("{}", ensure_newline(m)),
                    None => say!("  (this ruleset has no map)"),
                },
                _ => say!(
                    "{}",
                    serde_json::to_string_pretty(&game.view_json(seat)).unwrap_or_default()
                ),
            },
        },
        ("choices", "") => print_choices(p),
        ("choices", "all") => print_wrapped(&p.choices),
        ("choices", "json") => say!("{}", serde_json::to_string(&p.choices).unwrap_or_default()),
        _ => return false,
    }
    true
}

fn ensure_newline(mut s: String) -> String {
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// The dice of a game being played, shared so that a game rebuilt by a redo gets the same
/// source back (typed or listed faces; a seeded game's dice come from its record).
#[derive(Clone)]
struct SharedDice(Rc<RefCell<Box<dyn Dice>>>);

impl Dice for SharedDice {
    fn roll(
        &mut self,
        count: usize,
        sides: u16,
        why: &dyn std::fmt::Display,
        out: &mut Faces,
    ) -> Result<(), DiceError> {
        self.0.borrow_mut().roll(count, sides, why, out)
    }

    fn draw(&mut self, deck: &[u16], why: &dyn std::fmt::Display) -> Result<u16, DiceError> {
        self.0.borrow_mut().draw(deck, why)
    }
}

/// Where typed lines come from: the line editor at a terminal, else a script on stdin.
fn open_input(words: &Words) -> Result<Rc<RefCell<Input>>, Fail> {
    let source = if std::io::stdin().is_terminal() {
        let config = rustyline::Config::builder()
            .completion_type(rustyline::CompletionType::List)
            .auto_add_history(false)
            .build();
        let mut ed: Editor<Completion, DefaultHistory> =
            Editor::with_config(config).map_err(|e| Fail::input(format!("cannot set up the terminal: {e}")))?;
        ed.set_helper(Some(Completion {
            words: Rc::clone(words),
        }));
        Source::Terminal(Box::new(ed))
    } else {
        Source::Script(line_reader(std::io::BufReader::new(std::io::stdin())))
    };
    Ok(Rc::new(RefCell::new(Input {
        source,
        line: 0,
        complaint: None,
        words: Rc::clone(words),
    })))
}

/// Dice typed at the prompt (`--dice manual`), asked through `input`.
fn manual_dice(input: &Rc<RefCell<Input>>) -> Box<dyn Dice> {
    let ask_in = Rc::clone(input);
    let complain_in = Rc::clone(input);
    let ask = move |request: Request<'_>, why: &str| -> Result<Vec<u16>, DiceError> {
        let mut inp = ask_in.borrow_mut();
        if let Some(c) = inp.complaint.take() {
            return Err(DiceError::Aborted(format!("line {}: {c}", inp.line)));
        }
        inp.words.borrow_mut().clear();
        let (prompt, hint) = match request {
            Request::Roll { count, sides } => (
                format!("roll {count}d{sides} for {why}: "),
                format!("type {count} numbers from 1 to {sides}, such as 3 5"),
            ),
            Request::Draw { deck } => (
                format!("draw a card for {why} (in the deck: {}): ", DeckList(deck)),
                format!("type the number of the card drawn, one of {}", DeckList(deck)),
            ),
        };
        let text = inp
            .read(&prompt)
            .map_err(DiceError::Aborted)?
            .ok_or_else(|| DiceError::Aborted("the input ended while dice were being typed".into()))?;
        match parse_faces(&text) {
            Ok(f) => Ok(f),
            Err(e) if inp.terminal() => {
                say!("  {e}: {hint}");
                Ok(Vec::new())
            }
            Err(e) => Err(DiceError::Aborted(format!("line {}: bad dice '{text}': {e}", inp.line))),
        }
    };
    let complain = move |msg: &str| {
        let mut inp = complain_in.borrow_mut();
        if inp.terminal() {
            say!("  {msg}");
        } else {
            inp.complaint = Some(msg.to_string());
        }
    };
    Box::new(InteractiveDice::new(ask, complain))
}

/// The dice `--dice` names: typed at the prompt (`manual`) or a list of faces.
fn typed_dice(input: &Rc<RefCell<Input>>, dice: &str) -> Result<SharedDice, Fail> {
    let source: Box<dyn Dice> = match dice {
        "manual" => manual_dice(input),
        list => {
            let faces = parse_faces(list).map_err(|e| Fail::input(format!("--dice: {e}")))?;
            Box::new(ScriptedDice::new(faces))
        }
    };
    Ok(SharedDice(Rc::new(RefCell::new(source))))
}

/// Where the game is kept besides the screen: the record file and the saved-games database.
struct Keep<'a> {
    record: Option<&'a Path>,
    save: Option<Save>,
    /// The dice to give a game rebuilt by a redo (`None`: seeded, the record has them).
    dice: Option<SharedDice>,
    /// Undone entries a redo can bring back when there is no database.
    undone: Vec<EntryJson>,
}

impl Keep<'_> {
    /// Where what was played is kept, for the message when play stops: `None` when nothing
    /// keeps it (no `--record`, no `--save`).
    fn kept_in(&self) -> Option<String> {
        match (&self.save, self.record) {
            (Some(s), _) => Some(format!(
                "{} holds everything so far (`fray resume {} {}` continues it)",
                s.path().display(),
                s.path().display(),
                s.id
            )),
            (None, Some(r)) => Some(format!("{} holds everything so far", r.display())),
            (None, None) => None,
        }
    }

    /// The message when play stops before the combat's end (`why`: what stopped it).
    fn stopped(&self, why: &str) -> String {
        match self.kept_in() {
            Some(k) => format!("({why}; {k})"),
            None => format!("({why}; nothing was kept: --record FILE or --save DB keeps a fight)"),
        }
    }

    /// Writes the record file (after every command, and when play stops).
    fn record(&self, game: &dyn AnyGame) -> Result<(), Fail> {
        crate::write_record(self.record, game)
    }

    /// A command was accepted: saves it (the step is on disk when this returns), then prints
    /// its log, then writes the record file.
    fn accepted(&mut self, game: &dyn AnyGame, text: &str, log: &[LogLine]) -> Result<(), Fail> {
        if let Some(s) = &mut self.save {
            s.command(game, text)?;
        }
        self.undone.clear();
        print_log(log, false);
        if let Some(s) = &mut self.save {
            s.carry_out(game)?;
        }
        self.record(game)
    }

    /// The commands a redo can bring back, the next one last.
    fn undone(&self) -> &[EntryJson] {
        match &self.save {
            Some(s) => s.undone(),
            None => &self.undone,
        }
    }

    /// `undo`: takes back the last command; the undo is saved as a step of its own.
    fn undo(&mut self, game: &mut Box<dyn AnyGame>) -> Result<(), Fail> {
        let last = game.last_entry_json();
        match game.undo() {
            Ok(true) => {
                let Some(last) = last else {
                    return Err(Fail::input("undo failed: the command taken back was not in the record"));
                };
                match &mut self.save {
                    Some(s) => s.undo(&**game, last)?,
                    None => self.undone.push(last),
                }
                say!("(the last command was taken back)");
            }
            Ok(false) => say!("(nothing to undo)"),
            Err(e) => return Err(Fail::input(format!("undo failed: {e}"))),
        }
        self.record(&**game)
    }

    /// `redo`: brings back the command undone last, while nothing else happened since (the game
    /// is rebuilt from its record with that command, verifying its faces and events).
    fn redo(&mut self, game: &mut Box<dyn AnyGame>) -> Result<(), Fail> {
        let Some(entry) = self.undone().last().cloned() else {
            say!("(nothing to redo)");
            return Ok(());
        };
        let record =
            saves::with_entry(&game.record_json(), &entry).map_err(|e| Fail::input(format!("redo failed: {e}")))?;
        let mut redone = saves::replay_json("redo", &record)?;
        if let Some(d) = &self.dice {
            redone.set_dice(Box::new(d.clone()));
        }
        *game = redone;
        match &mut self.save {
            Some(s) => s.redo(&**game)?,
            None => {
                self.undone.pop();
            }
        }
        say!("(the command undone last was brought back)");
        if let Some(l) = game.log_steps(Seat::GM).pop() {
            print_log(&l.lines, false);
        }
        self.record(&**game)
    }
}

/// Runs table play (`fray play`): a new game from an encounter, optionally saved in a database.
pub fn play(
    path: &Path,
    seed: Option<u64>,
    dice: Option<&str>,
    record: Option<&Path>,
    save: Option<(&Path, Option<&str>)>,
    json: bool,
    ai: &[String],
) -> Result<(), Fail> {
    let mut store = save.map(|(db, _)| saves::open_store(db, true)).transpose()?;
    let src = crate::read_source(path)?;
    // A campaign's characters come in with the lasting state its roster keeps.
    let campaign = match (&mut store, save) {
        (Some(store), Some((db, Some(name)))) => Some(saves::Campaign::enter(store, db, name, &src)?),
        _ => None,
    };
    let words: Words = Rc::new(RefCell::new(Vec::new()));
    let input = open_input(&words)?;
    let (dice_source, shared) = match (seed, dice) {
        (_, Some(d)) => {
            let shared = typed_dice(&input, d)?;
            (NewDice::Source(Box::new(shared.clone())), Some(shared))
        }
        (Some(s), None) => (NewDice::Seeded(s), None),
        (None, None) => (NewDice::Seeded(random_seed()), None),
    };
    let mut game = match &campaign {
        Some(c) => open_game_source(path, &c.source, dice_source, record, &|d| c.map_back(d))?,
        None => open_game_source(path, &src, dice_source, record, &|d| d)?,
    };
    let ai = AiSeats::resolve(&mut *game, ai)?;
    // The start, with every face typed for it, is committed before anything of it is shown:
    // a session that ends (or is killed) once the start's log is on the screen keeps it.
    let mut save = match (save, store) {
        (Some((db, _)), Some(store)) => Some(Save::create(store, db, &*game, path, campaign.as_ref())?),
        _ => None,
    };
    print_header(&*game, false);
    print_log(&game.log_for(game.viewer()), false);
    if let Some(s) = &mut save {
        let db = s.path().display().to_string();
        say!(
            "(saved in {db} as game #{}: `fray resume {db} {}` continues it)",
            s.id,
            s.id
        );
        s.carry_out(&*game)?;
    }
    let keep = Keep {
        record,
        save,
        dice: shared,
        undone: Vec::new(),
    };
    table(game, &input, &words, keep, json, ai)
}

/// Runs `fray resume DB [GAME]`: the saved game is replayed (every face and event verified)
/// and play continues where it stopped, with the same dice stream when it is seeded.
pub fn resume(
    db: &Path,
    game: Option<&str>,
    dice: Option<&str>,
    record: Option<&Path>,
    take_over: bool,
    json: bool,
    ai: &[String],
) -> Result<(), Fail> {
    let id = match game {
        None => None,
        Some(g) => Some(g.trim_start_matches('#').parse::<i64>().map_err(|_| {
            Fail::input(format!(
                "{}: error: '{g}' is not a game number (`fray games {}` lists them)",
                db.display(),
                db.display()
            ))
        })?),
    };
    let words: Words = Rc::new(RefCell::new(Vec::new()));
    let input = open_input(&words)?;
    let (mut save, record_json) = Save::resume(db, id, take_over)?;
    let name = format!("{}, game {}", db.display(), save.id);
    let mut game = saves::replay_json(&name, &record_json)?;
    save.refresh_undone(&record_json);
    let shared = match (game.seed(), dice) {
        (Some(_), Some(_)) => {
            return Err(Fail::input(format!(
                "{name}: error: the game's dice are seeded and go on from its seed; leave out --dice"
            )));
        }
        (Some(_), None) => None,
        (None, Some(d)) => Some(typed_dice(&input, d)?),
        (None, None) => {
            return Err(Fail::input(format!(
                "{name}: error: the game's dice were typed in or listed: give --dice manual or --dice FACES for the dice from here on"
            )));
        }
    };
    if let Some(d) = &shared {
        game.set_dice(Box::new(d.clone()));
    }
    let ai = AiSeats::resolve(&mut *game, ai)?;
    print_header(&*game, false);
    print_log(&game.log_for(game.viewer()), false);
    say!("(resumed game #{} of {})", save.id, db.display());
    // Killed between the last command and the roster: the fight's end reaches it now.
    let mut save = save;
    save.carry_out(&*game)?;
    let keep = Keep {
        record,
        save: Some(save),
        dice: shared,
        undone: Vec::new(),
    };
    table(game, &input, &words, keep, json, ai)
}

/// The seats the built-in AI plays at the table (`--ai`).
struct AiSeats {
    seats: Vec<Seat>,
    /// Its choices (recorded as commands, so replays never need this stream again).
    rng: Prng,
}

impl AiSeats {
    /// Reads the `--ai` words (a seat's name, `all`, or `all-but:SEAT`) against the game's
    /// seats and sets the table's viewer: the GM's seat unless the AI plays it, else the
    /// lowest seat a person plays, so players are shown only what their seat may see.
    fn resolve(game: &mut dyn AnyGame, words: &[String]) -> Result<AiSeats, Fail> {
        let names = game.seat_names();
        let all: Vec<Seat> = (0..names.len()).map(|i| Seat(i as u8)).collect();
        let seat = |w: &str| {
            game.seat_by_name(w).ok_or_else(|| {
                Fail::input(format!(
                    "--ai {w}: this encounter has no seat '{w}' (its seats: {}; or all, or all-but SEAT)",
                    names.join(", ")
                ))
            })
        };
        let mut seats: Vec<Seat> = Vec::new();
        for w in words {
            let add = match w.as_str() {
                "all" => all.clone(),
                "all-but" => {
                    return Err(Fail::input(
                        "--ai all-but: name the seat a person plays (--ai all-but gm)",
                    ));
                }
                _ => match w.strip_prefix("all-but:") {
                    Some(but) => {
                        let but = seat(but)?;
                        all.iter().copied().filter(|&s| s != but).collect()
                    }
                    None => vec![seat(w)?],
                },
            };
            for s in add {
                if !seats.contains(&s) {
                    seats.push(s);
                }
            }
        }
        if seats.contains(&Seat::GM)
            && let Some(person) = all.iter().copied().find(|s| !seats.contains(s))
        {
            game.set_viewer(person);
        }
        let seed = game.seed().unwrap_or_else(random_seed);
        Ok(AiSeats {
            seats,
            rng: Prng::for_stream(seed, 1),
        })
    }

    fn plays(&self, seat: Seat) -> bool {
        self.seats.contains(&seat)
    }
}

/// The built-in AI answers the pending decision: its command is printed as the viewer is
/// shown it, then saved, logged and recorded like a command typed at the prompt.
fn ai_move(game: &mut Box<dyn AnyGame>, keep: &mut Keep<'_>, ai: &mut AiSeats) -> Result<(), Fail> {
    match game.ai_step(&mut ai.rng) {
        Ok(m) => {
            let who = game.seat_name(m.seat);
            match &m.shown {
                Some(c) => say!("[{who}] (AI) {c}"),
                None => say!("[{who}] (AI) decides"),
            }
            keep.accepted(&**game, &m.command, &m.log)
        }
        Err(e) => {
            keep.record(&**game)?;
            Err(Fail::input(format!(
                "the built-in AI could not answer: {e} (nothing from it was applied)"
            )))
        }
    }
}

/// The table: asks the deciding seat at every decision until the combat ends or input stops.
fn table(
    mut game: Box<dyn AnyGame>,
    input: &Rc<RefCell<Input>>,
    words: &Words,
    mut keep: Keep<'_>,
    json: bool,
    mut ai: AiSeats,
) -> Result<(), Fail> {
    let terminal = input.borrow().terminal();
    keep.record(&*game)?;
    // Decisions the AI took in a row: a fight the AI plays alone must still end.
    let mut ai_run = 0u64;
    // The decision is printed again only after a command was taken (or refused), not after a
    // prompt word such as `show`.
    let mut announce = true;
    // The declaration timer of the decision asked now, if it has one.
    let mut deadline: Option<(Instant, String)> = None;
    while let Some(p) = game.pending() {
        if ai.plays(p.seat) {
            ai_run += 1;
            if ai_run > fray_engine::play::DECISION_LIMIT {
                keep.record(&*game)?;
                return Err(Fail::input(format!(
                    "the combat did not end within {} decisions of the AI",
                    fray_engine::play::DECISION_LIMIT
                )));
            }
            ai_move(&mut game, &mut keep, &mut ai)?;
            announce = true;
            continue;
        }
        ai_run = 0;
        if announce {
            // The question comes last, next to the prompt, so it stays on the screen.
            print_choices(&p);
            say!("[{}] {}", p.seat_name, p.prompt);
            deadline = game.timer().map(|(secs, c)| {
                say!("  ({secs} seconds to declare, or the turn is lost)");
                (Instant::now() + Duration::from_secs(u64::from(secs)), c)
            });
        }
        announce = true;
        *words.borrow_mut() = completion_words(&*game, &p);
        let line = input.borrow_mut().read_by("> ", deadline.as_ref().map(|d| d.0));
        let line = match line {
            Ok(Got::Line(l)) => l,
            Ok(Got::Late) => {
                let Some((_, text)) = deadline.take() else {
                    continue;
                };
                say!("(time is up: {text})");
                match game.submit_text(p.seat, &text) {
                    Ok(log) => keep.accepted(&*game, &text, &log)?,
                    Err(e) => {
                        keep.record(&*game)?;
                        return Err(Fail::input(format!("the timer's command was refused: {e}")));
                    }
                }
                continue;
            }
            Ok(Got::End) => {
                keep.record(&*game)?;
                say!("{}", keep.stopped("the input ended before the combat did"));
                return Ok(());
            }
            Err(e) => {
                keep.record(&*game)?;
                return Err(Fail::input(format!(
                    "{e} {}",
                    keep.stopped("nothing of that line was played")
                )));
            }
        };
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            announce = false;
            continue;
        }
        let line_no = input.borrow().line;
        if prompt_word(&*game, &p, text) {
            announce = false;
            continue;
        }
        match text {
            "quit" => {
                keep.record(&*game)?;
                say!("{}", keep.stopped("stopped"));
                return Ok(());
            }
            "ai" => {
                ai_move(&mut game, &mut keep, &mut ai)?;
                continue;
            }
            "undo" => {
                keep.undo(&mut game)?;
                continue;
            }
            "redo" => {
                keep.redo(&mut game)?;
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
            Ok(log) => keep.accepted(&*game, text, &log)?,
            Err(SubmitError::Rejected(r)) => {
                // Text that is not a command is bad input (exit 2) for every ruleset; a
                // command the rules refuse is a rejection (exit 1).
                let unreadable = r.is_unreadable();
                if terminal {
                    if unreadable {
                        say!("  not a command here: {} (type help, or press Tab)", r.reason);
                    } else {
                        say!("  rejected ({}): {}", r.code, r.reason);
                    }
                    continue;
                }
                keep.record(&*game)?;
                let (code, what) = if unreadable {
                    (2, "not a command")
                } else {
                    (1, "rejected")
                };
                return Err(Fail {
                    code,
                    message: format!("line {line_no}: {what} ({}): {}", r.code, r.reason),
                });
            }
            Err(SubmitError::Engine(e)) => {
                keep.record(&*game)?;
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
    keep.record(&*game)
}

#[cfg(test)]
mod tests {
    use super::words_wrapped;

    /// GM rulings that name a combatant complete every combatant's id, in every ruleset (the
    /// ids come from the view every ruleset shares).
    #[test]
    fn gm_rulings_complete_every_combatants_id_in_every_ruleset() {
        use fray_engine::diag::SourceFile;
        use fray_engine::text::NewDice;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        let mut rulesets = std::collections::BTreeSet::new();
        for dir in std::fs::read_dir(&root).expect("examples") {
            for f in std::fs::read_dir(dir.expect("entry").path()).expect("folder") {
                let path = f.expect("entry").path();
                if path.extension().is_none_or(|e| e != "toml") {
                    continue;
                }
                let src = SourceFile {
                    name: path.display().to_string(),
                    text: std::fs::read_to_string(&path).expect("readable"),
                };
                let folder = path.parent().expect("folder").to_path_buf();
                let mut read = |name: &str| -> Result<SourceFile, String> {
                    std::fs::read_to_string(folder.join(name))
                        .map(|text| SourceFile {
                            name: name.into(),
                            text,
                        })
                        .map_err(|e| e.to_string())
                };
                let entry = fray_rulesets::for_encounter(&src).expect("known ruleset");
                let Ok(game) = entry.new_game(&src, &mut read, NewDice::Seeded(1)) else {
                    panic!("{} starts", src.name)
                };
                let p = game.pending().expect("a decision");
                let words = super::completion_words(&*game, &p);
                let view = game.seat_view(fray_engine::Seat::GM);
                assert!(!view.combatants.is_empty(), "{}", src.name);
                for c in &view.combatants {
                    assert!(
                        words
                            .iter()
                            .any(|w| w.starts_with("gm ") && w.split(' ').any(|x| x == c.id)),
                        "{}: no GM ruling completes '{}'",
                        src.name,
                        c.id
                    );
                }
                rulesets.insert(entry.id());
            }
        }
        assert_eq!(rulesets.len(), fray_rulesets::ids().count(), "{rulesets:?}");
    }

    #[test]
    fn a_long_note_is_broken_at_spaces_within_the_width() {
        let note = "(and 51 more rarely meant, such as declarations for a creature other than the one due: `choices all` lists every choice)";
        let lines = words_wrapped(note, 40);
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= 40), "{lines:?}");
        assert_eq!(lines.join(" "), note);
        assert_eq!(
            words_wrapped("a-word-longer-than-the-width x", 5),
            ["a-word-longer-than-the-width", "x"]
        );
    }
}
