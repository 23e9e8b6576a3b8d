//! The text layer: how the `fray` command talks to any ruleset.
//!
//! A ruleset that implements [`TextRuleset`] can load its encounter files, read and print its
//! commands (the printed form of every legal command parses back to the same command, so a
//! person or a script can type what the prompt shows), and describe its events for the log.
//! [`AnyGame`] and [`RulesetEntry`] are object-safe wrappers so the command-line tool is written
//! once for every game and finds rulesets through a registry keyed by id.

use crate::SubmitError;
use crate::diag::{Diagnostic, SourceFile};
use crate::{Decision, EngineError, Game, Observer, Outcome, Pending, Policy, Record, Reject, Ruleset, Seat, Shown};
use fray_dice::{Dice, Prng};
use std::marker::PhantomData;

/// An encounter read from files: the setup, the options, and a title for logs.
pub struct Loaded<R: Ruleset> {
    /// The validated encounter.
    pub setup: R::Setup,
    /// The options with the encounter's overrides applied.
    pub options: R::Options,
    /// A title for logs.
    pub title: String,
}

/// Reads a file that an encounter refers to (relative to the encounter); the error is a
/// sentence such as "cannot read abilities.toml: no such file".
pub type ReadFile<'a> = dyn FnMut(&str) -> Result<SourceFile, String> + 'a;

