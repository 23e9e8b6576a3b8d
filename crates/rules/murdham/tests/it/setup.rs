//! Encounter files: every problem is reported at its file, line and column, with a message that
//! says what is wrong (and, where there is a list to choose from, the list).

use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_murdham::Murdham;

/// The diagnostics of an encounter, as `fray check` prints them.
fn problems(text: &str) -> Vec<String> {
    let src = SourceFile {
        name: "e.toml".into(),
        text: text.into(),
    };
    match Murdham::load(&src, &mut |_| Err("no files".into())) {
        Ok(_) => Vec::new(),
        Err(d) => d.iter().map(|x| x.to_string()).collect(),
    }
}

/// `e.toml:LINE:COLUMN` of the first occurrence of `needle` (1-based, as diagnostics print it).
fn at(text: &str, needle: &str) -> String {
    let i = text
        .find(needle)
        .unwrap_or_else(|| panic!("no {needle:?} in the test's text"));
    let line = text[..i].matches('\n').count() + 1;
    let column = i - text[..i].rfind('\n').map_or(0, |n| n + 1) + 1;
    format!("e.toml:{line}:{column}")
}

/// The one diagnostic of `text`, which must be at `needle` and say `says`.
fn one_problem(text: &str, needle: &str, says: &str) {
    assert_eq!(
        problems(text),
        [format!("{}: error: {says}", at(text, needle))],
        "{text}"
    );
}

