//! Each command: its flags mapped to a bmn-app request, the report printed. Nothing else.

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Result;
use bmn_app::backward::{BasinRequest, ExtendRequest, TreesRequest};
use bmn_app::bench::BenchRequest;
use bmn_app::deal::DealRequest;
use bmn_app::exhaustive::ExhaustiveRequest;
use bmn_app::input::{TableInput, TimeInput};
use bmn_app::odds::OddsRequest;
use bmn_app::pieces::{ConstructRequest, PieceSearchRequest};
use bmn_app::play::PlayRequest;
use bmn_app::search::SearchRequest;
use bmn_app::stats::StatsRequest;

use crate::args::{DeckArg, PlayersArg};
use crate::cli::{Command, PiecesCommand};
use crate::exit::finished;
use crate::output::{deal_text, emit, emit_with_files};
use crate::progress::Bar;

/// Set by Ctrl-C, SIGTERM (`timeout`, `kill`, a batch scheduler) or SIGHUP: long commands stop
/// at the next unit boundary, report what they finished and exit 130 (`exit.rs`).
static STOP: AtomicBool = AtomicBool::new(false);

/// The table of `--deck`, `--players` and `--balanced`.
fn table(deck: DeckArg, players: PlayersArg, balanced: bool) -> TableInput {
    TableInput {
        deck: deck.deck,
        players: players.players,
        balanced,
    }
}

/// Lets Ctrl-C stop a long command cleanly, and SIGTERM and SIGHUP the same way (ctrlc's
/// `termination` feature). A second signal does nothing more; the command ends at the next
/// unit (milliseconds) anyway.
fn stop_on_ctrl_c() -> &'static AtomicBool {
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    &STOP
}

