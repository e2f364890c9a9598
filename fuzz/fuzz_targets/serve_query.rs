//! Fuzz target `serve_query`: libFuzzer's inputs to `bmn_fuzz::serve_query`, which panics only when a property fails.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bmn_fuzz::serve_query(data));
