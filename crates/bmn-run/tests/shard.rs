//! `Shard::parse_or_auto` on the real process environment: `auto` reads the scheduler's
//! variables of the process it runs in. Setting variables in this process would race the
//! other tests (and needs `unsafe`), so each case runs this test binary again as a child with
//! its own environment, and the child checks what it reads.

use std::process::Command;

use bmn_run::Shard;

/// Every variable `auto` reads: removed from each child, so that a scheduler running these
/// tests does not leak its own.
const SCHEDULER: [&str; 6] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_COUNT",
    "JOB_COMPLETION_INDEX",
    "BMN_SHARDS",
];

/// Set in a child: what `parse_or_auto("auto")` must give there (a shard, or the error's text).
const EXPECT: &str = "BMN_TEST_SHARD_EXPECT";

#[test]
fn auto_reads_the_scheduler_of_the_process() {
    if let Ok(expected) = std::env::var(EXPECT) {
        let got = match Shard::parse_or_auto("auto") {
            Ok(shard) => shard.to_string(),
            Err(e) => e.to_string(),
        };
        assert_eq!(got, expected);
        return;
    }
    let cases: [(&[(&str, &str)], &str); 4] = [
        (
            &[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "1")],
            "auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT or \
             SLURM_ARRAY_TASK_MAX",
        ),
        (
            &[
                ("SLURM_ARRAY_TASK_ID", "3"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
            "3/4",
        ),
        (&[("JOB_COMPLETION_INDEX", "0"), ("BMN_SHARDS", "2")], "1/2"),
        (
            &[],
            "auto: no scheduler index found (SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)",
        ),
    ];
    for (vars, expected) in cases {
        let mut child = Command::new(std::env::current_exe().unwrap());
        child.args([
            "--exact",
            "auto_reads_the_scheduler_of_the_process",
            "--quiet",
        ]);
        for name in SCHEDULER {
            child.env_remove(name);
        }
        let out = child
            .envs(vars.iter().copied())
            .env(EXPECT, expected)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        // "1 passed": the child ran the check, not an empty selection.
        assert!(
            out.status.success() && said.contains("1 passed"),
            "{vars:?}: {said}"
        );
    }
}

#[test]
fn text_that_is_not_auto_never_reads_the_environment() {
    assert_eq!(
        Shard::parse_or_auto("2/5"),
        Ok(Shard { index: 2, count: 5 })
    );
    assert_eq!(
        Shard::parse_or_auto("Auto").unwrap_err().to_string(),
        "'Auto' is not of the form i/N (e.g. 3/8)"
    );
}
