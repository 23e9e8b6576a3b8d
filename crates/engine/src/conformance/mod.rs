//! The conformance suite every ruleset runs over its example encounters.
//!
//! For each seed it plays a whole combat with a policy and checks, at every decision:
//! - the pending decision has at least one legal command, and every legal command passes the
//!   authority and rules checks with the plan it is listed with (and, at sampled decisions,
//!   resolves without error on a copy); the policy's answer has the plan the check gives;
//! - commands gathered from other points of the game that are not legal now are rejected, and
//!   a rejected command leaves the state exactly as it was (so `check` and the enumeration agree);
//! - a legal command submitted by the wrong seat is rejected without changing anything;
//!
//! and at the end of every playout:
//! - the game ended within the bound;
//! - the state survives a JSON round trip unchanged;
//! - the record survives a JSON round trip and replays to the same final state.
//!
//! [`Conformance`] is what a ruleset tells the shared suite over the registry (`suite`).
//!
//! [`run_variants`] runs the same suite once per option variant a ruleset names, and
//! [`check_option_variants`] checks that those variants change every option at least once;
//! [`check_rejection_codes`] checks a ruleset's list of rejection codes.
//!
//! Panics are not caught: a panic fails the calling test with its message and seed in the
//! output, which is what we want from a test.

mod suite;
pub use suite::{Conformance, ConformanceOf, Example, Plan, Share, Suite};

use crate::play::{self, Sink};
use crate::{Answer, EngineError, Game, Policy, Record, Ruleset, Seat, SubmitError};
use fray_dice::{Prng, SeededDice};
use std::ops::Range;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Seeds to play (one combat each).
    pub seeds: Range<u64>,
    /// A playout that needs more commands than this has failed to end.
    pub max_commands: usize,
    /// Resolve every legal command on a copy at every `resolve_every`-th decision (1 = all).
    pub resolve_every: usize,
    /// How many earlier commands to keep as candidates for the illegal-command checks.
    pub candidate_pool: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seeds: 0..1000,
            max_commands: 20_000,
            resolve_every: 1,
            candidate_pool: 48,
        }
    }
}

/// What a successful run covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Combats played.
    pub playouts: usize,
    /// Commands submitted in all.
    pub commands: usize,
    /// Legal commands checked.
    pub legal_checked: usize,
    /// Legal commands resolved on a copy.
    pub legal_resolved: usize,
    /// Illegal commands checked.
    pub illegal_checked: usize,
}

impl std::ops::AddAssign<&Report> for Report {
    fn add_assign(&mut self, other: &Report) {
        self.playouts += other.playouts;
        self.commands += other.commands;
        self.legal_checked += other.legal_checked;
        self.legal_resolved += other.legal_resolved;
        self.illegal_checked += other.illegal_checked;
    }
}

/// The first failure found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The seed of the failing combat.
    pub seed: u64,
    /// How many commands had been accepted.
    pub step: usize,
    /// What went wrong.
    pub what: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seed {} after {} commands: {}", self.seed, self.step, self.what)
    }
}

/// Runs the suite for one encounter. `policy(seed)` makes the policy that plays every seat.
pub fn run<R: Ruleset>(
    setup: &R::Setup,
    options: &R::Options,
    config: &Config,
    mut policy: impl FnMut(u64) -> Box<dyn Policy<R>>,
) -> Result<Report, Failure> {
    let mut report = Report::default();
    for seed in config.seeds.clone() {
        playout::<R>(setup, options, config, seed, &mut *policy(seed), &mut report)?;
        report.playouts += 1;
    }
    Ok(report)
}

