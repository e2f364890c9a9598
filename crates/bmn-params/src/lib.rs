//! bmn-params: a command's parameters, each declared once and read alike everywhere.
//!
//! A parameter that several commands take is a family here (`flags.rs`, `seeded.rs`,
//! `walk.rs`): a clap `Args` struct with its name, type and help, flattened into each
//! command's request (bmn-app). The front ends derive from those requests: the command line
//! parses them, and the web API and Python fill them from named values ([`front`]), so a
//! parameter has one name, one number syntax ([`numbers`]) and one meaning in all three.
//! [`input`] turns what a person typed (deal text, deck specs, durations, the kernel) into
//! checked library values; [`error`] is what a command says when it cannot answer, the
//! parameter at fault named as a value ([`Message`]) so each front end spells it its way, and
//! the library error kept as its `source()`.
//!
//! No I/O beyond checking that a named path can be written, and opening the GPU adapter
//! `--device` names ([`device`]).

#![forbid(unsafe_code)]

pub mod device;
pub mod error;
pub mod flags;
pub mod front;
pub mod input;
pub mod message;
pub mod numbers;
pub mod seeded;
pub mod walk;

pub use error::{Error, Result};
pub use message::{Message, Spelling, name_of, one_line, own_name};
