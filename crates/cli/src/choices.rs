//! Choice lists a person can read, and Tab completion at the `fray play` prompt.
//!
//! A ruleset lists every legal command in full (scripts and AIs need the whole list), and an
//! area ability can have hundreds of them, one per square. For people the prompt shows each
//! family of commands that differ only in their squares once, with the square written as
//! `<x,y>` and a count (`move <x,y>  (41 squares)`); short families are shown in full. Families
//! that also differ in one other word after a square (a line's direction) are shown once with
//! the words that word can take. Nothing here knows a ruleset: a square is any `X,Y` word of
//! two integers, which is how every ruleset prints squares.
//!
//! Completion works from the same legal list: the word under the cursor is completed to every
//! word that a legal command (or a prompt word, or a GM ruling) has at that position after the
//! words already typed.

/// A family with at most this many members is printed in full.
const SHOW_IN_FULL: usize = 6;

/// At most this many distinct words are spelt out in a `<a|b|c>` slot; more are `<...>`.
const SPELL_OUT: usize = 8;

/// Whether a word is a square such as `3,4` or `-1,0`.
pub fn is_square(word: &str) -> bool {
    let Some((x, y)) = word.split_once(',') else {
        return false;
    };
    let num = |s: &str| {
        let s = s.strip_prefix('-').unwrap_or(s);
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
    };
    num(x) && num(y)
}

/// One line of a readable choice list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A command shown as it is typed.
    Full(String),
    /// A family: its pattern, how many commands it stands for and how many squares they use.
    Family {
        /// Such as `act fire-burst area <x,y>`.
        pattern: String,
        /// How many legal commands the line stands for.
        commands: usize,
        /// How many distinct squares appear in them.
        squares: usize,
    },
    /// Commands that differ in their last word and optional phrases ([`fold`]).
    Folded {
        /// Such as `attack <orrin|marta> [using dex]`.
        text: String,
        /// The commands it stands for.
        commands: Vec<String>,
    },
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Line::Full(s) => f.write_str(s),
            Line::Folded { text, .. } => f.write_str(text),
            Line::Family {
                pattern,
                commands,
                squares,
            } if commands == squares => write!(f, "{pattern}  ({squares} squares)"),
            Line::Family {
                pattern,
                commands,
                squares,
            } => write!(f, "{pattern}  ({commands} choices, {squares} squares)"),
        }
    }
}

/// Groups a legal list into readable lines, in the order families first appear.
pub fn group(choices: &[String]) -> Vec<Line> {
    // Family key: the words with squares replaced, and any word after the first square also
    // replaced (a line's direction, an option), so those vary inside one family.
    struct Family {
        members: Vec<usize>,
    }
    let words: Vec<Vec<&str>> = choices.iter().map(|c| c.split_whitespace().collect()).collect();
    let key_of = |w: &[&str]| -> Option<String> {
        let first = w.iter().position(|x| is_square(x))?;
        let mut k = String::new();
        for (i, x) in w.iter().enumerate() {
            if i > 0 {
                k.push(' ');
            }
            if i >= first && (is_square(x) || i > first) {
                k.push('\u{1}');
            } else {
                k.push_str(x);
            }
        }
        // The number of words is part of the key.
        k.push_str(&format!("\u{2}{}", w.len()));
        Some(k)
    };
    let mut order: Vec<(Option<String>, usize)> = Vec::new();
    let mut families: Vec<(String, Family)> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        match key_of(w) {
            Some(k) => match families.iter_mut().find(|(fk, _)| *fk == k) {
                Some((_, f)) => f.members.push(i),
                None => {
                    order.push((Some(k.clone()), families.len()));
                    families.push((k, Family { members: vec![i] }));
                }
            },
            None => order.push((None, i)),
        }
    }
    let mut out = Vec::new();
    for (key, idx) in order {
        if key.is_none() {
            out.push(Line::Full(choices[idx].clone()));
            continue;
        }
        let members = &families[idx].1.members;
        if members.len() <= SHOW_IN_FULL {
            out.extend(members.iter().map(|&m| Line::Full(choices[m].clone())));
            continue;
        }
        let first = &words[members[0]];
        let mut squares: Vec<&str> = Vec::new();
        let mut pattern: Vec<String> = Vec::new();
        for (pos, _) in first.iter().enumerate() {
            let mut seen: Vec<&str> = Vec::new();
            for &m in members {
                let w = words[m][pos];
                if !seen.contains(&w) {
                    seen.push(w);
                }
            }
            if seen.iter().all(|w| is_square(w)) && seen.len() > 1 {
                for s in &seen {
                    if !squares.contains(s) {
                        squares.push(s);
                    }
                }
                pattern.push("<x,y>".into());
            } else if seen.len() == 1 {
                if is_square(seen[0]) && !squares.contains(&seen[0]) {
                    squares.push(seen[0]);
                }
                pattern.push(seen[0].to_string());
            } else if seen.len() <= SPELL_OUT {
                pattern.push(format!("<{}>", alternatives(&seen)));
            } else {
                pattern.push("<...>".into());
            }
        }
        out.push(Line::Family {
            pattern: pattern.join(" "),
            commands: members.len(),
            squares: squares.len(),
        });
    }
    out
}

