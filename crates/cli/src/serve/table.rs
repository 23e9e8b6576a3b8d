//! One table: a thread that owns the game, its saved-games row and the clients' outboxes.
//! Everything a client sends reaches it as a [`ToTable`] message, one at a time, so a table
//! needs no lock; every frame a client gets is built here from that client's seat alone
//! (its view, its legal answers, its log), never from another seat's.

use super::codes;
use super::secret;
use crate::saves::{self, Save};
use fray_dice::{Dice, DiceError, Faces, Prng, ScriptedDice};
use fray_engine::Seat;
use fray_engine::SubmitError;
use fray_engine::diag::SourceFile;
use fray_engine::text::{AnyGame, EntryJson, LogLine, NewDice, NewGameError};
use fray_engine::{EngineError, Reject, RejectKind};
use serde::Serialize;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::mpsc;
use tokio::sync::{mpsc as tmpsc, oneshot};

/// How many frames may wait for one client before it counts as gone (a client that reads
/// nothing cannot make the table hold ever more for it).
pub const OUTBOX: usize = 256;

/// The most browsers one table serves at once.
pub const MAX_CLIENTS: usize = 32;

/// The most AI answers one change may set off before the table pauses the AI (a fight the
/// AI plays alone ends long before; this only stops a bug from holding the table forever).
const AI_RUN: usize = 20_000;

/// What a client asks of its table.
#[derive(Debug)]
pub enum Ask {
    /// A command typed (or clicked) for the client's seat; the GM may give one `as` another.
    Command {
        text: String,
        faces: Option<Vec<u16>>,
        as_seat: Option<String>,
    },
    /// The GM takes back the last step.
    Undo,
    /// The GM brings back the step undone last.
    Redo,
    /// The GM hands a seat to the AI or takes it back.
    Ai { seat: String, on: bool },
    /// The GM gives the faces for the AI's move waiting for dice (all of them, those given
    /// before included).
    AiFaces { faces: Vec<u16> },
}

/// A message to a table's thread.
pub enum ToTable {
    /// A client joined as `seat`; its frames go to `tx`.
    Join {
        client: u64,
        seat: u8,
        tx: tmpsc::Sender<String>,
    },
    /// A client left.
    Leave { client: u64 },
    /// A client's message `id`.
    Ask { client: u64, id: i64, ask: Ask },
    /// The `state` frame of `seat`, whole (`GET /api/view`).
    Frame { seat: u8, reply: oneshot::Sender<String> },
    /// The table's facts and links (the GM's API).
    Info { reply: oneshot::Sender<Info> },
    /// Closes the table.
    Close { reply: oneshot::Sender<()> },
}

/// A table as the GM's API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Info {
    pub game: i64,
    pub title: String,
    pub ruleset: String,
    pub dice: &'static str,
    pub links: Vec<Link>,
}

/// A seat's join link.
#[derive(Clone, Debug, Serialize)]
pub struct Link {
    pub seat: String,
    pub token: String,
    pub url: String,
    pub ai: bool,
}

/// The roll a typed-dice table waits for: `count` more faces of a d`sides` (those typed so far
/// for this roll not counted), or one card of `cards`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Wanted {
    pub kind: &'static str,
    pub count: usize,
    pub sides: u16,
    pub cards: Vec<u16>,
    pub why: String,
}

impl Wanted {
    /// The roll in words.
    pub fn words(&self) -> String {
        match self.kind {
            "draw" => format!("draw a card for {} (one of {:?})", self.why, self.cards),
            _ => format!("roll {}d{} for {}", self.count, self.sides, self.why),
        }
    }
}

/// The faces the seats type at a typed-dice table: those given with the command being played,
/// and what was wanted when they ran out. Shared with the game (a game rebuilt by an undo or a
/// redo gets the same source back).
#[derive(Clone, Default)]
struct TypedDice(Rc<RefCell<Typed>>);

#[derive(Default)]
struct Typed {
    script: ScriptedDice,
    wanted: Option<Wanted>,
}

impl TypedDice {
    /// The faces for the next command (what was left of the last is dropped).
    fn give(&self, faces: &[u16]) {
        let mut t = self.0.borrow_mut();
        t.script = ScriptedDice::new(faces.iter().copied());
        t.wanted = None;
    }

    fn wanted(&self) -> Option<Wanted> {
        self.0.borrow().wanted.clone()
    }

    fn left(&self) -> usize {
        self.0.borrow().script.remaining()
    }
}

/// What a typed-dice source says when it has no faces left: the command is not applied, and
/// the table asks for the faces `Typed::wanted` names.
const NEEDS_DICE: &str = "needs the faces of physical dice";

