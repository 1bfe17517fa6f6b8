/* SPDX-License-Identifier: MIT */
/*
 * user_events: tracepoints that a user-space program registers and writes itself, through
 * tracefs's user_events_data file (Linux 6.4 and later with CONFIG_USER_EVENTS; the kernel's
 * Documentation/trace/user_events.rst). A program registers each tracepoint with a
 * description of its fields and the address of a 32-bit or 64-bit word; the kernel sets one
 * bit of that word while some tracer (perf, ftrace) records the tracepoint and clears it when
 * none does, so the program tests the bit before building an event. An event is written with
 * writev(2) on the same descriptor: the tracepoint's write index (a u32 the registration
 * returned) first, then the fields' bytes.
 *
 *	int fd;
 *	uint32_t enabled = 0, index;
 *	st = user_events_open(&fd);
 *	st = user_events_register(fd, "P_L5K1 u8 eventheader_flags; ...", &enabled,
 *				  sizeof(enabled), 0, &index);
 *	if (enabled & 1) writev(fd, {&index, 4}, {event, n});
 *	st = user_events_unregister(fd, &enabled, 0);
 *
 * Registrations survive fork() (the child must unregister what it does not want) and end at
 * execve() and when the descriptor is closed. The structures passed to the kernel are
 * declared here from the documented ABI, so this builds against any kernel headers.
 */
#ifndef TK_FTRACE_USER_EVENTS_H
#define TK_FTRACE_USER_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include <tracekit/status.h>

/*
 * Open user_events_data of the mounted tracefs (never mounting it: tracefs_mounted()), write
 * only, close-on-exec, into *@out.
 * Return: TK_OK; TK_ERR_NOTFOUND when tracefs is not mounted or the kernel has no
 * user_events (the cause says which, and what is needed); TK_ERR_IO when it is refused
 * (permissions); each with a cause.
 */
enum tk_status user_events_open(int *out);

/*
 * Register the tracepoint of @command ("NAME FIELD; FIELD; ..."), whose enable bit @bit of
 * the @enable_size-byte word (4 or 8) at @enable_addr the kernel keeps; *@write_index gets
 * the index its events are written with.
 * Return: TK_OK; TK_ERR_INVAL when the kernel refuses the command (a name registered with
 * other fields: EADDRINUSE), TK_ERR_IO otherwise; each with a cause giving the command.
 */
enum tk_status user_events_register(int fd, const char *command, void *enable_addr,
				    unsigned int enable_size, uint8_t bit, uint32_t *write_index);

/* Stop the kernel from updating bit @bit of the word at @enable_addr (TK_OK, or TK_ERR_IO). */
enum tk_status user_events_unregister(int fd, void *enable_addr, uint8_t bit);

/*
 * Remove the tracepoint @name from tracefs once nothing refers to it (kernels from 6.6 also
 * remove it by themselves when the last registration goes). TK_OK; TK_ERR_NOTFOUND when it
 * is gone already, else TK_ERR_IO (EBUSY while it is still registered or recorded).
 */
enum tk_status user_events_delete(int fd, const char *name);

#endif /* TK_FTRACE_USER_EVENTS_H */
