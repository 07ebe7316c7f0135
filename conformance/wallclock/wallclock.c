/*
 * wallclock.c — an LD_PRELOAD shim that moves one process's wall clock and nothing else.
 *
 * The conformance suite starts a redis-server (or a client agent) with this library preloaded and
 * LEASELAB_WALLCLOCK_FILE naming a file that holds up to three signed integers: an offset in
 * microseconds ("0", "300000", "-200000"), then optionally a rate in parts per million and the
 * CLOCK_MONOTONIC instant in nanoseconds the rate runs from ("-100000 123456789000"). Every wall-clock
 * read — clock_gettime(CLOCK_REALTIME*), gettimeofday, time — returns the true time plus the offset,
 * plus ⌊rate · (monotonic now − from) / 10⁶⌋ once the monotonic clock has passed `from` (the model's
 * clock: offset + τ + ⌊τ·rate⌋ + steps, τ counted from the scenario's t = 0, which is `from`). So a
 * rate of −100000 makes the process's wall clock run at 0.9 of true time from `from` on. The suite
 * steps the clock by replacing the file (a rename, so a reader sees the old values or the new ones,
 * never half of them). CLOCK_MONOTONIC and every other clock pass through untouched, as an NTP step or
 * an admin's `date` leaves them (the rate is the wall clock's: a drifting oscillator also moves the
 * monotonic clock, but no row reads a process's monotonic clock to judge time, see wallclock.rs).
 *
 * Why not libfaketime: Debian's libfaketime resolves the real functions with dlsym on the first call,
 * and jemalloc (redis-server's allocator) reads the clock while dlsym allocates: the server hangs at
 * start. This shim resolves nothing: it asks the kernel directly (syscall), allocates nothing, and
 * keeps no state but the file's name. (libfaketime's own rate, FAKETIME="x0.9", would be the same hang.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* Reads the next signed decimal integer of buf[*i..n) into *v; 0 when there is none. */
static int next_int(const char *buf, long n, long *i, long long *v) {
  while (*i < n && buf[*i] == ' ') (*i)++;
  int negative = 0;
  if (*i < n && (buf[*i] == '-' || buf[*i] == '+')) negative = buf[(*i)++] == '-';
  if (*i >= n || buf[*i] < '0' || buf[*i] > '9') return 0;
  long long x = 0;
  for (; *i < n && buf[*i] >= '0' && buf[*i] <= '9'; (*i)++) x = x * 10 + (buf[*i] - '0');
  *v = negative ? -x : x;
  return 1;
}

/* How far the wall clock is from true time now, in ns: the file's offset plus the drift of its rate
 * since its instant (0 without a file, or when it cannot be read or parsed). */
static long long shift_ns(void) {
  static const char *path;
  static int looked;
  if (!looked) {
    path = getenv("LEASELAB_WALLCLOCK_FILE"); /* getenv allocates nothing */
    looked = 1;
  }
  if (!path) return 0;
  int saved = errno;
  char buf[96];
  long n = -1;
  int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    n = syscall(SYS_read, fd, buf, sizeof buf - 1);
    syscall(SYS_close, fd);
  }
  long long offset_us = 0, rate_ppm = 0, from_ns = 0, drift_ns = 0;
  long i = 0;
  if (n > 0 && next_int(buf, n, &i, &offset_us) && next_int(buf, n, &i, &rate_ppm) &&
      next_int(buf, n, &i, &from_ns) && rate_ppm != 0) {
    struct timespec mono;
    if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &mono) == 0) {
      long long since = (long long)mono.tv_sec * 1000000000LL + mono.tv_nsec - from_ns;
      /* |since| stays far under 10^12 ns (a run lasts a minute) and |rate| ≤ 5·10^5: no overflow.
       * Floored, as the model floors its drift, also when slow. */
      long long p = since > 0 ? since * rate_ppm : 0;
      drift_ns = p / 1000000 - (p % 1000000 < 0);
    }
  }
  errno = saved;
  return offset_us * 1000 + drift_ns;
}

static int is_wall(clockid_t clock) {
  return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE;
}

/* ts + by, normalised. */
static void shift(struct timespec *ts, long long by_ns) {
  long long ns = (long long)ts->tv_nsec + by_ns % 1000000000LL;
  long long s = (long long)ts->tv_sec + by_ns / 1000000000LL;
  while (ns < 0) { ns += 1000000000LL; s -= 1; }
  while (ns >= 1000000000LL) { ns -= 1000000000LL; s += 1; }
  ts->tv_sec = (time_t)s;
  ts->tv_nsec = (long)ns;
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
  int r = (int)syscall(SYS_clock_gettime, clock, ts);
  if (r == 0 && is_wall(clock)) shift(ts, shift_ns());
  return r;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return -1;
  tv->tv_sec = ts.tv_sec; /* glibc declares tv nonnull */
  tv->tv_usec = ts.tv_nsec / 1000;
  if (tz) {
    struct timezone *z = tz;
    z->tz_minuteswest = 0;
    z->tz_dsttime = 0;
  }
  return 0;
}

time_t time(time_t *t) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
  if (t) *t = ts.tv_sec;
  return ts.tv_sec;
}
