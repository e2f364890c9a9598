//! Lists docs/catalogue/road/*.json, the rows of the road to Camicia (docs/results.md,
//! Part 9), for atlas.rs to compile in: a row added to the folder is served without a line of
//! code, and the list cannot drift from the folder.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/catalogue/road");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter_map(|name| name.strip_suffix(".json").map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut list = String::from("&[\n");
    for name in &names {
        let path = dir.join(format!("{name}.json"));
        let _ = writeln!(
            list,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    list.push_str("]\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("road.rs");
    std::fs::write(out, list).expect("OUT_DIR is writable");
}
