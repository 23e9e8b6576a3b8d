//! Ingenuity: the combat chapter of the Ingenuity TTRPG as a fray ruleset.
//!
//! Teams alternate picking who acts; a turn has three actions and a round one reaction; tests
//! roll an attribute die and a skill die plus a proficiency, with a d20 luck die beside them;
//! attacks meet evasion, damage goes through deflection into endurance and then health, and
//! characters fortify to stay conscious and cheat death. `shared/rules/ingenuity.md` numbers
//! every rule (`ING-R1` ...); the tests cite them.
//!
//! Module map, in the rooms every ruleset has:
//!
//! - [`setup`]: encounter files and stat blocks (`setup/load`, `setup/block`), and the
//!   validation of a record's setup (`setup/validate`); [`options`] every open reading as an
//!   option, [`data`] items as data.
//! - [`state`] (the state, and the resolution context `Cx`), [`command`], [`event`] (and the one
//!   `apply`); [`calc`] derived numbers and the movement search; [`codes`] the rejection codes.
//! - `flow` (private): rounds, turns and which team picks who acts next (ING-R2 to ING-R17,
//!   ING-R69), with the pick's check; [`stage`] what the game waits for.
//! - `actions` (private): one module per action or rule topic, each with its check, its legal
//!   list and its resolution side by side: `movement`, `attack`, `defence`, `damage`,
//!   `conscious`, `reaction`, `trigger`, `ready`, `after_dodge`, `downed`, `extended`, `task`,
//!   `items`, `posture`, `end`, `command`, `ruling` (its module doc maps them to the rules).
//! - `roll` (private): the dice and tests, the one place resolution draws dice.
//! - [`check`] (legality), [`resolve`] (resolution and the automatic steps) and [`legal`] (the
//!   legal list): the three dispatchers, short, which match on the stage and the action and call
//!   into `actions` and `flow`. The check never depends on resolution; every public function
//!   they had is still reached by its old path.
//! - [`view`] what each seat sees, [`text`] log lines, prompts and views, [`ai`] the built-in
//!   AI, [`odds`] exact attack odds.

mod actions;
pub mod ai;
pub mod calc;
pub mod check;
pub mod codes;
pub mod command;
mod conformance;
pub mod data;
pub mod event;
mod flow;
pub mod legal;
pub mod odds;
pub mod options;
pub mod resolve;
mod roll;
pub mod setup;
pub mod stage;
pub mod state;
pub mod text;
pub mod view;

use crate::command::Command;
use crate::event::{Event, apply};
use crate::options::Options;
use crate::setup::Setup;
use crate::state::Cx;
use crate::state::{Char, Phase, State};
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::teams::TeamOrder;
use fray_engine::text::{Lasting, Rest};
use fray_engine::text::{Loaded, ReadFile, TextRuleset};
use fray_engine::{
    Answer, CombatantEnd, EngineError, Outcome, Pending, Policy, Reject, Ruleset, Seat, SeatPolicy, Shown, Summarize,
};
use std::sync::Arc;

/// The Ingenuity ruleset.
pub struct Ingenuity;

