//! `fray serve`: the browser table. An HTTP server (axum) with one websocket per client; each
//! open table is a thread of its own ([`table`]) that owns its game and its saved-games row in
//! the same database `fray play --save` writes, so a restart loses nothing and a game moves
//! between the browser and the terminal. The page's files are compiled into the binary
//! ([`assets`]). docs/serve-protocol.md is the protocol; docs/table.md the user's guide.

mod api;
mod assets;
pub mod codes;
mod secret;
mod table;
mod ws;

use crate::Fail;
use fray_engine::Seat;
use fray_engine::text::AnyGame;
use fray_store::Store;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

/// The setting that keeps the GM key in the database.
const KEY_SETTING: &str = "serve-key";

/// The most tables one server keeps open at once (each is a thread with its game in memory).
const MAX_TABLES: usize = 2_000;

/// What every request handler shares.
pub struct Server {
    db: PathBuf,
    key: String,
    encounters: PathBuf,
    /// The lobby's own connection to the database (lists, secrets of tables not yet loaded).
    store: Mutex<Store>,
    tables: Mutex<HashMap<i64, table::Handle>>,
    /// Opening a table is one at a time, so two clients of a table not yet loaded never load
    /// it twice.
    opening: tokio::sync::Mutex<()>,
    next_client: AtomicU64,
}

/// The options of `fray serve`.
pub struct Options {
    pub db: PathBuf,
    pub addr: SocketAddr,
    pub encounters: PathBuf,
    pub new_key: bool,
}

/// The board `seat` is shown, as JSON text (`null` for a ruleset without one).
fn board_json(game: &dyn AnyGame, seat: Seat) -> String {
    serde_json::to_string(&game.board(seat)).unwrap_or_else(|_| "null".into())
}

/// Runs the server until it is stopped (Ctrl-C).
pub fn serve(o: Options) -> Result<(), Fail> {
    let mut store = crate::saves::open_store(&o.db, true)?;
    let fail = |e: fray_store::StoreError| Fail::input(format!("{}: error: {e}", o.db.display()));
    let key = match store.setting(KEY_SETTING).map_err(fail)? {
        Some(k) if !o.new_key && k.len() == 32 => k,
        _ => {
            let k = secret::fresh().map_err(Fail::input)?;
            store.set_setting(KEY_SETTING, &k).map_err(fail)?;
            k
        }
    };
    if !o.encounters.is_dir() {
        return Err(Fail::input(format!(
            "--encounters {}: error: not a folder (the lobby lists the encounter files under it)",
            o.encounters.display()
        )));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Fail::input(format!("cannot start the server: {e}")))?;
    let server = Arc::new(Server {
        db: o.db.clone(),
        key,
        encounters: o.encounters.clone(),
        store: Mutex::new(store),
        tables: Mutex::new(HashMap::new()),
        opening: tokio::sync::Mutex::new(()),
        next_client: AtomicU64::new(1),
    });
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(o.addr)
            .await
            .map_err(|e| Fail::input(format!("--addr {}: error: cannot listen there: {e}", o.addr)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| Fail::input(format!("cannot read the address listened on: {e}")))?;
        say!("fray serve: listening on http://{addr} (games in {})", o.db.display());
        say!("GM lobby: http://{addr}/#key={}", server.key);
        say!("(open the lobby in a browser; it gives a join link per seat. Ctrl-C stops the server: every step is already in the database)");
        let app = api::router(Arc::clone(&server));
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| Fail::input(format!("the server stopped: {e}")))
    })
}

impl Server {
    /// The handle of table `game` when it is loaded.
    fn loaded(&self, game: i64) -> Option<table::Handle> {
        self.tables.lock().ok()?.get(&game).cloned()
    }

    /// Drops the handle of table `game` (its thread has stopped).
    fn forget(&self, game: i64) {
        if let Ok(mut t) = self.tables.lock() {
            t.remove(&game);
        }
    }

