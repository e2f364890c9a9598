//! How a long command is stopped: Ctrl-C, SIGTERM (`timeout`, `kill`, a batch scheduler) or
//! SIGHUP raise one flag, and the command stops at the next unit boundary, reports what it
//! finished and exits 130 (`exit.rs`).

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C, SIGTERM or SIGHUP has asked the command to stop.
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Lets Ctrl-C stop a long command cleanly, and SIGTERM and SIGHUP the same way (ctrlc's
/// `termination` feature). A second signal does nothing more; the command ends at the next
/// unit, well within a second, anyway.
pub fn stop_on_ctrl_c() -> &'static AtomicBool {
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    &STOP
}
