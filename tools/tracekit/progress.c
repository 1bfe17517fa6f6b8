// SPDX-License-Identifier: MIT
/*
 * The progress line of long work (convert, and print into a file or a pipe): on stderr,
 * rewritten at most four times a second, then replaced by a one-line summary.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

static double seconds_since(const struct timespec *t, const struct timespec *now)
{
	return (double) (now->tv_sec - t->tv_sec) + (double) (now->tv_nsec - t->tv_nsec) / 1e9;
}

/* Input bytes (or events) per second so far, in MiB (or events). */
static double rate(const struct cli_progress *p, const struct timespec *now)
{
	double s = seconds_since(&p->start, now);

	return s > 0 ? (double) p->done / s / (p->total ? 1048576.0 : 1.0) : 0;
}

void cli_progress_start(struct cli_progress *p, const char *doing, const char *done)
{
	*p = (struct cli_progress){.doing = doing, .did = done};
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

void cli_progress(uint64_t done, uint64_t total, void *payload)
{
	struct cli_progress *p = payload;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	p->done = done;
	p->total = total;
	if (p->shown && seconds_since(&p->last, &now) < 0.25)
		return;
	p->last = now;
	p->shown = 1;
	if (total)
		fprintf(stderr, "\rtracekit: %s: %3u%% (%.1f of %.1f MiB, %.1f MiB/s)  ", p->doing,
			(unsigned int) (done * 100 / total), (double) done / 1048576.0,
			(double) total / 1048576.0, rate(p, &now));
	else
		fprintf(stderr, "\rtracekit: %s: %" PRIu64 " events (%.0f events/s)  ", p->doing,
			done, rate(p, &now));
}

void cli_progress_end(struct cli_progress *p, int ok)
{
	struct timespec now;

	if (!ok) {
		if (p->shown)
			fputc('\n', stderr);
		return;
	}
	if (!p->shown && !p->done)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (p->total) {
		p->done = p->total;
		fprintf(stderr, "\rtracekit: %s %.1f MiB in %.2f s (%.1f MiB/s)\033[K\n", p->did,
			(double) p->total / 1048576.0, seconds_since(&p->start, &now),
			rate(p, &now));
	} else {
		fprintf(stderr, "\rtracekit: %s %" PRIu64 " events in %.2f s\033[K\n", p->did,
			p->done, seconds_since(&p->start, &now));
	}
}
