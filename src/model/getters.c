// SPDX-License-Identifier: MIT
/*
 * Public accessors of the trace model (include/tracekit/trace.h and iter.h). They only read
 * fields, so they live apart from the code that builds the model.
 */
#include "../common/error.h"
#include "model.h"

size_t tk_trace_get_source_count(const struct tk_trace *trace)
{
	return trace->n_sources;
}

const struct tk_source *tk_trace_get_source(const struct tk_trace *trace, size_t index)
{
	return index < trace->n_sources ? trace->sources[index] : NULL;
}

size_t tk_trace_get_event_class_count(const struct tk_trace *trace)
{
	return trace->n_ecs;
}

const struct tk_event_class *tk_trace_get_event_class(const struct tk_trace *trace, size_t index)
{
	return index < trace->n_ecs ? trace->ecs[index] : NULL;
}

size_t tk_trace_get_stream_count(const struct tk_trace *trace)
{
	return trace->n_streams;
}

const struct tk_stream *tk_trace_get_stream(const struct tk_trace *trace, size_t index)
{
	return index < trace->n_streams ? trace->streams[index] : NULL;
}

const char *tk_source_get_path(const struct tk_source *source)
{
	return source->path;
}

const char *tk_source_get_name(const struct tk_source *source)
{
	return source->name;
}

const char *tk_source_get_format(const struct tk_source *source)
{
	return source->format;
}

const uint8_t *tk_source_get_uuid(const struct tk_source *source)
{
	return source->has_uuid ? source->uuid : NULL;
}

size_t tk_source_get_env_count(const struct tk_source *source)
{
	return source->n_env;
}

enum tk_status tk_source_get_env(const struct tk_source *source, size_t index, const char **key,
				 const char **str, int64_t *integer)
{
	if (index >= source->n_env)
		return TK_FAIL(TK_ERR_INVAL, "Cannot get environment entry: index=%zu, count=%zu",
			       index, source->n_env);
	*key = source->env[index].key;
	*str = source->env[index].str;
	*integer = source->env[index].integer;
	return TK_OK;
}

size_t tk_source_get_clock_count(const struct tk_source *source)
{
	return source->n_clocks;
}

const struct tk_clock *tk_source_get_clock(const struct tk_source *source, size_t index)
{
	return index < source->n_clocks ? source->clocks[index] : NULL;
}

const char *tk_clock_get_name(const struct tk_clock *clock)
{
	return clock->name;
}

uint64_t tk_clock_get_frequency(const struct tk_clock *clock)
{
	return clock->freq;
}

void tk_clock_get_offset(const struct tk_clock *clock, int64_t *seconds, uint64_t *cycles)
{
	*seconds = clock->offset_s;
	*cycles = clock->offset_cycles;
}

int tk_clock_is_absolute(const struct tk_clock *clock)
{
	return clock->absolute;
}

const char *tk_stream_get_path(const struct tk_stream *stream)
{
	return stream->path;
}

uint64_t tk_stream_get_id(const struct tk_stream *stream)
{
	return stream->id;
}

uint64_t tk_stream_get_class_id(const struct tk_stream *stream)
{
	return stream->sc->id;
}

const struct tk_source *tk_stream_get_source(const struct tk_stream *stream)
{
	return stream->source;
}

size_t tk_stream_get_index(const struct tk_stream *stream)
{
	return stream->index;
}

const char *tk_event_class_get_name(const struct tk_event_class *ec)
{
	return ec->name;
}

uint64_t tk_event_class_get_id(const struct tk_event_class *ec)
{
	return ec->id;
}

uint64_t tk_event_class_get_stream_class_id(const struct tk_event_class *ec)
{
	return ec->sc->id;
}

const struct tk_source *tk_event_class_get_source(const struct tk_event_class *ec)
{
	return ec->sc->source;
}

size_t tk_event_class_get_index(const struct tk_event_class *ec)
{
	return ec->index;
}

const struct tk_event_class *tk_event_get_class(const struct tk_event *ev)
{
	return ev->ec;
}

const struct tk_stream *tk_event_get_stream(const struct tk_event *ev)
{
	return ev->stream;
}

int tk_event_has_timestamp(const struct tk_event *ev)
{
	return ev->has_ts;
}

int64_t tk_event_get_timestamp(const struct tk_event *ev)
{
	return ev->ns;
}

int64_t tk_event_get_lost_before(const struct tk_event *ev)
{
	return ev->missed;
}

int tk_event_get_cpu(const struct tk_event *ev)
{
	return ev->cpu;
}

uint64_t tk_event_get_clock_value(const struct tk_event *ev)
{
	return ev->cycles;
}

enum tk_notice_kind tk_notice_get_kind(const struct tk_notice *notice)
{
	return notice->kind;
}

uint64_t tk_notice_get_count(const struct tk_notice *notice)
{
	return notice->count;
}

const struct tk_stream *tk_notice_get_stream(const struct tk_notice *notice)
{
	return notice->stream;
}

int tk_notice_get_range(const struct tk_notice *notice, int64_t *begin, int64_t *end)
{
	if (!notice->has_range)
		return 0;
	*begin = notice->begin_ns;
	*end = notice->end_ns;
	return 1;
}