impl Ruleset for Ingenuity {
    const ID: &'static str = "ingenuity";
    const VERSION: &'static str = "0.3.0";
    /// 0.2.0 played the same; it gave "not enough focus" as the reason a target could not
    /// defend whenever no other reason was found (see [`Ingenuity::same_as_earlier`]).
    const REPLAYS_VERSIONS: &'static [&'static str] = &["0.2.0"];
    type Options = Options;
    type Setup = Setup;
    type State = State;
    type Command = Command;
    type Event = Event;
    type Checked = check::Plan;
    type Stage = stage::Stage;

    fn new_state(setup: &Setup, options: &Options) -> Result<State, EngineError> {
        let state = Self::new_state_checked(setup, options).map_err(EngineError::Invalid)?;
        if let Some(o) = &setup.opening
            && let Err(m) = check::opening_action_ok(&state)
        {
            return Err(EngineError::Invalid(format!(
                "the opening action '{}' of {}: {m}",
                o.action, setup.chars[o.who as usize].id
            )));
        }
        Ok(state)
    }

    fn start(cx: &mut Cx) -> Result<(), EngineError> {
        resolve::start(cx)
    }

    /// Built from the one [`stage::stage`]: kind and actor from the stage, the seat from the
    /// actor's (from its team's for a pick or an intercept).
    fn pending(s: &State) -> Option<Pending<stage::Stage>> {
        stage::stage(s).map(|st| st.pending(s))
    }

    fn is_ruling(command: &Command) -> bool {
        matches!(command, Command::Gm(_))
    }

    // Every Ingenuity decision has one decider, whom the engine's authority check has
    // matched, so the seat is not needed below. The engine hands each the stage it worked out
    // once.
    fn legal(s: &State, stage: &stage::Stage, _seat: Seat, out: &mut Vec<Answer<Self>>) {
        legal::legal(s, Some(stage), out)
    }

    fn check(s: &State, stage: &stage::Stage, _seat: Seat, command: &Command) -> Result<check::Plan, Reject> {
        check::check_in(s, Some(stage), command)
    }

    fn resolve(
        cx: &mut Cx,
        stage: &stage::Stage,
        _seat: Seat,
        command: &Command,
        plan: check::Plan,
    ) -> Result<(), EngineError> {
        resolve::resolve(cx, Some(stage), command, plan)
    }

    fn apply(s: &mut State, e: &Event) {
        apply(s, e)
    }

    /// 0.2.0 logged "not enough focus" (`AutoWhy::NoFocus`) for a step taken without asking
    /// whenever it found no other reason; 0.3.0 gives the real one (defences already taken, none
    /// that answers the attack, or none legal). The rest of the event must match.
    fn same_as_earlier(recorded: &Event, replayed: &Event) -> bool {
        use event::AutoWhy;
        match (recorded, replayed) {
            (
                Event::Automatic {
                    who,
                    step,
                    why: AutoWhy::NoFocus,
                },
                Event::Automatic {
                    who: w,
                    step: st,
                    why: AutoWhy::NotLegal | AutoWhy::DefencesTaken | AutoWhy::NoDefenceOpen,
                },
            ) => who == w && step == st,
            _ => recorded == replayed,
        }
    }

    fn outcome(s: &State) -> Option<Outcome> {
        s.outcome.clone()
    }

    type View<'a> = view::View<'a>;

    fn view(s: &State, seat: Seat) -> view::View<'_> {
        view::view(s, seat)
    }

    const HIDDEN_INFORMATION: bool = true;

    fn hides_from(s: &State, seat: Seat) -> bool {
        view::hides_from(s, seat)
    }

    fn seen(s: &State, seat: Seat) -> std::borrow::Cow<'_, State> {
        view::seen(s, seat)
    }

    fn redact(s: &State, seat: Seat, event: &Event) -> Shown<Event> {
        view::redact(s, seat, event)
    }

    fn redact_command(s: &State, seat: Seat, command: &Command) -> Shown<Command> {
        view::redact_command(s, seat, command)
    }

    fn indistinguishable(s: &State, seat: Seat, out: &mut Vec<State>) {
        view::indistinguishable(s, seat, out)
    }
}

impl Ingenuity {
    /// The initial state after validating the whole setup and the options (both may come from
    /// an untrusted record); the opening action is not checked here.
    pub fn new_state_checked(setup: &Setup, options: &Options) -> Result<State, String> {
        setup.validate()?;
        options.check()?;
        Ok(State {
            setup: Arc::new(setup.clone()),
            options: Arc::new(options.clone()),
            phase: Phase::Rounds,
            round: 0,
            order: TeamOrder::new(setup.order.clone(), setup.chars.iter().map(|c| c.team).collect()),
            chars: setup.chars.iter().map(|c| Char::new(c, setup)).collect(),
            turn: None,
            stack: Vec::new(),
            objectives: setup.teams.iter().map(|t| t.objective.clone()).collect(),
            pending_objectives: Vec::new(),
            pending_order: None,
            ground: Vec::new(),
            opening_done: setup.opening.is_none(),
            outcome: None,
            last_auto: Vec::new(),
        })
    }
}