fn playout<R: Ruleset>(
    setup: &R::Setup,
    options: &R::Options,
    config: &Config,
    seed: u64,
    policy: &mut dyn Policy<R>,
    report: &mut Report,
) -> Result<(), Failure> {
    let fail = |step: usize, what: String| Failure { seed, step, what };
    let mut game = Game::<R>::new_seeded(setup.clone(), options.clone(), seed).map_err(|e| fail(0, e.to_string()))?;
    let mut rng = Prng::for_stream(seed, 0xC0F0);
    let mut pool: Vec<R::Command> = Vec::new();
    let mut answers: Vec<Answer<R>> = Vec::new();
    let mut legal: Vec<R::Command> = Vec::new();
    let mut step = 0usize;
    while let Some(pending) = game.pending() {
        // Several deciders answer in turn, the lowest first; each answer is checked alone.
        let seat = pending.first();
        if step >= config.max_commands {
            return Err(fail(
                step,
                format!("the combat did not end within {} commands", config.max_commands),
            ));
        }
        answers.clear();
        R::legal(game.state(), &pending.stage, seat, &mut answers);
        legal.clear();
        legal.extend(answers.iter().map(|a| a.command.clone()));
        if legal.is_empty() {
            return Err(fail(
                step,
                format!("no legal command for the pending decision {pending:?}"),
            ));
        }
        let resolve_now = config.resolve_every > 0 && step.is_multiple_of(config.resolve_every);
        for (i, a) in answers.iter().enumerate() {
            let c = &a.command;
            match play::check::<R>(game.state(), seat, c) {
                Err(r) => return Err(fail(step, format!("legal command #{i} {c:?} was rejected: {r}"))),
                Ok(accepted) if accepted.plan != a.plan => {
                    return Err(fail(
                        step,
                        format!(
                            "legal command #{i} {c:?} is listed with the plan {:?}, but its check gives {:?}",
                            a.plan, accepted.plan
                        ),
                    ));
                }
                Ok(_) => {}
            }
            if legal[..i].contains(c) {
                return Err(fail(step, format!("legal command {c:?} is listed twice")));
            }
            report.legal_checked += 1;
            if resolve_now {
                let mut copy = game.state().clone();
                let mut out = Vec::new();
                let mut dice = SeededDice::new(seed ^ (step as u64) ^ ((i as u64) << 32));
                if let Err(e) = play::resolve::<R>(
                    &mut copy,
                    &mut dice,
                    &pending.stage,
                    seat,
                    c,
                    a.plan.clone(),
                    &mut Sink::Keep(&mut out),
                ) {
                    return Err(fail(step, format!("legal command {c:?} failed to resolve: {e}")));
                }
                report.legal_resolved += 1;
            }
        }
        // Commands seen elsewhere that are not legal now must be rejected without a trace, and
        // the right command from a seat that is not among the deciders is refused. The state is
        // copied and compared once for them all; only when it changed are they tried again one
        // at a time, from the record so far, to name the one that changed it.
        let before = game.state().clone();
        let mut rejected: Vec<(Seat, &R::Command)> = Vec::new();
        for c in &pool {
            if legal.contains(c) {
                continue;
            }
            match game.submit(seat, c.clone()) {
                Err(SubmitError::Rejected(_)) => {}
                Err(SubmitError::Engine(e)) => {
                    return Err(fail(step, format!("illegal command {c:?} caused an engine error: {e}")));
                }
                Ok(_) => return Err(fail(step, format!("command {c:?} is accepted but not listed as legal"))),
            }
            rejected.push((seat, c));
            report.illegal_checked += 1;
        }
        let wrong = (1..=255u8).map(Seat).find(|s| !pending.seats.contains(*s));
        if let Some(wrong) = wrong
            && !R::is_ruling(&legal[0])
        {
            if game.submit(wrong, legal[0].clone()).is_ok() {
                return Err(fail(
                    step,
                    format!("{wrong} was allowed to answer a decision of {}", pending.seats),
                ));
            }
            rejected.push((wrong, &legal[0]));
        }
        if game.state() != &before {
            return Err(fail(step, changed_by(game.record(), &before, &rejected)));
        }
        let decision = crate::Decision::new(game.state(), seat)
            .ok_or_else(|| fail(step, format!("{seat} is listed as a decider but has no decision")))?;
        let answer = policy
            .choose(&decision, &mut rng)
            .ok_or_else(|| fail(step, "the policy returned no command".into()))?;
        let choice = answer.command;
        match R::check(game.state(), &pending.stage, seat, &choice) {
            Ok(plan) if plan != answer.plan => {
                return Err(fail(
                    step,
                    format!(
                        "the policy's answer {choice:?} has the plan {:?}, but its check gives {plan:?}",
                        answer.plan
                    ),
                ));
            }
            _ => {}
        }
        if let Err(e) = game.submit(seat, choice.clone()) {
            return Err(fail(step, format!("the policy's command {choice:?} was refused: {e}")));
        }
        if !pool.contains(&choice) {
            if pool.len() >= config.candidate_pool {
                pool.remove(0);
            }
            pool.push(choice);
        }
        // Also keep a legal command that was not chosen, for variety.
        if let Some(extra) = legal.get(rng.below(legal.len() as u32) as usize)
            && !pool.contains(extra)
        {
            if pool.len() >= config.candidate_pool {
                pool.remove(0);
            }
            pool.push(extra.clone());
        }
        step += 1;
        report.commands += 1;
    }
    if R::outcome(game.state()).is_none() {
        return Err(fail(step, "nothing is pending but the game has no outcome".into()));
    }
    // The state survives a JSON round trip.
    let json = serde_json::to_string(game.state()).map_err(|e| fail(step, format!("state does not serialise: {e}")))?;
    let back: R::State =
        serde_json::from_str(&json).map_err(|e| fail(step, format!("state does not deserialise: {e}")))?;
    if &back != game.state() {
        return Err(fail(step, "the state changed in a JSON round trip".into()));
    }
    // The record survives a JSON round trip and replays to the same state.
    let text = game.record().to_json();
    let record: Record<R> =
        Record::from_json(&text).map_err(|e| fail(step, format!("record does not deserialise: {e}")))?;
    if &record != game.record() {
        return Err(fail(step, "the record changed in a JSON round trip".into()));
    }
    let replayed = Game::<R>::replay(&record).map_err(|e| fail(step, format!("replay failed: {e}")))?;
    if replayed.state() != game.state() {
        return Err(fail(step, "the replayed state differs from the played one".into()));
    }
    Ok(())
}