impl Dice for TypedDice {
    fn roll(
        &mut self,
        count: usize,
        sides: u16,
        why: &dyn std::fmt::Display,
        out: &mut Faces,
    ) -> Result<(), DiceError> {
        let mut t = self.0.borrow_mut();
        let left = t.script.remaining();
        if left < count && count <= fray_dice::MAX_DICE && sides > 0 {
            t.wanted = Some(Wanted {
                kind: "roll",
                count: count - left,
                sides,
                cards: Vec::new(),
                why: why.to_string(),
            });
            return Err(DiceError::Aborted(NEEDS_DICE.into()));
        }
        t.script.roll(count, sides, why, out)
    }

    fn draw(&mut self, deck: &[u16], why: &dyn std::fmt::Display) -> Result<u16, DiceError> {
        let mut t = self.0.borrow_mut();
        if t.script.remaining() == 0 && !deck.is_empty() {
            t.wanted = Some(Wanted {
                kind: "draw",
                count: 1,
                sides: 0,
                cards: deck.to_vec(),
                why: why.to_string(),
            });
            return Err(DiceError::Aborted(NEEDS_DICE.into()));
        }
        t.script.draw(deck, why)
    }
}

/// How a table is opened.
pub enum Opening {
    /// A new game from an encounter (`path`: where it was read, for the files it names and the
    /// games list; `None` for text the GM's browser sent).
    New {
        source: SourceFile,
        path: Option<PathBuf>,
        seed: Option<u64>,
        /// Typed dice, with the faces for the start.
        typed: Option<Vec<u16>>,
        ai: Vec<String>,
    },
    /// A game of the database.
    Saved { game: i64, ai: Option<Vec<String>> },
}

/// Why a table could not be opened.
#[derive(Debug)]
pub struct OpenError {
    pub status: u16,
    pub code: &'static str,
    pub message: String,
    pub dice: Option<Box<Wanted>>,
}

impl OpenError {
    fn new(status: u16, code: &'static str, message: impl Into<String>) -> OpenError {
        OpenError {
            status,
            code,
            message: message.into(),
            dice: None,
        }
    }
}

/// A running table, as the server keeps it.
#[derive(Clone)]
pub struct Handle {
    pub tx: mpsc::Sender<ToTable>,
    /// Each seat's secret, by seat number.
    pub secrets: Vec<String>,
}

/// Opens a table on a thread of its own; returns once the game is running (or could not be).
pub fn open(db: PathBuf, opening: Opening) -> Result<(Handle, Info), OpenError> {
    let (tx, rx) = mpsc::channel();
    let (started_tx, started_rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("fray-table".into())
        .spawn(move || match Table::start(&db, opening) {
            Ok(mut table) => {
                let _ = started_tx.send(Ok((table.secrets(), table.info())));
                table.run(rx);
            }
            Err(e) => {
                let _ = started_tx.send(Err(e));
            }
        })
        .map_err(|e| OpenError::new(500, codes::INTERNAL, format!("cannot start the table: {e}")))?;
    let (secrets, info) = started_rx.recv().map_err(|_| {
        OpenError::new(
            500,
            codes::INTERNAL,
            "the table stopped while it started (a bug in fray)",
        )
    })??;
    Ok((Handle { tx, secrets }, info))
}

struct Client {
    id: u64,
    seat: u8,
    tx: tmpsc::Sender<String>,
    /// How many of its seat's log lines it has been sent.
    log_sent: usize,
    /// The board it was sent last.
    board_sent: Option<String>,
    /// The rest of the last frame it was sent (without its log and board), so a change it
    /// may not see sends it nothing: a frame arriving would tell it that something happened.
    last: String,
    /// Frames sent to it.
    frames: u64,
}

struct SeatState {
    name: String,
    secret: String,
    ai: bool,
}

/// The AI's move waiting for typed faces.
struct AiWait {
    seat: u8,
    faces: Vec<u16>,
    wanted: Wanted,
    /// The AI's random stream before it chose, so it chooses the same again.
    rng: Prng,
}

struct Table {
    id: i64,
    game: Box<dyn AnyGame>,
    save: Save,
    typed: Option<TypedDice>,
    seats: Vec<SeatState>,
    clients: Vec<Client>,
    /// Each seat's log, by seat.
    logs: Vec<Vec<String>>,
    rng: Prng,
    ai_wait: Option<AiWait>,
    /// A note for the GM when the AI stopped (it could not answer).
    ai_trouble: Option<String>,
    /// Changes made so far (commands, undos, redos): a declaration timer runs per change.
    changes: u64,
    /// The declaration timer running ([`AnyGame::timer`]): when it runs out, the command it
    /// submits, and the change it was armed at.
    timer: Option<Timer>,
}

/// A declaration timer armed at a decision.
struct Timer {
    at: std::time::Instant,
    seconds: u32,
    command: String,
    change: u64,
}

fn lines(log: &[LogLine]) -> impl Iterator<Item = String> + '_ {
    log.iter().filter_map(|l| l.text.clone())
}

