//! A load benchmark of `fray serve` (a measurement, not a CI gate): many tables at once, three
//! websocket clients at each, every client answering whenever it is asked, for a bounded time.
//!
//! It builds nothing: it runs the release binary (`cargo build --release -p fray` first) as
//! `fray serve --db TEMP/load.db --addr 127.0.0.1:0`, opens the tables through
//! `POST /api/tables` (encounters of five rulesets, each with its own seed, no seat played by
//! the AI), connects the GM and two player seats of each table and lets them play: a client
//! whose latest `state` frame has `pending.mine` with choices sends one of them (a seeded random
//! pick, answers marked `rare` only when there is nothing else) and times it from the send to
//! its `ok` or `error` frame. When a fight is over the GM takes back a few steps (`undo`), so
//! the play goes on for the whole run. A client sends at most `FRAY_LOAD_RATE` commands a
//! second (10 by default; the server lets a client send 20, with a burst of 40).
//!
//! It reports the commands sent, their latency (p50, p90, p99, max), the errors by code, the
//! connections that failed or were dropped, and the server's memory (VmRSS, VmHWM) at start,
//! after opening the tables, after connecting the clients and at the end; with
//! `FRAY_LOAD_JSON=path` the same as JSON. docs/serve-load.md says how to run it and what it
//! measured.
//!
//! Settings (environment): `FRAY_LOAD_TABLES` (200), `FRAY_LOAD_SECS` (30), `FRAY_LOAD_RATE`
//! (10 commands a second per client), `FRAY_LOAD_SEED` (1), `FRAY_LOAD_ENCOUNTERS` (a comma-
//! separated list of encounter files instead of the five), `FRAY_LOAD_JSON` (a path),
//! `FRAY_LOAD_KEEP` (keep the temporary folder with the database and the server's stderr),
//! `FRAY_LOAD_TRACE` (print the frames a client had before each refusal the bench cannot
//! explain).
//!
//! The clients are threads of this process, so on a small machine they take CPU from the
//! server: the latencies are those a client of this process saw, which includes its own wait
//! to be scheduled.

use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier, mpsc};
use std::time::{Duration, Instant, SystemTime};
use tungstenite::{Message, WebSocket};

/// The encounters the tables are spread over, one ruleset each.
const ENCOUNTERS: &[&str] = &[
    "examples/murdham/crossroads.toml",
    "examples/einfelst/ford.toml",
    "examples/thrum/duel.toml",
    "examples/ingenuity/ambush.toml",
    "examples/hallowed-earth/duel.toml",
];

/// Clients per table: the GM and the next two seats.
const CLIENTS_PER_TABLE: usize = 3;

/// How long a client waits for the answer to a message still unanswered when the time is up.
const GRACE: Duration = Duration::from_secs(5);

/// How long a decision may wait on a seat nobody is connected to before the table counts as
/// stalled.
const STALL: Duration = Duration::from_secs(5);

/// How long a client's read waits when it has nothing to send.
const IDLE_READ: Duration = Duration::from_millis(200);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("serve_load: {message}");
    std::process::exit(2)
}

fn setting<T: FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Err(_) => default,
        Ok(v) if v.trim().is_empty() => default,
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| fail(format_args!("{name}={v}: not a number"))),
    }
}

fn flag(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0")
}

struct Config {
    tables: usize,
    secs: f64,
    rate: f64,
    seed: u64,
    json: Option<PathBuf>,
    keep: bool,
    encounters: Vec<String>,
    trace: bool,
}

impl Config {
    fn read() -> Config {
        let c = Config {
            tables: setting("FRAY_LOAD_TABLES", 200),
            secs: setting("FRAY_LOAD_SECS", 30.0),
            rate: setting("FRAY_LOAD_RATE", 10.0),
            seed: setting("FRAY_LOAD_SEED", 1),
            json: std::env::var_os("FRAY_LOAD_JSON")
                .filter(|p| !p.is_empty())
                .map(PathBuf::from),
            keep: flag("FRAY_LOAD_KEEP"),
            encounters: match std::env::var("FRAY_LOAD_ENCOUNTERS") {
                Ok(list) if !list.trim().is_empty() => list.split(',').map(|e| e.trim().to_string()).collect(),
                _ => ENCOUNTERS.iter().map(|e| e.to_string()).collect(),
            },
            trace: flag("FRAY_LOAD_TRACE"),
        };
        if c.tables == 0 || c.secs <= 0.0 || c.rate <= 0.0 {
            fail("FRAY_LOAD_TABLES, FRAY_LOAD_SECS and FRAY_LOAD_RATE must be above 0");
        }
        c
    }
}