/// Which of the `rejected` commands (each with the seat that sent it) changed the state: they are
/// sent again one at a time to the game `record` replays to, whose state was `before`.
fn changed_by<R: Ruleset>(record: &Record<R>, before: &R::State, rejected: &[(Seat, &R::Command)]) -> String {
    let Ok(mut game) = Game::<R>::replay(record) else {
        return "a rejected command changed the state (and the record does not replay)".into();
    };
    for (seat, c) in rejected {
        let _ = game.submit(*seat, (*c).clone());
        if game.state() != before {
            return format!("rejected command {c:?} from {seat} changed the state");
        }
    }
    "a rejected command changed the state, yet none does when they are sent again".into()
}

/// Where in a record the untrusted-record check edits values.
const EDITED_PARTS: [&str; 4] = ["setup", "options", "entries", "seed"];

/// Values tried in place of every number of a record's setup, options and commands.
const EDITED_NUMBERS: [i64; 12] = [0, 1, 2, 3, 7, 40, 255, 256, 65_535, -1, 4_294_967_295, i64::MAX];

/// A record is untrusted input: this edits one number at a time in its setup, options, seed
/// and commands (every index, count, stat and position there), to each of a dozen edge values,
/// and checks that loading and replaying the edited record, and then asking the replayed game
/// for its decision, legal commands, views, summary, map and tracker, never panics. Errors are
/// fine: that is what a bad record should give. Returns how many edited records were tried, or
/// the first edit that panicked (its JSON path and value).
///
/// At most `max_edits` records are tried: leaves are visited with an even stride so the whole
/// record is covered.
pub fn edited_records_never_panic<R: crate::text::TextRuleset>(
    record_json: &str,
    max_edits: usize,
) -> Result<usize, String> {
    let root: serde_json::Value = serde_json::from_str(record_json).map_err(|e| format!("not JSON: {e}"))?;
    let mut leaves: Vec<Vec<PathStep>> = Vec::new();
    if let serde_json::Value::Object(map) = &root {
        for part in EDITED_PARTS {
            if let Some(v) = map.get(part) {
                let mut path = vec![PathStep::Key(part.to_string())];
                collect_numbers(v, &mut path, &mut leaves, part == "entries");
            }
        }
    }
    let total = leaves.len() * EDITED_NUMBERS.len();
    let stride = total.div_ceil(max_edits.max(1)).max(1);
    let mut tried = 0;
    for k in (0..total).step_by(stride) {
        let path = &leaves[k / EDITED_NUMBERS.len()];
        let value = EDITED_NUMBERS[k % EDITED_NUMBERS.len()];
        let mut edited = root.clone();
        if let Some(slot) = walk(&mut edited, path) {
            *slot = serde_json::Value::from(value);
        }
        let text = edited.to_string();
        tried += 1;
        let result = std::panic::catch_unwind(|| exercise::<R>(&text));
        if result.is_err() {
            return Err(format!("setting {} to {value} panicked", show_path(path)));
        }
    }
    Ok(tried)
}

