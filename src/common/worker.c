// SPDX-License-Identifier: MIT
/* Starting and ending a background thread (worker.h). */
#include <stdlib.h>

#include "worker.h"

int worker_start(struct worker *wk, void *(*fn)(void *), void *arg)
{
	if (pthread_mutex_init(&wk->lock, NULL))
		return -1;
	if (pthread_cond_init(&wk->cond, NULL)) {
		pthread_mutex_destroy(&wk->lock);
		return -1;
	}
	if (pthread_create(&wk->thread, NULL, fn, arg)) {
		pthread_cond_destroy(&wk->cond);
		pthread_mutex_destroy(&wk->lock);
		return -1;
	}
	return 0;
}

void worker_stop(struct worker *wk, int *stop)
{
	pthread_mutex_lock(&wk->lock);
	*stop = 1;
	pthread_cond_broadcast(&wk->cond);
	pthread_mutex_unlock(&wk->lock);
	pthread_join(wk->thread, NULL);
	pthread_cond_destroy(&wk->cond);
	pthread_mutex_destroy(&wk->lock);
}

struct lane_thread {
	struct worker wk;
	void (*run)(void *lane);
	void *lane;
	int started;
	int stop; /* set by worker_stop(): the lane ends by itself */
};

static void *lane_main(void *arg)
{
	struct lane_thread *t = arg;

	t->run(t->lane);
	return NULL;
}

void worker_run_lanes(void *lanes, size_t size, size_t n, void (*run)(void *lane))
{
	struct lane_thread *ts = n > 1 ? calloc(n - 1, sizeof(*ts)) : NULL;
	size_t i;

	for (i = 1; ts && i < n; i++) {
		ts[i - 1].run = run;
		ts[i - 1].lane = (char *) lanes + i * size;
		ts[i - 1].started = !worker_start(&ts[i - 1].wk, lane_main, &ts[i - 1]);
	}
	run(lanes);
	for (i = 1; ts && i < n; i++)
		if (ts[i - 1].started)
			worker_stop(&ts[i - 1].wk, &ts[i - 1].stop);
	free(ts);
}
