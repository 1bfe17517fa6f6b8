// SPDX-License-Identifier: MIT
/*
 * What `trace-cmd report` prints for events that libtraceevent's plugins (Debian's
 * libtraceevent1-plugin 1.7.1, all loaded by default) or trace-cmd itself take over, instead
 * of their print fmt: sched_switch as "prev:pid [prio] S ==> next:pid [prio]", sched_wakeup,
 * hrtimer_start and hrtimer_expire_entry, kmem call sites, the function tracer's indented
 * functions, kernel stacks, raw_data, func_repeats, trace-cmd's funcgraph_entry/exit,
 * tlb_flush and sys_enter_futex here; KVM and mac80211 in printfmt-kvm.c. The print
 * functions plugins register are in printfmt-func.c.
 *
 * Handlers find their fields by name once, when the event is compiled. The texts, including
 * the error texts ("<CANT FIND FIELD prev_pid>", "CAN'T FIND FIELD \"now\""), are those of
 * the plugins, written anew here from their documented behaviour.
 */
#include <string.h>

#include "printfmt-int.h"
#include "printfmt.h"

/* ------------------------------------------------------------------ handler table */

#define ANY(i) (1u << (i)) /* the field is found among the common fields too */

struct handler_spec {
	enum pf_handler h;
	const char *system;
	const char *const *events;
	const char *fields[16];
	uint32_t any;
};

static const char *const ev_switch[] = {"sched_switch", NULL};
static const char *const ev_wakeup[] = {"sched_wakeup", "sched_wakeup_new", NULL};
static const char *const ev_hexpire[] = {"hrtimer_expire_entry", NULL};
static const char *const ev_hstart[] = {"hrtimer_start", NULL};
static const char *const ev_kmem[] = {
	"kfree",	   "kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node",
	"kmem_cache_free", NULL};
static const char *const ev_function[] = {"function", NULL};
static const char *const ev_stack[] = {"kernel_stack", NULL};
static const char *const ev_raw[] = {"raw_data", NULL};
static const char *const ev_repeats[] = {"func_repeats", NULL};
static const char *const ev_fgexit[] = {"funcgraph_exit", NULL};
static const char *const ev_fgentry[] = {"funcgraph_entry", NULL};
static const char *const ev_tlb[] = {"tlb_flush", NULL};
static const char *const ev_futex[] = {"sys_enter_futex", NULL};
static const char *const ev_kvm_exit[] = {"kvm_exit", NULL};
static const char *const ev_kvm_entry[] = {"kvm_entry", NULL};
static const char *const ev_kvm_nested[] = {"kvm_nested_vmexit", NULL};
static const char *const ev_kvm_inject[] = {"kvm_nested_vmexit_inject", NULL};
static const char *const ev_mmu_get[] = {"kvm_mmu_get_page", NULL};
static const char *const ev_mmu_role[] = {"kvm_mmu_sync_page", "kvm_mmu_unsync_page",
					  "kvm_mmu_zap_page", "kvm_mmu_prepare_zap_page", NULL};
static const char *const ev_emulate[] = {"kvm_emulate_insn", NULL};
static const char *const ev_bss[] = {"drv_bss_info_changed", NULL};

