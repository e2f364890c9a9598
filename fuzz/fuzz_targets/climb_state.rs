//! Fuzz target `climb_state`: libFuzzer's inputs to `bmn_fuzz::climb_state`, which panics only when a property fails.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bmn_fuzz::climb_state(data));