#[derive(Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn show_path(path: &[PathStep]) -> String {
    let mut s = String::new();
    for p in path {
        match p {
            PathStep::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            PathStep::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// Collects the paths of every number under `v`; inside `entries` only the seat and the
/// command of each entry (events and faces are compared on replay, not trusted).
fn collect_numbers(v: &serde_json::Value, path: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>, entries: bool) {
    match v {
        serde_json::Value::Number(_) => out.push(path.clone()),
        serde_json::Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                path.push(PathStep::Index(i));
                collect_numbers(x, path, out, entries);
                path.pop();
            }
        }
        serde_json::Value::Object(map) => {
            for (k, x) in map {
                if entries && path.len() == 2 && k != "seat" && k != "command" {
                    continue;
                }
                path.push(PathStep::Key(k.clone()));
                collect_numbers(x, path, out, entries);
                path.pop();
            }
        }
        _ => {}
    }
}

fn walk<'a>(v: &'a mut serde_json::Value, path: &[PathStep]) -> Option<&'a mut serde_json::Value> {
    let mut cur = v;
    for p in path {
        cur = match p {
            PathStep::Key(k) => cur.get_mut(k.as_str())?,
            PathStep::Index(i) => cur.get_mut(*i)?,
        };
    }
    Some(cur)
}

/// Loads, replays and inspects one record; errors are expected and ignored.
fn exercise<R: crate::text::TextRuleset>(text: &str) {
    let Ok(record) = Record::<R>::from_json(text) else {
        return;
    };
    let Ok(game) = Game::<R>::replay(&record) else {
        return;
    };
    let state = game.state();
    let _ = R::outcome(state);
    if let Some(p) = R::pending(state) {
        let _ = R::describe_pending(state, &p);
        for seat in p.seats.iter() {
            let _ = R::seat_name(state, seat);
            let mut legal = Vec::new();
            R::legal(state, &p.stage, seat, &mut legal);
            for c in legal.iter().take(64).map(|a| &a.command) {
                let _ = R::format_command(state, c);
                let _ = R::note(state, c);
            }
            let _ = serde_json::to_value(R::seat_view(state, seat));
            let _ = R::map(state, seat);
            let _ = R::tracker(state, seat);
            let _ = serde_json::to_value(R::board(state, seat));
            let _ = crate::text::TextGame::<R>::log_of_record(game.record(), seat);
        }
    }
    let _ = serde_json::to_value(R::seat_view(state, Seat::GM));
    let _ = R::map(state, Seat::GM);
    let _ = R::tracker(state, Seat::GM);
    let _ = serde_json::to_value(R::board(state, Seat::GM));
    let _ = R::summary(state);
    let _ = crate::text::TextGame::<R>::log_of_record(game.record(), Seat::GM);
}

/// What [`hidden_information`] covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HiddenReport {
    /// Combats played.
    pub playouts: usize,
    /// (position, seat) pairs at which something was hidden from the seat.
    pub hidden_positions: usize,
    /// Positions the seat cannot tell apart from the real one that were compared.
    pub variants_compared: usize,
    /// Commands a seat is shown alike that were resolved and compared.
    pub commands_compared: usize,
    /// Positions the deciding seat cannot tell apart, with the same answers offered, in which
    /// its AI was asked again and answered alike.
    pub ai_compared: usize,
}

impl std::ops::AddAssign<&HiddenReport> for HiddenReport {
    fn add_assign(&mut self, other: &HiddenReport) {
        self.playouts += other.playouts;
        self.hidden_positions += other.hidden_positions;
        self.variants_compared += other.variants_compared;
        self.commands_compared += other.commands_compared;
        self.ai_compared += other.ai_compared;
    }
}

/// How many alternative commands per decision and seat the command comparison resolves.
const ALTERNATIVES: usize = 24;