impl TextRuleset for Ingenuity {
    const EVENT_COMBATANTS: &'static [&'static str] = &[
        "who",
        "target",
        "attacker",
        "ally",
        "subject",
        "intercept",
        "commander",
        "a",
        "b",
    ];

    /// A rest brings health, endurance, stamina and focus back; nothing restores the death
    /// difficulty, whose rise is permanent (ING-R62). Spent durability stays spent until the
    /// item is repaired (the persistent state the rules list).
    const RESTS: &'static [Rest] = &[
        Rest {
            word: "rest",
            what: "a rest between fights: current health, endurance, stamina and focus back to their maximum (the death difficulty stays: ING-R62)",
            restores: &["now"],
        },
        Rest {
            word: "repair",
            what: "repairs: the durability items lost to blocks and parries comes back (ING-R51, ING-R53: it stays spent until then)",
            restores: &["durability"],
        },
    ];

    /// What outlasts a fight (the persistent character state), of every character a player's
    /// seat plays: current health, endurance, stamina and focus, the death difficulty
    /// (ING-R62), the durability its items lost (ING-R51, ING-R53, ING-R55), and death.
    /// Conditions last for the scene (ING-R66), so none is kept.
    fn lasting(state: &State) -> Vec<Lasting> {
        state
            .ids()
            .filter(|&c| !state.info(c).seat.is_gm())
            .map(|c| {
                let (info, ch) = (state.info(c), &state.chars[c as usize]);
                let mut values = vec![
                    (
                        "now".into(),
                        format!(
                            "{{ health = {}, endurance = {}, stamina = {}, focus = {} }}",
                            ch.health, ch.endurance, ch.stamina, ch.focus
                        ),
                    ),
                    ("death-difficulty".into(), ch.death_difficulty.to_string()),
                ];
                // The items of its own (not those picked up in the fight) that lost durability;
                // the encounter key gives one value per item id, so of several copies the most
                // worn one counts.
                let armoury = &state.setup.armoury;
                let mut worn: Vec<(&str, i16)> = Vec::new();
                for k in ch.items.iter().filter(|k| info.start.items.contains(&k.item)) {
                    let it = armoury.item(k.item);
                    if k.durability >= it.durability {
                        continue;
                    }
                    match worn.iter_mut().find(|(id, _)| *id == it.id) {
                        Some((_, d)) => *d = (*d).min(k.durability),
                        None => worn.push((&it.id, k.durability)),
                    }
                }
                if !worn.is_empty() {
                    let items: Vec<String> = worn.iter().map(|(id, d)| format!("{} = {d}", toml_key(id))).collect();
                    values.push(("durability".into(), format!("{{ {} }}", items.join(", "))));
                }
                if ch.dead {
                    values.push(("dead".into(), "true".into()));
                }
                Lasting {
                    id: info.id.clone(),
                    name: info.name.clone(),
                    values,
                }
            })
            .collect()
    }

    const REJECTION_CODES: &'static [&'static str] = codes::ALL;

    fn load(source: &SourceFile, read: &mut ReadFile<'_>) -> Result<Loaded<Self>, Vec<Diagnostic>> {
        let (setup, options) = setup::load(source, read)?;
        Ok(Loaded {
            title: setup.title.clone(),
            setup,
            options,
        })
    }

    fn parse_command(state: &State, text: &str) -> Result<Command, Reject> {
        command::parse(state, text)
    }

    fn format_command(state: &State, command: &Command) -> String {
        command::format(state, command)
    }

    fn describe_event(state: &State, event: &Event) -> Option<String> {
        text::describe(state, event)
    }

    fn describe_pending(state: &State, pending: &Pending<crate::stage::Stage>) -> String {
        text::describe_pending(state, pending)
    }

    fn describe_pending_for(state: &State, pending: &Pending<crate::stage::Stage>, seat: Seat) -> String {
        text::describe_pending_for(state, pending, seat)
    }

    fn seat_name(state: &State, seat: Seat) -> String {
        fray_engine::sides::seat_name(&state.setup.seats, seat)
    }

    fn seat_by_name(state: &State, name: &str) -> Option<Seat> {
        fray_engine::sides::seat_by_name(&state.setup.seats, name)
    }

    fn summary(state: &State) -> String {
        text::summary(state)
    }

    fn map(state: &State, seat: Seat) -> Option<String> {
        Some(text::map(state, seat))
    }

    fn tracker(state: &State, seat: Seat) -> String {
        text::tracker(state, seat)
    }

    fn table(state: &State, seat: Seat) -> fray_engine::view::Table {
        text::table(state, seat)
    }

    fn combatant_id(state: &State, index: u16) -> Option<String> {
        state.setup.chars.get(usize::from(index)).map(|c| c.id.clone())
    }

    fn title(state: &State) -> String {
        state.setup.title.clone()
    }

    fn heuristic() -> Box<dyn Policy<Self>> {
        Box::new(ai::Heuristic::new())
    }

    fn gm_help() -> &'static str {
        "gm set <id> health|endurance|stamina|focus|death-difficulty +N|-N|=N