/// The release binary, or a clear word on how to make it.
fn binary() -> PathBuf {
    let target = match std::env::var_os("CARGO_TARGET_DIR").filter(|t| !t.is_empty()) {
        Some(t) => {
            let t = PathBuf::from(t);
            if t.is_absolute() { t } else { root().join(t) }
        }
        None => root().join("target"),
    };
    let bin = target.join("release").join("fray");
    if !bin.is_file() {
        fail(format_args!(
            "{} is missing: this bench runs the release binary and builds nothing itself; \
             run `cargo build --release -p fray` first (with the same CARGO_TARGET_DIR)",
            bin.display()
        ));
    }
    // A binary older than the server's sources measures an older server: say so.
    let built = std::fs::metadata(&bin).and_then(|m| m.modified()).ok();
    let newest = std::fs::read_dir(root().join("crates/cli/src/serve"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.metadata().and_then(|m| m.modified()).ok())
        .max();
    if let (Some(b), Some(n)) = (built, newest)
        && n > b
    {
        eprintln!(
            "serve_load: warning: {} is older than crates/cli/src/serve: `cargo build --release -p fray` to measure the current server",
            bin.display()
        );
    }
    bin
}

/// The server's process; killed when this is dropped (also when the bench panics).
struct Server {
    child: Child,
    addr: SocketAddr,
    key: String,
    stderr: PathBuf,
    /// The server's stdout lines, as they come.
    lines: mpsc::Receiver<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(bin: &Path, dir: &Path) -> Server {
        let stderr_path = dir.join("server.stderr");
        let stderr = std::fs::File::create(&stderr_path)
            .unwrap_or_else(|e| fail(format_args!("cannot make {}: {e}", stderr_path.display())));
        let mut child = Command::new(bin)
            .arg("serve")
            .arg("--db")
            .arg(dir.join("load.db"))
            .args(["--addr", "127.0.0.1:0"])
            .current_dir(root())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap_or_else(|e| fail(format_args!("cannot run {}: {e}", bin.display())));
        let stdout = child.stdout.take().expect("the server's stdout is piped");
        // The lines are read on a thread of their own, which goes on reading (so the server
        // never blocks on a full pipe) after the first two.
        let (tx, rx) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let mut server = Server {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            key: String::new(),
            stderr: stderr_path,
            lines: rx,
        };
        let mut addr = None;
        let mut key = None;
        let until = Instant::now() + Duration::from_secs(30);
        while addr.is_none() || key.is_none() {
            let left = until.saturating_duration_since(Instant::now());
            let line = match server.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(_) => {
                    let status = server.child.try_wait().ok().flatten();
                    fail(format_args!(
                        "the server did not print its address and GM key{}; its stderr:\n{}",
                        status.map(|s| format!(" (it exited: {s})")).unwrap_or_default(),
                        server.stderr_tail(20)
                    ))
                }
            };
            if let Some(rest) = line.strip_prefix("fray serve: listening on http://") {
                let a = rest.split_whitespace().next().unwrap_or("");
                addr = Some(
                    a.parse::<SocketAddr>()
                        .unwrap_or_else(|_| fail(format_args!("cannot read the address in: {line}"))),
                );
            } else if let Some(rest) = line.strip_prefix("GM lobby: http://") {
                key = rest.split_once("/#key=").map(|(_, k)| k.trim().to_string());
            }
        }
        server.addr = addr.expect("read above");
        server.key = key.expect("read above");
        server
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What the server printed after its first lines (its note on the lobby left out).
    fn later_lines(&self) -> Vec<String> {
        self.lines
            .try_iter()
            .filter(|l| !l.starts_with("(open the lobby"))
            .collect()
    }

    fn stderr_tail(&self, n: usize) -> String {
        let text = std::fs::read_to_string(&self.stderr).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(n)..].join("\n")
    }
}

/// The server's memory, threads and CPU time at one moment.
#[derive(Clone, Debug, Default)]
struct Sample {
    rss_kib: u64,
    hwm_kib: u64,
    threads: u64,
    cpu_secs: f64,
}

/// `/proc/PID/status` and `/proc/PID/stat` of a process (zeros where they cannot be read).
fn sample(pid: &str) -> Sample {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // After the command's name (in parentheses), utime and stime are the 12th and 13th fields,
    // in clock ticks (USER_HZ, 100 a second on Linux).
    let ticks: u64 = stat
        .rsplit_once(')')
        .map(|(_, rest)| {
            rest.split_whitespace()
                .skip(11)
                .take(2)
                .filter_map(|v| v.parse::<u64>().ok())
                .sum()
        })
        .unwrap_or(0);
    Sample {
        rss_kib: field("VmRSS:"),
        hwm_kib: field("VmHWM:"),
        threads: field("Threads:"),
        cpu_secs: ticks as f64 / 100.0,
    }
}

