// SPDX-License-Identifier: MIT
/*
 * Fuzz harness for the print-fmt engine (src/ftrace/printfmt-*.c): a format file is parsed,
 * its print fmt compiled, and a record printed the way `trace-cmd report` and `report -R`
 * print it, plugin handlers included.
 *
 *	u8 mode | format text | NUL | record bytes
 *
 * mode bits 0-3 pick the system of the event among those with plugin handlers ("ftrace" is
 * bprint, function, kernel_stack...; the event's own name picks the handler); bit 6: long
 * size 4; bit 7: big-endian. The record is printed whole, then cut short, then again whole
 * (plugins keep state between records). It is the tail of the input buffer, so a read past it
 * shows under ASan. It must never crash, hang or leak, whatever the input. Everything is
 * printed twice, with the fast plans of print fmts and without them (printfmt-fast.c): a
 * difference traps.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/error.h"
#include "common/writer.h"
#include "ftrace/ftrace.h"
#include "ftrace/printfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The text of one input: the output cap allows 256 KiB and 8 bytes per record byte, 6 times. */
#define OUT_MAX (64u << 20)

/* A few symbols and printk formats, so %pS, bputs and bprint find something. */
static const char kallsyms[] = "ffffffff81000000 T _stext\n"
			       "ffffffff81000100 T do_one\n"
			       "ffffffff81000200 T schedule\n"
			       "ffffffff81000200 T schedule_alias\n"
			       "ffffffff81000300 t hrtimer_wakeup\n"
			       "0000000081000000 T low_one\n";
static const char printk[] = "0xffffffff82000000 : \"hello %d world\\n\"\n"
			     "0xffffffff82000040 : \"str=%s num=%u %pS %*ph %.*s\\n\"\n"
			     "0x82000080 : \"%lx %llx %d %s %p %c %hd %-5d %pM\"\n";

/* Print the input's records as the header says into @fd; @general: without fast plans. */
static void print_all(const uint8_t *data, size_t size, int general, int fd)
{
	static const char *const systems[] = {
		"test", "ftrace",   "sched",  "timer", "kmem", "syscalls", "kvm",   "kvmmmu",
		"tlb",	"mac80211", "ftrace", "sched", "irq",  "ftrace",   "timer", "kmem"};
	struct ftrace_ctx ctx;
	struct ftrace_event *ev = NULL;
	struct ftrace_comm_ref refs[2];
	const uint8_t *nul, *rec;
	size_t text_len, rec_len;
	struct writer w;
	uint8_t mode;

	mode = data[0];
	nul = memchr(data + 1, '\0', size - 1);
	text_len = nul ? (size_t) (nul - data - 1) : size - 1;
	rec = nul ? nul + 1 : data + size;
	rec_len = (size_t) (data + size - rec);
	error_reset();
	ftrace_ctx_init(&ctx, mode & 0x80 ? TK_BYTE_ORDER_BE : TK_BYTE_ORDER_LE);
	ctx.print_general_only = general;
	if (mode & 0x40)
		ctx.long_size = 4;
	ftrace_kallsyms_parse(&ctx, kallsyms, sizeof(kallsyms) - 1);
	ftrace_printk_parse(&ctx, printk, sizeof(printk) - 1);
	ftrace_event_parse(&ctx, systems[mode & 15], (const char *) data + 1, text_len, &ev);
	if (ftrace_ctx_finish(&ctx) < 0 || !ev || writer_init(&w, fd, 4096) < 0) {
		ftrace_ctx_fini(&ctx);
		return;
	}
	if (ftrace_print_compile(&ctx, ev) == TK_OK) {
		ftrace_print_info_ts(&ctx, ev, rec, rec_len, mode & 3, 123456789, &w);
		ftrace_print_raw(&ctx, ev, rec, rec_len, &w);
		ftrace_print_info(&ctx, ev, rec, rec_len / 2, 0, &w);
		ftrace_print_raw(&ctx, ev, rec, rec_len / 2, &w);
		ftrace_print_info(&ctx, ev, rec, rec_len, 1, &w);
		ftrace_print_comms(&ctx, ev, rec, rec_len, refs);
	}
	/* an event whose print fmt was never compiled prints its raw fields */
	ftrace_print_free(ev->print);
	ev->print = NULL;
	ftrace_print_info(&ctx, ev, rec, rec_len, 0, &w);
	(void) writer_flush(&w);
	writer_fini(&w);
	ftrace_ctx_fini(&ctx);
}

/* The bytes of memory file @fd (rewound), in @buf of @cap; -1 when they do not fit. */
static ssize_t slurp(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t got;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while (n < cap && (got = read(fd, buf + n, cap - n)) > 0)
		n += (size_t) got;
	return n < cap ? (ssize_t) n : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fds[2] = {-2, -2};
	static char *bufs[2];
	ssize_t n[2];

	if (size < 1 || size > (1u << 20))
		return 0;
	if (fds[0] == -2) {
		for (int i = 0; i < 2; i++) {
			fds[i] = memfd_create("fuzz-printfmt", MFD_CLOEXEC);
			bufs[i] = malloc(OUT_MAX);
		}
	}
	if (fds[0] < 0 || fds[1] < 0 || !bufs[0] || !bufs[1])
		__builtin_trap();
	/*
	 * With the fast plans and without (printfmt-fast.c): the text must be the same. A
	 * context of its own each, as plugins keep state between records.
	 */
	for (int i = 0; i < 2; i++) {
		if (ftruncate(fds[i], 0) < 0)
			__builtin_trap();
		print_all(data, size, i, fds[i]);
		n[i] = slurp(fds[i], bufs[i], OUT_MAX);
	}
	if (n[0] != n[1] || (n[0] > 0 && memcmp(bufs[0], bufs[1], (size_t) n[0])))
		__builtin_trap();
	return 0;
}
