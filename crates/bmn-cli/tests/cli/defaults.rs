//! Every `[default: ...]` the help prints, against the default the plan uses when the flag is
//! not given: the help's texts are typed by hand (clap cannot print a default that the plan,
//! not the parser, applies), so each is checked here against bmn-app's own constants and
//! default plans, and a default the table does not know fails the test.

use bmn_app::climb::ClimbPlan;
use bmn_app::factory::FactoryPlan;

use crate::common::ok;

/// Every command path (`search`, `pieces factory`, ...) and the help text of each.
fn helps() -> Vec<(String, String)> {
    let top = ok(&["--help"]);
    let mut out = Vec::new();
    for name in commands(&top) {
        let help = ok(&[&name, "--help"]);
        let subs = commands(&help);
        if subs.is_empty() {
            out.push((name, help));
        } else {
            for sub in subs {
                let h = ok(&[&name, &sub, "--help"]);
                out.push((format!("{name} {sub}"), h));
            }
        }
    }
    out
}

/// The subcommands a help lists: the lines of two spaces and a name under any heading but
/// the options, arguments and examples, in a help whose usage takes a command (`help` left
/// out).
fn commands(help: &str) -> Vec<String> {
    if !help
        .lines()
        .any(|l| l.starts_with("Usage:") && l.contains("<COMMAND>"))
    {
        return Vec::new();
    }
    let mut in_list = false;
    let mut names = Vec::new();
    for line in help.lines() {
        if line.ends_with(':') && !line.starts_with(' ') {
            in_list = !["Options:", "Arguments:", "Examples:"].contains(&line);
            continue;
        }
        let name = line
            .strip_prefix("  ")
            .and_then(|l| l.split_whitespace().next());
        if let Some(name) = name
            && in_list
            && !line.starts_with("   ")
            && name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
            && name != "help"
        {
            names.push(name.to_owned());
        }
    }
    names
}

/// Each option of a help with the text of its `[default: ...]`, if it has one.
fn defaults(help: &str) -> Vec<(String, String)> {
    let mut blocks: Vec<(String, String)> = Vec::new();
    for line in help.lines() {
        let trimmed = line.trim_start();
        let option = trimmed
            .strip_prefix("-")
            .and_then(|_| trimmed.split([',', ' ']).find(|w| w.starts_with("--")));
        match option {
            Some(flag) if line.len() - trimmed.len() >= 2 => {
                blocks.push((flag.to_owned(), trimmed.to_owned()))
            }
            _ => {
                if let Some((_, text)) = blocks.last_mut() {
                    text.push(' ');
                    text.push_str(trimmed);
                }
            }
        }
    }
    blocks
        .into_iter()
        .filter_map(|(flag, text)| {
            let at = text.rfind("[default: ")?;
            let rest = &text[at + "[default: ".len()..];
            Some((flag, rest[..rest.find(']')?].to_owned()))
        })
        .collect()
}

