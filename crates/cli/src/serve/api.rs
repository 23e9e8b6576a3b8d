//! The HTTP side: the pages, the GM's API and the seat's view (docs/serve-protocol.md).

// A refusal is the response itself, built once per request: its size costs nothing here.
#![allow(clippy::result_large_err)]

use super::codes;
use super::{Server, assets, encounter_files, info, secret, table, ws};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The most a request body may hold.
const MAX_BODY: usize = 64 * 1024;

type Srv = State<Arc<Server>>;

/// Every route of the server.
pub fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(|| async { page(assets::LOBBY_HTML) }))
        .route("/table/{game}", get(|| async { page(assets::TABLE_HTML) }))
        .route("/assets/{name}", get(asset))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/games", get(games))
        .route("/api/encounters", get(encounters))
        .route("/api/tables", axum::routing::post(open))
        .route("/api/tables/{game}", get(table_info).delete(close))
        .route("/api/view", get(view))
        .route("/ws", get(ws::upgrade))
        .fallback(|| async { refuse(404, codes::NOT_FOUND, "no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

/// A JSON refusal.
pub fn refuse(status: u16, code: &str, message: impl Into<String>) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, axum::Json(json!({"error": code, "message": message.into()}))).into_response()
}

/// Headers every page gets: no caching of secrets' pages, no framing, scripts only from here.
fn page(html: &'static str) -> Response {
    let mut r = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response();
    harden(r.headers_mut());
    r
}

fn harden(h: &mut HeaderMap) {
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
        ),
    );
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
}

async fn asset(UrlPath(name): UrlPath<String>) -> Response {
    match assets::find(&name) {
        Some((kind, body)) => {
            let mut r = ([(header::CONTENT_TYPE, kind)], body).into_response();
            harden(r.headers_mut());
            r
        }
        None => refuse(404, codes::NOT_FOUND, "no such file"),
    }
}

/// The bearer credential of a request.
fn bearer(h: &HeaderMap) -> Option<&str> {
    h.get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// Refuses a request without the GM key.
fn gm(s: &Server, h: &HeaderMap) -> Result<(), Response> {
    match bearer(h) {
        None => Err(refuse(
            401,
            codes::NO_CREDENTIALS,
            "this needs the GM key (Authorization: Bearer KEY)",
        )),
        Some(k) if secret::same(k, &s.key) => Ok(()),
        Some(_) => Err(refuse(401, codes::BAD_KEY, "the GM key is wrong")),
    }
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, Response> + Send + 'static) -> Result<T, Response> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(refuse(500, codes::INTERNAL, e.to_string())))
}

async fn games(State(s): Srv, h: HeaderMap) -> Response {
    if let Err(r) = gm(&s, &h) {
        return r;
    }
    let me = Arc::clone(&s);
    let rows = blocking(move || {
        let store = me
            .store
            .lock()
            .map_err(|_| refuse(500, codes::STORE, "the database connection failed"))?;
        let games = store.games().map_err(|e| refuse(500, codes::STORE, e.to_string()))?;
        let open = store
            .open_tables()
            .map_err(|e| refuse(500, codes::STORE, e.to_string()))?;
        Ok(games
            .into_iter()
            .map(|g| {
                json!({
                    "game": g.id, "ruleset": g.ruleset, "title": g.title, "encounter": g.encounter,
                    "steps": g.steps, "over": g.over, "position": g.position,
                    "open": open.contains(&g.id),
                })
            })
            .collect::<Vec<Value>>())
    })
    .await;
    match rows {
        Ok(g) => axum::Json(json!({ "games": g })).into_response(),
        Err(r) => r,
    }
}

async fn encounters(State(s): Srv, h: HeaderMap) -> Response {
    if let Err(r) = gm(&s, &h) {
        return r;
    }
    let dir = s.encounters.clone();
    match blocking(move || Ok(encounter_files(&dir))).await {
        Ok(list) => axum::Json(json!({ "encounters": list })).into_response(),
        Err(r) => r,
    }
}

/// What `POST /api/tables` reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenBody {
    encounter: Option<String>,
    encounter_text: Option<String>,
    name: Option<String>,
    seed: Option<u64>,
    dice: Option<String>,
    faces: Option<Vec<u16>>,
    game: Option<i64>,
    ai: Option<Vec<String>>,
}

