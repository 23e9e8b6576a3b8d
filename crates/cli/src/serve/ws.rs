//! One client's websocket: `hello` first, then its messages checked (size, rate, order, shape)
//! before they reach its table, and its table's frames sent back.

use super::Server;
use super::codes;
use super::table::{self, Ask, ToTable, err};
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The most one message may hold; a larger one (up to the socket's own limit) gets an error
/// frame, a still larger one closes the socket.
pub const MAX_MESSAGE: usize = 16 * 1024;
const SOCKET_LIMIT: usize = 64 * 1024;
/// Messages a second a client may send, and the burst it may save up.
const RATE: f64 = 20.0;
const BURST: f64 = 40.0;
/// Refusals for sending too fast before the client is let go.
const STRIKES: u32 = 200;
/// How long a client has to say `hello`.
const HELLO_WITHIN: Duration = Duration::from_secs(10);

pub async fn upgrade(State(s): State<Arc<Server>>, up: WebSocketUpgrade) -> Response {
    up.max_message_size(SOCKET_LIMIT)
        .max_frame_size(SOCKET_LIMIT)
        .on_upgrade(move |socket| client(s, socket))
}

async fn send(socket: &mut WebSocket, v: &Value) -> bool {
    socket.send(Message::Text(v.to_string().into())).await.is_ok()
}

/// The next text message, or why there is none usable (`Err(None)`: the socket closed).
async fn next(socket: &mut WebSocket) -> Result<String, Option<Value>> {
    loop {
        match socket.recv().await {
            None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return Err(None),
            Some(Ok(Message::Text(t))) => return Ok(t.as_str().to_string()),
            Some(Ok(Message::Binary(_))) => return Err(Some(err(codes::BAD_MESSAGE, "messages are JSON text"))),
            Some(Ok(_)) => continue,
        }
    }
}

/// A client message's type and fields, checked; the table receives only what reads.
fn read(text: &str) -> Result<(Option<i64>, Value), Value> {
    if text.len() > MAX_MESSAGE {
        return Err(err(
            codes::TOO_LARGE,
            format!("a message holds at most {MAX_MESSAGE} bytes"),
        ));
    }
    let v: Value = serde_json::from_str(text).map_err(|e| err(codes::BAD_MESSAGE, format!("not JSON: {e}")))?;
    if !v.is_object() || !v["type"].is_string() {
        return Err(err(codes::BAD_MESSAGE, "a message is a JSON object with a \"type\""));
    }
    let id = v.get("id").and_then(Value::as_i64);
    Ok((id, v))
}

fn text_field(v: &Value, key: &str) -> Result<String, Value> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| err(codes::BAD_MESSAGE, format!("\"{key}\" (text) is missing")))
}

fn faces_field(v: &Value) -> Result<Option<Vec<u16>>, Value> {
    match v.get("faces") {
        None | Some(Value::Null) => Ok(None),
        Some(f) => serde_json::from_value::<Vec<u16>>(f.clone())
            .map(Some)
            .map_err(|_| err(codes::BAD_DICE, "\"faces\" is a list of whole numbers from 1")),
    }
}

/// What a checked message asks of the table.
fn ask(v: &Value) -> Result<Ask, Value> {
    let kind = v["type"].as_str().unwrap_or("");
    Ok(match kind {
        "command" => {
            let text = text_field(v, "text")?;
            if text.trim().is_empty() {
                return Err(err(codes::BAD_MESSAGE, "the command is empty"));
            }
            let as_seat = match v.get("as") {
                None | Some(Value::Null) => None,
                Some(_) => Some(text_field(v, "as")?),
            };
            Ask::Command {
                text,
                faces: faces_field(v)?,
                as_seat,
            }
        }
        "undo" => Ask::Undo,
        "redo" => Ask::Redo,
        "ai" => Ask::Ai {
            seat: text_field(v, "seat")?,
            on: v
                .get("on")
                .and_then(Value::as_bool)
                .ok_or_else(|| err(codes::BAD_MESSAGE, "\"on\" (true or false) is missing"))?,
        },
        "ai-faces" => Ask::AiFaces {
            faces: faces_field(v)?.ok_or_else(|| err(codes::BAD_DICE, "\"faces\" is missing"))?,
        },
        "hello" => return Err(err(codes::BAD_MESSAGE, "this connection has said hello already")),
        other => {
            return Err(err(
                codes::BAD_MESSAGE,
                format!("no message type '{}'", other.chars().take(40).collect::<String>()),
            ));
        }
    })
}

