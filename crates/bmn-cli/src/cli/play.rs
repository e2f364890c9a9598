//! `play`, `rank`, `unrank`, `deal`, `count`, `records`: one deal or one table at a time.
//! Each command's flags are its bmn-app request's; these print the reports.

use anyhow::Result;
use bmn_app::count::CountRequest;
use bmn_app::deal::DealRequest;
use bmn_app::play::PlayRequest;
use bmn_app::rank::{RankRequest, UnrankRequest};
use bmn_app::records::RecordsRequest;

use crate::args::Request;
use crate::output::{deal_text, emit, emit_with_files};

/// `bmn rank`.
pub fn rank(mut a: Request<RankRequest>) -> Result<()> {
    a.request.deal = deal_text(&a.request.deal)?;
    emit(&bmn_app::rank::rank(&a.request)?, a.output.json)
}

/// `bmn unrank`.
pub fn unrank(a: Request<UnrankRequest>) -> Result<()> {
    emit(&bmn_app::rank::unrank(&a.request)?, a.output.json)
}

/// `bmn play`: one deal, or with `--deals` a file of them (`given.rs`).
pub fn play(mut a: Request<PlayRequest>) -> Result<()> {
    if let Some(file) = &a.request.deals {
        return crate::cli::given::play_file(&a.request, file, a.output.json);
    }
    if a.request.threads.threads.is_some() {
        return Err(crate::output::BadInput(
            "bad --threads: one deal plays on one thread; --threads is for --deals FILE".into(),
        )
        .into());
    }
    if let Some(deal) = &a.request.deal {
        a.request.deal = Some(deal_text(deal)?);
    }
    let req = &a.request;
    let files = [
        ("plot", req.plot.plot.as_deref()),
        ("graph", req.dot.dot.as_deref()),
    ];
    let plan = bmn_app::play::PlayPlan::try_from(req)?;
    // A long game is a long job: progress once it has run a second, Ctrl-C within one.
    let mut bar = crate::progress::Bar::default();
    let mut job = bmn_job::Job::new(&mut bar, crate::stop::stop_on_ctrl_c());
    let started = std::time::Instant::now();
    let mut shown: Option<std::time::Instant> = None;
    let every = std::time::Duration::from_millis(100);
    let run = bmn_app::play::run_watched(&plan, &mut |tricks, game| {
        // Asked every few dozen tricks: the clock and the flag only, but every tenth of a
        // second, once the game has run a second, the bar.
        let now = std::time::Instant::now();
        if now.duration_since(started) < std::time::Duration::from_secs(1)
            || shown.is_some_and(|t| now.duration_since(t) < every)
        {
            return !job.stopped();
        }
        if shown.is_none() {
            job.start(None, 0, "tricks");
        }
        shown = Some(now);
        let hands: Vec<String> = game
            .position()
            .stacks()
            .iter()
            .map(|s| s.len().to_string())
            .collect();
        let message = format!("{} cards laid, hands of {}", game.cards(), hands.join("/"));
        job.progress(tricks, Some(&message))
    });
    job.finish();
    match run? {
        bmn_app::play::PlayRun::Done(report) => emit_with_files(&report, a.output.json, &files),
        bmn_app::play::PlayRun::Stopped { report, period } => {
            // Where the game got to, as `--tricks K` would show it, then the stop.
            emit(&report, a.output.json)?;
            if let Some(period) = period {
                eprintln!(
                    "bmn: stopped: the game never ends (a cycle of {period} tricks was \
                     found; it was being measured)"
                );
            }
            Err(crate::exit::Stopped.into())
        }
    }
}

/// `bmn records`: with `--verify`, an error after the report where any record disagrees.
pub fn records(a: Request<RecordsRequest>) -> Result<()> {
    let report = bmn_app::records::records(&a.request)?;
    emit(&report, a.output.json)?;
    if a.request.verify {
        report.verify()?;
    }
    Ok(())
}

/// `bmn deal` (with `--count`, many: `given.rs`).
pub fn deal(a: Request<DealRequest>) -> Result<()> {
    if let Some(count) = a.request.count {
        return crate::cli::given::deal_lines(&a.request, count, a.output.json);
    }
    let report = bmn_app::deal::deal(&a.request)?;
    if !a.output.json {
        // How to deal it again goes to stderr, so stdout holds the deal alone.
        eprintln!("{}", report.replay_note());
    }
    emit(&report, a.output.json)
}

/// `bmn count`.
pub fn count(a: Request<CountRequest>) -> Result<()> {
    emit(&bmn_app::count::count(&a.request)?, a.output.json)
}