/// The text interface of a ruleset.
pub trait TextRuleset: Ruleset {
    /// Every code this ruleset's rejections carry, besides the engine's
    /// ([`Reject::ENGINE_CODES`]). `docs/commands.md` lists them, and the test kit refuses a
    /// rejection with a code that is not here.
    const REJECTION_CODES: &'static [&'static str] = &[];

    /// Loads and validates an encounter file.
    fn load(source: &SourceFile, read: &mut ReadFile<'_>) -> Result<Loaded<Self>, Vec<Diagnostic>>;

    /// Parses a command typed by a person (names resolved against the state). A failure means
    /// the text is not a command of this ruleset; use [`Reject::unreadable`] (code
    /// `unknown-command`) unless a more precise code helps. The text layer marks every parse
    /// failure as [`crate::RejectKind::Unreadable`], whatever its code.
    fn parse_command(state: &Self::State, text: &str) -> Result<Self::Command, Reject>;

    /// Prints a command in the form [`TextRuleset::parse_command`] reads back.
    fn format_command(state: &Self::State, command: &Self::Command) -> String;

    /// One log line for an event, read after the event was applied; `None` for bookkeeping
    /// events that a GM does not need to see.
    fn describe_event(state: &Self::State, event: &Self::Event) -> Option<String>;

    /// A one-line description of the pending decision ("Korrin Vale's turn: 2 of 4 movement left").
    fn describe_pending(state: &Self::State, pending: &Pending<Self::Stage>) -> String;

    /// The pending decision in a line as `seat` may know it (the `deciding` of
    /// [`TextRuleset::seat_view`]): without what is hidden from the seat, such as where a hidden
    /// actor stands or another seat's resources. The default is
    /// [`TextRuleset::describe_pending`], right for a ruleset whose prompts hide nothing.
    fn describe_pending_for(state: &Self::State, pending: &Pending<Self::Stage>, seat: Seat) -> String {
        let _ = seat;
        Self::describe_pending(state, pending)
    }

    /// The combatant the pending decision is about, as `seat` may know it (the `actor` of
    /// [`TextRuleset::seat_view`]): `None` where the seat may not know who is deciding (a
    /// concealed character's turn). The default is the pending decision's own actor.
    fn actor_for(state: &Self::State, pending: &Pending<Self::Stage>, seat: Seat) -> Option<u16> {
        let _ = (state, seat);
        pending.actor()
    }

    /// The encounter's title and seat names, read by the default [`TextRuleset::title`],
    /// [`TextRuleset::seat_name`] and [`TextRuleset::seat_by_name`]; `None` (the default) for a
    /// ruleset that gives those itself.
    fn names(state: &Self::State) -> Option<crate::kit::text::Names<'_>> {
        let _ = state;
        None
    }

    /// The name of a seat. The default reads it off [`TextRuleset::names`] (the seat's number
    /// when there is no such seat).
    fn seat_name(state: &Self::State, seat: Seat) -> String {
        crate::sides::seat_name(Self::names(state).map_or(&[], |n| n.seats), seat)
    }

    /// The seat with the given name. The default reads it off [`TextRuleset::names`].
    fn seat_by_name(state: &Self::State, name: &str) -> Option<Seat> {
        crate::sides::seat_by_name(Self::names(state)?.seats, name)
    }

    /// Every seat's name, the GM's first, by seat number. The default reads them off
    /// [`TextRuleset::seat_name`] from seat 0 up, as long as each name leads back to its seat.
    fn seat_names(state: &Self::State) -> Vec<String> {
        (0..=u8::MAX)
            .map(Seat)
            .map_while(|seat| {
                let name = Self::seat_name(state, seat);
                (Self::seat_by_name(state, &name) == Some(seat)).then_some(name)
            })
            .collect()
    }

    /// A readable summary of the state (used at the end of a log and by `play`).
    fn summary(state: &Self::State) -> String;

    /// The battlefield as text, as `seat` may see it (the `map` word of `fray play`): the grid
    /// with its terrain, a marker per combatant with a legend, and whose turn it is. `None` for
    /// a ruleset without a map.
    fn map(state: &Self::State, seat: Seat) -> Option<String> {
        let _ = (state, seat);
        None
    }

    /// The combat tracker, as `seat` may see it (the `show` word of `fray play`): the turn order
    /// with who has acted or delayed, and every combatant's gauges and statuses with their
    /// values and when they end.
    fn tracker(state: &Self::State, seat: Seat) -> String {
        let _ = seat;
        Self::summary(state)
    }

    /// The encounter's title. The default reads it off [`TextRuleset::names`].
    fn title(state: &Self::State) -> String {
        Self::names(state).map_or_else(String::new, |n| n.title.to_string())
    }

    /// The ruleset's part of what `seat` is shown in the shape every ruleset shares (the
    /// round, phase and turn order, every combatant's id, name, side, seat, place, gauges and
    /// statuses as the seat may see them); [`TextRuleset::seat_view`] adds the rest.
    fn table(state: &Self::State, seat: Seat) -> crate::view::Table;

    /// The fields of this ruleset's events (at any depth, in snake_case) that hold a
    /// combatant's index or a list of them: the shared JSON of an event
    /// ([`TextRuleset::event_json`]) names those combatants by id. `field` means that field
    /// in every event, `event/field` only in that (kebab-case) event, `!event/field` never in
    /// that event.
    const EVENT_COMBATANTS: &'static [&'static str];

    /// The fields of this ruleset's events that hold a side's index (the same forms as
    /// [`TextRuleset::EVENT_COMBATANTS`]): the shared JSON names those sides by id.
    const EVENT_SIDES: &'static [&'static str] = &["winner", "side"];

    /// The fields of this ruleset's events that hold a seat's number (the same forms as
    /// [`TextRuleset::EVENT_COMBATANTS`]): the shared JSON names those seats by name.
    const EVENT_SEATS: &'static [&'static str] = &["seat", "seats"];

    /// The id of the combatant with this index, if there is one (by default read off
    /// [`TextRuleset::table`]; a ruleset may answer it more cheaply).
    fn combatant_id(state: &Self::State, index: u16) -> Option<String> {
        Self::table(state, Seat::GM)
            .combatants
            .get(usize::from(index))
            .map(|c| c.id.clone())
    }

    /// An event in the JSON shape every ruleset shares ([`crate::view::event_json`]), read
    /// against the state right after it: what `--json` logs print and a client is sent.
    fn event_json(state: &Self::State, event: &Self::Event) -> serde_json::Value {
        let raw = serde_json::to_value(event).unwrap_or(serde_json::Value::Null);
        let id = |i: u64| u16::try_from(i).ok().and_then(|i| Self::combatant_id(state, i));
        let mut v = crate::view::event_json(raw, Self::EVENT_COMBATANTS, &id);
        let sides = std::cell::OnceCell::new();
        let side = |i: u64| {
            let sides = sides.get_or_init(|| Self::table(state, Seat::GM).sides);
            usize::try_from(i).ok().and_then(|i| sides.get(i).cloned())
        };
        crate::view::name_ids(&mut v, Self::EVENT_SIDES, &side);
        let seat = |i: u64| u8::try_from(i).ok().map(|i| Self::seat_name(state, Seat(i)));
        crate::view::name_ids(&mut v, Self::EVENT_SEATS, &seat);
        v
    }

    /// What `seat` is shown, in the shape every ruleset shares: [`TextRuleset::table`], who is
    /// deciding what, the outcome, and the ruleset's own [`Ruleset::view`] under `extra`.
    fn seat_view(state: &Self::State, seat: Seat) -> crate::view::SeatView {
        use crate::view::{Deciding, OutcomeView, SeatView};
        let t = Self::table(state, seat);
        let deciding = Self::pending(state).map(|p| Deciding {
            seats: p.seats.iter().map(|s| Self::seat_name(state, s)).collect(),
            kind: p.kind().to_string(),
            actor: Self::actor_for(state, &p, seat)
                .and_then(|a| t.combatants.get(usize::from(a)))
                .map(|c| c.id.clone()),
            text: Self::describe_pending_for(state, &p, seat),
        });
        let outcome = Self::outcome(state).map(|o| OutcomeView {
            winner: o.winner.and_then(|w| t.sides.get(usize::from(w)).cloned()),
            reason: o.reason,
        });
        SeatView {
            ruleset: Self::ID.to_string(),
            seat: Self::seat_name(state, seat),
            round: t.round,
            phase: t.phase,
            order: t.order,
            combatants: t
                .combatants
                .into_iter()
                .enumerate()
                .filter(|(i, _)| u16::try_from(*i).map_or(true, |i| !t.unseen.contains(&i)))
                .map(|(_, c)| c)
                .collect(),
            deciding,
            outcome,
            extra: serde_json::to_value(Self::view(state, seat)).unwrap_or(serde_json::Value::Null),
        }
    }

    /// The built-in AI used by `fray run`.
    fn heuristic() -> Box<dyn Policy<Self>>;

    /// `fray odds <ruleset> ARGS...`: exact odds of a roll or an attack, as text and as JSON.
    fn odds(args: &[String]) -> Result<(String, serde_json::Value), String> {
        let _ = args;
        Err(format!("ruleset {} has no odds calculator yet", Self::ID))
    }

    /// The GM rulings this ruleset understands, one per line, for the `help` of `fray play`.
    fn gm_help() -> &'static str {
        ""
    }

    /// A short note shown next to a legal command at the prompt (such as the odds of an attack).
    fn note(state: &Self::State, command: &Self::Command) -> Option<String> {
        let _ = (state, command);
        None
    }

    /// The words that begin an optional phrase of two words in this ruleset's commands
    /// (`using dex`, `prof none`): the prompt folds commands that differ in them into one line
    /// (`attack <orrin|marta> [using dex] [prof none]`). None by default.
    const OPTION_WORDS: &'static [&'static str] = &[];

    /// The optional words of this ruleset's commands that stand alone (`hold`, `sweep`): the
    /// prompt folds commands that differ in them like option words (`[hold]`). None by
    /// default.
    const FLAG_WORDS: &'static [&'static str] = &[];

    /// Whether the prompt's list leaves this legal command out: it stays legal (typed, Tab
    /// completed, and listed by `choices all`), but a person rarely means it, such as an attack
    /// on the actor's own ally. None by default.
    fn prompt_hides(state: &Self::State, command: &Self::Command) -> bool {
        let _ = (state, command);
        false
    }

    /// What [`TextRuleset::prompt_hides`] leaves out, said after the list's count of them
    /// (`and 3 more rarely meant, such as <this>`).
    const PROMPT_HIDES_WHAT: &'static str = "attacks on allies";

    /// The characters whose state lasts beyond this encounter, read from a game's state (at its
    /// end): each one's id and name and the keys of its `[[combatant]]` table that carry that
    /// state into the next encounter, with their values as TOML (a campaign roster keeps them
    /// and writes them into the next encounter's file). The default: nothing lasts.
    fn lasting(state: &Self::State) -> Vec<Lasting> {
        let _ = state;
        Vec::new()
    }

    /// The rests (downtime, healing) this ruleset defines: the only way lasting state is
    /// restored between encounters. Each names the keys of [`TextRuleset::lasting`] it restores
    /// (the character then starts from its encounter file's own values again).
    const RESTS: &'static [Rest] = &[];

    /// A declaration timer on the pending decision (a table-play rule such as Murdham's chaos
    /// of combat): the seconds the seat has, and the command the table submits for it when they
    /// run out. Not part of the rules' state: the interface keeps the clock, and the command it
    /// submits is recorded like any other. The default: no timer.
    fn timer(state: &Self::State) -> Option<(u32, Self::Command)> {
        let _ = state;
        None
    }

    /// The battlefield as `seat` may see it, for a client to draw ([`crate::view::Board`]): the
    /// grid's squares with their elevation and terrain and what is laid on them, or the zones
    /// and their links, with nothing that is hidden from the seat. `None` for a ruleset without
    /// a map (the default).
    fn board(state: &Self::State, seat: Seat) -> Option<crate::view::Board> {
        let _ = (state, seat);
        None
    }
}