/// `path` when it names a file under `dir` (no way out of it through `..` or links).
fn inside(dir: &Path, path: &str) -> Result<PathBuf, Response> {
    let no = || {
        refuse(
            400,
            codes::BAD_ENCOUNTER,
            format!("'{path}' is not an encounter file under the server's encounters folder"),
        )
    };
    let root = dir.canonicalize().map_err(|_| no())?;
    let p = PathBuf::from(path);
    let full = if p.is_absolute() {
        p.clone()
    } else {
        std::env::current_dir().map_err(|_| no())?.join(&p)
    };
    let real = full.canonicalize().map_err(|_| no())?;
    if !real.starts_with(&root) || !real.is_file() {
        return Err(no());
    }
    Ok(p)
}

fn open_error(e: table::OpenError) -> Response {
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut body = json!({"error": e.code, "message": e.message});
    if let Some(d) = e.dice {
        body["dice"] = json!(d);
    }
    (status, axum::Json(body)).into_response()
}

async fn open(State(s): Srv, h: HeaderMap, body: Result<Bytes, axum::extract::rejection::BytesRejection>) -> Response {
    if let Err(r) = gm(&s, &h) {
        return r;
    }
    let body = match body {
        Ok(b) => b,
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return refuse(
                413,
                codes::TOO_LARGE,
                format!("a request holds at most {MAX_BODY} bytes"),
            );
        }
        Err(e) => return refuse(400, codes::BAD_REQUEST, e.body_text()),
    };
    let b: OpenBody = match serde_json::from_slice(&body) {
        Ok(b) => b,
        Err(e) => return refuse(400, codes::BAD_REQUEST, format!("the request does not read: {e}")),
    };
    let typed = match b.dice.as_deref() {
        None | Some("server") => {
            if b.faces.is_some() {
                return refuse(400, codes::BAD_REQUEST, "faces are for \"dice\": \"typed\"");
            }
            None
        }
        Some("typed") => {
            if b.seed.is_some() {
                return refuse(400, codes::BAD_REQUEST, "a typed-dice table has no seed");
            }
            Some(b.faces.clone().unwrap_or_default())
        }
        Some(other) => {
            return refuse(
                400,
                codes::BAD_REQUEST,
                format!("\"dice\" is \"server\" or \"typed\", not \"{other}\""),
            );
        }
    };
    let opening = match (b.encounter, b.encounter_text, b.game) {
        (Some(path), None, None) => {
            let dir = s.encounters.clone();
            let read = blocking(move || {
                let p = inside(&dir, &path)?;
                let src = crate::read_source(&p).map_err(|f| refuse(400, codes::BAD_ENCOUNTER, f.message))?;
                Ok((p, src))
            })
            .await;
            let (p, source) = match read {
                Ok(x) => x,
                Err(r) => return r,
            };
            table::Opening::New {
                source,
                path: Some(p),
                seed: b.seed,
                typed,
                ai: b.ai.unwrap_or_default(),
            }
        }
        (None, Some(text), None) => table::Opening::New {
            source: fray_engine::diag::SourceFile {
                name: b.name.unwrap_or_else(|| "encounter.toml".into()),
                text,
            },
            path: None,
            seed: b.seed,
            typed,
            ai: b.ai.unwrap_or_default(),
        },
        (None, None, Some(game)) => {
            if b.seed.is_some() || b.dice.is_some() || b.faces.is_some() {
                return refuse(
                    400,
                    codes::BAD_REQUEST,
                    "a saved game keeps its own dice: give only \"game\" (and \"ai\")",
                );
            }
            table::Opening::Saved { game, ai: b.ai }
        }
        _ => {
            return refuse(
                400,
                codes::BAD_REQUEST,
                "give one of \"encounter\" (a file under the encounters folder), \"encounter_text\" or \"game\"",
            );
        }
    };
    match s.open(opening).await {
        Ok(i) => axum::Json(json!(i)).into_response(),
        Err(e) => open_error(e),
    }
}

