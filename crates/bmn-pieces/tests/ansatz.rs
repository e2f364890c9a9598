//! bmn-pieces against the spec's facts, the reference engine, and itself across threads.

use std::sync::atomic::AtomicBool;

use bmn_job::Job;

use bmn_core::{Outcome, Position, Rules, play_out};
use bmn_pieces::{
    Composition, ConstructConfig, DEFAULT_FILTER, Piece, PieceSearchConfig, PoolConfig, build_pool,
    construct, jack_position, orbit, search, template,
};

fn p(text: &str) -> Piece {
    Piece::parse(text).unwrap()
}

fn cycles(position: &Position) -> Option<bmn_core::Cycle> {
    match play_out(&Rules::STANDARD, position) {
        Outcome::Cycle(c) => Some(c),
        Outcome::Finished { .. } => None,
    }
}

fn config(max_len: u32) -> PieceSearchConfig {
    PieceSearchConfig {
        filter: p(DEFAULT_FILTER),
        max_len,
        faces: None,
        give_up: bmn_pieces::DEFAULT_GIVE_UP,
        prefix: bmn_pieces::Piece::default(),
    }
}

#[test]
fn template_reproduces_the_spec() {
    let t = template(&p(DEFAULT_FILTER), &p("--"));
    assert_eq!(t.deal_text(), "--J--K---A----AAJ--J-/J-");
    assert!(cycles(&t).is_some(), "the -- piece never ends");
    // The filter is a piece of its own: its passes alternate between two forms.
    assert_eq!(
        orbit(&p(DEFAULT_FILTER)).unwrap(),
        [p("--K---A----AA"), p("--------A-KAA")]
    );
    assert!(bmn_pieces::check_filter(&p(DEFAULT_FILTER), 1_000_000).is_ok());
    assert!(bmn_pieces::check_filter(&p("--K"), 1_000_000).is_err());
}

/// The fast pass agrees with the reference engine on every candidate up to 8 cards: a
/// string is proposed exactly when its template game never ends.
#[test]
fn fast_path_agrees_with_the_engine_on_every_short_candidate() {
    let filter = p(DEFAULT_FILTER);
    let mut strings: Vec<String> = Vec::new();
    let mut level = vec![String::new()];
    for _ in 0..8 {
        level = level
            .iter()
            .flat_map(|s| ["-", "Q", "K", "A"].map(|c| format!("{s}{c}")))
            .collect();
        strings.extend(level.iter().cloned());
    }
    let mut pieces = 0;
    for s in &strings {
        let piece = p(s);
        let exact = cycles(&template(&filter, &piece)).is_some();
        assert_eq!(orbit(&piece).is_some(), exact, "{s}");
        pieces += usize::from(exact);
    }
    assert_eq!(pieces, 1 + 9 + 11 + 6 + 4); // lengths 2, 5, 6, 7, 8
}

#[test]
fn search_reports_only_template_cycles_and_groups_by_passes() {
    let r = search(&config(10), 1, &mut Job::quiet(&AtomicBool::new(false))).unwrap();
    assert_eq!(r.rejected, 0);
    assert_eq!(r.unresolved, 0);
    assert_eq!(r.pieces.len(), 219);
    assert_eq!(r.pieces[0].piece, p("--"));
    let mut forms = 0;
    for f in &r.pieces {
        let c = cycles(&template(&p(DEFAULT_FILTER), &f.piece)).expect("never ends");
        assert_eq!((c.id, c.period), (f.template.id, f.template.period));
        assert_eq!(f.forms[0], f.piece);
        assert!(f.forms.iter().all(|g| *g >= f.piece));
        forms += f.forms.len();
    }
    assert!(forms > r.pieces.len(), "some pieces have several forms");
}

#[test]
fn search_does_not_depend_on_threads() {
    let one = search(&config(11), 1, &mut Job::quiet(&AtomicBool::new(false))).unwrap();
    let three = search(&config(11), 3, &mut Job::quiet(&AtomicBool::new(false))).unwrap();
    assert_eq!(one, three);
}