static const struct handler_spec handlers[] = {
	{FTRACE_PF_H_SCHED_SWITCH,
	 "sched",
	 ev_switch,
	 {"prev_pid", "prev_comm", "prev_prio", "prev_state", "next_pid", "next_comm", "next_prio"},
	 ANY(1) | ANY(5)},
	{FTRACE_PF_H_SCHED_WAKEUP,
	 "sched",
	 ev_wakeup,
	 {"pid", "comm", "prio", "success", "target_cpu"},
	 ANY(1)},
	{FTRACE_PF_H_HRTIMER_EXPIRE,
	 "timer",
	 ev_hexpire,
	 {"timer", "hrtimer", "now", "function"},
	 0},
	{FTRACE_PF_H_HRTIMER_START,
	 "timer",
	 ev_hstart,
	 {"timer", "hrtimer", "function", "expires", "softexpires"},
	 0},
	{FTRACE_PF_H_KMEM_CALL_SITE, "kmem", ev_kmem, {"call_site"}, 0},
	{FTRACE_PF_H_FUNCTION, "ftrace", ev_function, {"ip", "parent_ip"}, 0},
	{FTRACE_PF_H_KERNEL_STACK, "ftrace", ev_stack, {"caller"}, ANY(0)},
	{FTRACE_PF_H_RAW_DATA, "ftrace", ev_raw, {"id", "buf"}, ANY(1)},
	{FTRACE_PF_H_FUNC_REPEATS,
	 "ftrace",
	 ev_repeats,
	 {"ip", "parent_ip", "count", "top_delta_ts", "bottom_delta_ts"},
	 0},
	{FTRACE_PF_H_FGRAPH_EXIT, "ftrace", ev_fgexit, {"rettime", "calltime", "depth"}, 0},
	{FTRACE_PF_H_FGRAPH_ENTRY, "ftrace", ev_fgentry, {"common_pid", "func", "depth"}, ANY(0)},
	{FTRACE_PF_H_TLB_FLUSH, "tlb", ev_tlb, {"pages", "reason"}, 0},
	{FTRACE_PF_H_FUTEX,
	 "syscalls",
	 ev_futex,
	 {"uaddr", "op", "val", "utime", "uaddr2", "val3"},
	 0},
	{FTRACE_PF_H_KVM_EXIT,
	 "kvm",
	 ev_kvm_exit,
	 {"exit_reason", "isa", "guest_rip", "info1", "info2"},
	 0},
	{FTRACE_PF_H_KVM_ENTRY, "kvm", ev_kvm_entry, {"vcpu_id", "rip"}, 0},
	{FTRACE_PF_H_KVM_NESTED_VMEXIT,
	 "kvm",
	 ev_kvm_nested,
	 {"rip", "exit_code", "isa", "exit_info1", "exit_info2", "exit_int_info",
	  "exit_int_info_err"},
	 0},
	{FTRACE_PF_H_KVM_NESTED_VMEXIT_INJECT,
	 "kvm",
	 ev_kvm_inject,
	 {"rip", "exit_code", "isa", "exit_info1", "exit_info2", "exit_int_info",
	  "exit_int_info_err"},
	 0},
	{FTRACE_PF_H_KVM_MMU_GET_PAGE,
	 "kvmmmu",
	 ev_mmu_get,
	 {"created", "gfn", "role", "root_count", "unsync"},
	 0},
	{FTRACE_PF_H_KVM_MMU_ROLE,
	 "kvmmmu",
	 ev_mmu_role,
	 {"created", "gfn", "role", "root_count", "unsync"},
	 0},
	{FTRACE_PF_H_KVM_EMULATE_INSN,
	 "kvm",
	 ev_emulate,
	 {"rip", "csbase", "len", "flags", "failed", "insn"},
	 0},
	{FTRACE_PF_H_MAC80211_BSS,
	 "mac80211",
	 ev_bss,
	 {"wiphy_name", "vif_name", "vif_type", "assoc", "aid", "cts", "shortpre", "shortslot",
	  "dtimper", "bcnint", "assoc_cap", "basic_rates", "enable_beacon", "ht_operation_mode"},
	 0},
};

static const struct handler_spec *spec_of(enum pf_handler h)
{
	for (size_t i = 0; i < TK_ARRAY_SIZE(handlers); i++) {
		if (handlers[i].h == h)
			return &handlers[i];
	}
	return NULL;
}

const char *ftrace_pf_h_field_name(const struct pf_rec *r, int k)
{
	return spec_of(r->pp->handler)->fields[k];
}

/* The funcgraph_exit fields funcgraph_entry reads from the next record, found once. */
enum { RET_TYPE, RET_PID, RET_FUNC, RET_RETTIME, RET_CALLTIME, RET_N };

static void ret_fields(struct pf_print *pp, const struct ftrace_event *ev)
{
	static const char *const names[RET_N] = {"common_type", "common_pid", "func", "rettime",
						 "calltime"};

	/* common_* among the common fields (tep_get_common_field_val), the rest among its own */
	for (int k = 0; k < RET_N; k++) {
		uint32_t from = k <= RET_PID ? 0 : ev->n_common;
		uint32_t to = k <= RET_PID ? ev->n_common : ev->n_fields;

		pp->ret_f[k] = NULL;
		for (uint32_t i = from; i < to && i < ev->n_fields; i++) {
			if (strcmp(ev->fields[i].name, names[k]) == 0) {
				pp->ret_f[k] = &ev->fields[i];
				break;
			}
		}
	}
}

void ftrace_pf_handler_setup(const struct ftrace_ctx *ctx, struct pf_print *pp)
{
	const struct ftrace_event *ev = pp->ev;
	const char *sys = ev->system ? ev->system : "", *name = ev->name ? ev->name : "";

	pp->handler = FTRACE_PF_H_NONE;
	for (size_t i = 0; i < TK_ARRAY_SIZE(handlers) && !pp->handler; i++) {
		const struct handler_spec *hs = &handlers[i];

		if (strcmp(hs->system, sys) != 0)
			continue;
		for (const char *const *e = hs->events; *e; e++) {
			if (strcmp(*e, name) != 0)
				continue;
			pp->handler = hs->h;
			for (int k = 0; k < 16 && hs->fields[k]; k++) {
				pp->hf[k] = (hs->any & ANY(k))
						    ? ftrace_pf_find_any_field(pp, hs->fields[k])
						    : ftrace_pf_find_field(pp, hs->fields[k]);
			}
			break;
		}
	}
	if (pp->handler != FTRACE_PF_H_FUNC_REPEATS && pp->handler != FTRACE_PF_H_FGRAPH_ENTRY)
		return; /* no other event to find: not a walk over all of them per format */
	for (size_t i = 0; i < ctx->n_events; i++) {
		const struct ftrace_event *e = ctx->events[i];

		if (!e || !e->system || !e->name || strcmp(e->system, "ftrace") != 0)
			continue;
		if (pp->handler == FTRACE_PF_H_FUNC_REPEATS && !strcmp(e->name, "function"))
			pp->fn_ev = e;
		if (pp->handler == FTRACE_PF_H_FGRAPH_ENTRY && !strcmp(e->name, "funcgraph_exit") &&
		    !pp->ret_ev) {
			ftrace_event_load(ctx, e);
			pp->ret_ev = e; /* trace-cmd takes the first one by name */
			ret_fields(pp, e);
		}
	}
}

