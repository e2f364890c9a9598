//! The atlas of endless games: the catalogue files of `docs/catalogue/` (compiled in, or read
//! from a folder with `bmn serve --catalogue DIR`), each checked once when the server starts,
//! and `/api/catalogue`, which lists them and hands each out with its own keys.
//!
//! A file is the `--json` report of `bmn census` (every balanced deal of every cycle, with its
//! rank) or of `bmn pieces factory` (every cycle with its count of balanced deals and one
//! example). Nothing here is computed per request: a request gets the bytes read at start
//! (the compiled-in files are never copied).

use std::path::{Path, PathBuf};

use axum::body::Bytes;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

macro_rules! embedded {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../docs/catalogue/",
                $name,
                ".json"
            )),
        )
    };
}

/// The catalogues compiled in, in the order the page offers them (the census's answer first).
const EMBEDDED: &[(&str, &str)] = &[
    embedded!("census-camicia"),
    embedded!("census-standard"),
    embedded!("camicia"),
    embedded!("standard"),
    embedded!("paulhus-6"),
    embedded!("paulhus-8"),
    embedded!("paulhus-10"),
    embedded!("census-camicia-half"),
    embedded!("census-3j3q3k-11"),
    embedded!("census-paulhus-6-3p"),
];

/// The rows of the road to Camicia (`docs/catalogue/road/`, listed by build.rs): exact
/// censuses of the families of decks between the half deck and Camicia, in order of name.
const ROAD: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/road.rs"));

/// What is wrong with a catalogue file or folder.
#[derive(Debug, thiserror::Error)]
pub enum AtlasError {
    #[error("reading the catalogue {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("bad catalogue file {file}: {why}")]
    Bad { file: String, why: String },
    #[error("no catalogue files (*.json) in {0}")]
    Empty(PathBuf),
}

/// A published enumeration of every deal of a table's deck: the truth its catalogue is
/// measured against.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Published {
    pub source: &'static str,
    pub deals: u64,
    pub cycling_deals: u64,
    pub cycles: u64,
    /// The endless deals by the period (in tricks) of their cycle.
    pub periods: Vec<PublishedPeriod>,
}

/// A row of [`Published`]: the cycles of one period and the deals that reach them.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublishedPeriod {
    pub tricks: u64,
    pub cycles: u64,
    pub deals: u64,
}

/// Every Camicia deal played out on GPUs (its counts are also a golden fixture; a test keeps
/// the two equal).
fn camicia_enumeration() -> Published {
    let row = |tricks, cycles, deals| PublishedPeriod {
        tricks,
        cycles,
        deals,
    };
    Published {
        source: "N1k06/cudacamicia (2025): every Camicia deal, first 20 cards to player 1, who leads",
        deals: 193_584_473_082_000,
        cycling_deals: 162,
        cycles: 9,
        periods: vec![
            row(84, 1, 90),
            row(20, 1, 28),
            row(36, 1, 26),
            row(33, 6, 18),
        ],
    }
}

/// One catalogue as `/api/catalogue` lists it.
#[derive(Serialize, Debug, Clone)]
pub struct TableSummary {
    /// Its name: the file's name without `.json` (`/api/catalogue?table=NAME`).
    pub table: String,
    pub title: String,
    pub deck: String,
    pub players: u64,
    /// The rules its games were played by: the file's own, or the standard ones for a file
    /// made before catalogues named them.
    pub penalties: String,
    pub on_empty: String,
    /// `census` (every balanced deal listed, with its rank) or `factory` (a count and one
    /// example per cycle).
    pub made_by: &'static str,
    pub cycles: usize,
    pub balanced_deals: u64,
    /// The enumeration of every deal of this deck, where one is published.
    pub published: Option<Published>,
    /// Its deck's family, the deck with its plain count as `n` (`3J,3Q,3K,n-`), and that
    /// count: the page steps from a table to the next of its family.
    pub family: String,
    pub n: u32,
    /// The heading the page lists it under (the road to Camicia's rows, by family), if any.
    pub group: Option<String>,
}

/// The catalogues a server offers.
#[derive(Debug, Clone)]
pub struct Atlas {
    tables: Vec<(TableSummary, Bytes)>,
}

impl Atlas {
    /// The catalogues compiled into the binary (`docs/catalogue/`).
    pub fn embedded() -> Atlas {
        let files = EMBEDDED
            .iter()
            .map(|f| (f, false))
            .chain(ROAD.iter().map(|f| (f, true)))
            .map(|((name, text), road)| {
                (name.to_string(), Bytes::from_static(text.as_bytes()), road)
            })
            .collect();
        Atlas::of(files).expect("the compiled-in catalogues are checked by the tests")
    }