/// Three zones (a yard with one cover spot linked to a road, and a pond linked to nothing), two
/// factions.
const MAP: &str = "ruleset = \"murdham\"
[[zone]]
id = \"yard\"
links = [\"road\"]
cover = 1
[[zone]]
id = \"road\"
[[zone]]
id = \"pond\"
[[side]]
id = \"pcs\"
[[side]]
id = \"foes\"
";

/// A good encounter: `MAP`, `top` (tables before the combatants), then combatant `a` (pcs, on
/// the road) with the lines `a`, then combatant `b` (foes, in the yard) with the lines `b`.
fn encounter(top: &str, a: &str, b: &str) -> String {
    format!(
        "{MAP}{top}[[combatant]]\nid = \"a\"\nside = \"pcs\"\nat = \"road\"\nstr = 8\nagi = 8\nwit = 8\n{a}\
         [[combatant]]\nid = \"b\"\nside = \"foes\"\nat = \"yard\"\nstr = 8\nagi = 8\nwit = 8\n{b}"
    )
}

/// One more foe in the yard, with the lines `extra`.
fn foe(id: &str, at: &str, extra: &str) -> String {
    format!("[[combatant]]\nid = \"{id}\"\nside = \"foes\"\nat = \"{at}\"\nstr = 8\nagi = 8\nwit = 8\n{extra}")
}

/// The line of the last `[[combatant]]` table of `text`, where problems of its stat block as a
/// whole are reported.
fn last_combatant(text: &str) -> String {
    let line = text[..text.rfind("[[combatant]]").expect("a combatant")]
        .matches('\n')
        .count()
        + 1;
    format!("e.toml:{line}:1")
}

#[test]
fn a_good_encounter_loads() {
    assert_eq!(problems(&encounter("", "", "")), Vec::<String>::new());
    // Every table and key this ruleset reads. `initiative` and `player-sides` are top-level
    // keys, so they go before the first table.
    let full = encounter(
        "[options]\nfast-slow = true\ntie-order = \"random-when-zero\"\n\
         [item.cleaver]\nname = \"cleaver\"\ndamage = 6\nkeywords = [\"fragile\"]\n\
         [power.chill]\nname = \"chill\"\ndamage = 4\nrange = 2\neffect = \"stun\"\nsave = \"str\"\ndodge = true\n\
         [penetration]\nfence = [\"gunpowder\"]\n\
         [template.brute]\nname = \"Brute\"\nstr = 12\nagi = 6\nwit = 5\nsize = \"large\"\nwield = [\"martial-great\"]\n",
        "name = \"Ann\"\narmour = \"light\"\nhelmet = true\nskills = [\"protect\", \"tough\"]\n\
         wield = [\"martial-hand\", \"shield\"]\ncarry = [\"healing-draught\", \"cleaver\"]\nhealth = 5\n",
        "kind = \"undead\"\nmind = \"mindless\"\nsize = \"small\"\npowers = [\"chill\"]\nconcealed = true\ncover = true\n",
    )
    .replacen("id = \"road\"\n", "id = \"road\"\ntags = [\"fence\", \"dark\", \"hazard-6\"]\n", 1)
    .replacen("id = \"pond\"\n", "id = \"pond\"\ntags = [\"concealment\", \"barrier\"]\n", 1);
    let full = format!(
        "initiative = \"foes\"\nplayer-sides = [\"pcs\"]\n{full}{}",
        foe("c", "road|yard", "template = \"brute\"\n")
    );
    assert_eq!(problems(&full), Vec::<String>::new());
}

#[test]
fn an_unknown_place_names_the_zones_and_a_border_needs_a_link() {
    let text = encounter("", "", "").replacen("at = \"road\"", "at = \"moor\"", 1);
    one_problem(
        &text,
        "\"moor\"",
        "unknown zone 'moor'; the zones are: yard, road, pond",
    );
    let text = encounter("", "", "").replacen("at = \"road\"", "at = \"road|pond\"", 1);
    one_problem(
        &text,
        "\"road|pond\"",
        "'road|pond' is no border: 'road' and 'pond' are not linked",
    );
    // A border of linked zones is a place, written in either order.
    let text = encounter("", "", "").replacen("at = \"road\"", "at = \"road|yard\"", 1);
    assert_eq!(problems(&text), Vec::<String>::new());
}

#[test]
fn abilities_are_scores_from_1_to_19() {
    for bad in ["str = 0", "str = 20"] {
        let text = encounter("", "", "").replacen("str = 8", bad, 1);
        assert_eq!(
            problems(&text),
            [format!(
                "{}: error: 'a': STR, AGI and WIT are scores from 1 to 19",
                at(&text, "[[combatant]]")
            )],
            "{bad}"
        );
    }
    let text = encounter("", "", "").replacen("wit = 8\n", "", 1);
    one_problem(&text, "[[combatant]]", "'a' needs str, agi and wit (scores 1 to 19)");
    // A number too large for its type is refused where it stands.
    let text = encounter("", "", "").replacen("agi = 8", "agi = 300", 1);
    let got = problems(&text);
    let line = at(&text, "agi = 300");
    let line = &line[..line.rfind(':').expect("line:column")];
    assert!(got.len() == 1 && got[0].starts_with(&format!("{line}:")), "{got:?}");
}

#[test]
fn unknown_items_powers_templates_and_words_are_named() {
    let text = encounter("", "wield = [\"sword\"]\n", "");
    one_problem(&text, "[\"sword\"]", "unknown item 'sword'");
    let text = encounter("", "", "carry = [\"antidote\", \"halberd\"]\n");
    one_problem(&text, "[\"antidote\", \"halberd\"]", "unknown item 'halberd'");
    let text = encounter("", "powers = [\"hex\"]\n", "");
    one_problem(&text, "[\"hex\"]", "unknown power 'hex'");
    let text = encounter("", "template = \"brute\"\n", "");
    one_problem(&text, "\"brute\"", "unknown template 'brute'");
    let text = encounter("", "armour = \"plate\"\n", "");
    one_problem(&text, "\"plate\"", "armour = \"plate\": expected none, light or heavy");
    for (line, word, list) in [
        (
            "size = \"huge\"\n",
            "huge",
            "`tiny`, `small`, `medium`, `large`, `massive`",
        ),
        ("kind = \"fey\"\n", "fey", "`creature`, `construct`, `demon`, `undead`"),
        ("skills = [\"juggling\"]\n", "juggling", "`dodge-blows`, `protect`"),
    ] {
        let text = encounter("", "", line);
        let got = problems(&text);
        assert!(
            got.len() == 1
                && got[0].starts_with(&at(&text, &format!("\"{word}\"")))
                && got[0].contains(&format!("unknown variant `{word}`"))
                && got[0].contains(list),
            "{got:?}"
        );
    }
}

#[test]
fn hands_hold_two_items_and_never_bare_hands() {
    let text = encounter("", "wield = [\"simple-great\", \"shield\"]\n", "");
    one_problem(
        &text,
        "[\"simple-great\", \"shield\"]",
        "'a': the items in hand need more than two hands (a two-handed item is held alone)",
    );
    let text = encounter("", "wield = [\"unarmed\"]\n", "");
    one_problem(
        &text,
        "[\"unarmed\"]",
        "'a': bare hands are not an item to hold or carry",
    );
    let text = encounter("", "wield = [\"shield\", \"shield\", \"shield\"]\n", "");
    let got = problems(&text);
    assert!(
        got.contains(&format!(
            "{}: error: 'a': a character holds at most two items (wield)",
            at(&text, "[[combatant]]")
        )),
        "{got:?}"
    );
}

#[test]
fn starting_health_is_within_the_maximum() {
    let text = encounter("", "health = 9\n", "");
    one_problem(&text, "9\n", "health = 9: it starts between 1 and its maximum, 8");
    // Tough raises the maximum by 2.
    let text = encounter("", "health = 10\nskills = [\"tough\"]\n", "");
    assert_eq!(problems(&text), Vec::<String>::new());
}

#[test]
fn places_have_room_for_8_in_a_zone_and_2_on_a_border() {
    let extra: String = (0..7).map(|i| foe(&format!("f{i}"), "yard", "")).collect();
    // b and seven more fill the yard.
    assert_eq!(
        problems(&format!("{}{extra}", encounter("", "", ""))),
        Vec::<String>::new()
    );
    let text = format!("{}{extra}{}", encounter("", "", ""), foe("f7", "yard", ""));
    assert_eq!(
        problems(&text),
        [format!(
            "{}: error: 'f7' does not fit: yard holds at most 8 characters",
            last_combatant(&text)
        )]
    );
    let text = format!(
        "{}{}{}",
        encounter("", "", ""),
        foe("c", "yard|road", ""),
        foe("d", "road|yard", "")
    );
    assert_eq!(problems(&text), Vec::<String>::new());
    let text = format!("{text}{}", foe("e", "yard|road", ""));
    assert_eq!(
        problems(&text),
        [format!(
            "{}: error: 'e' does not fit: the border of yard and road holds at most 2 characters",
            last_combatant(&text)
        )]
    );
}

#[test]
fn cover_needs_a_free_spot_in_the_zone() {
    // `a` stands on the road, which has no cover spot; `b` takes the yard's only one.
    let text = encounter("", "cover = true\n", "cover = true\n");
    one_problem(
        &text,
        "[[combatant]]",
        "'a' starts in cover, but road has no free cover spot",
    );
    let text = format!(
        "{}{}",
        encounter("", "", "cover = true\n"),
        foe("c", "yard", "cover = true\n")
    );
    assert_eq!(
        problems(&text),
        [format!(
            "{}: error: 'c' starts in cover, but yard has no free cover spot",
            last_combatant(&text)
        )]
    );
    // A border has no cover spots.
    let text = format!("{}{}", encounter("", "", ""), foe("c", "yard|road", "cover = true\n"));
    assert_eq!(
        problems(&text),
        [format!(
            "{}: error: 'c' starts in cover, but the border of yard and road has no free cover spot",
            last_combatant(&text)
        )]
    );
}

#[test]
fn zone_tags_are_the_ones_murdham_reads() {
    let says = "Murdham reads dark, concealment, barrier, hazard-N (N a die: 4, 6, 8, 10, 12, 20) and the tags of [penetration]";
    for tag in ["fog", "hazard-5", "fence"] {
        let text =
            encounter("", "", "").replacen("id = \"pond\"\n", &format!("id = \"pond\"\ntags = [\"{tag}\"]\n"), 1);
        one_problem(
            &text,
            &format!("\"{tag}\""),
            &format!("unknown zone tag '{tag}': {says}"),
        );
    }
    // A tag of the [penetration] table is known.
    let text = encounter("[penetration]\nfence = [\"gunpowder\"]\n", "", "").replacen(
        "id = \"pond\"\n",
        "id = \"pond\"\ntags = [\"fence\", \"hazard-20\"]\n",
        1,
    );
    assert_eq!(problems(&text), Vec::<String>::new());
    let text = encounter("[penetration]\n\"a fence\" = [\"gunpowder\"]\n", "", "");
    one_problem(&text, "[\"gunpowder\"]", "penetration tag 'a fence' must be one word");
}

#[test]
fn initiative_and_player_sides_name_factions_of_the_encounter() {
    let text = format!("initiative = \"orcs\"\n{}", encounter("", "", ""));
    one_problem(&text, "\"orcs\"", "unknown side 'orcs'");
    let text = format!("player-sides = [\"pcs\", \"elves\"]\n{}", encounter("", "", ""));
    one_problem(&text, "\"elves\"", "unknown side 'elves'");
    let text = encounter("", "", "").replacen("side = \"pcs\"", "side = \"orcs\"", 1);
    one_problem(&text, "\"orcs\"", "unknown side 'orcs'");
}

#[test]
fn items_and_powers_are_checked() {
    let text = encounter("[item.pike]\nname = \"pike\"\ndamage = 7\n", "", "");
    one_problem(
        &text,
        "[item.pike]",
        "item 'pike': damage = 7: a die of 4, 6, 8, 10, 12 or 20 faces, or 0",
    );
    let text = encounter(
        "[item.lob]\nname = \"lob\"\ndamage = 6\nrange = 1\nkeywords = [\"indirect\"]\n",
        "",
        "",
    );
    one_problem(
        &text,
        "[item.lob]",
        "item 'lob': an indirect weapon needs a range of 2 or more",
    );
    let text = encounter("[power.hex]\nname = \"hex\"\n", "", "");
    one_problem(&text, "[power.hex]", "power 'hex': a power needs damage or an effect");
    let text = encounter("[item.pike]\nname = \"pike\"\nreach = 2\n", "", "");
    let got = problems(&text);
    assert!(got.len() == 1 && got[0].contains("unknown field `reach`"), "{got:?}");
}

#[test]
fn options_are_checked_where_they_stand() {
    let text = encounter("", "", "").replacen("[[zone]]", "[options]\nbreak-face = 30\n[[zone]]", 1);
    one_problem(&text, "[options]", "in [options]: break-face = 30 is outside 1..=20");
    let text = encounter("", "", "").replacen("[[zone]]", "[options]\nbreak-fase = 3\n[[zone]]", 1);
    let got = problems(&text);
    assert!(
        got.len() == 1 && got[0].contains("unknown field `break-fase`") && got[0].contains("`break-face`"),
        "{got:?}"
    );
}

#[test]
fn each_problem_is_reported_not_only_the_first() {
    let text =
        encounter("", "wield = [\"halberd\"]\narmour = \"plate\"\n", "").replacen("at = \"yard\"", "at = \"moor\"", 1);
    assert_eq!(
        problems(&text),
        [
            format!(
                "{}: error: armour = \"plate\": expected none, light or heavy",
                at(&text, "\"plate\"")
            ),
            format!("{}: error: unknown item 'halberd'", at(&text, "[\"halberd\"]")),
            format!(
                "{}: error: unknown zone 'moor'; the zones are: yard, road, pond",
                at(&text, "\"moor\"")
            ),
        ]
    );
}

#[test]
fn ids_are_words_unique_without_regard_to_case() {
    let text = encounter("", "", "").replacen("id = \"a\"", "id = \"a b\"", 1);
    one_problem(
        &text,
        "\"a b\"",
        "an id must be one word of letters, digits and '-' (e.g. \"bandit-1\")",
    );
    let text = encounter("", "", "").replacen("id = \"b\"", "id = \"A\"", 1);
    one_problem(
        &text,
        "\"A\"",
        "combatant id 'A' differs from 'a' only by case; ids are typed without regard to case, so pick another id",
    );
}

#[test]
fn a_side_without_combatants_and_a_file_for_another_ruleset() {
    let lonely = encounter("", "", "").replacen("side = \"foes\"", "side = \"pcs\"", 1);
    one_problem(&lonely, "[[side]]\nid = \"foes\"", "side 'foes' has no combatants");
    assert_eq!(
        problems("ruleset = \"thrum\"\n"),
        ["e.toml:1:11: error: this file is for ruleset 'thrum', not 'murdham'"]
    );
}

#[test]
fn a_mistyped_item_power_zone_or_tag_gets_a_did_you_mean() {
    let text = encounter("", "wield = [\"martial-hnd\"]\n", "");
    one_problem(
        &text,
        "[\"martial-hnd\"]",
        "unknown item 'martial-hnd' (did you mean 'martial-hand'?)",
    );
    let text = encounter(
        "[power.chill]\nname = \"chill\"\ndamage = 4\n",
        "powers = [\"chil\"]\n",
        "",
    );
    one_problem(&text, "[\"chil\"]", "unknown power 'chil' (did you mean 'chill'?)");
    let text = encounter("", "", "").replacen("at = \"road\"", "at = \"raod\"", 1);
    one_problem(
        &text,
        "\"raod\"",
        "unknown zone 'raod' (did you mean 'road'?); the zones are: yard, road, pond",
    );
    let text = encounter("", "", "").replacen("id = \"pond\"\n", "id = \"pond\"\ntags = [\"drak\"]\n", 1);
    one_problem(
        &text,
        "\"drak\"",
        "unknown zone tag 'drak' (did you mean 'dark'?): Murdham reads dark, concealment, barrier, hazard-N (N a die: 4, 6, 8, 10, 12, 20) and the tags of [penetration]",
    );
    // Nothing close: no guess.
    let text = encounter("", "wield = [\"halberd\"]\n", "");
    one_problem(&text, "[\"halberd\"]", "unknown item 'halberd'");
}

#[test]
fn every_problem_of_the_files_shape_is_reported_at_once() {
    // Two keys the tables have no place for, and a value of the wrong kind: all three, each at
    // its place, not only the first.
    let text = encounter("", "strenght = 9\n", "helmet = \"yes\"\n").replacen(
        "id = \"pond\"\n",
        "id = \"pond\"\nlinx = [\"road\"]\n",
        1,
    );
    let mut got = problems(&text);
    got.sort();
    let mut want = [
        format!("{}: error: unknown field `linx`", at(&text, "linx")),
        format!("{}: error: unknown field `strenght`", at(&text, "strenght")),
        format!("{}: error: invalid type: string \"yes\"", at(&text, "\"yes\"")),
    ];
    want.sort();
    assert_eq!(got.len(), 3, "{got:#?}");
    for (g, w) in got.iter().zip(&want) {
        assert!(g.starts_with(w.as_str()), "{g} is not {w}");
    }
}

#[test]
fn a_characters_own_seat_is_one_word_joins_the_seats_and_no_template_names_one() {
    use fray_engine::Seat;
    let load = |text: &str| {
        let src = SourceFile {
            name: "e.toml".into(),
            text: text.into(),
        };
        fray_murdham::setup::load(&src).map(|(s, _)| s)
    };
    // New seats join after the factions' seats, in the order they first appear.
    let text = format!(
        "{}{}",
        encounter("", "seat = \"ana\"\n", "seat = \"gm\"\n"),
        foe("c", "yard", "seat = \"ben\"\n") + &foe("d", "yard", "seat = \"ana\"\n")
    );
    let setup = load(&text).expect("loads");
    assert_eq!(setup.seats, ["gm", "pcs", "foes", "ana", "ben"]);
    let seats: Vec<Option<Seat>> = setup.combatants.iter().map(|c| c.seat).collect();
    assert_eq!(seats, [Some(Seat(3)), Some(Seat::GM), Some(Seat(4)), Some(Seat(3))]);
    // A seat that is not one word is refused where it stands.
    let text = encounter("", "seat = \"ana maria\"\n", "");
    one_problem(&text, "\"ana maria\"", "expected one word of letters, digits and '-'");
    let text = encounter("", "seat = 3\n", "");
    assert_eq!(problems(&text).len(), 1, "{:?}", problems(&text));
    assert!(problems(&text)[0].starts_with(&format!("{}: error: invalid type", at(&text, "3\n"))));
    // A template is shared by many characters: it names no seat.
    let text = encounter("[template.brute]\nseat = \"ana\"\nstr = 12\nagi = 6\nwit = 5\n", "", "");
    one_problem(
        &text,
        "\"ana\"",
        "a seat belongs to one character, not to a template: give it in a [[combatant]] table",
    );
}

/// A map on which the factions start in zones no links join could never end its fight: it is
/// refused at the first character who stands apart, naming both zones.
#[test]
fn characters_no_links_join_to_the_fight_are_refused_at_their_table() {
    let text = format!("{}{}", encounter("", "", ""), foe("c", "pond", ""));
    assert_eq!(
        problems(&text),
        [format!(
            "{}: error: no links join zone 'pond' (side 'foes') to zone 'road' (side 'pcs'): those who start there could never reach each other, so the fight could never end",
            last_combatant(&text)
        )]
    );
    let joined = text.replacen("id = \"pond\"\n", "id = \"pond\"\nlinks = [\"yard\"]\n", 1);
    assert_eq!(problems(&joined), Vec::<String>::new());
}
