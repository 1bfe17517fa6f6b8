/* SPDX-License-Identifier: MIT */
/*
 * Status codes and the error chain shared by every libtracekit call.
 *
 * Every fallible function returns enum tk_status: 0 is success, positive values are outcomes
 * that are not failures (TK_END), negative values are errors. When a call fails, each layer it
 * went through adds one cause ("Cannot read packet: stream=2, index=7") to a per-thread chain,
 * which the caller reads with tk_error_count() and tk_error_cause().
 */
#ifndef TRACEKIT_STATUS_H
#define TRACEKIT_STATUS_H

#include <stddef.h>

#include <tracekit/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum tk_status - Result of a libtracekit call.
 * @TK_OK:              Success.
 * @TK_END:             No more items (end of an iteration); not an error.
 * @TK_AGAIN:           Nothing now, try again later; not an error.
 * @TK_ERR_NOMEM:       Out of memory.
 * @TK_ERR_IO:          A system call failed (errno is in the cause).
 * @TK_ERR_FORMAT:      The input does not follow its format.
 * @TK_ERR_UNSUPPORTED: The input uses a feature tracekit does not handle.
 * @TK_ERR_INVAL:       Invalid argument or call sequence (a caller bug).
 * @TK_ERR_NOTFOUND:    A named thing (file, trace, field) does not exist.
 * @TK_ERR_CANCELED:    The caller asked the call to stop (tk_convert_opts.stop).
 */
enum tk_status {
	TK_OK = 0,
	TK_END = 1,
	TK_AGAIN = 2,
	TK_ERR_NOMEM = -1,
	TK_ERR_IO = -2,
	TK_ERR_FORMAT = -3,
	TK_ERR_UNSUPPORTED = -4,
	TK_ERR_INVAL = -5,
	TK_ERR_NOTFOUND = -6,
	TK_ERR_CANCELED = -7,
};

/**
 * tk_status_str() - Name a status.
 * @status: Any status value.
 *
 * Return: A static string such as "TK_ERR_FORMAT", or "TK_UNKNOWN" for other values.
 * Ownership: The string is static; never free it.
 */
TK_EXPORT const char *tk_status_str(enum tk_status status);

/**
 * tk_error_count() - Number of causes recorded by the last failing call of this thread.
 *
 * Return: The number of causes that can be read with tk_error_cause().
 * Ownership: None.
 */
TK_EXPORT size_t tk_error_count(void);

/**
 * tk_error_cause() - One cause of the last failure of this thread.
 * @index: 0 for the outermost cause (what the caller asked for), up to tk_error_count() - 1 for
 *         the innermost one (where the failure was detected).
 *
 * Return: The cause text, "Cannot X: key=value, ..." with no final newline, or NULL when @index
 * is out of range.
 * Ownership: Borrowed from thread-local storage, valid until the next libtracekit call on this
 * thread.
 */
TK_EXPORT const char *tk_error_cause(size_t index);

/**
 * tk_error_dropped() - Causes that did not fit in the fixed-size chain.
 *
 * Return: How many causes were counted but not stored (the innermost ones are kept).
 * Ownership: None.
 */
TK_EXPORT size_t tk_error_dropped(void);

/**
 * tk_error_clear() - Forget the causes recorded on this thread.
 *
 * Public entry points call it themselves; callers rarely need to.
 * Return: Nothing.
 * Ownership: None.
 */
TK_EXPORT void tk_error_clear(void);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_STATUS_H */
