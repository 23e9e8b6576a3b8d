//! The error codes of the browser table's API and websocket (docs/serve-protocol.md lists them),
//! stable words a client may match on.

/// The AI plays that seat now.
pub const AI_SEAT: &str = "ai-seat";
/// The faces given do not fit the roll, or are given where the server rolls.
pub const BAD_DICE: &str = "bad-dice";
/// The encounter file cannot be used (outside the folder, unreadable, with problems).
pub const BAD_ENCOUNTER: &str = "bad-encounter";
/// The GM key is wrong.
pub const BAD_KEY: &str = "bad-key";
/// The message does not read (not JSON, no type, a field missing or of the wrong kind).
pub const BAD_MESSAGE: &str = "bad-message";
/// The saved game does not replay.
pub const BAD_RECORD: &str = "bad-record";
/// The request does not read or asks for something that cannot be.
pub const BAD_REQUEST: &str = "bad-request";
/// No seat of that name.
pub const BAD_SEAT: &str = "bad-seat";
/// The seat's token is wrong or missing.
pub const BAD_TOKEN: &str = "bad-token";
/// The fight is over.
pub const GAME_OVER: &str = "game-over";
/// Another process holds the game (a terminal).
pub const IN_USE: &str = "in-use";
/// A bug in fray.
pub const INTERNAL: &str = "internal";
/// The command needs the faces of more physical dice.
pub const NEEDS_DICE: &str = "needs-dice";
/// No key or token was given.
pub const NO_CREDENTIALS: &str = "no-credentials";
/// No move of the AI waits for dice.
pub const NO_DICE_WANTED: &str = "no-dice-wanted";
/// The table is not open (closed, or never opened).
pub const NO_TABLE: &str = "no-table";
/// A message came before hello.
pub const NOT_AUTHENTICATED: &str = "not-authenticated";
/// No such page or file.
pub const NOT_FOUND: &str = "not-found";
/// Only the GM may do that.
pub const NOT_GM: &str = "not-gm";
/// The seat is not deciding now.
pub const NOT_YOUR_DECISION: &str = "not-your-decision";
/// There is nothing to redo.
pub const NOTHING_TO_REDO: &str = "nothing-to-redo";
/// There is nothing to undo.
pub const NOTHING_TO_UNDO: &str = "nothing-to-undo";
/// The message's id is not larger than the last one of this connection.
pub const OUT_OF_ORDER: &str = "out-of-order";
/// The client sends too fast.
pub const RATE_LIMITED: &str = "rate-limited";
/// The rules refuse the command.
pub const REJECTED: &str = "rejected";
/// The database refused the step: nothing was played.
pub const STORE: &str = "store";
/// The table serves as many browsers as it may.
pub const TABLE_FULL: &str = "table-full";
/// The message or request is too large.
pub const TOO_LARGE: &str = "too-large";
/// The server keeps as many tables open as it may.
pub const TOO_MANY_TABLES: &str = "too-many-tables";
/// The text is not a command of this ruleset.
pub const UNREADABLE: &str = "unreadable";