gm durability <id> <item> +N|-N|=N
gm condition <id> <condition> on|off
gm knockout <id>     gm revive <id>     gm kill <id>
gm move <id> <x,y>   gm remove <id>
gm add <new-id> <template> <team> <x,y>
gm end <team>|none
gm objective <team> none|survive N|down <id>|reach x,y[;x,y] [by <id>]
gm order <team>,<team>,..."
    }

    fn odds(args: &[String]) -> Result<(String, serde_json::Value), String> {
        let q = odds::parse_query(args)?;
        let o = odds::attack(&q);
        Ok((odds::text(&q, &o), serde_json::to_value(&o).map_err(|e| e.to_string())?))
    }

    const OPTION_WORDS: &'static [&'static str] = &["using", "prof", "with"];

    /// What the prompt leaves out of its list.
    const PROMPT_HIDES_WHAT: &'static str = "attacks on allies or waking a downed enemy";

    /// An attack, a killing strike or a commanded attack on an ally of the one who would make
    /// it, or waking an enemy: legal, but a person rarely means it, so the prompt lists it only
    /// under `choices all`.
    fn prompt_hides(state: &State, command: &Command) -> bool {
        use command::Action;
        fn aimed_at(a: &Action) -> Option<setup::Cid> {
            match a {
                Action::Attack { target, .. } | Action::Kill { target, .. } => Some(*target),
                _ => None,
            }
        }
        let Some(who) = state.turn.as_ref().map(|t| t.who) else {
            return false;
        };
        match command {
            // Waking an enemy is as rarely meant.
            Command::Act(Action::Resuscitate(t)) => state.enemies(who, *t),
            Command::Act(Action::Command { ally, action }) => aimed_at(action).is_some_and(|t| state.allies(*ally, t)),
            Command::Act(a) => aimed_at(a).is_some_and(|t| state.allies(who, t)),
            _ => false,
        }
    }

    fn note(state: &State, command: &Command) -> Option<String> {
        match command {
            Command::Act(command::Action::Attack {
                target,
                slot,
                attr,
                prof,
            }) => {
                let who = state.turn.as_ref()?.who;
                let q = odds::query_for(state, who, *target, *slot, *attr, prof.as_deref())?;
                let o = odds::attack(&q);
                // Name the proficiency the odds are for: `prof none` when it adds nothing.
                let p = match prof {
                    Some(p) => format!("prof {p} {:+}", q.prof),
                    None => "prof none".to_string(),
                };
                Some(format!(
                    "{p}: hit {:.0}%, critical {:.0}%, mean damage {:.1}",
                    100.0 * o.hit,
                    100.0 * o.critical,
                    o.mean_damage
                ))
            }
            _ => None,
        }
    }

    fn board(state: &State, seat: Seat) -> Option<fray_engine::view::Board> {
        Some(view::board(state, seat))
    }
}

impl Summarize for Ingenuity {
    fn sides(state: &State) -> Vec<String> {
        state.setup.teams.iter().map(|t| t.name.clone()).collect()
    }

    fn round(state: &State) -> u32 {
        state.round
    }

    fn combatants(state: &State) -> Vec<CombatantEnd> {
        state
            .ids()
            .map(|c| {
                let ch = state.ch(c);
                let st = &state.info(c).stats;
                CombatantEnd {
                    id: state.info(c).id.clone(),
                    side: state.team(c),
                    incapacitated: ch.unconscious && !ch.dead,
                    removed: ch.out,
                    killed: ch.dead,
                    resources: vec![
                        ("health-lost", i64::from(st.health - ch.health)),
                        ("endurance-lost", i64::from(st.endurance - ch.endurance)),
                        ("stamina-spent", i64::from(st.stamina - ch.stamina)),
                        ("focus-spent", i64::from(st.focus - ch.focus)),
                    ],
                }
            })
            .collect()
    }

    fn side_of(state: &State, actor: u16) -> Option<u8> {
        ((actor as usize) < state.chars.len()).then(|| state.team(actor))
    }

    fn seats(state: &State) -> Vec<SeatPolicy> {
        let teams = state.setup.teams.iter().map(|t| (t.seat, t.policy.as_ref()));
        fray_engine::sides::seat_policies(&state.setup.seats, teams)
    }

    fn heuristic_policy() -> Box<dyn Policy<Self>> {
        Box::new(ai::Heuristic::new())
    }
}

/// A key of a TOML table: bare when it can be, quoted otherwise.
fn toml_key(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        k.to_string()
    } else {
        toml::Value::String(k.to_string()).to_string()
    }
}
