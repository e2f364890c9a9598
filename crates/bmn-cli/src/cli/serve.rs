//! `serve`: the replay page.
//! Each command's flags, and its `run`: the flags as its bmn-app request, the report printed.

use std::io::Write;
use std::net::ToSocketAddrs;

use anyhow::Result;
use clap::Args;

use crate::output::BadInput;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on: 127.0.0.1 keeps the page to this machine; 0.0.0.0 opens it to
    /// the network (the page has no login: a warning says so).
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: String,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8080, value_name = "PORT")]
    pub port: u16,
    /// The atlas's catalogues: every *.json in DIR (the --json of `bmn census` or `bmn pieces
    /// factory`) instead of those compiled in (docs/catalogue/).
    #[arg(long, value_name = "DIR")]
    pub catalogue: Option<std::path::PathBuf>,
}

impl ServeArgs {
    /// `bmn serve`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        let limits = bmn_serve::Limits::default();
        let atlas = match &self.catalogue {
            Some(dir) => bmn_serve::Atlas::read(dir)?,
            None => bmn_serve::Atlas::embedded(),
        };
        // Room for every connection the server allows (the usual soft limit is 1024);
        // where it cannot be raised, connections past it wait in the backlog instead.
        let _ = rlimit::increase_nofile_limit(limits.connections as u64 + 64);
        // An address that names nothing is the user's to fix (exit 2); one that names this
        // machine but cannot be listened on (a busy port) is the machine's (exit 1).
        if let Err(e) = (self.bind.as_str(), self.port).to_socket_addrs() {
            return Err(BadInput(format!("bad --bind: {}: {e}", self.bind)).into());
        }
        // Ctrl-C, SIGTERM and SIGHUP stop it as they stop every long command: exit 130.
        let stop = crate::stop::stop_on_ctrl_c();
        bmn_serve::serve_until(&self.bind, self.port, limits, atlas, stop, |at| {
            eprintln!("bmn: serving the replay page on http://{at}/ (Ctrl-C to stop)");
            if !at.ip().is_loopback() {
                eprintln!(
                    "bmn: warning: {} is not a loopback address and the page has no login: \
                     anyone who can reach this machine can use it and run searches on it",
                    at.ip()
                );
            }
        })
        .map_err(|e| anyhow::anyhow!("serving on {}:{}: {e}", self.bind, self.port))?;
        // Not eprintln!: a closed stderr must not turn a clean stop into a panic.
        let _ = writeln!(std::io::stderr(), "bmn: stopped serving");
        crate::exit::finished(false)
    }
}
