//! The one driver of runs in rounds (a climb, the factory's walks): rounds until a number of
//! them is done, a time is up or the job stops, with the work's progress and saving after
//! each, reported through the job.
//!
//! A run stops only between rounds, so what it reports (and a climb records) is always whole
//! rounds: a result is a function of the configuration and the number of rounds alone, and
//! the time limit decides only how many rounds there are.

use std::time::{Duration, Instant};

use bmn_job::Job;

/// When a run of rounds ends: after `rounds` rounds in all (counting those done before a
/// resume), once `time` has passed since it started, whichever comes first; with neither,
/// only when it is stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundLimits {
    pub rounds: Option<u64>,
    pub time: Option<Duration>,
}

/// Why a run of rounds ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Its rounds are all done.
    Rounds,
    /// Its time is up.
    Time,
    /// The stop flag was set, or the work asked to stop after a round: the run was
    /// interrupted.
    Stopped,
}

impl Ended {
    /// Whether the run was interrupted (rather than reaching a limit).
    pub fn interrupted(self) -> bool {
        self == Ended::Stopped
    }
}

/// The work a round driver drives.
pub trait Rounds {
    type Error;

    /// Rounds done so far (more than 0 after a resume).
    fn done(&self) -> u64;

    /// Plays the next round; `elapsed` is the time since the run started. A round that reads
    /// the job's stop part-way is dropped whole by the work itself.
    fn play(&mut self, elapsed: Duration, job: &mut Job) -> Result<(), Self::Error>;

    /// After each round: report progress through the job, save what is due. `Ok(false)`
    /// stops the run, as interrupted (whoever watches asked to stop).
    fn played(&mut self, job: &mut Job) -> Result<bool, Self::Error>;
}

/// Plays rounds of `work` until `limits` are reached or the job stops (checked before each
/// round), timing from `started`. An error of a round or of what follows it ends the run and
/// is returned.
pub fn run_rounds<R: Rounds + ?Sized>(
    work: &mut R,
    limits: RoundLimits,
    started: Instant,
    job: &mut Job,
) -> Result<Ended, R::Error> {
    loop {
        if limits.rounds.is_some_and(|r| work.done() >= r) {
            return Ok(Ended::Rounds);
        }
        if job.stopped() {
            return Ok(Ended::Stopped);
        }
        if limits.time.is_some_and(|t| started.elapsed() >= t) {
            return Ok(Ended::Time);
        }
        work.play(started.elapsed(), job)?;
        if !work.played(job)? {
            return Ok(Ended::Stopped);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    /// Rounds that count themselves, each taking `pause`; stops itself after `stop_after`
    /// rounds, or sets `flag` after `flag_after`, or fails at round `fail_at`.
    #[derive(Default)]
    struct Count<'a> {
        done: u64,
        pause: Duration,
        stop_after: Option<u64>,
        flag: Option<(&'a AtomicBool, u64)>,
        fail_at: Option<u64>,
    }

    impl Rounds for Count<'_> {
        type Error = String;

        fn done(&self) -> u64 {
            self.done
        }

        fn play(&mut self, _: Duration, _: &mut Job) -> Result<(), String> {
            if self.fail_at == Some(self.done) {
                return Err(format!("round {} failed", self.done));
            }
            std::thread::sleep(self.pause);
            self.done += 1;
            Ok(())
        }

        fn played(&mut self, _: &mut Job) -> Result<bool, String> {
            if let Some((flag, after)) = self.flag
                && self.done == after
            {
                flag.store(true, Ordering::Relaxed);
            }
            Ok(self.stop_after != Some(self.done))
        }
    }

    /// `run_rounds` of `w` within `rounds` and `time` from `started`, stopped by `flag`.
    fn run(
        w: &mut Count,
        (rounds, time): (Option<u64>, Option<Duration>),
        started: Instant,
        flag: &AtomicBool,
    ) -> Result<Ended, String> {
        run_rounds(
            w,
            RoundLimits { rounds, time },
            started,
            &mut Job::quiet(flag),
        )
    }

    #[test]
    fn a_run_stops_at_its_rounds_counting_those_done_before() {
        let no = AtomicBool::new(false);
        let mut w = Count::default();
        let end = run(&mut w, (Some(7), None), Instant::now(), &no);
        assert_eq!((end, w.done), (Ok(Ended::Rounds), 7));
        // Resumed at 7 of 10: three more; at 10 of 10, none.
        let end = run(&mut w, (Some(10), None), Instant::now(), &no);
        assert_eq!((end, w.done), (Ok(Ended::Rounds), 10));
        let end = run(&mut w, (Some(10), None), Instant::now(), &no);
        assert_eq!((end, w.done), (Ok(Ended::Rounds), 10));
    }

    #[test]
    fn a_run_stops_when_its_time_is_up_after_whole_rounds() {
        let no = AtomicBool::new(false);
        let mut w = Count {
            pause: Duration::from_millis(10),
            ..Count::default()
        };
        let time = Duration::from_millis(50);
        let started = Instant::now();
        let end = run(&mut w, (None, Some(time)), started, &no);
        assert_eq!(end, Ok(Ended::Time));
        assert!(started.elapsed() >= time);
        // Whole rounds until the time was up: at least one, each 10 ms.
        assert!(w.done >= 1 && w.done <= 6, "{} rounds", w.done);
        // The rounds limit still ends a timed run first when it is near.
        let mut w = Count::default();
        let end = run(&mut w, (Some(3), Some(time)), Instant::now(), &no);
        assert_eq!((end, w.done), (Ok(Ended::Rounds), 3));
        // Time already up: no round at all.
        let mut w = Count::default();
        let long_ago = Instant::now() - Duration::from_secs(1);
        let end = run(&mut w, (Some(3), Some(time)), long_ago, &no);
        assert_eq!((end, w.done), (Ok(Ended::Time), 0));
    }

    #[test]
    fn a_run_stops_on_the_flag_or_when_its_work_asks_between_rounds() {
        let flag = AtomicBool::new(false);
        let mut w = Count {
            flag: Some((&flag, 4)),
            ..Count::default()
        };
        let end = run(&mut w, (None, None), Instant::now(), &flag);
        assert_eq!((end.clone(), w.done), (Ok(Ended::Stopped), 4));
        assert!(end.unwrap().interrupted());
        // Set before it starts: nothing is played.
        let mut w = Count::default();
        let end = run(&mut w, (Some(9), None), Instant::now(), &flag);
        assert_eq!((end, w.done), (Ok(Ended::Stopped), 0));
        let no = AtomicBool::new(false);
        let mut w = Count {
            stop_after: Some(2),
            ..Count::default()
        };
        let end = run(&mut w, (Some(9), None), Instant::now(), &no);
        assert_eq!((end, w.done), (Ok(Ended::Stopped), 2));
        assert!(!Ended::Rounds.interrupted() && !Ended::Time.interrupted());
    }

    #[test]
    fn a_failed_round_ends_the_run_with_its_error() {
        let no = AtomicBool::new(false);
        let mut w = Count {
            fail_at: Some(3),
            ..Count::default()
        };
        let end = run(&mut w, (Some(9), None), Instant::now(), &no);
        assert_eq!((end, w.done), (Err("round 3 failed".to_string()), 3));
    }
}