/// The hidden-information check, for rulesets with [`Ruleset::HIDDEN_INFORMATION`]. It plays
/// `seeds` combats with `policy` and, before every command, for every seat in `seats`:
///
/// - asks the ruleset for positions the seat cannot tell apart from the real one
///   ([`Ruleset::indistinguishable`]) and checks that the seat's view (the shared
///   [`crate::text::TextRuleset::seat_view`], its own view within), map, tracker and board
///   ([`crate::text::TextRuleset::board`]) are the same in each, and that the log lines it is shown of the command's events, applied to
///   each, are the same (so no description looks up something hidden);
/// - takes the other legal answers the seat is shown exactly like the command chosen
///   ([`Ruleset::redact_command`]; a secret declaration), resolves each and the real one on
///   copies with the same dice, and checks that the seat's log lines, view and board
///   afterwards are the same (so no event, log line or view reveals the secret) — unless the step also
///   revealed it (nothing is hidden from the seat any more afterwards).
///
/// - checks that what the seat's AI reads ([`Ruleset::seen`]) is the same in each of those
///   positions, so no AI can act on what is hidden from its seat;
/// - asks a fresh policy of the deciding seat for its answer in the real position and in each
///   position the seat cannot tell apart that offers it the same answers, with the same dice,
///   and checks that the answers are the same (so the AI acts on nothing hidden from it).
///
/// So nothing a seat may not see reaches it through what the text layer prints or sends, or
/// through its AI's choices.
pub fn hidden_information<R: crate::text::TextRuleset>(
    setup: &R::Setup,
    options: &R::Options,
    seeds: Range<u64>,
    seats: &[Seat],
    max_commands: usize,
    mut policy: impl FnMut(u64) -> Box<dyn Policy<R>>,
) -> Result<HiddenReport, Failure> {
    use crate::text::{LogLine, TextGame};
    let shown = |l: &[LogLine]| l.iter().map(|x| (x.text.clone(), x.json.clone())).collect::<Vec<_>>();
    // The shared view, which holds the ruleset's own view under `extra`.
    let view_of = |s: &R::State, seat: Seat| serde_json::to_value(R::seat_view(s, seat)).unwrap_or_default();
    // The battlefield drawn for the seat.
    let board_of = |s: &R::State, seat: Seat| serde_json::to_value(R::board(s, seat)).unwrap_or_default();
    let mut report = HiddenReport::default();
    for seed in seeds {
        let fail = |step: usize, what: String| Failure { seed, step, what };
        let mut game =
            Game::<R>::new_seeded(setup.clone(), options.clone(), seed).map_err(|e| fail(0, e.to_string()))?;
        let mut rng = Prng::for_stream(seed, 0x41DE);
        let mut ai = policy(seed);
        let mut variants: Vec<(Seat, R::State)> = Vec::new();
        let mut legal: Vec<Answer<R>> = Vec::new();
        let mut step = 0;
        while let Some(pending) = game.pending() {
            if step >= max_commands {
                return Err(fail(
                    step,
                    format!("the combat did not end within {max_commands} commands"),
                ));
            }
            let state = game.state().clone();
            variants.clear();
            for &seat in seats {
                if !R::hides_from(&state, seat) {
                    continue;
                }
                report.hidden_positions += 1;
                let mut out = Vec::new();
                R::indistinguishable(&state, seat, &mut out);
                let real_view = view_of(&state, seat);
                let real_map = R::map(&state, seat);
                let real_tracker = R::tracker(&state, seat);
                let real_board = board_of(&state, seat);
                let real_seen = R::seen(&state, seat);
                for v in out {
                    if v == state {
                        return Err(fail(
                            step,
                            format!("an indistinguishable position for {seat} is the real one"),
                        ));
                    }
                    let view = view_of(&v, seat);
                    if view != real_view {
                        return Err(fail(
                            step,
                            format!(
                                "{seat}'s view depends on something hidden from it, at {}",
                                first_difference(&real_view, &view)
                            ),
                        ));
                    }
                    // What the seat's AI reads must not tell the positions apart either.
                    let seen = R::seen(&v, seat);
                    if *seen != *real_seen {
                        let a = serde_json::to_value(&*real_seen).unwrap_or_default();
                        let b = serde_json::to_value(&*seen).unwrap_or_default();
                        return Err(fail(
                            step,
                            format!(
                                "what {seat}'s AI reads depends on something hidden from it (the ruleset's `seen` lets it through), at {}",
                                first_difference(&a, &b)
                            ),
                        ));
                    }
                    if R::map(&v, seat) != real_map {
                        return Err(fail(step, format!("{seat}'s map depends on something hidden from it")));
                    }
                    if R::tracker(&v, seat) != real_tracker {
                        return Err(fail(
                            step,
                            format!("{seat}'s tracker depends on something hidden from it"),
                        ));
                    }
                    let board = board_of(&v, seat);
                    if board != real_board {
                        return Err(fail(
                            step,
                            format!(
                                "{seat}'s board depends on something hidden from it, at {}",
                                first_difference(&real_board, &board)
                            ),
                        ));
                    }
                    report.variants_compared += 1;
                    variants.push((seat, v));
                }
            }
            let decider = pending.first();
            let decision = crate::Decision::new(&state, decider)
                .ok_or_else(|| fail(step, format!("{decider} has no decision")))?;
            let answer = ai
                .choose(&decision, &mut rng)
                .ok_or_else(|| fail(step, "the policy returned no command".into()))?;
            let choice = answer.command.clone();
            // Commands a seat is shown alike leave it the same log and view.
            legal.clear();
            R::legal(&state, &pending.stage, decider, &mut legal);
            // The deciding seat's AI answers alike in positions the seat cannot tell apart
            // (where it is offered the same answers): a fresh policy, the same dice.
            let mut fresh_choice: Option<R::Command> = None;
            for (_, v) in variants.iter().filter(|(seat, _)| *seat == decider) {
                let mut offered = Vec::new();
                if let Some(p) = R::pending(v) {
                    R::legal(v, &p.stage, decider, &mut offered);
                }
                if !offered.iter().map(|a| &a.command).eq(legal.iter().map(|a| &a.command)) {
                    continue;
                }
                let mut fresh = |s: &R::State| -> Result<R::Command, Failure> {
                    let mut p = policy(seed);
                    p.new_combat();
                    let d = crate::Decision::new(s, decider).ok_or_else(|| {
                        fail(
                            step,
                            format!("{decider} has no decision in a position it cannot tell apart"),
                        )
                    })?;
                    p.choose(&d, &mut Prng::for_stream(seed, step as u64))
                        .map(|a| a.command)
                        .ok_or_else(|| fail(step, "the policy returned no command".into()))
                };
                let real_fresh = match &fresh_choice {
                    Some(c) => c.clone(),
                    None => {
                        let c = fresh(&state)?;
                        fresh_choice = Some(c.clone());
                        c
                    }
                };
                let other = fresh(v)?;
                if other != real_fresh {
                    return Err(fail(
                        step,
                        format!(
                            "{decider}'s AI depends on something hidden from the seat: it answers {real_fresh:?} here and {other:?} in a position the seat cannot tell apart, with the same answers offered"
                        ),
                    ));
                }
                report.ai_compared += 1;
            }
            let resolve = |a: &Answer<R>| -> Result<(R::State, Vec<R::Event>), EngineError> {
                let mut s = state.clone();
                let mut out = Vec::new();
                play::resolve::<R>(
                    &mut s,
                    &mut SeededDice::new(seed ^ step as u64),
                    &pending.stage,
                    decider,
                    &a.command,
                    a.plan.clone(),
                    &mut Sink::Keep(&mut out),
                )?;
                Ok((s, out))
            };
            // The chosen command resolved once, for every seat that compares against it.
            let mut real: Option<(R::State, Vec<R::Event>)> = None;
            for &seat in seats {
                if seat == decider {
                    continue;
                }
                let real_shown = R::redact_command(&state, seat, &choice);
                if real_shown == crate::Shown::All {
                    continue; // the seat sees which command it was
                }
                let alike: Vec<&Answer<R>> = legal
                    .iter()
                    .filter(|a| a.command != choice && R::redact_command(&state, seat, &a.command) == real_shown)
                    .take(ALTERNATIVES)
                    .collect();
                if alike.is_empty() {
                    continue;
                }
                if real.is_none() {
                    real =
                        Some(resolve(&answer).map_err(|e| fail(step, format!("{choice:?} failed to resolve: {e}")))?);
                }
                let Some((real_after, real_events)) = &real else {
                    continue;
                };
                let hidden_before = R::hidden_count(&state, seat);
                if !R::hides_from(real_after, seat) || R::hidden_count(real_after, seat) < hidden_before {
                    continue; // revealed within this step (both bids are in): nothing left to keep
                }
                let mut real_log = Vec::new();
                TextGame::<R>::log_events(&mut state.clone(), seat, real_events, &mut real_log);
                let real_view = view_of(real_after, seat);
                let real_board = board_of(real_after, seat);
                for a in alike {
                    let c = &a.command;
                    let (after, events) =
                        resolve(a).map_err(|e| fail(step, format!("{c:?} failed to resolve: {e}")))?;
                    if !R::hides_from(&after, seat) || R::hidden_count(&after, seat) < hidden_before {
                        continue;
                    }
                    let mut log = Vec::new();
                    TextGame::<R>::log_events(&mut state.clone(), seat, &events, &mut log);
                    if shown(&log) != shown(&real_log) {
                        return Err(fail(
                            step,
                            format!(
                                "{seat}'s log of {choice:?} differs from that of {c:?}, which it is shown alike: {real_log:?} / {log:?}"
                            ),
                        ));
                    }
                    let view = view_of(&after, seat);
                    if view != real_view {
                        return Err(fail(
                            step,
                            format!(
                                "{seat}'s view after {choice:?} differs from that after {c:?}, which it is shown alike, at {}",
                                first_difference(&real_view, &view)
                            ),
                        ));
                    }
                    let board = board_of(&after, seat);
                    if board != real_board {
                        return Err(fail(
                            step,
                            format!(
                                "{seat}'s board after {choice:?} differs from that after {c:?}, which it is shown alike, at {}",
                                first_difference(&real_board, &board)
                            ),
                        ));
                    }
                    report.commands_compared += 1;
                }
            }
            let events = match game.submit(decider, choice.clone()) {
                Ok(e) => e.to_vec(),
                Err(e) => return Err(fail(step, format!("the policy's command {choice:?} was refused: {e}"))),
            };
            for (seat, v) in variants.iter_mut() {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                TextGame::<R>::log_events(&mut state.clone(), *seat, &events, &mut a);
                TextGame::<R>::log_events(v, *seat, &events, &mut b);
                if shown(&a) != shown(&b) {
                    return Err(fail(
                        step,
                        format!("{seat}'s log of {choice:?} depends on something hidden from it: {a:?} / {b:?}"),
                    ));
                }
            }
            step += 1;
        }
        report.playouts += 1;
    }
    Ok(report)
}