async fn table_info(State(s): Srv, h: HeaderMap, UrlPath(game): UrlPath<String>) -> Response {
    if let Err(r) = gm(&s, &h) {
        return r;
    }
    let Ok(game) = game.parse::<i64>() else {
        return refuse(400, codes::BAD_REQUEST, "a table is named by its game's number");
    };
    match s.loaded(game) {
        Some(handle) => match info(&handle).await {
            Ok(i) => axum::Json(json!(i)).into_response(),
            Err(e) => open_error(e),
        },
        None => {
            let me = Arc::clone(&s);
            let open = blocking(move || {
                let store = me
                    .store
                    .lock()
                    .map_err(|_| refuse(500, codes::STORE, "the database connection failed"))?;
                Ok(store.table(game).ok().flatten().is_some_and(|t| t.open))
            })
            .await;
            match open {
                Ok(true) => match s.open(table::Opening::Saved { game, ai: None }).await {
                    Ok(i) => axum::Json(json!(i)).into_response(),
                    Err(e) => open_error(e),
                },
                Ok(false) => refuse(404, codes::NO_TABLE, format!("game {game} has no open table")),
                Err(r) => r,
            }
        }
    }
}

async fn close(State(s): Srv, h: HeaderMap, UrlPath(game): UrlPath<String>) -> Response {
    if let Err(r) = gm(&s, &h) {
        return r;
    }
    let Ok(game) = game.parse::<i64>() else {
        return refuse(400, codes::BAD_REQUEST, "a table is named by its game's number");
    };
    let handle = s.tables.lock().ok().and_then(|mut t| t.remove(&game));
    match handle {
        Some(h) => {
            let (reply, rx) = tokio::sync::oneshot::channel();
            if h.tx.send(table::ToTable::Close { reply }).is_ok() {
                let _ = rx.await;
            }
            axum::Json(json!({"closed": game})).into_response()
        }
        None => {
            let me = Arc::clone(&s);
            let r = blocking(move || {
                let mut store = me
                    .store
                    .lock()
                    .map_err(|_| refuse(500, codes::STORE, "the database connection failed"))?;
                match store.table(game) {
                    Ok(Some(t)) if t.open => {
                        store
                            .close_table(game)
                            .map_err(|e| refuse(500, codes::STORE, e.to_string()))?;
                        Ok(())
                    }
                    _ => Err(refuse(404, codes::NO_TABLE, format!("game {game} has no open table"))),
                }
            })
            .await;
            match r {
                Ok(()) => axum::Json(json!({"closed": game})).into_response(),
                Err(r) => r,
            }
        }
    }
}

async fn view(State(s): Srv, h: HeaderMap) -> Response {
    let Some(token) = bearer(&h) else {
        return refuse(
            401,
            codes::NO_CREDENTIALS,
            "this needs a seat's token (Authorization: Bearer TOKEN)",
        );
    };
    let (handle, seat) = match s.seat_of(token).await {
        Ok(x) => x,
        Err((status, code, m)) => return refuse(status, code, m),
    };
    let (reply, rx) = tokio::sync::oneshot::channel();
    if handle.tx.send(table::ToTable::Frame { seat, reply }).is_err() {
        return refuse(404, codes::NO_TABLE, "the table has closed");
    }
    match rx.await {
        Ok(frame) => {
            let mut r = ([(header::CONTENT_TYPE, "application/json")], frame).into_response();
            harden(r.headers_mut());
            r
        }
        Err(_) => refuse(404, codes::NO_TABLE, "the table has closed"),
    }
}
