//! Rule tests: tiny encounters, scripted dice, commands typed as a player would, through the
//! test kit's `Table`. Each test names the rules it checks (`hal_r10_...`, or `// HAL-R10`).
//!
//! Dice at the start: for each creature in encounter order, its Stress dice (none here: the
//! stat blocks fix `stress`), then its Base Initiative d12 (one for a whole group).

use fray_engine::{Reject, Seat};
use fray_hallowed_earth::HallowedEarth;
use fray_hallowed_earth::codes;
use fray_hallowed_earth::state::{Action, Cap, Conditions, Event, Phase};
use fray_testkit::Table;

const PCS: Seat = Seat(1);
const FOES: Seat = Seat(2);

/// A 10 × 5 yard field, sides `pcs` and `foes` (each its own seat), `options`, then `rest`.
fn enc(options: &str, rest: &str) -> String {
    format!(
        r#"ruleset = "hallowed-earth"
[options]
{options}
[map]
rows = [". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . ."]
[[side]]
id = "pcs"
[[side]]
id = "foes"
{rest}"#
    )
}

/// A combatant: Strength 12 (12 Wound Points), Agility 10, Stress 10, Speed 6 yards, attack
/// +0 and a sword (1d6, speed 0, ×2), unless `extra` sets them.
fn who(id: &str, side: &str, at: &str, extra: &str) -> String {
    let defaults = [
        ("strength", "12"),
        ("agility", "10"),
        ("stress", "10"),
        ("speed", "6"),
        ("weapons", r#"[{ name = "sword", damage = "1d6" }]"#),
    ];
    let stats: String = defaults
        .iter()
        .filter(|(k, _)| !extra.lines().any(|l| l.trim_start().starts_with(&format!("{k} ="))))
        .map(|(k, v)| format!("{k} = {v}\n"))
        .collect();
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\n{stats}{extra}\n")
}

/// The game as the text layer shows it to each seat (a replay of its record).
fn text_game(t: &Table<HallowedEarth>) -> fray_engine::text::TextGame<HallowedEarth> {
    fray_engine::text::TextGame::new(fray_engine::Game::replay(t.game.record()).expect("replays"))
}

fn events(t: &Table<HallowedEarth>) -> Vec<Event> {
    t.all_events()
}

fn wp(t: &Table<HallowedEarth>, id: &str) -> i16 {
    let s = t.state();
    s.ch(s.find(id).unwrap()).wp
}

fn stress(t: &Table<HallowedEarth>, id: &str) -> i16 {
    let s = t.state();
    s.ch(s.find(id).unwrap()).stress
}

fn has(t: &Table<HallowedEarth>, id: &str, flag: u32) -> bool {
    let s = t.state();
    s.ch(s.find(id).unwrap()).has(flag)
}

/// Two duellists next to each other: ash (pcs) at 0,0 and bo (foes) at 1,0.
fn duel(options: &str, ash: &str, bo: &str, d12: [u16; 2]) -> Table<HallowedEarth> {
    let toml = enc(
        options,
        &[who("ash", "pcs", "0,0", ash), who("bo", "foes", "1,0", bo)].concat(),
    );
    Table::<HallowedEarth>::load(&toml, &[], &d12)
}

/// The duel with a third creature, zed (pcs, far away, surprised in round 1), so that the
/// travellers' side keeps someone fighting while ash is down.
fn duel_z(options: &str, ash: &str, bo: &str, d12: [u16; 2]) -> Table<HallowedEarth> {
    let toml = enc(
        options,
        &[
            who("ash", "pcs", "0,0", ash),
            who("bo", "foes", "1,0", bo),
            who("zed", "pcs", "9,4", "surprised = true"),
        ]
        .concat(),
    );
    Table::<HallowedEarth>::load(&toml, &[], &[d12[0], d12[1], 12])
}

#[test]
fn hal_r1_r6_r7_r9_a_round_declares_then_resolves_from_the_lowest_count_and_ends() {
    // HAL-R4: bases 7 and 3 (Agility 10: no modifier).
    let mut t = duel("", "", "", [7, 3]);
    assert_eq!(t.state().phase, Phase::Declaring);
    // HAL-R6: nothing resolves before every creature has declared.
    t.type_as(PCS, "declare ash attack bo");
    assert_eq!(t.state().phase, Phase::Declaring);
    t.type_as(FOES, "declare bo full-defense");
    // HAL-R7, HAL-R8, HAL-R9: ash 7 + 0, bo 3 − 1 = 2: bo first.
    assert!(
        t.log()
            .contains(&"Round 1 order, lowest first: 2 bo: full-defense; 7 ash: attack bo with sword".to_string()),
        "{:?}",
        t.log()
    );
    assert_eq!(t.game.pending().map(|p| (p.kind(), p.actor())), Some(("turn", Some(1))));
    t.cmd("end");
    // ash attacks bo, in full defence now: Defense 10 + 4 = 14; a d20 of 14 hits, d6 3.
    t.dice(&[14, 3]).cmd("act");
    t.cmd("pass"); // bo's Reposte chance (HAL-R14)
    assert_eq!(stress(&t, "bo"), 7);
    t.cmd("end");
    // HAL-R1: the round ends (morale, nothing to check) and round 2 opens with declarations.
    assert_eq!(t.state().round, 2);
    assert_eq!(t.state().phase, Phase::Declaring);
    let kinds: Vec<&str> = events(&t)
        .iter()
        .filter_map(|e| match e {
            Event::RoundStarted { .. } => Some("round"),
            Event::Declared { .. } => Some("declared"),
            Event::Revealed { .. } => Some("revealed"),
            Event::CountStarted { .. } => Some("count"),
            Event::RoundEnded { .. } => Some("end"),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "round", "declared", "declared", "revealed", "count", "count", "end", "round"
        ]
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn hal_r2_r3_surprised_creatures_roll_initiative_but_neither_declare_nor_act_in_round_one() {
    let mut t = duel("", "", "surprised = true", [7, 3]);
    // HAL-R3: bo rolled its Base Initiative all the same.
    assert_eq!(t.state().ch(1).base, Some(3));
    // HAL-R2: only ash declares in round 1.
    let p = t.game.pending().unwrap();
    assert_eq!(p.seats.iter().collect::<Vec<_>>(), vec![PCS]);
    t.expect_rejection(FOES, "declare bo attack ash", Reject::NOT_YOUR_DECISION);
    t.type_as(PCS, "declare ash move");
    t.cmd("end");
    // HAL-R17: bo cannot Reposte either while surprised; in round 2 it declares.
    assert_eq!(t.state().round, 2);
    assert!(!has(&t, "bo", Conditions::SURPRISED));
    let p = t.game.pending().unwrap();
    assert_eq!(p.seats.iter().collect::<Vec<_>>(), vec![PCS, FOES]);
    t.assert_replays();
}

#[test]
fn hal_r4_base_initiative_is_a_d12_minus_the_agility_modifier_plus_traits() {
    // Agility 14 (+2): d12 5 − 2 = 3; Agility 8 (−1): 5 + 1 = 6; plus a trait's +1 = 7.
    let t = duel("", "agility = 14", "agility = 8\ninitiative = 1", [5, 5]);
    assert_eq!((t.state().ch(0).base, t.state().ch(1).base), (Some(3), Some(7)));
    assert!(
        t.log().contains(&"Base Initiative: ash 3 (d12 5)".to_string()),
        "{:?}",
        t.log()
    );
    // The range of 1d12 − 2 is −1..=10 and of 1d12 + 1 is 2..=13.
    let low = duel("", "agility = 14", "agility = 8", [1, 12]);
    assert_eq!((low.state().ch(0).base, low.state().ch(1).base), (Some(-1), Some(13)));
}

#[test]
fn hal_r5_the_seeds_mixed_group_rolls_four_times_and_members_keep_their_own_modifiers() {
    let wolf = "agility = 15\ngroup = \"wolves\"";
    let warrior = "agility = 10\ngroup = \"warriors\"";
    let toml = enc(
        "",
        &[
            who("hero", "pcs", "0,0", ""),
            who("witch", "foes", "9,0", "agility = 12"),
            who("scoundrel", "foes", "9,1", ""),
            who("warrior-1", "foes", "8,0", warrior),
            who("warrior-2", "foes", "8,1", warrior),
            who("warrior-3", "foes", "8,2", warrior),
            who("warrior-4", "foes", "8,3", warrior),
            who("wolf-1", "foes", "7,0", wolf),
            who("wolf-2", "foes", "7,1", &format!("{wolf}\ninitiative = -1")),
        ]
        .concat(),
    );
    // hero, witch, scoundrel, the warriors' one roll, the wolves' one roll: the foes roll 4.
    let t = Table::<HallowedEarth>::load(&toml, &[], &[6, 9, 4, 10, 8]);
    let rolls: Vec<usize> = events(&t)
        .iter()
        .filter_map(|e| match e {
            Event::Initiative { group, .. } => Some(group.len()),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, [1, 1, 1, 4, 2]);
    let base = |id: &str| t.state().ch(t.state().find(id).unwrap()).base.unwrap();
    assert_eq!((base("witch"), base("scoundrel")), (8, 4));
    assert!((1..=4).all(|i| base(&format!("warrior-{i}")) == 10));
    // The shared d12 8; Agility 15 is +2; wolf-2's trait adds −1.
    assert_eq!((base("wolf-1"), base("wolf-2")), (6, 5));
}

#[test]
fn hal_r8_hal_h11_h12_h24_each_kind_of_action_has_its_modifier() {
    let kit = r#"weapons = [
  { name = "sword", damage = "1d6" },
  { name = "maul", damage = "2d6", speed = 3, hand = "both" },
  { name = "knife", damage = "1d4", thrown = true, range = 10, speed = -1 },
  { name = "dart", damage = "1d3", thrown = true, range = 10, throw-speed = 1 },
]
spells = [
  { name = "bolt", tn = 14, damage = "1d6" },
  { name = "quick", tn = 14, speed = 1, damage = "1d4" },
]
items = [{ name = "tonic", restores = "1d4" }, { name = "salve", restores = "1d4", speed = 3 }]
mana = 10"#;
    let cases = [
        ("attack bo with sword", 0),   // + weapon speed (HAL-H11: 0 when not given)
        ("attack bo with maul", 3),    // + weapon speed
        ("defensive bo with maul", 4), // + weapon speed + 1
        ("defensive", 1),              // no attack: +1
        ("full-defense", -1),          // −1
        ("cast bolt bo", 4),           // HAL-H12: TN 14 − 10
        ("cast quick bo", 1),          // a spell's own speed
        ("use tonic ash", 6),          // a consumable: +6
        ("use salve ash", 3),          // unless stated
        ("throw knife bo", 2),         // a throw: +2
        ("throw dart bo", 1),          // unless stated
        ("heal zed", 0),               // HAL-H24: +0 (zed is down below)
        ("move", 0),                   // HAL-H24
    ];
    for (action, modifier) in cases {
        let mut t = duel_z("", kit, "strength = 12", [5, 12]);
        if action.starts_with("heal") {
            t.cmd("gm set zed wp =0");
        }
        t.type_as(PCS, &format!("declare ash {action}"));
        t.type_as(FOES, "declare bo move");
        let count = t.state().acts.iter().find(|a| a.who == 0).unwrap().count;
        assert_eq!(count, 5 + modifier, "{action}");
    }
    // The default for weapons without a speed is the option's.
    let mut t = duel("default-weapon-speed = 2", "", "", [5, 5]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    assert_eq!(t.state().acts.iter().find(|a| a.who == 0).unwrap().count, 7);
}

#[test]
fn hal_r10_equal_counts_resolve_together_so_both_attacks_land_a_double_ko() {
    // Strength 3: 3 Wound Points, dead at −3; no Stress. A 1d6+8 blow kills.
    let fragile = "strength = 3\nstress = 0\nweapons = [{ name = \"axe\", damage = \"1d6+8\" }]";
    let mut t = duel("", fragile, fragile, [6, 6]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo attack ash");
    // Both at count 6. ash strikes first and kills bo (d20 15 hits Defense 10; 1 + 8 = 9).
    t.dice(&[15, 1]).cmd("act");
    assert!(has(&t, "bo", Conditions::DEAD));
    t.cmd("end");
    // bo still acts on the same count (HAL-R10): its blow lands and kills ash too.
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(1));
    t.dice(&[15, 2]).cmd("act");
    assert!(has(&t, "ash", Conditions::DEAD));
    t.cmd("end");
    // HAL-R23: nobody is left fighting.
    let o = t.game.outcome().expect("over");
    assert_eq!((o.winner, o.reason.as_str()), (None, "nobody-fighting"));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn hal_r10_a_creature_killed_on_an_earlier_count_does_not_act() {
    let fragile = "strength = 3\nstress = 0\nweapons = [{ name = \"axe\", damage = \"1d6+8\" }]";
    let mut t = duel("", fragile, fragile, [5, 6]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo attack ash");
    t.dice(&[15, 1]).cmd("act");
    t.cmd("end");
    // Count 6 never comes for the dead: the combat ends, ash's side wins.
    assert_eq!(t.game.outcome().and_then(|o| o.winner), Some(0));
}

#[test]
fn hal_r11_secret_declarations_reach_no_other_seat_until_the_reveal() {
    let mut t = duel("", "", "", [7, 3]);
    // Both seats are asked at once.
    let p = t.game.pending().unwrap();
    assert_eq!(p.seats.iter().collect::<Vec<_>>(), vec![PCS, FOES]);
    t.expect_rejection(PCS, "declare bo move", codes::NOT_YOUR_CREATURE);
    t.type_as(PCS, "declare ash attack bo");
    let g = text_game(&t);
    use fray_engine::text::AnyGame;
    assert_eq!(g.view_json(FOES)["extra"]["chars"][0]["declared"], "secret");
    assert_eq!(g.view_json(PCS)["extra"]["chars"][0]["declared"]["attack"]["target"], 1);
    let theirs: Vec<String> = g.log_for(FOES).into_iter().filter_map(|l| l.text).collect();
    assert!(theirs.contains(&"ash declares in secret".to_string()), "{theirs:?}");
    assert!(!theirs.iter().any(|l| l.contains("attack bo")), "{theirs:?}");
    assert!(
        g.full_log()
            .iter()
            .any(|l| l.text.as_deref() == Some("ash declares: attack bo with sword"))
    );
    // This seat has nothing left to declare: the engine refuses it before the rules do.
    t.expect_rejection(PCS, "declare ash move", Reject::NOT_YOUR_DECISION);
    t.type_as(FOES, "declare bo move");
    // The reveal shows everything to everyone.
    let g = text_game(&t);
    let after: Vec<String> = g.log_for(FOES).into_iter().filter_map(|l| l.text).collect();
    assert!(
        after.iter().any(|l| l.contains("7 ash: attack bo with sword")),
        "{after:?}"
    );
    t.assert_replays();
}

#[test]
fn the_shared_view_shows_gauges_flags_and_squares_and_a_secret_declaration_only_as_made() {
    use fray_engine::Ruleset;
    use fray_engine::text::TextRuleset;
    use fray_engine::view::Place;
    let mut t = duel("", "", "", [7, 3]);
    // Both seats declare at once; each is told of its own creature, not the other's.
    let d = HallowedEarth::seat_view(t.state(), FOES).deciding.expect("a decision");
    assert_eq!(d.seats, ["pcs", "foes"]);
    assert!(d.text.contains("bo declares") && !d.text.contains("ash"), "{}", d.text);
    t.type_as(PCS, "declare ash attack bo");
    let s = t.state();
    let gm = HallowedEarth::seat_view(s, Seat::GM);
    assert_eq!(gm.ruleset, "hallowed-earth");
    assert_eq!((gm.round, gm.phase.as_deref()), (1, Some("declare")));
    let ids: Vec<&str> = gm.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ash", "bo"]);
    let ash = &gm.combatants[0];
    assert_eq!((ash.side.as_str(), ash.seat.as_str()), ("pcs", "pcs"));
    let wp = ash
        .gauges
        .iter()
        .find(|g| g.name == "wound-points")
        .expect("wound points");
    assert_eq!((wp.value, wp.max), (12, Some(12)));
    assert_eq!(ash.place, Some(Place::square(0, 0)));
    let declared = ash.statuses.iter().find(|x| x.name == "declared").expect("declared");
    assert_eq!(declared.value.as_deref(), Some("attack bo with sword"));
    // Each set condition flag is a status of its own.
    let mut t2 = duel("", "", "", [7, 3]);
    t2.cmd("gm blind bo");
    t2.cmd("gm obvious bo");
    let bo = &HallowedEarth::seat_view(t2.state(), PCS).combatants[1];
    let names: Vec<&str> = bo.statuses.iter().map(|x| x.name.as_str()).collect();
    assert!(names.contains(&"blinded") && names.contains(&"obvious"), "{names:?}");
    // The other seat sees that ash has declared, not what, in every position it cannot tell
    // from this one.
    let foes = HallowedEarth::seat_view(s, FOES);
    let declared = foes.combatants[0]
        .statuses
        .iter()
        .find(|x| x.name == "declared")
        .expect("declared");
    assert_eq!(declared.value, None);
    assert!(foes.deciding.as_ref().is_some_and(|d| d.seats == ["foes"]));
    let mut others = Vec::new();
    HallowedEarth::indistinguishable(s, FOES, &mut others);
    assert!(!others.is_empty());
    for other in &others {
        assert_eq!(HallowedEarth::seat_view(other, FOES), foes);
    }
}

#[test]
fn hal_r11_hal_h20_one_at_a_time_methods_follow_their_order_and_show_earlier_declarations() {
    let three = |options: &str| {
        let toml = enc(
            options,
            &[
                who("ash", "pcs", "0,0", "agility = 12"),
                who("bo", "foes", "1,0", "agility = 16"),
                who("cy", "pcs", "0,1", "agility = 12\ninitiative = -3"),
            ]
            .concat(),
        );
        Table::<HallowedEarth>::load(&toml, &[], &[5, 5, 5])
    };
    let order = |options: &str| {
        let mut t = three(options);
        let mut seen = Vec::new();
        while let Some(p) = t.game.pending().filter(|p| p.kind() == "declare") {
            let who = p.actor().expect("one creature at a time");
            seen.push(t.state().ch(who).id.to_string());
            let id = t.state().ch(who).id.clone();
            t.cmd(&format!("declare {id} move"));
        }
        seen
    };
    // Highest Agility score first; ties in encounter order (HAL-H20).
    assert_eq!(order("declaration = \"agility\""), ["bo", "ash", "cy"]);
    // Lowest initiative modifier (−Agility modifier + traits) first: cy −4, bo −3, ash −1.
    assert_eq!(order("declaration = \"initiative-modifier\""), ["cy", "bo", "ash"]);
    // Round the table: the first seat after the Referee's, then the next.
    assert_eq!(order("declaration = \"clockwise\""), ["ash", "cy", "bo"]);
    assert_eq!(order("declaration = \"counterclockwise\""), ["bo", "ash", "cy"]);
    // The Referee's own list; those it leaves out follow in encounter order.
    assert_eq!(
        order("declaration = \"listed\"\ndeclaration-list = [\"cy\"]"),
        ["cy", "ash", "bo"]
    );
    // Each declaration is seen by those who declare after it, and out-of-turn ones are refused
    // (strictly one creature after the other with `seat-picks-declaration-order` off).
    let mut t = three("declaration = \"agility\"\nseat-picks-declaration-order = false");
    t.expect_rejection(PCS, "declare ash move", Reject::NOT_YOUR_DECISION);
    t.cmd("declare bo attack ash");
    // ash is next, not cy (the same seat), and ash cannot declare twice.
    t.expect_rejection(PCS, "declare cy move", codes::NOT_YOUR_CREATURE);
    let g = text_game(&t);
    use fray_engine::text::AnyGame;
    assert_eq!(g.view_json(PCS)["extra"]["chars"][1]["declared"]["attack"]["target"], 0);
    t.cmd("declare ash move");
    t.expect_rejection(PCS, "declare ash move", codes::ALREADY_DECLARED);
}

#[test]
fn hal_r11_a_seat_declares_its_own_creatures_in_any_order_where_the_method_allows() {
    let three = |options: &str| {
        let toml = enc(
            options,
            &[
                who("ash", "pcs", "0,0", "agility = 12"),
                who("bo", "foes", "1,0", "agility = 14"),
                who("cy", "pcs", "0,1", "agility = 10"),
            ]
            .concat(),
        );
        Table::<HallowedEarth>::load(&toml, &[], &[5, 5, 5])
    };
    // Secret: the travellers' seat may declare cy before ash; the prompt names ash, the one due
    // by default, and the legal list gives ash's declarations first, then cy's.
    let mut t = three("");
    let g = text_game(&t);
    use fray_engine::text::AnyGame;
    assert_eq!(
        g.pending().expect("a decision").prompt,
        "Round 1: secret declarations; ash declares an action (or first cy); other seats still declaring"
    );
    let legal = t.legal();
    let first_cy = legal
        .iter()
        .position(|c| c.starts_with("declare cy"))
        .expect("cy is listed");
    assert!(
        legal[..first_cy].iter().all(|c| c.starts_with("declare ash")),
        "{legal:?}"
    );
    assert!(
        legal[first_cy..].iter().all(|c| c.starts_with("declare cy")),
        "{legal:?}"
    );
    t.type_as(PCS, "declare cy move");
    t.type_as(PCS, "declare ash move");
    t.type_as(FOES, "declare bo move");
    assert_eq!(t.state().phase, Phase::Resolving);
    // One at a time, by Agility: bo 14, ash 12, cy 10. After bo, the travellers' seat has ash
    // and cy in a row: either may come first.
    let mut t = three("declaration = \"agility\"");
    t.cmd("declare bo move");
    let g = text_game(&t);
    assert_eq!(
        g.pending().expect("a decision").prompt,
        "Round 1: ash declares an action (or first cy)"
    );
    t.type_as(PCS, "declare cy attack bo");
    assert!(t.log().contains(&"cy declares: attack bo with sword".to_string()));
    t.type_as(PCS, "declare ash move");
    assert_eq!(t.state().phase, Phase::Resolving);
    // By lowest initiative modifier: ash −2 (Agility 14), bo −1, cy +0. bo stands between the
    // travellers: cy may not come before it, or bo's seat would not see cy's declaration before
    // making its own.
    let toml = enc(
        "declaration = \"initiative-modifier\"",
        &[
            who("ash", "pcs", "0,0", "agility = 14"),
            who("bo", "foes", "1,0", "agility = 12"),
            who("cy", "pcs", "0,1", "agility = 10"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[5, 5, 5]);
    let r = t.expect_rejection(PCS, "declare cy move", codes::NOT_YOUR_CREATURE);
    assert_eq!(r.reason, "it is ash's turn to declare");
    assert!(
        t.legal().iter().all(|c| c.starts_with("declare ash")),
        "{:?}",
        t.legal()
    );
    t.type_as(PCS, "declare ash move");
    t.expect_rejection(PCS, "declare cy move", Reject::NOT_YOUR_DECISION);
    t.type_as(FOES, "declare bo move");
    t.type_as(PCS, "declare cy move");
    t.assert_replays();
    // With the option off, secret declarations come in encounter order within a seat.
    let mut t = three("seat-picks-declaration-order = false");
    let r = t.expect_rejection(PCS, "declare cy move", codes::NOT_YOUR_CREATURE);
    assert_eq!(r.reason, "it is ash's turn to declare");
}

#[test]
fn hal_r12_r13_the_seeds_ghoul_arrives_after_count_thirteen_and_acts_twice_next_round() {
    // A sentry acts at 13 (d12 10 + a +3 trait), a scout at 15; the ghoul template is ready.
    let toml = enc(
        "",
        &[
            who("sentry", "pcs", "0,0", "initiative = 3"),
            who("scout", "pcs", "0,1", "initiative = 5"),
            who("bo", "foes", "9,4", ""),
            "[template.ghoul]\nstrength = 12\nstress = 10\nspeed = 6\nweapons = [{ name = \"claws\", damage = \"1d4\", hand = \"natural\" }]\n".into(),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[10, 10, 1]);
    t.type_as(PCS, "declare sentry move");
    t.type_as(PCS, "declare scout move");
    t.type_as(FOES, "declare bo move");
    t.cmd("end"); // bo at 1
    t.cmd("end"); // the sentry at 13: count 13 has resolved
    // HAL-R12: the ghoul rolls its Base Initiative at once (d12 8) and declares.
    t.dice(&[8]).cmd("gm add ghoul ghoul foes 1,0");
    assert_eq!(
        t.game.pending().map(|p| (p.kind(), p.actor())),
        Some(("declare", Some(3)))
    );
    assert_eq!(
        t.log(),
        [
            "Ruling: gm add ghoul ghoul foes 1,0: ghoul joins foes at 1,0",
            "ghoul: Stress 10, Wound Points 12",
            "Base Initiative: ghoul 8 (d12 8)"
        ]
    );
    // Its Free action (HAL-R17) goes with the action it declares it with.
    t.cmd("declare ghoul free speak");
    t.cmd("declare ghoul attack sentry with claws");
    // HAL-R13: 8 has passed: it does not act this round.
    assert!(
        t.log()
            .iter()
            .any(|l| l.contains("count 8 has passed: it acts next round twice, at -4")),
        "{:?}",
        t.log()
    );
    t.cmd("end"); // the scout at 15
    assert_eq!(t.state().round, 2);
    t.type_as(PCS, "declare sentry move");
    t.type_as(PCS, "declare scout move");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare ghoul attack sentry with claws");
    let ghoul: Vec<i32> = t.state().acts.iter().filter(|a| a.who == 3).map(|a| a.count).collect();
    assert_eq!(ghoul, [-4, 8], "twice: the missed action at 8 − 12, then the new one");
    let frees: Vec<bool> = t
        .state()
        .acts
        .iter()
        .filter(|a| a.who == 3)
        .map(|a| a.free.is_some())
        .collect();
    assert_eq!(
        frees,
        [true, false],
        "the arrival's Free action comes with its catch-up"
    );
    // The round after, once.
    while t.state().round == 2 {
        match t.game.pending().map(|p| p.kind()) {
            Some("turn") => {
                t.cmd("end");
            }
            other => panic!("{other:?}"),
        }
    }
    t.type_as(PCS, "declare sentry move");
    t.type_as(PCS, "declare scout move");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare ghoul attack sentry with claws");
    let ghoul: Vec<i32> = t.state().acts.iter().filter(|a| a.who == 3).map(|a| a.count).collect();
    assert_eq!(ghoul, [8]);
    t.assert_replays();
}

#[test]
fn hal_r42_a_newcomer_joins_this_round_unless_its_count_has_passed() {
    let toml = enc(
        "",
        &[
            who("sentry", "pcs", "0,0", "initiative = 3"),
            who("scout", "pcs", "0,1", "initiative = 8"),
            who("bo", "foes", "9,4", ""),
            "[template.ghoul]\nstrength = 12\nstress = 10\nspeed = 6\ninitiative = 5\nweapons = [{ name = \"claws\", damage = \"1d4\", hand = \"natural\" }]\n".into(),
        ]
        .concat(),
    );
    // Counts: bo 1, the sentry 13, the scout 18. The ghoul's count is its d12 + 5.
    // (arrives during whose turn, after it moved, d12, acts this round)
    let cases = [
        ("sentry", true, 7u16, false), // 12 < 13, a count under way: passed
        ("sentry", false, 7, true),    // 12, the sentry's count not begun: still ahead
        ("sentry", true, 8, true),     // 13: joins the count under way
        ("sentry", true, 10, true),    // 15: still ahead
        ("scout", false, 8, false),    // 13: at or below the last count resolved (13)
        ("scout", false, 10, true),    // 15: after 13 resolved, before 18 began: ahead
        ("scout", true, 10, false),    // 15: below 18, begun
    ];
    for (during, moved, d12, this_round) in cases {
        let mut t = Table::<HallowedEarth>::load(&toml, &[], &[10, 10, 1]);
        t.type_as(PCS, "declare sentry move");
        t.type_as(PCS, "declare scout move");
        t.type_as(FOES, "declare bo move");
        t.cmd("end"); // bo at 1
        if during == "scout" {
            t.cmd("end"); // the sentry at 13: count 13 has resolved
        }
        if moved {
            t.cmd("move 2,2");
        }
        t.dice(&[d12]).cmd("gm add ghoul ghoul foes 1,0");
        t.cmd("declare ghoul move");
        let scheduled = t.state().acts.iter().any(|a| a.who == 3);
        assert_eq!(
            scheduled, this_round,
            "during the {during}'s turn (moved: {moved}), d12 {d12}"
        );
        if this_round && !moved && d12 < 10 + if during == "scout" { 3 } else { 0 } {
            // It comes before the untouched turn, which starts again after it.
            assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(3));
        }
        // Play out the round; the ghoul ends its own turn when it comes.
        while t.state().round == 1 {
            t.cmd("end");
        }
        t.type_as(PCS, "declare sentry move");
        t.type_as(PCS, "declare scout move");
        t.type_as(FOES, "declare bo move");
        t.type_as(FOES, "declare ghoul move");
        let n = t.state().acts.iter().filter(|a| a.who == 3).count();
        assert_eq!(
            n,
            if this_round { 1 } else { 2 },
            "during the {during}'s turn, d12 {d12}"
        );
    }
}

#[test]
fn hal_h21_a_newcomer_that_arrives_unaware_neither_declares_nor_catches_up() {
    let toml = enc(
        "",
        &[
            who("sentry", "pcs", "0,0", "initiative = 3"),
            who("bo", "foes", "9,4", ""),
            "[template.ghoul]\nstrength = 12\nstress = 10\nweapons = [{ name = \"claws\", damage = \"1d4\" }]\n".into(),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[10, 1]);
    t.type_as(PCS, "declare sentry move");
    t.type_as(FOES, "declare bo move");
    t.cmds(&["end"]);
    t.dice(&[8]).cmd("gm add ghoul ghoul foes 1,0");
    t.cmd("gm unaware ghoul");
    assert_eq!(
        t.log(),
        ["Ruling: gm unaware ghoul: ghoul is Surprised: it neither declares nor acts this round"]
    );
    assert_eq!(
        t.game.pending().map(|p| p.kind()),
        Some("turn"),
        "no declaration is asked"
    );
    t.cmd("end");
    assert_eq!(t.state().round, 2);
    t.type_as(PCS, "declare sentry move");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare ghoul move");
    assert_eq!(
        t.state().acts.iter().filter(|a| a.who == 2).count(),
        1,
        "no catch-up turn"
    );
}

#[test]
fn hal_r14_hal_h23_full_defence_adds_four_from_its_count_halves_speed_and_allows_a_reposte() {
    // bo (foes) declares full defence at 5 − 1 = 4; ash attacks at 2 and at 7 (two creatures).
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "0,0", ""),
            who("bo", "foes", "1,0", "speed = 6"),
            who("cy", "pcs", "1,1", ""),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[2, 5, 7]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(PCS, "declare cy attack bo");
    t.type_as(FOES, "declare bo full-defense");
    // Count 2: no bonus yet (Defense 10): a 10 hits.
    t.dice(&[10, 1]).cmd("act");
    t.cmd("end");
    // Count 4: bo's turn: +4 now, and only 3 squares of movement (half of 6).
    assert_eq!(t.state().defense(1), 14);
    t.expect_rejection(FOES, "move 5,0", codes::TOO_FAR);
    t.cmd("end");
    // Count 7: cy's 12 + 1 (Strength 12) = 13 misses Defense 14, and bo may Reposte (HAL-R14).
    t.dice(&[12]).cmd("act");
    assert_eq!(t.game.pending().map(|p| (p.kind(), p.first())), Some(("reposte", FOES)));
    assert_eq!(t.legal(), ["reposte with sword", "pass"]);
    t.dice(&[15, 4]).cmd("reposte with sword");
    assert_eq!(stress(&t, "cy"), 6);
    t.assert_dice_used();
    // HAL-H23's other reading: the bonus holds for the whole round.
    let toml2 = toml.replace("[options]\n", "[options]\nfull-defense-timing = \"whole-round\"\n");
    let mut t = Table::<HallowedEarth>::load(&toml2, &[], &[2, 5, 7]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(PCS, "declare cy attack bo");
    t.type_as(FOES, "declare bo full-defense");
    assert_eq!(t.state().defense(1), 14);
}

#[test]
fn hal_r15_r16_entering_a_threat_range_provokes_a_reposte_unless_the_mover_attacks_defensively() {
    for (declared, provokes) in [("attack bo", true), ("defensive bo", false)] {
        let toml = enc(
            "",
            &[who("ash", "pcs", "0,0", ""), who("bo", "foes", "6,0", "")].concat(),
        );
        let mut t = Table::<HallowedEarth>::load(&toml, &[], &[5, 9]);
        t.type_as(PCS, &format!("declare ash {declared}"));
        t.type_as(FOES, "declare bo move");
        // ash walks towards bo: 4,0 is 2 yards from bo, inside its 2-yard threat range (HAL-H10).
        t.cmd("move 5,0");
        let at = t.state().ch(0).at;
        if provokes {
            // The move stops on the first square inside the range, and bo's seat is asked.
            assert_eq!(at.to_string(), "4,0");
            assert_eq!(t.game.pending().map(|p| (p.kind(), p.first())), Some(("reposte", FOES)));
            t.cmd("pass");
            // Moving on within the range provokes nothing more.
            t.cmd("move 5,0");
            assert_eq!(t.game.pending().map(|p| p.kind()), Some("turn"));
        } else {
            assert_eq!(at.to_string(), "5,0");
            assert_eq!(t.game.pending().map(|p| p.kind()), Some("turn"));
        }
    }
    // With the option off, nothing provokes.
    let toml = enc(
        "reposte-on-entry = false",
        &[who("ash", "pcs", "0,0", ""), who("bo", "foes", "6,0", "")].concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[5, 9]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.cmd("move 5,0");
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("turn"));
}

#[test]
fn hal_r17_one_action_and_one_reaction_a_round() {
    // Two foes walk past ash in one round: ash may Reposte against the first only.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "4,2", ""),
            who("bo", "foes", "0,0", ""),
            who("cy", "foes", "0,4", ""),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[9, 2, 3]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo attack ash");
    t.type_as(FOES, "declare cy attack ash");
    t.cmd("move 3,1"); // bo enters ash's range at 2,1 (2 yards from 4,2)
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("reposte"));
    t.dice(&[2]).cmd("reposte"); // a miss
    t.dice(&[3]).cmd("act");
    t.cmd("end");
    t.cmd("move 3,3"); // cy enters the range: ash has no Reaction left
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("turn"));
    t.dice(&[3]).cmd("act");
    // One standard action: a second `act` is refused.
    t.expect_rejection(FOES, "act", codes::CANNOT_ACT);
    t.cmd("end");
    t.dice(&[4]).cmd("act");
    t.expect_rejection(PCS, "act", codes::CANNOT_ACT);
    t.assert_dice_used();
}

/// ash (pcs) with a sword in hand and a dagger stowed, cy (pcs) beside it, bo (foes) next to
/// ash; bases 7, 3 and 5.
fn free_trio(options: &str, ash: &str, cy: &str) -> Table<HallowedEarth> {
    let weapons =
        r#"weapons = [{ name = "sword", damage = "1d6" }, { name = "dagger", damage = "1d4", drawn = false }]"#;
    let toml = enc(
        options,
        &[
            who("ash", "pcs", "0,0", &format!("{weapons}\n{ash}")),
            who("bo", "foes", "1,0", ""),
            who("cy", "pcs", "0,2", cy),
        ]
        .concat(),
    );
    Table::<HallowedEarth>::load(&toml, &[], &[7, 3, 5])
}

#[test]
fn hal_r17_a_free_action_is_declared_before_the_action_and_taken_on_the_creatures_turn() {
    let mut t = free_trio("", "", "");
    // The stowed dagger cannot be used without a draw...
    let r = t.expect_rejection(PCS, "declare ash attack bo with dagger", codes::NO_WEAPON);
    assert!(r.reason.contains("free draw dagger"), "{}", r.reason);
    // ...which is the Free action, declared before the action; the attack may then use it.
    assert!(
        t.legal().contains(&"declare ash free draw dagger".to_string()),
        "{:?}",
        t.legal()
    );
    t.type_as(PCS, "declare ash free draw dagger");
    t.expect_rejection(PCS, "declare ash free speak", codes::ALREADY_DECLARED);
    t.type_as(PCS, "declare ash attack bo with dagger");
    // The action declared, a Free action comes too late.
    t.expect_rejection(PCS, "declare ash free speak", codes::ALREADY_DECLARED);
    t.type_as(PCS, "declare cy free speak");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    assert!(
        t.log()
            .iter()
            .any(|l| l.ends_with("3 bo: move; 5 cy: move, free speak; 7 ash: attack bo with dagger, free draw dagger")),
        "{:?}",
        t.log()
    );
    t.cmd("end"); // bo at 3
    // cy at 5: speaking is its Free action, logged on its turn.
    t.cmd("free");
    assert_eq!(t.log(), ["cy speaks (its free action)"]);
    t.expect_rejection(PCS, "free", codes::CANNOT_ACT); // one a turn
    t.cmd("end");
    // ash at 7: the dagger is drawn first, then used.
    let r = t.expect_rejection(PCS, "act", codes::NO_WEAPON);
    assert_eq!(r.reason, "ash's dagger is not in hand: draw it first (free)");
    use fray_engine::text::AnyGame;
    let prompt = text_game(&t).pending().expect("a turn").prompt;
    assert_eq!(
        prompt,
        "Round 1, count 7: ash's turn (attack bo with dagger; free draw dagger): move <x,y> (6 squares left), act, free or end"
    );
    t.cmd("free");
    assert_eq!(t.log(), ["ash draws its dagger"]);
    t.dice(&[15, 3]).cmd("act");
    assert_eq!(stress(&t, "bo"), 7);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn hal_r17_a_short_move_takes_nothing_from_speed_and_provokes_like_a_move() {
    // ash: Speed 6 yards; a short move of `free-move` 2 yards on top.
    let mut t = free_trio("", "", "");
    t.type_as(PCS, "declare ash free step");
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    t.cmds(&["end", "end"]); // bo, cy
    t.cmd("move 0,4");
    t.cmd("move 2,4"); // 6 squares: the round's Speed is spent
    t.expect_rejection(PCS, "move 3,4", codes::CANNOT_MOVE);
    let r = t.expect_rejection(PCS, "step 5,4", codes::TOO_FAR);
    assert_eq!(r.reason, "5,4 is 3 squares away and a short move goes 2 squares");
    t.cmd("step 4,4");
    assert_eq!(t.log(), ["ash steps to 4,4 (a short move, its free action)"]);
    assert_eq!(t.state().ch(0).moved, 6, "the short move takes nothing from Speed");
    t.expect_rejection(PCS, "step 5,4", codes::CANNOT_ACT);
    // Entering a threat range on a short move provokes a Reposte, as any move does (HAL-R16).
    let mut t = free_trio("", "", "");
    t.cmd("gm move bo 4,0");
    t.type_as(PCS, "declare ash free step");
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    t.cmds(&["end", "end"]);
    t.cmd("step 2,0");
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("reposte"));
    // `free-move = 0`: there is no short move.
    let mut t = free_trio("free-move = 0", "", "");
    t.expect_rejection(PCS, "declare ash free step", codes::CANNOT_ACT);
}

#[test]
fn hal_r17_weapons_in_hand_drawing_dropping_and_two_hands() {
    // A weapon out of hand neither attacks nor threatens: bo walks up to ash unanswered.
    let mut t = free_trio("", "", "");
    t.cmd("gm move bo 4,0");
    t.type_as(PCS, "declare ash free drop sword");
    t.type_as(PCS, "declare ash attack bo with sword");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo attack ash");
    t.cmd("move 2,0"); // bo at 3: into ash's sword range (and cy's), ash may Reposte
    assert_eq!(
        t.game.pending().map(|p| (p.kind(), p.actor())),
        Some(("reposte", Some(0)))
    );
    t.cmds(&["pass", "pass"]);
    t.cmd("end");
    t.cmd("end"); // cy
    t.cmd("free"); // ash drops the sword...
    assert_eq!(t.log(), ["ash drops its sword"]);
    let r = t.expect_rejection(PCS, "act", codes::NO_WEAPON); // ...and has nothing to attack with
    assert_eq!(r.reason, "ash's sword is not in hand");
    assert_eq!(fray_hallowed_earth::check::threat_range(t.state(), 0), 0);
    t.cmd("end");
    // Round 2: only a draw brings it back.
    t.expect_rejection(PCS, "declare ash attack bo with sword", codes::NO_WEAPON);
    t.expect_rejection(PCS, "declare ash free drop sword", codes::NO_WEAPON);
    t.type_as(PCS, "declare ash free draw sword");
    t.expect_rejection(PCS, "declare ash attack bo with dagger", codes::NO_WEAPON);
    t.type_as(PCS, "declare ash attack bo with sword");
    t.assert_replays();
    // `hands = "two"`: a two-handed maul takes both hands; drawing it puts the sword away.
    let weapons = r#"weapons = [{ name = "sword", damage = "1d6" }, { name = "maul", damage = "2d6", hand = "both" }, { name = "claws", damage = "1d2", hand = "natural" }]"#;
    let toml = enc(
        "hands = \"two\"",
        &[who("ash", "pcs", "0,0", weapons), who("bo", "foes", "1,0", "")].concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[7, 3]);
    // At the start the sword fills the main hand: the maul starts out of hand.
    t.expect_rejection(PCS, "declare ash attack bo with maul", codes::NO_WEAPON);
    t.expect_rejection(PCS, "declare ash free draw claws", codes::NO_WEAPON);
    t.type_as(PCS, "declare ash free draw maul");
    t.type_as(PCS, "declare ash attack bo with maul");
    t.type_as(FOES, "declare bo move");
    t.cmd("end");
    t.cmd("free");
    let s = t.state();
    assert!(fray_hallowed_earth::check::weapon_ready(s, 0, 1).is_ok());
    assert!(
        fray_hallowed_earth::check::weapon_ready(s, 0, 0).is_err(),
        "the sword is put away"
    );
    assert!(
        fray_hallowed_earth::check::weapon_ready(s, 0, 2).is_ok(),
        "claws take no hand"
    );
    t.dice(&[15, 3, 3]).cmd("act");
    t.assert_dice_used();
}

#[test]
fn hal_r17_hal_r29_r30_r33_free_actions_cost_the_hurt_as_actions_but_speech_costs_nothing() {
    // Incapacitated (HAL-R29): no short move; speech costs nothing, a draw a Wound Point.
    for (free, cost) in [("speak", 0), ("draw dagger", 1)] {
        let mut t = free_trio("", "", "");
        t.cmd("gm set ash wp =0");
        t.expect_rejection(PCS, "declare ash free step", codes::CANNOT_MOVE);
        t.type_as(PCS, &format!("declare ash free {free}"));
        t.type_as(PCS, "declare ash move");
        t.type_as(PCS, "declare cy move");
        t.type_as(FOES, "declare bo move");
        t.cmds(&["end", "end"]);
        t.cmd("free");
        assert_eq!(wp(&t, "ash"), -cost, "{free}");
        let paid = t
            .log()
            .iter()
            .any(|l| l.starts_with("ash pays 1 Wound Point for acting hurt"));
        assert_eq!(paid, cost == 1, "{free}: {:?}", t.log());
    }
    // Dying (HAL-R30): the Free action is its one action: no attack and no move after it.
    let mut t = free_trio("", "", "");
    t.cmd("gm set ash wp =-2");
    t.type_as(PCS, "declare ash free draw dagger");
    t.type_as(PCS, "declare ash attack bo with dagger");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    t.cmds(&["end", "end"]);
    t.cmd("free");
    assert_eq!(wp(&t, "ash"), -3);
    t.expect_rejection(PCS, "act", codes::CANNOT_ACT);
    t.expect_rejection(PCS, "move 0,1", codes::CANNOT_MOVE);
    // Stabilized (HAL-R33): the first action of the round is free, the next costs 1.
    let mut t = free_trio("", "", "");
    t.cmd("gm set ash wp =-2");
    let ash = t.state().find("ash").unwrap();
    assert_eq!(t.state().ch(ash).cap(), Cap::Dying);
    let toml_stable = enc(
        "",
        &[
            who(
                "ash",
                "pcs",
                "0,0",
                "wp = -2\nstabilized = true\nweapons = [{ name = \"sword\", damage = \"1d6\" }, { name = \"dagger\", damage = \"1d4\", drawn = false }]",
            ),
            who("bo", "foes", "1,0", ""),
            who("cy", "pcs", "0,2", ""),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml_stable, &[], &[7, 3, 5]);
    assert_eq!(t.state().ch(0).cap(), Cap::Stable);
    t.type_as(PCS, "declare ash free draw dagger");
    t.type_as(PCS, "declare ash attack bo with dagger");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    t.cmds(&["end", "end"]);
    t.cmd("free");
    assert_eq!(wp(&t, "ash"), -2, "the first action of the round costs nothing");
    t.dice(&[2]).cmd("act");
    assert_eq!(wp(&t, "ash"), -3, "the second costs a Wound Point");
    t.assert_dice_used();
}

#[test]
fn hal_r17_speech_and_timing_are_options_and_free_actions_can_be_turned_off() {
    // A mute creature cannot speak; with `speech = "not-an-action"` speaking is no command.
    let mut m = free_trio("", "", "conditions = [\"mute\"]");
    m.expect_rejection(PCS, "declare cy free speak", codes::CANNOT_SPEAK);
    let mut n = free_trio("speech = \"not-an-action\"", "", "");
    n.expect_rejection(PCS, "declare cy free speak", codes::CANNOT_ACT);
    assert!(!n.legal().iter().any(|c| c.ends_with("free speak")));
    // `free-action-timing = "own-count"`: the Free action takes a turn of its own at Base
    // Initiative + `free-speed` (here 7 + 2 = 9), after ash's dagger attack at 7 − 1 = 6.
    let mut t = free_trio("free-action-timing = \"own-count\"\nfree-speed = 2", "", "");
    t.type_as(PCS, "declare ash free speak");
    t.type_as(PCS, "declare ash attack bo with sword");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    assert!(
        t.log()
            .iter()
            .any(|l| l.ends_with("7 ash: attack bo with sword; 9 ash: free speak")),
        "{:?}",
        t.log()
    );
    t.cmds(&["end", "end"]); // bo at 3, cy at 5
    t.expect_rejection(PCS, "free", codes::CANNOT_ACT); // not on the attack's turn
    t.dice(&[2]).cmd("act");
    t.cmd("end");
    // ash's own turn for the Free action: only the Free action.
    t.expect_rejection(PCS, "act", codes::CANNOT_ACT);
    t.expect_rejection(PCS, "move 0,1", codes::CANNOT_MOVE);
    t.cmd("free");
    assert_eq!(t.log(), ["ash speaks (its free action)"]);
    t.cmd("end");
    assert_eq!(t.state().round, 2);
    t.assert_dice_used();
    // `free-actions = false`: no Free action at all (fray 0.1.0).
    let mut t = free_trio("free-actions = false", "", "");
    t.expect_rejection(PCS, "declare ash free speak", codes::NOT_NOW);
    assert!(!t.legal().iter().any(|c| c.contains(" free ")), "{:?}", t.legal());
}

#[test]
fn hal_r11_hal_r17_a_secret_free_action_is_seen_as_declared_but_not_which() {
    let mut t = free_trio("", "", "");
    t.type_as(PCS, "declare ash free draw dagger");
    let g = text_game(&t);
    use fray_engine::text::AnyGame;
    let theirs: Vec<String> = g.log_for(FOES).into_iter().filter_map(|l| l.text).collect();
    assert!(
        theirs.contains(&"ash declares a free action in secret".to_string()),
        "{theirs:?}"
    );
    assert!(!theirs.iter().any(|l| l.contains("dagger")), "{theirs:?}");
    assert_eq!(g.view_json(FOES)["extra"]["chars"][0]["declared_free"], "secret");
    assert_eq!(
        g.view_json(PCS)["extra"]["chars"][0]["declared_free"]["draw"]["weapon"],
        1
    );
}

#[test]
fn hal_r18_hal_h17_movement_comes_in_legs_on_the_creatures_count_up_to_its_speed() {
    let mut t = duel("", "", "", [7, 3]);
    t.type_as(PCS, "declare ash move");
    t.type_as(FOES, "declare bo move");
    t.cmd("end"); // bo
    // ash: Speed 6 yards = 6 squares, in three legs.
    t.expect_rejection(PCS, "move 1,0", codes::BLOCKED); // bo stands there
    t.cmds(&["move 0,2", "move 2,2"]);
    t.expect_rejection(PCS, "move 5,2", codes::TOO_FAR);
    t.cmd("move 4,2");
    t.expect_rejection(PCS, "move 5,2", codes::CANNOT_MOVE);
}

#[test]
fn hal_r19_r20_r21_an_outnumbered_monster_rolls_3d6_plus_insight_hd_and_allies_against_eleven_plus_foes() {
    // Three travellers against two monsters: outnumbered. orc: Insight 12 (+1), 2 HD, 1 ally.
    let monster = "monster = true\ninsight = 12\nhd = 2";
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", ""),
            who("b", "pcs", "0,1", ""),
            who("c", "pcs", "0,2", ""),
            who("orc", "foes", "9,0", monster),
            who("gob", "foes", "9,1", "monster = true"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3, 4, 5]);
    for (seat, id) in [(PCS, "a"), (PCS, "b"), (PCS, "c"), (FOES, "orc"), (FOES, "gob")] {
        t.type_as(seat, &format!("declare {id} move"));
    }
    t.cmds(&["end", "end", "end", "end"]);
    // orc: 3d6 (2 + 3 + 4 = 9) + 1 + 2 + 1 = 13 against 11 + 3 = 14: breaks.
    // gob: 3d6 (6 + 6 + 2 = 14) + 0 + 1 + 1 = 16 ≥ 14: holds.
    t.dice(&[2, 3, 4, 6, 6, 2]).cmd("end");
    let checks: Vec<(u16, i16, i16, bool)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Checked {
                roll,
                total,
                tn,
                success,
                ..
            } => Some((*roll, *total, *tn, *success)),
            _ => None,
        })
        .collect();
    assert_eq!(checks, [(9, 13, 14, false), (14, 16, 14, true)]);
    // HAL-H13: the orc flees from the next round: its flight is declared for it.
    assert!(has(&t, "orc", Conditions::FLEEING));
    assert_eq!(t.state().ch(3).declared, Some(Action::Flee));
    t.assert_dice_used();
}

#[test]
fn hal_r19_r21_r22_intimidation_is_opposed_and_an_obvious_outcome_fails() {
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", "intimidation = 4"),
            who("orc", "foes", "9,0", "monster = true\nhd = 3"),
            who("gob", "foes", "9,1", "monster = true"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3]);
    t.type_as(PCS, "declare a intimidate orc");
    t.type_as(FOES, "declare orc move");
    t.type_as(FOES, "declare gob move");
    // HAL-R19, HAL-R21: an Intimidation check of 12 + 4 = 16 sets the orc's morale TN.
    t.dice(&[12]).cmd("act");
    t.cmds(&["end", "end"]);
    t.cmd("gm obvious gob");
    // orc: 3d6 9 + 0 + 3 + 1 = 13 < 16: breaks; gob is not outnumbered and was not
    // intimidated, so it makes no check at all, obvious or not.
    t.dice(&[3, 3, 3]).cmd("end");
    let checks: Vec<(i16, i16)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Checked { total, tn, .. } => Some((*total, *tn)),
            _ => None,
        })
        .collect();
    assert_eq!(checks, [(13, 16)]);
    assert!(has(&t, "orc", Conditions::FLEEING));
    // HAL-R22: next round both are outnumbered-free... make gob face two foes via a newcomer.
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", ""),
            who("b", "pcs", "0,1", ""),
            who("gob", "foes", "9,1", "monster = true\nhd = 9\ninsight = 18"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3]);
    t.cmd("gm obvious gob");
    t.type_as(PCS, "declare a move");
    t.type_as(PCS, "declare b move");
    t.type_as(FOES, "declare gob move");
    t.cmds(&["end", "end"]);
    // gob is outnumbered and checks, but the outcome is obvious to it: it fails, and no 3d6
    // is drawn (a table rolling its own dice is asked for none).
    t.cmd("end");
    t.assert_dice_used();
    assert!(t.last.iter().any(|e| matches!(e, Event::MoraleObvious { who: 2 })));
    assert!(!t.last.iter().any(|e| matches!(e, Event::Checked { .. })));
    assert!(has(&t, "gob", Conditions::FLEEING));
    assert!(
        t.log()
            .contains(&"gob's morale: the outcome is obvious to it, so it breaks without a roll".to_string()),
        "{:?}",
        t.log()
    );
    t.assert_replays();
    // `morale-roll-when-obvious` (fray 0.1.0): the 3d6 is drawn all the same; 18 + 4 + 9 = 31
    // would pass TN 13, but the check fails.
    let mut t = Table::<HallowedEarth>::load(
        &toml.replace("[options]\n", "[options]\nmorale-roll-when-obvious = true\n"),
        &[],
        &[1, 2, 3],
    );
    t.cmd("gm obvious gob");
    t.type_as(PCS, "declare a move");
    t.type_as(PCS, "declare b move");
    t.type_as(FOES, "declare gob move");
    t.cmds(&["end", "end"]);
    t.dice(&[6, 6, 6]).cmd("end");
    t.assert_dice_used();
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Checked {
            success: false,
            total: 31,
            ..
        }
    )));
    assert!(has(&t, "gob", Conditions::FLEEING));
}