/* ------------------------------------------------------------------ field helpers */

/* tep_get_field_val(): a field's value, or an error text (if @err) and false. */
bool ftrace_pf_h_field_val(struct pf_out *o, const struct pf_rec *r, int k, bool err, uint64_t *v)
{
	const struct pf_field *f = r->pp->hf[k];
	const struct handler_spec *hs = spec_of(r->pp->handler);

	if (!f) {
		if (err) {
			ftrace_pf_out_puts(o, "<CANT FIND FIELD ");
			ftrace_pf_out_puts(o, hs->fields[k]);
			ftrace_pf_out_putc(o, '>');
		}
		return false;
	}
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) {
		if (err) {
			ftrace_pf_out_putc(o, ' ');
			ftrace_pf_out_puts(o, hs->fields[k]);
			ftrace_pf_out_puts(o, "=INVALID");
		}
		return false;
	}
	*v = ftrace_pf_read_num(r, f->offset, f->size);
	return true;
}

/* tep_print_num_field() for its callers' conversions: false when the field is unusable. */
bool ftrace_pf_h_num_field(struct pf_out *o, const struct pf_rec *r, int k, bool err, uint64_t *v)
{
	const struct pf_field *f = r->pp->hf[k];

	if (!f || (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)) {
		if (err) {
			ftrace_pf_out_puts(o, "CAN'T FIND FIELD \"");
			ftrace_pf_out_puts(o, spec_of(r->pp->handler)->fields[k]);
			ftrace_pf_out_putc(o, '"');
		}
		return false;
	}
	*v = ftrace_pf_read_num(r, f->offset, f->size);
	return true;
}

void ftrace_pf_h_hex0x(struct pf_out *o, uint64_t v)
{
	ftrace_pf_out_write(o, "0x", 2);
	ftrace_pf_out_hex(o, v, false);
}

/* "%.*s" of a char array field: up to its size or its NUL. */
static void out_comm(struct pf_out *o, const struct pf_rec *r, const struct pf_field *f)
{
	size_t n = 0;

	while (n < f->size && ftrace_pf_byte(r, (uint64_t) f->offset + n))
		n++;
	if (n)
		ftrace_pf_out_write(o, (const char *) r->data + f->offset, n);
}

/* tep_print_func_field(s, " function=%s", ...): "name/0x<start - addr>" or "0x%08llx". */
static void out_func_field(struct pf_out *o, const struct pf_rec *r, int k)
{
	uint64_t v;
	const struct ftrace_sym *s;
	size_t n;

	if (!ftrace_pf_h_num_field(o, r, k, false, &v))
		return;
	ftrace_pf_out_puts(o, " function=");
	s = ftrace_pf_sym(r, v);
	if (s) {
		ftrace_pf_out_puts(o, s->name);
		ftrace_pf_out_write(o, "/0x", 3);
		ftrace_pf_out_hex(o, s->addr - v, false);
		return;
	}
	ftrace_pf_out_write(o, "0x", 2);
	n = 0;
	for (uint64_t t = v; t || !n; t >>= 4)
		n++;
	if (n < 8)
		ftrace_pf_out_fill(o, '0', 8 - n);
	ftrace_pf_out_hex(o, v, false);
}

/* ------------------------------------------------------------------ sched */

static void sched_state(struct pf_out *o, int val)
{
	static const char states[] = "SDTtZXxW";
	bool found = false;

	for (int i = 0; i < 8; i++) {
		if (!(val & (1 << i)))
			continue;
		if (found)
			ftrace_pf_out_putc(o, '|');
		found = true;
		ftrace_pf_out_putc(o, states[i]);
	}
	if (!found)
		ftrace_pf_out_putc(o, 'R');
}

static bool h_sched_switch(struct pf_out *o, const struct pf_rec *r)
{
	const struct pf_print *pp = r->pp;
	uint64_t v;

	if (!ftrace_pf_h_field_val(o, r, 0, true, &v)) {
		ftrace_pf_out_putc(o, '!');
		return true;
	}
	if (pp->hf[1]) {
		out_comm(o, r, pp->hf[1]);
		ftrace_pf_out_putc(o, ':');
	}
	ftrace_pf_out_i64(o, (int64_t) v);
	ftrace_pf_out_putc(o, ' ');
	if (ftrace_pf_h_field_val(o, r, 2, true, &v)) {
		ftrace_pf_out_putc(o, '[');
		ftrace_pf_out_i64(o, (int32_t) v);
		ftrace_pf_out_write(o, "] ", 2);
	}
	if (ftrace_pf_h_field_val(o, r, 3, true, &v))
		sched_state(o, (int) v);
	ftrace_pf_out_write(o, " ==> ", 5);
	if (!ftrace_pf_h_field_val(o, r, 4, true, &v)) {
		ftrace_pf_out_putc(o, '!');
		return true;
	}
	if (pp->hf[5]) {
		out_comm(o, r, pp->hf[5]);
		ftrace_pf_out_putc(o, ':');
	}
	ftrace_pf_out_i64(o, (int64_t) v);
	if (ftrace_pf_h_field_val(o, r, 6, true, &v)) {
		ftrace_pf_out_write(o, " [", 2);
		ftrace_pf_out_i64(o, (int32_t) v);
		ftrace_pf_out_putc(o, ']');
	}
	return false;
}

