//! Prints the size of each kernel's entry point in SPIR-V words, as naga writes it for Vulkan,
//! and of the event kernel's step alone: `play_events` less the same entry point with its step
//! cut out. Where no GPU is lent to count its instructions, this is the step's proxy
//! (BENCHMARKS.md); the helpers a step calls (`shr64`, `ctz64`, ...) count once each, however
//! often it calls them.
//!
//! `cargo run -p bmn-gpu --example shader_words`

/// The kernels' source, as `gpu.rs` puts it together.
const SHADER: &str = concat!(
    include_str!("../src/shader/common.wgsl"),
    include_str!("../src/shader/tricks.wgsl"),
    include_str!("../src/shader/events.wgsl"),
);

/// Where the step starts (after this line) and ends (before this one) in `events.wgsl`.
const STEP_FROM: &str = "            steps += 1u;\n";
const STEP_TO: &str = "            if (finished || capped) {";
/// What stands for the step when it is cut out: the names the rest of the loop reads.
const STUB: &str = concat!(
    "            let finished = xm.x == 7u;\n",
    "            let capped = false;\n",
    "            let winner = 0u;\n",
    "            let out = true;\n",
);

/// SPIR-V words of each entry point of `source`.
fn words(source: &str) -> Vec<(String, usize)> {
    let module = naga::front::wgsl::parse_str(source).expect("the shader parses");
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .expect("the shader validates");
    module
        .entry_points
        .iter()
        .map(|ep| {
            let options = naga::back::spv::Options {
                flags: naga::back::spv::WriterFlags::empty(),
                ..Default::default()
            };
            let pipeline = naga::back::spv::PipelineOptions {
                shader_stage: ep.stage,
                entry_point: ep.name.clone(),
            };
            let spv = naga::back::spv::write_vec(&module, &info, &options, Some(&pipeline))
                .expect("SPIR-V");
            (ep.name.clone(), spv.len())
        })
        .collect()
}

fn main() {
    let all = words(SHADER);
    for (name, n) in &all {
        println!("{name}: {n} words");
    }
    let (Some(from), Some(to)) = (SHADER.find(STEP_FROM), SHADER.find(STEP_TO)) else {
        println!("the step's markers are not in events.wgsl: no step count");
        return;
    };
    let cut = format!(
        "{}{STUB}{}",
        &SHADER[..from + STEP_FROM.len()],
        &SHADER[to..]
    );
    let play = |list: &[(String, usize)]| {
        list.iter()
            .find(|(name, _)| name == "play_events")
            .map(|&(_, n)| n)
            .expect("play_events")
    };
    let (whole, without) = (play(&all), play(&words(&cut)));
    println!(
        "play_events' step: {} words ({whole} with it, {without} without)",
        whole - without
    );
}