/// What the plan uses when `flag` of `command` is not given, as the help should print it; a
/// default described in words (every core, the database's path) is its words.
fn expected(command: &str, flag: &str) -> Option<String> {
    use bmn_app::{backward, bench, census, climb, input, odds, pieces, play, search, stats};
    let climb = ClimbPlan::default_config();
    let factory = FactoryPlan::default_config();
    let engine = input::EngineDefaults::DEALS;
    let s = |v: &dyn ToString| Some(v.to_string());
    match (command, flag) {
        ("deal", "--seed") => s(&"drawn from the clock; stderr says which, to deal it again"),
        ("rank", "--deck") => s(&"the deal's own cards"),
        (_, "--deck") => s(&input::DEFAULT_DECK),
        (_, "--players") => s(&input::DEFAULT_PLAYERS),
        (_, "--on-empty") => s(&input::DEFAULT_ON_EMPTY),
        (_, "--seed") => s(&input::DEFAULT_SEED),
        (_, "--stream") => s(&input::DEFAULT_STREAM),
        // Seats and GPUs are numbered from the first.
        (_, "--leader") => s(&1),
        (_, "--device") => s(&0),
        ("deal", "--index") => s(&0),
        ("bench", "--threads") => s(&1),
        (_, "--threads") => s(&"every core"),
        (_, "--db") => {
            s(&"$BMN_DB, else $XDG_STATE_HOME/bmn/runs.sqlite, else ~/.local/state/bmn/runs.sqlite")
        }
        ("play", "--give-up") => s(&play::PLAY_GIVE_UP),
        ("pieces search" | "pieces construct", "--give-up") => s(&factory.give_up),
        (_, "--give-up") => s(&engine.give_up),
        ("exhaustive", "--max-tricks") => s(&factory.max_tricks),
        (_, "--max-tricks") => s(&engine.max_tricks),
        ("search", "--games") => Some(format!("{} unless --time is given", search::DEFAULT_GAMES)),
        ("search", "--top") => s(&search::DEFAULT_TOP),
        ("stats", "--games") => Some(format!(
            "{} unless --time is given",
            stats::DEFAULT_STATS_GAMES
        )),
        ("bench", "--games") => s(&bench::DEFAULT_BENCH_GAMES),
        ("odds", "--target-cards") => s(&"one card more than the record"),
        ("odds", "--rate") => s(&"this machine's, measured by the fit run"),
        ("odds", "--fit-games") => s(&odds::DEFAULT_FIT_GAMES),
        ("climb", "--evals") => Some(format!("{} unless --time", climb::DEFAULT_EVALS)),
        ("climb", "--top") => s(&climb.top),
        ("climb", "--walkers") => s(&climb.walkers),
        ("climb", "--neighbours") => s(&climb.neighbours),
        ("climb", "--moves") => s(&climb.moves),
        ("climb", "--accept") => Some(format!("{:?}", climb.accept).to_lowercase()),
        ("climb", "--restart") => s(&climb.restart_after),
        ("climb", "--temperature") => s(&climb.temperature),
        ("climb", "--cooling") => s(&climb.cooling),
        ("exhaustive", "--block-size") => s(&bmn_app::exhaustive::DEFAULT_BLOCK_SIZE),
        ("census", "--methods") => s(&"all that apply"),
        ("census", "--hands") => s(&census::DEFAULT_HANDS),
        ("census", "--hands-time") => Some(format!("{}s", census::DEFAULT_HANDS_TIME.as_secs())),
        ("census", "--deals-max") => Some(format!(
            "{} for two players, {} at other tables, which the reference engine plays",
            census::DEFAULT_DEALS_MAX,
            census::DEFAULT_DEALS_MAX_REFERENCE
        )),
        ("census", "--basin-limit") => s(&census::DEFAULT_BASIN_LIMIT),
        ("census", "--rounds") => Some(format!(
            "the factory's, {}",
            bmn_app::factory::DEFAULT_ROUNDS
        )),
        ("census", "--cores") => s(&census::cost::DEFAULT_CORES),
        ("pieces search" | "pieces construct", "--filter") => s(&factory.filter),
        ("pieces search", "--max-len") => s(&pieces::DEFAULT_SEARCH_MAX_LEN),
        ("pieces construct", "--max-len") => s(&pieces::DEFAULT_POOL_MAX_LEN),
        ("pieces construct", "--sparse-len") => s(&pieces::DEFAULT_SPARSE_LEN),
        ("pieces construct", "--budget") => s(&pieces::DEFAULT_BUDGET),
        ("pieces construct", "--basin-limit") => s(&pieces::DEFAULT_BASIN_LIMIT),
        ("pieces factory", "--rounds") => Some(format!(
            "{} unless --time",
            bmn_app::factory::DEFAULT_ROUNDS
        )),
        ("pieces factory", "--walkers") => s(&factory.walkers),
        ("pieces factory", "--neighbours") => s(&factory.neighbours),
        ("pieces factory", "--moves") => s(&factory.moves),
        ("pieces factory", "--basin-limit") => s(&factory.basin_limit),
        ("pieces factory", "--grow") => s(&factory.grow),
        ("pieces factory", "--seeds") => Some(format!(
            "{} decks of pieces; {} cycling deals at other tables",
            factory.seeds_from_pieces, factory.seeds_from_search
        )),
        ("basin" | "extend", "--limit") => s(&backward::DEFAULT_LIMIT),
        ("extend", "--depth") => s(&backward::DEFAULT_DEPTH),
        ("extend", "--top") => s(&backward::DEFAULT_KEEP),
        ("trees", "--cap") => s(&backward::DEFAULT_CAP),
        // The server's, in clap's own `default_value` (the parser applies it).
        ("serve", "--bind") => s(&"127.0.0.1"),
        ("serve", "--port") => s(&8080),
        _ => None,
    }
}

#[test]
fn every_default_in_the_help_is_the_plans() {
    let mut checked = 0;
    for (command, help) in helps() {
        for (flag, shown) in defaults(&help) {
            let Some(want) = expected(&command, &flag) else {
                panic!(
                    "`bmn {command} --help` shows {flag} [default: {shown}], which this test does not check: add it to `expected`"
                );
            };
            assert_eq!(shown, want, "`bmn {command} --help`, {flag}");
            checked += 1;
        }
    }
    // Over a hundred defaults across the commands (a parser that found none would pass).
    assert!(checked > 100, "only {checked} defaults found");
}