/// Where two JSON values first differ: a path and the two values there.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                match y.get(k) {
                    Some(vb) if va == vb => {}
                    Some(vb) => return format!(".{k}{}", first_difference(va, vb)),
                    None => return format!(".{k} (only in the first)"),
                }
            }
            match y.keys().find(|k| !x.contains_key(*k)) {
                Some(k) => format!(".{k} (only in the second)"),
                None => String::new(),
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => match x.iter().zip(y).position(|(p, q)| p != q) {
            Some(i) => format!("[{i}]{}", first_difference(&x[i], &y[i])),
            None => String::new(),
        },
        _ => format!(": {a} / {b}"),
    }
}

// --- Rejection codes ------------------------------------------------------------------------

/// Checks a ruleset's list of its own rejection codes (its `codes::ALL`): every code is
/// kebab-case (lowercase ASCII words joined by single hyphens), none is listed twice, and none
/// is one of [`Reject::ENGINE_CODES`](crate::Reject::ENGINE_CODES) (a ruleset refuses with the
/// engine's constant for those and does not list them again). Returns the first problem.
pub fn check_rejection_codes(codes: &[&str]) -> Result<(), String> {
    for (i, c) in codes.iter().enumerate() {
        let kebab = c
            .split('-')
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
        if !kebab {
            return Err(format!("rejection code '{c}' is not kebab-case"));
        }
        if codes[..i].contains(c) {
            return Err(format!("rejection code '{c}' is listed twice"));
        }
        if crate::Reject::ENGINE_CODES.contains(c) {
            return Err(format!(
                "rejection code '{c}' is the engine's; use the engine's constant"
            ));
        }
    }
    Ok(())
}

