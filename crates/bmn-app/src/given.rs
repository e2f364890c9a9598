//! `play --deals`: given deals, one a line, played on the fast kernels and answered in their
//! order, a chunk of lines at a time (so a file of any length plays in bounded memory). The
//! front end reads the lines and writes what [`Given::play`] folds its games into: text or JSON
//! lines for the command line, columns for Python.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use bmn_core::{Deck, Kind, Player, Position, Rules};
use bmn_kernel::{Choice, Kernel};
use bmn_search::Engine;
use bmn_search::{GivenDeal, KernelDeal};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::input;
use crate::play::{PlayReport, PlayRequest};

/// A [`PlayRequest`] with `deals` checked: what every line is played with (its one-deal
/// parameters, `deal`, `trace`, `tricks` and the files, are not read).
#[derive(Clone, Debug)]
pub struct Given {
    leader: Player,
    deck: Option<Deck>,
    players: Option<usize>,
    rules: Rules,
    give_up: u64,
    threads: usize,
    /// The first deal's deck and hands, which every later deal must share when no deck or
    /// player count was given: a file is of one table.
    first: Option<(Deck, usize)>,
}

impl TryFrom<&PlayRequest> for Given {
    type Error = Error;

    fn try_from(req: &PlayRequest) -> Result<Self> {
        let give_up = req.give_up.give_up.unwrap_or(crate::play::PLAY_GIVE_UP);
        let table = &req.table;
        Ok(Given {
            leader: input::seat(req.leader.leader)?,
            deck: table.deck.deck.as_deref().map(input::deck).transpose()?,
            players: table.players.players,
            rules: table.rules.rules()?,
            give_up: input::at_least_one(give_up, "give_up")?,
            threads: input::threads(req.threads.threads)?,
            first: None,
        })
    }
}

/// One line of the file: its number (from 1) and its text (borrowed from the chunk read: a
/// line costs no allocation of its own).
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    pub number: u64,
    pub text: &'a str,
}

/// One deal's game, as `play --deals --json` prints it: the line, the deal and its leader,
/// then what `play --json` says of it (`outcome` and its keys).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct GivenGame<'a> {
    pub line: u64,
    /// The line's own text where it is the deal in symbols, else the deal as `play` writes
    /// it.
    pub deal: Cow<'a, str>,
    pub leader: usize,
    #[serde(flatten)]
    pub result: GivenResult,
}

/// A game's end, its cycle, or the give-up.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(untagged)]
pub enum GivenResult {
    /// `finished` or `cycle`, with `play --json`'s keys.
    Played(PlayReport),
    /// Neither ended nor repeated a position within `give_up` tricks.
    GaveUp { outcome: Unresolved, give_up: u64 },
}

/// The `outcome` of a game given up on: `"unresolved"`.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Unresolved {
    Unresolved,
}

