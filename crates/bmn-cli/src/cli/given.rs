//! Deals a line at a time, in and out: `bmn deal --count N` writes a stream's deals, `bmn play
//! --deals FILE` plays a file's. Both stream: a chunk of lines read, played on the threads and
//! written before the next, so a file of any length runs in bounded memory, and Ctrl-C ends it
//! after the chunk under way with every finished line written (exit 130).

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use anyhow::Result;
use bmn_app::Report;
use bmn_app::deal::DealRequest;
use bmn_app::given::{self, Given, GivenGame, GivenRequest, GivenResult};
use bmn_app::play::PlayReport;
use bmn_job::Job;

use crate::exit::Stopped;
use crate::output::BadInput;
use crate::progress::Bar;
use crate::stop::{requested, stop_on_ctrl_c};

/// Lines read and played at a time, at most: enough for every thread to have a long run of the
/// kernel, few enough to hold (about 7 MB of standard deals and their output).
const CHUNK: usize = 1 << 16;

/// How long a chunk should take: the run looks at Ctrl-C between chunks, so a chunk is cut to
/// about this much of the rate of the one before (games on the reference engine, of three
/// players or big decks, are a thousand times slower than the kernels').
const CHUNK_TIME: std::time::Duration = std::time::Duration::from_millis(200);

/// `bmn deal --count N`: the deals, a line each (text, or JSON with `json`).
pub fn deal_lines(req: &DealRequest, count: u64, json: bool) -> Result<()> {
    stop_on_ctrl_c();
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut failed = None;
    let mut first = None;
    let dealt = bmn_app::deal::deals(req, count, |d| {
        first.get_or_insert_with(|| {
            (
                d.seed,
                d.index,
                d.players,
                d.deck.clone(),
                d.balanced_by_kind,
            )
        });
        let written = if json {
            writeln!(out, "{}", d.json())
        } else {
            writeln!(out, "{}", d.deal)
        };
        if let Err(e) = written {
            failed = Some(e);
            return false;
        }
        // A look at the flag per deal costs nothing beside the deal's own text.
        !requested()
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    out.flush()?;
    if let Some((seed, index, players, deck, balanced)) = first {
        // How to deal them again goes to stderr, so stdout holds the deals alone.
        eprintln!(
            "{dealt} deal(s) from index {index}, player 1 leads; {players} players, {deck}{}; \
             deal them again with --seed {seed}{}",
            if balanced { ", balanced" } else { "" },
            if index == 0 {
                String::new()
            } else {
                format!(" --index {index}")
            }
        );
    }
    if dealt < count {
        return Err(Stopped.into());
    }
    Ok(())
}

/// A chunk's games as the command writes them, and what they were.
#[derive(Default)]
struct Written {
    text: String,
    finished: u64,
    cycles: u64,
    gave_up: u64,
}

/// `bmn play --deals FILE`: every deal of the file (`-`: stdin), played and written in order.
pub fn play_file(req: &GivenRequest, file: &Path, json: bool) -> Result<()> {
    let mut given = Given::try_from(req)?;
    let mut reader: Box<dyn BufRead> = if file.as_os_str() == "-" {
        Box::new(io::stdin().lock())
    } else {
        if file.is_dir() {
            return Err(BadInput(format!(
                "bad --deals {}: is a folder; name a file of deals, one a line",
                file.display()
            ))
            .into());
        }
        let opened = File::open(file)
            .map_err(|e| BadInput(format!("bad --deals {}: {e}", file.display())))?;
        Box::new(BufReader::with_capacity(1 << 20, opened))
    };
    let mut bar = Bar::default();
    let mut job = Job::new(&mut bar, stop_on_ctrl_c());
    job.start(None, 0, "deals");
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    if !json {
        out.write_all(given::TEXT_HEADING.as_bytes())?;
    }
    let mut totals = Written::default();
    let mut number = 0u64;
    let mut bytes = Vec::new();
    let mut lines = Vec::with_capacity(CHUNK);
    let mut last = 0;
    let mut chunk = 1024;
    loop {
        lines.clear();
        let began = std::time::Instant::now();
        while lines.len() < chunk {
            bytes.clear();
            if reader.read_until(b'\n', &mut bytes)? == 0 {
                break;
            }
            number += 1;
            let text = std::str::from_utf8(&bytes).map_err(|_| {
                BadInput(format!(
                    "bad --deals {}: line {number} is not UTF-8 text",
                    file.display()
                ))
            })?;
            lines.extend(given::deal_line(text, number));
        }
        if lines.is_empty() {
            break;
        }
        let (parts, error) = given.play(&lines, |w: &mut Written, game: GivenGame| {
            match &game.result {
                GivenResult::Played(PlayReport::Cycle { .. }) => w.cycles += 1,
                GivenResult::GaveUp { .. } => w.gave_up += 1,
                GivenResult::Played(_) => w.finished += 1,
            }
            if json {
                game.write_json(&mut w.text);
            } else {
                game.write_text(&mut w.text);
            }
        });
        for part in parts {
            out.write_all(part.text.as_bytes())?;
            totals.finished += part.finished;
            totals.cycles += part.cycles;
            totals.gave_up += part.gave_up;
        }
        if let Some(e) = error {
            out.flush()?;
            return Err(e.into());
        }
        let played = totals.finished + totals.cycles + totals.gave_up;
        last = lines.last().map_or(last, |l| l.number);
        let rate = lines.len() as f64 / began.elapsed().as_secs_f64().max(1e-6);
        chunk = ((rate * CHUNK_TIME.as_secs_f64()) as usize).clamp(64, CHUNK);
        if !job.progress(played, None) {
            out.flush()?;
            job.finish();
            eprintln!(
                "bmn: stopped after {played} deal(s), to line {last}: every one of them is \
                 written; the next line to play is {}",
                last + 1
            );
            return Err(Stopped.into());
        }
    }
    job.finish();
    let played = totals.finished + totals.cycles + totals.gave_up;
    if !json {
        writeln!(
            out,
            "{played} deal(s): {} finished, {} never end, {} given up (kernel {}, {} thread(s))",
            totals.finished,
            totals.cycles,
            totals.gave_up,
            given.kernel().name(),
            given.threads()
        )?;
    }
    out.flush()?;
    Ok(())
}
