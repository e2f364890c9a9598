//! Fuzz target `result_file`: libFuzzer's inputs to `bmn_fuzz::result_file`, which panics only when a property fails.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bmn_fuzz::result_file(data));
