//! The few system calls a run's processes need that std does not offer, each behind a safe function:
//! CLOCK_MONOTONIC (the clock every process of the run shares), signals to a process group, a look at
//! whether a child has exited without reaping it, and PR_SET_PDEATHSIG. The only `unsafe` in the suite
//! (the workspace denies it; this module allows it for these calls, which touch no Rust memory beyond
//! the structs they are given).
#![allow(unsafe_code)]

/// CLOCK_MONOTONIC in ns (`Instant`'s own clock on Linux, the same in every process).
pub fn mono_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Sends `sig` to the process group `pgid`; false if there is no such group.
pub fn signal_group(pgid: i32, sig: i32) -> bool {
    // SAFETY: kill(2) takes two integers.
    unsafe { libc::kill(-pgid, sig) == 0 }
}

/// Whether the child `pid` has exited, without reaping it (its pid, and so its group id, stays
/// reserved until it is waited for).
pub fn has_exited(pid: i32) -> bool {
    // SAFETY: waitid writes the siginfo it is given (zeroed first, as waitid(2) advises for WNOHANG);
    // WNOWAIT leaves the child waitable.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        r == 0 && info.si_pid() != 0
    }
}

/// Dies with the parent: the kernel sends SIGKILL when the thread that started this process ends
/// (even while this one is stopped), so no agent outlives a killed suite.
pub fn die_with_parent() {
    // SAFETY: prctl(PR_SET_PDEATHSIG) takes a signal number; getppid and _exit take nothing.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::getppid() == 1 {
            libc::_exit(1); // the parent was gone before the line above
        }
    }
}