/// One HTTP/1.1 request (one connection each); the status and the JSON body.
fn http(addr: SocketAddr, method: &str, path: &str, key: &str, body: Option<&Value>) -> Result<(u16, Value), String> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).map_err(|e| format!("connect: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|e| format!("socket: {e}"))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).map_err(|e| format!("send: {e}"))?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| "an answer without headers".to_string())?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse::<u16>().ok())
        .ok_or_else(|| format!("no status in '{}'", head.lines().next().unwrap_or("")))?;
    let chunked = head.lines().any(|l| {
        l.to_ascii_lowercase().starts_with("transfer-encoding:") && l.to_ascii_lowercase().contains("chunked")
    });
    let body = if chunked { unchunk(rest) } else { rest.to_string() };
    let v = serde_json::from_str(&body).map_err(|e| format!("status {status}, a body that is not JSON ({e})"))?;
    Ok((status, v))
}

/// A chunked body, joined.
fn unchunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

/// A small seeded generator (SplitMix64) for the clients' picks.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// An open table, as the bench uses it.
struct Table {
    game: i64,
    ruleset: String,
    /// (seat, token), the GM first.
    seats: Vec<(String, String)>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// Seat 0: plays its own decisions and takes steps back when a fight is over.
    Gm,
    /// A player seat: plays its own decisions.
    Player,
    /// A second client of a seat already played (a table with fewer than three seats): reads
    /// its frames and sends nothing.
    Watcher,
}

struct ClientSpec {
    table: usize,
    ruleset: String,
    role: Role,
    token: String,
    seed: u64,
    /// Whether the table's GM is taking steps back (shared by the table's clients).
    undoing: Arc<AtomicBool>,
    /// Print the frames before each refused command (`FRAY_LOAD_TRACE`).
    trace: bool,
    game: i64,
    seat: String,
}

/// What one client saw.
#[derive(Default)]
struct Stats {
    ruleset: String,
    connected: bool,
    /// Why it could not connect (by cause).
    connect_failed: Option<String>,
    /// It lost its connection during the run (and why).
    dropped: Option<String>,
    commands: u64,
    /// Microseconds from each command's send to its answer.
    latency_us: Vec<u64>,
    undos: u64,
    undo_latency_us: Vec<u64>,
    errors: BTreeMap<String, u64>,
    /// Of those, the errors of commands sent or answered while the table's GM was taking steps
    /// back: the command may answer a position that the undo has just replaced.
    errors_in_undo: u64,
    /// The first error of each code: its message and what was sent.
    examples: BTreeMap<String, String>,
    unanswered: u64,
    frames: u64,
    frame_bytes: u64,
    fights_over: u64,
    /// The GM saw its table wait on a seat nobody is connected to.
    stalled: bool,
}

/// What a client is waiting for the answer to.
enum Outstanding {
    Command(i64, Instant),
    Undo(i64, Instant),
}

impl Outstanding {
    fn id(&self) -> i64 {
        match self {
            Outstanding::Command(id, _) | Outstanding::Undo(id, _) => *id,
        }
    }
}

fn is_timeout(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(io) if matches!(io.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut))
}

type Socket = WebSocket<TcpStream>;

/// Connects, says hello and reads the welcome.
fn connect(addr: SocketAddr, token: &str) -> Result<Socket, String> {
    let stream =
        TcpStream::connect_timeout(&addr, Duration::from_secs(10)).map_err(|e| format!("tcp: {}", e.kind()))?;
    stream.set_nodelay(true).map_err(|e| format!("tcp: {}", e.kind()))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .map_err(|e| format!("tcp: {}", e.kind()))?;
    let (mut ws, _) = tungstenite::client(format!("ws://{addr}/ws"), stream).map_err(|e| match e {
        tungstenite::HandshakeError::Failure(e) => format!("handshake: {e}"),
        tungstenite::HandshakeError::Interrupted(_) => "handshake: timed out".to_string(),
    })?;
    ws.send(Message::text(json!({"type": "hello", "token": token}).to_string()))
        .map_err(|e| format!("hello: {e}"))?;
    loop {
        let m = ws.read().map_err(|e| {
            if is_timeout(&e) {
                "welcome: timed out".to_string()
            } else {
                format!("welcome: {e}")
            }
        })?;
        let Message::Text(t) = m else { continue };
        let v: Value = serde_json::from_str(t.as_str()).map_err(|_| "welcome: not JSON".to_string())?;
        match v["type"].as_str() {
            Some("welcome") => return Ok(ws),
            Some("error") => return Err(format!("refused: {}", v["code"].as_str().unwrap_or("?"))),
            _ => continue,
        }
    }
}

/// A client's picture of its table while it plays.
struct Play<'a> {
    spec: &'a ClientSpec,
    st: Stats,
    started: Instant,
    /// The latest `state` frame's `pending` and `seats`.
    pending: Value,
    seats: Value,
    have_state: bool,
    /// Whether `pending` is the position now (false from an `ok` until the frame that follows).
    fresh: bool,
    outstanding: Option<Outstanding>,
    last_text: String,
    sent_in_undo: bool,
    /// The GM's steps still to take back, and whether an undo was refused (then it takes no
    /// more: the fight, if over, stays over).
    undos_left: u32,
    undo_refused: bool,
    /// The last frames, in short, for `FRAY_LOAD_TRACE`.
    recent: VecDeque<String>,
}