/// What of one character lasts beyond an encounter ([`TextRuleset::lasting`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasting {
    /// The combatant id (the same in the next encounter's file).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Keys of its `[[combatant]]` table and their values as TOML (`wounds`, `1`), in the
    /// ruleset's order.
    pub values: Vec<(String, String)>,
}

/// A rest a ruleset defines ([`TextRuleset::RESTS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rest {
    /// The word that asks for it (`downtime`).
    pub word: &'static str,
    /// What it is, in a sentence, citing the rule.
    pub what: &'static str,
    /// The lasting keys it restores.
    pub restores: &'static [&'static str],
}

/// What the built-in AI did for a seat ([`AnyGame::ai_step`]).
#[derive(Clone, Debug, PartialEq)]
pub struct AiMove {
    /// The seat it answered for.
    pub seat: Seat,
    /// The command, as it may be typed.
    pub command: String,
    /// The command as the viewer is shown it (`None`: the viewer does not learn of it, such as
    /// another seat's secret declaration).
    pub shown: Option<String>,
    /// The log, as the viewer is shown it.
    pub log: Vec<LogLine>,
}

/// A log line: the readable text (absent for bookkeeping) and the event as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    /// What a GM reads.
    pub text: Option<String>,
    /// The event, as JSON.
    pub json: serde_json::Value,
}

/// A record entry as JSON text, field by field ([`AnyGame::last_entry_json`]).
#[derive(Clone, Debug, PartialEq)]
pub struct EntryJson {
    /// Who gave the command.
    pub seat: Seat,
    /// The command.
    pub command: String,
    /// The faces drawn (an array).
    pub dice: String,
    /// The events (an array).
    pub events: String,
}

/// One step of a game's log ([`AnyGame::log_steps`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StepLog {
    /// The command and who gave it, printed as it may be typed; `None` for the start.
    pub command: Option<(Seat, String)>,
    /// What the step's events show the seat.
    pub lines: Vec<LogLine>,
}