impl GivenGame<'_> {
    /// The game holding its own deal text.
    pub fn into_owned(self) -> GivenGame<'static> {
        GivenGame {
            deal: Cow::Owned(self.deal.into_owned()),
            ..self
        }
    }

    /// The game as a line of the text table (`bmn play --deals FILE`), newline included:
    /// `line  outcome  winner  cards  tricks  deal`.
    pub fn write_text(&self, out: &mut String) {
        let _ = match &self.result {
            GivenResult::Played(PlayReport::Finished {
                winner,
                cards,
                tricks,
                ..
            }) => write!(
                out,
                "{:>8}  finished  {winner:>6}  {cards:>6}  {tricks:>6}",
                self.line
            ),
            GivenResult::Played(PlayReport::Cycle {
                preperiod, period, ..
            }) => write!(
                out,
                "{:>8}  cycle          -  {:>6}  {:>6}  period {} tricks, {} cards",
                self.line, preperiod.cards, preperiod.tricks, period.tricks, period.cards
            ),
            GivenResult::Played(PlayReport::Stopped { .. }) => {
                unreachable!("a given deal is played to its end")
            }
            GivenResult::GaveUp { give_up, .. } => write!(
                out,
                "{:>8}  gave up        -       -  {give_up:>6}",
                self.line
            ),
        };
        let _ = writeln!(out, "  {}", self.deal);
    }

    /// The game as one line of JSON, newline included: `serde_json` but for a finished game,
    /// by far the most common, written directly (a deal is symbols and `/`, nothing to
    /// escape), which halves the cost of a line.
    pub fn write_json(&self, out: &mut String) {
        if let GivenResult::Played(PlayReport::Finished {
            winner,
            cards,
            tricks,
            trace: None,
        }) = &self.result
            && self.deal.bytes().all(|b| b"-JQKAX/".contains(&b))
        {
            let _ = writeln!(
                out,
                "{{\"line\":{},\"deal\":\"{}\",\"leader\":{},\"outcome\":\"finished\",\
                 \"winner\":{winner},\"cards\":{cards},\"tricks\":{tricks}}}",
                self.line, self.deal, self.leader
            );
            return;
        }
        // Serializing into a String cannot fail: every key is a string.
        out.push_str(&serde_json::to_string(self).expect("serializable"));
        out.push('\n');
    }
}

/// The text table's heading line.
pub const TEXT_HEADING: &str =
    "    line  outcome   winner   cards  tricks  deal (a cycle: preperiod's cards and tricks)\n";

/// A part's games folded, and why it ended early if it did.
struct Part<A> {
    games: A,
    early: Option<Early>,
}

/// Why [`Given::play`] answered only some of its lines.
#[derive(Debug)]
pub enum Early {
    /// A bad line: the lines before it are answered.
    Bad(Error),
    /// The stop flag was raised while a game on the reference engine ran: the parts before
    /// the one it ran in are answered.
    Stopped,
}

impl Given {
    /// Reads, checks and plays `lines` on the plan's threads, folding each game into a
    /// part's `A` with `add` (on the worker threads: the output's text is made in parallel
    /// too). Returns the parts in order up to the first bad line (that part's `A` holds the
    /// games before it) or the stop (the part it came in is left out), and why it ended there:
    /// nothing after a bad line is answered.
    pub fn play<A: Default + Send>(
        &mut self,
        lines: &[Line<'_>],
        stop: &AtomicBool,
        add: impl for<'l> Fn(&mut A, GivenGame<'l>) + Sync,
    ) -> (Vec<A>, Option<Early>) {
        // The first deal fixes the table the others must share.
        if self.first.is_none()
            && let Some(line) = lines.first()
        {
            match self.position(line) {
                Ok(p) => self.first = Some((p.deck(), p.players())),
                Err(e) => return (vec![A::default()], Some(Early::Bad(e))),
            }
        }
        let this = &*self;
        let parts = bmn_job::in_parallel(lines, self.threads, |part| {
            vec![this.play_part(part, stop, &add)]
        });
        let mut out = Vec::with_capacity(parts.len());
        for part in parts {
            match part.early {
                Some(Early::Stopped) => return (out, Some(Early::Stopped)),
                Some(bad) => {
                    out.push(part.games);
                    return (out, Some(bad));
                }
                None => out.push(part.games),
            }
        }
        (out, None)
    }

