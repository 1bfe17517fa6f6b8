// SPDX-License-Identifier: MIT
/* What every path of a conversion shares (sink.h): the caller's warnings and stop flag. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "../common/error.h"
#include "sink.h"

void sink_warn(const struct sink_ctx *f, const char *fmt, ...)
{
	const struct tk_convert_opts *o = f->o;
	char text[512];
	va_list ap;

	if (o->size < offsetof(struct tk_convert_opts, warning_payload) + sizeof(void *) ||
	    !o->warning)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	o->warning(text, o->warning_payload);
}

enum tk_status sink_stopped(const volatile sig_atomic_t *stop)
{
	if (!stop || !*stop)
		return TK_OK;
	return TK_FAIL(TK_ERR_CANCELED, "Cannot go on: reason=stopped by the caller");
}
