//! The web API's and Python's named values read into the commands' requests as the command
//! line reads their flags (bmn-params' `front.rs`), and refused by the parameter's name.

use bmn_app::Spelling;
use bmn_app::front::{Refusal, Value, parameters, request};
use bmn_app::play::PlayRequest;
use bmn_app::search::SearchRequest;
use clap::{Args, FromArgMatches};

fn text(s: &str) -> Value {
    Value::Text(s.into())
}

fn bad<R: Args + FromArgMatches + std::fmt::Debug>(given: &[(&str, Value)]) -> String {
    let given = given
        .iter()
        .map(|(n, v)| (n.to_string(), v.clone()))
        .collect();
    match request::<R>(given) {
        Err(Refusal::Bad(e)) => e.spelled(Spelling::Names),
        other => panic!("{other:?}"),
    }
}

#[test]
fn named_values_are_read_as_the_command_line_reads_flags() {
    let req: SearchRequest = request(vec![
        ("games".into(), text("1e3")),
        ("balanced".into(), Value::Flag(true)),
        ("deck".into(), text("camicia")),
        ("on_empty".into(), text("collect")),
    ])
    .unwrap();
    let s = &req.stream;
    assert_eq!(s.games.games, Some(1000));
    assert!(s.table.balanced);
    assert_eq!(s.table.deck.as_deref(), Some("camicia"));
    assert_eq!(s.rules.on_empty.as_deref(), Some("collect"));
    assert_eq!(s.run.seed.seed, None);
    let play: PlayRequest = request(vec![
        ("deal".into(), text("--K-/J-")),
        ("trace".into(), text("yes")),
    ])
    .unwrap();
    assert_eq!(play.deal.as_deref(), Some("--K-/J-"));
    assert!(play.trace);
}

#[test]
fn refusals_name_the_parameter() {
    assert_eq!(
        bad::<SearchRequest>(&[("games", text("-1"))]),
        "bad games: -1 is negative"
    );
    // Blank is a value like any other here, for the plan to refuse (the web API drops blank
    // parameters itself).
    let blank: SearchRequest = request(vec![("deck".into(), text(""))]).unwrap();
    assert_eq!(blank.stream.table.deck.as_deref(), Some(""));
    assert_eq!(
        bad::<SearchRequest>(&[("games", text("5")), ("time", text("1s"))]),
        "give games or time, not both"
    );
    assert_eq!(
        bad::<SearchRequest>(&[("on_empty", text("keep"))]),
        "bad on_empty 'keep': give pass or collect"
    );
    assert_eq!(
        bad::<PlayRequest>(&[("trace", text("maybe"))]),
        "bad trace: 'maybe' is not true or false"
    );
    assert_eq!(
        bad::<PlayRequest>(&[("leader", text("x"))]),
        "bad leader: 'x' is not a number: give digits, e.g. 1000000, 1_000_000 or 1e6"
    );
    let unknown = request::<SearchRequest>(vec![("colour".into(), text("red"))]);
    assert_eq!(unknown.unwrap_err(), Refusal::Unknown("colour".into()));
    let list = request::<SearchRequest>(vec![("games".into(), Value::List(vec![]))]);
    assert!(matches!(list, Err(Refusal::Kind { name, .. }) if name == "games"));
}

#[test]
fn parameters_are_the_fields_in_order() {
    let names: Vec<String> = parameters::<PlayRequest>()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names[..2], ["deal", "deals"]);
    for name in ["threads", "leader", "on_empty", "give_up"] {
        assert!(names.contains(&name.to_string()), "{name}");
    }
}