/// A bucket of messages refilled at [`RATE`] a second up to [`BURST`].
struct Rate {
    left: f64,
    at: Instant,
}

impl Rate {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.left = (self.left + now.duration_since(self.at).as_secs_f64() * RATE).min(BURST);
        self.at = now;
        if self.left >= 1.0 {
            self.left -= 1.0;
            true
        } else {
            false
        }
    }
}

async fn client(s: Arc<Server>, mut socket: WebSocket) {
    let hello = match tokio::time::timeout(HELLO_WITHIN, next(&mut socket)).await {
        Err(_) => {
            send(
                &mut socket,
                &err(codes::NOT_AUTHENTICATED, "say hello (with the seat's token) first"),
            )
            .await;
            return;
        }
        Ok(Err(None)) => return,
        Ok(Err(Some(e))) => {
            send(&mut socket, &e).await;
            return;
        }
        Ok(Ok(t)) => t,
    };
    let token = match read(&hello) {
        Ok((_, v)) if v["type"] == "hello" => match v.get("token").and_then(Value::as_str) {
            Some(t) => t.to_string(),
            None => {
                send(
                    &mut socket,
                    &err(codes::BAD_TOKEN, "hello carries the seat's \"token\""),
                )
                .await;
                return;
            }
        },
        Ok(_) => {
            send(
                &mut socket,
                &err(codes::NOT_AUTHENTICATED, "say hello (with the seat's token) first"),
            )
            .await;
            return;
        }
        Err(e) => {
            send(&mut socket, &e).await;
            return;
        }
    };
    let (handle, seat) = match s.seat_of(&token).await {
        Ok(x) => x,
        Err((_, code, message)) => {
            send(&mut socket, &err(code, message)).await;
            return;
        }
    };
    let id = s.next_client.fetch_add(1, Ordering::Relaxed);
    let (tx, mut rx) = tokio::sync::mpsc::channel(table::OUTBOX);
    if handle.tx.send(ToTable::Join { client: id, seat, tx }).is_err() {
        // The table's thread has stopped: the next hello loads it again from the database.
        if let Some(game) = super::secret::Token::read(&token).map(|t| t.game) {
            s.forget(game);
        }
        send(&mut socket, &err(codes::NO_TABLE, "the table stopped: join again")).await;
        return;
    }
    let mut last_id: Option<i64> = None;
    let mut rate = Rate {
        left: BURST,
        at: Instant::now(),
    };
    let mut strikes = 0u32;
    loop {
        tokio::select! {
            frame = rx.recv() => match frame {
                Some(f) => {
                    if socket.send(Message::Text(f.into())).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
            msg = next(&mut socket) => {
                let text = match msg {
                    Ok(t) => t,
                    Err(None) => break,
                    Err(Some(e)) => {
                        if !send(&mut socket, &e).await { break; }
                        continue;
                    }
                };
                if !rate.take() {
                    strikes += 1;
                    if strikes > STRIKES || !send(&mut socket, &err(codes::RATE_LIMITED, "too many messages: wait a moment")).await {
                        break;
                    }
                    continue;
                }
                let checked = read(&text).and_then(|(mid, v)| {
                    let mid = mid.ok_or_else(|| err(codes::BAD_MESSAGE, "every message after hello carries a numeric \"id\""))?;
                    if last_id.is_some_and(|l| mid <= l) {
                        let mut e = err(codes::OUT_OF_ORDER, format!("message {mid} comes after {}: each id must be larger than the last", last_id.unwrap_or(0)));
                        e["id"] = Value::from(mid);
                        return Err(e);
                    }
                    let a = ask(&v).map_err(|mut e| { e["id"] = Value::from(mid); e })?;
                    Ok((mid, a))
                });
                match checked {
                    Ok((mid, a)) => {
                        last_id = Some(mid);
                        if handle.tx.send(ToTable::Ask { client: id, id: mid, ask: a }).is_err() {
                            send(&mut socket, &err(codes::NO_TABLE, "the table has closed")).await;
                            break;
                        }
                    }
                    Err(e) => {
                        if !send(&mut socket, &e).await { break; }
                    }
                }
            }
        }
    }
    let _ = handle.tx.send(ToTable::Leave { client: id });
}
