//! Deals a line at a time, in and out: `bmn deal --count N` writes a stream's deals, `bmn play
//! --deals FILE` plays a file's. Both stream: a chunk of lines read, played on the threads and
//! written before the next, so a file of any length runs in bounded memory, and Ctrl-C ends it
//! after the chunk under way with every finished line written (exit 130).

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use anyhow::Result;
use bmn_app::Report;
use bmn_app::deal::DealRequest;
use bmn_app::given::{self, Early, Given, GivenGame, GivenResult};
use bmn_app::play::PlayReport;
use bmn_app::play::PlayRequest;
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
    if let Some((seed, index, players, deck, balanced)) = first.filter(|_| !json) {
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

/// A chunk of the file read: its bytes, and each line's number and range in them.
struct Chunk {
    bytes: Vec<u8>,
    spans: Vec<(u64, Range<usize>)>,
}

/// Reads chunks of `chunk` lines (as it says when a chunk starts) from `reader` and sends
/// them on, until the file ends or the receiver is gone: the next chunk is read while the one
/// before is played.
fn read_chunks(mut reader: impl BufRead, chunk: &AtomicUsize, to: SyncSender<io::Result<Chunk>>) {
    let mut number = 0u64;
    loop {
        let mut read = Chunk {
            bytes: Vec::new(),
            spans: Vec::new(),
        };
        let wanted = chunk.load(Ordering::Relaxed);
        while read.spans.len() < wanted {
            let start = read.bytes.len();
            match reader.read_until(b'\n', &mut read.bytes) {
                Ok(0) => break,
                Ok(_) => {
                    number += 1;
                    read.spans.push((number, start..read.bytes.len()));
                }
                Err(e) => {
                    let _ = to.send(Err(e));
                    return;
                }
            }
        }
        let end = read.spans.is_empty();
        if to.send(Ok(read)).is_err() || end {
            return;
        }
    }
}

/// `bmn play --deals FILE`: every deal of the file (`-`: stdin), played and written in order.
pub fn play_file(req: &PlayRequest, file: &Path, json: bool) -> Result<()> {
    let mut given = Given::try_from(req)?;
    let reader: Box<dyn BufRead + Send> = if file.as_os_str() == "-" {
        Box::new(BufReader::with_capacity(1 << 20, io::stdin()))
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
    let chunk = Arc::new(AtomicUsize::new(1024));
    let (to, from) = sync_channel(1);
    // Not joined: a stop must not wait on a read of a pipe whose writer is idle (the process
    // ends, and the thread with it).
    let wants = Arc::clone(&chunk);
    std::thread::spawn(move || read_chunks(reader, &wants, to));
    play_chunks(&mut given, from, &chunk, file, json)
}

/// Plays and writes the chunks `from` sends, cutting the next ones to [`CHUNK_TIME`].
fn play_chunks(
    given: &mut Given,
    from: Receiver<io::Result<Chunk>>,
    chunk: &AtomicUsize,
    file: &Path,
    json: bool,
) -> Result<()> {
    let mut bar = Bar::default();
    let mut job = Job::new(&mut bar, stop_on_ctrl_c());
    job.start(None, 0, "deals");
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    if !json {
        out.write_all(given::TEXT_HEADING.as_bytes())?;
    }
    let mut totals = Written::default();
    // Ends when the reader does: at the end of the file (an empty chunk), or on its error.
    while let Ok(read) = from.recv() {
        let read = read?;
        if read.spans.is_empty() {
            break;
        }
        let began = std::time::Instant::now();
        let mut lines = Vec::with_capacity(read.spans.len());
        for (number, span) in &read.spans {
            let text = std::str::from_utf8(&read.bytes[span.clone()]).map_err(|_| {
                BadInput(format!(
                    "bad --deals {}: line {number} is not UTF-8 text",
                    file.display()
                ))
            })?;
            lines.extend(given::deal_line(text, *number));
        }
        let part_len = lines.len() / given.threads().max(1) + 1;
        let (parts, early) = given.play(
            &lines,
            job.stop_flag(),
            |w: &mut Written, game: GivenGame| {
                if w.text.is_empty() {
                    // About a line's worth a deal: one allocation for the part's text.
                    w.text.reserve(part_len * 110);
                }
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
            },
        );
        for part in parts {
            out.write_all(part.text.as_bytes())?;
            totals.finished += part.finished;
            totals.cycles += part.cycles;
            totals.gave_up += part.gave_up;
        }
        let played = totals.finished + totals.cycles + totals.gave_up;
        let last = read.spans.last().map_or(0, |(n, _)| *n);
        match early {
            Some(Early::Bad(e)) => {
                out.flush()?;
                return Err(e.into());
            }
            // Stopped inside the chunk (a long game on the reference engine): what it wrote
            // is every line before the first it left out.
            Some(Early::Stopped) => {
                out.flush()?;
                job.finish();
                eprintln!(
                    "bmn: stopped after {played} deal(s): every one of them is written, in the \
                     file's order"
                );
                return Err(Stopped.into());
            }
            None => {}
        }
        let rate = read.spans.len() as f64 / began.elapsed().as_secs_f64().max(1e-6);
        let wanted = ((rate * CHUNK_TIME.as_secs_f64()) as usize).clamp(64, CHUNK);
        chunk.store(wanted, Ordering::Relaxed);
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
            "{played} deal(s): {} finished, {} never end, {} given up ({}, {} thread(s))",
            totals.finished,
            totals.cycles,
            totals.gave_up,
            given.engine_name(),
            given.threads()
        )?;
    }
    out.flush()?;
    Ok(())
}
