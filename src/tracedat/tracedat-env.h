/* SPDX-License-Identifier: MIT */
/*
 * The ftrace metadata a CTF trace converted from a trace.dat file keeps in its environment,
 * so that it can be turned back into the same trace.dat file (tracedat-env.c has the
 * keys; doc/format-tracedat.md section 9 explains them to users).
 *
 *	trace.dat -> CTF (the trace.dat reader's export_env, which the CTF sink calls once
 *	the events are written):
 *		st = convert_env_host(&out, in);
 *		st = convert_env_write(&out, src, sc_of_buffer, n_buffers, used, n_used);
 *	CTF -> trace.dat (tracedat-sink.c):
 *		struct convert_env e;
 *		st = convert_env_read(&e, src->env, src->n_env);
 *		if (st >= 0 && e.present) ... e.header_page, e.formats, e.options ...
 *		convert_env_fini(&e);
 */
#ifndef TK_TRACEDAT_ENV_H
#define TK_TRACEDAT_ENV_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/tracekit.h>

#include "../common/arena.h"
#include "../common/bytes.h"
#include "../model/model.h"
#include "tracedat.h"

/* Version of the layout below, the value of the `tracekit_ftrace` key. */
#define CONVERT_ENV_VERSION 1

/* Texts longer than this are kept in several entries (see tracedat-env.c). */
#define CONVERT_ENV_PART_MAX 16384

struct convert_env_text {
	const char *data; /* NUL-terminated too; "" when absent */
	size_t len;
};

/* One event `format` file: ftrace_event_<id>_system and ftrace_event_<id>_format. */
struct convert_env_format {
	uint32_t id;
	const char *system; /* "ftrace" for ftrace's own events */
	struct convert_env_text text;
};

/* One trace.dat option to write back as it was (ftrace_option_<n>). */
struct convert_env_option {
	uint16_t id;
	const uint8_t *data;
	uint32_t size;
};

/* One ring buffer of the original file (ftrace_buffer_<k>_...), in file order. */
struct convert_env_buffer {
	const char *name;  /* "" for the top buffer */
	const char *clock; /* its trace clock, or NULL when unknown */
	int has_sc;	   /* its events are in the CTF stream class sc_id */
	uint64_t sc_id;
};

struct convert_env {
	struct arena arena; /* everything below that is not borrowed from the environment */
	int present;	    /* the environment has `tracekit_ftrace`: everything below is set */
	unsigned int file_version;
	const char *compression; /* "none", "zstd", "zlib" (or another name, refused later) */
	enum tk_byte_order bo;
	unsigned int long_size; /* the trace.dat header's long size byte: 4 or 8 */
	uint32_t page_size;
	uint32_t cpus;
	struct convert_env_text header_page, header_event, trace_clock;
	struct convert_env_text kallsyms, printk, cmdlines;
	struct convert_env_format *formats; /* sorted by id, ids unique */
	size_t n_formats;
	struct convert_env_option *options; /* in the order of their numbers */
	size_t n_options;
	struct convert_env_buffer *buffers;
	size_t n_buffers;
};

/*
 * The host and kernel of @in, as LTTng names them in a kernel trace's environment: domain
 * "kernel", tracer_name "tracekit", and hostname, sysname and kernel_release from the UNAME
 * option. A status of @w's.
 */
enum tk_status convert_env_host(const struct model_env_out *w, const struct tracedat_info *in);

/*
 * Put in @w (the environment of the CTF trace being written) what turns it back into the
 * trace.dat file of @src, a trace.dat source (nothing for another): the file's header values,
 * metadata texts, options and buffers, and the `format` text of each of the source's event
 * classes @used marks as written (@used[ec->index] non-zero, @n_used entries; NULL: every
 * class). @sc_of_buffer[b] is the CTF stream class of buffer b (UINT64_MAX when none
 * was made), @n_buffers entries. TK_ERR_NOMEM, or a status of @w's.
 */
/*
 * The `format` text of event @id of @system ("ftrace" for ftrace's own events) as file @in
 * holds it, or NULL.
 */
const struct tracedat_blob *tracedat_format_text(const struct tracedat_info *in, const char *system,
						 uint32_t id);

enum tk_status convert_env_write(const struct model_env_out *w, const struct tk_source *src,
				 const uint64_t *sc_of_buffer, size_t n_buffers,
				 const uint8_t *used, size_t n_used);

/*
 * Read the environment @env (@n entries, as a CTF source has them) into @out, which the
 * caller releases with convert_env_fini() whatever the result. Without `tracekit_ftrace`
 * it returns TK_OK with out->present 0. A value of the wrong type, out of range or that does
 * not parse, a missing part or key, is TK_ERR_FORMAT with a cause naming the key; a later
 * layout version is TK_ERR_UNSUPPORTED. The metadata texts themselves (formats, header_page)
 * are not parsed here. Texts borrow from @env or live in out->arena.
 */
enum tk_status convert_env_read(struct convert_env *out, const struct model_env *env, size_t n);

void convert_env_fini(struct convert_env *e);

#endif /* TK_TRACEDAT_ENV_H */
