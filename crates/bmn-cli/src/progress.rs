//! The CLI's observer: a progress bar on a terminal (stderr, hidden otherwise), notes and
//! warnings on stderr.

use bmn_app::Observer;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// Draws the bar of the current stage of a command.
#[derive(Default)]
pub struct Bar {
    bar: Option<ProgressBar>,
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
        "{{elapsed_precise}} [{{wide_bar}}] {{human_pos}} {what} {{rate}} ETA {{eta}} {{msg}}"
    );
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("valid template")
            // indicatif's own `{per_sec}` prints four decimals of units/s; millions read better.
            .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.2} M/s", s.per_sec() / 1e6);
            })
            .progress_chars("=> "),
    );
    bar
}

impl Observer for Bar {
    fn start(&mut self, total: Option<u64>, done: u64, what: &str) {
        match &self.bar {
            // A stage that reports its size as it goes: keep the bar, update its length.
            Some(bar) if total.is_some() && bar.length() != total => {
                bar.set_length(total.unwrap_or(0));
                bar.set_position(done);
            }
            Some(_) => {}
            None => {
                let bar = new_bar(total, what);
                bar.set_position(done);
                bar.reset_eta();
                self.bar = Some(bar);
            }
        }
    }

    fn progress(&mut self, done: u64, message: Option<&str>) -> bool {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            if let Some(m) = message {
                bar.set_message(m.to_string());
            }
        }
        true
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn warning(&mut self, text: &str) {
        eprintln!("bmn: warning: {text}");
    }

    fn note(&mut self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }
}
