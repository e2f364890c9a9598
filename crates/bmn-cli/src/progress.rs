//! The CLI's hooks of a long job: a progress bar on a terminal (stderr); where stderr is not a terminal
//! (a log file, a batch job, `2>&1 | tee`), a plain line every few seconds instead; notes and
//! warnings on stderr.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use bmn_job::Hooks;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// How often a run whose stderr is not a terminal writes a progress line; a shorter run
/// writes none.
const LOG_EVERY: Duration = Duration::from_secs(5);

/// Draws the bar of the current stage of a command (hidden where stderr is not a terminal),
/// or writes its log lines.
pub struct Bar {
    /// The bar and what it counts.
    bar: Option<(ProgressBar, String)>,
    /// Where stderr is not a terminal: the lines written in the bar's place.
    log: Option<Log>,
}

impl Default for Bar {
    fn default() -> Self {
        let now = Instant::now();
        Bar {
            bar: None,
            log: (!std::io::stderr().is_terminal()).then_some(Log {
                began: now,
                last: now,
                stage: None,
            }),
        }
    }
}

/// Progress as plain lines: `bmn: 12,345,678 of 100,000,000 games (12.3%), 3.21 M games/s,
/// ETA 4 min 32 s, 41 s, best 2228 cards`, at most one every [`LOG_EVERY`]: what the bar
/// says. The rate is that of the last line's interval (the bar's is as recent), so a stage
/// that slows down says so, and the ETA follows it.
struct Log {
    /// When the command started: the time each line gives.
    began: Instant,
    /// When the last line was written (the start, before any).
    last: Instant,
    stage: Option<Stage>,
}

/// What the current stage counts, from where, since when, and its latest message.
struct Stage {
    what: String,
    total: Option<u64>,
    /// The count and the moment the rate is measured from: the stage's start, then each line.
    since: (u64, Instant),
    message: Option<String>,
}

impl Log {
    fn start(&mut self, total: Option<u64>, done: u64, what: &str) {
        match &mut self.stage {
            Some(stage) if stage.what == what => stage.total = total.or(stage.total),
            _ => {
                self.stage = Some(Stage {
                    what: what.to_string(),
                    total,
                    since: (done, Instant::now()),
                    message: None,
                });
            }
        }
    }

    fn progress(&mut self, done: u64, message: Option<&str>) {
        if let (Some(stage), Some(m)) = (&mut self.stage, message) {
            stage.message = Some(m.to_string());
        }
        let now = Instant::now();
        if now.duration_since(self.last) >= LOG_EVERY {
            self.last = now;
            eprintln!("{}", self.line(now, done, message));
            if let Some(stage) = &mut self.stage {
                stage.since = (done, now);
            }
        }
    }

    /// The line for `done` items at `now`.
    fn line(&self, now: Instant, done: u64, message: Option<&str>) -> String {
        let mut parts = Vec::new();
        let mut message = message.map(str::to_string);
        if let Some(s) = &self.stage {
            let mut count = format!("{} {}", grouped(done), s.what);
            if let Some(total) = s.total.filter(|&t| t > 0) {
                count = format!(
                    "{} of {} {} ({:.1}%)",
                    grouped(done),
                    grouped(total),
                    s.what,
                    done as f64 * 100.0 / total as f64
                );
            }
            parts.push(count);
            let seconds = now.duration_since(s.since.1).as_secs_f64();
            if seconds >= 1.0 {
                let rate = done.saturating_sub(s.since.0) as f64 / seconds;
                parts.push(rate_text(rate, &s.what));
                if let Some(total) = s.total.filter(|&t| t > done && rate > 0.0) {
                    let left = (total - done) as f64 / rate;
                    parts.push(format!(
                        "ETA {}",
                        elapsed(Duration::from_secs_f64(left.min(1e9)))
                    ));
                }
            }
            message = message.or_else(|| s.message.clone());
        } else {
            parts.push(grouped(done));
        }
        parts.push(elapsed(now.duration_since(self.began)));
        parts.extend(message);
        format!("bmn: {}", parts.join(", "))
    }
}

