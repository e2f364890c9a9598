//! Fuzz target `rank`: libFuzzer's inputs to `bmn_fuzz::rank`, which panics only when a property fails.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bmn_fuzz::rank(data));
