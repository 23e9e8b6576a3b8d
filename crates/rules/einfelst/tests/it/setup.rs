//! Encounter files: every problem is reported at its file, line and column, with a message that
//! says what is wrong (and, where there is a list to choose from, the list).

use fray_einfelst::Einfelst;
use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;

/// The diagnostics of an encounter, as `fray check` prints them.
fn problems(text: &str) -> Vec<String> {
    let src = SourceFile {
        name: "e.toml".into(),
        text: text.into(),
    };
    match Einfelst::load(&src, &mut |_| Err("no files".into())) {
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

/// Two zones (a wood with cover and a road), two sides, one combatant on each.
const MAP: &str = "ruleset = \"einfelst\"
[[zone]]
id = \"wood\"
links = [\"road\"]
cover = 1
[[zone]]
id = \"road\"
exit = true
[[side]]
id = \"pcs\"
[[side]]
id = \"foes\"
";

/// A good encounter: `MAP`, `top` (tables before the combatants), then combatant `a` (pcs, on
/// the road) with the lines `a`, then combatant `b` (foes, in the wood) with the lines `b`.
fn encounter(top: &str, a: &str, b: &str) -> String {
    format!(
        "{MAP}{top}[[combatant]]\nid = \"a\"\nside = \"pcs\"\nzone = \"road\"\n{a}\
         [[combatant]]\nid = \"b\"\nside = \"foes\"\nzone = \"wood\"\n{b}"
    )
}

#[test]
fn a_good_encounter_loads() {
    assert_eq!(problems(&encounter("", "", "")), Vec::<String>::new());
    // Every table and key this ruleset reads. `player-sides` is a top-level key, so it goes
    // before the first table.
    let full = encounter(
        "[weapon.bane]\nname = \"bane spear\"\nkind = \"thrown\"\ndamage = 2\nrange = [0, 1]\npoison = 3\n\
         [spell.sting]\nname = \"sting\"\ndamage = 1\nrange = [0, 2]\nresist = \"endure\"\n\
         [obstacle.rubble]\naction = \"force\"\nneed = 2\nclear = true\n\
         [weapon.fangs]\nname = \"fangs\"\nkind = \"natural\"\ndamage = 2\naction = \"strike\"\n\
         [ambush]\nside = \"foes\"\ntest = \"read\"\nroller = \"b\"\n",
        "weapons = [\"bane\", \"torch\"]\nspells = [\"sting\"]\nattributes = { strength = 3, reason = 2 }\nactions = { strike = 2, cast = 1 }\n",
        "harm = \"points\"\nharm-capacity = 5\ncover = true\ngroup = \"pack\"\ncards = 2\nfear = 1\nimmune = [\"dark\"]\nweapons = [\"fangs\", \"bite\", \"claws\"]\n",
    )
    .replacen("exit = true\n", "exit = true\nobstacles = { wood = \"rubble\" }\n", 1);
    let full = format!("player-sides = [\"pcs\"]\n{full}");
    assert_eq!(problems(&full), Vec::<String>::new());
}

#[test]
fn an_unknown_zone_names_the_zones() {
    let text = encounter("", "", "").replacen("zone = \"wood\"", "zone = \"moor\"", 1);
    one_problem(&text, "\"moor\"", "unknown zone 'moor'; the zones are: wood, road");
}

#[test]
fn unknown_weapons_spells_and_immunities_are_named() {
    let text = encounter("", "weapons = [\"sword\", \"halberd\"]\n", "");
    one_problem(&text, "[\"sword\", \"halberd\"]", "unknown weapon 'halberd'");
    let text = encounter("", "spells = [\"hex\"]\n", "");
    one_problem(&text, "[\"hex\"]", "unknown spell 'hex'");
    let text = encounter("", "", "immune = [\"fog\"]\n");
    one_problem(&text, "[\"fog\"]", "unknown circumstance 'fog'");
}

#[test]
fn an_unknown_circumstance_says_how_to_add_one() {
    let text = format!("circumstances = [\"fog\"]\n{}", encounter("", "", ""));
    one_problem(
        &text,
        "\"fog\"",
        "not a circumstance: 'fog' (known: dark; add a [circumstance.fog] table)",
    );
    // A zone's tag is checked against the same list, at the tag.
    let text = encounter("", "", "").replacen("cover = 1\n", "cover = 1\ntags = [\"fog\"]\n", 1);
    one_problem(
        &text,
        "\"fog\"",
        "not a circumstance: 'fog' (known: dark; add a [circumstance.fog] table)",
    );
    // With the table, the tag is fine.
    let text = format!("{text}[circumstance.fog]\nactions = [\"shoot\", \"read\"]\nextra = 1\n");
    assert_eq!(problems(&text), Vec::<String>::new());
}

#[test]
fn an_obstacle_needs_its_table() {
    let text = encounter("", "", "").replacen("cover = 1\n", "cover = 1\nobstacles = { road = \"rubble\" }\n", 1);
    one_problem(
        &text,
        "\"rubble\"",
        "the obstacle 'rubble' has no [obstacle.rubble] table saying what crossing it takes",
    );
    let fixed = format!("{text}[obstacle.rubble]\nslow = true\naction = \"force\"\n");
    assert_eq!(problems(&fixed), Vec::<String>::new());
    let zero = format!("{text}[obstacle.rubble]\nneed = 0\n");
    one_problem(&zero, "[obstacle.rubble]", "obstacle 'rubble': need must be 1..=5");
}

#[test]
fn a_bad_harm_kind_is_refused_at_its_value() {
    let text = encounter("", "", "harm = \"hp\"\n");
    one_problem(
        &text,
        "\"hp\"",
        "harm = \"hp\": expected \"track\" (Harm rows) or \"points\" (EIN-R24)",
    );
}

#[test]
fn cover_needs_a_zone_with_cover() {
    // `a` stands on the road, which has no cover; `b`, in the wood, may start in cover.
    let text = encounter("", "cover = true\n", "cover = true\n");
    one_problem(
        &text,
        "\"road\"\ncover",
        "'a' starts in cover, but zone 'road' has no cover",
    );
}

#[test]
fn the_ambush_names_a_side_and_a_roller_on_it() {
    let text = encounter("[ambush]\nside = \"orcs\"\ntest = \"track\"\n", "", "");
    one_problem(&text, "\"orcs\"", "unknown side 'orcs'");
    let text = encounter("[ambush]\nside = \"foes\"\ntest = \"track\"\nroller = \"a\"\n", "", "");
    one_problem(&text, "\"a\"\n[[combatant]]", "'a' is not on the ambushing side");
    let text = encounter(
        "[ambush]\nside = \"foes\"\ntest = \"track\"\nroller = \"zed\"\n",
        "",
        "",
    );
    one_problem(&text, "\"zed\"", "unknown combatant 'zed'");
    let text = encounter("[ambush]\nside = \"foes\"\ntest = \"smell\"\n", "", "");
    let got = problems(&text);
    assert!(
        got.len() == 1 && got[0].contains("unknown variant `smell`") && got[0].contains("`track`, `read`, `none`"),
        "{got:?}"
    );
}

#[test]
fn player_sides_are_sides_of_the_encounter() {
    let text = format!("player-sides = [\"heroes\"]\n{}", encounter("", "", ""));
    one_problem(&text, "\"heroes\"", "unknown side 'heroes'");
}

#[test]
fn unknown_attributes_and_actions_list_the_names() {
    let text = encounter("", "attributes = { strenth = 3 }\n", "");
    one_problem(
        &text,
        "{ strenth = 3 }",
        "'strenth' is not an attribute (did you mean 'strength'?); the attributes are strength, dexterity, intuition, reason, presence",
    );
    let text = encounter("", "", "actions = { fight = 2 }\n");
    one_problem(
        &text,
        "{ fight = 2 }",
        "'fight' is not an Action; the Actions are strike, shoot, force, endure, finesse, sneak, track, read, study, persuade, charm, intimidate, cast",
    );
}

#[test]
fn a_near_miss_is_named_for_weapons_spells_circumstances_obstacles_actions_and_zones() {
    let text = encounter("", "weapons = [\"swrod\"]\n", "");
    one_problem(&text, "[\"swrod\"]", "unknown weapon 'swrod' (did you mean 'sword'?)");
    let text = encounter("", "", "immune = [\"drak\"]\n");
    one_problem(
        &text,
        "[\"drak\"]",
        "unknown circumstance 'drak' (did you mean 'dark'?)",
    );
    let text = encounter("", "", "actions = { snaek = 2 }\n");
    let got = problems(&text);
    assert!(
        got.len() == 1 && got[0].contains("'snaek' is not an Action (did you mean 'sneak'?)"),
        "{got:?}"
    );
    let text = encounter("", "", "").replacen("zone = \"wood\"", "zone = \"wod\"", 1);
    one_problem(
        &text,
        "\"wod\"",
        "unknown zone 'wod' (did you mean 'wood'?); the zones are: wood, road",
    );
    // An obstacle label a letter off the table's.
    let text = encounter("", "", "").replacen("cover = 1\n", "cover = 1\nobstacles = { road = \"rubbel\" }\n", 1)
        + "[obstacle.rubble]\nclear = true\naction = \"force\"\n";
    one_problem(
        &text,
        "\"rubbel\"",
        "the obstacle 'rubbel' has no [obstacle.rubbel] table saying what crossing it takes (did you mean 'rubble'?)",
    );
}

#[test]
fn every_shape_problem_of_the_file_is_reported_at_once() {
    // Two fields with no place (one a near miss) in two tables, and a value of the wrong kind:
    // all three, not just the first, and the loader's own checks still run on the rest.
    let text = encounter("", "armor = 1\n", "cardz = 2\n").replacen("cover = 1", "cover = \"one\"", 1);
    let got = problems(&text);
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(
        got.iter()
            .any(|p| p.contains("unknown field `armor`") && p.contains("(did you mean `armour`?)")),
        "{got:?}"
    );
    assert!(
        got.iter()
            .any(|p| p.contains("unknown field `cardz`") && p.contains("(did you mean `cards`?)")),
        "{got:?}"
    );
    assert!(got.iter().any(|p| p.starts_with(&at(&text, "\"one\""))), "{got:?}");
    let text = encounter("", "armor = 1\nweapons = [\"halberd\"]\n", "");
    let got = problems(&text);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].contains("armor") || got[1].contains("armor"), "{got:?}");
    assert!(got.iter().any(|p| p.contains("unknown weapon 'halberd'")), "{got:?}");
}

#[test]
fn numbers_out_of_range_are_refused_at_their_combatant() {
    // A stat block's numbers are checked together, and reported at the combatant's table.
    for (lines, says) in [
        ("cards = 4\n", "cards must be 1..=3 (EIN-R46)"),
        (
            "harm = \"points\"\nharm-capacity = 21\n",
            "harm-capacity must be 0..=20",
        ),
        ("armour = 10\n", "armour and fear must be 0..=9"),
        (
            "slow = 0\nfast = 0\n",
            "slow and fast manoeuvres must be 0..=3 each, and at least one in all",
        ),
    ] {
        let text = encounter("", "", lines);
        // b's table is the last [[combatant]].
        let line = text[..text.rfind("[[combatant]]").expect("b")].matches('\n').count() + 1;
        assert_eq!(problems(&text), [format!("e.toml:{line}:1: error: {says}")], "{lines}");
    }
    // A rating out of range is refused at its table, naming it.
    for (lines, table, says) in [
        (
            "attributes = { strength = 7 }\n",
            "{ strength = 7 }",
            "strength = 7: attributes are rated 0 to 6",
        ),
        (
            "actions = { sneak = 6 }\n",
            "{ sneak = 6 }",
            "sneak = 6: Actions are rated 0 to 5",
        ),
    ] {
        let text = encounter("", "", lines);
        assert_eq!(
            problems(&text),
            [format!("{}: error: {says}", at(&text, table))],
            "{lines}"
        );
    }
    // A number too large for its type is refused where it stands.
    let text = encounter("", "", "attributes = { strength = 300 }\n");
    let got = problems(&text);
    let line = at(&text, "{ strength = 300 }");
    let line = &line[..line.rfind(':').expect("line:column")];
    assert!(got.len() == 1 && got[0].starts_with(&format!("{line}:")), "{got:?}");
}

#[test]
fn weapons_and_spells_are_checked() {
    let text = encounter(
        "[weapon.pike]\nname = \"pike\"\nkind = \"melee\"\ndamage = 2\nrange = [0, 1]\n",
        "",
        "",
    );
    one_problem(
        &text,
        "[weapon.pike]",
        "weapon 'pike': a melee weapon reaches only its own zone: range = [0, 0] (EIN-R48)",
    );
    let text = encounter(
        "[weapon.knife]\nname = \"knife\"\nkind = \"thrown\"\ndamage = 1\n",
        "",
        "",
    );
    one_problem(
        &text,
        "[weapon.knife]",
        "weapon 'knife': a thrown weapon reaches its own zone and the next one: range = [0, 1] (EIN-R48)",
    );
    let text = encounter(
        "[weapon.bolt]\nname = \"bolt\"\nkind = \"ranged\"\ndamage = 1\nrange = [1, 2]\nfire = 5\n",
        "",
        "",
    );
    one_problem(
        &text,
        "[weapon.bolt]",
        "weapon 'bolt': damage must be 0..=9, poison 0..=20 and fire 0..=3",
    );
    // Natural weapons (fray's own): close combat only, with Strike or Force; only they name one.
    let text = encounter(
        "[weapon.tail]\nname = \"tail\"\nkind = \"natural\"\ndamage = 1\nrange = [0, 1]\n",
        "",
        "",
    );
    one_problem(
        &text,
        "[weapon.tail]",
        "weapon 'tail': a natural weapon reaches only its own zone: range = [0, 0] (EIN-R48)",
    );
    let text = encounter(
        "[weapon.horns]\nname = \"horns\"\nkind = \"natural\"\ndamage = 2\naction = \"shoot\"\n",
        "",
        "",
    );
    one_problem(
        &text,
        "[weapon.horns]",
        "weapon 'horns': a natural weapon attacks with strike or force, not shoot",
    );
    let text = encounter(
        "[weapon.blade]\nname = \"blade\"\nkind = \"melee\"\ndamage = 2\naction = \"force\"\n",
        "",
        "",
    );
    one_problem(
        &text,
        "[weapon.blade]",
        "weapon 'blade': only a natural weapon (kind = \"natural\") names its action",
    );
    let text = encounter(
        "[spell.far]\nname = \"far\"\ndamage = 1\nrange = [3, 1]\nresist = \"endure\"\n",
        "",
        "",
    );
    one_problem(
        &text,
        "[spell.far]",
        "spell 'far': damage must be 0..=9 and range two zone counts, nearest first, at most 9",
    );
}

#[test]
fn each_problem_is_reported_not_only_the_first() {
    let text =
        encounter("", "weapons = [\"halberd\"]\nharm = \"hp\"\n", "").replacen("zone = \"wood\"", "zone = \"moor\"", 1);
    assert_eq!(
        problems(&text),
        [
            format!("{}: error: unknown weapon 'halberd'", at(&text, "[\"halberd\"]")),
            format!(
                "{}: error: harm = \"hp\": expected \"track\" (Harm rows) or \"points\" (EIN-R24)",
                at(&text, "\"hp\"")
            ),
            format!(
                "{}: error: unknown zone 'moor'; the zones are: wood, road",
                at(&text, "\"moor\"")
            ),
        ]
    );
}

#[test]
fn a_side_without_combatants_and_a_file_for_another_ruleset() {
    let lonely = encounter("", "", "").replacen("side = \"foes\"", "side = \"pcs\"", 1);
    one_problem(&lonely, "[[side]]\nid = \"foes\"", "side 'foes' has no combatants");
    assert_eq!(
        problems(&encounter("", "", "").replacen("einfelst", "thrum", 1)),
        ["e.toml:1:11: error: this file is for ruleset 'thrum', not 'einfelst'"]
    );
}

/// EIN-R47: movement runs along the links, so a map on which the sides stand in zones no links
/// join could never end its fight; it is refused at the first combatant who stands apart.
#[test]
fn ein_r47_combatants_no_links_join_to_the_fight_are_refused_at_their_table() {
    let text = encounter("", "", "").replace("links = [\"road\"]\n", "");
    let p = problems(&text);
    assert_eq!(p.len(), 1, "{p:?}");
    let second = text.rfind("[[combatant]]").expect("two combatants");
    let line = text[..second].matches('\n').count() + 1;
    assert_eq!(
        p[0],
        format!(
            "e.toml:{line}:1: error: no links join zone 'wood' (side 'foes') to zone 'road' (side 'pcs'): those who start there could never reach each other, so the fight could never end"
        )
    );
    // Joined again through a third zone, the map loads.
    let joined = text.replace(
        "[[side]]\nid = \"pcs\"",
        "[[zone]]\nid = \"ford\"\nlinks = [\"road\", \"wood\"]\n[[side]]\nid = \"pcs\"",
    );
    assert_eq!(problems(&joined), Vec::<String>::new());
}