#[test]
fn hal_h13_a_fleeing_monster_runs_for_the_edge_and_leaves_or_surrenders_with_the_option() {
    // Two travellers against an orc and a steady goblin (Insight 18, 6 HD: it holds).
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", ""),
            who("b", "pcs", "0,1", ""),
            who("c", "pcs", "0,2", ""),
            who("orc", "foes", "7,2", "monster = true"),
            who("gob", "foes", "9,0", "monster = true\ninsight = 18\nhd = 6"),
        ]
        .concat(),
    );
    let start = |toml: &str| {
        let mut t = Table::<HallowedEarth>::load(toml, &[], &[1, 2, 3, 4, 5]);
        for (seat, id) in [(PCS, "a"), (PCS, "b"), (PCS, "c"), (FOES, "orc"), (FOES, "gob")] {
            t.type_as(seat, &format!("declare {id} move"));
        }
        t.cmds(&["end", "end", "end", "end"]);
        // Outnumbered 3 to 2: orc 3 + 0 + 1 + 1 = 5 < 14 breaks; gob 3 + 4 + 6 + 1 = 14 holds.
        t.dice(&[1, 1, 1, 1, 1, 1]).cmd("end");
        t
    };
    let mut t = start(&toml);
    assert!(has(&t, "orc", Conditions::FLEEING));
    // It no longer counts as fighting, but the goblin does: the combat goes on.
    assert!(t.game.outcome().is_none());
    for id in ["a", "b", "c"] {
        t.type_as(PCS, &format!("declare {id} move"));
    }
    t.type_as(FOES, "declare gob move");
    t.cmds(&["end", "end", "end"]);
    // On its count (4) it runs 2 squares to the nearest edge (the south one, diagonally)
    // and leaves the battlefield.
    assert!(has(&t, "orc", Conditions::FLED), "{:?}", t.log());
    assert_eq!(t.state().ch(3).at.to_string(), "5,0");
    let toml = toml.replace("[options]\n", "[options]\nmorale-failure = \"surrender\"\n");
    let t = start(&toml);
    assert!(has(&t, "orc", Conditions::SURRENDERED));
}