impl Play<'_> {
    fn ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1000.0
    }

    /// What to send now, if anything: `Some(None)` an undo, `Some(Some(text))` a command.
    fn choose(&mut self, rng: &mut Rng) -> Option<Option<String>> {
        if self.spec.role == Role::Gm && !self.undo_refused && (self.undos_left > 0 || self.pending.is_null()) {
            if self.undos_left == 0 {
                self.st.fights_over += 1;
                self.undos_left = 1 + rng.below(3) as u32;
                self.spec.undoing.store(true, Ordering::Relaxed);
            }
            return Some(None);
        }
        if self.pending["mine"] != true {
            return None;
        }
        let choices = self.pending["choices"].as_array()?;
        let usual: Vec<&Value> = choices.iter().filter(|c| c["rare"] != true).collect();
        let from: Vec<&Value> = if usual.is_empty() {
            choices.iter().collect()
        } else {
            usual
        };
        if from.is_empty() {
            return None;
        }
        Some(Some(
            from[rng.below(from.len())]["text"].as_str().unwrap_or("").to_string(),
        ))
    }

    /// Whether a decision has waited on a seat nobody is connected to.
    fn waits_on_an_empty_seat(&self) -> bool {
        let deciding: Vec<&str> = self.pending["deciding"]
            .as_array()
            .map(|d| d.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        self.seats.as_array().is_some_and(|s| {
            s.iter()
                .any(|x| x["clients"] == 0 && deciding.contains(&x["name"].as_str().unwrap_or("")))
        })
    }

    /// Takes in one frame; `Err` when the table has closed.
    fn on_frame(&mut self, text: &str) -> Result<(), String> {
        self.st.frames += 1;
        self.st.frame_bytes += text.len() as u64;
        let Ok(v) = serde_json::from_str::<Value>(text) else {
            *self.st.errors.entry("(frame not JSON)".into()).or_default() += 1;
            return Ok(());
        };
        if self.spec.trace {
            self.remember(&v);
        }
        match v["type"].as_str() {
            Some("state") => {
                self.pending = v["pending"].clone();
                self.seats = v["seats"].clone();
                self.have_state = true;
                self.fresh = true;
            }
            Some(kind @ ("ok" | "error")) => {
                if kind == "error" {
                    self.count_error(&v);
                }
                // An error frame without an id (rate-limited) answers the one message in flight.
                let answers = self
                    .outstanding
                    .as_ref()
                    .is_some_and(|o| v["id"].as_i64() == Some(o.id()) || (kind == "error" && v["id"].is_null()));
                if answers && let Some(o) = self.outstanding.take() {
                    match o {
                        Outstanding::Command(_, at) => {
                            self.st.latency_us.push(at.elapsed().as_micros() as u64);
                            if kind == "error" && (self.sent_in_undo || self.spec.undoing.load(Ordering::Relaxed)) {
                                self.st.errors_in_undo += 1;
                            }
                        }
                        Outstanding::Undo(_, at) => {
                            self.st.undo_latency_us.push(at.elapsed().as_micros() as u64);
                            if kind == "ok" {
                                self.undos_left = self.undos_left.saturating_sub(1);
                            } else {
                                self.undos_left = 0;
                                self.undo_refused = true;
                            }
                            if self.undos_left == 0 {
                                self.spec.undoing.store(false, Ordering::Relaxed);
                            }
                        }
                    }
                    // The server sends the frames a message caused before its ok, so the
                    // latest frame holds after an ok as after an error.
                    self.fresh = true;
                }
            }
            Some("closed") => return Err("the table was closed".into()),
            _ => {}
        }
        Ok(())
    }

    fn count_error(&mut self, v: &Value) {
        let code = v["code"].as_str().unwrap_or("?").to_string();
        let (role, ruleset, text) = (self.spec.role, &self.spec.ruleset, &self.last_text);
        self.st.examples.entry(code.clone()).or_insert_with(|| {
            format!(
                "{} (the {role:?} of a {ruleset} table sent '{text}')",
                v["message"].as_str().unwrap_or("")
            )
        });
        if self.spec.trace && code != "store" && !self.sent_in_undo && !self.spec.undoing.load(Ordering::Relaxed) {
            eprintln!(
                "serve_load trace: game {} seat {} ({:?}) sent '{text}'; the frames it had:\n  {}",
                self.spec.game,
                self.spec.seat,
                role,
                self.recent.iter().cloned().collect::<Vec<_>>().join("\n  ")
            );
        }
        *self.st.errors.entry(code).or_default() += 1;
    }

    fn remember(&mut self, v: &Value) {
        let short = match v["type"].as_str() {
            Some("state") => format!(
                "state step {} log_from {} (+{} lines) pending {}",
                v["step"],
                v["log_from"],
                v["log"].as_array().map_or(0, Vec::len),
                json!({
                    "prompt": v["pending"]["prompt"],
                    "deciding": v["pending"]["deciding"],
                    "mine": v["pending"]["mine"],
                    "choices": v["pending"]["choices"].as_array().map(|c| c.iter().map(|x| x["text"].clone()).collect::<Vec<_>>()),
                })
            ),
            _ => v.to_string(),
        };
        let line = format!("{:>8.1} ms  {short}", self.ms());
        self.recent.push_back(line);
        if self.recent.len() > 8 {
            self.recent.pop_front();
        }
    }
}

