// SPDX-License-Identifier: MIT
/*
 * Tests of the print-fmt engine (src/ftrace/printfmt-*.c): event formats and records in,
 * the text `trace-cmd report` prints (and `report -R`) out.
 *
 * The expected texts are facts about libtraceevent 1.7.1, the library of Debian 12's
 * trace-cmd 3.1.6: each record below was printed by that library (the system's
 * libtraceevent.so.1 with its plugins loaded, tep_print_event() with TEP_PRINT_INFO and
 * TEP_PRINT_INFO_RAW, long size and byte order as the suite says, the bytes after a record
 * reading as zeros), and the text is pasted here with trace-cmd's end of line handling
 * applied (one final newline dropped, the line cut at a NUL). The formats reproduce its
 * quirks on purpose: 2 * (3 + 4) is 10, '^' is 0, %c prints ">c<", a flag of value 0 never
 * prints, bprint arguments are unpacked its way, and so on.
 *
 * Other tests compare the hand-written printf conversions with the C library's snprintf(),
 * and check the guarantees of our own: records cut short or with locations past their end,
 * nesting too deep, output caps, no compile errors for what libtraceevent cannot parse.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/error.h"
#include "common/writer.h"
#include "ftrace/ftrace.h"
#include "ftrace/printfmt-int.h"
#include "ftrace/printfmt.h"

struct pf_format {
	const char *system;
	const char *text;
};

struct pf_record {
	const char *hex;  /* the record (common fields first) */
	const char *info; /* trace-cmd report */
	const char *raw;  /* trace-cmd report -R */
};

struct pf_suite {
	const char *name;
	enum tk_byte_order bo;
	uint32_t long_size;
	const char *kallsyms;
	const char *printk;
	const struct pf_format *formats;
	size_t n_formats;
	const struct pf_record *records;
	size_t n_records;
};