    /// Every `*.json` of `dir`, census reports first, then by name.
    pub fn read(dir: &Path) -> Result<Atlas, AtlasError> {
        let error = |source| AtlasError::Read {
            path: dir.to_path_buf(),
            source,
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(error)? {
            let path = entry.map_err(error)?.path();
            let (Some(stem), Some("json")) = (
                path.file_stem().and_then(|s| s.to_str()),
                path.extension().and_then(|s| s.to_str()),
            ) else {
                continue;
            };
            let text = std::fs::read(&path).map_err(|source| AtlasError::Read {
                path: path.clone(),
                source,
            })?;
            files.push((stem.to_string(), Bytes::from(text), false));
        }
        if files.is_empty() {
            return Err(AtlasError::Empty(dir.to_path_buf()));
        }
        files.sort_by_key(|(name, _, _)| (!name.starts_with("census"), name.clone()));
        Atlas::of(files)
    }

    /// The tables of `files` (name, text, and whether it is a row of the road to Camicia).
    fn of(files: Vec<(String, Bytes, bool)>) -> Result<Atlas, AtlasError> {
        let tables = files
            .into_iter()
            .map(|(name, text, road)| {
                let mut summary = summary(&name, &text).map_err(|why| AtlasError::Bad {
                    file: format!("{name}.json"),
                    why,
                })?;
                summary.group = road.then(|| format!("The road to Camicia: {}", summary.family));
                Ok((summary, text))
            })
            .collect::<Result<_, AtlasError>>()?;
        Ok(Atlas { tables })
    }

    /// The tables, in the order the page offers them.
    pub fn summaries(&self) -> impl Iterator<Item = &TableSummary> {
        self.tables.iter().map(|(s, _)| s)
    }

    /// The file of table `name`, as it was read (a shared buffer: cloning it copies nothing).
    pub fn file(&self, name: &str) -> Option<Bytes> {
        self.tables
            .iter()
            .find(|(s, _)| s.table == name)
            .map(|(_, text)| text.clone())
    }
}

/// What the server reads of a catalogue file (the `--json` of `bmn census` or `bmn pieces
/// factory`): the keys the page needs, each of the type it needs; the rest is handed out as is.
#[derive(Deserialize)]
struct CatalogueFile {
    deck: String,
    players: u64,
    penalties: Option<String>,
    on_empty: Option<String>,
    /// Only a census report names its methods.
    methods: Option<IgnoredAny>,
    catalogue: Vec<CatalogueEntry>,
}

/// Fields the server never reads are declared so that a file lacking them, or holding them
/// with another type, is refused at start rather than breaking the page.
#[derive(Deserialize)]
#[allow(dead_code)]
struct CatalogueEntry {
    cycle_id: String,
    period: Span,
    basin_positions: u64,
    balanced_deals: u64,
    representative: PositionEntry,
    /// A census lists every balanced deal; the factory gives one example.
    #[serde(default)]
    balanced_deal_list: Vec<DealEntry>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Span {
    tricks: u64,
    cards: u64,
}

#[derive(Deserialize)]
struct PositionEntry {
    deal: String,
    leader: u64,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct DealEntry {
    deal: String,
    rank: String,
}

/// Checks a catalogue file's shape (what the page reads) and sums it up.
fn summary(name: &str, text: &[u8]) -> Result<TableSummary, String> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err(format!(
            "the name '{}' is not letters, digits, '-', '_' or '.'",
            name.escape_debug()
        ));
    }
    let v: CatalogueFile = serde_json::from_slice(text).map_err(|e| {
        let hint = if e.is_data() {
            " (is it the --json of bmn census or bmn pieces factory?)"
        } else {
            ""
        };
        format!("not a catalogue: {e}{hint}")
    })?;
    let deck_spec = v.deck.as_str();
    let deck = bmn_core::Deck::parse(deck_spec)
        .map_err(|e| format!("bad deck '{}': {e}", deck_spec.escape_debug()))?;
    let players = v.players;
    if !(2..=10).contains(&players) {
        return Err(format!("players {players}: want 2 to 10"));
    }
    let rules = bmn_app::input::RulesInput {
        penalties: v.penalties.clone(),
        on_empty: v.on_empty.clone(),
    }
    .rules()
    .map_err(|e| e.to_string())?;
    let mut balanced_deals = 0;
    for (i, cycle) in v.catalogue.iter().enumerate() {
        let at = format!("catalogue entry {}", i + 1);
        balanced_deals += cycle.balanced_deals;
        let r = &cycle.representative;
        let position = bmn_app::input::position(&r.deal, Some(r.leader))
            .map_err(|e| format!("{at}'s representative: {e}"))?;
        position
            .check_deck(&deck)
            .map_err(|e| format!("{at}'s representative is not of the deck {deck_spec}: {e}"))?;
    }
    let made_by = if v.methods.is_some() {
        "census"
    } else {
        "factory"
    };
    let (family, n) = bmn_app::family::split_deck(deck_spec);
    let deck_name = match deck_spec {
        "4J,4Q,4K,4A,36-" => "Standard deck".to_string(),
        "4J,4Q,4K,28-" => "Camicia".to_string(),
        spec => match spec.strip_prefix("2J,2Q,2K,2A,") {
            Some(plain) => format!(
                "Paulhus's deck with {} plain cards",
                plain.trim_end_matches('-')
            ),
            None => format!("Deck {spec}"),
        },
    };
    let seats = if players == 2 {
        String::new()
    } else {
        format!(", {players} players")
    };
    Ok(TableSummary {
        table: name.to_string(),
        title: format!("{deck_name}{seats} ({made_by})"),
        deck: deck_spec.to_string(),
        players,
        penalties: rules.penalties.to_string(),
        on_empty: rules.on_empty.to_string(),
        made_by,
        cycles: v.catalogue.len(),
        balanced_deals,
        published: (deck_spec == "4J,4Q,4K,28-" && players == 2).then(camicia_enumeration),
        family,
        n,
        group: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_compiled_in_catalogue_is_well_formed() {
        let atlas = Atlas::embedded();
        assert_eq!(atlas.summaries().count(), EMBEDDED.len() + ROAD.len());
        let first = atlas.summaries().next().unwrap();
        assert_eq!(first.table, "census-camicia");
        assert_eq!(first.title, "Camicia (census)");
        assert_eq!((first.family.as_str(), first.n), ("4J,4Q,4K,n-", 28));
        // The road's rows are listed under their family, from the half deck's family on.
        let row = atlas.summaries().find(|s| s.table == "2j2q2k-14").unwrap();
        assert_eq!(
            row.group.as_deref(),
            Some("The road to Camicia: 2J,2Q,2K,n-")
        );
        assert!(ROAD.len() >= 48, "{}", ROAD.len());
        assert_eq!((first.cycles, first.balanced_deals), (6, 18));
    }

    #[test]
    fn the_published_camicia_counts_are_the_golden_fixtures() {
        let golden = bmn_golden::load().camicia_deals;
        let ours = camicia_enumeration();
        assert_eq!(ours.deals, golden.deals);
        assert_eq!(ours.cycling_deals, golden.cycling_deals);
        let rows: Vec<_> = golden
            .rows
            .iter()
            .map(|r| (r.period.tricks, r.cycles, r.deals))
            .collect();
        let mine: Vec<_> = ours
            .periods
            .iter()
            .map(|r| (r.tricks, r.cycles, r.deals))
            .collect();
        assert_eq!(mine, rows);
        assert_eq!(ours.cycles, rows.iter().map(|r| r.1).sum::<u64>());
        assert_eq!(ours.cycling_deals, rows.iter().map(|r| r.2).sum::<u64>());
    }

    #[test]
    fn a_bad_file_is_named_with_what_is_wrong() {
        let bad = |text: &str| {
            Atlas::of(vec![("x".into(), Bytes::from(text.to_string()), false)])
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            bad("{"),
            "bad catalogue file x.json: not a catalogue: EOF while parsing an object at line 1 column 1"
        );
        let e = bad(r#"{"deck":"standard","players":2}"#);
        assert!(e.contains("missing field `catalogue`"), "{e}");
        assert!(e.contains("the --json of bmn census"), "{e}");
        let entry = r#"{"deck":"2J,2Q,2K,2A,6-","players":2,"catalogue":[{"cycle_id":"a","period":{"tricks":1,"cards":2},"basin_positions":3,"balanced_deals":4,"representative":{"deal":"--J-/Z"#;
        let e = bad(&format!("{entry}\",\"leader\":1}}}}]}}"));
        assert!(
            e.contains("catalogue entry 1's representative: bad position"),
            "{e}"
        );
        let e = bad(r#"{"deck":"standard","players":2,"penalties":"J9x","catalogue":[]}"#);
        assert!(e.contains("bad --penalties: 'J9x'"), "{e}");
        let e = bad(r#"{"deck":"standard","players":11,"catalogue":[]}"#);
        assert!(e.contains("players 11"), "{e}");
    }
}