    fn play_part<A: Default>(
        &self,
        lines: &[Line<'_>],
        stop: &AtomicBool,
        add: &impl for<'l> Fn(&mut A, GivenGame<'l>),
    ) -> Part<A> {
        let mut deals = Vec::with_capacity(lines.len());
        let mut texts = Vec::with_capacity(lines.len());
        let mut error = None;
        for line in lines {
            match self.deal(line) {
                Ok((deal, text)) => {
                    deals.push(deal);
                    texts.push(text);
                }
                Err(e) => {
                    error = Some(Early::Bad(e));
                    break;
                }
            }
        }
        let Some(results) = bmn_search::play_given(
            &deals,
            &self.rules,
            bmn_kernel::DEFAULT_MAX_TRICKS,
            self.give_up,
            stop,
        ) else {
            return Part {
                games: A::default(),
                early: Some(Early::Stopped),
            };
        };
        let mut games = A::default();
        for ((line, text), result) in lines.iter().zip(texts).zip(results) {
            let result = match result {
                Some(outcome) => GivenResult::Played(crate::play::outcome_report(outcome)),
                None => GivenResult::GaveUp {
                    outcome: Unresolved::Unresolved,
                    give_up: self.give_up,
                },
            };
            // Every deal, whichever path read it, was read with the plan's leader.
            let game = GivenGame {
                line: line.number,
                deal: text,
                leader: self.leader.number(),
                result,
            };
            add(&mut games, game);
        }
        Part {
            games,
            early: error,
        }
    }

    /// Line `line`'s deal and its text: straight to the kernels' form where the line is two
    /// hands in symbols that fit them and hold the cards they must (most files: no parse of
    /// other notations, no position built), else through [`Self::position`].
    fn deal<'l>(&self, line: &Line<'l>) -> Result<(GivenDeal, Cow<'l, str>)> {
        let text = line.text;
        let (mut a, mut b) = ([0; bmn_kernel::MAX_CARDS], [0; bmn_kernel::MAX_CARDS]);
        if self.players.is_none_or(|p| p == 2)
            && let Some((first, second)) = text.split_once('/')
            && let (Some(n), Some(m)) = (symbols(first, &mut a), symbols(second, &mut b))
            && n > 0
            && m > 0
            && let Some(deal) = KernelDeal::new(&a[..n], &b[..m], self.leader)
        {
            let (a, b) = (&a[..n], &b[..m]);
            let mut counts = [0u32; 6];
            for &c in a.iter().chain(b) {
                counts[usize::from(c)] += 1;
            }
            let expected = match (&self.deck, &self.first) {
                (Some(deck), _) => Some(deck.counts()),
                (None, Some((deck, 2))) => Some(deck.counts()),
                (None, Some(_)) => None,
                (None, None) => Some(counts),
            };
            if expected == Some(counts) {
                return Ok((GivenDeal::Kernel(deal), Cow::Borrowed(text)));
            }
        }
        let p = self.position(line)?;
        let text = p.deal_text();
        Ok((GivenDeal::of(p), Cow::Owned(text)))
    }

    /// Line `line`'s deal, checked against the deck, the players and the file's first deal.
    fn position(&self, line: &Line<'_>) -> Result<Position> {
        let at = |why: String| Error::bad_with("deals", format!(": line {}: {why}", line.number));
        let p = Position::parse_deal(line.text, self.leader).map_err(|e| at(e.to_string()))?;
        if let Some(players) = self.players
            && p.players() != players
        {
            return Err(at(format!(
                "the deal has {} hands, not the {players} of the players given",
                p.players()
            )));
        }
        if let Some(deck) = &self.deck {
            p.check_deck(deck).map_err(|e| at(e.to_string()))?;
        } else if let Some((deck, players)) = &self.first {
            if p.players() != *players {
                return Err(at(format!(
                    "the deal has {} hands, the file's first {players}: a file is of one table",
                    p.players()
                )));
            }
            let its = p.deck();
            if its != *deck {
                return Err(at(format!(
                    "the deal holds {its}, the file's first deal {deck}: a file is of one deck \
                     (give the deck to check every deal against it)"
                )));
            }
        }
        Ok(p)
    }

    /// What played the deals read so far: the kernel for the first deal's deck (a file is of
    /// one table; the fastest this CPU runs for it), `reference` where no kernel plays it.
    pub fn engine_name(&self) -> &'static str {
        let kernel = self.first.and_then(|(deck, players)| {
            let table = Engine::kernel_plays(self.rules, players, deck.len() as usize);
            let kernel = Engine::kernel_for(Choice::Fastest, &deck, bmn_kernel::DEFAULT_MAX_TRICKS);
            kernel.filter(|_| table)
        });
        kernel.map_or("reference", Kernel::name)
    }

    pub fn threads(&self) -> usize {
        self.threads
    }
}

