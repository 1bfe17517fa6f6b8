/* SPDX-License-Identifier: MIT */
/* The peak resident memory of the test programs that measure it (ust-threads, ust-churn). */
#ifndef UST_RSS_H
#define UST_RSS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define UST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UST_SANITIZED 1
#endif
#endif

/* VmHWM of /proc/self/status in KiB, or -1 (also in sanitizer builds: theirs, not ours) */
static inline long peak_rss_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f;

#ifdef UST_SANITIZED
	return -1;
#endif
	f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "VmHWM:", 6) == 0)
			kib = strtol(line + 6, NULL, 10);
	fclose(f);
	return kib;
}

#endif /* UST_RSS_H */
