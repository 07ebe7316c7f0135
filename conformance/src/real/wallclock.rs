//! A process's wall clock that the suite can step, as an NTP step or an admin's `date` steps a real
//! machine's: the process runs with the shim wallclock/wallclock.c preloaded (built by build.rs,
//! embedded here, written into the work directory), which adds the offset a file holds to every
//! CLOCK_REALTIME, gettimeofday and time reading, and leaves CLOCK_MONOTONIC true. A step rewrites
//! the file (a rename: readers see the old offset or the new one). A clock that runs fast or slow
//! (the model's `clock=Nppm`) has its rate in the file too, from the run's t = 0 on: the shim adds
//! the drift since then at every reading.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use leaselab::clock::Clock;

use crate::servers::Res;

/// The shim, as build.rs built it.
const SHIM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/libleaselab_wallclock.so"));
/// The variable that names a process's offset file (read by the shim).
const FILE_VAR: &str = "LEASELAB_WALLCLOCK_FILE";

/// One process's steppable wall clock.
pub struct WallClock {
    shim: PathBuf,
    file: PathBuf,
    offset_us: i64,
    /// Parts per million fast (negative: slow), from the CLOCK_MONOTONIC instant `from_ns` on.
    rate_ppm: i64,
    from_ns: u64,
}

impl WallClock {
    /// A clock reading true time, its offset file at `file` and the shim written into `work` (once).
    pub fn new(work: &Path, file: PathBuf) -> Res<WallClock> {
        let shim = work.join("libleaselab_wallclock.so");
        if !shim.exists() {
            std::fs::write(&shim, SHIM).map_err(|e| format!("{}: {e}", shim.display()))?;
        }
        let clock = WallClock {
            shim,
            file,
            offset_us: 0,
            rate_ppm: 0,
            from_ns: 0,
        };
        clock.write()?;
        Ok(clock)
    }

    /// The environment a process needs to run on this clock.
    pub fn env(&self) -> Vec<(OsString, OsString)> {
        vec![
            ("LD_PRELOAD".into(), self.shim.clone().into()),
            (FILE_VAR.into(), self.file.clone().into()),
        ]
    }

    /// Steps the clock by `by_us` (forward if positive) from now on.
    pub fn step(&mut self, by_us: i64) -> Res<()> {
        self.offset_us += by_us;
        self.write()
    }

    /// Runs the clock `rate_ppm` fast (slow if negative) from the CLOCK_MONOTONIC instant `from_ns`
    /// (the run's t = 0) on; true until then.
    pub fn run_from(&mut self, from_ns: u64, rate_ppm: i64) -> Res<()> {
        (self.rate_ppm, self.from_ns) = (rate_ppm, from_ns);
        self.write()
    }

    fn write(&self) -> Res<()> {
        let tmp = self.file.with_extension("next");
        let line = format!("{} {} {}\n", self.offset_us, self.rate_ppm, self.from_ns);
        std::fs::write(&tmp, line)
            .and_then(|()| std::fs::rename(&tmp, &self.file))
            .map_err(|e| format!("{}: {e}", self.file.display()))
    }
}

/// `leaselab-conformance wall-wait US PROGRAM ARGS…`: waits until this process's wall clock reads
/// US µs later than when it started, then becomes PROGRAM (exec). A node's delayed restart ("wait at
/// least a TTL before restarting") timed by the node's own wall clock, as the model times it: run on
/// that clock, a step of it during the wait cuts the wait short or stretches it. Bounded: it gives up
/// after two minutes of true time.
pub fn wall_wait_main(args: &[String]) -> std::process::ExitCode {
    use std::os::unix::process::CommandExt;
    use std::time::{Instant, SystemTime};
    let (Some(us), Some(program)) = (
        args.first().and_then(|a| a.parse::<u64>().ok()),
        args.get(1),
    ) else {
        eprintln!("usage: leaselab-conformance wall-wait US PROGRAM [ARGS...]");
        return std::process::ExitCode::from(2);
    };
    let until = SystemTime::now() + Duration::from_micros(us);
    let give_up = Instant::now() + Duration::from_secs(120);
    // The suite that started it: should it die meanwhile (this process is then reparented), no
    // server is started that nobody would stop. (PR_SET_PDEATHSIG would fire when the suite's
    // fault thread ends, not the suite.)
    let suite = std::os::unix::process::parent_id();
    while SystemTime::now() < until {
        if Instant::now() > give_up || std::os::unix::process::parent_id() != suite {
            eprintln!("wall-wait: the suite is gone, or the clock did not reach its mark in 120 s");
            return std::process::ExitCode::from(2);
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    let e = std::process::Command::new(program).args(&args[2..]).exec();
    eprintln!("wall-wait: cannot run {program}: {e}");
    std::process::ExitCode::from(2)
}

/// The steps of a scenario clock that a real wall clock can take: `(at, by µs)`, or why not. An
/// offset at 0, or a monotonic clock that runs fast or slow (the shim moves wall clocks only) has no
/// counterpart here; a wall clock's rate has ([`WallClock::run_from`]).
pub fn steps_of(clock: &Clock) -> Result<Vec<(Duration, i64)>, &'static str> {
    if clock.rate_ppm != 0 && clock.monotonic {
        return Err("a monotonic clock that runs fast or slow");
    }
    if clock.offset_us != 0 {
        return Err("a clock offset at t = 0");
    }
    Ok(clock
        .steps
        .iter()
        .map(|&(at, by)| (Duration::from_micros(at), by))
        .collect())
}

/// `+300 ms` / `−200 ms`, for the transcript.
pub fn signed_ms(by_us: i64) -> String {
    let sign = if by_us < 0 { '−' } else { '+' };
    format!("{sign}{} ms", by_us.unsigned_abs() / 1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// The shim moves `date`'s wall clock by the file's offset, and a step takes effect at once.
    #[test]
    fn the_shim_moves_a_process_wall_clock_only() {
        let dir = std::env::temp_dir().join(format!("leaselab-wallclock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut clock = WallClock::new(&dir, dir.join("clock")).unwrap();
        let read = |clock: &WallClock| -> i64 {
            let out = Command::new("date")
                .arg("+%s%6N")
                .envs(clock.env())
                .output()
                .unwrap();
            let faked: i64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_micros() as i64;
            faked - now
        };
        assert!(read(&clock).abs() < 200_000, "no offset yet");
        clock.step(3_600_000_000).unwrap();
        let ahead = read(&clock);
        assert!((3_599_800_000..3_600_000_000).contains(&ahead), "{ahead}");
        clock.step(-7_200_000_000).unwrap();
        let behind = read(&clock);
        assert!(
            (-3_600_200_000..-3_599_800_000).contains(&behind),
            "{behind}"
        );
        // 10 % slow since 10 s ago: 1 s behind the step, and the step still there.
        let ten_s_ago = super::super::sys::mono_ns() - 10_000_000_000;
        clock.run_from(ten_s_ago, -100_000).unwrap();
        let slow = read(&clock) + 3_600_000_000;
        assert!((-1_050_000..-990_000).contains(&slow), "{slow}");
        // Fast, and a rate from an instant still to come: true until then.
        clock.run_from(ten_s_ago, 50_000).unwrap();
        let fast = read(&clock) + 3_600_000_000;
        assert!((450_000..550_000).contains(&fast), "{fast}");
        clock
            .run_from(ten_s_ago + 20_000_000_000, -100_000)
            .unwrap();
        let not_yet = read(&clock) + 3_600_000_000;
        assert!(not_yet.abs() < 200_000, "{not_yet}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