/* Suite "le": little-endian, sizeof(long) 8. */
static const struct pf_format le_formats[] = {
	{"test",
	 "name: test_precedence\n"
	 "ID: 600\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
	 "\tfield:int b;\toffset:12;\tsize:4;\tsigned:1;\n"
	 "\tfield:int c;\toffset:16;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "print fmt: \"x=%d y=%d z=%d w=%d v=%d u=%d\", 2 * (3 + 4), REC->a * (REC->b + REC->c), "
	 "REC->a - REC->b - REC->c, 10 - 2 - 3, REC->a ^ REC->b, -REC->a + 1\n"},
	{"test",
	 "name: test_casts\n"
	 "ID: 601\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:unsigned long v;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:int n;\toffset:16;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "print fmt: \"%d %u %lu %ld %x %hhd %hu %lld\", (u8)REC->v, (s16)REC->v, (unsigned "
	 "int)REC->v, (long)REC->n, (char)REC->n, REC->n, REC->n, REC->n\n"},
	{"test",
	 "name: test_ternary\n"
	 "ID: 602\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
	 "\tfield:char name[8];\toffset:12;\tsize:8;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"%s %d %s\", REC->a ? \"yes\" : \"no\", REC->a > 1 ? REC->a : -1, REC->name\n"},
	{"test",
	 "name: test_printf_specs\n"
	 "ID: 603\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
	 "\tfield:unsigned long b;\toffset:16;\tsize:8;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"[%5d][%-5d][%05d][%x][%#x][%#o][%.3d][%.0d][%lX][%08lx][%c][%hld][%5.3.2d][%%][%Lu][%zu]\", "
	 "REC->a, REC->a, REC->a, REC->a, REC->a, REC->a, REC->a, REC->a, REC->b, REC->b, REC->a, "
	 "REC->a, REC->a, REC->b, REC->b\n"},
	{"test",
	 "name: test_strings\n"
	 "ID: 604\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	 "\tfield:__data_loc char[] dstr;\toffset:24;\tsize:4;\tsigned:0;\n"
	 "\tfield:int len;\toffset:28;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "print fmt: \"[%s][%-10s][%10s][%.2s][%.*s][%s][%ls]\", REC->comm, REC->comm, __get_str(dstr), "
	 "__get_str(dstr), REC->len, REC->comm, \"lit\" \"eral\", __get_str(dstr)\n"},
	{"test",
	 "name: test_flags_symbolic\n"
	 "ID: 605\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:unsigned long flags;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:int state;\toffset:16;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "print fmt: \"f=%s s=%s z=%s\", __print_flags(REC->flags, \"|\", { 0x1, \"A\" }, { "
	 "0x2, \"B\" }, { 0x4, \"C\" }, { (1 << 4), \"E\" }), __print_symbolic(REC->state, "
	 "{ 0, \"ZERO\" }, { 1, \"ONE\" }, { -1, \"NEG\" }), __print_flags(REC->state, \"\", "
	 "{ 0, \"none\" }, { -1, \"neg\" })\n"},
	{"test",
	 "name: test_hex_array\n"
	 "ID: 606\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:u8 mac[6];\toffset:8;\tsize:6;\tsigned:0;\n"
	 "\tfield:__data_loc u8[] buf;\toffset:16;\tsize:4;\tsigned:0;\n"
	 "\tfield:__data_loc u32[] arr;\toffset:20;\tsize:4;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"%s|%s|%s|%s\", __print_hex(REC->mac, 6), __print_hex_str(__get_dynamic_array(buf), "
	 "__get_dynamic_array_len(buf)), __print_array(__get_dynamic_array(arr), __get_dynamic_array_len(arr) "
	 "/ 4, 4), __print_array(__get_dynamic_array(buf), 2, 3)\n"},
	{"test", "name: test_masks\n"
		 "ID: 607\n"
		 "format:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "\tfield:__data_loc unsigned long[] mask;\toffset:8;\tsize:4;\tsigned:0;\n"
		 "\tfield:__data_loc cpumask_t cpus;\toffset:12;\tsize:4;\tsigned:0;\n"
		 "\n"
		 "print fmt: \"bits=%s cpus=%s\", __get_bitmask(mask), __get_cpumask(cpus)\n"},
	{"test",
	 "name: test_pointers\n"
	 "ID: 608\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:u8 mac[6];\toffset:16;\tsize:6;\tsigned:0;\n"
	 "\tfield:__u8 v4[4];\toffset:22;\tsize:4;\tsigned:0;\n"
	 "\tfield:u8 v6[16];\toffset:26;\tsize:16;\tsigned:0;\n"
	 "\tfield:__data_loc u8[] sa;\toffset:44;\tsize:4;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"%pS %ps %pF %p %p|%pM %pMR %pm %pMF|%pI4 %pi4 %pI4h|%pI6 %pI6c %pi6|%pU "
	 "%pUL|%*ph %*phC|%pISpc %pM\", (void *)REC->ip, (void *)REC->ip, (void *)REC->ip, "
	 "REC->ip, 0, REC->mac, REC->mac, REC->mac, REC->mac, REC->v4, REC->v4, REC->v4, REC->v6, "
	 "REC->v6, REC->v6, REC->v6, REC->v6, 4, __get_dynamic_array(sa), 3, __get_dynamic_array(sa), "
	 "__get_dynamic_array(sa), REC->v4\n"},
	{"test", "name: test_failed\n"
		 "ID: 609\n"
		 "format:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
		 "\tfield:char name[4];\toffset:12;\tsize:4;\tsigned:0;\n"
		 "\n"
		 "print fmt: \"a=%d %s\", REC->a, no_such_function(REC->a)\n"},
	{"test", "name: test_missing_arg\n"
		 "ID: 610\n"
		 "format:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "print fmt: \"a=%d b=%d\", REC->a\n"},
	{"test", "name: test_raw_fields\n"
		 "ID: 611\n"
		 "format:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		 "\n"
		 "\tfield:void * ptr;\toffset:8;\tsize:8;\tsigned:0;\n"
		 "\tfield:long l;\toffset:16;\tsize:8;\tsigned:1;\n"
		 "\tfield:unsigned long ul;\toffset:24;\tsize:8;\tsigned:0;\n"
		 "\tfield:short s;\toffset:32;\tsize:2;\tsigned:1;\n"
		 "\tfield:s8 c;\toffset:34;\tsize:1;\tsigned:1;\n"
		 "\tfield:u8 arr[3];\toffset:35;\tsize:3;\tsigned:0;\n"
		 "\tfield:char str[6];\toffset:38;\tsize:6;\tsigned:0;\n"
		 "\tfield:__data_loc char[] ds;\toffset:44;\tsize:4;\tsigned:0;\n"
		 "\tfield:unsigned int target_cpu;\toffset:48;\tsize:4;\tsigned:0;\n"
		 "\n"
		 "print fmt: \"ptr=0x%lx l=%ld cpu=%03u\", REC->ptr, REC->l, REC->target_cpu\n"},
	{"ftrace", "name: bprint\n"
		   "ID: 6\n"
		   "format:\n"
		   "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		   "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		   "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		   "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		   "\n"
		   "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
		   "\tfield:const char * fmt;\toffset:16;\tsize:8;\tsigned:0;\n"
		   "\tfield:u32 buf[];\toffset:24;\tsize:0;\tsigned:0;\n"
		   "\n"
		   "print fmt: \"%ps: %s\", (void *)REC->ip, REC->fmt\n"},
	{"ftrace", "name: print\n"
		   "ID: 5\n"
		   "format:\n"
		   "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		   "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		   "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		   "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		   "\n"
		   "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
		   "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n"
		   "\n"
		   "print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n"},
	{"ftrace", "name: bputs\n"
		   "ID: 14\n"
		   "format:\n"
		   "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		   "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		   "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		   "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		   "\n"
		   "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
		   "\tfield:const char * str;\toffset:16;\tsize:8;\tsigned:0;\n"
		   "\n"
		   "print fmt: \"%ps: %s\", (void *)REC->ip, REC->str\n"},
	{"ftrace", "name: function\n"
		   "ID: 1\n"
		   "format:\n"
		   "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		   "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		   "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		   "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		   "\n"
		   "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
		   "\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
		   "\n"
		   "print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n"},
	{"ftrace",
	 "name: kernel_stack\n"
	 "ID: 4\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	 "\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"\\t=> %ps\\n\\t=> %ps\\n\", (void *)REC->caller[0], (void *)REC->caller[1]\n"},
	{"sched",
	 "name: sched_switch\n"
	 "ID: 372\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	 "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	 "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	 "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	 "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	 "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	 "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	 "next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state "
	 "& ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 "
	 "| 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 "
	 "| 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) "
	 "+ 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, "
	 "\"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, "
	 "\"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | 0x00000001 "
	 "| 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + "
	 "1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n"},
	{"sched",
	 "name: sched_wakeup\n"
	 "ID: 370\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	 "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	 "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	 "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, "
	 "REC->target_cpu\n"},
	{"timer",
	 "name: hrtimer_start\n"
	 "ID: 90\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	 "\tfield:s64 expires;\toffset:24;\tsize:8;\tsigned:1;\n"
	 "\tfield:s64 softexpires;\toffset:32;\tsize:8;\tsigned:1;\n"
	 "\tfield:enum hrtimer_mode mode;\toffset:40;\tsize:4;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"hrtimer=%p function=%ps expires=%llu softexpires=%llu mode=%s\", REC->hrtimer, "
	 "REC->function, (unsigned long long) REC->expires, (unsigned long long) REC->softexpires, "
	 "__print_symbolic(REC->mode, { HRTIMER_MODE_ABS, \"ABS\" }, { HRTIMER_MODE_REL, \"REL\" "
	 "})\n"},
	{"timer",
	 "name: hrtimer_expire_entry\n"
	 "ID: 92\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:s64 now;\toffset:16;\tsize:8;\tsigned:1;\n"
	 "\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"hrtimer=%p function=%ps now=%llu\", REC->hrtimer, REC->function, (unsigned "
	 "long long) REC->now\n"},
	{"kmem",
	 "name: kmalloc\n"
	 "ID: 300\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n"
	 "\tfield:size_t bytes_req;\toffset:24;\tsize:8;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"call_site=%pS ptr=%p bytes_req=%zu\", (void *)REC->call_site, REC->ptr, "
	 "REC->bytes_req\n"},
	{"test",
	 "name: test_short_records\n"
	 "ID: 622\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
	 "\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n"
	 "\tfield:__data_loc char[] ds;\toffset:28;\tsize:4;\tsigned:0;\n"
	 "\tfield:__data_loc u8[] db;\toffset:32;\tsize:4;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"a=%d comm=%s ds=%s hex=%s len=%d\", REC->a, REC->comm, __get_str(ds), "
	 "__print_hex(__get_dynamic_array(db), __get_dynamic_array_len(db)), __get_dynamic_array_len(db)\n"},
};

static const struct pf_record le_records[] = {
	{/* precedence */ "580200002a000000020000000300000004000000", "x=10 y=10 z=3 w=11 v=0 u=-1",
	 " a=2 b=3 c=4"},
	{/* casts */ "590200002a000000efcdab9078563412feffffff",
	 "239 52719 2427178479 4294967294 fe -2 65534 4294967294", " v=239 n=4294967294"},
	{/* ternary */ "5a0200002a000000000000006162630000000000", "no -1 abc", " a=0 name=abc"},
	{/* ternary */ "5a0200002a000000050000003132333435363738", "yes 5 12345678",
	 " a=5 name=12345678"},
	{/* printf_specs */ "5b0200002a000000d6ffffff00000000adde000000000000",
	 "[  -42][-42  ][-0042][ffffffd6][0xffffffd6][037777777726][-042][-42][DEAD][0000dead][>c<][%ld][%5.3.2d][%][4294967254][57005]",
	 " a=  -42 b=DEAD"},
	{/* printf_specs */ "5b0200002a00000000000000000000000000000000000000",
	 "[    0][0    ][00000][0][0][0][000][][0][00000000][>c<][%ld][%5.3.2d][%][0][0]",
	 " a=    0 b=0"},
	{/* strings */ "5c0200002a000000626173680000000000000000000000002000060003000000"
		       "68656c6c6f000000",
	 "[bash][bash      ][     hello][he][bas][literal][]", " comm=bash dstr=hello len=3"},
	{/* strings */ "5c0200002a0000007878787878787878787878787878787800000000ffffffff"
		       "00000000",
	 "[xxxxxxxxxxxxxxxx][xxxxxxxxxxxxxxxx][][][%.*s][literal][]",
	 " comm=xxxxxxxxxxxxxxxx dstr=\\\x02 len=-1"},
	{/* flags_symbolic */ "5d0200002a000000170000000000000001000000", "f=A|B|C|E s=ONE z=0x1",
	 " flags=0x17 state=1"},
	{/* flags_symbolic */ "5d0200002a0000000001000000000000ffffffff",
	 "f=0x100 s=0xffffffff z=0xffffffff", " flags=0x100 state=-1"},
	{/* flags_symbolic */ "5d0200002a000000000000000000000000000000", "f= s=ZERO z=neg",
	 " flags=0x0 state=0"},
	{/* flags_symbolic */ "5d0200002a000000030000000000000007000000", "f=A|B s=0x7 z=0x7",
	 " flags=0x3 state=7"},
	{/* hex_array */ "5e0200002a000000000102abcdff0000180003001c0008000908070001000000"
			 "00286bee",
	 "00 01 02 ab cd ff|090807|1 4000000000|BAD SIZE:3 0x9 8",
	 " mac= buf=ARRAY[09, 08, 07] arr=ARRAY[01, 00, 00, 00, 00, 28, 6b, ee]"},
	{/* masks */ "5f0200002a00000010000c001c000800ff0f008001000000000000100f700000"
		     "01000080",
	 "bits=10000000,00000001,80000fff cpus=0-3,12-14,32,63",
	 " mask=ARRAY[ff, 0f, 00, 80, 01, 00, 00, 00, 00, 00, 00, 10] cpus=524316"},
	{/* pointers */ "600200002a00000005020081ffffffff001b21aabbccc0a8011420010db80000"
			"0000000000000000000100003000100002001f900a0000010000000000000000",
	 "schedule+0x5 schedule schedule+0x5 0xffffffff81000205 (nil)|00:1b:21:aa:bb:cc cc:bb:aa:21:1b:00 "
	 "001b21aabbcc 00-1b-21-aa-bb-cc|192.168.1.20 192.168.001.020 20.1.168.192|2001:0db8:0000:0000:0000:0000:0000:0001 "
	 "2001:db8::1 20010db8000000000000000000000001|20010db8-0000-0000-0000-000000000001 "
	 "B80D0120-0000-0000-0000-000000000001|02 00 1f 90 02:00:1f|10.0.0.1:8080 INVALIDMAC",
	 " ip=schedule+0x5 mac= v4=ARRAY[c0, a8, 01, 14] v6=ARRAY[20, 01, 0d, b8, 00, 00, 00, "
	 "00, 00, 00, 00, 00, 00, 00, 00, 01] sa=ARRAY[02, 00, 1f, 90, 0a, 00, 00, 01, 00, "
	 "00, 00, 00, 00, 00, 00, 00]"},
	{/* pointers */ "600200002a00000000090081ffffffff00000000000000000000000000000000"
			"00000000ffff7f000001000030001c000a000050000000000000000000000000"
			"000000000000000100000000",
	 "0xffffffff81000900 0xffffffff81000900 0xffffffff81000900 0xffffffff81000900 (nil)|00:00:00:00:00:00 "
	 "00:00:00:00:00:00 000000000000 00-00-00-00-00-00|0.0.0.0 000.000.000.000 0.0.0.0|0000:0000:0000:0000:0000:ffff:7f00:0001 "
	 "::ffff:127.0.0.1 00000000000000000000ffff7f000001|00000000-0000-0000-0000-ffff7f000001 "
	 "00000000-0000-0000-0000-FFFF7F000001|0a 00 00 50 0a:00:00|[::1]:80 INVALIDMAC",
	 " ip=0xffffffff81000900 mac= v4=ARRAY[00, 00, 00, 00] v6=ARRAY[00, 00, 00, 00, 00, "
	 "00, 00, 00, 00, 00, ff, ff, 7f, 00, 00, 01] sa=ARRAY[0a, 00, 00, 50, 00, 00, 00, "
	 "00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 01, 00, 00, 00, 00]"},
	{/* failed */ "610200002a0000000700000061620100",
	 "[FAILED TO PARSE] a=7 name=ARRAY[61, 62, 01, 00]", " a=7 name=ARRAY[61, 62, 01, 00]"},
	{/* missing_arg */ "620200002a00000007000000", "[FAILED TO PARSE] a=7", " a=7"},
	{/* raw_fields */ "630200002a0000003412000000000000fbffffffffffffff4d00000000000000"
			  "0300fe0102036f6b00000000340003000700000068690000",
	 "ptr=0x1234 l=-5 cpu=007",
	 " ptr=0x1234 l=-5 ul=0x4d s= 3 c=-2 arr=ARRAY[01, 02, 03] str=ok ds=hi target_cpu=007"},
	{/* raw_fields */ "630200002a000000000000000000000005000000000000000000000000000000"
			  "f0ff05000000010200000000000000000c000000",
	 "ptr=0x0 l=5 cpu=012",
	 " ptr=0x0 l=5 ul=0x0 s=-16 c=5 arr=ARRAY[00, 00, 00] str=ARRAY[01, 02, 00, 00, 00, "
	 "00] ds=c\x02 target_cpu=012"},
	{/* bprint */ "060000002a00000005010081ffffffff00000082fffffffff9ffffff",
	 "do_one: hello -7 world", " ip=0xffffffff81000105 fmt=0xffffffff82000000 buf=ARRAY[]"},
	{/* bprint */ "060000002a00000000020081ffffffff40000082ffffffff6162630063000000",
	 "schedule: str=abc num=99", " ip=0xffffffff81000200 fmt=0xffffffff82000040 buf=ARRAY[]"},
	{/* bprint */ "060000002a00000000020081ffffffff80000082ffffffff2211000000000000"
		      "4433000000000000ffffffff73747200",
	 "schedule: 1122 3344 -1 str", " ip=0xffffffff81000200 fmt=0xffffffff82000080 buf=ARRAY[]"},
	{/* bprint */ "060000002a00000000020081ffffffffc0000082ffffffff00030081ffffffff"
		      "10020081ffffffff",
	 "schedule: pct % 0xffffffff81000300 schedule+0x10 end",
	 " ip=0xffffffff81000200 fmt=0xffffffff820000c0 buf=ARRAY[]"},
	{/* bprint */ "060000002a00000000020081ffffffff00010082ffffffff0100000002000000"
		      "03000000040000000500000006000000",
	 "schedule: 1    |    2|3|>c<|*d",
	 " ip=0xffffffff81000200 fmt=0xffffffff82000100 buf=ARRAY[]"},
	{/* bprint */ "060000002a00000000020081ffffffffffff0082ffffffff00000000",
	 "[FAILED TO PARSE] ip=0xffffffff81000200 fmt=0xffffffff8200ffff buf=ARRAY[]",
	 " ip=0xffffffff81000200 fmt=0xffffffff8200ffff buf=ARRAY[]"},
	{/* print */ "050000002a00000000050081ffffffff68656c6c6f206d61726b65720a000000",
	 "vfs_read: hello marker", " ip=vfs_read buf=hello marker"},
	{/* print */ "050000002a00000000050081ffffffff74776f0a6c696e65730a0000",
	 "vfs_read: two\n"
	 "lines",
	 " ip=vfs_read buf=two\n"
	 "lines"},
	{/* bputs */ "0e0000002a00000000050081ffffffff40010082ffffffff", "vfs_read: const string",
	 " ip=vfs_read str=const string"},
	{/* bputs */ "0e0000002a00000000050081ffffffff3412000000000000", "vfs_read: 1234",
	 " ip=vfs_read str=1234"},
	{/* function */ "010000002a00000010020081ffffffff10010081ffffffff", "schedule",
	 " ip=schedule parent_ip=do_one"},
	{/* function */ "010000002a00000010030081ffffffff10020081ffffffff", "   hrtimer_wakeup",
	 " ip=hrtimer_wakeup parent_ip=schedule"},
	{/* function */ "010000002a00000010040081ffffffff10030081ffffffff",
	 "      tick_nohz_handler", " ip=tick_nohz_handler parent_ip=hrtimer_wakeup"},
	{/* function */ "010000002a00000010050081ffffffff10020081ffffffff", "   vfs_read",
	 " ip=vfs_read parent_ip=schedule"},
	{/* function */ "010000002a00000010010081ffffffff99990081ffffffff", "do_one",
	 " ip=do_one parent_ip=0xffffffff81009999"},
	{/* function */ "010000002a000000100000000000000010050081ffffffff", "      0x10",
	 " ip=0x10 parent_ip=vfs_read"},
	{/* kernel_stack */ "040000002a000000030000000000000005020081ffffffff3412000000000000"
			    "05080081ffffffffffffffffffffffff00000000000000000000000000000000"
			    "00000000000000000000000000000000",
	 "<stack trace >\n"
	 "=> schedule (ffffffff81000205)\n"
	 "=> 1234\n"
	 "=> ffffffff81000805",
	 " size=3 caller=ARRAY[05, 02, 00, 81, ff, ff, ff, ff, 34, 12, 00, 00, 00, 00, 00, "
	 "00, 05, 08, 00, 81, ff, ff, ff, ff, ff, ff, ff, ff, ff, ff, ff, ff, 00, 00, 00, 00, "
	 "00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, "
	 "00, 00, 00, 00, 00, 00, 00]"},
	{/* sched_switch */ "740100002a00000074726163652d636d6400000000000000d918000078000000"
			    "00000000000000006d6967726174696f6e2f3100000000001500000000000000",
	 "trace-cmd:6361 [120] R ==> migration/1:21 [0]",
	 " prev_comm=trace-cmd prev_pid=6361 prev_prio=120 prev_state=0 next_comm=migration/1 "
	 "next_pid=21 next_prio=0"},
	{/* sched_switch */ "740100002a000000626173680000000000000000000000009d04000045000000"
			    "8200000000000000303132333435363738396162636465660800000078000000",
	 "bash:1181 [69] D|W ==> 0123456789abcdef:8 [120]",
	 " prev_comm=bash prev_pid=1181 prev_prio=69 prev_state=130 next_comm=0123456789abcdef\x08 "
	 "next_pid=8 next_prio=120"},
	{/* sched_wakeup */ "720100002a0000007263755f707265656d707400000000000f00000078000000"
			    "01000000",
	 "rcu_preempt:15 [120] CPU:001", " comm=rcu_preempt pid=15 prio=120 target_cpu=001"},
	{/* hrtimer_start */ "5a0000002a000000e07be60400c9ffff00030081ffffffff7393d72633000000"
			     "23d0d6263300000001000000",
	 "hrtimer=0xffffc90004e67be0 function=hrtimer_wakeup/0x0 expires=219694994291 softexpires=219694944291",
	 " hrtimer=0xffffc90004e67be0 function=hrtimer_wakeup expires=219694994291 softexpires=219694944291 "
	 "mode=1"},
	{/* hrtimer_start */ "5a0000002a000000100000000000000099000000000000000100000000000000"
			     "020000000000000000000000",
	 "hrtimer=0x10 function=0x00000099 expires=1 softexpires=2",
	 " hrtimer=0x10 function=0x99 expires=1 softexpires=2 mode=0"},
	{/* hrtimer_expire_entry */
	 "5c0000002a000000f8c6d1278688ffff21b44ceb3200000000040081ffffffff",
	 "hrtimer=0xffff888627d1c6f8 now=218696037409 function=tick_nohz_handler/0x0",
	 " hrtimer=0xffff888627d1c6f8 now=218696037409 function=0xffffffff81000400"},
	{/* kmalloc */ "2c0100002a00000010050081ffffffff000000008188ffff4000000000000000",
	 "(vfs_read+0x10) call_site=vfs_read+0x10 ptr=0xffff888100000000 bytes_req=64",
	 " call_site=vfs_read+0x10 ptr=0xffff888100000000 bytes_req=64"},
	{/* kmalloc */ "2c0100002a000000050000000000000000000000000000000100000000000000",
	 "call_site=0x5 ptr=(nil) bytes_req=1", " call_site=0x5 ptr=(nil) bytes_req=1"},
	{/* short_records */ "6e0200002a00000001000000616263", "a=1 comm=abc ds= hex= len=0",
	 " a=1 comm=abc ds=n\x02 db=n\x02"},
	{/* short_records */ "6e0200002a00000002000000787878787878787878787878787878782800c800"
			     "1e000800",
	 "a=2 comm=xxxxxxxxxxxxxxxx ds= hex= len=0",
	 " a=2 comm=xxxxxxxxxxxxxxxx( ds=n\x02 db=\xc8"},
	{/* short_records */ "6e0200002a0000000300000079797979797979797979797979797979f0ff0400"
			     "24000400deadbeef",
	 "a=3 comm=yyyyyyyyyyyyyyyy ds= hex=de ad be ef len=4",
	 " a=3 comm=yyyyyyyyyyyyyyyy\xf0\xff\x04 ds=n\x02 db=ARRAY[de, ad, be, ef]"},
	{/* short_records */ "6e0200002a000000", "a=0 comm= ds= hex= len=0",
	 " a=0 comm= ds=n\x02 db=ARRAY[]"},
};

/* Suite "be": big-endian, sizeof(long) 8. */
static const struct pf_format be_formats[] = {
	{"test",
	 "name: be_mix\n"
	 "ID: 700\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:u16 h;\toffset:8;\tsize:2;\tsigned:0;\n"
	 "\tfield:u32 w;\toffset:12;\tsize:4;\tsigned:0;\n"
	 "\tfield:u64 q;\toffset:16;\tsize:8;\tsigned:0;\n"
	 "\tfield:int neg;\toffset:24;\tsize:4;\tsigned:1;\n"
	 "\tfield:__u8 v4[4];\toffset:28;\tsize:4;\tsigned:0;\n"
	 "\tfield:__data_loc unsigned long[] mask;\toffset:32;\tsize:4;\tsigned:0;\n"
	 "\tfield:__data_loc u32[] arr;\toffset:36;\tsize:4;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"h=%x w=%u q=%llx neg=%d ip=%pI4 iph=%pI4h mask=%s arr=%s\", REC->h, "
	 "REC->w, REC->q, REC->neg, REC->v4, REC->v4, __get_bitmask(mask), __print_array(__get_dynamic_array(arr), "
	 "2, 4)\n"},
	{"sched",
	 "name: sched_switch\n"
	 "ID: 372\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	 "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	 "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	 "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	 "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	 "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	 "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "print fmt: \"prev_comm=%s prev_pid=%d ==> next_comm=%s next_pid=%d\", REC->prev_comm, "
	 "REC->prev_pid, REC->next_comm, REC->next_pid\n"},
};

static const struct pf_record be_records[] = {
	{/* be_mix */ "02bc00000000002a12340000b2d05e000102030405060708fffffffd0a010203"
		      "000800280008003001020304050607800000000100000002",
	 "h=1234 w=3000000000 q=102030405060708 neg=-3 ip=10.1.2.3 iph=10.1.2.3 mask=01020304,05060780 "
	 "arr=16777216 33554432",
	 " h=1234 w=3000000000 q=102030405060708 neg=-3 v4=ARRAY[0a, 01, 02, 03] mask=ARRAY[01, "
	 "02, 03, 04, 05, 06, 07, 80] arr=ARRAY[00, 00, 00, 01, 00, 00, 00, 02]"},
	{/* sched_switch */ "017400000000002a696e69740000000000000000000000000000000100000078"
			    "0000000000000001736800000000000000000000000000000000004d00000064",
	 "init:1 [120] S ==> sh:77 [100]",
	 " prev_comm=init prev_pid=1 prev_prio=120 prev_state=1 next_comm=sh next_pid=77 next_prio=100"},
};

/* Suite "l4": little-endian, sizeof(long) 4. */
static const struct pf_format l4_formats[] = {
	{"test",
	 "name: l4_ptrs\n"
	 "ID: 710\n"
	 "format:\n"
	 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	 "\n"
	 "\tfield:unsigned long ip;\toffset:8;\tsize:4;\tsigned:0;\n"
	 "\tfield:const char * s;\toffset:12;\tsize:4;\tsigned:0;\n"
	 "\tfield:long l;\toffset:16;\tsize:4;\tsigned:1;\n"
	 "\tfield:unsigned long arr[2];\toffset:20;\tsize:8;\tsigned:0;\n"
	 "\n"
	 "print fmt: \"ip=%pS s=%s l=%ld arr0=%lx sz=%d\", (void *)REC->ip, REC->s, REC->l, "
	 "REC->arr[1], sizeof(long)\n"},
};

static const struct pf_record l4_records[] = {
	{/* l4_ptrs */ "c60200002a0000000502008140010082f7ffffff0500000006000000",
	 "ip=schedule+0x5 s=const l=4294967287 arr0=6 sz=4",
	 " ip=schedule+0x5 s=const l=4294967287 arr=ARRAY[05, 00, 00, 00, 06, 00, 00, 00]"},
	{/* l4_ptrs */ "c60200002a0000000100000002000000090000000500000006000000",
	 "ip=0x1 s=2 l=9 arr0=6 sz=4", " ip=0x1 s=2 l=9 arr=ARRAY[05, 00, 00, 00, 06, 00, 00, 00]"},
};

static const struct pf_suite suites[] = {
	{"le", TK_BYTE_ORDER_LE, 8,
	 "ffffffff81000000 T _stext\n"
	 "ffffffff81000100 T do_one\n"
	 "ffffffff81000200 T schedule\n"
	 "ffffffff81000300 T hrtimer_wakeup\n"
	 "ffffffff81000400 t tick_nohz_handler\n"
	 "ffffffff81000500 T vfs_read\n"
	 "ffffffff81000600 A abs_sym\n"
	 "ffffffff81000700 T dup_a\n"
	 "ffffffff81000700 T dup_b\n"
	 "ffffffff81000800 T last_sym\n",
	 "0xffffffff82000000 : \"hello %d world\\n\"\n"
	 "0xffffffff82000040 : \"str=%s num=%u\\n\"\n"
	 "0xffffffff82000080 : \"%lx %llx %d %s\"\n"
	 "0xffffffff820000c0 : \"pct %% %p %pS end\\n\"\n"
	 "0xffffffff82000100 : \"%-5d|%5d|%hd|%c|%*d\"\n"
	 "0xffffffff82000140 : \"const string\\n\"\n",
	 le_formats, TK_ARRAY_SIZE(le_formats), le_records, TK_ARRAY_SIZE(le_records)},
	{"be", TK_BYTE_ORDER_BE, 8, "", "", be_formats, TK_ARRAY_SIZE(be_formats), be_records,
	 TK_ARRAY_SIZE(be_records)},
	{"l4", TK_BYTE_ORDER_LE, 4,
	 "0000000081000200 T schedule\n"
	 "0000000081000300 T other\n",
	 "0x82000140 : \"const\\n\"\n", l4_formats, TK_ARRAY_SIZE(l4_formats), l4_records,
	 TK_ARRAY_SIZE(l4_records)},
};

/* ------------------------------------------------------------------ helpers */

static uint8_t *unhex(const char *hex, size_t *n)
{
	size_t len = strlen(hex) / 2;
	uint8_t *b = malloc(len + 1);

	assert_non_null(b);
	for (size_t i = 0; i < len; i++) {
		unsigned int v;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		b[i] = (uint8_t) v;
	}
	*n = len;
	return b;
}

static void load(struct ftrace_ctx *ctx, const struct pf_suite *s, bool compile)
{
	ftrace_ctx_init(ctx, s->bo);
	ctx->long_size = s->long_size;
	assert_int_equal(ftrace_kallsyms_parse(ctx, s->kallsyms, strlen(s->kallsyms)), TK_OK);
	assert_int_equal(ftrace_printk_parse(ctx, s->printk, strlen(s->printk)), TK_OK);
	for (size_t i = 0; i < s->n_formats; i++)
		assert_int_equal(ftrace_event_parse(ctx, s->formats[i].system, s->formats[i].text,
						    strlen(s->formats[i].text), NULL),
				 TK_OK);
	assert_int_equal(ftrace_ctx_finish(ctx), TK_OK);
	for (size_t i = 0; compile && i < ctx->n_events; i++)
		assert_int_equal(ftrace_print_compile(ctx, ctx->events[i]), TK_OK);
}

static const struct ftrace_event *event_of(const struct ftrace_ctx *ctx, const uint8_t *rec,
					   size_t n)
{
	const struct ftrace_event *ev;

	assert_true(n >= 2);
	ev = ftrace_event_find(ctx, tk_load_u16(rec, ctx->bo));
	assert_non_null(ev);
	return ev;
}

/* What the writer holds, as trace-cmd ends a line: one final newline dropped. */
static const char *text_of(struct writer *w)
{
	if (w->len && w->buf[w->len - 1] == '\n')
		w->len--;
	assert_true(w->len < w->cap);
	w->buf[w->len] = '\0';
	assert_int_equal(strlen(w->buf), w->len); /* never a NUL in the text */
	return w->buf;
}

/* Every record of a suite, in order (plugins keep state), in both output modes. */
static void run_suite(const struct pf_suite *s)
{
	struct ftrace_ctx ctx;
	struct writer w;

	load(&ctx, s, true);
	assert_int_equal(writer_init(&w, -1, 1 << 20), TK_OK);
	for (int raw = 0; raw < 2; raw++) {
		for (size_t i = 0; i < s->n_records; i++) {
			const struct pf_record *r = &s->records[i];
			size_t n;
			uint8_t *rec = unhex(r->hex, &n);
			const struct ftrace_event *ev = event_of(&ctx, rec, n);

			w.len = 0;
			if (raw)
				ftrace_print_raw(&ctx, ev, rec, n, &w);
			else
				ftrace_print_info_ts(&ctx, ev, rec, n, 1, 1000000, &w);
			if (strcmp(text_of(&w), raw ? r->raw : r->info) != 0)
				fail_msg(
					"suite %s, record %zu (%s), %s:\n  got:  \"%s\"\n  want: \"%s\"",
					s->name, i, ev->name, raw ? "raw" : "info", w.buf,
					raw ? r->raw : r->info);
			free(rec);
		}
	}
	writer_fini(&w);
	ftrace_ctx_fini(&ctx);
}

/* ------------------------------------------------------------------ libtraceevent's texts */

static void test_little_endian_suite_prints_like_libtraceevent(void **state)
{
	(void) state;
	run_suite(&suites[0]);
}

static void test_big_endian_suite_prints_like_libtraceevent(void **state)
{
	(void) state;
	run_suite(&suites[1]);
}

static void test_long4_suite_prints_like_libtraceevent(void **state)
{
	(void) state;
	run_suite(&suites[2]);
}

/* ------------------------------------------------------------------ glibc's conversions */

static void check_int(const char *spec, uint64_t v, int star)
{
	char want[512], text[64];
	struct pf_piece pc = {0};
	struct writer w;
	struct pf_out o;
	size_t len = strlen(spec);
	bool has_star = strchr(spec, '*') != NULL;
	int bits;

	assert_int_equal(writer_init(&w, -1, 1 << 16), TK_OK);
	o = (struct pf_out){.w = &w, .cap = FTRACE_PF_OUT_CAP};
	snprintf(text, sizeof(text), "%s", spec);
	pc.text = text;
	pc.len = (uint32_t) len;
	ftrace_pf_spec_parse(&pc.spec, text, len);
	bits = pc.spec.bits;
	/* the argument as libtraceevent passes it: cast by the length modifier */
	if (bits == 64) {
		if (has_star)
			snprintf(want, sizeof(want), spec, star, (long long) v);
		else
			snprintf(want, sizeof(want), spec, (long long) v);
	} else {
		if (has_star)
			snprintf(want, sizeof(want), spec, star, (int) v);
		else
			snprintf(want, sizeof(want), spec, (int) v);
	}
	if (pc.spec.conv)
		ftrace_pf_out_int_spec(&o, &pc.spec, star, has_star, v);
	else
		ftrace_pf_out_bad_spec(&o, &pc);
	if (strcmp(text_of(&w), want) != 0)
		fail_msg("%s of %#llx (star %d): got \"%s\", glibc \"%s\"", spec,
			 (unsigned long long) v, star, w.buf, want);
	writer_fini(&w);
}

static void test_integer_conversions_match_glibc(void **state)
{
	static const char *const flags[] = {"", "-", "0", "#", "-0", "#0", "-#", "0#-"};
	static const char *const widths[] = {"", "1", "5", "12", "*"};
	static const char *const precs[] = {"", ".", ".0", ".3", ".8"};
	static const char *const lens[] = {"", "hh", "h", "l", "ll", "z", "L", "Z"};
	static const char convs[] = "diuxXo";
	static const uint64_t values[] = {0,
					  1,
					  7,
					  8,
					  42,
					  (uint64_t) -42,
					  255,
					  256,
					  65535,
					  0x7fffffff,
					  0x80000000,
					  0xffffffff,
					  0x123456789abcULL,
					  0x8000000000000000ULL,
					  ~(uint64_t) 0};
	static const int stars[] = {-6, 0, 3, 9};
	char spec[32];

	(void) state;
	for (size_t f = 0; f < TK_ARRAY_SIZE(flags); f++)
		for (size_t wi = 0; wi < TK_ARRAY_SIZE(widths); wi++)
			for (size_t p = 0; p < TK_ARRAY_SIZE(precs); p++)
				for (size_t l = 0; l < TK_ARRAY_SIZE(lens); l++)
					for (size_t c = 0; convs[c]; c++) {
						snprintf(spec, sizeof(spec), "%%%s%s%s%s%c",
							 flags[f], widths[wi], precs[p], lens[l],
							 convs[c]);
						for (size_t v = 0; v < TK_ARRAY_SIZE(values); v++)
							for (size_t s = 0;
							     s < (*widths[wi] == '*' ? 4u : 1u);
							     s++)
								check_int(spec, values[v],
									  stars[s]);
					}
}

static void test_invalid_conversions_match_glibc(void **state)
{
	/* glibc prints a canonical form of what it could not parse, then the rest as text */
	static const char *const specs[] = {"%hld", "%l5d", "%5.3.2d", "%-5-3x", "%5#x",
					    "%lhu", "%Lld", "%hhhd",   "%.5.3o", "%zld"};

	(void) state;
	for (size_t i = 0; i < TK_ARRAY_SIZE(specs); i++)
		check_int(specs[i], 42, 0);
}

static void test_string_conversions_match_glibc(void **state)
{
	static const char *const specs[] = {"%s",     "%-8s", "%8s", "%.2s", "%8.2s",
					    "%-8.2s", "%.0s", "%0s", "%05s", "%.10s"};
	static const char *const strs[] = {"", "a", "hello world"};
	char want[64];

	(void) state;
	for (size_t i = 0; i < TK_ARRAY_SIZE(specs); i++) {
		for (size_t k = 0; k < TK_ARRAY_SIZE(strs); k++) {
			struct pf_spec sp;
			struct writer w;
			struct pf_out o;

			assert_int_equal(writer_init(&w, -1, 4096), TK_OK);
			o = (struct pf_out){.w = &w, .cap = FTRACE_PF_OUT_CAP};
			ftrace_pf_spec_parse(&sp, specs[i], strlen(specs[i]));
			assert_int_equal(sp.conv, 's');
			ftrace_pf_out_str_spec(&o, &sp, 0, false, strs[k], strlen(strs[k]));
			snprintf(want, sizeof(want), specs[i], strs[k]);
			if (strcmp(text_of(&w), want) != 0)
				fail_msg("%s of \"%s\": got \"%s\", glibc \"%s\"", specs[i],
					 strs[k], w.buf, want);
			writer_fini(&w);
		}
	}
}

/* ------------------------------------------------------------------ our own guarantees */

static void print_one(const struct ftrace_ctx *ctx, const char *name, const uint8_t *rec, size_t n,
		      bool raw, struct writer *w)
{
	const struct ftrace_event *ev = NULL;

	for (size_t i = 0; i < ctx->n_events; i++) {
		if (strcmp(ctx->events[i]->name, name) == 0)
			ev = ctx->events[i];
	}
	assert_non_null(ev);
	w->len = 0;
	if (raw)
		ftrace_print_raw(ctx, ev, rec, n, w);
	else
		ftrace_print_info(ctx, ev, rec, n, 0, w);
}

static void test_failed_formats_compile_and_say_so(void **state)
{
	struct ftrace_ctx ctx;

	(void) state;
	load(&ctx, &suites[0], true);
	for (size_t i = 0; i < ctx.n_events; i++) {
		const struct ftrace_event *ev = ctx.events[i];
		bool want =
			!strcmp(ev->name, "test_failed") || !strcmp(ev->name, "test_missing_arg");

		assert_int_equal(ftrace_print_failed(ev), want);
	}
	ftrace_ctx_fini(&ctx);
}

static void test_uncompiled_event_prints_as_failed(void **state)
{
	/* the same text as libtraceevent's for an event whose print fmt failed */
	static const uint8_t rec[] = {0x61, 0x02, 0, 0, 42, 0, 0, 0, 7, 0, 0, 0, 'a', 'b', 1, 0};
	struct ftrace_ctx ctx;
	struct writer w;

	(void) state;
	load(&ctx, &suites[0], false);
	assert_int_equal(writer_init(&w, -1, 4096), TK_OK);
	print_one(&ctx, "test_failed", rec, sizeof(rec), false, &w);
	assert_string_equal(text_of(&w), "[FAILED TO PARSE] a=7 name=ARRAY[61, 62, 01, 00]");
	print_one(&ctx, "test_failed", rec, sizeof(rec), true, &w);
	assert_string_equal(text_of(&w), " a=7 name=ARRAY[61, 62, 01, 00]");
	assert_true(ftrace_print_failed(ctx.events[0]));
	writer_fini(&w);
	ftrace_ctx_fini(&ctx);
}

static void test_sched_records_teach_comms(void **state)
{
	struct ftrace_ctx ctx;
	struct ftrace_comm_ref refs[2];
	const struct ftrace_event *ev = NULL;
	size_t n = 0;
	uint8_t *rec = NULL;

	(void) state;
	load(&ctx, &suites[0], true);
	for (size_t i = 0; i < suites[0].n_records; i++) {
		if (strstr(suites[0].records[i].info, "migration/1")) {
			rec = unhex(suites[0].records[i].hex, &n);
			ev = event_of(&ctx, rec, n);
			break;
		}
	}
	assert_non_null(ev);
	assert_int_equal(ftrace_print_comms(&ctx, ev, rec, n, refs), 2);
	assert_int_equal(refs[0].pid, 6361);
	assert_int_equal(refs[0].len, 9);
	assert_memory_equal(refs[0].comm, "trace-cmd", 9);
	assert_int_equal(refs[1].pid, 21);
	assert_memory_equal(refs[1].comm, "migration/1", 11);
	/* other events teach nothing */
	assert_int_equal(ftrace_print_comms(&ctx, ctx.events[0], rec, n, refs), 0);
	free(rec);
	ftrace_ctx_fini(&ctx);
}

static char *format_text(const char *print_fmt, const char *fields)
{
	static const char head[] =
		"name: hostile\nID: 900\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";
	size_t n = strlen(head) + strlen(fields) + strlen(print_fmt) + 32;
	char *t = malloc(n);

	assert_non_null(t);
	snprintf(t, n, "%s%s\nprint fmt: %s\n", head, fields, print_fmt);
	return t;
}

/*
 * perf script 6.1 prints with libtraceevent and no plugin: sched_switch's print fmt as the
 * kernel wrote it (prev_state 0 is "R" by its own conditional, as perf script shows it),
 * where trace-cmd's plugin prints "trace-cmd:6361 [120] R ==> migration/1:21 [0]".
 */
static void test_plain_print_uses_no_plugin_handler(void **state)
{
	struct ftrace_ctx ctx;
	struct writer w;
	const struct pf_record *r = NULL;
	const struct ftrace_event *ev;
	uint8_t *rec;
	size_t n;

	(void) state;
	load(&ctx, &suites[0], true);
	for (size_t i = 0; i < suites[0].n_records && !r; i++)
		if (strstr(suites[0].records[i].info, "trace-cmd:6361 [120] R"))
			r = &suites[0].records[i];
	assert_non_null(r);
	rec = unhex(r->hex, &n);
	ev = event_of(&ctx, rec, n);
	assert_int_equal(writer_init(&w, -1, 4096), TK_OK);
	ftrace_print_info_plain(&ctx, ev, rec, n, 0, &w);
	assert_string_equal(text_of(&w), "prev_comm=trace-cmd prev_pid=6361 prev_prio=120 "
					 "prev_state=R ==> next_comm=migration/1 next_pid=21 "
					 "next_prio=0");
	/* the plugin's text is still the default, from the same compiled print fmt */
	w.len = 0;
	ftrace_print_info(&ctx, ev, rec, n, 0, &w);
	assert_string_equal(text_of(&w), r->info);
	free(rec);
	writer_fini(&w);
	ftrace_ctx_fini(&ctx);
}

/*
 * A print fmt calling a function only a plugin defines: libtraceevent without plugins fails
 * to parse it ("[FAILED TO PARSE]" and the fields), with them it prints the function's value.
 */
static void test_plain_print_fails_on_plugin_functions(void **state)
{
	static const uint8_t rec[] = {0x84, 0x03, 0, 0, 42, 0, 0, 0, 0xe8, 0x03, 0, 0};
	struct ftrace_ctx ctx;
	struct ftrace_event *ev;
	struct writer w;
	char *text = format_text("\"t=%u\", jiffies_to_msecs(REC->t)",
				 "\tfield:unsigned int t;\toffset:8;\tsize:4;\tsigned:0;\n");

	(void) state;
	ftrace_ctx_init(&ctx, TK_BYTE_ORDER_LE);
	assert_int_equal(ftrace_event_parse(&ctx, "test", text, strlen(text), &ev), TK_OK);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	assert_int_equal(ftrace_print_compile(&ctx, ev), TK_OK);
	assert_int_equal(writer_init(&w, -1, 4096), TK_OK);
	ftrace_print_info_plain(&ctx, ev, rec, sizeof(rec), 0, &w);
	assert_string_equal(text_of(&w), "[FAILED TO PARSE] t=1000");
	w.len = 0;
	ftrace_print_info(&ctx, ev, rec, sizeof(rec), 0, &w);
	assert_string_equal(text_of(&w), "t=1000");
	writer_fini(&w);
	ftrace_ctx_fini(&ctx);
	free(text);
}

static void compile_hostile(const char *print_fmt, const char *fields, const uint8_t *rec, size_t n,
			    size_t max_out)
{
	struct ftrace_ctx ctx;
	struct ftrace_event *ev;
	struct writer w;
	char *text = format_text(print_fmt, fields);

	ftrace_ctx_init(&ctx, TK_BYTE_ORDER_LE);
	assert_int_equal(ftrace_event_parse(&ctx, "test", text, strlen(text), &ev), TK_OK);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	assert_int_equal(ftrace_print_compile(&ctx, ev), TK_OK);
	assert_int_equal(writer_init(&w, -1, 1 << 20), TK_OK);
	for (int raw = 0; raw < 2; raw++) {
		w.len = 0;
		if (raw)
			ftrace_print_raw(&ctx, ev, rec, n, &w);
		else
			ftrace_print_info(&ctx, ev, rec, n, 0, &w);
		assert_true(w.len <= max_out);
	}
	writer_fini(&w);
	ftrace_ctx_fini(&ctx);
	free(text);
}

static void test_deep_nesting_is_refused_not_recursed(void **state)
{
	enum { DEPTH = 20000 };
	char *fmt = malloc(3 * DEPTH + 64);
	size_t n = 0;
	static const uint8_t rec[16];

	(void) state;
	assert_non_null(fmt);
	n += (size_t) sprintf(fmt, "\"%%d\", ");
	for (int i = 0; i < DEPTH; i++)
		fmt[n++] = '(';
	fmt[n++] = '1';
	for (int i = 0; i < DEPTH; i++)
		fmt[n++] = ')';
	fmt[n] = '\0';
	compile_hostile(fmt, "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n", rec, sizeof(rec),
			1 << 16);
	n = (size_t) sprintf(fmt, "\"%%d\", ");
	for (int i = 0; i < DEPTH; i++) {
		fmt[n++] = '-';
		fmt[n++] = '~';
	}
	strcpy(fmt + n, "REC->a");
	compile_hostile(fmt, "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n", rec, sizeof(rec),
			1 << 16);
	free(fmt);
}

static void test_huge_lengths_stop_at_the_output_cap(void **state)
{
	/* a length of 4G, a width of 2G, an index far outside: bounded output, no reads out */
	static const uint8_t rec[] = {0x84, 3,	  0,	0,    0,    0,	  0,   0,   0xff, 0xff,
				      0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 'a', 'b', 0,	  0};
	const char *fields = "\tfield:unsigned int len;\toffset:8;\tsize:4;\tsigned:0;\n"
			     "\tfield:int w;\toffset:12;\tsize:4;\tsigned:1;\n"
			     "\tfield:u8 buf[4];\toffset:16;\tsize:4;\tsigned:0;\n";

	(void) state;
	compile_hostile("\"%s\", __print_hex(REC->buf, REC->len)", fields, rec, sizeof(rec),
			FTRACE_PF_OUT_CAP + FTRACE_PF_OUT_CAP_PER_BYTE * sizeof(rec));
	compile_hostile("\"%*d|%-*s\", REC->w, 1, REC->w, REC->buf", fields, rec, sizeof(rec),
			FTRACE_PF_OUT_CAP + FTRACE_PF_OUT_CAP_PER_BYTE * sizeof(rec));
	compile_hostile("\"%d %d\", REC->buf[REC->len], REC->buf[4000000000]", fields, rec,
			sizeof(rec), 64);
	compile_hostile("\"%s\", __print_array(REC->buf, REC->len, 8)", fields, rec, sizeof(rec),
			FTRACE_PF_OUT_CAP + FTRACE_PF_OUT_CAP_PER_BYTE * sizeof(rec));
	compile_hostile("\"%99999999999d\", 1", fields, rec, sizeof(rec), 64);
}

/*
 * Conditions whose truth is all that counts: the kmem events' "accounted=%s" of
 * (1 && (REC->gfp_flags & __GFP_ACCOUNT)), and the other ways a constant joins them. The
 * expected texts are C's: "1 && x" and "0 || x" are as true as x, "0 && x" never is, "2 ||
 * x" always is. Each record is printed twice (the second time through the compiled plan),
 * with and without plans.
 */
static void test_truth_of_conditions_with_constants(void **state)
{
	static const struct {
		uint8_t f;
		const char *want;
	} cases[] = {
		{4, "a=true b=yes c=no d=yes e=t f=n"},
		{0, "a=false b=no c=no d=yes e=f f=n"},
		{3, "a=false b=yes c=no d=yes e=t f=n"},
	};
	struct ftrace_ctx ctx;
	struct ftrace_event *ev;
	struct writer w;
	char *text = format_text(
		"\"a=%s b=%s c=%s d=%s e=%s f=%s\", (1 && (REC->f & 4)) ? \"true\" : \"false\", "
		"(0 || REC->f) ? \"yes\" : \"no\", (0 && REC->f) ? \"yes\" : \"no\", "
		"(2 || REC->f) ? \"yes\" : \"no\", (REC->f && 1) ? \"t\" : \"f\", "
		"(1 && (0 && REC->f)) ? \"y\" : \"n\"",
		"\tfield:unsigned int f;\toffset:8;\tsize:4;\tsigned:0;\n");

	(void) state;
	assert_int_equal(writer_init(&w, -1, 4096), TK_OK);
	for (int general = 0; general < 2; general++) {
		ftrace_ctx_init(&ctx, TK_BYTE_ORDER_LE);
		ctx.print_general_only = general;
		assert_int_equal(ftrace_event_parse(&ctx, "test", text, strlen(text), &ev), TK_OK);
		assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
		assert_int_equal(ftrace_print_compile(&ctx, ev), TK_OK);
		for (size_t i = 0; i < TK_ARRAY_SIZE(cases); i++) {
			uint8_t rec[12] = {0x84, 0x03, 0, 0, 42, 0, 0, 0, cases[i].f, 0, 0, 0};

			for (int again = 0; again < 2; again++) {
				w.len = 0;
				ftrace_print_info(&ctx, ev, rec, sizeof(rec), 0, &w);
				assert_string_equal(text_of(&w), cases[i].want);
			}
		}
		ftrace_ctx_fini(&ctx);
	}
	writer_fini(&w);
	free(text);
}

/*
 * trace-cmd's own funcgraph handlers (not libtraceevent's, so no oracle library here): the
 * expected lines follow trace-cmd 3.1.6's rules, as in its documented
 * "  0.602 us   |  mutex_unlock();": overhead mark ('+' over 10 us, '#' over 1 ms), duration
 * in us with 3 decimals below 7 digits, padded to 7, "|  ", two spaces per depth level.
 */
static void test_function_graph_like_trace_cmd(void **state)
{
	static const char entry_fmt[] =
		"name: funcgraph_entry\nID: 11\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:unsigned int depth;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned long args[];\toffset:24;\tsize:0;\tsigned:0;\n\n"
		"print fmt: \"--> %ps (%u)\", (void *)REC->func, REC->depth\n";
	static const char exit_fmt[] =
		"name: funcgraph_exit\nID: 10\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:unsigned int depth;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"<-- %ps (%u) (start: %llx  end: %llx) over: %u\", (void *)REC->func, "
		"REC->depth, REC->calltime, REC->rettime, REC->depth\n";
	static const char syms[] = "ffffffff81000200 T schedule\nffffffff81000300 T other\n";
	/* entry of schedule at depth 1, pid 42 */
	static const uint8_t entry[24] = {11,	0,    0,    0,	  42,	0,    0,    0,
					  0x00, 0x02, 0x00, 0x81, 0xff, 0xff, 0xff, 0xff,
					  1,	0,    0,    0,	  0,	0,    0,    0};
	/* its exit after 12345 ns, the exit of another pid, an exit after 2 ms at depth 0 */
	static const uint8_t ret[40] = {10,   0,    0,	  0,	42,   0,    0, 0, 0x00, 0x02,
					0x00, 0x81, 0xff, 0xff, 0xff, 0xff, 1, 0, 0,	0,
					0,    0,    0,	  0,	0xe8, 0x03, 0, 0, 0,	0,
					0,    0,    0x21, 0x34, 0,    0,    0, 0, 0,	0};
	static const uint8_t ret_other[40] = {10,   0,	  0,	0,    43,   0,	  0, 0, 0x00, 0x02,
					      0x00, 0x81, 0xff, 0xff, 0xff, 0xff, 1, 0, 0,    0,
					      0,    0,	  0,	0,    0xe8, 0x03, 0, 0, 0,    0,
					      0,    0,	  0x21, 0x34, 0,    0,	  0, 0, 0,    0};
	static const uint8_t ret_long[40] = {10,   0,	 0,    0,    42,   0,	 0, 0, 0x00, 0x03,
					     0x00, 0x81, 0xff, 0xff, 0xff, 0xff, 0, 0, 0,    0,
					     0,	   0,	 0,    0,    0,	   0,	 0, 0, 0,    0,
					     0,	   0,	 0x80, 0x84, 0x1e, 0,	 0, 0, 0,    0};
	struct ftrace_ctx ctx;
	struct ftrace_event *ent, *ex;
	struct writer w;

	(void) state;
	ftrace_ctx_init(&ctx, TK_BYTE_ORDER_LE);
	assert_int_equal(ftrace_kallsyms_parse(&ctx, syms, strlen(syms)), TK_OK);
	assert_int_equal(ftrace_event_parse(&ctx, "ftrace", entry_fmt, strlen(entry_fmt), &ent),
			 TK_OK);
	assert_int_equal(ftrace_event_parse(&ctx, "ftrace", exit_fmt, strlen(exit_fmt), &ex),
			 TK_OK);
	assert_int_equal(ftrace_ctx_finish(&ctx), TK_OK);
	assert_int_equal(ftrace_print_compile(&ctx, ent), TK_OK);
	assert_int_equal(ftrace_print_compile(&ctx, ex), TK_OK);
	assert_int_equal(writer_init(&w, -1, 4096), TK_OK);

	w.len = 0;
	assert_true(ftrace_print_info_next(&ctx, ent, entry, sizeof(entry), 0, 0, ret, sizeof(ret),
					   &w));
	assert_string_equal(text_of(&w), "+ 12.345 us  |    schedule();");
	w.len = 0;
	assert_false(ftrace_print_info_next(&ctx, ent, entry, sizeof(entry), 0, 0, ret_other,
					    sizeof(ret_other), &w));
	assert_string_equal(text_of(&w), "             |    schedule() {");
	w.len = 0;
	assert_false(ftrace_print_info_next(&ctx, ent, entry, sizeof(entry), 0, 0, NULL, 0, &w));
	assert_string_equal(text_of(&w), "             |    schedule() {");
	w.len = 0;
	ftrace_print_info(&ctx, ex, ret_long, sizeof(ret_long), 0, &w);
	assert_string_equal(text_of(&w), "# 2000.000 us |  }");
	writer_fini(&w);
	ftrace_ctx_fini(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_little_endian_suite_prints_like_libtraceevent),
		cmocka_unit_test(test_big_endian_suite_prints_like_libtraceevent),
		cmocka_unit_test(test_long4_suite_prints_like_libtraceevent),
		cmocka_unit_test(test_integer_conversions_match_glibc),
		cmocka_unit_test(test_invalid_conversions_match_glibc),
		cmocka_unit_test(test_string_conversions_match_glibc),
		cmocka_unit_test(test_failed_formats_compile_and_say_so),
		cmocka_unit_test(test_uncompiled_event_prints_as_failed),
		cmocka_unit_test(test_sched_records_teach_comms),
		cmocka_unit_test(test_plain_print_uses_no_plugin_handler),
		cmocka_unit_test(test_plain_print_fails_on_plugin_functions),
		cmocka_unit_test(test_deep_nesting_is_refused_not_recursed),
		cmocka_unit_test(test_huge_lengths_stop_at_the_output_cap),
		cmocka_unit_test(test_truth_of_conditions_with_constants),
		cmocka_unit_test(test_function_graph_like_trace_cmd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