/// The pending decision, printed.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingText {
    /// The seat asked now: the lowest of the deciders (a single-screen table asks them in
    /// turn; each answer takes that seat out of the set).
    pub seat: Seat,
    /// Every seat that may answer now, `seat` included.
    pub deciders: Vec<Seat>,
    /// The seat's name.
    pub seat_name: String,
    /// The decision's stable kind code.
    pub kind: &'static str,
    /// A sentence describing the decision.
    pub prompt: String,
    /// Every legal answer, printed as it may be typed.
    pub choices: Vec<String>,
    /// A note per answer (such as the odds of an attack), in the same order (none for a
    /// hidden one).
    pub notes: Vec<Option<String>>,
    /// Per answer, whether the prompt's list leaves it out ([`TextRuleset::prompt_hides`]).
    pub hidden: Vec<bool>,
    /// The ruleset's option words ([`TextRuleset::OPTION_WORDS`]).
    pub option_words: &'static [&'static str],
    /// The ruleset's flag words ([`TextRuleset::FLAG_WORDS`]).
    pub flag_words: &'static [&'static str],
    /// What the prompt leaves out ([`TextRuleset::PROMPT_HIDES_WHAT`]).
    pub hides_what: &'static str,
}

/// A game of any ruleset, driven by text.
pub trait AnyGame {
    /// The ruleset id.
    fn ruleset_id(&self) -> &'static str;
    /// The pending decision, with its legal answers printed.
    fn pending(&self) -> Option<PendingText>;
    /// The characters whose state lasts beyond the encounter, as it stands now
    /// ([`TextRuleset::lasting`]).
    fn lasting(&self) -> Vec<Lasting>;
    /// The pending decision as one line, `[seat] what is asked`, without listing the answers
    /// (cheaper than [`AnyGame::pending`]); `None` once the game is over.
    fn pending_line(&self) -> Option<String>;
    /// Parses and submits a typed command for `seat`; returns the log of what happened.
    fn submit_text(&mut self, seat: Seat, text: &str) -> Result<Vec<LogLine>, SubmitError>;
    /// Lets the built-in AI answer the pending decision (for the seat asked first): the command
    /// it gave, as it may be typed and as the viewer is shown it, and the log.
    fn ai_step(&mut self, rng: &mut Prng) -> Result<AiMove, SubmitError>;
    /// The seat whose view the logs of [`AnyGame::submit_text`] and [`AnyGame::ai_step`] are
    /// written for (the GM's at first: a table with a person in the GM's seat sees everything).
    fn viewer(&self) -> Seat;
    /// Writes the logs of the commands from here on for `seat` (a table where the built-in AI
    /// plays the GM and players watch: they are shown only what their seat may see).
    fn set_viewer(&mut self, seat: Seat);
    /// Every seat's name, the GM's first ([`TextRuleset::seat_names`]).
    fn seat_names(&self) -> Vec<String>;
    /// Takes back the last command.
    fn undo(&mut self) -> Result<bool, EngineError>;
    /// The record as JSON.
    fn record_json(&self) -> String;
    /// The record entry of the last accepted command as JSON, without serialising the rest of
    /// the record (what a saved game stores after each command); `None` before any command.
    fn last_entry_json(&self) -> Option<EntryJson>;
    /// The log of everything so far as `seat` is shown it, step by step: the start, then each
    /// command printed as it may be typed (against the state before it) with its log lines.
    fn log_steps(&self, seat: Seat) -> Vec<StepLog>;
    /// What `seat` may see, in the shape every ruleset shares ([`TextRuleset::seat_view`]).
    fn seat_view(&self, seat: Seat) -> crate::view::SeatView;
    /// What `seat` may see, as JSON: the [`AnyGame::seat_view`] serialised.
    fn view_json(&self, seat: Seat) -> serde_json::Value {
        serde_json::to_value(self.seat_view(seat)).unwrap_or(serde_json::Value::Null)
    }
    /// The log of everything so far, rebuilt from the record, as the GM sees it.
    fn full_log(&self) -> Vec<LogLine>;
    /// The log of everything so far as `seat` is shown it ([`Ruleset::redact`]).
    fn log_for(&self, seat: Seat) -> Vec<LogLine>;
    /// How the game ended, if it has.
    fn outcome(&self) -> Option<Outcome>;
    /// A readable summary of the current state.
    fn summary(&self) -> String;
    /// The seat with this name.
    fn seat_by_name(&self, name: &str) -> Option<Seat>;
    /// The name of a seat.
    fn seat_name(&self, seat: Seat) -> String;
    /// Replaces the dice source.
    fn set_dice(&mut self, dice: Box<dyn Dice>);
    /// The encounter's title.
    fn title(&self) -> String;
    /// The seed of the dice, if seeded.
    fn seed(&self) -> Option<u64>;
    /// The GM rulings the ruleset understands (see [`TextRuleset::gm_help`]).
    fn gm_help(&self) -> &'static str;
    /// The battlefield as text for `seat` (see [`TextRuleset::map`]).
    fn map(&self, seat: Seat) -> Option<String>;
    /// The combat tracker for `seat` (see [`TextRuleset::tracker`]).
    fn tracker(&self, seat: Seat) -> String;
    /// The declaration timer on the pending decision, if any: seconds, and the command (as
    /// text) the table submits when they run out (see [`TextRuleset::timer`]).
    fn timer(&self) -> Option<(u32, String)>;
    /// The pending decision as `seat` is asked it: its legal answers when it is one of the
    /// deciders (none otherwise) and the decision described as the seat may know it
    /// ([`TextRuleset::describe_pending_for`]); `None` once the game is over. A screen per
    /// seat shows this, where [`AnyGame::pending`] asks the deciders in turn.
    fn pending_for(&self, seat: Seat) -> Option<PendingText>;
    /// Parses and submits a typed command for `seat`, and returns the log of what happened as
    /// each of `viewers` is shown it (one list per viewer, in order), built in one pass.
    fn submit_for(&mut self, seat: Seat, text: &str, viewers: &[Seat]) -> Result<Vec<Vec<LogLine>>, SubmitError>;
    /// Lets the built-in AI answer the pending decision for `seat` (one of the deciders): the
    /// command as it may be typed, and the log as each of `viewers` is shown it.
    fn ai_step_for(
        &mut self,
        seat: Seat,
        rng: &mut Prng,
        viewers: &[Seat],
    ) -> Result<(String, Vec<Vec<LogLine>>), SubmitError>;
    /// The battlefield as `seat` may see it (see [`TextRuleset::board`]).
    fn board(&self, seat: Seat) -> Option<crate::view::Board>;
}

