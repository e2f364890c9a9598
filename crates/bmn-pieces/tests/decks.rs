//! The construction beyond the standard deck: the cards any deck of four jacks leaves for its
//! three pieces (Camicia), and the third pieces that complete a deck from two pool pieces.

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
    let pool = build_pool(&config, 2, |_, _, _| ()).unwrap();
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
    let pool = build_pool(&pool_config(12, 20), 2, |_, _, _| ()).unwrap();
    let target = Composition::pieces_of(&Deck::CAMICIA).unwrap();
    let cfg = ConstructConfig {
        seed: 3,
        decks: 8,
        give_up: 1_000_000,
        basin_limit: 100_000,
        target,
        around: None,
    };
    let c = construct(&pool, &cfg, 2, |_, _, _| ()).unwrap();
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