#[test]
fn hal_h22_player_characters_check_no_morale_unless_the_option_says_so() {
    for (options, checks) in [("", 0), ("pc-morale = true", 1)] {
        let toml = enc(
            options,
            &[
                who("a", "pcs", "0,0", ""),
                who("x", "foes", "9,0", ""),
                who("y", "foes", "9,1", ""),
            ]
            .concat(),
        );
        let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3]);
        t.type_as(PCS, "declare a move");
        t.type_as(FOES, "declare x move");
        t.type_as(FOES, "declare y move");
        t.cmds(&["end", "end"]);
        t.dice(&vec![6; 3 * checks]).cmd("end");
        let n = t.last.iter().filter(|e| matches!(e, Event::Checked { .. })).count();
        assert_eq!(n, checks, "{options}");
    }
}

#[test]
fn hal_r24_stress_is_rolled_per_hit_die_with_the_strength_modifier_the_first_at_its_maximum() {
    // The seed's Leonin: 5 HD of d8, Strength 16 (+3): 8 + 4d8 + 15.
    let leonin = "stress = 0\nhd = 5\nhd-die = 8\nstrength = 16";
    let toml = enc(
        "",
        &(who("leo", "pcs", "0,0", leonin).replace("stress = 0\n", "") + &who("x", "foes", "9,0", "")),
    );
    let t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3, 4, 6, 6]);
    assert_eq!(
        t.state().ch(0).stress_max,
        8 + 3 + (1 + 3) + (2 + 3) + (3 + 3) + (4 + 3)
    );
    // With `first-hd-max` off, all five are rolled: 5d8 + 15.
    let off = toml.replace("[options]\n", "[options]\nfirst-hd-max = false\n");
    let t = Table::<HallowedEarth>::load(&off, &[], &[1, 2, 3, 4, 5, 6, 6]);
    assert_eq!(t.state().ch(0).stress_max, 15 + 15);
    // A negative modifier still yields at least 1 a die: Strength 6 (−2), 3 HD of d4.
    let weak = enc(
        "first-hd-max = false",
        &(who("w", "pcs", "0,0", "hd = 3\nhd-die = 4\nstrength = 6").replace("stress = 10\n", "")
            + &who("x", "foes", "9,0", "")),
    );
    let t = Table::<HallowedEarth>::load(&weak, &[], &[1, 2, 4, 6, 6]);
    assert_eq!(t.state().ch(0).stress_max, 1 + 1 + 2);
}