/// A hand written in the symbols `-JQKAX` alone (as `play` writes them: upper case), as the
/// kernels' codes in `out` (how many), where it fits.
fn symbols(hand: &str, out: &mut [u8; bmn_kernel::MAX_CARDS]) -> Option<usize> {
    if hand.len() > out.len() {
        return None;
    }
    for (slot, c) in out.iter_mut().zip(hand.chars()) {
        let kind = Kind::from_symbol(c).filter(|k| k.symbol() == c)?;
        *slot = kind.index() as u8;
    }
    Some(hand.len())
}

/// The lines of `text` that hold deals: blank lines and `#` comments skipped, numbered from
/// `first` (the file's line number of `text`'s first line).
pub fn deal_lines(text: &str, first: u64) -> impl Iterator<Item = Line<'_>> + '_ {
    text.lines()
        .zip(first..)
        .filter_map(|(l, number)| deal_line(l, number))
}

/// Line `number`'s deal, or `None` for a blank line or a `#` comment.
pub fn deal_line(text: &str, number: u64) -> Option<Line<'_>> {
    let t = text.trim();
    (!t.is_empty() && !t.starts_with('#')).then_some(Line { number, text: t })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given() -> Given {
        Given::try_from(&PlayRequest {
            threads: crate::flags::ThreadsArg { threads: Some(2) },
            ..PlayRequest::default()
        })
        .unwrap()
    }

    #[test]
    fn games_come_back_in_the_lines_order_and_stop_at_a_bad_line() {
        let text = "# a comment\n\n---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---\n\
                    ---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA\n\
                    --Z-/J-\n---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---\n";
        let lines: Vec<Line> = deal_lines(text, 1).collect();
        assert_eq!(
            lines.iter().map(|l| l.number).collect::<Vec<_>>(),
            [3, 4, 5, 6]
        );
        let mut g = given();
        let (parts, early) = g.play(
            &lines,
            &AtomicBool::new(false),
            |v: &mut Vec<GivenGame>, g| v.push(g.into_owned()),
        );
        let games: Vec<GivenGame> = parts.into_iter().flatten().collect();
        assert_eq!(games.len(), 2);
        let json: Vec<String> = games
            .iter()
            .map(|g| serde_json::to_string(g).unwrap())
            .collect();
        assert_eq!(
            json[0],
            "{\"line\":3,\"deal\":\"---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---\",\
             \"leader\":1,\"outcome\":\"finished\",\"winner\":2,\"cards\":8344,\"tricks\":1164}"
        );
        assert!(
            json[1].contains("\"outcome\":\"cycle\",\"preperiod\":{\"tricks\":4,\"cards\":34}")
        );
        // The direct writer of a finished game's line says what serde says.
        for (game, serde) in games.iter().zip(&json) {
            let mut line = String::new();
            game.write_json(&mut line);
            assert_eq!(line, format!("{serde}\n"));
        }
        let Some(Early::Bad(error)) = early else {
            panic!("line 5 refused: {early:?}")
        };
        let error = error.to_string();
        assert!(error.starts_with("bad --deals: line 5: "), "{error}");
    }

    #[test]
    fn a_file_is_of_one_deck() {
        let lines: Vec<Line> = deal_lines("--J-/Q---\n--J-/K---\n", 1).collect();
        let (_, early) = given().play(&lines, &AtomicBool::new(false), |n: &mut usize, _| *n += 1);
        let Some(Early::Bad(error)) = early else {
            panic!("refused: {early:?}")
        };
        let error = error.to_string();
        assert!(error.contains("line 2: the deal holds"), "{error}");
        assert!(error.contains("a file is of one deck"), "{error}");
    }
}
