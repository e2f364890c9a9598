//! Fuzz target `deal_notation`: libFuzzer's inputs to `bmn_fuzz::deal_notation`, which panics only when a property fails.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bmn_fuzz::deal_notation(data));