/// Builds the log lines one seat is shown, event by event: each event passes
/// [`Ruleset::redact`] against the state before it and is described against the state right
/// after it.
struct Logger<R: Ruleset> {
    seat: Seat,
    shown: Option<Shown<R::Event>>,
    out: Vec<LogLine>,
}

impl<R: TextRuleset> Observer<R> for Logger<R> {
    fn before(&mut self, state: &R::State, event: &R::Event) {
        self.shown = Some(R::redact(state, self.seat, event));
    }

    fn after(&mut self, state: &R::State, event: &R::Event) {
        let line = |e: &R::Event| LogLine {
            text: R::describe_event(state, e),
            json: R::event_json(state, e),
        };
        match self.shown.take() {
            Some(Shown::All) | None => self.out.push(line(event)),
            Some(Shown::Nothing) => {}
            Some(Shown::As(other)) => self.out.push(line(&other)),
        }
    }
}

/// Several seats' [`Logger`]s at once.
struct Loggers<R: Ruleset>(Vec<Logger<R>>);

impl<R: TextRuleset> Observer<R> for Loggers<R> {
    fn before(&mut self, state: &R::State, event: &R::Event) {
        for l in &mut self.0 {
            l.before(state, event);
        }
    }

    fn after(&mut self, state: &R::State, event: &R::Event) {
        for l in &mut self.0 {
            l.after(state, event);
        }
    }
}

/// [`AnyGame`] for a concrete ruleset.
pub struct TextGame<R: TextRuleset> {
    game: Game<R>,
    ai: Box<dyn Policy<R>>,
    /// Whose view the logs of commands are written for.
    viewer: Seat,
}

impl<R: TextRuleset> TextGame<R> {
    /// Wraps a game.
    pub fn new(game: Game<R>) -> Self {
        TextGame {
            game,
            ai: R::heuristic(),
            viewer: Seat::GM,
        }
    }

    /// The wrapped game.
    pub fn game(&self) -> &Game<R> {
        &self.game
    }

    /// Applies `events` to `state` one by one and appends the log lines `seat` is shown: each
    /// event passes [`Ruleset::redact`] against the state before it and is described against
    /// the state right after it.
    pub fn log_events(state: &mut R::State, seat: Seat, events: &[R::Event], out: &mut Vec<LogLine>) {
        let mut log = Logger::<R> {
            seat,
            shown: None,
            out: std::mem::take(out),
        };
        for e in events {
            log.before(state, e);
            R::apply(state, e);
            log.after(state, e);
        }
        *out = log.out;
    }

    /// Builds the log `seat` is shown of a record by applying its events one by one to a
    /// fresh state (see [`TextGame::log_events`]).
    pub fn log_of_record(record: &Record<R>, seat: Seat) -> Result<Vec<LogLine>, EngineError> {
        let mut state = R::new_state(&record.setup, &record.options)?;
        let mut out = Vec::new();
        Self::log_events(&mut state, seat, &record.start.events, &mut out);
        for entry in &record.entries {
            Self::log_events(&mut state, seat, &entry.events, &mut out);
        }
        Ok(out)
    }

    fn submit_logged(&mut self, seat: Seat, command: R::Command) -> Result<Vec<LogLine>, SubmitError> {
        // The table's log is the viewer's (the GM's unless the table says otherwise): each
        // event is redacted and described as it is emitted.
        let viewer = self.viewer;
        let mut logs = self.submit_logged_for(seat, command, &[viewer])?;
        Ok(logs.pop().unwrap_or_default())
    }

    /// Submits `command` for `seat`, with the log as each of `viewers` is shown it.
    fn submit_logged_for(
        &mut self,
        seat: Seat,
        command: R::Command,
        viewers: &[Seat],
    ) -> Result<Vec<Vec<LogLine>>, SubmitError> {
        let mut logs = Loggers::<R>(
            viewers
                .iter()
                .map(|&seat| Logger {
                    seat,
                    shown: None,
                    out: Vec::new(),
                })
                .collect(),
        );
        match self.game.submit_observed(seat, command, &mut logs) {
            Ok(_) => Ok(logs.0.into_iter().map(|l| l.out).collect()),
            // The engine knows seats by number; the table says who by name.
            Err(SubmitError::Rejected(r)) if r.code == Reject::NOT_YOUR_DECISION => {
                let state = self.game.state();
                let why = match self.game.pending() {
                    Some(p) => {
                        let names: Vec<String> = p.seats.iter().map(|s| R::seat_name(state, s)).collect();
                        format!(
                            "{} may not answer this: the game is waiting for {} to decide ({})",
                            R::seat_name(state, seat),
                            names.join(" or "),
                            R::describe_pending_for(state, &p, seat)
                        )
                    }
                    None => r.reason.clone(),
                };
                Err(SubmitError::Rejected(Reject::new(Reject::NOT_YOUR_DECISION, why)))
            }
            Err(e) => Err(e),
        }
    }

