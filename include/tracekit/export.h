/* SPDX-License-Identifier: MIT */
/*
 * Symbol visibility: libtracekit is built with hidden visibility, so only declarations marked
 * TK_EXPORT are part of the ABI. A test checks that every exported name starts with "tk_".
 */
#ifndef TRACEKIT_EXPORT_H
#define TRACEKIT_EXPORT_H

#if defined(TK_BUILDING_LIBRARY) && defined(__GNUC__)
#define TK_EXPORT __attribute__((visibility("default")))
#else
#define TK_EXPORT
#endif

#endif /* TRACEKIT_EXPORT_H */
