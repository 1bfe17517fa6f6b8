/* SPDX-License-Identifier: MIT */
/*
 * libtracekit: read Linux trace formats. Including this header gives the whole public API.
 */
#ifndef TRACEKIT_TRACEKIT_H
#define TRACEKIT_TRACEKIT_H

#include <tracekit/export.h>
#include <tracekit/status.h>
#include <tracekit/trace.h>
#include <tracekit/iter.h>
#include <tracekit/field.h>
#include <tracekit/print.h>
#include <tracekit/record.h>
#include <tracekit/ctf-writer.h>
#include <tracekit/convert.h>
#include <tracekit/filter.h>
#include <tracekit/ust-recover.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * tk_version() - Version of the library.
 *
 * Return: A static string such as "0.1.0".
 * Ownership: Static; never free it.
 */
TK_EXPORT const char *tk_version(void);

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_TRACEKIT_H */