/// The optional words of a ruleset's commands ([`fray_engine::text::TextRuleset::OPTION_WORDS`]
/// and `FLAG_WORDS`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Optional<'a> {
    /// Words that begin a phrase of two words (`using dex`).
    pub options: &'a [&'a str],
    /// Words that stand alone (`hold`).
    pub flags: &'a [&'a str],
}

/// The words of a command, split into its core (the verb and what it names) and its optional
/// phrases: an option word the ruleset names (`using`, `prof`, `with`) and the word after it,
/// or a flag word alone (its value empty).
struct Split<'a> {
    core: Vec<&'a str>,
    phrases: Vec<(&'a str, &'a str)>,
}

fn split<'a>(command: &'a str, optional: Optional<'_>) -> Split<'a> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut core = Vec::new();
    let mut phrases = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if i > 0 && i + 1 < words.len() && optional.options.contains(&words[i]) {
            phrases.push((words[i], words[i + 1]));
            i += 2;
        } else if i > 0 && optional.flags.contains(&words[i]) {
            phrases.push((words[i], ""));
            i += 1;
        } else {
            core.push(words[i]);
            i += 1;
        }
    }
    Split { core, phrases }
}

/// Whether a command is in its plain form: none of the ruleset's optional phrases.
pub fn plain(command: &str, optional: Optional<'_>) -> bool {
    split(command, optional).phrases.is_empty()
}

/// `<a|b|c>` for several words (the first [`SPELL_OUT`] and a count of the rest), the word
/// itself for one.
fn slot(words: &[&str]) -> String {
    match words {
        [one] => (*one).to_string(),
        _ if words.len() <= SPELL_OUT + 2 => format!("<{}>", alternatives(words)),
        _ => format!(
            "<{}{}... {} more>",
            alternatives(&words[..SPELL_OUT]),
            separator(words),
            words.len() - SPELL_OUT
        ),
    }
}

/// What parts the alternatives of a slot: `|`, unless a word has a `|` of its own (Murdham's
/// border places, `road|ditch`), when `, ` does, so that `<road, road|ditch>` reads as two.
fn separator(words: &[&str]) -> &'static str {
    if words.iter().any(|w| w.contains('|')) {
        ", "
    } else {
        "|"
    }
}

fn alternatives(words: &[&str]) -> String {
    words.join(separator(words))
}