    /// The pending decision `p` as `seat` is asked it, described by `prompt`: its legal answers
    /// (none when it is not one of the deciders), their notes and which the prompt folds away.
    fn pending_text(&self, p: &Pending<R::Stage>, seat: Seat, prompt: String) -> PendingText {
        let state = self.game.state();
        let legal = if p.seats.contains(seat) {
            self.game.legal_commands(seat)
        } else {
            Vec::new()
        };
        let choices = legal.iter().map(|c| R::format_command(state, c)).collect();
        let hidden: Vec<bool> = legal.iter().map(|c| R::prompt_hides(state, c)).collect();
        let notes = legal
            .iter()
            .zip(&hidden)
            .map(|(c, &h)| if h { None } else { R::note(state, c) })
            .collect();
        PendingText {
            seat,
            deciders: p.seats.iter().collect(),
            seat_name: R::seat_name(state, seat),
            kind: p.kind(),
            prompt,
            choices,
            notes,
            hidden,
            option_words: R::OPTION_WORDS,
            flag_words: R::FLAG_WORDS,
            hides_what: R::PROMPT_HIDES_WHAT,
        }
    }
}

impl<R: TextRuleset> AnyGame for TextGame<R> {
    fn ruleset_id(&self) -> &'static str {
        R::ID
    }

    fn pending(&self) -> Option<PendingText> {
        let p = self.game.pending()?;
        let seat = p.first();
        let prompt = R::describe_pending(self.game.state(), &p);
        Some(self.pending_text(&p, seat, prompt))
    }

    fn pending_for(&self, seat: Seat) -> Option<PendingText> {
        let p = self.game.pending()?;
        let prompt = R::describe_pending_for(self.game.state(), &p, seat);
        Some(self.pending_text(&p, seat, prompt))
    }

    fn submit_for(&mut self, seat: Seat, text: &str, viewers: &[Seat]) -> Result<Vec<Vec<LogLine>>, SubmitError> {
        let command = R::parse_command(self.game.state(), text).map_err(Reject::as_unreadable)?;
        self.submit_logged_for(seat, command, viewers)
    }

    fn ai_step_for(
        &mut self,
        seat: Seat,
        rng: &mut Prng,
        viewers: &[Seat],
    ) -> Result<(String, Vec<Vec<LogLine>>), SubmitError> {
        let decision = Decision::new(self.game.state(), seat).ok_or_else(|| {
            SubmitError::Rejected(Reject::new(
                Reject::NOT_YOUR_DECISION,
                "the AI's seat is not deciding now",
            ))
        })?;
        let command = self
            .ai
            .choose(&decision, rng)
            .ok_or_else(|| EngineError::Bug("the AI found no legal command".into()))?
            .command;
        let text = R::format_command(self.game.state(), &command);
        let logs = self.submit_logged_for(seat, command, viewers)?;
        Ok((text, logs))
    }

    fn lasting(&self) -> Vec<Lasting> {
        R::lasting(self.game.state())
    }

    fn pending_line(&self) -> Option<String> {
        let p = self.game.pending()?;
        let state = self.game.state();
        Some(format!(
            "[{}] {}",
            R::seat_name(state, p.first()),
            R::describe_pending(state, &p)
        ))
    }

    fn submit_text(&mut self, seat: Seat, text: &str) -> Result<Vec<LogLine>, SubmitError> {
        // Whatever the ruleset's code, text it cannot read is unreadable input, the same for
        // every ruleset.
        let command = R::parse_command(self.game.state(), text).map_err(Reject::as_unreadable)?;
        self.submit_logged(seat, command)
    }

    fn ai_step(&mut self, rng: &mut Prng) -> Result<AiMove, SubmitError> {
        let Some(p) = self.game.pending() else {
            return Err(SubmitError::Rejected(Reject::new(
                Reject::GAME_OVER,
                "the combat is over",
            )));
        };
        let seat = p.first();
        let decision = Decision::new(self.game.state(), seat)
            .ok_or_else(|| EngineError::Bug("the pending decision does not name its own first seat".into()))?;
        let command = self
            .ai
            .choose(&decision, rng)
            .ok_or_else(|| EngineError::Bug("the AI found no legal command".into()))?
            .command;
        let state = self.game.state();
        let text = R::format_command(state, &command);
        let shown = match R::redact_command(state, self.viewer, &command) {
            Shown::All => Some(text.clone()),
            Shown::Nothing => None,
            Shown::As(c) => Some(R::format_command(state, &c)),
        };
        let log = self.submit_logged(seat, command)?;
        Ok(AiMove {
            seat,
            command: text,
            shown,
            log,
        })
    }

    fn viewer(&self) -> Seat {
        self.viewer
    }

    fn set_viewer(&mut self, seat: Seat) {
        self.viewer = seat;
    }

    fn seat_names(&self) -> Vec<String> {
        R::seat_names(self.game.state())
    }

    fn undo(&mut self) -> Result<bool, EngineError> {
        self.game.undo()
    }

    fn record_json(&self) -> String {
        self.game.record().to_json()
    }

    fn last_entry_json(&self) -> Option<EntryJson> {
        let e = self.game.record().entries.last()?;
        // Plain data with string keys always serialises; an empty value rather than a panic.
        let json = |v: Result<String, serde_json::Error>| v.unwrap_or_default();
        Some(EntryJson {
            seat: e.seat,
            command: json(serde_json::to_string(&e.command)),
            dice: json(serde_json::to_string(&e.dice)),
            events: json(serde_json::to_string(&e.events)),
        })
    }

    fn log_steps(&self, seat: Seat) -> Vec<StepLog> {
        let record = self.game.record();
        // A record that replayed once always rebuilds; should it not, the log is empty rather
        // than wrong.
        let Ok(mut state) = R::new_state(&record.setup, &record.options) else {
            return Vec::new();
        };
        let mut lines = Vec::new();
        Self::log_events(&mut state, seat, &record.start.events, &mut lines);
        let mut out = vec![StepLog { command: None, lines }];
        for entry in &record.entries {
            let text = R::format_command(&state, &entry.command);
            let mut lines = Vec::new();
            Self::log_events(&mut state, seat, &entry.events, &mut lines);
            out.push(StepLog {
                command: Some((entry.seat, text)),
                lines,
            });
        }
        out
    }

    fn seat_view(&self, seat: Seat) -> crate::view::SeatView {
        R::seat_view(self.game.state(), seat)
    }

    fn full_log(&self) -> Vec<LogLine> {
        self.log_for(Seat::GM)
    }

    fn log_for(&self, seat: Seat) -> Vec<LogLine> {
        // A record that replayed once always rebuilds; should it not, the log is empty
        // rather than wrong.
        Self::log_of_record(self.game.record(), seat).unwrap_or_default()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn summary(&self) -> String {
        R::summary(self.game.state())
    }

    fn seat_by_name(&self, name: &str) -> Option<Seat> {
        R::seat_by_name(self.game.state(), name)
    }

    fn seat_name(&self, seat: Seat) -> String {
        R::seat_name(self.game.state(), seat)
    }

    fn set_dice(&mut self, dice: Box<dyn Dice>) {
        self.game.set_dice(dice);
    }

    fn title(&self) -> String {
        R::title(self.game.state())
    }

    fn seed(&self) -> Option<u64> {
        self.game.record().seed
    }

    fn gm_help(&self) -> &'static str {
        R::gm_help()
    }

    fn timer(&self) -> Option<(u32, String)> {
        let s = self.game.state();
        R::timer(s).map(|(secs, c)| (secs, R::format_command(s, &c)))
    }

    fn map(&self, seat: Seat) -> Option<String> {
        R::map(self.game.state(), seat)
    }

    fn tracker(&self, seat: Seat) -> String {
        R::tracker(self.game.state(), seat)
    }

    fn board(&self, seat: Seat) -> Option<crate::view::Board> {
        R::board(self.game.state(), seat)
    }
}