    /// Opens a table (a new game or one of the database) and keeps its handle.
    async fn open(self: &Arc<Self>, opening: table::Opening) -> Result<table::Info, table::OpenError> {
        let _one = self.opening.lock().await;
        if let table::Opening::Saved { game, .. } = &opening
            && let Some(h) = self.loaded(*game)
        {
            match info(&h).await {
                Ok(i) => return Ok(i),
                // Its thread has stopped (a bug): it is loaded again from the database.
                Err(_) => self.forget(*game),
            }
        }
        if self.tables.lock().map(|t| t.len()).unwrap_or(0) >= MAX_TABLES {
            return Err(table::OpenError {
                status: 503,
                code: codes::TOO_MANY_TABLES,
                message: format!("this server keeps at most {MAX_TABLES} tables open: close one first"),
                dice: None,
            });
        }
        let db = self.db.clone();
        let (handle, info) = tokio::task::spawn_blocking(move || table::open(db, opening))
            .await
            .map_err(|e| table::OpenError {
                status: 500,
                code: codes::INTERNAL,
                message: format!("opening the table failed: {e}"),
                dice: None,
            })??;
        if let Ok(mut t) = self.tables.lock() {
            t.insert(info.game, handle);
        }
        Ok(info)
    }

    /// The table and seat a token opens, loading the table when it is open in the database but
    /// not yet in memory (after a restart).
    async fn seat_of(self: &Arc<Self>, token: &str) -> Result<(table::Handle, u8), (u16, &'static str, String)> {
        let bad = || {
            (
                401,
                codes::BAD_TOKEN,
                "this link's token is not (or no longer) valid".to_string(),
            )
        };
        let t = secret::Token::read(token).ok_or_else(bad)?;
        if let Some(h) = self.loaded(t.game) {
            return match h.secrets.get(usize::from(t.seat)) {
                Some(s) if secret::same(s, &t.secret) => Ok((h, t.seat)),
                _ => Err(bad()),
            };
        }
        let me = Arc::clone(self);
        let game = t.game;
        let known = tokio::task::spawn_blocking(move || -> Result<(bool, Vec<(u8, String)>), String> {
            let store = me
                .store
                .lock()
                .map_err(|_| "the lobby's database connection failed".to_string())?;
            let open = store.table(game).map_err(|e| e.to_string())?.is_some_and(|r| r.open);
            Ok((open, store.secrets(game).map_err(|e| e.to_string())?))
        })
        .await
        .map_err(|e| (500, codes::INTERNAL, e.to_string()))?
        .map_err(|e| (500, codes::STORE, e))?;
        let (open, secrets) = known;
        let ok = secrets.iter().any(|(s, x)| *s == t.seat && secret::same(x, &t.secret));
        if !ok {
            return Err(bad());
        }
        if !open {
            return Err((404, codes::NO_TABLE, "the GM has closed this table".into()));
        }
        self.open(table::Opening::Saved { game, ai: None })
            .await
            .map_err(|e| (e.status, e.code, e.message))?;
        let h = self
            .loaded(game)
            .ok_or((404, codes::NO_TABLE, "the table is not open".to_string()))?;
        Ok((h, t.seat))
    }
}

/// A table's facts, asked of its thread.
async fn info(h: &table::Handle) -> Result<table::Info, table::OpenError> {
    let (reply, rx) = tokio::sync::oneshot::channel();
    let gone = || table::OpenError {
        status: 404,
        code: codes::NO_TABLE,
        message: "the table has closed".into(),
        dice: None,
    };
    h.tx.send(table::ToTable::Info { reply }).map_err(|_| gone())?;
    rx.await.map_err(|_| gone())
}

/// The encounter files under `dir`, as paths starting with `dir` (sorted, at most 1,000).
fn encounter_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") && out.len() < 1_000 {
                out.push(p.display().to_string());
            }
        }
    }
    out.sort();
    out
}
