/* SPDX-License-Identifier: MIT */
/*
 * The application tracer's second output: the events of struct tk_tp_event descriptions as
 * EventHeader events (src/eventheader), written to user_events (src/ftrace/user-events.h)
 * while a kernel consumer records them, or as records of an interceptor file, so that the
 * whole encoder runs and is tested without the kernel. The descriptions stay the single
 * source of truth: the metadata is made from them once per event, and each event's payload
 * is transcoded from the CTF layout the inline serializer writes (tracepoint.h) by walking
 * the description, without copying the payload's bytes.
 *
 *	struct ust_eh_event eh;
 *	struct ust_eh_interceptor *ic;
 *	uint8_t scratch[SIZE];	// at least the payload's size, used only past UST_EH_IOV_MAX
 *
 *	st = ust_eh_event_init(&eh, ev);	// at provider registration; < 0: no EventHeader form
 *	st = ust_eh_interceptor_open(&ic, "events.dat");
 *	st = ust_eh_interceptor_write(ic, &eh, payload, size, scratch, sizeof(scratch));
 *	st = ust_eh_interceptor_close(ic);
 *	ust_eh_event_fini(&eh);
 *
 * With the kernel: ust_eh_open(&fd) once per process, ust_eh_register(&eh, fd, &ev->enabled,
 * UST_EH_ENABLE_BIT) per event, ust_eh_write() while the bit is set, ust_eh_unregister() when
 * the provider goes. doc/ust.md ("EventHeader output") gives the scheme and the mapping.
 */
#ifndef TK_UST_UST_EVENTHEADER_H
#define TK_UST_UST_EVENTHEADER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <tracekit/status.h>
#include <tracekit/tracepoint.h>

#include "../eventheader/eventheader.h"

/* The bit of tk_tp_event.enabled the kernel sets while a consumer records the event. */
#define UST_EH_ENABLE_BIT 1
/* The bit the CTF session owns (set and cleared with atomic or/and, never plain stores). */
#define UST_EH_CTF_BIT 0

/*
 * Most iovecs a payload is transcoded into; a payload needing more is copied into the
 * caller's scratch instead (one iovec). Each counted string, blob or sequence takes at most
 * three (the bytes before it, its u16 length, its bytes).
 */
#define UST_EH_IOV_MAX 32
/* Counted strings, blobs and sequences longer than this many elements are cut to it. */
#define UST_EH_COUNT_MAX 65535u

/*
 * The EventHeader form of one event, made once (ust_eh_event_init()): tracepoint name,
 * user_events registration command, and the bytes every event starts with (header, metadata
 * extension's head, metadata). @write_index, @fd and @enable_addr are set by
 * ust_eh_register().
 */
struct ust_eh_event {
	const struct tk_tp_event *ev;
	char tp_name[EVENTHEADER_NAME_MAX];
	size_t tp_name_len;
	char *command; /* "NAME u8 eventheader_flags; ...", owned */
	uint8_t *head; /* prefix + metadata, owned */
	size_t head_size;
	uint32_t write_index;
	int fd;		   /* -1 when not registered */
	void *enable_addr; /* the word registered with user_events, or NULL */
	uint8_t bit;
};

/*
 * A payload transcoded: @iov[0..@n) are EventHeader's payload, @size bytes in all. The
 * iovecs point into the CTF payload, into @lens (the u16 lengths, little-endian) or into the
 * caller's scratch: the struct and those must outlive the write.
 */
struct ust_eh_payload {
	struct iovec iov[UST_EH_IOV_MAX];
	size_t n;
	size_t size;
	uint8_t lens[UST_EH_IOV_MAX][2];
	size_t n_lens;
};

/*
 * Make @ev's EventHeader form: map each field (recursively through structs) to a field
 * definition, write the tracepoint name Provider_L<level>K<keyword>, the registration command
 * and the header + metadata bytes. Fails, with a cause naming the event and the field, for
 * what EventHeader cannot say: a field kind, size or format the mapping has no row for, an
 * array of 0 or more than 65535 elements, a struct of 0 or more than 127 fields or nested
 * deeper than EVENTHEADER_NEST_MAX, metadata over 64 KiB, a provider name the tracepoint
 * naming refuses, a big-endian host (the writer's events are little-endian). Such an event
 * has no EventHeader form; its CTF output is not concerned.
 *
 * Return: TK_OK; TK_ERR_UNSUPPORTED as above; TK_ERR_NOMEM; each with a cause.
 * Ownership: @ev is borrowed and must outlive @out, which is released with
 * ust_eh_event_fini() (also after a failure).
 */
enum tk_status ust_eh_event_init(struct ust_eh_event *out, const struct tk_tp_event *ev);

