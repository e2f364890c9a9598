//! The construction beyond the standard deck: the cards any deck of four jacks leaves for its
//! three pieces (Camicia), and the third pieces that complete a deck from two pool pieces.

use std::sync::atomic::AtomicBool;

use bmn_job::Job;

use bmn_core::{Deck, Outcome, Rules, play_out};
use bmn_pieces::{
    Composition, ConstructConfig, DEFAULT_FILTER, Piece, PoolConfig, build_pool, construct,
    pair_completions, template_completion,
};

fn pool_config(max_len: u32, sparse_len: u32) -> PoolConfig {
    PoolConfig {
        filter: Piece::parse(DEFAULT_FILTER).unwrap(),
        max_len,
        sparse_len,
        faces: Vec::new(),
        give_up: bmn_pieces::DEFAULT_GIVE_UP,
    }
}

/// Pair completions: the test template's completion (Casella et al.'s 31 cards) is the
/// completion of the pair (`--`, filter); every one listed is a composition the pool's
/// searches did not cover, and completes the deck with two pool pieces.
#[test]
fn pair_completions_hold_the_template_s_and_only_uncovered_cards() {
    let config = pool_config(13, 20);
    let pool = build_pool(&config, 2, &mut Job::quiet(&AtomicBool::new(false))).unwrap();
    let target = Composition::STANDARD_PIECES;
    let all = pair_completions(&pool, &config, &target);
    let filter = Piece::parse(DEFAULT_FILTER).unwrap();
    assert!(all.contains(&template_completion(&filter).unwrap()));
    let comps: Vec<Composition> = pool.iter().map(|p| p.piece.composition()).collect();
    for c in &all {
        assert!(!config.covers(c), "{c}");
        assert!(c.len() > 13, "{c}");
        let rest = target.checked_sub(c).unwrap();
        assert!(
            comps
                .iter()
                .any(|a| rest.checked_sub(a).is_some_and(|b| comps.contains(&b))),
            "{c} completes no pair"
        );
    }
    assert!(all.windows(2).all(|w| w[0].len() <= w[1].len()));
    // The pool covers every card list up to 13 cards and those of one face up to 20; not
    // 2 Q and 19 plain.
    let cards = |text: &str| Piece::parse(text).unwrap().composition();
    assert!(config.covers(&cards("--Q-Q")));
    assert!(config.covers(&cards("-----------------K")));
    assert!(!config.covers(&cards("-------------------Q-Q")));
}

/// Camicia (4 J, 4 Q, 4 K, 28 plain) holds the construction: its pieces are pieces without
/// aces, and the decks drawn are Camicia decks that never end on the reference engine.
#[test]
fn camicia_decks_of_pieces_never_end() {
    let pool = build_pool(
        &pool_config(12, 20),
        2,
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    let target = Composition::pieces_of(&Deck::CAMICIA).unwrap();
    let cfg = ConstructConfig {
        seed: 3,
        decks: 8,
        give_up: 1_000_000,
        basin_limit: 100_000,
        target,
        around: None,
    };
    let c = construct(&pool, &cfg, 2, &mut Job::quiet(&AtomicBool::new(false))).unwrap();
    assert!(c.triples > 0 && c.non_terminating > 0, "{c:?}");
    assert_eq!(c.finishing + c.unresolved, 0);
    for g in &c.decks {
        assert_eq!(g.deal.check_deck(&Deck::CAMICIA), Ok(()));
        match play_out(&Rules::STANDARD, &g.deal) {
            Outcome::Cycle(cycle) => assert_eq!(cycle.id, g.cycle_id),
            Outcome::Finished { .. } => panic!("{} ends", g.deal),
        }
    }
}

/// A search with a prefix finds exactly the pieces of the whole search that have a form
/// beginning with it (compared up to 10 cards), and Casella's first 20 cards grow into pieces
/// of 29 to 31 cards, Casella's among them.
#[test]
fn prefix_searches_keep_to_their_prefix() {
    let config = |prefix: &str, max_len| bmn_pieces::PieceSearchConfig {
        filter: Piece::parse(DEFAULT_FILTER).unwrap(),
        max_len,
        faces: None,
        give_up: bmn_pieces::DEFAULT_GIVE_UP,
        prefix: Piece::parse(prefix).unwrap(),
    };
    let all =
        bmn_pieces::search(&config("", 10), 2, &mut Job::quiet(&AtomicBool::new(false))).unwrap();
    for prefix in ["--Q", "--A-", "-----"] {
        let some = bmn_pieces::search(
            &config(prefix, 10),
            2,
            &mut Job::quiet(&AtomicBool::new(false)),
        )
        .unwrap();
        let starts = |p: &Piece| p.to_string().starts_with(prefix);
        let mut want: Vec<&Piece> = all
            .pieces
            .iter()
            .filter(|p| p.forms.iter().any(starts))
            .map(|p| &p.piece)
            .collect();
        let mut got: Vec<&Piece> = some.pieces.iter().map(|p| &p.piece).collect();
        for p in &some.pieces {
            assert!(p.forms.iter().any(starts), "{}", p.piece);
        }
        want.sort();
        got.sort();
        assert_eq!(got, want, "{prefix}");
        assert!(some.passing <= all.passing);
    }
    let grown = bmn_pieces::search(
        &config("--------K---------Q-", 31),
        2,
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    let names: Vec<String> = grown.pieces.iter().map(|p| p.piece.to_string()).collect();
    assert!(
        names.contains(&"--------K---------Q-Q-K---Q-KAQ".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"--------K---------Q-KK---AKQA".to_string()),
        "{names:?}"
    );
    for p in &grown.pieces {
        let (at, most) = bmn_pieces::high_water(&p.piece).unwrap();
        assert!(p.piece.len() >= 29 && at == 20 && most >= 20, "{}", p.piece);
    }
}