#[test]
fn hal_r25_r36_damage_loses_armour_then_stress_and_overflows_into_wound_points() {
    // bo: Stress 4, Armour 1. A 1d6+3 sword hit of 6 + 3 = 9: 8 after Armour, 4 to Stress, 4 WP.
    let mut t = duel(
        "",
        "weapons = [{ name = \"sword\", damage = \"1d6+3\" }]",
        "stress = 4\narmour = 1",
        [5, 9],
    );
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[15, 6]).cmd("act");
    assert_eq!((stress(&t, "bo"), wp(&t, "bo")), (0, 8));
    // HAL-R28: the Wound Point damage is a wound with its type and amount.
    let bo = t.state().ch(1);
    assert_eq!(
        (bo.wounds.len(), bo.wounds[0].kind.as_str(), bo.wounds[0].amount),
        (1, "blunt", 4)
    );
}

#[test]
fn hal_r27_maximum_wound_points_are_the_strength_score_plus_modifiers_whatever_the_hd() {
    let t = duel("", "strength = 15\nwp-bonus = 2\nhd = 6", "strength = 9", [5, 9]);
    assert_eq!((wp(&t, "ash"), wp(&t, "bo")), (17, 9));
}

#[test]
fn hal_r26_a_spell_is_paid_in_mana_and_then_stress() {
    let caster = "mana = 2\ncasting = 2\nspells = [{ name = \"bolt\", tn = 12, mana = 5, damage = \"1d6\" }]";
    let mut t = duel("", caster, "", [5, 9]);
    t.type_as(PCS, "declare ash cast bolt bo");
    t.type_as(FOES, "declare bo move");
    // Casting check 12 + 2 = 14 ≥ TN 12; damage 4 to bo's Stress.
    t.dice(&[12, 4]).cmd("act");
    assert_eq!((t.state().ch(0).mana, stress(&t, "ash")), (0, 7));
    assert_eq!(stress(&t, "bo"), 6);
    // Not enough Mana and Stress together: refused.
    let mut t = duel("", &caster.replace("mana = 5", "mana = 13"), "", [5, 9]);
    t.expect_rejection(PCS, "declare ash cast bolt bo", codes::SPENT);
}

