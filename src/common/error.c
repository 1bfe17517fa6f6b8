// SPDX-License-Identifier: MIT
/*
 * The error chain: a fixed array of causes per thread. Causes are pushed innermost first
 * (where the failure was detected) and read outermost first, the order a user wants to read
 * them in. When the array is full the outermost causes are counted, not stored.
 */
#include <stdio.h>
#include <string.h>

#include "error.h"

#define ERROR_MAX_CAUSES 16
#define ERROR_MAX_TEXT	 384

struct error_cause {
	enum tk_status status;
	char text[ERROR_MAX_TEXT];
};

struct error_chain {
	size_t count;
	size_t dropped;
	struct error_cause causes[ERROR_MAX_CAUSES];
};

static _Thread_local struct error_chain chain;

enum tk_status error_push(enum tk_status status, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	(void) file;
	(void) line;
	if (chain.count == ERROR_MAX_CAUSES) {
		chain.dropped++;
		return status;
	}
	va_start(ap, fmt);
	vsnprintf(chain.causes[chain.count].text, ERROR_MAX_TEXT, fmt, ap);
	va_end(ap);
	/* one line per cause, whatever a damaged file put in the names it quotes */
	for (char *c = chain.causes[chain.count].text; *c; c++)
		if ((unsigned char) *c < 0x20 || *c == 0x7f)
			*c = '?';
	chain.causes[chain.count].status = status;
	chain.count++;
	return status;
}

void error_reset(void)
{
	/* called once per event by tk_iter_next(): no store when there is nothing to clear */
	if (chain.count | chain.dropped) {
		chain.count = 0;
		chain.dropped = 0;
	}
}

size_t error_depth(void)
{
	return chain.count + chain.dropped;
}

void error_truncate(size_t depth)
{
	if (depth <= chain.count) {
		chain.count = depth;
		chain.dropped = 0;
	} else if (depth - chain.count < chain.dropped) {
		chain.dropped = depth - chain.count;
	}
}

size_t error_format(size_t depth, char *buf, size_t size)
{
	size_t len = 0, i, n;

	if (size)
		buf[0] = '\0';
	if (depth >= chain.count)
		return 0;
	/* causes[chain.count - 1] is the outermost one */
	for (i = chain.count; i-- > depth;) {
		const char *text = chain.causes[i].text;

		n = strlen(text) + (len ? 2 : 0);
		if (size && len < size - 1)
			snprintf(buf + len, size - len, "%s%s", len ? ": " : "", text);
		len += n;
	}
	return len;
}

void tk_error_clear(void)
{
	error_reset();
}

size_t tk_error_count(void)
{
	return chain.count;
}

size_t tk_error_dropped(void)
{
	return chain.dropped;
}

const char *tk_error_cause(size_t index)
{
	if (index >= chain.count)
		return NULL;
	return chain.causes[chain.count - 1 - index].text;
}

const char *tk_status_str(enum tk_status status)
{
	switch (status) {
	case TK_OK:
		return "TK_OK";
	case TK_END:
		return "TK_END";
	case TK_AGAIN:
		return "TK_AGAIN";
	case TK_ERR_NOMEM:
		return "TK_ERR_NOMEM";
	case TK_ERR_IO:
		return "TK_ERR_IO";
	case TK_ERR_FORMAT:
		return "TK_ERR_FORMAT";
	case TK_ERR_UNSUPPORTED:
		return "TK_ERR_UNSUPPORTED";
	case TK_ERR_INVAL:
		return "TK_ERR_INVAL";
	case TK_ERR_NOTFOUND:
		return "TK_ERR_NOTFOUND";
	case TK_ERR_CANCELED:
		return "TK_ERR_CANCELED";
	}
	return "TK_UNKNOWN";
}