static bool h_sched_wakeup(struct pf_out *o, const struct pf_rec *r)
{
	uint64_t v;

	if (!ftrace_pf_h_field_val(o, r, 0, true, &v)) {
		ftrace_pf_out_putc(o, '!');
		return true;
	}
	if (r->pp->hf[1]) {
		out_comm(o, r, r->pp->hf[1]);
		ftrace_pf_out_putc(o, ':');
	}
	ftrace_pf_out_i64(o, (int64_t) v);
	if (ftrace_pf_h_field_val(o, r, 2, true, &v)) {
		ftrace_pf_out_write(o, " [", 2);
		ftrace_pf_out_i64(o, (int64_t) v);
		ftrace_pf_out_putc(o, ']');
	}
	if (ftrace_pf_h_field_val(o, r, 3, false, &v)) {
		ftrace_pf_out_write(o, " success=", 9);
		ftrace_pf_out_i64(o, (int64_t) v);
	}
	if (ftrace_pf_h_field_val(o, r, 4, false, &v)) {
		char buf[24];
		size_t n = fmt_u64(buf, v);

		ftrace_pf_out_write(o, " CPU:", 5);
		if (n < 3)
			ftrace_pf_out_fill(o, '0', 3 - n);
		ftrace_pf_out_write(o, buf, n);
	}
	return false;
}

unsigned int ftrace_print_comms(const struct ftrace_ctx *ctx, const struct ftrace_event *ev,
				const uint8_t *rec, size_t size, struct ftrace_comm_ref out[2])
{
	const struct pf_print *pp = ftrace_pf_print_of(ctx, ev);
	struct pf_rec r;
	unsigned int n = 0;
	int pid_k[2], comm_k[2], count;

	/* most events name no task: return before setting up the record */
	if (!pp ||
	    (pp->handler != FTRACE_PF_H_SCHED_SWITCH && pp->handler != FTRACE_PF_H_SCHED_WAKEUP))
		return 0;
	r = (struct pf_rec){.ctx = ctx, .data = rec, .size = size, .pp = (struct pf_print *) pp};
	if (pp->handler == FTRACE_PF_H_SCHED_SWITCH) {
		pid_k[0] = 0, comm_k[0] = 1, pid_k[1] = 4, comm_k[1] = 5, count = 2;
	} else if (pp->handler == FTRACE_PF_H_SCHED_WAKEUP) {
		pid_k[0] = 0, comm_k[0] = 1, count = 1;
	} else {
		return 0;
	}
	for (int i = 0; i < count; i++) {
		const struct pf_field *pf = pp->hf[pid_k[i]], *cf = pp->hf[comm_k[i]];
		size_t len = 0;

		/* the handler stops at a missing pid, and registers nothing without a comm */
		if (!pf || (pf->size != 1 && pf->size != 2 && pf->size != 4 && pf->size != 8))
			break;
		if (!cf)
			continue;
		while (len < cf->size && ftrace_pf_byte(&r, (uint64_t) cf->offset + len))
			len++;
		out[n].pid = (int32_t) ftrace_pf_read_num(&r, pf->offset, pf->size);
		out[n].comm =
			(uint64_t) cf->offset + len <= size ? (const char *) rec + cf->offset : "";
		out[n].len = (uint64_t) cf->offset + len <= size ? len : 0;
		n++;
	}
	return n;
}

/* ------------------------------------------------------------------ timer, kmem, tlb */

static bool h_hrtimer(struct pf_out *o, const struct pf_rec *r, bool start)
{
	uint64_t v;

	ftrace_pf_out_puts(o, "hrtimer=");
	if (ftrace_pf_h_num_field(o, r, 0, false, &v))
		ftrace_pf_h_hex0x(o, v);
	else if (ftrace_pf_h_num_field(o, r, 1, true, &v))
		ftrace_pf_h_hex0x(o, v);
	if (!start) {
		ftrace_pf_out_puts(o, " now=");
		if (ftrace_pf_h_num_field(o, r, 2, true, &v))
			ftrace_pf_out_u64(o, v);
		out_func_field(o, r, 3);
		return false;
	}
	out_func_field(o, r, 2);
	ftrace_pf_out_puts(o, " expires=");
	if (ftrace_pf_h_num_field(o, r, 3, true, &v))
		ftrace_pf_out_u64(o, v);
	ftrace_pf_out_puts(o, " softexpires=");
	if (ftrace_pf_h_num_field(o, r, 4, true, &v))
		ftrace_pf_out_u64(o, v);
	return false;
}

/* h_kmem()'s one reservation: the name's room, and that of the rest (ftrace_pf_put_sym()) */
#define H_KMEM_NAME_MAX 1024u
#define H_KMEM_ROOM	32u

