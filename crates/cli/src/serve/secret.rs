//! The server's secrets: the GM key and the seat tokens (`G-S-SECRET`), made from the
//! operating system's random source and compared in constant time.

/// 32 hex digits from the operating system's random source.
pub fn fresh() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| format!("the system's random source failed: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `a` and `b` are the same text, taking the same time wherever they differ (only the
/// lengths, which are not secret, end it early).
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut diff = 0u8;
    for (x, y) in a.iter().zip(b) {
        diff |= x ^ y;
    }
    std::hint::black_box(diff) == 0
}

/// A seat token read: the game, the seat, the secret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The game's number.
    pub game: i64,
    /// The seat's number.
    pub seat: u8,
    /// The secret part.
    pub secret: String,
}

impl Token {
    /// Reads `G-S-SECRET`; `None` for anything else (the caller says "bad token" without
    /// saying which part was wrong).
    pub fn read(text: &str) -> Option<Token> {
        let mut parts = text.splitn(3, '-');
        let game = parts.next()?.parse::<i64>().ok()?;
        let seat = parts.next()?.parse::<u8>().ok()?;
        let secret = parts.next()?;
        (game > 0 && secret.len() == 32 && secret.bytes().all(|b| b.is_ascii_hexdigit())).then(|| Token {
            game,
            seat,
            secret: secret.to_string(),
        })
    }

    /// The token as given to a seat.
    pub fn text(game: i64, seat: u8, secret: &str) -> String {
        format!("{game}-{seat}-{secret}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_reads_back_and_anything_else_is_refused() {
        let s = fresh().unwrap();
        assert_eq!(s.len(), 32);
        let t = Token::text(12, 3, &s);
        assert_eq!(
            Token::read(&t),
            Some(Token {
                game: 12,
                seat: 3,
                secret: s.clone()
            })
        );
        for bad in [
            "",
            "12",
            "12-3",
            "12-3-abc",
            "x-3-0123456789abcdef0123456789abcdef",
            "0-1-0123456789abcdef0123456789abcdef",
            "12-300-0123456789abcdef0123456789abcdef",
            "12-3-0123456789abcdef0123456789abcdeg",
        ] {
            assert_eq!(Token::read(bad), None, "{bad}");
        }
        assert!(same(&s, &s.clone()));
        assert!(!same(&s, &fresh().unwrap()));
        assert!(!same("abc", "abcd"));
    }
}