#[test]
fn hal_r26_the_caster_chooses_how_much_stress_pays_in_place_of_mana() {
    // ash: 2 Mana, 10 Stress; the bolt costs 5.
    let caster = "mana = 2\ncasting = 2\nspells = [{ name = \"bolt\", tn = 12, mana = 5, damage = \"1d6\" }]";
    let mut t = duel("", caster, "", [5, 9]);
    // A split the caster cannot pay is refused, naming what is short.
    let r = t.expect_rejection(PCS, "declare ash cast bolt bo pay mana 3 stress 2", codes::SPENT);
    assert_eq!(r.reason, "bolt costs 5: ash has 2 Mana, not the 3 to pay in Mana");
    let r = t.expect_rejection(
        PCS,
        "declare ash cast bolt bo pay mana 1 stress 3",
        Reject::UNKNOWN_COMMAND,
    );
    assert_eq!(r.reason, "bolt costs 5: mana 1 and stress 3 make 4");
    // The caster keeps a Mana point: 1 Mana and 4 Stress (`pay stress 4` says the same).
    assert_eq!(
        t.parse("declare ash cast bolt bo pay stress 4"),
        t.parse("declare ash cast bolt bo pay mana 1 stress 4")
    );
    t.type_as(PCS, "declare ash cast bolt bo pay mana 1 stress 4");
    assert!(
        t.log()
            .contains(&"ash declares: cast bolt bo pay mana 1 stress 4".to_string()),
        "{:?}",
        t.log()
    );
    t.type_as(FOES, "declare bo move");
    t.dice(&[12, 4]).cmd("act");
    assert!(
        t.last
            .iter()
            .any(|e| matches!(e, Event::Spent { mana: 1, stress: 4, .. }))
    );
    assert_eq!((t.state().ch(0).mana, stress(&t, "ash")), (1, 6));
    t.assert_replays();
    // Not enough Stress for its part: refused too.
    let mut t = duel("", &format!("{caster}\nstress = 3"), "", [5, 9]);
    let r = t.expect_rejection(PCS, "declare ash cast bolt bo pay mana 0 stress 5", codes::SPENT);
    assert_eq!(r.reason, "bolt costs 5: ash has 3 Stress, not the 5 to pay in Stress");
}

#[test]
fn hal_r29_hal_r43_the_incapacitated_crawl_a_yard_and_pay_a_wound_point_to_act() {
    let mut t = duel_z("", "", "", [5, 9]);
    t.cmd("gm set ash wp =0");
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    // A crawl of 1 yard a turn.
    let r = t.expect_rejection(PCS, "move 0,2", codes::TOO_FAR);
    // One square, one Wound Point: counts of one read in the singular.
    assert_eq!(r.reason, "0,2 is 2 squares away and 1 is left this round");
    t.cmd("move 0,1");
    assert_eq!(t.log(), ["ash moves to 0,1 (1 square)"]);
    t.expect_rejection(PCS, "move 0,2", codes::CANNOT_MOVE);
    // Acting costs 1 Wound Point even with Stress left (HAL-R43), as an untyped wound.
    t.dice(&[2]).cmd("act");
    assert_eq!((wp(&t, "ash"), stress(&t, "ash")), (-1, 10));
    assert!(
        t.log()
            .contains(&"ash pays 1 Wound Point for acting hurt: Stress 10/10, Wound Points -1/12 [Dying]".to_string()),
        "{:?}",
        t.log()
    );
    let w = &t.state().ch(0).wounds;
    assert_eq!((w[0].kind.as_str(), w[0].amount), ("untyped", 1));
    t.assert_dice_used();
}

