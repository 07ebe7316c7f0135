/*
 * wallclock.c — an LD_PRELOAD shim that moves one process's wall clock and nothing else.
 *
 * The conformance suite starts a redis-server (or a client agent) with this library preloaded and
 * LEASELAB_WALLCLOCK_FILE naming a file that holds a signed offset in microseconds ("0", "300000",
 * "-200000"). Every wall-clock read — clock_gettime(CLOCK_REALTIME*), gettimeofday, time — returns the
 * true time plus the offset the file holds at that moment; the suite steps the clock by replacing the
 * file (a rename, so a reader sees the old offset or the new one, never half of one). CLOCK_MONOTONIC
 * and every other clock pass through untouched, as an NTP step or an admin's `date` leaves them.
 *
 * Why not libfaketime: Debian's libfaketime resolves the real functions with dlsym on the first call,
 * and jemalloc (redis-server's allocator) reads the clock while dlsym allocates: the server hangs at
 * start. This shim resolves nothing: it asks the kernel directly (syscall), allocates nothing, and
 * keeps no state but the file's name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* The offset the file holds now, in µs (0 without a file, or when it cannot be read or parsed). */
static long long offset_us(void) {
  static const char *path;
  static int looked;
  if (!looked) {
    path = getenv("LEASELAB_WALLCLOCK_FILE"); /* getenv allocates nothing */
    looked = 1;
  }
  if (!path) return 0;
  int saved = errno;
  char buf[32];
  long n = -1;
  int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    n = syscall(SYS_read, fd, buf, sizeof buf - 1);
    syscall(SYS_close, fd);
  }
  errno = saved;
  if (n <= 0) return 0;
  long long v = 0;
  int i = 0, negative = 0;
  if (buf[0] == '-' || buf[0] == '+') negative = buf[i++] == '-';
  for (; i < n && buf[i] >= '0' && buf[i] <= '9'; i++) v = v * 10 + (buf[i] - '0');
  return negative ? -v : v;
}

static int is_wall(clockid_t clock) {
  return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE;
}

/* ts + offset, normalised. */
static void shift(struct timespec *ts, long long by_us) {
  long long ns = (long long)ts->tv_nsec + (by_us % 1000000) * 1000;
  long long s = (long long)ts->tv_sec + by_us / 1000000;
  while (ns < 0) { ns += 1000000000LL; s -= 1; }
  while (ns >= 1000000000LL) { ns -= 1000000000LL; s += 1; }
  ts->tv_sec = (time_t)s;
  ts->tv_nsec = (long)ns;
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
  int r = (int)syscall(SYS_clock_gettime, clock, ts);
  if (r == 0 && is_wall(clock)) shift(ts, offset_us());
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