fn store_error(e: crate::Fail) -> OpenError {
    let status = if e.message.contains("in use") { 409 } else { 400 };
    let code = if status == 409 { codes::IN_USE } else { codes::STORE };
    OpenError::new(status, code, e.message)
}

impl Table {
    fn start(db: &Path, opening: Opening) -> Result<Table, OpenError> {
        let (game, mut save, typed, ai_words, dice_word) = match opening {
            Opening::New {
                source,
                path,
                seed,
                typed,
                ai,
            } => {
                let store = saves::open_store_again(db).map_err(store_error)?;
                let entry = crate::registry::for_encounter(&source)
                    .map_err(|e| OpenError::new(400, codes::BAD_ENCOUNTER, e.message))?;
                let typed_dice = typed.as_ref().map(|faces| {
                    let d = TypedDice::default();
                    d.give(faces);
                    d
                });
                let dice = match &typed_dice {
                    Some(d) => NewDice::Source(Box::new(d.clone())),
                    None => NewDice::Seeded(seed.unwrap_or_else(crate::random_seed)),
                };
                let made = match &path {
                    Some(p) => entry.new_game(&source, &mut crate::reader(p), dice),
                    None => entry.new_game(
                        &source,
                        &mut |rel: &str| {
                            Err(format!(
                                "an encounter sent from the browser cannot name other files ('{rel}'): open it from the encounters folder"
                            ))
                        },
                        dice,
                    ),
                };
                let game = match made {
                    Ok(g) => g,
                    Err(NewGameError::Diagnostics(d)) => {
                        let lines: Vec<String> = d.iter().map(|x| x.to_string()).collect();
                        return Err(OpenError::new(400, codes::BAD_ENCOUNTER, lines.join("\n")));
                    }
                    Err(NewGameError::Engine(e)) => {
                        return Err(OpenError::new(400, codes::BAD_ENCOUNTER, e.to_string()));
                    }
                    Err(NewGameError::Start { error, .. }) => {
                        if let Some(w) = typed_dice.as_ref().and_then(TypedDice::wanted) {
                            let mut e = OpenError::new(
                                422,
                                codes::NEEDS_DICE,
                                format!("the start needs more faces: {}", w.words()),
                            );
                            e.dice = Some(Box::new(w));
                            return Err(e);
                        }
                        return Err(OpenError::new(
                            400,
                            codes::BAD_DICE,
                            format!("during the start: {error}"),
                        ));
                    }
                };
                // The seats named for the AI are checked before anything is saved.
                ai_seats(&*game, &ai, Vec::new())?;
                let name = path.clone().unwrap_or_else(|| PathBuf::from(&source.name));
                let save = Save::create(store, db, &*game, &name, None).map_err(store_error)?;
                let dice_word = if typed_dice.is_some() { "typed" } else { "server" };
                (game, save, typed_dice, Some(ai), dice_word)
            }
            Opening::Saved { game: id, ai } => {
                let store = saves::open_store_again(db).map_err(store_error)?;
                let (save, record) = Save::resume_in(store, db, Some(id), false).map_err(store_error)?;
                let mut game = saves::replay_json(&format!("{}, game {id}", db.display()), &record)
                    .map_err(|e| OpenError::new(400, codes::BAD_RECORD, e.message))?;
                let mut save = save;
                save.refresh_undone(&record);
                let typed = game.seed().is_none().then(TypedDice::default);
                if let Some(d) = &typed {
                    game.set_dice(Box::new(d.clone()));
                }
                let dice_word = if typed.is_some() { "typed" } else { "server" };
                (game, save, typed, ai, dice_word)
            }
        };
        let id = save.id;
        let names = game.seat_names();
        let known = save
            .store_mut()
            .table(id)
            .map_err(|e| OpenError::new(500, codes::STORE, e.to_string()))?;
        let ai = match (&ai_words, &known) {
            (Some(words), _) => ai_seats(&*game, words, Vec::new())?,
            (None, None) => Vec::new(),
            (None, Some(row)) => row.ai.clone(),
        };
        let mut fresh = Vec::new();
        for i in 0..names.len() {
            let s = secret::fresh().map_err(|e| OpenError::new(500, codes::INTERNAL, e))?;
            fresh.push((i as u8, s));
        }
        let secrets = save
            .store_mut()
            .open_table(id, dice_word, &ai, &fresh)
            .map_err(|e| OpenError::new(500, codes::STORE, e.to_string()))?;
        let seats = names
            .iter()
            .enumerate()
            .map(|(i, name)| SeatState {
                name: name.clone(),
                secret: secrets
                    .iter()
                    .find(|(s, _)| usize::from(*s) == i)
                    .map(|(_, x)| x.clone())
                    .unwrap_or_default(),
                ai: ai.contains(&(i as u8)),
            })
            .collect::<Vec<_>>();
        if seats.iter().any(|s| s.secret.is_empty()) {
            return Err(OpenError::new(
                500,
                codes::STORE,
                "a seat has no secret (a bug in fray)",
            ));
        }
        let logs = (0..seats.len())
            .map(|i| lines(&game.log_for(Seat(i as u8))).collect())
            .collect();
        let rng = Prng::for_stream(game.seed().unwrap_or_else(crate::random_seed), 1);
        save.carry_out(&*game)
            .map_err(|e| OpenError::new(500, codes::STORE, e.message))?;
        let mut table = Table {
            id,
            game,
            save,
            typed,
            seats,
            clients: Vec::new(),
            logs,
            rng,
            ai_wait: None,
            ai_trouble: None,
            changes: 0,
            timer: None,
        };
        table.run_ai();
        Ok(table)
    }

