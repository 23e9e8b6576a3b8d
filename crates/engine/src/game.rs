//! The game driver: authority, resolution with rollback, recording, undo and replay.
//!
//! [`Game`] is what table play and `fray run` use. It checks authority before the ruleset sees a
//! command (game over? this seat's decision? a ruling from the GM?), snapshots the state so a
//! failed dice source leaves nothing half-applied, and writes every accepted command into the
//! [`Record`] together with the faces it drew and the events it produced. Each step goes
//! through [`crate::play`], as the simulator's (which keeps no record) do.

use crate::play::{self, Sink, SubmitError};
use crate::record::{Entry, RECORD_FORMAT, Record, StartEntry};
use crate::resolve::Observer;
use crate::{EngineError, Pending, Ruleset, Seat};
use fray_dice::{Dice, RecordingDice, ScriptedDice, SeededDice};

/// A game whose automatic start (such as initiative) failed, with the record of everything
/// known when it failed: setup, options, seed, and the faces drawn and events emitted so far,
/// with [`StartEntry::unfinished`] set. [`Game::replay`] refuses such a record; it exists so
/// nothing typed is lost.
pub struct StartFailed<R: Ruleset> {
    /// Why the start failed.
    pub error: EngineError,
    /// The unfinished record.
    pub record: Record<R>,
}

impl<R: Ruleset> std::fmt::Debug for StartFailed<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StartFailed")
            .field("error", &self.error)
            .field("record", &self.record)
            .finish()
    }
}

/// A game in progress together with its record.
pub struct Game<R: Ruleset> {
    state: R::State,
    record: Record<R>,
    dice: Box<dyn Dice>,
}

impl<R: Ruleset> Game<R> {
    /// Starts a game whose dice come from a seeded PRNG; the record stores the seed.
    pub fn new_seeded(setup: R::Setup, options: R::Options, seed: u64) -> Result<Game<R>, EngineError> {
        Self::start_with(setup, options, Some(seed), Box::new(SeededDice::new(seed))).map_err(|f| f.error)
    }

    /// Starts a game whose dice come from `dice` (typed in, or scripted); the record stores every
    /// face so the game replays without the source.
    pub fn new_with_dice(setup: R::Setup, options: R::Options, dice: Box<dyn Dice>) -> Result<Game<R>, EngineError> {
        Self::start_with(setup, options, None, dice).map_err(|f| f.error)
    }

    /// Like [`Game::new_with_dice`], but when the start fails (the dice source runs out or gives
    /// up during initiative) the error carries the unfinished record, so the faces drawn so far
    /// can be saved.
    pub fn new_with_dice_or_record(
        setup: R::Setup,
        options: R::Options,
        dice: Box<dyn Dice>,
    ) -> Result<Game<R>, Box<StartFailed<R>>> {
        Self::start_with(setup, options, None, dice)
    }

    fn start_with(
        setup: R::Setup,
        options: R::Options,
        seed: Option<u64>,
        mut dice: Box<dyn Dice>,
    ) -> Result<Game<R>, Box<StartFailed<R>>> {
        let mut state = match R::new_state(&setup, &options) {
            Ok(s) => s,
            Err(e) => return Err(Self::unfinished(e, setup, options, seed, Vec::new(), Vec::new())),
        };
        let mut events = Vec::new();
        let mut rec = RecordingDice::new(&mut *dice);
        let started = play::start::<R>(&mut state, &mut rec, &mut Sink::Keep(&mut events));
        let drawn = rec.take_drawn();
        if let Err(error) = started {
            return Err(Self::unfinished(error, setup, options, seed, drawn, events));
        }
        let record = Self::new_record(setup, options, seed, drawn, events, false);
        Ok(Game { state, record, dice })
    }

    fn unfinished(
        error: EngineError,
        setup: R::Setup,
        options: R::Options,
        seed: Option<u64>,
        dice: Vec<u16>,
        events: Vec<R::Event>,
    ) -> Box<StartFailed<R>> {
        Box::new(StartFailed {
            error,
            record: Self::new_record(setup, options, seed, dice, events, true),
        })
    }

