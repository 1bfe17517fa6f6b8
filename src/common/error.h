/* SPDX-License-Identifier: MIT */
/*
 * The per-thread error chain behind enum tk_status (include/tracekit/status.h).
 *
 * A failing function records one cause and returns its status in one expression:
 *
 *	if (len > size - off)
 *		return TK_FAIL(TK_ERR_FORMAT, "Cannot read string: offset=%zu", off);
 *
 * Callers add their own context on the way out with TK_FAIL(st, ...) again. The chain has a
 * fixed size and never allocates, so it works for TK_ERR_NOMEM too.
 */
#ifndef TK_COMMON_ERROR_H
#define TK_COMMON_ERROR_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <tracekit/status.h>

#if defined(__GNUC__)
#define TK_PRINTF(a, b)	 __attribute__((format(printf, a, b)))
#define TK_LIKELY(x)	 __builtin_expect(!!(x), 1)
#define TK_UNLIKELY(x)	 __builtin_expect(!!(x), 0)
#define TK_NOINLINE	 __attribute__((noinline))
#define TK_COLD		 __attribute__((cold))
#define TK_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define TK_PRINTF(a, b)
#define TK_LIKELY(x)   (x)
#define TK_UNLIKELY(x) (x)
#define TK_NOINLINE
#define TK_COLD
#define TK_ALWAYS_INLINE inline
#endif

#define TK_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Record a cause and return @status (which must be negative). */
#define TK_FAIL(status, ...) error_push((status), __FILE__, __LINE__, __VA_ARGS__)

TK_COLD enum tk_status error_push(enum tk_status status, const char *file, int line,
				  const char *fmt, ...) TK_PRINTF(4, 5);

/* Start a new chain (public entry points call this first). */
void error_reset(void);

/* The number of causes recorded (stored or dropped), for error_truncate(). */
size_t error_depth(void);

/* Forget the causes recorded after error_depth() returned @depth (a failure handled inside). */
void error_truncate(size_t depth);

/*
 * The causes recorded after error_depth() returned @depth, outermost first and joined by ": ",
 * as one line in @buf (@size bytes, NUL-terminated when @size > 0). A failure read past and
 * reported as a warning keeps its whole story this way before error_truncate() drops it.
 *
 *	n = error_format(depth, NULL, 0);
 *	text = arena_alloc(a, n + 1);
 *	if (text)
 *		error_format(depth, text, n + 1);
 *
 * Return: the length of the whole line, which may be more than @size - 1 (as snprintf).
 */
size_t error_format(size_t depth, char *buf, size_t size);

/*
 * Misuse of the API is a bug, not bad input: debug builds abort with the condition, release
 * builds record a cause and make the function return TK_ERR_INVAL.
 */
#ifndef NDEBUG
#define TK_ASSERT_PRE(cond)                                                                        \
	do {                                                                                       \
		if (TK_UNLIKELY(!(cond))) {                                                        \
			fprintf(stderr, "%s:%d: precondition failed: %s\n", __FILE__, __LINE__,    \
				#cond);                                                            \
			abort();                                                                   \
		}                                                                                  \
	} while (0)
#else
#define TK_ASSERT_PRE(cond)                                                                        \
	do {                                                                                       \
		if (TK_UNLIKELY(!(cond)))                                                          \
			return TK_FAIL(TK_ERR_INVAL, "Cannot call function: precondition=%s",      \
				       #cond);                                                     \
	} while (0)
#endif

#endif /* TK_COMMON_ERROR_H */
