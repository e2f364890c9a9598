//! Progress bars for long runs: shown on a terminal (stderr), hidden otherwise.

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// A bar counting `what` (e.g. "games") up to `len`, or a spinner when the end is unknown;
/// the rate in millions per second and the ETA, with room for a message such as the best
/// game so far.
pub fn bar(len: Option<u64>, what: &str) -> ProgressBar {
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