/// Where a new game's dice come from.
pub enum NewDice {
    /// A seeded PRNG (the record stores the seed).
    Seeded(u64),
    /// Any other source (typed in or scripted; the record stores every face).
    Source(Box<dyn Dice>),
}

/// Why a game could not be created.
#[derive(Debug, thiserror::Error)]
pub enum NewGameError {
    /// The encounter file has problems.
    #[error("the encounter has {} problem(s)", .0.len())]
    Diagnostics(Vec<Diagnostic>),
    /// The engine failed (an invalid setup, a bug).
    #[error("{0}")]
    Engine(#[from] EngineError),
    /// The dice source ran out or gave up during the start (initiative). `record_json` is the
    /// unfinished record (setup, options, the faces drawn so far), worth saving so nothing
    /// typed is lost; replay refuses it.
    #[error("{error}")]
    Start {
        /// Why the start failed.
        error: EngineError,
        /// The unfinished record as JSON.
        record_json: String,
    },
}

/// A ruleset as the registry sees it.
pub trait RulesetEntry: Sync {
    /// The ruleset id.
    fn id(&self) -> &'static str;
    /// Validates an encounter; returns its title on success.
    fn check(&self, source: &SourceFile, read: &mut ReadFile<'_>) -> Result<String, Vec<Diagnostic>>;
    /// Loads an encounter and starts a game.
    fn new_game(
        &self,
        source: &SourceFile,
        read: &mut ReadFile<'_>,
        dice: NewDice,
    ) -> Result<Box<dyn AnyGame>, NewGameError>;
    /// Replays and verifies a record given as JSON.
    fn replay(&self, record_json: &str) -> Result<Box<dyn AnyGame>, EngineError>;
    /// Exact odds (`fray odds <ruleset> ARGS...`): text and JSON.
    fn odds(&self, args: &[String]) -> Result<(String, serde_json::Value), String>;
    /// The rests the ruleset defines ([`TextRuleset::RESTS`]).
    fn rests(&self) -> &'static [Rest];
    /// The ruleset's own rejection codes ([`TextRuleset::REJECTION_CODES`]).
    fn rejection_codes(&self) -> &'static [&'static str];
}

/// The registry entry of a [`TextRuleset`].
pub struct Entry<R>(PhantomData<fn() -> R>);

impl<R> Entry<R> {
    /// The entry (a zero-sized value, usable in a `static`).
    pub const fn new() -> Self {
        Entry(PhantomData)
    }
}

impl<R> Default for Entry<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// Builds the initial state of a loaded encounter once, so a problem the loader let through
/// (one that spans the whole setup) is still reported as a diagnostic with a place: the top of
/// the encounter file, since it belongs to no single key.
fn settle<R: TextRuleset>(source: &SourceFile, loaded: &Loaded<R>) -> Result<(), Vec<Diagnostic>> {
    R::new_state(&loaded.setup, &loaded.options)
        .map(|_| ())
        .map_err(|e| vec![Diagnostic::at(source, 0, e.to_string())])
}

impl<R: TextRuleset> RulesetEntry for Entry<R> {
    fn id(&self) -> &'static str {
        R::ID
    }