/// Folds the commands of a choice list that differ only in their last word (a target, a
/// kind) and in optional phrases into one line each, in the order their first member comes:
/// `attack <orrin|marta> [using dex] [prof none]`. Commands whose last words take different
/// phrases are told apart (`declare w attack <oda|wenna> with spear` beside `declare w
/// <move|flee>`), so a line never suggests a phrase its words cannot take. Lines that stand
/// for one command are that command.
pub fn fold(lines: Vec<Line>, optional: Optional<'_>) -> Vec<Line> {
    // Each full command: its stem (the core less its last word), that last word, and its
    // phrases. A one-word command has itself as its stem and no last word.
    struct Member<'a> {
        at: usize,
        stem: String,
        last: Option<&'a str>,
        phrases: Vec<(&'a str, &'a str)>,
    }
    let mut members: Vec<Member<'_>> = Vec::new();
    for (at, l) in lines.iter().enumerate() {
        if let Line::Full(c) = l {
            let sp = split(c, optional);
            let (stem, last) = match sp.core.split_last() {
                Some((last, rest)) if !rest.is_empty() => (rest.join(" "), Some(*last)),
                _ => (sp.core.join(" "), None),
            };
            members.push(Member {
                at,
                stem,
                last,
                phrases: sp.phrases,
            });
        }
    }
    // The phrase variants each (stem, last word) is listed with: last words of one stem fold
    // together when they take the same variants.
    let variants: Vec<Vec<&Vec<(&str, &str)>>> = members
        .iter()
        .map(|m| {
            let mut v: Vec<&Vec<(&str, &str)>> = members
                .iter()
                .filter(|o| o.stem == m.stem && o.last == m.last)
                .map(|o| &o.phrases)
                .collect();
            v.sort();
            v.dedup();
            v
        })
        .collect();
    let mut out: Vec<(usize, Line)> = Vec::new();
    let mut done = vec![false; members.len()];
    for i in 0..members.len() {
        if done[i] {
            continue;
        }
        let mine = &variants[i];
        let group: Vec<usize> = (i..members.len())
            .filter(|&j| !done[j] && members[j].stem == members[i].stem && variants[j] == *mine)
            .collect();
        for &j in &group {
            done[j] = true;
        }
        if group.len() == 1 {
            out.push((members[i].at, lines[members[i].at].clone()));
            continue;
        }
        let mut lasts: Vec<&str> = Vec::new();
        for &j in &group {
            if let Some(l) = members[j].last
                && !lasts.contains(&l)
            {
                lasts.push(l);
            }
        }
        let mut text = members[i].stem.clone();
        if !lasts.is_empty() {
            text.push(' ');
            text.push_str(&slot(&lasts));
        }
        // Each option word: its values, bracketed when some variant goes without it.
        // In the order the commands name them.
        let mut keys: Vec<&str> = Vec::new();
        for &j in &group {
            for (k, _) in &members[j].phrases {
                if !keys.contains(k) {
                    keys.push(k);
                }
            }
        }
        for k in keys {
            let mut values: Vec<&str> = Vec::new();
            for v in mine {
                for (kk, val) in v.iter() {
                    if *kk == k && !values.contains(val) {
                        values.push(val);
                    }
                }
            }
            let phrase = match values.as_slice() {
                [""] => k.to_string(),
                _ => format!("{k} {}", slot(&values)),
            };
            if mine.iter().all(|v| v.iter().any(|(kk, _)| *kk == k)) {
                text.push_str(&format!(" {phrase}"));
            } else {
                text.push_str(&format!(" [{phrase}]"));
            }
        }
        out.push((
            members[i].at,
            Line::Folded {
                text,
                commands: group.iter().map(|&j| lines[members[j].at].to_string()).collect(),
            },
        ));
    }
    for (at, l) in lines.iter().enumerate() {
        if !matches!(l, Line::Full(_)) {
            out.push((at, l.clone()));
        }
    }
    out.sort_by_key(|(at, _)| *at);
    out.into_iter().map(|(_, l)| l).collect()
}

/// Completes the word before the cursor. `line` is the text up to the cursor; returns where
/// the completed word starts and the candidates (a trailing space when more words follow).
pub fn complete(candidates: &[String], line: &str) -> (usize, Vec<String>) {
    let start = line.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let done: Vec<&str> = line[..start].split_whitespace().collect();
    let partial = line[start..].to_ascii_lowercase();
    let mut out: Vec<String> = Vec::new();
    let mut more: Vec<bool> = Vec::new();
    for c in candidates {
        let w: Vec<&str> = c.split_whitespace().collect();
        if w.len() <= done.len() || !w.iter().zip(&done).all(|(a, b)| a.eq_ignore_ascii_case(b)) {
            continue;
        }
        let next = w[done.len()];
        if !next.to_ascii_lowercase().starts_with(&partial) {
            continue;
        }
        let follows = w.len() > done.len() + 1;
        match out.iter().position(|o| o == next) {
            Some(i) => more[i] |= follows,
            None => {
                out.push(next.to_string());
                more.push(follows);
            }
        }
    }
    let out = out
        .into_iter()
        .zip(more)
        .map(|(w, m)| if m { format!("{w} ") } else { w })
        .collect();
    (start, out)
}

