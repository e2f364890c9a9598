//! The `bmn` binary: parses the command line, runs the command, ends with its exit code
//! (`exit.rs` holds the table).

#![forbid(unsafe_code)]

mod about;
mod args;
mod callgrind;
mod cli;
mod commands;
mod exit;
mod output;
mod progress;
mod stop;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::FromArgMatches;

use crate::cli::Cli;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let cli = match parse(&args) {
        Ok(cli) => cli,
        Err(err) => {
            // An argument need not be UTF-8 (a path on Unix): the refusal reads them lossily.
            let args: Vec<String> = args[1..]
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            return exit::refuse(&err, about::positional_tip(&err, &args));
        }
    };
    let run = bmn_app::input::simd_limit().map_err(anyhow::Error::from);
    exit::end(run.and_then(|_| commands::run(cli.command)))
}

/// The command line (the program's name first), as bmn's commands, or clap's refusal.
fn parse(args: &[OsString]) -> Result<Cli, clap::Error> {
    about::command()
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m))
        .map_err(|err| about::with_culprit(err, &args[1..]))
}

#[cfg(test)]
mod tests {
    use std::os::unix::ffi::OsStringExt;

    use proptest::prelude::*;

    use super::*;

    /// Any bytes as arguments to any command: never a panic; a refusal is one line, naming a
    /// non-UTF-8 argument by its place.
    fn refused_in_one_line(args: &[OsString]) {
        if let Err(err) = parse(args) {
            let lossy: Vec<String> = args[1..]
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            let _ = about::positional_tip(&err, &lossy);
            let line = exit::what(&err);
            assert!(!line.contains('\n'), "{line}");
            if err.kind() == clap::error::ErrorKind::InvalidUtf8 {
                assert!(line.contains("is not UTF-8"), "{line}");
            }
        }
    }

    #[test]
    fn the_arguments_that_panicked_are_refused_in_one_line() {
        let bytes = |b: &[u8]| OsString::from_vec(b.to_vec());
        for args in [
            vec![bytes(b"bmn"), bytes(b"play"), bytes(b"--K-/--J-\xff")],
            vec![
                bytes(b"bmn"),
                bytes(b"search"),
                bytes(b"--games"),
                bytes(b"1\xff0"),
            ],
            vec![bytes(b"bmn"), bytes(b"--\xff")],
        ] {
            let err = parse(&args).expect_err("refused");
            assert_eq!(err.kind(), clap::error::ErrorKind::InvalidUtf8);
            assert!(exit::what(&err).contains("is not UTF-8 text"));
            refused_in_one_line(&args);
        }
        let args = [bytes(b"bmn"), bytes(b"play"), bytes(b"--K-/--J-\xff")];
        assert_eq!(
            exit::what(&parse(&args).expect_err("refused")),
            "argument 1 of `bmn play` ('--K-/--J-\u{fffd}') is not UTF-8 text"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn any_bytes_to_any_command_are_never_a_panic(
            command in 0usize..64,
            words in proptest::collection::vec(
                prop_oneof![
                    proptest::collection::vec(any::<u8>(), 0..8),
                    Just(b"--".to_vec()),
                    Just(b"--games".to_vec()),
                    Just(b"--deck".to_vec()),
                    Just(b"--json".to_vec()),
                    Just(b"-".to_vec()),
                ],
                0..5,
            ),
        ) {
            let commands: Vec<Vec<String>> = about::command()
                .get_subcommands()
                .flat_map(|c| {
                    let name = c.get_name().to_string();
                    let mut paths = vec![vec![name.clone()]];
                    paths.extend(
                        c.get_subcommands()
                            .map(|s| vec![name.clone(), s.get_name().to_string()]),
                    );
                    paths
                })
                .collect();
            let path = &commands[command % commands.len()];
            let mut args = vec![OsString::from("bmn")];
            args.extend(path.iter().map(OsString::from));
            args.extend(words.into_iter().map(OsString::from_vec));
            refused_in_one_line(&args);
        }
    }
}
