/* SPDX-License-Identifier: MIT */
/*
 * Rings in a file mapping (TRACEKIT_UST_SHM_DIR, tk_ust_opts.shm_dir): each thread's
 * sub-buffers live in a file of that directory, mapped shared, after a header that says
 * whose they are and where their packets belong (ust-ring.h). When the process dies without
 * ending its session (SIGKILL, a crash, _exit()), the file keeps its last packets, which
 * `tracekit ust-recover` appends to the trace. A session that ends removes its files.
 *
 * The file's pages are reserved at once (fallocate: a full tmpfs fails here, not with SIGBUS
 * on the fast path), so a ring in a file takes its whole size from the start; they are mapped
 * a sub-buffer at a time, as anonymous rings are (ust-buf.c, subbuf_populate()), so that the
 * fast path never faults on tmpfs. A file system with writeback (a disk) write-protects dirty
 * pages after writing them back, so there events would take faults: doc/ust.md recommends
 * /dev/shm.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ust-priv.h"
#include "ust-ring.h"

/* A ring's file: its name and mapping, and the process that made it (the one to remove it). */
struct ust_shm {
	char *path;
	uint8_t *base;
	size_t len;
	pid_t pid;
};

static size_t page_size(void)
{
	long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? (size_t) n : 4096;
}

static void header_init(uint8_t *h, const struct ust_buf *b, size_t data_off)
{
	char name[UST_RING_STREAM_MAX];
	uint8_t boot[16];

	memcpy(h, UST_RING_MAGIC, 8);
	tk_store_u32(h + UST_RING_OFF_VERSION, UST_RING_VERSION, TK_BYTE_ORDER_HOST);
	tk_store_u32(h + UST_RING_OFF_ORDER, UST_RING_ORDER_MARK, TK_BYTE_ORDER_HOST);
	tk_store_u32(h + UST_RING_OFF_DATA, (uint32_t) data_off, TK_BYTE_ORDER_HOST);
	tk_store_u32(h + UST_RING_OFF_COUNT, b->count, TK_BYTE_ORDER_HOST);
	tk_store_u64(h + UST_RING_OFF_SIZE, b->size, TK_BYTE_ORDER_HOST);
	tk_store_u64(h + UST_RING_OFF_INST, b->instance, TK_BYTE_ORDER_HOST);
	tk_store_u32(h + UST_RING_OFF_PID, (uint32_t) b->vpid, TK_BYTE_ORDER_HOST);
	tk_store_u32(h + UST_RING_OFF_TID, (uint32_t) b->vtid, TK_BYTE_ORDER_HOST);
	tk_store_u64(h + UST_RING_OFF_START, ust_proc_start_time(b->vpid, NULL),
		     TK_BYTE_ORDER_HOST);
	memcpy(h + UST_RING_OFF_UUID, ust_sess.uuid, 16);
	if (ust_boot_id(boot) == 0)
		memcpy(h + UST_RING_OFF_BOOT, boot, 16);
	/* the name the consumer gives the stream file (ust-session.c, write_packet()) */
	snprintf(name, sizeof(name), "channel0_%d_%" PRIu64, (int) b->vpid,
		 b->instance & UINT32_MAX);
	memcpy(h + UST_RING_OFF_STREAM, name, strlen(name) + 1);
	tk_store_u64(h + UST_RING_OFF_FIRST, b->first_ts, TK_BYTE_ORDER_HOST);
	memcpy(h + UST_RING_OFF_DIR, ust_sess.real_dir, strlen(ust_sess.real_dir) + 1);
}

uint8_t *ust_shm_create(struct ust_shm **out, const struct ust_buf *b)
{
	size_t page = page_size(), data_off, len;
	struct ust_shm *s;
	int fd = -1, err, named = 0;
	char proc[64];
	void *base;

	*out = NULL;
	if (strlen(ust_sess.real_dir) >= UST_RING_DIR_MAX)
		return MAP_FAILED;
	s = calloc(1, sizeof(*s));
	if (!s)
		return MAP_FAILED;
	data_off = (UST_RING_HEADER + page - 1) / page * page;
	len = data_off + b->size * b->count;
	if (asprintf(&s->path, "%s/tracekit-ust-%d-%02x%02x%02x%02x-%" PRIu64 "%s",
		     ust_sess.shm_dir, (int) b->vpid, ust_sess.uuid[0], ust_sess.uuid[1],
		     ust_sess.uuid[2], ust_sess.uuid[3], b->instance & UINT32_MAX,
		     UST_RING_SUFFIX) < 0) {
		s->path = NULL;
		goto err;
	}
	/*
	 * Without a name until the header is written (O_TMPFILE, then linkat() below), so that
	 * a kill while the ring is being made leaves no file recovery would call damaged; a
	 * file system without O_TMPFILE gets the name at once
	 */
	fd = open(ust_sess.shm_dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		named = 1;
		fd = open(s->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	}
	if (fd < 0)
		goto err;
	/* the pages now: a full tmpfs fails here rather than with SIGBUS in an event */
	err = posix_fallocate(fd, 0, (off_t) len);
	if (err)
		goto err;
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		goto err;
	s->base = base;
	s->len = len;
	s->pid = getpid();
	/* a forked child must not write into its parent's rings: it does not get them */
	madvise(base, len, MADV_DONTFORK);
	header_init(s->base, b, data_off);
	if (!named) {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, s->path, AT_SYMLINK_FOLLOW) &&
		    linkat(fd, "", AT_FDCWD, s->path, AT_EMPTY_PATH)) {
			munmap(base, len);
			goto err;
		}
	}
	close(fd);
	*out = s;
	return s->base + data_off;
err:
	if (fd >= 0) {
		close(fd);
		if (named)
			unlink(s->path);
	}
	free(s->path);
	free(s);
	return MAP_FAILED;
}

void ust_shm_unlink(struct ust_shm *s)
{
	if (!s || !s->path || s->pid != getpid())
		return;
	unlink(s->path);
	free(s->path);
	s->path = NULL;
}

void ust_shm_destroy(struct ust_shm *s)
{
	if (!s)
		return;
	/* a forked child's copy: the parent's file, and not mapped here (MADV_DONTFORK) */
	if (s->pid == getpid()) {
		ust_shm_unlink(s);
		munmap(s->base, s->len);
	}
	free(s->path);
	free(s);
}
