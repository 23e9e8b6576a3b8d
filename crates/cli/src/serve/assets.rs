//! The page's files, compiled into the binary (`cargo build` is the whole build).

/// The lobby (`/`).
pub const LOBBY_HTML: &str = include_str!("assets/lobby.html");
/// The table page (`/table/G`).
pub const TABLE_HTML: &str = include_str!("assets/table.html");

/// The files under `/assets/`, with their content types.
const FILES: &[(&str, &str, &str)] = &[
    (
        "table.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/table.js"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/lobby.js"),
    ),
    ("style.css", "text/css; charset=utf-8", include_str!("assets/style.css")),
];

/// The content type and text of `/assets/NAME`.
pub fn find(name: &str) -> Option<(&'static str, &'static str)> {
    FILES.iter().find(|(n, _, _)| *n == name).map(|(_, k, b)| (*k, *b))
}