    fn secrets(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.secret.clone()).collect()
    }

    fn info(&self) -> Info {
        Info {
            game: self.id,
            title: self.game.title(),
            ruleset: self.game.ruleset_id().to_string(),
            dice: if self.typed.is_some() { "typed" } else { "server" },
            links: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let token = secret::Token::text(self.id, i as u8, &s.secret);
                    Link {
                        seat: s.name.clone(),
                        url: format!("/table/{}#token={token}", self.id),
                        token,
                        ai: s.ai,
                    }
                })
                .collect(),
        }
    }

    /// Arms the declaration timer when the decision now has one and it is not running for it
    /// already (the terminal's rule: each decision asked gets the whole time).
    fn arm_timer(&mut self) {
        match self.game.timer() {
            None => self.timer = None,
            Some((seconds, command)) => {
                if self.timer.as_ref().is_none_or(|t| t.change != self.changes) {
                    self.timer = Some(Timer {
                        at: std::time::Instant::now() + std::time::Duration::from_secs(u64::from(seconds)),
                        seconds,
                        command,
                        change: self.changes,
                    });
                }
            }
        }
    }

    /// The timer ran out: its command is played for the seat asked first, as at the terminal.
    fn timer_ran_out(&mut self) {
        let Some(t) = self.timer.take() else { return };
        let Some(seat) = self
            .game
            .pending_for(Seat::GM)
            .and_then(|p| p.deciders.first().copied())
        else {
            return;
        };
        let viewers: Vec<Seat> = (0..self.seats.len()).map(|i| Seat(i as u8)).collect();
        if let Some(d) = &self.typed {
            d.give(&[]);
        }
        match self.game.submit_for(seat, &t.command, &viewers) {
            Ok(logs) => {
                if self.accepted(&t.command, logs).is_ok() {
                    self.run_ai();
                }
            }
            Err(e) => {
                self.ai_trouble = Some(format!("the timer's command '{}' was refused: {e}", t.command));
            }
        }
        self.arm_timer();
        self.broadcast();
    }

    fn run(&mut self, rx: mpsc::Receiver<ToTable>) {
        self.arm_timer();
        loop {
            let m = match &self.timer {
                None => match rx.recv() {
                    Ok(m) => m,
                    Err(_) => return,
                },
                Some(t) => match rx.recv_timeout(t.at.saturating_duration_since(std::time::Instant::now())) {
                    Ok(m) => m,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        self.timer_ran_out();
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                },
            };
            match m {
                ToTable::Join { client, seat, tx } => {
                    if self.clients.len() >= MAX_CLIENTS {
                        // The socket closes once this frame is out (its outbox is dropped).
                        let _ = tx.try_send(
                            err(
                                codes::TABLE_FULL,
                                format!("a table takes at most {MAX_CLIENTS} browsers at once"),
                            )
                            .to_string(),
                        );
                        continue;
                    }
                    self.clients.push(Client {
                        id: client,
                        seat,
                        tx,
                        log_sent: 0,
                        board_sent: None,
                        last: String::new(),
                        frames: 0,
                    });
                    let welcome = json!({
                        "type": "welcome",
                        "game": self.id,
                        "title": self.game.title(),
                        "ruleset": self.game.ruleset_id(),
                        "seat": self.seats[usize::from(seat)].name,
                        "gm": seat == 0,
                        "dice": if self.typed.is_some() { "typed" } else { "server" },
                        "seats": self.seats.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
                    });
                    self.send(client, welcome.to_string());
                    self.broadcast();
                }
                ToTable::Leave { client } => {
                    self.clients.retain(|c| c.id != client);
                    self.broadcast();
                }
                ToTable::Ask { client, id, ask } => {
                    let Some(seat) = self.clients.iter().find(|c| c.id == client).map(|c| c.seat) else {
                        continue;
                    };
                    match self.ask(Seat(seat), ask) {
                        Ok(note) => {
                            // The frames first: a client that has its `ok` already shows
                            // what its message did.
                            self.run_ai();
                            self.arm_timer();
                            self.broadcast();
                            let mut ok = json!({"type": "ok", "id": id});
                            if let Some(n) = note {
                                ok["note"] = Value::String(n);
                            }
                            self.send(client, ok.to_string());
                        }
                        Err(mut e) => {
                            e["id"] = json!(id);
                            self.send(client, e.to_string());
                        }
                    }
                }
                ToTable::Frame { seat, reply } => {
                    let mut frame = self.frame(seat, 0);
                    frame["type"] = json!("state");
                    let _ = reply.send(frame.to_string());
                }
                ToTable::Info { reply } => {
                    let _ = reply.send(self.info());
                }
                ToTable::Close { reply } => {
                    // The server's own output says when the database refused (the GM's
                    // answer is the same: the table is gone from this server either way).
                    if let Err(e) = self.save.store_mut().close_table(self.id) {
                        eprintln!(
                            "fray serve: table {}: the database did not mark it closed: {e}",
                            self.id
                        );
                    }
                    if let Err(e) = self.save.release() {
                        eprintln!(
                            "fray serve: table {}: the database did not take back its lease: {e}",
                            self.id
                        );
                    }
                    for c in &self.clients {
                        let _ =
                            c.tx.try_send(json!({"type": "closed", "message": "the GM closed the table"}).to_string());
                    }
                    let _ = reply.send(());
                    return;
                }
            }
        }
    }

    fn send(&mut self, client: u64, text: String) {
        if let Some(c) = self.clients.iter().find(|c| c.id == client)
            && c.tx.try_send(text).is_err()
        {
            // A client that reads nothing is let go; its socket closes when its outbox does.
            self.clients.retain(|c| c.id != client);
        }
    }

    /// Sends every client the frame of its seat, with the log lines it has not had.
    fn broadcast(&mut self) {
        let seats: Vec<u8> = {
            let mut s: Vec<u8> = self.clients.iter().map(|c| c.seat).collect();
            s.sort_unstable();
            s.dedup();
            s
        };
        let mut base: Vec<(u8, Value, String)> = Vec::new();
        for seat in seats {
            let frame = self.frame(seat, usize::MAX);
            let board = self.board(seat);
            base.push((seat, frame, board));
        }
        let mut gone = Vec::new();
        for c in &mut self.clients {
            let Some((_, frame, board)) = base.iter().find(|(s, _, _)| *s == c.seat) else {
                continue;
            };
            let log = &self.logs[usize::from(c.seat)];
            let rest = frame.to_string();
            let board_new = c.board_sent.as_deref() != Some(board.as_str());
            if rest == c.last && !board_new && c.log_sent == log.len() {
                continue;
            }
            let mut f = frame.clone();
            let from = if c.log_sent > log.len() { 0 } else { c.log_sent };
            f["log_from"] = json!(from);
            f["log"] = json!(log[from..]);
            f["step"] = json!(c.frames + 1);
            if board_new {
                f["board"] = serde_json::from_str(board).unwrap_or(Value::Null);
            }
            if c.tx.try_send(f.to_string()).is_err() {
                gone.push(c.id);
            } else {
                c.log_sent = log.len();
                c.last = rest;
                c.frames += 1;
                if board_new {
                    c.board_sent = Some(board.clone());
                }
            }
        }
        self.clients.retain(|c| !gone.contains(&c.id));
    }

    /// The board `seat` is shown, as JSON text.
    fn board(&self, seat: u8) -> String {
        super::board_json(&*self.game, Seat(seat))
    }

    /// The `state` frame of `seat`, with its log from line `log_from` and the board
    /// (`usize::MAX`: neither, the caller adds each client's part).
    fn frame(&self, seat: u8, log_from: usize) -> Value {
        let s = Seat(seat);
        let i = usize::from(seat);
        let pending = self.game.pending_for(s).map(|p| {
            let plays = self.seats.get(i).is_some_and(|x| x.ai);
            let mine = p.deciders.contains(&s) && !plays;
            let choices: Vec<Value> = if mine {
                p.choices
                    .iter()
                    .enumerate()
                    .map(|(k, c)| {
                        json!({
                            "text": c,
                            "note": p.notes.get(k).cloned().flatten(),
                            "rare": p.hidden.get(k).copied().unwrap_or(false),
                        })
                    })
                    .collect()
            } else {
                Vec::new()
            };
            json!({
                "kind": p.kind,
                "prompt": p.prompt,
                "deciding": p.deciders.iter().map(|d| self.game.seat_name(*d)).collect::<Vec<_>>(),
                "mine": mine,
                "choices": choices,
            })
        });
        let seats: Vec<Value> = self
            .seats
            .iter()
            .enumerate()
            .map(|(k, x)| {
                json!({
                    "name": x.name,
                    "ai": x.ai,
                    "clients": self.clients.iter().filter(|c| usize::from(c.seat) == k).count(),
                })
            })
            .collect();
        let mut f = json!({
            "type": "state",
            "view": self.game.view_json(s),
            "pending": pending,
            "seats": seats,
            "dice_wanted": Value::Null,
        });
        if let Some(t) = &self.timer {
            f["timer"] = json!({"seconds": t.seconds});
            if seat == 0 {
                f["timer"]["command"] = json!(t.command);
            }
        }
        if log_from != usize::MAX {
            let log = &self.logs[i];
            let from = log_from.min(log.len());
            f["log_from"] = json!(from);
            f["log"] = json!(log[from..]);
            f["board"] = serde_json::from_str(&self.board(seat)).unwrap_or(Value::Null);
        }
        if seat == 0 {
            f["links"] = json!(self.info().links);
            if let Some(w) = &self.ai_wait {
                f["dice_wanted"] = json!({
                    "seat": self.seats[usize::from(w.seat)].name,
                    "command": Value::Null,
                    "faces_so_far": w.faces,
                    "count": w.wanted.count,
                    "sides": w.wanted.sides,
                    "why": w.wanted.why,
                    "kind": w.wanted.kind,
                    "cards": w.wanted.cards,
                });
            }
            if let Some(t) = &self.ai_trouble {
                f["ai_trouble"] = json!(t);
            }
        }
        f
    }

    fn seat_named(&self, name: &str) -> Result<Seat, Value> {
        self.game.seat_by_name(name).ok_or_else(|| {
            err(
                codes::BAD_SEAT,
                format!(
                    "no seat '{name}' (the seats: {})",
                    self.seats
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
    }

    /// Carries out one client message from `seat`; `Ok` with a note for the client, or the
    /// error frame (nothing changed).
    fn ask(&mut self, seat: Seat, ask: Ask) -> Result<Option<String>, Value> {
        let gm = seat == Seat::GM;
        match ask {
            Ask::Command { text, faces, as_seat } => {
                let by = match as_seat {
                    None => seat,
                    Some(_) if !gm => return Err(err(codes::NOT_GM, "only the GM may answer for another seat")),
                    Some(name) => self.seat_named(&name)?,
                };
                if self.seats[usize::from(by.0)].ai {
                    return Err(err(
                        codes::AI_SEAT,
                        format!(
                            "the AI plays {} now (the GM can take the seat back)",
                            self.seats[usize::from(by.0)].name
                        ),
                    ));
                }
                if faces.is_some() && self.typed.is_none() {
                    return Err(err(
                        codes::BAD_DICE,
                        "this table's dice are rolled by the server: send no faces",
                    ));
                }
                if let Some(d) = &self.typed {
                    d.give(faces.as_deref().unwrap_or(&[]));
                }
                let viewers: Vec<Seat> = (0..self.seats.len()).map(|i| Seat(i as u8)).collect();
                match self.game.submit_for(by, &text, &viewers) {
                    Ok(logs) => {
                        let left = self.typed.as_ref().map_or(0, TypedDice::left);
                        self.accepted(&text, logs)?;
                        Ok((left > 0).then(|| format!("{left} of the faces typed were not needed")))
                    }
                    Err(e) => Err(self.refusal(e)),
                }
            }
            Ask::Undo | Ask::Redo if !gm => Err(err(codes::NOT_GM, "only the GM may undo and redo")),
            Ask::Undo => {
                let last = self.game.last_entry_json();
                match self.game.undo() {
                    Ok(true) => {
                        let Some(last) = last else {
                            return Err(err(codes::INTERNAL, "the command taken back was not in the record"));
                        };
                        let saved = {
                            let _one = writing();
                            self.save.undo(&*self.game, last)
                        };
                        if let Err(e) = saved {
                            return Err(self.store_failed(e));
                        }
                        self.relog();
                        Ok(Some("the last command was taken back".into()))
                    }
                    Ok(false) => Err(err(codes::NOTHING_TO_UNDO, "there is nothing to undo")),
                    Err(e) => Err(err(codes::INTERNAL, format!("undo failed: {e}"))),
                }
            }
            Ask::Redo => {
                let Some(entry) = self.save.undone().last().cloned() else {
                    return Err(err(codes::NOTHING_TO_REDO, "there is nothing to redo"));
                };
                self.redo(&entry)?;
                self.relog();
                Ok(Some("the command undone last was brought back".into()))
            }
            Ask::Ai { .. } | Ask::AiFaces { .. } if !gm => Err(err(codes::NOT_GM, "only the GM hands seats to the AI")),
            Ask::Ai { seat: name, on } => {
                let s = self.seat_named(&name)?;
                self.seats[usize::from(s.0)].ai = on;
                let ai: Vec<u8> = (0..self.seats.len() as u8)
                    .filter(|&k| self.seats[usize::from(k)].ai)
                    .collect();
                self.save
                    .store_mut()
                    .set_table_ai(self.id, &ai)
                    .map_err(|e| err(codes::STORE, e.to_string()))?;
                self.ai_wait = None;
                self.ai_trouble = None;
                Ok(None)
            }
            Ask::AiFaces { faces } => {
                let Some(w) = self.ai_wait.as_mut() else {
                    return Err(err(codes::NO_DICE_WANTED, "no move of the AI is waiting for dice"));
                };
                w.faces = faces;
                Ok(None)
            }
        }
    }

    fn redo(&mut self, entry: &EntryJson) -> Result<(), Value> {
        let record = saves::with_entry(&self.game.record_json(), entry)
            .map_err(|e| err(codes::INTERNAL, format!("redo failed: {e}")))?;
        let mut redone = saves::replay_json("redo", &record).map_err(|e| err(codes::INTERNAL, e.message))?;
        if let Some(d) = &self.typed {
            redone.set_dice(Box::new(d.clone()));
        }
        self.game = redone;
        let saved = {
            let _one = writing();
            self.save.redo(&*self.game)
        };
        if let Err(e) = saved {
            return Err(self.store_failed(e));
        }
        Ok(())
    }

    /// A command was accepted: it is saved (on disk when this returns) and logged; when the
    /// database refuses it, it is taken back in play too, so the table and the database agree.
    fn accepted(&mut self, text: &str, logs: Vec<Vec<LogLine>>) -> Result<(), Value> {
        let saved = {
            let _one = writing();
            self.save.command(&*self.game, text)
        };
        if let Err(e) = saved {
            let _ = self.game.undo();
            return Err(self.refused_by_store(e));
        }
        for (i, l) in logs.iter().enumerate() {
            if let Some(log) = self.logs.get_mut(i) {
                log.extend(lines(l));
            }
        }
        let _ = self.save.carry_out_quietly(&*self.game);
        self.ai_wait = None;
        self.changes += 1;
        Ok(())
    }

    /// The database refused an undo or a redo already made in play: play is rebuilt from what
    /// the database holds.
    fn store_failed(&mut self, e: crate::Fail) -> Value {
        let rebuilt = self
            .save
            .store_mut()
            .record_json(self.id)
            .ok()
            .and_then(|r| saves::replay_json("the saved game", &r).ok());
        if let Some(mut g) = rebuilt {
            if let Some(d) = &self.typed {
                g.set_dice(Box::new(d.clone()));
            }
            self.game = g;
            self.relog();
        }
        self.refused_by_store(e)
    }

    /// The refusal a client gets when the database refused a step: what happened, without the
    /// database's path or its error, which go to the server's own output.
    fn refused_by_store(&self, e: crate::Fail) -> Value {
        eprintln!("fray serve: table {}: {}", self.id, e.message);
        err(
            codes::STORE,
            "the database refused the step, so it was not played (the server's output says why)",
        )
    }

    /// Every seat's log, rebuilt from the record (after an undo or a redo); clients get theirs
    /// whole with the next frame.
    fn relog(&mut self) {
        for (i, log) in self.logs.iter_mut().enumerate() {
            *log = lines(&self.game.log_for(Seat(i as u8))).collect();
        }
        for c in &mut self.clients {
            c.log_sent = usize::MAX;
        }
        self.ai_wait = None;
        self.changes += 1;
    }

    fn refusal(&self, e: SubmitError) -> Value {
        match e {
            SubmitError::Rejected(r) => {
                let code = match r.code {
                    Reject::NOT_YOUR_DECISION => codes::NOT_YOUR_DECISION,
                    Reject::GAME_OVER => codes::GAME_OVER,
                    _ if r.kind == RejectKind::Unreadable => codes::UNREADABLE,
                    _ => codes::REJECTED,
                };
                let mut v = err(code, r.reason);
                v["rule_code"] = json!(r.code);
                v
            }
            SubmitError::Engine(EngineError::Dice(d)) => match self.typed.as_ref().and_then(TypedDice::wanted) {
                Some(w) => {
                    let mut v = err(codes::NEEDS_DICE, format!("this needs more faces: {}", w.words()));
                    v["dice"] = json!(w);
                    v
                }
                None => err(codes::BAD_DICE, d.to_string()),
            },
            SubmitError::Engine(e) => err(codes::INTERNAL, e.to_string()),
        }
    }

    /// The AI answers for every seat it plays while one is deciding.
    fn run_ai(&mut self) {
        let viewers: Vec<Seat> = (0..self.seats.len()).map(|i| Seat(i as u8)).collect();
        for _ in 0..AI_RUN {
            let Some(p) = self.game.pending_for(Seat::GM) else {
                return;
            };
            let Some(seat) = p.deciders.iter().copied().find(|d| self.seats[usize::from(d.0)].ai) else {
                return;
            };
            let before = self.rng.clone();
            if let Some(d) = &self.typed {
                let faces = match &self.ai_wait {
                    Some(w) if w.seat == seat.0 => {
                        self.rng = w.rng.clone();
                        w.faces.clone()
                    }
                    _ => Vec::new(),
                };
                d.give(&faces);
            }
            let rng_used = self.rng.clone();
            match self.game.ai_step_for(seat, &mut self.rng, &viewers) {
                Ok((text, logs)) => {
                    if let Err(e) = self.accepted(&text, logs) {
                        self.ai_trouble = Some(format!(
                            "the AI's move was not kept: {}",
                            e["message"].as_str().unwrap_or("")
                        ));
                        return;
                    }
                }
                Err(SubmitError::Engine(EngineError::Dice(_)))
                    if self.typed.as_ref().and_then(TypedDice::wanted).is_some() =>
                {
                    let wanted = self.typed.as_ref().and_then(TypedDice::wanted);
                    let faces = self.ai_wait.take().map(|w| w.faces).unwrap_or_default();
                    self.rng = before;
                    if let Some(wanted) = wanted {
                        self.ai_wait = Some(AiWait {
                            seat: seat.0,
                            faces,
                            wanted,
                            rng: rng_used,
                        });
                    }
                    return;
                }
                Err(e) => {
                    self.rng = before;
                    self.ai_trouble = Some(format!(
                        "the AI could not answer for {}: {e}",
                        self.seats[usize::from(seat.0)].name
                    ));
                    return;
                }
            }
        }
        self.ai_trouble = Some(format!(
            "the AI answered {AI_RUN} times in a row without the fight ending; it waits for the GM"
        ));
    }
}

/// The seats `words` name, added to `ai`.
fn ai_seats(game: &dyn AnyGame, words: &[String], mut ai: Vec<u8>) -> Result<Vec<u8>, OpenError> {
    for w in words {
        let s = game.seat_by_name(w).ok_or_else(|| {
            OpenError::new(
                400,
                codes::BAD_SEAT,
                format!("no seat '{w}' (the seats: {})", game.seat_names().join(", ")),
            )
        })?;
        if !ai.contains(&s.0) {
            ai.push(s.0);
        }
    }
    Ok(ai)
}

/// One table writes to the database at a time. Each table has its own connection, and SQLite
/// makes a writer that finds the lock taken sleep and try again: under load (200 tables) a few
/// tables lost every try until the busy timeout refused their step. Taking turns here keeps
/// every step (measured in docs/serve-load.md).
fn writing() -> std::sync::MutexGuard<'static, ()> {
    static WRITE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    WRITE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// An error frame.
pub fn err(code: &str, message: impl Into<String>) -> Value {
    json!({"type": "error", "id": Value::Null, "code": code, "message": message.into()})
}
