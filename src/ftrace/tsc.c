// SPDX-License-Identifier: MIT
/*
 * The x86-tsc trace clock in nanoseconds (tsc.h). The kernel stamps such a recording with the
 * raw counter, so the file must say how to scale it: trace-cmd 3.x asks the kernel, through
 * the first page of a perf event mapped in (time_mult and time_shift, valid when
 * cap_user_time is set), and stores them as the TSC2NSEC option with an offset of 0, which
 * its readers ignore. The kernel fills them only when its sched_clock is the native TSC one:
 * a KVM guest whose sched_clock is kvm-clock gets none, even with the TSC as clocksource, and
 * trace-cmd then refuses. Here the frequency is measured instead in that case, against
 * CLOCK_MONOTONIC_RAW, which the kernel computes from the same counter when its clocksource
 * is the TSC, so the two agree to the jitter of the readings.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/error.h"
#include "tsc.h"

__extension__ typedef unsigned __int128 tsc_u128;

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_TSC 1
static uint64_t rdtsc(void)
{
	return __builtin_ia32_rdtsc();
}
#else
#define HAVE_TSC 0
static uint64_t rdtsc(void)
{
	return 0;
}
#endif

static uint64_t convert(const struct ftrace_tsc *tsc, uint64_t cycles)
{
	return (uint64_t) (((tsc_u128) cycles * tsc->mult) >> tsc->shift);
}

uint64_t ftrace_tsc_now_ns(const struct ftrace_tsc *tsc)
{
	return convert(tsc, rdtsc());
}

/* One CPU's time_mult and time_shift from a perf event of this process; -1 when none. */
static int perf_conversion(int cpu, uint32_t *mult, uint32_t *shift)
{
	struct perf_event_attr a;
	struct perf_event_mmap_page *pg;
	long page = sysconf(_SC_PAGESIZE);
	int fd, ok;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	fd = (int) syscall(SYS_perf_event_open, &a, 0, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno == ENODEV ? 1 : -1; /* an offline CPU is skipped */
	pg = mmap(NULL, (size_t) page, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (pg == MAP_FAILED)
		return -1;
	ok = pg->cap_user_time && pg->time_mult && pg->time_shift <= 32;
	*mult = pg->time_mult;
	*shift = pg->time_shift;
	munmap(pg, (size_t) page);
	return ok ? 0 : -1;
}

/* The kernel's conversion, the same on every online CPU; -1 when it gives none. */
static int from_perf(struct ftrace_tsc *out)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	uint32_t mult, shift;
	int found = 0;

	for (long cpu = 0; cpu < n; cpu++) {
		int r = perf_conversion((int) cpu, &mult, &shift);

		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		if (found && (mult != out->mult || shift != out->shift))
			return -1;
		out->mult = mult;
		out->shift = shift;
		found = 1;
	}
	return found ? 0 : -1;
}

static int clocksource_is_tsc(void)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
	char buf[32] = "";
	int yes;

	if (!f)
		return 0;
	yes = fgets(buf, sizeof(buf), f) && !strcmp(buf, "tsc\n");
	fclose(f);
	return yes;
}

/* CLOCK_MONOTONIC_RAW and the TSC read together: of five brackets, the tightest. */
static void raw_pair(uint64_t *cycles, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	*cycles = *ns = 0; /* set by the first reading; said for the compiler */
	for (int i = 0; i < 5; i++) {
		struct timespec ts;
		uint64_t c1 = rdtsc(), c2;

		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		c2 = rdtsc();
		if (c2 - c1 < best) {
			best = c2 - c1;
			*cycles = c1 + (c2 - c1) / 2;
			*ns = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
		}
	}
}

/*
 * ns per cycle over 100 ms, as mult / 2^shift with the largest shift up to 32 that keeps mult
 * in 32 bits (the most precise ratio trace-cmd's reader can take).
 */
static void measure(struct ftrace_tsc *out)
{
	struct timespec pause = {0, 100 * 1000 * 1000};
	uint64_t c0, n0, c1, n1, dc, dn;
	tsc_u128 m;

	raw_pair(&c0, &n0);
	while (nanosleep(&pause, &pause) < 0 && errno == EINTR)
		;
	raw_pair(&c1, &n1);
	dc = c1 - c0;
	dn = n1 - n0;
	out->shift = 32;
	for (;;) {
		m = (((tsc_u128) dn << out->shift) + dc / 2) / dc;
		if (m <= UINT32_MAX || !out->shift)
			break;
		out->shift--;
	}
	out->mult = (uint32_t) m;
	out->measured = 1;
}

enum tk_status ftrace_tsc_probe(struct ftrace_tsc *out)
{
	memset(out, 0, sizeof(*out));
	if (!HAVE_TSC)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot use the x86-tsc clock: reason=not an x86 machine");
	if (from_perf(out) == 0)
		return TK_OK;
	if (!clocksource_is_tsc())
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot use the x86-tsc clock: reason=the kernel gives no TSC to "
			       "nanosecond conversion (perf) and its clocksource is not the TSC");
	measure(out);
	if (!out->mult)
		return TK_FAIL(TK_ERR_UNSUPPORTED,
			       "Cannot use the x86-tsc clock: reason=the TSC does not advance");
	return TK_OK;
}

int64_t ftrace_tsc_realtime_offset(const struct ftrace_tsc *tsc)
{
	int64_t best = 0;
	uint64_t best_gap = UINT64_MAX;

	for (int i = 0; i < 3; i++) {
		struct timespec r;
		uint64_t c1 = rdtsc(), c2;
		int64_t real;

		clock_gettime(CLOCK_REALTIME, &r);
		c2 = rdtsc();
		real = (int64_t) r.tv_sec * 1000000000 + r.tv_nsec;
		if (c2 - c1 < best_gap) {
			best_gap = c2 - c1;
			best = real - (int64_t) convert(tsc, c1 + (c2 - c1) / 2);
		}
	}
	return best - best % 1000;
}