    fn rejection_codes(&self) -> &'static [&'static str] {
        R::REJECTION_CODES
    }

    fn check(&self, source: &SourceFile, read: &mut ReadFile<'_>) -> Result<String, Vec<Diagnostic>> {
        let loaded = R::load(source, read)?;
        settle::<R>(source, &loaded)?;
        Ok(loaded.title)
    }

    fn new_game(
        &self,
        source: &SourceFile,
        read: &mut ReadFile<'_>,
        dice: NewDice,
    ) -> Result<Box<dyn AnyGame>, NewGameError> {
        let loaded = R::load(source, read).map_err(NewGameError::Diagnostics)?;
        settle::<R>(source, &loaded).map_err(NewGameError::Diagnostics)?;
        let game = match dice {
            NewDice::Seeded(seed) => Game::<R>::new_seeded(loaded.setup, loaded.options, seed)?,
            NewDice::Source(d) => match Game::<R>::new_with_dice_or_record(loaded.setup, loaded.options, d) {
                Ok(g) => g,
                Err(f) => {
                    let f = *f;
                    return Err(match f.error {
                        EngineError::Dice(_) => NewGameError::Start {
                            record_json: f.record.to_json(),
                            error: f.error,
                        },
                        error => NewGameError::Engine(error),
                    });
                }
            },
        };
        Ok(Box::new(TextGame::new(game)))
    }

    fn replay(&self, record_json: &str) -> Result<Box<dyn AnyGame>, EngineError> {
        let record: Record<R> = Record::from_json(record_json)
            .map_err(|e| EngineError::Invalid(format!("line {}, column {}: {e}", e.line(), e.column())))?;
        let game = Game::replay(&record)?;
        Ok(Box::new(TextGame::new(game)))
    }

    fn odds(&self, args: &[String]) -> Result<(String, serde_json::Value), String> {
        R::odds(args)
    }

    fn rests(&self) -> &'static [Rest] {
        R::RESTS
    }
}

/// A square grid as text, for a ruleset's [`TextRuleset::map`]: north at the top, `y` down the
/// left and `x` along the bottom, so a square reads as `x,y` as in commands. `mark` gives each
/// square's symbol (a combatant's marker, a terrain sign); every column is one space wider than
/// the widest symbol or `x` number. The ruleset adds its own header and legend.
pub fn grid_text(grid: &fray_space::Grid, mut mark: impl FnMut(fray_space::Pos) -> String) -> String {
    use std::fmt::Write;
    let (w, h) = (grid.width() as i16, grid.height() as i16);
    let rows: Vec<Vec<String>> = (0..h)
        .rev()
        .map(|y| (0..w).map(|x| mark(fray_space::Pos::new(x, y))).collect())
        .collect();
    let widest = rows.iter().flatten().map(|m| m.chars().count()).max().unwrap_or(1);
    let cw = widest.max((w - 1).to_string().len()) + 1;
    let yw = (h - 1).to_string().len();
    let mut out = String::new();
    for (row, y) in rows.iter().zip((0..h).rev()) {
        let _ = write!(out, "{y:>yw$}");
        for m in row {
            let _ = write!(out, "{m:>cw$}");
        }
        out.push('\n');
    }
    let _ = write!(out, "{:yw$}", "");
    for x in 0..w {
        let _ = write!(out, "{x:>cw$}");
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::grid_text;
    use fray_space::{Grid, Pos};

    #[test]
    fn a_grid_prints_north_up_with_both_axes_and_columns_as_wide_as_the_widest_mark() {
        let g = Grid::parse_rows(&[". . x", ". . ."]).expect("map");
        let text = grid_text(&g, |p| match p {
            p if p == Pos::new(0, 0) => "Ab".into(),
            p if g.get(p).is_some_and(|c| c.blocked) => "#".into(),
            _ => ".".into(),
        });
        assert_eq!(text, "1  .  .  #\n0 Ab  .  .\n   0  1  2\n");
        let wide = Grid::new(11, 1).expect("grid");
        assert_eq!(
            grid_text(&wide, |_| ".".into()).lines().last(),
            Some("   0  1  2  3  4  5  6  7  8  9 10")
        );
    }
}