#[test]
fn face_lists_find_the_filter() {
    let faces = bmn_pieces::Composition::parse_faces("K1,A3,-9").unwrap();
    let r = search(
        &PieceSearchConfig {
            faces: Some(faces),
            ..config(13)
        },
        2,
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    let names: Vec<String> = r.pieces.iter().map(|f| f.piece.to_string()).collect();
    assert_eq!(names, ["--------A-KAA"]);
    assert_eq!(r.pieces[0].forms[1], p(DEFAULT_FILTER));
}

/// A search of one fixed length is cut into finer units (8-card prefixes) than a search of
/// every length (2-card ones); both must find the same pieces, from the same candidates, and
/// a stop raised before the start must leave the search marked unfinished.
#[test]
fn fine_units_find_what_coarse_units_find() {
    for text in ["K2,A4,-9", "Q1,K1,A4,-11", "Q2,K1,A3,-9"] {
        let (faces, plain) = bmn_pieces::Composition::parse_faces(text).unwrap();
        let len = faces.faces() + plain.unwrap();
        let with_plain = |plain| {
            let faces = Some((faces, plain));
            search(
                &PieceSearchConfig {
                    faces,
                    ..config(len)
                },
                2,
                &mut Job::quiet(&AtomicBool::new(false)),
            )
            .unwrap()
        };
        let (fixed, every) = (with_plain(plain), with_plain(None));
        let of_len = |r: &bmn_pieces::PieceSearchResult| -> Vec<bmn_pieces::FoundPiece> {
            r.pieces
                .iter()
                .filter(|f| f.piece.len() == len as usize)
                .cloned()
                .collect()
        };
        assert!(!fixed.pieces.is_empty(), "{text}");
        assert_eq!(fixed.pieces, of_len(&every), "{text}");
        assert_eq!(fixed.units, 65536, "{text}");
        assert_eq!(fixed.units_done, fixed.units);
        let stopped = bmn_pieces::search(
            &PieceSearchConfig {
                faces: Some((faces, plain)),
                ..config(len)
            },
            2,
            &mut Job::quiet(&AtomicBool::new(true)),
        )
        .unwrap();
        assert!(stopped.units_done < stopped.units);
    }
}

#[test]
fn construction_games_are_checked_and_reproducible() {
    let pool = build_pool(
        &PoolConfig {
            filter: p(DEFAULT_FILTER),
            max_len: 12,
            sparse_len: 20,
            // 6-face pieces of 12 cards (in max_len), of 14 cards (this list) and the
            // 20-card all-plain piece (sparse) fill a deck: 12 faces, 6 + 8 + 20 plain.
            faces: vec![bmn_pieces::Composition::parse_faces("Q2,K2,A2,-8").unwrap()],
            give_up: 1_000_000,
        },
        2,
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    let cfg = ConstructConfig {
        seed: 7,
        decks: 6,
        give_up: 1_000_000,
        basin_limit: 100_000,
        target: Composition::STANDARD_PIECES,
        around: None,
    };
    let a = construct(&pool, &cfg, 1, &mut Job::quiet(&AtomicBool::new(false))).unwrap();
    let b = construct(&pool, &cfg, 2, &mut Job::quiet(&AtomicBool::new(false))).unwrap();
    assert_eq!(a, b, "independent of the thread count");
    assert!(a.triples > 0);
    assert_eq!(a.decks_tried, 6);
    assert!(a.non_terminating > 0);
    for g in a
        .decks
        .iter()
        .chain(a.cycles.iter().flat_map(|c| &c.balanced))
    {
        assert_eq!(g.deal.check_deck(&bmn_core::Deck::STANDARD), Ok(()));
        let c = cycles(&g.deal).expect("every reported game never ends");
        assert_eq!(
            (c.id, c.period, c.preperiod),
            (g.cycle_id, g.period, g.preperiod)
        );
        assert_eq!(g.balanced, bmn_backward::is_balanced(&g.deal));
        if let Some((pieces, _)) = &g.deck {
            let refs: Vec<&Piece> = pieces.iter().collect();
            assert_eq!(jack_position(&refs), g.deal);
        }
    }
    // Around a composition: every deck drawn holds a piece of it.
    let (first, _) = a.decks[0].deck.as_ref().unwrap();
    let around = first.iter().find(|p| p.len() == 12).unwrap().composition();
    let cfg = ConstructConfig {
        around: Some(around),
        ..cfg
    };
    let c = construct(&pool, &cfg, 2, &mut Job::quiet(&AtomicBool::new(false))).unwrap();
    assert!(c.triples > 0 && c.triples <= a.triples);
    for g in &c.decks {
        let (pieces, _) = g.deck.as_ref().unwrap();
        assert!(
            pieces.iter().any(|p| p.composition() == around),
            "{pieces:?}"
        );
    }
    // Around cards no piece of the pool holds: no triple, no deck.
    let mut none = bmn_pieces::Composition::default();
    none.add(bmn_core::Kind::Queen, 4);
    let cfg = ConstructConfig {
        around: Some(none),
        ..cfg
    };
    let d = construct(&pool, &cfg, 2, &mut Job::quiet(&AtomicBool::new(false))).unwrap();
    assert_eq!((d.triples, d.decks.len()), (0, 0));
}

/// The golden 31-card piece of Casella's cycle: each of its four forms as TEST in the template
/// reaches a 62-trick, 440-card cycle, the one the fixture names.
#[test]
fn casellas_piece_in_the_template() {
    let piece = bmn_golden::load().casella_family.piece;
    for (form, id) in &piece.forms {
        let game = template(&p(DEFAULT_FILTER), &p(form));
        let c = cycles(&game).unwrap_or_else(|| panic!("{form} must cycle in the template"));
        assert_eq!(
            (c.period.tricks, c.period.cards, c.id.to_string()),
            (
                piece.template_period.tricks,
                piece.template_period.cards,
                id.clone()
            ),
            "{form}"
        );
    }
}
