//! What the command line adds to a command's request: `--json` ([`OutputArg`]) and the
//! wrapper [`Request`] that flattens a bmn-app request (whose fields are the command's flags,
//! declared once in bmn-app for every front end) beside it.

use clap::Args;

/// `--json`.
#[derive(Args, Debug, Clone, Default)]
pub struct OutputArg {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A command whose flags are its bmn-app request's, and `--json`.
#[derive(Args, Debug)]
pub struct Request<R: Args> {
    #[command(flatten)]
    pub request: R,
    #[command(flatten)]
    pub output: OutputArg,
}

/// `bmn completions SHELL`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}
