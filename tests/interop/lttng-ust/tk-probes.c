/* SPDX-License-Identifier: MIT */
/*
 * Instantiates the "tracekit_interop" probes declared in tk-probes.h: with
 * LTTNG_UST_TRACEPOINT_CREATE_PROBES set, <lttng/tracepoint-event.h> expands every declaration
 * into the serialisation code and the event descriptions LTTng-UST registers at load time.
 * Linked straight into tk-app by tests/interop/lttng-ust.sh, so no preload is needed.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE

#include "tk-probes.h"