/// Concrete GM rulings to complete, from a ruleset's `gm_help` text: each `gm <word> ...`
/// template is expanded word by word (`a|b` alternatives, `<id>` to every combatant id) up to
/// the first word that cannot be listed (a number, a square, a new name).
pub fn gm_candidates(help: &str, ids: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let words: Vec<&str> = help.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        if words[i] != "gm" {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < words.len() && words[j] != "gm" {
            j += 1;
        }
        let template = &words[i + 1..j];
        let mut partial: Vec<String> = vec!["gm".into()];
        for t in template {
            let options: Vec<String> = if *t == "<id>" {
                ids.to_vec()
            } else if t.starts_with('<') || t.contains('N') || t.contains(',') && !t.contains('|') {
                Vec::new()
            } else {
                t.split('|').map(str::to_string).collect()
            };
            if options.is_empty() || partial.len() * options.len() > 4096 {
                break;
            }
            partial = partial
                .iter()
                .flat_map(|p| options.iter().map(move |o| format!("{p} {o}")))
                .collect();
        }
        out.extend(partial.into_iter().filter(|p| p != "gm"));
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn squares_are_two_integers() {
        assert!(is_square("3,4"));
        assert!(is_square("-1,10"));
        assert!(!is_square("biffer,plinker"));
        assert!(!is_square("3,"));
        assert!(!is_square("3"));
    }

    #[test]
    fn short_families_are_shown_in_full_and_long_ones_once() {
        let mut c = strings(&["begin", "act strike biffer", "act strike plinker"]);
        for x in 0..8 {
            for y in 0..5 {
                c.push(format!("move {x},{y}"));
            }
        }
        c.extend(strings(&["place 0,1", "place 0,2"]));
        let lines: Vec<String> = group(&c).iter().map(|l| l.to_string()).collect();
        assert_eq!(
            lines,
            [
                "begin",
                "act strike biffer",
                "act strike plinker",
                "move <x,y>  (40 squares)",
                "place 0,1",
                "place 0,2"
            ]
        );
    }

    #[test]
    fn a_line_ability_is_one_line_with_its_directions() {
        let mut c = Vec::new();
        for x in 0..4 {
            for y in 0..3 {
                for d in ["n", "e", "s", "w"] {
                    c.push(format!("act lance line {x},{y} {d}"));
                }
            }
        }
        c.push("act lance line 9,9 n overexert".into());
        let lines: Vec<String> = group(&c).iter().map(|l| l.to_string()).collect();
        assert_eq!(
            lines,
            [
                "act lance line <x,y> <n|e|s|w>  (48 choices, 12 squares)",
                "act lance line 9,9 n overexert"
            ]
        );
    }

    fn folded(c: &[String], options: &[&str], flags: &[&str]) -> Vec<String> {
        fold(group(c), Optional { options, flags })
            .iter()
            .map(|l| l.to_string())
            .collect()
    }

    #[test]
    fn variants_of_one_verb_fold_into_one_line_with_their_targets_and_optional_phrases() {
        let mut c = Vec::new();
        for t in ["orrin", "marta"] {
            for tail in ["", " using dex", " prof none", " using dex prof none"] {
                c.push(format!("attack {t}{tail}"));
            }
        }
        c.extend(strings(&[
            "seek-cover",
            "prone",
            "ready attack when approach",
            "ready attack when turn",
            "end",
        ]));
        assert_eq!(
            folded(&c, &["using", "prof"], &[]),
            [
                "attack <orrin|marta> [using dex] [prof none]",
                "seek-cover",
                "prone",
                "ready attack when <approach|turn>",
                "end"
            ]
        );
    }

    #[test]
    fn a_phrase_is_never_shown_on_words_that_cannot_take_it() {
        let c = strings(&[
            "declare w attack oda with spear",
            "declare w attack wenna with spear",
            "declare w defensive oda with spear",
            "declare w defensive wenna with spear",
            "declare w defensive with spear",
            "declare w full-defense",
            "declare w move",
            "declare w flee",
        ]);
        assert_eq!(
            folded(&c, &["with"], &[]),
            [
                "declare w attack <oda|wenna> with spear",
                "declare w defensive <oda|wenna> with spear",
                "declare w defensive with spear",
                "declare w <full-defense|move|flee>",
            ]
        );
        // Two weapons: the phrase's values are spelt out; flags are bracketed words.
        let c = strings(&[
            "attack toll-1 with axe",
            "attack toll-1 with axe hold",
            "attack toll-1 with dagger",
            "attack toll-1 with dagger hold",
            "attack toll-2 with axe",
            "attack toll-2 with axe hold",
            "attack toll-2 with dagger",
            "attack toll-2 with dagger hold",
        ]);
        assert_eq!(
            folded(&c, &["with"], &["hold"]),
            ["attack <toll-1|toll-2> with <axe|dagger> [hold]"]
        );
    }

    #[test]
    fn square_families_stay_as_they_are_and_lines_keep_their_order() {
        let mut c = strings(&["act strike biffer", "act strike plinker"]);
        for x in 0..8 {
            c.push(format!("move {x},0"));
        }
        c.push("act shove biffer".into());
        assert_eq!(
            folded(&c, &[], &[]),
            [
                "act strike <biffer|plinker>",
                "move <x,y>  (8 squares)",
                "act shove biffer"
            ]
        );
    }

    #[test]
    fn many_words_in_one_slot_are_counted_past_the_first_few() {
        let c: Vec<String> = (0..12).map(|i| format!("pick p{i}")).collect();
        assert_eq!(folded(&c, &[], &[]), ["pick <p0|p1|p2|p3|p4|p5|p6|p7|... 4 more>"]);
        let c: Vec<String> = (0..10).map(|i| format!("pick p{i}")).collect();
        assert_eq!(folded(&c, &[], &[]), ["pick <p0|p1|p2|p3|p4|p5|p6|p7|p8|p9>"]);
    }

    #[test]
    fn places_that_hold_a_bar_of_their_own_are_parted_by_commas() {
        // Murdham writes a border between two zones `road|ditch`.
        let c = strings(&[
            "move road",
            "move road|ditch",
            "move ditch",
            "move ditch|shrine",
            "move shrine",
        ]);
        assert_eq!(
            folded(&c, &[], &[]),
            ["move <road, road|ditch, ditch, ditch|shrine, shrine>"]
        );
        let c: Vec<String> = (0..12).map(|i| format!("go z{i}|z{}", i + 1)).collect();
        assert_eq!(
            folded(&c, &[], &[]),
            ["go <z0|z1, z1|z2, z2|z3, z3|z4, z4|z5, z5|z6, z6|z7, z7|z8, ... 4 more>"]
        );
    }

    #[test]
    fn completion_offers_the_next_word_of_matching_commands() {
        let c = strings(&["move 1,2", "move 1,3", "act strike biffer", "act shove biffer", "pass"]);
        assert_eq!(complete(&c, ""), (0, strings(&["move ", "act ", "pass"])));
        assert_eq!(complete(&c, "mo"), (0, strings(&["move "])));
        assert_eq!(complete(&c, "move "), (5, strings(&["1,2", "1,3"])));
        assert_eq!(complete(&c, "act s"), (4, strings(&["strike ", "shove "])));
        assert_eq!(complete(&c, "ACT STRIKE b"), (11, strings(&["biffer"])));
        assert_eq!(complete(&c, "jump "), (5, Vec::<String>::new()));
    }

    #[test]
    fn gm_rulings_expand_alternatives_and_ids() {
        let help = "gm set <id> fatigue|stress +N|-N|=N\ngm move <id> <x,y>       gm end <side>|none";
        let ids = strings(&["korrin", "biffer"]);
        let g = gm_candidates(help, &ids);
        assert!(g.contains(&"gm set korrin fatigue".to_string()));
        assert!(g.contains(&"gm set biffer stress".to_string()));
        assert!(g.contains(&"gm move korrin".to_string()));
        assert!(g.contains(&"gm end".to_string()));
        assert!(!g.iter().any(|x| x.contains('<')));
    }
}
