//! The build script of the crates with slow tests: `RUN_SLOW_TESTS=1` compiles them in
//! (`cfg(slow_tests)`); without it they are marked ignored, so `cargo test`'s summary line
//! says how many were left out (`cargo test -- --ignored` runs them anyway).

// `pub`: bmn-cli's build script runs it as a module besides its own work.
pub fn main() {
    println!("cargo::rustc-check-cfg=cfg(slow_tests)");
    println!("cargo::rerun-if-env-changed=RUN_SLOW_TESTS");
    if std::env::var_os("RUN_SLOW_TESTS").is_some_and(|v| !v.is_empty() && v != "0") {
        println!("cargo::rustc-cfg=slow_tests");
    }
}
