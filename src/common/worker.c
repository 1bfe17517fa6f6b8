// SPDX-License-Identifier: MIT
/* Starting and ending a background thread (worker.h). */
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