static bool h_kmem(struct pf_out *o, const struct pf_rec *r)
{
	const struct pf_field *f = r->pp->hf[0];
	const struct pf_symcache *c;
	uint64_t v;

	if (!f || (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return true;
	v = ftrace_pf_read_num(r, f->offset, f->size);
	c = ftrace_pf_sym_entry(r, v);
	if (!c->sym)
		return true;
	if ((v - c->sym->addr) >> 32 == 0 && c->name_len <= H_KMEM_NAME_MAX && !o->dead &&
	    !o->muted && c->name_len + H_KMEM_ROOM <= o->cap - o->n) {
		/* the usual case in one reservation: 40% of a -e all trace are kmem events */
		char *q = writer_reserve(o->w, c->name_len + H_KMEM_ROOM), *start = q;

		*q++ = '(';
		q = ftrace_pf_put_sym(q, c, c->off_len);
		memcpy(q, ") ", 2);
		q += 2;
		writer_commit_to(o->w, q);
		o->n += (size_t) (q - start);
		return true;
	}
	ftrace_pf_out_putc(o, '(');
	ftrace_pf_out_write(o, c->sym->name, c->name_len);
	if ((v - c->sym->addr) >> 32 == 0) {
		ftrace_pf_out_write(o, c->off_text, c->off_len);
	} else { /* the plugin prints the offset as an int */
		ftrace_pf_out_write(o, "+0x", 3);
		ftrace_pf_out_hex(o, (uint32_t) (v - c->sym->addr), false);
	}
	ftrace_pf_out_write(o, ") ", 2);
	return true;
}

static bool h_tlb(struct pf_out *o, const struct pf_rec *r)
{
	static const char *const reasons[] = {"flush on task switch", "remote shootdown",
					      "local shootdown", "local mm shootdown"};
	uint64_t v;

	ftrace_pf_out_puts(o, "pages=");
	if (ftrace_pf_h_num_field(o, r, 0, true, &v))
		ftrace_pf_out_i64(o, (int64_t) v);
	if (!ftrace_pf_h_field_val(o, r, 1, true, &v))
		return true; /* the plugin returns -1: the print fmt follows */
	ftrace_pf_out_puts(o, " reason=");
	if (v < 4)
		ftrace_pf_out_puts(o, reasons[v]);
	ftrace_pf_out_write(o, " (", 2);
	ftrace_pf_out_i64(o, (int64_t) v);
	ftrace_pf_out_putc(o, ')');
	return false;
}

/* ------------------------------------------------------------------ futex */

void ftrace_pf_h_hex08(struct pf_out *o, const char *label, uint64_t v)
{
	size_t n = 0;

	ftrace_pf_out_puts(o, label);
	for (uint64_t t = v; t || !n; t >>= 4)
		n++;
	if (n < 8)
		ftrace_pf_out_fill(o, '0', 8 - n);
	ftrace_pf_out_hex(o, v, false);
}

static bool h_futex(struct pf_out *o, const struct pf_rec *r)
{
	/* per command: val, utime (val2), uaddr2, val3; 'x' = hex, 'u' = decimal, 0 = none */
	static const struct {
		const char *name;
		char val, utime, uaddr2, val3;
	} ops[] = {
		{"FUTEX_WAIT", 'x', 'x', 0, 0},
		{"FUTEX_WAKE", 'u', 0, 0, 0},
		{"FUTEX_FD", 'u', 0, 0, 0},
		{"FUTEX_REQUEUE", 'u', 'u', 'x', 0},
		{"FUTEX_CMP_REQUEUE", 'u', 'u', 'x', 'x'},
		{"FUTEX_WAKE_OP", 'u', 'u', 'x', 'x'},
		{"FUTEX_LOCK_PI", 0, 'x', 0, 0},
		{"FUTEX_UNLOCK_PI", 0, 0, 0, 0},
		{"FUTEX_TRYLOCK_PI", 0, 0, 0, 0},
		{"FUTEX_WAIT_BITSET", 'x', 'x', 0, 'x'},
		{"FUTEX_WAKE_BITSET", 'u', 0, 0, 'x'},
		{"FUTEX_WAIT_REQUEUE_PI", 'x', 'x', 'x', 'x'},
		{"FUTEX_CMP_REQUEUE_PI", 'u', 'u', 'x', 'x'},
	};
	uint64_t a[6], cmd;

	for (int k = 0; k < 6; k++) {
		if (!ftrace_pf_h_field_val(o, r, k, true, &a[k]))
			return true;
	}
	cmd = a[1] & ~(uint64_t) (128 | 256);
	if (cmd >= TK_ARRAY_SIZE(ops))
		return true;
	ftrace_pf_out_puts(o, "op=");
	ftrace_pf_out_puts(o, ops[cmd].name);
	if (a[1] & 128)
		ftrace_pf_out_puts(o, "|FUTEX_PRIVATE_FLAG");
	if (a[1] & 256)
		ftrace_pf_out_puts(o, "|FUTEX_CLOCK_REALTIME");
	ftrace_pf_h_hex08(o, " uaddr=0x", a[0]);
	if (ops[cmd].val == 'x')
		ftrace_pf_h_hex08(o, " val=0x", a[2]);
	else if (ops[cmd].val == 'u') {
		ftrace_pf_out_puts(o, " val=");
		ftrace_pf_out_u64(o, a[2]);
	}
	if (ops[cmd].utime == 'x')
		ftrace_pf_h_hex08(o, " utime=0x", a[3]);
	else if (ops[cmd].utime == 'u') {
		ftrace_pf_out_puts(o, " val2=");
		ftrace_pf_out_u64(o, a[3]);
	}
	if (ops[cmd].uaddr2)
		ftrace_pf_h_hex08(o, " uaddr2=0x", a[4]);
	if (ops[cmd].val3)
		ftrace_pf_h_hex08(o, " val3=0x", a[5]);
	return false;
}

/* ------------------------------------------------------------------ ftrace's own events */

static struct pf_print *fstack_owner(const struct pf_rec *r)
{
	if (r->pp->handler == FTRACE_PF_H_FUNC_REPEATS && r->pp->fn_ev &&
	    ftrace_pf_print_of(r->ctx, r->pp->fn_ev))
		return r->pp->fn_ev->print; /* the plugin's stacks are shared by both events */
	return r->pp;
}

static void fstack_set(struct pf_fstack *st, const char *name, uint32_t pos)
{
	if (!name)
		return;
	if (pos >= st->size) {
		uint32_t size = st->size + 10;
		const char **n = realloc(st->names, size * sizeof(*n));

		if (!n)
			return;
		for (uint32_t i = st->size; i < size; i++)
			n[i] = NULL;
		st->names = n;
		st->size = size;
	}
	st->names[pos] = name;
}

/* The function plugin's indentation: the depth of @parent in this CPU's remembered chain. */
static int fstack_index(struct pf_print *pp, const char *parent, const char *child, int cpu)
{
	struct pf_fstack *st;

	if (cpu < 0 || cpu >= 65536)
		return 0;
	if (cpu >= pp->n_fstack) {
		struct pf_fstack *n = realloc(pp->fstack, (size_t) (cpu + 1) * sizeof(*n));

		if (!n)
			return 0;
		memset(n + pp->n_fstack, 0, (size_t) (cpu + 1 - pp->n_fstack) * sizeof(*n));
		pp->fstack = n;
		pp->n_fstack = cpu + 1;
	}
	st = &pp->fstack[cpu];
	for (uint32_t i = 0; i < st->size && st->names[i]; i++) {
		if (parent == st->names[i] || strcmp(parent, st->names[i]) == 0) {
			fstack_set(st, child, i + 1);
			return (int) i;
		}
	}
	fstack_set(st, parent, 0);
	fstack_set(st, child, 1);
	return 0;
}

static bool h_function(struct pf_out *o, const struct pf_rec *r)
{
	const struct ftrace_sym *fs, *ps;
	uint64_t ip, pip;
	int index = 0;

	if (!ftrace_pf_h_field_val(o, r, 0, true, &ip)) {
		ftrace_pf_out_putc(o, '!');
		return true;
	}
	fs = ftrace_pf_sym(r, ip);
	if (!ftrace_pf_h_field_val(o, r, 1, true, &pip)) {
		ftrace_pf_out_putc(o, '!');
		return true;
	}
	ps = ftrace_pf_sym(r, pip);
	if (ps)
		index = fstack_index(fstack_owner(r), ps->name, fs ? fs->name : NULL, r->cpu);
	ftrace_pf_out_fill(o, ' ', (size_t) index * 3);
	if (fs)
		ftrace_pf_out_puts(o, fs->name);
	else
		ftrace_pf_h_hex0x(o, ip);
	return false;
}

/* tep_print_event(..., "%6.1000d", TEP_PRINT_TIME): microseconds, rounded. */
static void out_usecs(struct pf_out *o, uint64_t ts)
{
	char buf[24];
	uint64_t t = (ts + 500) / 1000;
	size_t n = fmt_u64(buf, t / 1000000);

	if (n < 5)
		ftrace_pf_out_fill(o, ' ', 5 - n);
	ftrace_pf_out_write(o, buf, n);
	ftrace_pf_out_putc(o, '.');
	n = fmt_u64(buf, t % 1000000);
	ftrace_pf_out_fill(o, '0', 6 - n);
	ftrace_pf_out_write(o, buf, n);
}

static bool h_func_repeats(struct pf_out *o, const struct pf_rec *r)
{
	uint64_t count, top, bottom;

	h_function(o, r);
	if (!ftrace_pf_h_field_val(o, r, 2, true, &count) ||
	    !ftrace_pf_h_field_val(o, r, 3, true, &top) ||
	    !ftrace_pf_h_field_val(o, r, 4, true, &bottom)) {
		ftrace_pf_out_putc(o, '!');
		return true;
	}
	ftrace_pf_out_puts(o, " (count: ");
	ftrace_pf_out_i64(o, (int64_t) count);
	ftrace_pf_out_puts(o, "  last_ts: ");
	out_usecs(o, r->ts - ((top << 32) | bottom));
	ftrace_pf_out_putc(o, ')');
	return false;
}

static bool h_kernel_stack(struct pf_out *o, const struct pf_rec *r)
{
	const struct pf_field *f = r->pp->hf[0];
	uint32_t ls = r->ctx->long_size;

	if (!f) {
		ftrace_pf_out_puts(o, "<CANT FIND FIELD caller>");
		return false;
	}
	ftrace_pf_out_puts(o, "<stack trace >\n");
	for (uint64_t p = f->offset; p < r->size && !o->dead; p += ls) {
		uint64_t addr = ftrace_pf_read_num(r, p, ls);
		const struct ftrace_sym *s;

		if ((ls == 8 && addr == ~(uint64_t) 0) || (uint32_t) addr == 0xffffffffu)
			break;
		s = ftrace_pf_sym(r, addr);
		if (s) {
			ftrace_pf_out_write(o, "=> ", 3);
			ftrace_pf_out_puts(o, s->name);
			ftrace_pf_out_write(o, " (", 2);
			ftrace_pf_out_hex(o, addr, false);
			ftrace_pf_out_write(o, ")\n", 2);
		} else {
			ftrace_pf_out_write(o, "=> ", 3);
			ftrace_pf_out_hex(o, addr, false);
			ftrace_pf_out_putc(o, '\n');
		}
	}
	return false;
}

static bool h_raw_data(struct pf_out *o, const struct pf_rec *r)
{
	const struct pf_field *f = r->pp->hf[1];
	uint32_t ls = r->ctx->long_size;
	uint64_t id;

	if (!ftrace_pf_h_field_val(o, r, 0, true, &id)) {
		ftrace_pf_out_putc(o, '!');
		return true;
	}
	ftrace_pf_out_puts(o, "# ");
	ftrace_pf_out_hex(o, id, false);
	if (!f) {
		ftrace_pf_out_puts(o, "<CANT FIND FIELD buf>");
		return false;
	}
	for (uint64_t p = f->offset; p < r->size && !o->dead; p += ls) {
		/* sizeof(long) bytes of trace-cmd's own machine from each long of the trace */
		uint64_t n = r->size - p < 8 ? r->size - p : 8;

		for (uint64_t i = 0; i < n; i++) {
			ftrace_pf_out_putc(o, ' ');
			ftrace_pf_out_hex2(o, ftrace_pf_byte(r, p + i));
		}
	}
	return false;
}

/* trace-cmd's print_graph_overhead() and print_graph_duration(): "+ 12.345 us   |  ". */
static void fgraph_duration(struct pf_out *o, uint64_t d)
{
	uint64_t usecs;
	char buf[24];
	size_t n;

	if (d == ~0ULL)
		ftrace_pf_out_write(o, "  ", 2);
	else if (d > 1000000000ULL)
		ftrace_pf_out_write(o, "$ ", 2);
	else if (d > 1000000ULL)
		ftrace_pf_out_write(o, "# ", 2);
	else if (d > 100000ULL)
		ftrace_pf_out_write(o, "! ", 2);
	else if (d > 10000ULL)
		ftrace_pf_out_write(o, "+ ", 2);
	else
		ftrace_pf_out_write(o, "  ", 2);
	usecs = d / 1000;
	n = fmt_u64(buf, usecs);
	ftrace_pf_out_write(o, buf, n);
	if (n < 7) {
		char ns[3] = {(char) ('0' + d % 1000 / 100), (char) ('0' + d % 100 / 10),
			      (char) ('0' + d % 10)};

		ftrace_pf_out_putc(o, '.');
		ftrace_pf_out_write(o, ns, 3);
		n += 4;
	}
	ftrace_pf_out_write(o, " us ", 4);
	if (n < 7)
		ftrace_pf_out_fill(o, ' ', 7 - n);
	ftrace_pf_out_write(o, "|  ", 3);
}

/* trace-cmd's funcgraph_exit: overhead mark, duration, indentation, "}". */
static bool h_fgraph_exit(struct pf_out *o, const struct pf_rec *r)
{
	uint64_t ret, call, depth;

	if (!ftrace_pf_h_field_val(o, r, 0, true, &ret) ||
	    !ftrace_pf_h_field_val(o, r, 1, true, &call)) {
		ftrace_pf_out_putc(o, '!');
		return true;
	}
	fgraph_duration(o, ret - call);
	if (!ftrace_pf_h_field_val(o, r, 2, true, &depth)) {
		ftrace_pf_out_putc(o, '!');
		return true;
	}
	if ((int) (depth * 2) > 0)
		ftrace_pf_out_fill(o, ' ', (size_t) (int) (depth * 2));
	ftrace_pf_out_putc(o, '}');
	return false;
}

/* A field of the next record, read with the exit event's layout. */
static bool next_val(const struct pf_rec *r, int k, uint64_t *v)
{
	const struct ftrace_field *f = r->pp->ret_f[k];
	struct pf_rec nr = *r;

	if (!f || (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return false;
	nr.data = r->next;
	nr.size = r->next_size;
	*v = ftrace_pf_read_num(&nr, f->offset, f->size);
	return true;
}

/*
 * trace-cmd's funcgraph_entry: when the record it reads next is the funcgraph_exit of the same
 * function and pid, one leaf line "func();" with the duration (and the exit record is skipped);
 * else "func() {" at the depth's indentation.
 */
static bool h_fgraph_entry(struct pf_out *o, struct pf_rec *r)
{
	const struct ftrace_event *ret_ev = r->pp->ret_ev;
	const struct ftrace_sym *s;
	uint64_t pid, func, depth, type, npid, nfunc, ret, call;
	bool leaf = false;

	if (!ret_ev)
		return true; /* trace-cmd's handler fails without the exit event */
	if (!ftrace_pf_h_field_val(o, r, 0, true, &pid) ||
	    !ftrace_pf_h_field_val(o, r, 1, true, &func)) {
		ftrace_pf_out_putc(o, '!');
		return true;
	}
	if (r->next && next_val(r, RET_TYPE, &type) && type == ret_ev->id &&
	    next_val(r, RET_PID, &npid) && (int32_t) pid == (int64_t) npid &&
	    next_val(r, RET_FUNC, &nfunc) && nfunc == func)
		leaf = true;
	if (leaf) {
		r->used_next = true;
		if (!next_val(r, RET_RETTIME, &ret) || !next_val(r, RET_CALLTIME, &call)) {
			ftrace_pf_out_putc(o, '!');
			return false;
		}
		fgraph_duration(o, ret - call);
	} else {
		ftrace_pf_out_write(o, "  ", 2);
		ftrace_pf_out_puts(o, "           |  ");
	}
	if (!ftrace_pf_h_field_val(o, r, 2, true, &depth)) {
		ftrace_pf_out_putc(o, '!');
		return false;
	}
	if ((int) (depth * 2) > 0)
		ftrace_pf_out_fill(o, ' ', (size_t) (int) (depth * 2));
	s = ftrace_pf_sym(r, func);
	if (s)
		ftrace_pf_out_puts(o, s->name);
	else
		ftrace_pf_out_hex(o, func, false);
	ftrace_pf_out_puts(o, leaf ? "();" : "() {");
	return false;
}

bool ftrace_print_wants_next(const struct ftrace_ctx *ctx, const struct ftrace_event *ev)
{
	const struct pf_print *pp = ftrace_pf_print_of(ctx, ev);

	return pp && pp->handler == FTRACE_PF_H_FGRAPH_ENTRY && pp->ret_ev;
}

bool ftrace_pf_run_handler(struct pf_out *o, struct pf_rec *r)
{
	switch (r->pp->handler) {
	case FTRACE_PF_H_SCHED_SWITCH:
		return h_sched_switch(o, r);
	case FTRACE_PF_H_SCHED_WAKEUP:
		return h_sched_wakeup(o, r);
	case FTRACE_PF_H_HRTIMER_EXPIRE:
		return h_hrtimer(o, r, false);
	case FTRACE_PF_H_HRTIMER_START:
		return h_hrtimer(o, r, true);
	case FTRACE_PF_H_KMEM_CALL_SITE:
		return h_kmem(o, r);
	case FTRACE_PF_H_FUNCTION:
		return h_function(o, r);
	case FTRACE_PF_H_KERNEL_STACK:
		return h_kernel_stack(o, r);
	case FTRACE_PF_H_RAW_DATA:
		return h_raw_data(o, r);
	case FTRACE_PF_H_FUNC_REPEATS:
		return h_func_repeats(o, r);
	case FTRACE_PF_H_FGRAPH_EXIT:
		return h_fgraph_exit(o, r);
	case FTRACE_PF_H_FGRAPH_ENTRY:
		return h_fgraph_entry(o, r);
	case FTRACE_PF_H_TLB_FLUSH:
		return h_tlb(o, r);
	case FTRACE_PF_H_FUTEX:
		return h_futex(o, r);
	case FTRACE_PF_H_KVM_EXIT:
		return ftrace_pf_h_kvm_exit(o, r);
	case FTRACE_PF_H_KVM_ENTRY:
		return ftrace_pf_h_kvm_entry(o, r);
	case FTRACE_PF_H_KVM_NESTED_VMEXIT:
		return ftrace_pf_h_kvm_nested(o, r);
	case FTRACE_PF_H_KVM_NESTED_VMEXIT_INJECT:
		return ftrace_pf_h_kvm_inject(o, r);
	case FTRACE_PF_H_KVM_MMU_GET_PAGE:
		return ftrace_pf_h_kvm_get_page(o, r);
	case FTRACE_PF_H_KVM_MMU_ROLE:
		return ftrace_pf_h_kvm_role(o, r);
	case FTRACE_PF_H_KVM_EMULATE_INSN:
		return ftrace_pf_h_kvm_emulate(o, r);
	case FTRACE_PF_H_MAC80211_BSS:
		return ftrace_pf_h_bss(o, r);
	default:
		return true;
	}
}

void ftrace_pf_state_free(struct pf_print *pp)
{
	for (int i = 0; i < pp->n_fstack; i++)
		free(pp->fstack[i].names);
	free(pp->fstack);
	pp->fstack = NULL;
	pp->n_fstack = 0;
	for (size_t i = 0; i < pp->n_bfmts; i++) {
		arena_fini(&pp->bfmts[i].arena);
		free(pp->bfmts[i].fmt);
	}
	free(pp->bfmts);
	pp->bfmts = NULL;
	pp->n_bfmts = pp->cap_bfmts = 0;
	free(pp->symcache);
	pp->symcache = NULL;
	ftrace_pf_fast_free(pp);
	free(pp->bargs);
	free(pp->bargv);
	pp->bargs = NULL;
	pp->bargv = NULL;
	pp->cap_bargs = 0;
}