#[test]
fn hal_r30_the_dying_take_one_action_not_after_moving_and_bleed_at_the_end_of_the_round() {
    let mut t = duel_z("", "", "", [5, 9]);
    t.cmd("gm set ash wp =-2");
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.cmd("move 0,1");
    t.expect_rejection(PCS, "act", codes::CANNOT_ACT); // moved: no action
    t.cmd("end");
    t.cmd("end"); // bo
    // End of round: 1 Wound Point lost (HAL-R43: untyped).
    assert_eq!(wp(&t, "ash"), -3);
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Damaged {
            wp: 1,
            cause: fray_hallowed_earth::state::Cause::Bleeding,
            ..
        }
    )));
    // Round 2: acting first (1 more Wound Point), it may not move after.
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(PCS, "declare zed move");
    t.type_as(FOES, "declare bo move");
    t.dice(&[2]).cmd("act");
    assert_eq!(wp(&t, "ash"), -4);
    t.expect_rejection(PCS, "move 0,0", codes::CANNOT_MOVE);
    t.assert_dice_used();
}

#[test]
fn hal_r31_a_creature_dies_at_minus_its_strength() {
    let mut t = duel_z("", "strength = 10", "", [5, 9]);
    t.cmd("gm set ash wp =-9");
    assert!(!has(&t, "ash", Conditions::DEAD));
    t.cmd("gm set ash wp -1");
    assert!(has(&t, "ash", Conditions::DEAD));
}

#[test]
fn hal_r32_r33_r34_a_heal_check_against_ten_plus_the_worst_wound_stabilizes() {
    let crit = "weapons = [{ name = \"sword\", damage = \"1d6+4\", crit = 2 }]";
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "0,0", crit),
            who("bo", "foes", "1,0", "stress = 0\nstrength = 10"),
            who("cy", "foes", "2,0", "heal = 2"),
        ]
        .concat(),
    );
    // Counts: ash 1, bo 9, cy 10.
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 9, 10]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare cy move");
    // A natural 20: (2 + 4) × 2 = 12 Wound Points (HAL-R37); the d100 of 50 is no injury.
    t.dice(&[20, 2, 50]).cmd("act");
    assert_eq!(wp(&t, "bo"), -2);
    t.cmd("end");
    // HAL-H16: bo, dropped to Dying since it declared, loses its action; cy's turn comes.
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(2));
    t.cmd("end");
    assert_eq!(wp(&t, "bo"), -3, "bled at the end of the round (HAL-R30)");
    t.type_as(PCS, "declare ash move");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare cy heal bo");
    t.cmd("end"); // ash
    t.cmd("end"); // bo, Dying since before it declared: its turn comes, and it ends it
    // HAL-R32: TN 10 + 12 (the worst wound) = 22; cy's 20 + 2 = 22 succeeds.
    t.dice(&[20]).cmd("act");
    assert!(has(&t, "bo", Conditions::STABILIZED));
    t.cmd("end");
    // HAL-R34: no bleeding while Stabilized.
    assert_eq!(wp(&t, "bo"), -3);
    assert_eq!(t.state().ch(1).cap(), Cap::Stable);
    // HAL-R33: half speed (3 of 6), one action a round free, 1 Wound Point for each beyond.
    t.type_as(PCS, "declare ash move");
    t.type_as(FOES, "declare bo attack ash");
    t.type_as(FOES, "declare cy move");
    t.cmd("move 0,3"); // ash walks away and back: bo's Reposte chance is a second action
    t.cmd("move 0,0");
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("reposte"));
    t.dice(&[2]).cmd("reposte"); // its first action this round: free
    assert_eq!(wp(&t, "bo"), -3);
    t.cmd("pass"); // cy's chance too
    t.cmd("end");
    t.expect_rejection(FOES, "move 5,0", codes::TOO_FAR);
    t.dice(&[2]).cmd("act"); // the second: 1 Wound Point
    assert_eq!(wp(&t, "bo"), -4);
    assert!(
        has(&t, "bo", Conditions::STABILIZED),
        "its own strain does not end Stabilized"
    );
    t.cmd("end");
    t.cmd("end"); // cy
    // HAL-R34: new damage from an attack ends Stabilized.
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare cy move");
    t.dice(&[15, 1]).cmd("act");
    assert!(!has(&t, "bo", Conditions::STABILIZED));
    t.assert_dice_used();
}

#[test]
fn hal_r35_defense_is_ten_plus_the_agility_modifier_plus_the_bonus_and_a_hit_meets_it() {
    // ash: Agility 14 (+2), Defense bonus 3: 15. bo attacks with +1 (Strength 12).
    for (d20, hit) in [(14u16, true), (13, false)] {
        let mut t = duel("", "agility = 14\ndefense-bonus = 3", "", [9, 1]);
        assert_eq!(t.state().defense(0), 15);
        t.type_as(PCS, "declare ash move");
        t.type_as(FOES, "declare bo attack ash");
        let faces: Vec<u16> = if hit { vec![d20, 3] } else { vec![d20] };
        t.dice(&faces).cmd("act");
        assert!(
            t.last
                .iter()
                .any(|e| matches!(e, Event::Attacked { hit: h, .. } if *h == hit))
        );
        t.assert_dice_used();
    }
}

/// ash strikes bo once with `weapon` on count 1 (bo: Stress 10, Strength 12, `bo`), with the
/// attack's dice `faces`; returns the table.
fn strike(options: &str, weapon: &str, bo: &str, faces: &[u16]) -> Table<HallowedEarth> {
    let mut t = duel_z(options, &format!("weapons = [{weapon}]"), bo, [1, 9]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(faces).cmd("act");
    t.assert_dice_used();
    t
}

#[test]
fn hal_r37_hal_h3_criticals_multiply_into_wound_points_a_twenty_always_hits_a_one_always_misses() {
    let axe = r#"{ name = "axe", damage = "1d8", crit = 3 }"#;
    // A natural 20 hits Defense 40 and crits: 5 × 3 = 15 to Wound Points, none to Stress.
    let t = strike("", axe, "defense-bonus = 30", &[20, 5, 99]);
    assert_eq!((stress(&t, "bo"), wp(&t, "bo")), (10, 12 - 15));
    // A natural 1 misses even a Defense of 10 with +30.
    let t = strike("", &axe.replace("1d8\"", "1d8\", ability = \"strength\""), "", &[1]);
    assert_eq!(wp(&t, "bo"), 12);
    let big = "attack = 30";
    let mut t = duel_z("", &format!("{big}\nweapons = [{axe}]"), "", [1, 9]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[1]).cmd("act");
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Attacked {
            natural: 1,
            hit: false,
            ..
        }
    )));
    // With the option off, 1 + 31 hits.
    let mut t = duel_z(
        "natural-1-misses = false",
        &format!("{big}\nweapons = [{axe}]"),
        "",
        [1, 9],
    );
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[1, 2]).cmd("act");
    assert_eq!(stress(&t, "bo"), 8);
    // A crit range of 19: a 19 that hits crits; a 19 that misses does not (crit-needs-hit).
    let keen = r#"{ name = "rapier", damage = "1d6", crit-range = 19 }"#;
    let t = strike("", keen, "", &[19, 4, 99]);
    assert_eq!(wp(&t, "bo"), 12 - 8);
    let t = strike("", keen, "defense-bonus = 15", &[19]);
    assert_eq!(wp(&t, "bo"), 12);
    let t = strike("crit-needs-hit = false", keen, "defense-bonus = 15", &[19, 4, 99]);
    assert_eq!(wp(&t, "bo"), 12 - 8);
    // Without `natural-top-hits`, a 20 that falls short misses.
    let t = strike(
        "natural-top-hits = false\ncrit-needs-hit = true",
        axe,
        "defense-bonus = 30",
        &[20],
    );
    assert_eq!(wp(&t, "bo"), 12);
}

#[test]
fn hal_h4_armour_comes_off_after_the_multiplier_unless_the_option_says_before() {
    let axe = r#"{ name = "axe", damage = "1d8", crit = 3 }"#;
    // (5 × 3) − 2 = 13; (5 − 2) × 3 = 9.
    let t = strike("", axe, "armour = 2", &[20, 5, 99]);
    assert_eq!(wp(&t, "bo"), 12 - 13);
    let t = strike(
        "crit-armour-order = \"reduce-then-multiply\"",
        axe,
        "armour = 2",
        &[20, 5, 99],
    );
    assert_eq!(wp(&t, "bo"), 12 - 9);
}

#[test]
fn hal_r38_hal_h5_a_d100_at_or_under_the_wound_damage_of_a_crit_injures() {
    let axe = r#"{ name = "axe", damage = "1d8", crit = 2 }"#;
    // 5 × 2 − 1 (Armour) = 9 Wound Points: a d100 of 9 injures (then the table's d20 1:
    // crushed foot), a 10 does not.
    let t = strike("", axe, "armour = 1", &[20, 5, 9, 1]);
    assert_eq!(t.state().ch(1).injuries, ["crushed foot"]);
    assert_eq!(t.state().ch(1).balance, -5);
    let t = strike("", axe, "armour = 1", &[20, 5, 10]);
    assert!(t.state().ch(1).injuries.is_empty());
    // HAL-H5's other reading: the damage before Armour (10).
    let t = strike("injury-chance = \"rolled-damage\"", axe, "armour = 1", &[20, 5, 10, 1]);
    assert_eq!(t.state().ch(1).injuries.len(), 1);
}

#[test]
fn hal_r39_hal_h8_with_several_damage_types_the_attackers_seat_picks_the_table() {
    let blade = r#"{ name = "glaive", damage = "1d8", types = ["piercing", "slashing"] }"#;
    let mut t = duel_z("", &format!("weapons = [{blade}]"), "", [1, 9]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[20, 8, 1]).cmd("act");
    assert_eq!(t.game.pending().map(|p| (p.kind(), p.first())), Some(("injury", PCS)));
    assert_eq!(t.legal(), ["injury piercing", "injury slashing"]);
    t.expect_rejection(PCS, "injury fire", codes::BAD_INJURY_TYPE);
    // HAL-H8: slashing has no table of its own: the blunt table's 13th entry.
    t.dice(&[13, 3]).cmd("injury slashing");
    assert_eq!(t.state().ch(1).injuries, ["broken finger"]);
    assert_eq!(t.state().ch(1).loss[2], 3, "1d8 Dexterity damage");
    // The wound keeps the weapon's damage types (HAL-R28).
    assert_eq!(t.state().ch(1).wounds[0].kind, "piercing/slashing");
    // A table of its own, from the encounter file, is used for its type.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "0,0", &format!("weapons = [{}]", r#"{ name = "torch", damage = "1d4", types = ["fire"] }"#)),
            who("bo", "foes", "1,0", ""),
            who("zed", "pcs", "9,4", "surprised = true"),
            "[injuries]\nfire = [{ name = \"scorched\", effects = [\"one-eye\"] }, { name = \"burnt hand\", side = true, effects = [\"hand-useless\"] }]\n".into(),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 9, 12]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    // A 2-entry table rolls a d2.
    t.dice(&[20, 4, 1, 2, 3]).cmd("act");
    assert_eq!(t.state().ch(1).injuries, ["burnt hand"]);
    assert!(has(&t, "bo", Conditions::OFF_ARM), "a d4 of 3: the off hand");
}