    /// A record of a game's start (finished or not) and no commands yet.
    fn new_record(
        setup: R::Setup,
        options: R::Options,
        seed: Option<u64>,
        dice: Vec<u16>,
        events: Vec<R::Event>,
        unfinished: bool,
    ) -> Record<R> {
        Record {
            format: RECORD_FORMAT,
            ruleset: R::ID.to_string(),
            version: R::VERSION.to_string(),
            options,
            setup,
            seed,
            start: StartEntry {
                dice,
                events,
                unfinished,
            },
            entries: Vec::new(),
        }
    }

    /// The current state.
    pub fn state(&self) -> &R::State {
        &self.state
    }

    /// The record so far.
    pub fn record(&self) -> &Record<R> {
        &self.record
    }

    /// Who must decide now (`None` once the game is over).
    pub fn pending(&self) -> Option<Pending<R::Stage>> {
        R::pending(&self.state)
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<crate::Outcome> {
        R::outcome(&self.state)
    }

    /// The legal answers of `seat` to the pending decision, in the ruleset's order (none when
    /// the seat is not among the deciders).
    pub fn legal_commands(&self, seat: Seat) -> Vec<R::Command> {
        let mut out = Vec::new();
        if let Some(p) = R::pending(&self.state).filter(|p| p.seats.contains(seat)) {
            R::legal(&self.state, &p.stage, seat, &mut out);
        }
        out.into_iter().map(|a| a.command).collect()
    }

    /// Events of the last accepted command (or of the start, before any command).
    pub fn last_events(&self) -> &[R::Event] {
        match self.record.entries.last() {
            Some(e) => &e.events,
            None => &self.record.start.events,
        }
    }

    /// Replaces the dice source (for example to continue a replayed game at a prompt).
    pub fn set_dice(&mut self, dice: Box<dyn Dice>) {
        self.dice = dice;
    }

    /// Checks authority and the rules, then resolves the command and records it. On any error
    /// the state and the record are exactly as before.
    pub fn submit(&mut self, seat: Seat, command: R::Command) -> Result<&[R::Event], SubmitError> {
        self.submit_with(seat, command, None)
    }

    /// [`Game::submit`], showing each event to `observer` as it is emitted (against the state
    /// before and after it). When the command fails after some events, the observer has seen
    /// them but the state and the record are restored: discard what it gathered.
    pub fn submit_observed(
        &mut self,
        seat: Seat,
        command: R::Command,
        observer: &mut dyn Observer<R>,
    ) -> Result<&[R::Event], SubmitError> {
        self.submit_with(seat, command, Some(observer))
    }

    fn submit_with(
        &mut self,
        seat: Seat,
        command: R::Command,
        observer: Option<&mut dyn Observer<R>>,
    ) -> Result<&[R::Event], SubmitError> {
        let accepted = play::check::<R>(&self.state, seat, &command)?;
        let before = self.state.clone();
        let mut events = Vec::new();
        let mut rec = RecordingDice::new(&mut *self.dice);
        let result = {
            let mut sink = match observer {
                Some(o) => Sink::Observe(&mut events, o),
                None => Sink::Keep(&mut events),
            };
            play::resolve::<R>(
                &mut self.state,
                &mut rec,
                &accepted.stage,
                seat,
                &command,
                accepted.plan,
                &mut sink,
            )
        };
        let drawn = rec.take_drawn();
        if let Err(e) = result {
            self.state = before;
            return Err(SubmitError::Engine(e));
        }
        self.record.entries.push(Entry {
            seat,
            command,
            dice: drawn,
            events,
        });
        Ok(self.last_events())
    }

    /// Takes back the last accepted command by rebuilding the game from the record without it.
    /// Returns `false` when there is nothing to undo.
    pub fn undo(&mut self) -> Result<bool, EngineError> {
        if self.record.entries.is_empty() {
            return Ok(false);
        }
        let mut shorter = self.record.clone();
        shorter.entries.pop();
        let (state, seeded) = replay_state::<R>(&shorter, None)?;
        self.state = state;
        self.record = shorter;
        if let Some(d) = seeded {
            self.dice = Box::new(d);
        }
        Ok(true)
    }

    /// Replays a record, verifying every face and every event. The returned game continues
    /// with the seeded dice where the record has a seed; otherwise set a source with
    /// [`Game::set_dice`] before submitting more commands.
    ///
    /// A record of an earlier version this one still replays ([`Ruleset::REPLAYS_VERSIONS`])
    /// comes out as this version's record: the same commands and faces, with the events this
    /// version produced, so what is played next and written again is all of one version.
    pub fn replay(record: &Record<R>) -> Result<Game<R>, EngineError> {
        let mut record = record.clone();
        let (state, seeded) = if record.version == R::VERSION {
            replay_state::<R>(&record, None)?
        } else {
            // The readings the earlier version played by stay in force for this game.
            R::earlier_options(&record.version, &mut record.options);
            let mut events = Vec::with_capacity(record.entries.len() + 1);
            let replayed = replay_state::<R>(&record, Some(&mut events))?;
            let mut events = events.into_iter();
            record.version = R::VERSION.to_string();
            record.start.events = events.next().unwrap_or_default();
            for (entry, e) in record.entries.iter_mut().zip(events) {
                entry.events = e;
            }
            replayed
        };
        let dice: Box<dyn Dice> = match seeded {
            Some(d) => Box::new(d),
            None => Box::new(ScriptedDice::new(Vec::new())),
        };
        Ok(Game { state, record, dice })
    }
}

/// Applies a step's recorded events to `shadow` (the state as the record's own events leave it,
/// kept for a record of an earlier version) and fails unless it equals the replayed `state`.
fn same_state<R: Ruleset>(
    label: &str,
    shadow: Option<&mut R::State>,
    recorded: &[R::Event],
    replayed: &[R::Event],
    state: &R::State,
    version: &str,
) -> Result<(), EngineError> {
    let Some(shadow) = shadow else { return Ok(()) };
    // A recorded event that [`Ruleset::same_as_earlier`] matched with a different replayed one
    // stands for it: the shadow takes the replayed event there (the pairing is the one
    // `same_events` checked: the events that are not bookkeeping, in order).
    let mut now = replayed.iter().filter(|e| !R::is_bookkeeping(e));
    for e in recorded {
        match R::is_bookkeeping(e) {
            true => R::apply(shadow, e),
            false => R::apply(shadow, now.next().unwrap_or(e)),
        }
    }
    if shadow != state {
        return Err(EngineError::Diverged {
            at: label.to_string(),
            what: format!("the recorded events (of version {version}) leave a different state than the replay"),
        });
    }
    Ok(())
}

/// Fails on the first event that differs between a replay and its record (a missing one
/// included), numbering events from 1 and adding `note` to the number.
fn same_events<'e, E: std::fmt::Debug + 'e>(
    label: &str,
    mut replayed: impl Iterator<Item = &'e E>,
    mut recorded: impl Iterator<Item = &'e E>,
    same: impl Fn(&E, &E) -> bool,
    note: &str,
) -> Result<(), EngineError> {
    let mut n = 1;
    loop {
        match (replayed.next(), recorded.next()) {
            (None, None) => return Ok(()),
            (Some(a), Some(b)) if same(b, a) => n += 1,
            (a, b) => {
                return Err(EngineError::Diverged {
                    at: label.to_string(),
                    what: format!("event {n}{note} differs: recorded {b:?}, replayed {a:?}"),
                });
            }
        }
    }
}

/// One resolution step during replay: draws from the dice and appends events.
type StepFn<'a, R> = dyn FnMut(&mut dyn Dice, &mut Vec<<R as Ruleset>::Event>) -> Result<(), EngineError> + 'a;

/// Re-runs a record from its setup and returns the final state (and, for seeded records, the
/// dice positioned after the last command). With `regenerated`, the events each step produced
/// (the start's first) are pushed onto it.
fn replay_state<R: Ruleset>(
    record: &Record<R>,
    mut regenerated: Option<&mut Vec<Vec<R::Event>>>,
) -> Result<(R::State, Option<SeededDice>), EngineError> {
    if record.format != RECORD_FORMAT {
        return Err(EngineError::Invalid(format!(
            "the record has layout format {}, this fray reads format {RECORD_FORMAT}{}",
            record.format,
            if record.format > RECORD_FORMAT {
                " (it was written by a newer fray)"
            } else {
                ""
            }
        )));
    }
    if record.ruleset != R::ID {
        return Err(EngineError::Invalid(format!(
            "the record is for ruleset '{}', not '{}'",
            record.ruleset,
            R::ID
        )));
    }
    // A record of an earlier version this one replays is compared without bookkeeping events.
    let older = record.version != R::VERSION;
    if older && !R::REPLAYS_VERSIONS.contains(&record.version.as_str()) {
        return Err(EngineError::Invalid(format!(
            "the record was written by {} rules version {}, this is version {}{}",
            R::ID,
            record.version,
            R::VERSION,
            if R::REPLAYS_VERSIONS.is_empty() {
                String::new()
            } else {
                format!(", which replays records of {} too", R::REPLAYS_VERSIONS.join(", "))
            }
        )));
    }
    if record.start.unfinished {
        let n = record.start.dice.len();
        return Err(EngineError::Invalid(format!(
            "the record stops during the start: {n} face{} typed, more needed",
            if n == 1 { "" } else { "s" }
        )));
    }
    let mut state = R::new_state(&record.setup, &record.options)?;
    let mut seeded = record.seed.map(SeededDice::new);
    let mut events = Vec::new();

    let mut run = |label: &str,
                   expect_dice: &[u16],
                   expect_events: &[R::Event],
                   seeded: &mut Option<SeededDice>,
                   step: &mut StepFn<'_, R>|
     -> Result<Vec<R::Event>, EngineError> {
        events.clear();
        let drawn = match seeded {
            Some(d) => {
                let mut rec = RecordingDice::new(d);
                step(&mut rec, &mut events)?;
                rec.take_drawn()
            }
            None => {
                let mut script = ScriptedDice::new(expect_dice.iter().copied());
                let mut rec = RecordingDice::new(&mut script);
                step(&mut rec, &mut events).map_err(|e| EngineError::Diverged {
                    at: label.to_string(),
                    what: e.to_string(),
                })?;
                let drawn = rec.take_drawn();
                if script.remaining() > 0 {
                    return Err(EngineError::Diverged {
                        at: label.to_string(),
                        what: format!("{} recorded dice were not used", script.remaining()),
                    });
                }
                drawn
            }
        };
        if drawn != expect_dice {
            return Err(EngineError::Diverged {
                at: label.to_string(),
                what: format!("dice differ: recorded {expect_dice:?}, replayed {drawn:?}"),
            });
        }
        if older {
            // Bookkeeping may differ from the earlier version's; everything else may not.
            let kept = |e: &&R::Event| !R::is_bookkeeping(e);
            let note = format!(
                " (bookkeeping left out, the record being of version {})",
                record.version
            );
            same_events(
                label,
                events.iter().filter(kept),
                expect_events.iter().filter(kept),
                R::same_as_earlier,
                &note,
            )?;
        } else {
            same_events(label, events.iter(), expect_events.iter(), |a, b| a == b, "")?;
        }
        if let Some(out) = regenerated.as_mut() {
            out.push(events.clone());
        }
        // The replayed events, for the shadow state of an earlier version's record.
        Ok(if older { events.clone() } else { Vec::new() })
    };

    // The recorded events of an earlier version are also applied, on a copy of the state, which
    // must come out as the replay's after every step: what bookkeeping events are compared out
    // of the event lists still has to leave the same state.
    let mut shadow = older.then(|| state.clone());
    let replayed = run(
        "start",
        &record.start.dice,
        &record.start.events,
        &mut seeded,
        &mut |d, out| play::start::<R>(&mut state, d, &mut Sink::Keep(out)),
    )?;
    same_state::<R>(
        "start",
        shadow.as_mut(),
        &record.start.events,
        &replayed,
        &state,
        &record.version,
    )?;
    for (i, entry) in record.entries.iter().enumerate() {
        let label = format!("command {}", i + 1);
        let plan = play::check::<R>(&state, entry.seat, &entry.command).map_err(|r| EngineError::Diverged {
            at: label.clone(),
            what: format!("the command was rejected on replay: {r}"),
        })?;
        let mut plan = Some(plan);
        let replayed = run(&label, &entry.dice, &entry.events, &mut seeded, &mut |d, out| {
            let plan = plan
                .take()
                .ok_or_else(|| EngineError::Bug("a replayed step ran twice".into()))?;
            play::resolve::<R>(
                &mut state,
                d,
                &plan.stage,
                entry.seat,
                &entry.command,
                plan.plan,
                &mut Sink::Keep(out),
            )
        })?;
        same_state::<R>(
            &label,
            shadow.as_mut(),
            &entry.events,
            &replayed,
            &state,
            &record.version,
        )?;
    }
    Ok((state, seeded))
}