// --- Option variants ------------------------------------------------------------------------
//
// Each ruleset names a few option variants (every option at a non-default value in at least
// one of them) and runs the suite over its examples with each, so a reading of the rules that
// no example uses is still played through.

/// The options as a JSON object of top-level option names (as written in `[options]`).
fn option_object<O: serde::Serialize>(options: &O) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    match serde_json::to_value(options) {
        Ok(serde_json::Value::Object(m)) => Ok(m),
        Ok(other) => Err(format!("options serialise to {other}, not to a table of named options")),
        Err(e) => Err(format!("options do not serialise: {e}")),
    }
}

/// Checks a ruleset's option variants: names are distinct and not empty, every variant
/// changes at least one option from the default, and every top-level option is changed by at
/// least one variant. An error names the first offending variant, or every option that no
/// variant changes, so adding an option without a variant fails the ruleset's test.
pub fn check_option_variants<O: serde::Serialize + Default>(variants: &[(&str, O)]) -> Result<(), String> {
    let default = option_object(&O::default())?;
    let mut changed = std::collections::BTreeSet::new();
    for (i, (name, options)) in variants.iter().enumerate() {
        if name.is_empty() || variants[..i].iter().any(|(n, _)| n == name) {
            return Err(format!("option variant name '{name}' is empty or used twice"));
        }
        let object = option_object(options)?;
        let mut any = false;
        for (key, value) in &object {
            if default.get(key) != Some(value) {
                any = true;
                changed.insert(key.clone());
            }
        }
        if !any {
            return Err(format!("option variant '{name}' changes no option"));
        }
    }
    let unchanged: Vec<&str> = default
        .keys()
        .filter(|k| !changed.contains(*k))
        .map(String::as_str)
        .collect();
    if unchanged.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "no option variant changes {} (give each a non-default value in some variant)",
            unchanged.join(", ")
        ))
    }
}