#[test]
fn hal_r40_r41_hal_h25_the_blunt_table_its_arms_and_its_effects() {
    let maul = r#"{ name = "maul", damage = "1d6", crit = 2 }"#;
    // Entry 8, crushed shoulder: a d4 of 2 picks the main arm; 2d8 (4 + 3 = 7) to Strength and
    // Dexterity from one roll (HAL-H25); the main arm's weapons are out of use.
    let t = strike("", maul, "", &[20, 1, 1, 8, 2, 4, 3]);
    let bo = t.state().ch(1);
    assert_eq!((bo.loss[0], bo.loss[2]), (7, 7));
    assert!(bo.has(Conditions::MAIN_ARM));
    // HAL-H18: Strength 12 − 7 = 5: maximum Wound Points 5.
    assert_eq!(t.state().wp_max(1), 5);
    let mut t = t;
    t.cmd("end");
    t.expect_rejection(FOES, "act", codes::CANNOT_ACT); // a declared move: nothing to do
    t.cmd("end");
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare zed move");
    t.expect_rejection(FOES, "declare bo attack ash with sword", codes::NO_WEAPON);
    // HAL-H25's other reading: a roll for each ability.
    let t = strike(
        "dual-ability-damage = \"separate-rolls\"",
        maul,
        "",
        &[20, 1, 1, 8, 4, 4, 3, 1, 1],
    );
    let bo = t.state().ch(1);
    assert_eq!((bo.loss[0], bo.loss[2], bo.has(Conditions::OFF_ARM)), (7, 2, true));
    // Entry 2, broken shin: 1d8 Agility damage and half speed.
    let t = strike("", maul, "", &[20, 1, 1, 2, 5]);
    assert_eq!(t.state().ch(1).loss[1], 5);
    assert!(has(&t, "bo", Conditions::LAME));
    // Entry 14, broken neck: paralysed: no declaration, no action (HAL-H6).
    let mut t = strike("", maul, "", &[20, 1, 1, 14]);
    assert!(has(&t, "bo", Conditions::PARALYZED));
    t.cmd("end");
    // bo's turn is lost, and the round ends with its count.
    assert!(t.last.iter().any(|e| matches!(e, Event::ActLost { .. })));
    assert_eq!(t.state().round, 2);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(PCS, "declare zed move");
    assert_eq!(t.state().phase, Phase::Resolving, "bo declares nothing");
    // Attacks against it: +4; a d20 of 5 + 1 + 4 = 10 hits Defense 10.
    t.dice(&[5, 1]).cmd("act");
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Attacked {
            hit: true,
            total: 10,
            ..
        }
    )));
    // Entry 20, cracked skull: Memory and Perception, concussed (−2 to checks and attacks).
    let t = strike("", maul, "", &[20, 1, 1, 20, 4]);
    let bo = t.state().ch(1);
    assert_eq!((bo.loss[5], bo.loss[4]), (4, 4));
    assert!(bo.has(Conditions::CONCUSSED));
    // Entry 6, broken rib: after a round in which it took an action, it rests a round.
    let mut t = strike("", maul, "", &[20, 1, 1, 6, 1, 1]);
    t.cmds(&["end", "end"]); // ash; bo only moved: no action taken
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare zed move");
    t.type_as(FOES, "declare bo attack ash");
    t.cmd("end"); // ash
    t.dice(&[2]).cmd("act");
    t.cmds(&["end", "end"]); // bo, zed
    assert_eq!(t.state().round, 3);
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare zed move");
    assert_eq!(t.state().phase, Phase::Resolving, "bo rests: it declares nothing");
    // Entry 3, shattered kneecap: prone until healed: melee attacks on it +2.
    let t = strike("", maul, "", &[20, 1, 1, 3, 2]);
    assert!(has(&t, "bo", Conditions::PRONE));
}

#[test]
fn hal_h18_agility_loss_keeps_base_initiative_unless_the_option_recomputes_it() {
    let maul = r#"{ name = "maul", damage = "1d6", crit = 2 }"#;
    // Entry 4, broken thighbone: 1d10 Agility: 6 → Agility 10 − 6 = 4 (−3).
    let t = strike("", maul, "", &[20, 1, 1, 4, 6]);
    assert_eq!(t.state().ch(1).base, Some(9));
    assert_eq!(t.state().defense(1), 7);
    let t = strike("agility-loss-rerolls-initiative = true", maul, "", &[20, 1, 1, 4, 6]);
    assert_eq!(t.state().ch(1).base, Some(12));
    // A Strength drop below the current Wound Points lowers them, and the death threshold:
    // entry 7, 3d4 Strength: 4 + 4 + 4 = 12 → Strength 0: dead at 0 Wound Points.
    let t = strike("", maul, "", &[20, 1, 1, 7, 4, 4, 4]);
    assert!(has(&t, "bo", Conditions::DEAD));
}

#[test]
fn hal_h6_prone_paralysed_blinded_and_concussed_change_attack_rolls() {
    let total = |t: &Table<HallowedEarth>| {
        t.last.iter().find_map(|e| match e {
            Event::Attacked { total, .. } => Some(*total),
            _ => None,
        })
    };
    // A prone target (entry 3): melee attacks on it +2. ash: Strength 12 (+1).
    let mut t = strike(
        "",
        r#"{ name = "maul", damage = "1d6", crit = 2 }"#,
        "",
        &[20, 1, 1, 3, 2],
    );
    t.cmd("end");
    t.cmd("end");
    t.type_as(PCS, "declare ash attack bo with maul");
    t.type_as(PCS, "declare zed move");
    t.type_as(FOES, "declare bo move");
    t.dice(&[5]).cmd("act");
    assert_eq!(total(&t), Some(5 + 1 + 2));
    // A blinded attacker: −4 (option blinded-attack-penalty).
    let mut t = duel_z("", "", "", [1, 9]);
    t.cmd("gm blind ash");
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[5]).cmd("act");
    assert_eq!(total(&t), Some(5 + 1 - 4));
    // Paralysed targets take a crit from every hit with `paralyzed-auto-crit`.
    let mut t = strike(
        "paralyzed-auto-crit = true",
        r#"{ name = "maul", damage = "1d6", crit = 2 }"#,
        "",
        &[20, 1, 1, 14],
    );
    t.cmd("end");
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(PCS, "declare zed move");
    t.dice(&[10, 3, 99]).cmd("act");
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Attacked {
            crit: true,
            natural: 10,
            ..
        }
    )));
}

#[test]
fn hal_h10_threat_range_is_two_yards_three_with_a_reach_weapon_and_ranges_are_in_yards() {
    let spear = r#"{ name = "spear", damage = "1d8", long = true }"#;
    let bow = r#"{ name = "bow", damage = "1d6", range = 5 }"#;
    let toml = |options: &str| {
        enc(
            options,
            &[
                who(
                    "ash",
                    "pcs",
                    "0,0",
                    &format!("weapons = [{{ name = \"sword\", damage = \"1d6\" }}, {spear}, {bow}]"),
                ),
                who("bo", "foes", "3,0", ""),
            ]
            .concat(),
        )
    };
    for (weapon, ok) in [("sword", false), ("spear", true), ("bow", true)] {
        let mut t = Table::<HallowedEarth>::load(&toml(""), &[], &[1, 9]);
        t.type_as(PCS, &format!("declare ash attack bo with {weapon}"));
        t.type_as(FOES, "declare bo move");
        if ok {
            t.dice(&[2]).cmd("act");
        } else {
            t.expect_rejection(PCS, "act", codes::OUT_OF_REACH);
        }
    }
    // Two yards a square: bo is 6 yards away, beyond the bow's 5.
    let mut t = Table::<HallowedEarth>::load(&toml("yards-per-square = 2"), &[], &[1, 9]);
    t.type_as(PCS, "declare ash attack bo with bow");
    t.type_as(FOES, "declare bo move");
    t.expect_rejection(PCS, "act", codes::OUT_OF_REACH);
}

#[test]
fn hal_h14_hal_r23_a_side_with_nobody_still_fighting_has_lost() {
    // Incapacitated, Dying, and Stabilized below 0 are not fighting.
    let mut t = duel("", "", "", [1, 9]);
    t.cmd("gm set bo wp =0");
    assert_eq!(
        t.game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(0), "last-side-fighting".into()))
    );
    // Outnumbering counts only those still fighting: two pcs, one of them down, against one
    // monster: not outnumbered, no morale check.
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", ""),
            who("b", "pcs", "0,1", ""),
            who("orc", "foes", "9,0", "monster = true"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3]);
    t.cmd("gm set b wp =0");
    t.type_as(PCS, "declare a move");
    t.type_as(PCS, "declare b move");
    t.type_as(FOES, "declare orc move");
    t.cmds(&["end", "end", "end"]);
    assert!(!t.last.iter().any(|e| matches!(e, Event::Checked { .. })));
    // The GM may end it too.
    t.cmd("gm end none");
    assert_eq!(t.game.outcome().map(|o| o.winner), Some(None));
}

#[test]
fn hal_h15_a_single_hit_of_over_half_the_wound_points_triggers_morale() {
    // orc: 12 Wound Points, no Stress; a 7-point hit is over half (6). Not outnumbered.
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", "weapons = [{ name = \"axe\", damage = \"1d8\" }]"),
            who("orc", "foes", "1,0", "monster = true\nstress = 0"),
        ]
        .concat(),
    );
    for (damage, checks) in [(7u16, 1), (6, 0)] {
        let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 9]);
        t.type_as(PCS, "declare a attack orc");
        t.type_as(FOES, "declare orc move");
        t.dice(&[15, damage]).cmd("act");
        t.cmd("end");
        let faces = vec![6; 3 * checks];
        t.dice(&faces).cmd("end");
        let n = t.last.iter().filter(|e| matches!(e, Event::Checked { .. })).count();
        assert_eq!(n, checks, "a hit of {damage}");
    }
    // Stress damage does not count: with 10 Stress the 7 goes to Stress.
    let toml = toml.replace("monster = true\nstress = 0", "monster = true");
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 9]);
    t.type_as(PCS, "declare a attack orc");
    t.type_as(FOES, "declare orc move");
    t.dice(&[15, 7]).cmd("act");
    t.cmds(&["end", "end"]);
    assert!(!t.last.iter().any(|e| matches!(e, Event::Checked { .. })));
}

#[test]
fn hal_h16_a_declaration_binds_its_target_is_gone_and_the_fallen_may_still_act() {
    // bo's target, cy, is taken away on count 2 (a GM ruling here); bo's attack on 9 is lost.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "0,0", ""),
            who("cy", "pcs", "1,1", ""),
            who("bo", "foes", "1,0", ""),
            who("dd", "foes", "9,4", ""),
        ]
        .concat(),
    );
    let start = |toml: &str| {
        let mut t = Table::<HallowedEarth>::load(toml, &[], &[1, 2, 9, 12]);
        t.type_as(PCS, "declare ash move");
        t.type_as(PCS, "declare cy move");
        t.type_as(FOES, "declare bo attack cy");
        t.type_as(FOES, "declare dd move");
        t.cmd("end"); // ash
        t
    };
    let mut t = start(&toml);
    t.cmd("gm remove cy"); // during cy's own turn: it ends
    // The lost action is said when bo's count comes.
    assert!(
        t.log()
            .contains(&"bo's turn: attack cy with sword; its attack on cy is lost: cy was taken out of the fight (it may still move)".to_string()),
        "{:?}",
        t.log()
    );
    let r = t.expect_rejection(FOES, "act", codes::BAD_TARGET);
    assert!(r.reason.contains("gone"), "{}", r.reason);
    t.expect_rejection(FOES, "act ash", codes::BAD_TARGET);
    // With `retarget`, another target in reach.
    // A target killed on an earlier count is gone too.
    let mut t = start(&toml);
    t.cmd("gm set cy wp =-12");
    t.cmd("end"); // killed on its own count, cy still ends its turn (HAL-R10)
    assert!(
        t.log().contains(
            &"bo's turn: attack cy with sword; its attack on cy is lost: cy is dead (it may still move)".to_string()
        ),
        "{:?}",
        t.log()
    );
    let mut t = start(&toml.replace("[options]\n", "[options]\nretarget = true\n"));
    t.cmd("gm remove cy");
    assert!(
        t.log()
            .contains(&"bo's turn: attack cy with sword; cy was taken out of the fight: `act <target>` aims its attack on cy at another creature in reach, else it is lost".to_string()),
        "{:?}",
        t.log()
    );
    assert!(t.legal().contains(&"act ash".to_string()), "{:?}", t.legal());
    t.dice(&[2]).cmd("act ash");
    // Dropped to Incapacitated before its count: it may still act, for 1 Wound Point...
    let mut t = start(&toml);
    t.cmd("gm set bo wp =0");
    t.cmd("end"); // cy
    t.dice(&[2]).cmd("act");
    assert_eq!(wp(&t, "bo"), -1);
    // ...or, with the option off, it loses the action.
    let mut t = start(&toml.replace("[options]\n", "[options]\nincapacitated-may-act = false\n"));
    t.cmd("gm set bo wp =0");
    t.cmd("end"); // cy
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::ActLost {
            why: fray_hallowed_earth::state::Lost::Dropped,
            ..
        }
    )));
}

