//! A `fray serve` process for the browser table's tests: its address and GM key, a small
//! HTTP client and websocket clients (shared by tests/it/serve.rs and tests/it/serve_hidden.rs).

#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fray-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A running `fray serve`.
pub struct Served {
    pub child: Child,
    pub addr: String,
    pub key: String,
    pub db: PathBuf,
    /// Everything it printed after its first lines.
    pub out: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Served {
    /// Starts `fray serve` on a free port with the database `db`.
    pub fn start(db: &Path) -> Served {
        Served::start_with(db, &[])
    }

    pub fn start_with(db: &Path, extra: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
            .current_dir(root())
            .args(["serve", "--db", db.to_str().unwrap(), "--addr", "127.0.0.1:0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first = lines.next().unwrap().unwrap();
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        let second = lines.next().unwrap().unwrap();
        let key = second.split("#key=").nth(1).unwrap().trim().to_string();
        let out = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let keep = std::sync::Arc::clone(&out);
        std::thread::spawn(move || {
            for l in lines.map_while(Result::ok) {
                keep.lock().unwrap().push_str(&(l + "\n"));
            }
        });
        let keep = std::sync::Arc::clone(&out);
        let errs = BufReader::new(child.stderr.take().unwrap()).lines();
        std::thread::spawn(move || {
            for l in errs.map_while(Result::ok) {
                eprintln!("fray serve: {l}");
                keep.lock().unwrap().push_str(&(l + "\n"));
            }
        });
        Served {
            child,
            addr,
            key,
            db: db.to_path_buf(),
            out,
        }
    }

    /// One HTTP request: the status and the body as JSON (`Value::Null` when it is not JSON)
    /// with the raw text.
    pub fn http(&self, method: &str, path: &str, auth: Option<&str>, body: Option<&str>) -> (u16, Value, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let body = body.unwrap_or("");
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if let Some(a) = auth {
            req.push_str(&format!("Authorization: Bearer {a}\r\n"));
        }
        req.push_str("\r\n");
        s.write_all(req.as_bytes()).unwrap();
        s.write_all(body.as_bytes()).unwrap();
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        let text = String::from_utf8_lossy(&raw).into_owned();
        let status = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
            unchunk(rest)
        } else {
            rest.to_string()
        };
        (status, serde_json::from_str(&body).unwrap_or(Value::Null), text)
    }

    /// Opens a table; panics unless it opened.
    pub fn open(&self, body: Value) -> Value {
        let (st, v, raw) = self.http("POST", "/api/tables", Some(&self.key), Some(&body.to_string()));
        assert_eq!(st, 200, "{raw}");
        v
    }

    /// A websocket client that has said hello with `token` and read its welcome.
    pub fn join(&self, token: &str) -> Client {
        let mut c = Client::connect(&self.addr);
        c.send(json!({"type": "hello", "token": token}));
        let w = c.next().expect("a welcome");
        assert_eq!(w["type"], "welcome", "{w}");
        c.welcome = w;
        c
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn unchunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A websocket client, keeping every frame it got.
pub struct Client {
    pub ws: WebSocket<MaybeTlsStream<TcpStream>>,
    pub welcome: Value,
    /// Every frame received, in order, as text.
    pub frames: Vec<String>,
    /// The log as the frames built it up.
    pub log: Vec<String>,
    /// The last `state` frame.
    pub state: Value,
    next_id: i64,
}

impl Client {
    pub fn connect(addr: &str) -> Client {
        let (ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).unwrap();
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        }
        Client {
            ws,
            welcome: Value::Null,
            frames: Vec::new(),
            log: Vec::new(),
            state: Value::Null,
            next_id: 1,
        }
    }

    pub fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).unwrap();
    }

    pub fn send_raw(&mut self, m: Message) {
        self.ws.send(m).unwrap();
    }

    /// Sends a message with the next id; returns the id.
    pub fn ask(&mut self, mut v: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        v["id"] = json!(id);
        self.send(v);
        id
    }

    /// The next frame (`None`: the socket closed or nothing came within the timeout).
    pub fn next(&mut self) -> Option<Value> {
        loop {
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    self.frames.push(t.as_str().to_string());
                    if v["type"] == "state" {
                        let from = v["log_from"].as_u64().unwrap() as usize;
                        assert!(
                            from <= self.log.len() || from == 0,
                            "log_from {from} beyond {}",
                            self.log.len()
                        );
                        self.log.truncate(from);
                        for l in v["log"].as_array().unwrap() {
                            self.log.push(l.as_str().unwrap().to_string());
                        }
                        self.state = v.clone();
                    }
                    return Some(v);
                }
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => continue,
            }
        }
    }

    /// Reads frames until the answer to message `id` (`ok` or `error`), and returns it.
    pub fn answer(&mut self, id: i64) -> Value {
        let until = Instant::now() + Duration::from_secs(60);
        while Instant::now() < until {
            let f = self
                .next()
                .unwrap_or_else(|| panic!("the socket closed waiting for {id}"));
            if (f["type"] == "ok" || f["type"] == "error") && f["id"] == json!(id) {
                return f;
            }
        }
        panic!("no answer to {id}");
    }

    /// Reads frames until one arrives that `stop` accepts.
    pub fn until(&mut self, stop: impl Fn(&Value) -> bool) -> Value {
        loop {
            let f = self.next().expect("a frame");
            if stop(&f) {
                return f;
            }
        }
    }

    /// Reads every frame already sent (waiting `wait` for each further one).
    pub fn drain(&mut self, wait: Duration) {
        if let MaybeTlsStream::Plain(s) = self.ws.get_ref() {
            s.set_read_timeout(Some(wait)).unwrap();
        }
        while self.next().is_some() {}
        if let MaybeTlsStream::Plain(s) = self.ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        }
    }
}

/// The token of `seat` in a table's links.
pub fn token(table: &Value, seat: &str) -> String {
    table["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["seat"] == seat)
        .unwrap_or_else(|| panic!("no seat {seat} in {table}"))["token"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The seats of a table, by name, in seat order (the GM's first).
pub fn seats(table: &Value) -> Vec<String> {
    table["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["seat"].as_str().unwrap().to_string())
        .collect()
}