/* Release what ust_eh_event_init() took (not the registration: ust_eh_unregister()). */
void ust_eh_event_fini(struct ust_eh_event *eh);

/*
 * Transcode the CTF-layout payload @data (@size bytes, as the inline serializer wrote it for
 * @ev) into EventHeader's payload in @out: fixed-size values, strings and arrays as they
 * are; the u32 length or count of counted strings, blobs and sequences as a u16, elements
 * past UST_EH_COUNT_MAX dropped. Walks @ev's description, never the bytes' content, and
 * reads only @data[0..@size). When more than UST_EH_IOV_MAX iovecs would be needed, the
 * payload is copied into @scratch (@scratch_size bytes; @size bytes always suffice, the
 * result being never longer than the source) and @out has one iovec.
 *
 * Return: TK_OK; TK_ERR_INVAL when @data does not hold a payload of @ev (a length running
 * past @size, a string without NUL, bytes left over: a bug of the caller) or @scratch is
 * needed and too small; each with a cause.
 * Ownership: @out points into @data, @scratch and itself.
 */
enum tk_status ust_eh_transcode(const struct tk_tp_event *ev, const void *data, size_t size,
				struct ust_eh_payload *out, uint8_t *scratch, size_t scratch_size);

/*
 * Open user_events_data for this process's EventHeader tracepoints, once: the first call's
 * outcome is kept, later calls give the same descriptor or status without trying again.
 * Where the kernel has no user_events, the first call fails with a cause saying so (the
 * runtime reports it once) and the runtime carries on with CTF only.
 *
 * Return: TK_OK with *@fd set; TK_ERR_NOTFOUND (no tracefs or no user_events) or TK_ERR_IO.
 * Ownership: the descriptor is the process's, closed at exit (close-on-exec).
 */
enum tk_status ust_eh_open(int *fd);

/*
 * Register @eh's tracepoint with user_events on @fd: the kernel then sets bit @bit of the
 * 4-byte word at @enable_addr (the event's tk_tp_event.enabled, bit UST_EH_ENABLE_BIT) while
 * a consumer records it. Its other bits are not the kernel's: whoever changes them must use
 * atomic or/and.
 *
 * Return: TK_OK; the status of user_events_register() with a cause naming the tracepoint.
 * Ownership: @enable_addr must stay valid until ust_eh_unregister().
 */
enum tk_status ust_eh_register(struct ust_eh_event *eh, int fd, int *enable_addr, uint8_t bit);

/* Stop the kernel from updating @eh's enable bit (nothing when not registered). */
enum tk_status ust_eh_unregister(struct ust_eh_event *eh);

/*
 * Write one event of @eh (registered) to user_events: one writev() of the write index, the
 * head, the transcoded payload of @data (@size bytes). EBADF, which the kernel answers when
 * no consumer records the tracepoint any more, is TK_AGAIN (dropped, not an error).
 *
 * Return: TK_OK; TK_AGAIN; the errors of ust_eh_transcode(); TK_ERR_IO; each with a cause.
 * Ownership: everything is borrowed for the call only.
 */
enum tk_status ust_eh_write(const struct ust_eh_event *eh, const void *data, size_t size,
			    uint8_t *scratch, size_t scratch_size);

struct ust_eh_interceptor;

/*
 * Create (or empty) the interceptor file @path: the events that would go to user_events are
 * written to it as records (u32 size, tracepoint name and NUL, event bytes;
 * src/eventheader/interceptor.h), which `tracekit print --style perf-decode` reads.
 *
 * Return: TK_OK; TK_ERR_IO; TK_ERR_NOMEM; each with a cause.
 * Ownership: *@out belongs to the caller, released with ust_eh_interceptor_close().
 */
enum tk_status ust_eh_interceptor_open(struct ust_eh_interceptor **out, const char *path);

/*
 * Append one event of @eh as a record, in one writev() (O_APPEND) under the file's mutex, so
 * that records of several threads never interleave. When the write fails or is short (disk
 * full), the file is cut back to its size before the record: it never holds half a record.
 *
 * Return: TK_OK; the errors of ust_eh_transcode(); TK_ERR_IO; each with a cause.
 * Ownership: everything is borrowed for the call only.
 */
enum tk_status ust_eh_interceptor_write(struct ust_eh_interceptor *ic,
					const struct ust_eh_event *eh, const void *data,
					size_t size, uint8_t *scratch, size_t scratch_size);

/* Close the file (always freed); TK_ERR_IO when close() fails. NULL: TK_OK. */
enum tk_status ust_eh_interceptor_close(struct ust_eh_interceptor *ic);

#endif /* TK_UST_UST_EVENTHEADER_H */
