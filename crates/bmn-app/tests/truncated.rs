//! No partial file is ever taken for a whole one: a real search's result file cut at every
//! byte offset is refused by `merge` and by a run resuming from it, each time with a message
//! that says what is wrong, and the whole file is still accepted.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use bmn_app::input::{RulesInput, TableInput};
use bmn_app::search::SearchRequest;
use bmn_job::Job;

fn request(out: PathBuf) -> SearchRequest {
    SearchRequest {
        stream: bmn_app::stream::StreamRequest {
            games: bmn_app::stream::GamesArg::games(20_000),
            run: bmn_app::seeded::SeededArgs::of(Some(5), Some(1)),
            table: TableInput {
                deck: None,
                players: None,
                balanced: false,
                stream: None,
            },
            rules: RulesInput::default(),
            engine: Default::default(),
        },
        top: bmn_app::flags::TopArg { top: Some(5) },
        shard: bmn_app::flags::ShardArg {
            shard: Some("1/2".into()),
        },
        out: Some(out),
        ledger: bmn_app::flags::LedgerArgs::NONE,
    }
}

#[test]
fn a_result_file_cut_anywhere_is_refused() {
    let dir = std::env::temp_dir().join(format!("bmn-app-truncated-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.json");
    bmn_app::search::search(
        &request(whole.clone()),
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    let bytes = std::fs::read(&whole).unwrap();
    assert!(
        bytes.len() > 1000,
        "a file with games in it: {} bytes",
        bytes.len()
    );
    bmn_app::merge::merge(std::slice::from_ref(&whole)).expect_err("one shard of two is refused");

    let cut = dir.join("cut.json");
    for end in 0..bytes.len() {
        std::fs::write(&cut, &bytes[..end]).unwrap();
        let refused = bmn_app::merge::merge(std::slice::from_ref(&cut))
            .expect_err("a cut file is refused")
            .to_string();
        assert!(
            refused.contains("truncated") || refused.contains("not a bmn result file"),
            "cut at {end}: {refused}"
        );
    }
    // A run resuming from a cut checkpoint refuses it too, rather than start again from 0 or
    // read half a summary; the cut file is left as it was for the user to look at.
    for end in [0, 1, bytes.len() / 2, bytes.len() - 1] {
        std::fs::write(&cut, &bytes[..end]).unwrap();
        let refused = bmn_app::search::search(
            &request(cut.clone()),
            &mut Job::quiet(&AtomicBool::new(false)),
        )
        .expect_err("a run does not resume from a cut file")
        .to_string();
        assert!(refused.contains("cut.json"), "cut at {end}: {refused}");
        assert_eq!(std::fs::read(&cut).unwrap(), &bytes[..end]);
    }
    // One flipped digit anywhere in the summary is caught by the checksum.
    let text = String::from_utf8(bytes.clone()).unwrap();
    let at = text.find("\"cards\":").unwrap() + 8;
    let mut flipped = bytes.clone();
    flipped[at] = if flipped[at] == b'9' { b'8' } else { b'9' };
    std::fs::write(&cut, &flipped).unwrap();
    let refused = bmn_app::merge::merge(std::slice::from_ref(&cut))
        .unwrap_err()
        .to_string();
    assert!(refused.contains("checksum"), "{refused}");
    let _ = std::fs::remove_dir_all(&dir);
}