/// An encounter's options with a variant laid over them: every top-level option the variant
/// changes from the default takes the variant's value, every other keeps the encounter's.
pub fn with_variant<O: serde::Serialize + serde::de::DeserializeOwned + Default>(
    base: &O,
    variant: &O,
) -> Result<O, String> {
    let default = option_object(&O::default())?;
    let mut merged = option_object(base)?;
    for (key, value) in option_object(variant)? {
        if default.get(&key) != Some(&value) {
            merged.insert(key, value);
        }
    }
    serde_json::from_value(serde_json::Value::Object(merged))
        .map_err(|e| format!("merged options do not deserialise: {e}"))
}

/// Runs the suite ([`run`]) over one encounter once per option variant, each laid over the
/// encounter's own options ([`with_variant`]). A failure names its variant in
/// [`Failure::what`]; the reports are summed.
pub fn run_variants<R: Ruleset>(
    setup: &R::Setup,
    options: &R::Options,
    variants: &[(&str, R::Options)],
    config: &Config,
    mut policy: impl FnMut(u64) -> Box<dyn Policy<R>>,
) -> Result<Report, Failure> {
    let mut total = Report::default();
    for (name, variant) in variants {
        let merged = with_variant(options, variant).map_err(|what| Failure {
            seed: config.seeds.start,
            step: 0,
            what: format!("option variant '{name}': {what}"),
        })?;
        let report = run::<R>(setup, &merged, config, &mut policy).map_err(|f| Failure {
            what: format!("option variant '{name}': {}", f.what),
            ..f
        })?;
        total += &report;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, rename_all = "kebab-case")]
    struct Opts {
        tie_rule: u8,
        flag: bool,
        limit: Option<u8>,
    }

    impl Default for Opts {
        fn default() -> Self {
            Opts {
                tie_rule: 0,
                flag: true,
                limit: None,
            }
        }
    }

    #[test]
    fn an_option_no_variant_changes_is_named() {
        let variants = [(
            "flagless",
            Opts {
                flag: false,
                ..Opts::default()
            },
        )];
        let err = check_option_variants(&variants).unwrap_err();
        assert!(
            err.contains("tie-rule, limit") || err.contains("limit, tie-rule"),
            "{err}"
        );
        assert!(!err.contains("flag"), "{err}");
        let all = [
            variants[0].clone(),
            (
                "strict",
                Opts {
                    tie_rule: 1,
                    limit: Some(2),
                    ..Opts::default()
                },
            ),
        ];
        assert_eq!(check_option_variants(&all), Ok(()));
    }

    #[test]
    fn a_variant_that_changes_nothing_or_repeats_a_name_is_refused() {
        let same = [("same", Opts::default())];
        assert!(
            check_option_variants(&same)
                .unwrap_err()
                .contains("'same' changes no option")
        );
        let v = Opts {
            tie_rule: 1,
            flag: false,
            limit: Some(1),
        };
        let twice = [("a", v.clone()), ("a", v)];
        assert!(check_option_variants(&twice).unwrap_err().contains("used twice"));
    }

    #[test]
    fn a_variant_overrides_only_what_it_changes() {
        let base = Opts {
            tie_rule: 3,
            flag: true,
            limit: Some(9),
        };
        let variant = Opts {
            flag: false,
            ..Opts::default()
        };
        let merged = with_variant(&base, &variant).unwrap();
        assert_eq!(
            merged,
            Opts {
                tie_rule: 3,
                flag: false,
                limit: Some(9)
            }
        );
    }

    #[test]
    fn rejection_code_lists_are_checked() {
        assert_eq!(check_rejection_codes(&["out-of-range", "no-2nd-turn"]), Ok(()));
        assert!(check_rejection_codes(&["a", "a"]).unwrap_err().contains("twice"));
        assert!(check_rejection_codes(&["Bad_Code"]).unwrap_err().contains("kebab"));
        assert!(check_rejection_codes(&["trailing-"]).unwrap_err().contains("kebab"));
        assert!(check_rejection_codes(&["game-over"]).unwrap_err().contains("engine"));
    }
}