/// Reads one message (waiting at most the socket's read timeout): `Ok(true)` when a text frame
/// was taken in, `Err` when the connection has ended.
fn read_one(ws: &mut Socket, play: &mut Play) -> Result<bool, String> {
    match ws.read() {
        Ok(Message::Text(t)) => play.on_frame(t.as_str()).map(|()| true),
        Ok(Message::Close(_)) => Err("closed by the server".into()),
        Ok(_) => Ok(false),
        Err(e) if is_timeout(&e) => Ok(false),
        Err(e) => Err(format!("read: {e}")),
    }
}

/// Takes in every frame that has already come, without waiting: `Ok(true)` when there was one
/// (then what to send may have changed).
fn drain(ws: &mut Socket, play: &mut Play) -> Result<bool, String> {
    ws.get_mut().set_nonblocking(true).map_err(|e| format!("socket: {e}"))?;
    let mut any = false;
    let result = loop {
        match read_one(ws, play) {
            Ok(true) => any = true,
            Ok(false) => break Ok(any),
            Err(e) => break Err(e),
        }
    };
    ws.get_mut()
        .set_nonblocking(false)
        .map_err(|e| format!("socket: {e}"))?;
    result
}

/// One client: connects, waits for the others, then plays until `secs` have passed.
fn client(
    spec: ClientSpec,
    addr: SocketAddr,
    secs: f64,
    rate: f64,
    start: Arc<Barrier>,
    sent: Arc<AtomicU64>,
) -> Stats {
    let socket = connect(addr, &spec.token);
    start.wait();
    let mut p = Play {
        spec: &spec,
        st: Stats {
            ruleset: spec.ruleset.clone(),
            ..Stats::default()
        },
        started: Instant::now(),
        pending: Value::Null,
        seats: Value::Null,
        have_state: false,
        fresh: false,
        outstanding: None,
        last_text: String::new(),
        sent_in_undo: false,
        undos_left: 0,
        undo_refused: false,
        recent: VecDeque::new(),
    };
    let mut ws = match socket {
        Ok(ws) => ws,
        Err(why) => {
            p.st.connect_failed = Some(why);
            return p.st;
        }
    };
    p.st.connected = true;
    let deadline = p.started + Duration::from_secs_f64(secs);
    let gap = Duration::from_secs_f64(1.0 / rate);
    let mut rng = Rng(spec.seed);
    let mut next_id = 1i64;
    let mut last_send: Option<Instant> = None;
    let mut stall_since: Option<Instant> = None;
    let mut timeout = Duration::ZERO;
    loop {
        let now = Instant::now();
        if now >= deadline && p.outstanding.is_none() {
            break;
        }
        if now >= deadline + GRACE {
            p.st.unanswered += 1;
            break;
        }
        if spec.role == Role::Gm && p.have_state && !p.st.stalled {
            // A decision waits on a seat with no client (for a while: the first frames come
            // before every client has joined): nobody here will answer it.
            match (p.waits_on_an_empty_seat(), stall_since) {
                (false, _) => stall_since = None,
                (true, None) => stall_since = Some(now),
                (true, Some(t)) => p.st.stalled = now.duration_since(t) > STALL,
            }
        }
        let mut read_for = IDLE_READ;
        let may_act =
            p.outstanding.is_none() && now < deadline && p.fresh && p.have_state && spec.role != Role::Watcher;
        let due = last_send.map_or(now, |l| l + gap);
        if may_act && due > now {
            // Asked, perhaps, but not yet allowed to send again: look again when it is.
            read_for = (due - now).clamp(Duration::from_millis(1), IDLE_READ);
        } else if may_act {
            // Frames that have come already (a client that was not scheduled for a while has
            // some) may change what to send: the choice is made on the latest one.
            match drain(&mut ws, &mut p) {
                Err(why) => {
                    p.st.dropped = Some(why);
                    break;
                }
                Ok(true) => continue,
                Ok(false) => {}
            }
            if let Some(w) = p.choose(&mut rng) {
                let id = next_id;
                next_id += 1;
                let msg = match &w {
                    Some(text) => json!({"type": "command", "id": id, "text": text}),
                    None => json!({"type": "undo", "id": id}),
                };
                p.last_text = w.clone().unwrap_or_else(|| "undo".into());
                let at = Instant::now();
                if let Err(e) = ws.send(Message::text(msg.to_string())) {
                    p.st.dropped = Some(format!("send: {e}"));
                    break;
                }
                last_send = Some(at);
                p.sent_in_undo = spec.undoing.load(Ordering::Relaxed);
                p.outstanding = Some(match w {
                    Some(_) => {
                        p.st.commands += 1;
                        sent.fetch_add(1, Ordering::Relaxed);
                        Outstanding::Command(id, at)
                    }
                    None => {
                        p.st.undos += 1;
                        Outstanding::Undo(id, at)
                    }
                });
            }
        }
        if read_for != timeout {
            if ws.get_mut().set_read_timeout(Some(read_for)).is_err() {
                p.st.dropped = Some("socket: cannot set a read timeout".into());
                break;
            }
            timeout = read_for;
        }
        if let Err(why) = read_one(&mut ws, &mut p) {
            p.st.dropped = Some(why);
            break;
        }
    }
    let _ = ws.close(None);
    let _ = ws.flush();
    p.st
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1] as f64 / 1000.0
}