/// A rate of `what` a second as a person reads it: "3.21 M games/s", "1,234 deals/s", "0.25
/// units/s" ("deals/s" for "deals (reference engine)").
fn rate_text(rate: f64, what: &str) -> String {
    let noun = what.split('(').next().unwrap_or_default();
    let unit = noun.split_whitespace().last().unwrap_or("items");
    match rate {
        r if r >= 1e6 => format!("{:.2} M {unit}/s", r / 1e6),
        r if r >= 100.0 => format!("{} {unit}/s", grouped(r.round() as u64)),
        r => format!("{r:.2} {unit}/s"),
    }
}

/// 12345678 as "12,345,678".
fn grouped(n: u64) -> String {
    bmn_app::thousands(&n.to_string())
}

/// "41 s", "12 min 05 s", "3 h 07 min", "4 d 02 h".
fn elapsed(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        3600..86400 => format!("{} h {:02} min", s / 3600, s / 60 % 60),
        _ => format!("{} d {:02} h", s / 86400, s / 3600 % 24),
    }
}

/// A bar counting `what` (e.g. "games") up to `len`, or a spinner when the end is unknown;
/// the rate in millions per second and the ETA, with room for a message such as the best
/// game so far.
fn new_bar(len: Option<u64>, what: &str) -> ProgressBar {
    let bar = match len {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    };
    let template = format!(
        "{{elapsed_precise}} [{{wide_bar}}] {{human_pos}} {what}, {{rate}} ETA {{eta}} {{msg}}"
    );
    let what = what.to_string();
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("valid template")
            // indicatif's own `{per_sec}` prints four decimals of units/s; the log's words
            // read better, whether millions of games or a unit every few seconds.
            .with_key(
                "rate",
                move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", rate_text(s.per_sec(), &what));
                },
            )
            .progress_chars("=> "),
    );
    bar
}

impl Hooks for Bar {
    fn start(&mut self, total: Option<u64>, done: u64, what: &str) {
        if let Some(log) = &mut self.log {
            log.start(total, done, what);
        }
        match &self.bar {
            // A stage that reports its size as it goes: keep the bar, update its length.
            Some((bar, counts)) if counts == what => {
                if total.is_some() && bar.length() != total {
                    bar.set_length(total.unwrap_or(0));
                    bar.set_position(done);
                }
            }
            _ => {
                // A new stage, or the same one counting something else: a bar of its own.
                if let Some((old, _)) = self.bar.take() {
                    old.finish_and_clear();
                }
                let bar = new_bar(total, what);
                bar.set_position(done);
                bar.reset_eta();
                self.bar = Some((bar, what.to_string()));
            }
        }
    }

    fn progress(&mut self, done: u64, message: Option<&str>) -> bool {
        if let Some((bar, _)) = &self.bar {
            bar.set_position(done);
            if let Some(m) = message {
                bar.set_message(m.to_string());
            }
        }
        if let Some(log) = &mut self.log {
            log.progress(done, message);
        }
        true
    }

    fn finish(&mut self) {
        if let Some(log) = &mut self.log {
            log.stage = None;
        }
        if let Some((bar, _)) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn warning(&mut self, text: &str) {
        eprintln!("bmn: warning: {text}");
    }

    fn note(&mut self, line: &str) {
        match &self.bar {
            Some((bar, _)) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_line_says_the_recent_rate_and_the_eta_as_the_bar_does() {
        let t0 = Instant::now();
        let mut log = Log {
            began: t0,
            last: t0,
            stage: None,
        };
        log.start(Some(1_000), 0, "games");
        let stage = log.stage.as_mut().unwrap();
        // 400 games in the last 10 s: 40 a second, 500 left, 12.5 s to go.
        stage.since = (100, t0);
        let line = log.line(t0 + Duration::from_secs(10), 500, None);
        assert_eq!(
            line,
            "bmn: 500 of 1,000 games (50.0%), 40.00 games/s, ETA 12 s, 10 s"
        );
        // No total, no ETA.
        log.start(None, 0, "units");
        log.stage.as_mut().unwrap().since = (0, t0);
        let line = log.line(t0 + Duration::from_secs(2), 10, Some("best 7"));
        assert_eq!(line, "bmn: 10 units, 5.00 units/s, 2 s, best 7");
    }
}
