//! Fuzz target `deck_spec`: libFuzzer's inputs to `bmn_fuzz::deck_spec`, which panics only when a property fails.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bmn_fuzz::deck_spec(data));