/// p50, p90, p99 and max (ms) of latencies in microseconds.
fn spread(mut us: Vec<u64>) -> Value {
    us.sort_unstable();
    json!({
        "count": us.len(),
        "p50_ms": percentile(&us, 0.50),
        "p90_ms": percentile(&us, 0.90),
        "p99_ms": percentile(&us, 0.99),
        "max_ms": us.last().map_or(0.0, |m| *m as f64 / 1000.0),
    })
}

fn sample_json(s: &Sample) -> Value {
    json!({"vm_rss_kib": s.rss_kib, "vm_hwm_kib": s.hwm_kib, "threads": s.threads, "cpu_secs": s.cpu_secs})
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

fn file_size(p: &Path) -> u64 {
    std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)
}

fn main() {
    // `cargo bench` passes `--bench` (and a filter, if given): nothing here takes arguments.
    let cfg = Config::read();
    let bin = binary();
    let stamp = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("fray-load-{}-{stamp}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(format_args!("cannot make {}: {e}", dir.display())));

    let mut server = Server::start(&bin, &dir);
    let pid = server.pid().to_string();
    let me = std::process::id().to_string();
    eprintln!(
        "serve_load: {} serving at {} (database {}): {} tables, {} s",
        bin.display(),
        server.addr,
        dir.join("load.db").display(),
        cfg.tables,
        cfg.secs
    );
    let at_start = sample(&pid);

    // The tables, one at a time (the server opens them one at a time anyway).
    let mut tables = Vec::new();
    let mut open_us = Vec::new();
    let mut open_failed: BTreeMap<String, u64> = BTreeMap::new();
    let opening = Instant::now();
    for i in 0..cfg.tables {
        let encounter = &cfg.encounters[i % cfg.encounters.len()];
        let seed = cfg.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        let body = json!({"encounter": encounter, "seed": seed, "dice": "server", "ai": []});
        let t = Instant::now();
        match http(server.addr, "POST", "/api/tables", &server.key, Some(&body)) {
            Ok((200, v)) => {
                open_us.push(t.elapsed().as_micros() as u64);
                let seats = v["links"]
                    .as_array()
                    .map(|l| {
                        l.iter()
                            .map(|x| {
                                (
                                    x["seat"].as_str().unwrap_or("").to_string(),
                                    x["token"].as_str().unwrap_or("").to_string(),
                                )
                            })
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default();
                if seats.is_empty() {
                    *open_failed.entry("(no links in the answer)".into()).or_default() += 1;
                    continue;
                }
                tables.push(Table {
                    game: v["game"].as_i64().unwrap_or(0),
                    ruleset: v["ruleset"].as_str().unwrap_or("?").to_string(),
                    seats,
                });
            }
            Ok((status, v)) => {
                let code = format!("{status} {}", v["error"].as_str().unwrap_or("?"));
                if open_failed.is_empty() {
                    eprintln!(
                        "serve_load: opening {encounter} failed: {code}: {}",
                        v["message"].as_str().unwrap_or("")
                    );
                }
                *open_failed.entry(code).or_default() += 1;
            }
            Err(e) => {
                if open_failed.is_empty() {
                    eprintln!("serve_load: opening {encounter} failed: {e}");
                }
                *open_failed.entry("(no answer)".into()).or_default() += 1;
            }
        }
    }
    let opening_secs = opening.elapsed().as_secs_f64();
    let after_open = sample(&pid);
    if tables.is_empty() {
        fail(format_args!(
            "no table opened ({open_failed:?}); the server's stderr:\n{}",
            server.stderr_tail(20)
        ));
    }
    let mut seat_lists: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for t in &tables {
        seat_lists
            .entry(t.ruleset.clone())
            .or_insert_with(|| t.seats.iter().map(|(s, _)| s.clone()).collect());
    }
    eprintln!(
        "serve_load: {} tables open in {opening_secs:.1} s (games {}..={}); seats: {}",
        tables.len(),
        tables.first().map_or(0, |t| t.game),
        tables.last().map_or(0, |t| t.game),
        seat_lists
            .iter()
            .map(|(r, s)| format!("{r} [{}]", s.join(", ")))
            .collect::<Vec<_>>()
            .join("; ")
    );

    // The clients: the GM and the next two seats of each table (a second client of the last
    // seat, watching, where a table has only two).
    let mut specs = Vec::new();
    for (ti, t) in tables.iter().enumerate() {
        let undoing = Arc::new(AtomicBool::new(false));
        for k in 0..CLIENTS_PER_TABLE {
            let (role, seat) = match (k, t.seats.get(k)) {
                (0, Some(s)) => (Role::Gm, s),
                (_, Some(s)) => (Role::Player, s),
                (_, None) => (Role::Watcher, t.seats.last().expect("a table has seats")),
            };
            specs.push(ClientSpec {
                table: ti,
                ruleset: t.ruleset.clone(),
                role,
                token: seat.1.clone(),
                seed: cfg.seed ^ (((ti as u64) << 8) | k as u64).wrapping_mul(0x2545_f491_4f6c_dd1d),
                undoing: Arc::clone(&undoing),
                trace: cfg.trace,
                game: t.game,
                seat: seat.0.clone(),
            });
        }
    }
    let n_clients = specs.len();
    let watchers = specs.iter().filter(|s| s.role == Role::Watcher).count();
    let start = Arc::new(Barrier::new(n_clients + 1));
    let sent = Arc::new(AtomicU64::new(0));
    let me_before = sample(&me);
    let mut handles = Vec::new();
    for spec in specs {
        let (start, sent) = (Arc::clone(&start), Arc::clone(&sent));
        let addr = server.addr;
        let (secs, rate) = (cfg.secs, cfg.rate);
        let table = spec.table;
        let h = std::thread::Builder::new()
            .name(format!("load-{table}"))
            .stack_size(256 * 1024)
            .spawn(move || client(spec, addr, secs, rate, start, sent))
            .unwrap_or_else(|e| fail(format_args!("cannot start a client thread: {e}")));
        handles.push(h);
    }
    start.wait();
    let began = Instant::now();
    let after_connect = sample(&pid);
    let deadline = began + Duration::from_secs_f64(cfg.secs);
    let mut last = 0;
    while Instant::now() < deadline {
        std::thread::sleep(
            deadline
                .saturating_duration_since(Instant::now())
                .min(Duration::from_secs(5)),
        );
        let now = sent.load(Ordering::Relaxed);
        let s = sample(&pid);
        eprintln!(
            "serve_load: {:>5.1} s: {now} commands ({:.0}/s lately), server VmRSS {}",
            began.elapsed().as_secs_f64(),
            (now - last) as f64 / 5.0,
            mib(s.rss_kib)
        );
        last = now;
    }
    let at_end = sample(&pid);
    let stats: Vec<Stats> = handles
        .into_iter()
        .map(|h| h.join().expect("a client thread panicked"))
        .collect();
    let ran = began.elapsed().as_secs_f64();
    let me_after = sample(&me);
    let alive = server.child_status().is_none();
    let db = dir.join("load.db");
    let db_bytes = file_size(&db);
    let wal_bytes = file_size(&dir.join("load.db-wal"));
    let stderr_tail = server.stderr_tail(10);
    let stderr_bytes = file_size(&server.stderr);
    let stdout_lines = server.later_lines();
    drop(server);

    // The sums.
    let connected = stats.iter().filter(|s| s.connected).count();
    let mut connect_failed: BTreeMap<String, u64> = BTreeMap::new();
    let mut dropped: BTreeMap<String, u64> = BTreeMap::new();
    let mut errors: BTreeMap<String, u64> = BTreeMap::new();
    let mut examples: BTreeMap<String, String> = BTreeMap::new();
    let mut latency = Vec::new();
    let mut undo_latency = Vec::new();
    let mut by_ruleset: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let (mut commands, mut undos, mut unanswered, mut frames, mut frame_bytes, mut fights) = (0, 0, 0, 0, 0, 0);
    let mut stalled = 0;
    let mut errors_in_undo = 0;
    for s in &stats {
        if let Some(w) = &s.connect_failed {
            *connect_failed.entry(w.clone()).or_default() += 1;
        }
        if let Some(w) = &s.dropped {
            *dropped.entry(w.clone()).or_default() += 1;
        }
        for (c, n) in &s.errors {
            *errors.entry(c.clone()).or_default() += n;
        }
        errors_in_undo += s.errors_in_undo;
        for (c, m) in &s.examples {
            examples.entry(c.clone()).or_insert_with(|| m.clone());
        }
        commands += s.commands;
        undos += s.undos;
        unanswered += s.unanswered;
        frames += s.frames;
        frame_bytes += s.frame_bytes;
        fights += s.fights_over;
        stalled += usize::from(s.stalled);
        latency.extend_from_slice(&s.latency_us);
        undo_latency.extend_from_slice(&s.undo_latency_us);
        by_ruleset
            .entry(s.ruleset.clone())
            .or_default()
            .extend_from_slice(&s.latency_us);
    }
    let lat = spread(latency);
    let undo_lat = spread(undo_latency);
    let open_lat = spread(open_us);
    let per_ruleset: BTreeMap<String, Value> = by_ruleset.into_iter().map(|(r, l)| (r, spread(l))).collect();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let server_cpu = at_end.cpu_secs - after_connect.cpu_secs;
    let bench_cpu = me_after.cpu_secs - me_before.cpu_secs;

    let report = json!({
        "date_unix": stamp / 1000,
        "cores": cores,
        "tables": tables.len(),
        "tables_asked": cfg.tables,
        "encounters": cfg.encounters,
        "seats": seat_lists,
        "clients": n_clients,
        "watchers": watchers,
        "secs": ran,
        "rate_per_client": cfg.rate,
        "seed": cfg.seed,
        "open": {"secs": opening_secs, "latency": open_lat, "failed": open_failed},
        "commands": commands,
        "commands_per_sec": commands as f64 / ran,
        "latency": lat,
        "latency_by_ruleset": per_ruleset,
        "undos": undos,
        "undo_latency": undo_lat,
        "fights_over": fights,
        "errors": errors,
        "errors_while_the_gm_undid": errors_in_undo,
        "error_examples": examples,
        "unanswered": unanswered,
        "connected": connected,
        "connect_failed": connect_failed,
        "dropped": dropped,
        "stalled_tables": stalled,
        "frames": frames,
        "frame_bytes": frame_bytes,
        "memory": {
            "start": sample_json(&at_start),
            "tables_open": sample_json(&after_open),
            "clients_connected": sample_json(&after_connect),
            "end": sample_json(&at_end),
        },
        "server_cpu_secs": server_cpu,
        "bench_cpu_secs": bench_cpu,
        "db_bytes": db_bytes,
        "wal_bytes": wal_bytes,
        "server_alive_at_end": alive,
        "server_stderr_bytes": stderr_bytes,
        "server_stdout_lines": stdout_lines.len(),
    });

    // The text table.
    let ms = |v: &Value, k: &str| v[k].as_f64().unwrap_or(0.0);
    let counts = |m: &BTreeMap<String, u64>| {
        if m.is_empty() {
            "none".to_string()
        } else {
            m.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
        }
    };
    println!();
    println!(
        "fray serve under load: {} tables, {} clients ({} watching), {:.1} s, {} cores, at most {} commands/s a client",
        tables.len(),
        n_clients,
        watchers,
        ran,
        cores,
        cfg.rate
    );
    println!(
        "  tables opened       {} in {:.1} s (p50 {:.1} ms, max {:.1} ms); failed: {}",
        tables.len(),
        opening_secs,
        ms(&open_lat, "p50_ms"),
        ms(&open_lat, "max_ms"),
        counts(&open_failed)
    );
    println!(
        "  commands            {commands} sent, {:.0}/s; {fights} fights over, {undos} undos",
        commands as f64 / ran
    );
    println!("  latency (ms)        p50      p90      p99      max   count");
    let row = |name: &str, v: &Value| {
        println!(
            "  {name:<18}{:>6.2} {:>8.2} {:>8.2} {:>8.1} {:>7}",
            ms(v, "p50_ms"),
            ms(v, "p90_ms"),
            ms(v, "p99_ms"),
            ms(v, "max_ms"),
            v["count"]
        )
    };
    row("  command", &lat);
    for (r, v) in &per_ruleset {
        row(&format!("    {r}"), v);
    }
    row("  undo", &undo_lat);
    println!(
        "  errors              {}{}",
        counts(&errors),
        if errors.is_empty() {
            String::new()
        } else {
            format!(" ({errors_in_undo} of them to commands sent while the GM was taking steps back)")
        }
    );
    for (c, m) in &examples {
        println!("    e.g. {c}: {m}");
    }
    println!(
        "  connections         {connected} of {n_clients}; failed: {}; dropped: {}; unanswered at the end: {unanswered}; tables waiting on an empty seat: {stalled}",
        counts(&connect_failed),
        counts(&dropped)
    );
    println!(
        "  frames received     {frames} ({:.1} MiB, {:.0} bytes each on average)",
        frame_bytes as f64 / 1048576.0,
        frame_bytes as f64 / frames.max(1) as f64
    );
    println!("  server memory       VmRSS      VmHWM      threads");
    for (name, s) in [
        ("start", &at_start),
        ("tables open", &after_open),
        ("clients connected", &after_connect),
        ("end", &at_end),
    ] {
        println!(
            "    {name:<18}{:>10} {:>10} {:>8}",
            mib(s.rss_kib),
            mib(s.hwm_kib),
            s.threads
        );
    }
    println!(
        "  CPU during the run  server {server_cpu:.1} s ({:.2} cores), bench {bench_cpu:.1} s ({:.2} cores)",
        server_cpu / ran,
        bench_cpu / ran
    );
    println!(
        "  database            {} (+ WAL {})",
        mib(db_bytes / 1024),
        mib(wal_bytes / 1024)
    );
    if !alive {
        println!("  THE SERVER EXITED during the run");
    }
    if !stdout_lines.is_empty() {
        println!(
            "  server stdout       {} lines during the run, e.g.:",
            stdout_lines.len()
        );
        for l in stdout_lines.iter().take(3) {
            println!("    {l}");
        }
    }
    if stderr_bytes > 0 {
        println!("  server stderr ({stderr_bytes} bytes), last lines:\n{stderr_tail}");
    }
    if let Some(p) = &cfg.json {
        let text = serde_json::to_string_pretty(&report).expect("a JSON value prints");
        std::fs::write(p, text + "\n").unwrap_or_else(|e| fail(format_args!("cannot write {}: {e}", p.display())));
        println!("  JSON written to {}", p.display());
    }
    if cfg.keep {
        println!("  kept {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

impl Server {
    /// The server's exit status if it has exited.
    fn child_status(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }
}