#[test]
fn hal_h26_the_dying_bleed_before_morale_so_the_counts_see_that_rounds_deaths() {
    // Two monsters against two travellers; imp is Dying at −11 (Strength 12: dead at −12).
    // Bleeding first, imp dies before morale: orc is then outnumbered 2 to 1 and checks.
    // Morale first, imp still counts... as not fighting either way (it is Dying), so the
    // difference shows in the order of the events.
    let toml = |options: &str| {
        enc(
            options,
            &[
                who("a", "pcs", "0,0", ""),
                who("b", "pcs", "0,1", ""),
                who("orc", "foes", "9,0", "monster = true"),
                who("imp", "foes", "9,2", "monster = true"),
            ]
            .concat(),
        )
    };
    for (options, dying_first) in [("", true), ("end-of-round = \"morale-then-dying\"", false)] {
        let mut t = Table::<HallowedEarth>::load(&toml(options), &[], &[1, 2, 3, 4]);
        t.cmd("gm set imp wp =-11");
        t.type_as(PCS, "declare a move");
        t.type_as(PCS, "declare b move");
        t.type_as(FOES, "declare orc move");
        t.type_as(FOES, "declare imp move");
        t.cmds(&["end", "end", "end"]);
        t.dice(&[6, 6, 6]).cmd("end");
        // The end of the round is logged after its steps.
        let order: Vec<&str> = t
            .last
            .iter()
            .filter_map(|e| match e {
                Event::Damaged { .. } => Some("bleed"),
                Event::Checked { .. } => Some("morale"),
                Event::RoundEnded { .. } => Some("end"),
                Event::RoundStarted { .. } => Some("next"),
                _ => None,
            })
            .collect();
        let want = if dying_first {
            ["bleed", "morale", "end", "next"]
        } else {
            ["morale", "bleed", "end", "next"]
        };
        assert_eq!(order, want, "{options}");
        assert!(has(&t, "imp", Conditions::DEAD));
        let log = t.log();
        let morale = log.iter().position(|l| l.starts_with("orc's morale"));
        let end = log.iter().position(|l| l == "End of round 1");
        assert!(morale.is_some() && morale < end, "{log:?}");
    }
}

#[test]
fn gm_rulings_set_gauges_move_add_remove_and_end() {
    let mut t = duel_z("", "", "", [1, 9]);
    t.expect_rejection(PCS, "gm set bo stress -3", Reject::GM_ONLY);
    t.cmd("gm set bo stress -3");
    // Every ruling says what it did.
    assert_eq!(
        t.log(),
        ["Ruling: gm set bo stress -3: bo now has Stress 7/10, Wound Points 12/12"]
    );
    assert_eq!(stress(&t, "bo"), 7);
    t.expect_rejection(Seat::GM, "gm set bo stress +9", codes::BAD_RULING); // above its maximum
    t.expect_rejection(Seat::GM, "gm set bo wp +1", codes::BAD_RULING);
    t.cmd("gm set bo mana =4");
    assert_eq!(t.log(), ["Ruling: gm set bo mana =4: bo now has 4 Mana"]);
    t.expect_rejection(Seat::GM, "gm move bo 0,0", codes::BAD_RULING); // ash stands there
    t.cmd("gm move bo 2,0");
    assert_eq!(t.log(), ["Ruling: gm move bo 2,0: bo is placed at 2,0"]);
    assert_eq!(t.state().ch(1).at.to_string(), "2,0");
    t.expect_rejection(Seat::GM, "gm add bo2 nothing foes 5,4", codes::BAD_RULING);
    t.expect_rejection(Seat::GM, "gm add ash bo foes 5,4", codes::BAD_RULING);
    t.expect_rejection(Seat::GM, "gm obvious nobody", Reject::UNKNOWN_COMMAND);
    t.cmd("gm obvious bo");
    assert!(has(&t, "bo", Conditions::HOPELESS));
    assert_eq!(
        t.log(),
        ["Ruling: gm obvious bo: the outcome is now obvious to bo: its morale checks fail"]
    );
    t.cmd("gm obvious bo"); // typed again: no longer obvious
    assert!(!has(&t, "bo", Conditions::HOPELESS));
    assert_eq!(
        t.log(),
        ["Ruling: gm obvious bo: the outcome is no longer obvious to bo"]
    );
    t.cmd("gm blind ash");
    assert!(has(&t, "ash", Conditions::BLINDED));
    assert_eq!(
        t.log(),
        ["Ruling: gm blind ash: ash is Blinded: -4 to its attack rolls"]
    );
    t.cmd("gm blind ash");
    assert!(!has(&t, "ash", Conditions::BLINDED));
    assert_eq!(t.log(), ["Ruling: gm blind ash: ash is no longer Blinded"]);
    // A gauge ruling names the state it leaves: Dying, then dead.
    t.cmd("gm set ash wp -20");
    assert_eq!(
        t.log(),
        ["Ruling: gm set ash wp -20: ash now has Stress 10/10, Wound Points -8/12 [Dying]"]
    );
    t.cmd("gm set ash wp =3");
    assert_eq!(
        t.log(),
        ["Ruling: gm set ash wp =3: ash now has Stress 10/10, Wound Points 3/12"]
    );

    t.cmd("gm remove zed");
    assert!(has(&t, "zed", Conditions::REMOVED));
    assert_eq!(t.log(), ["Ruling: gm remove zed: zed is taken out of the fight"]);
    t.expect_rejection(Seat::GM, "gm remove zed", codes::BAD_RULING);
    t.cmd("gm end foes");
    assert_eq!(
        t.game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(1), "gm-ended".into()))
    );
    assert_eq!(t.log(), ["Ruling: gm end foes: the combat ends, foes win (gm-ended)"]);
    t.assert_replays();
    let mut t = duel_z("", "", "", [1, 9]);
    t.cmd("gm set ash wp =-12");
    assert_eq!(
        t.log(),
        ["Ruling: gm set ash wp =-12: ash now has Stress 10/10, Wound Points -12/12 [dead]"]
    );
    t.assert_replays();
}

#[test]
fn hal_r5_r25_r43_hal_h15_their_assumptions_are_options() {
    // HAL-R5: with `group-own-modifiers` off, the group takes its first member's base.
    let toml = enc(
        "group-own-modifiers = false",
        &[
            who("a", "pcs", "0,0", ""),
            who("w1", "foes", "9,0", "group = \"w\""),
            who("w2", "foes", "9,1", "group = \"w\"\nagility = 16"),
        ]
        .concat(),
    );
    let t = Table::<HallowedEarth>::load(&toml, &[], &[1, 6]);
    assert_eq!((t.state().ch(1).base, t.state().ch(2).base), (Some(6), Some(6)));
    // HAL-R25: with `stress-overflow` off, a hit that empties Stress stops there.
    let t = strike(
        "stress-overflow = false",
        r#"{ name = "axe", damage = "1d8+4" }"#,
        "stress = 3",
        &[15, 6],
    );
    assert_eq!((stress(&t, "bo"), wp(&t, "bo")), (0, 12));
    let t = strike("", r#"{ name = "axe", damage = "1d8+4" }"#, "stress = 3", &[15, 6]);
    assert_eq!((stress(&t, "bo"), wp(&t, "bo")), (0, 5));
    // HAL-R43: the type of the strain wounds.
    let mut t = duel_z("strain-damage-type = \"strain\"", "", "", [5, 9]);
    t.cmd("gm set ash wp =0");
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[2]).cmd("act");
    assert_eq!(t.state().ch(0).wounds[0].kind, "strain");
    // HAL-H15: with `big-hit-counts-stress`, 7 to Stress is a big hit too.
    let toml = enc(
        "big-hit-counts-stress = true",
        &[
            who("a", "pcs", "0,0", "weapons = [{ name = \"axe\", damage = \"1d8\" }]"),
            who("orc", "foes", "1,0", "monster = true"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 9]);
    t.type_as(PCS, "declare a attack orc");
    t.type_as(FOES, "declare orc move");
    t.dice(&[15, 7]).cmd("act");
    t.cmd("end");
    t.dice(&[6, 6, 6]).cmd("end");
    assert!(t.last.iter().any(|e| matches!(e, Event::Checked { .. })));
}

#[test]
fn hal_r39_the_referee_picks_the_injury_table_for_a_monster() {
    let blade = r#"{ name = "glaive", damage = "1d8", types = ["piercing", "slashing"] }"#;
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "0,0", ""),
            who("zed", "pcs", "9,4", ""),
            who("orc", "foes", "1,0", &format!("monster = true\nweapons = [{blade}]")),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[9, 12, 1]);
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare zed move");
    t.type_as(FOES, "declare orc attack ash");
    t.dice(&[20, 8, 1]).cmd("act");
    assert_eq!(
        t.game.pending().map(|p| (p.kind(), p.first())),
        Some(("injury", Seat::GM))
    );
}

#[test]
fn hal_r18_with_alternating_diagonals_every_second_diagonal_step_costs_two() {
    // Speed 6: diagonal steps cost 1, 2, 1, 2 ... counted afresh in each leg of a move.
    let mut t = duel("metric = \"alternating_diagonal\"", "", "", [7, 3]);
    t.type_as(PCS, "declare ash move");
    t.type_as(FOES, "declare bo move");
    t.cmd("end"); // bo
    // Four diagonals and a straight step: 1 + 2 + 1 + 2 + 1 = 7 > 6.
    t.expect_rejection(PCS, "move 5,4", codes::TOO_FAR);
    t.cmd("move 3,3"); // three diagonals: 4
    assert_eq!(t.state().ch(0).moved, 4);
    t.cmd("move 4,4"); // a new leg: its first diagonal costs 1
    assert_eq!(t.state().ch(0).moved, 5);
}

#[test]
fn unknown_ids_in_commands_are_answered_with_did_you_mean() {
    let t = free_trio("", "", "");
    let r = t.parse("declare ahs attack bo").unwrap_err();
    assert!(
        r.reason.contains("no combatant 'ahs' (did you mean 'ash'?)"),
        "{}",
        r.reason
    );
    let r = t.parse("declare ash attack bo with swrod").unwrap_err();
    assert!(
        r.reason.contains("ash has no weapon 'swrod' (did you mean 'sword'?)"),
        "{}",
        r.reason
    );
    let r = t.parse("declare ash free draw dager").unwrap_err();
    assert!(r.reason.contains("(did you mean 'dagger'?)"), "{}", r.reason);
    // Nothing close: no guess.
    let r = t.parse("declare zzzzzz move").unwrap_err();
    assert!(!r.reason.contains("did you mean"), "{}", r.reason);
}

#[test]
fn the_prompt_leaves_out_stabilising_a_foe_and_dropping_a_weapon_but_keeps_them_legal() {
    use fray_engine::text::{AnyGame, TextRuleset};
    // bo (a foe) is Incapacitated: ash could stabilise it, which a player rarely means (dee
    // keeps the foes' side fighting).
    let four = || {
        let weapons =
            r#"weapons = [{ name = "sword", damage = "1d6" }, { name = "dagger", damage = "1d4", drawn = false }]"#;
        let toml = enc(
            "",
            &[
                who("ash", "pcs", "0,0", weapons),
                who("bo", "foes", "1,0", ""),
                who("cy", "pcs", "0,2", ""),
                who("dee", "foes", "9,4", ""),
            ]
            .concat(),
        );
        let mut t = Table::<HallowedEarth>::load(&toml, &[], &[7, 3, 5, 2]);
        t.cmd("gm set bo wp =0");
        t
    };
    let t = four();
    let p = text_game(&t).pending().expect("declarations");
    let hidden = |c: &str| {
        let i = p
            .choices
            .iter()
            .position(|x| x == c)
            .unwrap_or_else(|| panic!("{c} is legal: {:?}", p.choices));
        p.hidden[i]
    };
    assert!(hidden("declare ash heal bo"));
    assert!(hidden("declare ash free drop sword"));
    assert!(!hidden("declare ash attack bo with sword"));
    assert!(!hidden("declare ash free draw dagger"));
    assert!(!hidden("declare ash move"));
    // Stabilising an ally is meant: shown.
    let mut t = free_trio("", "", "");
    t.cmd("gm set cy wp =0");
    let s = t.state();
    let heal_cy = t.parse("declare ash heal cy").expect("reads");
    assert!(!HallowedEarth::prompt_hides(s, &heal_cy));
    // Hidden choices stay legal: typed, they are taken.
    let mut t = four();
    t.type_as(PCS, "declare ash heal bo");
    assert_eq!(t.state().ch(0).declared, Some(Action::Heal { target: 1 }));
    assert_eq!(HallowedEarth::OPTION_WORDS, ["with"]);
    // HAL-R11: the list shows the declarations of the creature due; cy, whom the players'
    // seat may declare for first, is declared for by name (legal, left out of the list).
    assert!(hidden("declare cy move"));
    let mut t = four();
    t.type_as(PCS, "declare cy move");
    assert!(t.state().ch(2).declared.is_some());
    let mut t = four();
    t.type_as(PCS, "declare ash move");
    let p = text_game(&t).pending().expect("declarations");
    let i = p
        .choices
        .iter()
        .position(|x| x == "declare cy move")
        .expect("cy is due");
    assert!(!p.hidden[i], "cy is the one due now");
}