pub fn run(command: Command) -> Result<()> {
    let bar = &mut Bar::default();
    match command {
        Command::Play(a) => {
            let deal = match (&a.deal, &a.rank) {
                (_, Some(k)) => format!("#{k}"),
                (Some(d), None) => deal_text(d)?,
                (None, None) => unreachable!("clap requires DEAL or --rank"),
            };
            let req = PlayRequest {
                deal,
                leader: a.leader.leader,
                tricks: a.tricks,
                deck: a.deck.deck,
                players: a.players.players,
                rules: a.rules.input(),
                trace: a.trace,
                plot: a.plot.plot.clone(),
                dot: a.dot.dot.clone(),
                give_up: a.give_up.give_up,
            };
            let files = [
                ("plot", a.plot.plot.as_deref()),
                ("graph", a.dot.dot.as_deref()),
            ];
            emit_with_files(&bmn_app::play::play(&req)?, a.output.json, &files)
        }
        Command::Search(a) => {
            let req = SearchRequest {
                games: a.games,
                time: a.time.map(TimeInput::from),
                seed: a.seed.seed,
                threads: a.threads.threads,
                top: a.top.top,
                shard: a.shard.shard,
                out: a.out,
                ledger: a.ledger.choice(),
                table: table(a.deck, a.players, a.balanced),
                rules: a.rules.input(),
                engine: a.engine.input(),
            };
            let report = bmn_app::search::search(&req, bar, stop_on_ctrl_c())?;
            emit(&report, a.output.json)?;
            finished(!report.interrupted)
        }
        Command::Bench(a) => {
            let req = BenchRequest {
                games: a.games,
                deck: a.deck.deck,
                threads: a.threads.threads,
                seed: a.seed.seed,
            };
            let report = bmn_app::bench::bench(&req)?;
            emit(&report, a.output.json)?;
            Ok(report.check()?)
        }
        Command::Exhaustive(a) if !a.merge.is_empty() => {
            emit(&bmn_app::merge::merge(&a.merge)?, a.output.json)
        }
        Command::Exhaustive(a) => {
            let req = ExhaustiveRequest {
                deck: a.deck.deck.unwrap_or_default(),
                leader: a.leader.leader,
                rules: a.rules.input(),
                list_cycles: a.list_cycles,
                shard: a.shard.shard,
                from: a.from,
                count: a.count,
                block: a.block,
                block_size: a.block_size,
                checkpoint: a.checkpoint,
                ledger: a.ledger.choice(),
                threads: a.threads.threads,
                engine: a.engine.input(),
            };
            let report = bmn_app::exhaustive::exhaustive(&req, bar, stop_on_ctrl_c())?;
            emit(&report, a.output.json)?;
            finished(report.range_done)
        }
        Command::Merge(a) => emit(&bmn_app::merge::merge(&a.files)?, a.output.json),
        Command::Backward(a) => {
            let position = deal_text(&a.position)?;
            let report = bmn_app::backward::backward(&position, a.leader.leader, &a.rules.input())?;
            emit(&report, a.output.json)
        }
        Command::Basin(a) => {
            let req = BasinRequest {
                position: deal_text(&a.position)?,
                leader: a.leader.leader,
                balanced: a.balanced,
                limit: a.limit.limit,
                dot: a.dot.dot.clone(),
                graph: None,
                rules: a.rules.input(),
            };
            let report = bmn_app::backward::basin(&req, bar)?;
            emit_with_files(&report, a.output.json, &[("graph", a.dot.dot.as_deref())])
        }
        Command::Extend(a) => {
            let req = ExtendRequest {
                deal: deal_text(&a.deal)?,
                leader: a.leader.leader,
                depth: a.depth,
                limit: a.limit.limit,
                top: a.top.top,
                rules: a.rules.input(),
            };
            emit(&bmn_app::backward::extend(&req, bar)?, a.output.json)
        }
        Command::Trees(a) => {
            let req = TreesRequest {
                samples: a.samples,
                deck: a.deck.deck,
                players: a.players.players,
                seed: a.seed.seed,
                cap: a.cap,
                rules: a.rules.input(),
            };
            emit(&bmn_app::backward::trees(&req, bar)?, a.output.json)
        }
        Command::Pieces(p) => match p.command {
            PiecesCommand::Search(a) => {
                let req = PieceSearchRequest {
                    filter: a.filter.filter,
                    max_len: a.max_len,
                    faces: a.faces,
                    prefix: a.prefix,
                    threads: a.threads.threads,
                    give_up: a.give_up.give_up,
                    forms: a.forms,
                };
                emit(&bmn_app::pieces::search(&req, bar)?, a.output.json)
            }
            PiecesCommand::Construct(a) => {
                let req = ConstructRequest {
                    seed: a.seed.seed,
                    budget: a.budget,
                    max_len: a.max_len,
                    sparse_len: a.sparse_len,
                    faces: a.faces,
                    around: a.around,
                    filter: a.filter.filter,
                    basin_limit: a.basin_limit,
                    threads: a.threads.threads,
                    give_up: a.give_up.give_up,
                };
                emit(&bmn_app::pieces::construct(&req, bar)?, a.output.json)
            }
            PiecesCommand::Factory(a) => {
                let req = bmn_app::factory::FactoryRequest {
                    seed: a.seed.seed,
                    time: a.time.map(TimeInput::from),
                    rounds: a.rounds,
                    table: table(a.deck, a.players, false),
                    rules: a.rules.input(),
                    threads: a.threads.threads,
                    walkers: a.walkers,
                    neighbours: a.neighbours,
                    moves: a.moves,
                    basin_limit: a.basin_limit,
                    seeds: a.seeds,
                    complete: a.complete,
                    complete_max_len: a.complete_max_len,
                    grow: a.grow,
                };
                let report = bmn_app::factory::factory(&req, bar, stop_on_ctrl_c())?;
                emit(&report, a.output.json)?;
                finished(!report.interrupted)
            }
        },
        Command::Records(a) => {
            let report = bmn_app::records::records(a.plot.plot.as_deref())?;
            emit(&report, a.output.json)?;
            if a.verify {
                report.verify()?;
            }
            Ok(())
        }
        Command::Deal(a) => {
            let req = DealRequest {
                table: table(a.deck, a.players, a.balanced),
                seed: a.seed.seed,
                index: a.index,
            };
            let report = bmn_app::deal::deal(&req)?;
            if !a.output.json {
                // How to deal it again goes to stderr, so stdout holds the deal alone.
                eprintln!("{}", report.replay_note());
            }
            emit(&report, a.output.json)
        }
        Command::Stats(a) => {
            let req = StatsRequest {
                games: a.games,
                table: table(a.deck, a.players, a.balanced),
                rules: a.rules.input(),
                seed: a.seed.seed,
                threads: a.threads.threads,
                engine: a.engine.input(),
                plot: a.plot.plot,
            };
            let report = bmn_app::stats::stats(&req, bar, stop_on_ctrl_c())?;
            emit(&report, a.output.json)?;
            finished(!report.interrupted)
        }
        Command::Count(a) => {
            let table = table(a.deck, a.players, false);
            emit(&bmn_app::count::count(&table)?, a.output.json)
        }
        Command::Devices(a) => emit(&bmn_app::devices::devices(), a.output.json),
        Command::Serve(a) => {
            let limits = bmn_serve::Limits::default();
            let atlas = match &a.catalogue {
                Some(dir) => bmn_serve::Atlas::read(dir)?,
                None => bmn_serve::Atlas::embedded(),
            };
            // Room for every connection the server allows (the usual soft limit is 1024);
            // where it cannot be raised, connections past it wait in the backlog instead.
            let _ = rlimit::increase_nofile_limit(limits.connections as u64 + 64);
            bmn_serve::serve(&a.bind, a.port, limits, atlas, |at| {
                eprintln!("bmn: serving the replay page on http://{at}/ (Ctrl-C to stop)");
                if !at.ip().is_loopback() {
                    eprintln!(
                        "bmn: warning: {} is not a loopback address and the page has no login: \
                         anyone who can reach this machine can use it and run searches on it",
                        at.ip()
                    );
                }
            })
            .map_err(|e| anyhow::anyhow!("serving on {}:{}: {e}", a.bind, a.port))
        }
        Command::Census(a) => {
            let req = bmn_app::census::CensusRequest {
                table: table(a.deck, a.players, false),
                rules: a.rules.input(),
                seed: a.seed.seed,
                threads: a.threads.threads,
                methods: a.methods,
                hands: a.hands,
                hands_time: a.hands_time.map(TimeInput::from),
                deals_max: a.deals_max,
                basin_limit: a.basin_limit,
                rounds: a.rounds,
                enumeration: a.enumeration,
            };
            if a.plan {
                return emit(&bmn_app::census::cost::cost(&req, a.cores)?, a.output.json);
            }
            let report = bmn_app::census::census(&req, bar, stop_on_ctrl_c())?;
            emit(&report, a.output.json)?;
            finished(!report.interrupted)
        }
        Command::Climb(a) => {
            let req = bmn_app::climb::ClimbRequest {
                seed: a.seed.seed,
                time: a.time.map(TimeInput::from),
                evals: a.evals,
                threads: a.threads.threads,
                starts: crate::output::start_deals(&a.start)?,
                top: a.top.top,
                ledger: a.ledger.choice(),
                balanced: a.balanced,
                by: a.by,
                walkers: a.walkers,
                neighbours: a.neighbours,
                moves: a.moves,
                accept: a.accept,
                restart: a.restart,
                temperature: a.temperature,
                cooling: a.cooling,
            };
            let report = bmn_app::climb::climb(&req, bar, stop_on_ctrl_c())?;
            emit(&report, a.output.json)?;
            finished(!report.interrupted)
        }
        Command::Rank(a) => {
            let deal = deal_text(&a.deal)?;
            let report = bmn_app::rank::rank(&deal, a.leader.leader, a.deck.deck.as_deref())?;
            emit(&report, a.output.json)
        }
        Command::Unrank(a) => {
            let report = bmn_app::rank::unrank(
                &a.rank,
                a.deck.deck.as_deref(),
                a.players.players,
                a.leader.leader,
            )?;
            emit(&report, a.output.json)
        }
        Command::Completions(a) => crate::about::completions(&a),
        Command::Man => crate::about::man(),
        Command::Odds(a) => {
            let req = OddsRequest {
                games: a.games,
                target_cards: a.target_cards,
                rate: a.rate,
                fit_games: a.fit_games,
                seed: a.seed.seed,
                threads: a.threads.threads,
                mu: a.mu,
                x0: a.x0,
                p0: a.p0,
            };
            // The fit run is short, and an interrupted fit would be a worse fit: no Ctrl-C stop.
            let report = bmn_app::odds::odds(&req, bar, &AtomicBool::new(false))?;
            emit(&report, a.output.json)
        }
    }
}
