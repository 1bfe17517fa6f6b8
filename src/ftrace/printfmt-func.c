// SPDX-License-Identifier: MIT
/*
 * The print functions Debian's libtraceevent plugins register for print fmts, so that print
 * fmts calling them parse: jiffies_to_msecs() and jbd2_dev_to_name() (jbd2), __le16_to_cpup()
 * (cfg80211), is_writable_pte() (kvm), scsi_trace_parse_cdb() (scsi) and
 * xen_hypercall_name() (xen). A print fmt calling any other function fails to parse, as in
 * libtraceevent. Pointers they receive are offsets in the record (__get_dynamic_array()).
 */
#include <string.h>

#include "printfmt-int.h"

static const struct pf_func funcs[] = {
	{"__le16_to_cpup", FTRACE_PF_FN_LE16_TO_CPUP, 1, {FTRACE_PF_FA_PTR}},
	{"jbd2_dev_to_name", FTRACE_PF_FN_JBD2_DEV_TO_NAME, 1, {FTRACE_PF_FA_INT}},
	{"jiffies_to_msecs", FTRACE_PF_FN_JIFFIES_TO_MSECS, 1, {FTRACE_PF_FA_LONG}},
	{"is_writable_pte", FTRACE_PF_FN_IS_WRITABLE_PTE, 1, {FTRACE_PF_FA_LONG}},
	{"scsi_trace_parse_cdb",
	 FTRACE_PF_FN_SCSI_PARSE_CDB,
	 3,
	 {FTRACE_PF_FA_PTR, FTRACE_PF_FA_PTR, FTRACE_PF_FA_INT}},
	{"xen_hypercall_name", FTRACE_PF_FN_XEN_HYPERCALL_NAME, 1, {FTRACE_PF_FA_INT}},
};

const struct pf_func *ftrace_pf_func_lookup(const char *name)
{
	for (size_t i = 0; i < TK_ARRAY_SIZE(funcs); i++) {
		if (strcmp(funcs[i].name, name) == 0)
			return &funcs[i];
	}
	return NULL;
}

static const char *xen_name(uint32_t op)
{
	static const char *const names[] = {
		"(set_trap_table)",
		"(mmu_update)",
		"(set_gdt)",
		"(stack_switch)",
		"(set_callbacks)",
		"(fpu_taskswitch)",
		"(sched_op_compat)",
		"(dom0_op)",
		"(set_debugreg)",
		"(get_debugreg)",
		"(update_descriptor)",
		NULL,
		"(memory_op)",
		"(multicall)",
		"(update_va_mapping)",
		"(set_timer_op)",
		"(event_channel_op_compat)",
		"(xen_version)",
		"(console_io)",
		"(physdev_op_compat)",
		"(grant_table_op)",
		"(vm_assist)",
		"(update_va_mapping_otherdomain)",
		"(iret)",
		"(vcpu_op)",
		"(set_segment_base)",
		"(mmuext_op)",
		"(acm_op)",
		"(nmi_op)",
		"(sched_op)",
		"(callback_op)",
		"(xenoprof_op)",
		"(event_channel_op)",
		"(physdev_op)",
		"(hvm_op)",
		NULL,
		NULL,
		NULL,
		NULL,
		NULL,
		NULL,
		NULL,
		NULL,
		NULL,
		NULL,
		NULL,
		NULL,
		NULL,
		"(arch_0)",
		"(arch_1)",
		"(arch_2)",
		"(arch_3)",
		"(arch_4)",
		"(arch_5)",
		"(arch_6)",
		"(arch_7)",
	};

	if (op < TK_ARRAY_SIZE(names) && names[op])
		return names[op];
	return "";
}

/* The SCSI command block summary of scsi_trace_parse_cdb(), read from the record. */
static void scsi_cdb(struct pf_out *o, const struct pf_rec *r, uint64_t off)
{
#define CDB(i) ((uint64_t) ftrace_pf_byte(r, off + (i)))
	uint64_t lba = 0, txlen = 0, x;
	uint8_t op = (uint8_t) CDB(0);
	const char *cmd;

	switch (op) {
	case 0x08: /* READ_6 */
	case 0x0a: /* WRITE_6 */
		lba = (CDB(1) & 0x1f) << 16 | CDB(2) << 8 | CDB(3);
		ftrace_pf_out_puts(o, "lba=");
		ftrace_pf_out_u64(o, lba);
		ftrace_pf_out_puts(o, " txlen=");
		ftrace_pf_out_u64(o, CDB(4));
		break;
	case 0x28: /* READ_10 */
	case 0x2f: /* VERIFY */
	case 0x2a: /* WRITE_10 */
	case 0x41: /* WRITE_SAME */
		/* the plugin builds 32-bit lbas with int shifts: the top byte sign-extends */
		lba = (uint64_t) (int64_t) (int32_t) (uint32_t) (CDB(2) << 24 | CDB(3) << 16 |
								 CDB(4) << 8 | CDB(5));
		txlen = CDB(7) << 8 | CDB(8);
		ftrace_pf_out_puts(o, "lba=");
		ftrace_pf_out_u64(o, lba);
		ftrace_pf_out_puts(o, " txlen=");
		ftrace_pf_out_u64(o, txlen);
		ftrace_pf_out_puts(o, " protect=");
		ftrace_pf_out_u64(o, CDB(1) >> 5);
		if (op == 0x41) {
			ftrace_pf_out_puts(o, " unmap=");
			ftrace_pf_out_u64(o, CDB(1) >> 3 & 1);
		}
		break;
	case 0xa8: /* READ_12 */
	case 0xaf: /* VERIFY_12 */
	case 0xaa: /* WRITE_12 */
		lba = (uint64_t) (int64_t) (int32_t) (uint32_t) (CDB(2) << 24 | CDB(3) << 16 |
								 CDB(4) << 8 | CDB(5));
		txlen = (uint64_t) (int64_t) (int32_t) (uint32_t) (CDB(6) << 24 | CDB(7) << 16 |
								   CDB(8) << 8 | CDB(9));
		ftrace_pf_out_puts(o, "lba=");
		ftrace_pf_out_u64(o, lba);
		ftrace_pf_out_puts(o, " txlen=");
		ftrace_pf_out_u64(o, txlen);
		ftrace_pf_out_puts(o, " protect=");
		ftrace_pf_out_u64(o, CDB(1) >> 5);
		break;
	case 0x88: /* READ_16 */
	case 0x8f: /* VERIFY_16 */
	case 0x8a: /* WRITE_16 */
	case 0x93: /* WRITE_SAME_16 */
		lba = CDB(2) << 56 | CDB(3) << 48 | CDB(4) << 40 | CDB(5) << 32;
		lba |= (uint64_t) (int64_t) (int32_t) (uint32_t) (CDB(6) << 24 | CDB(7) << 16 |
								  CDB(8) << 8 | CDB(9));
		txlen = (uint64_t) (int64_t) (int32_t) (uint32_t) (CDB(10) << 24 | CDB(11) << 16 |
								   CDB(12) << 8 | CDB(13));
		ftrace_pf_out_puts(o, "lba=");
		ftrace_pf_out_u64(o, lba);
		ftrace_pf_out_puts(o, " txlen=");
		ftrace_pf_out_u64(o, txlen);
		ftrace_pf_out_puts(o, " protect=");
		ftrace_pf_out_u64(o, CDB(1) >> 5);
		if (op == 0x93) {
			ftrace_pf_out_puts(o, " unmap=");
			ftrace_pf_out_u64(o, CDB(1) >> 3 & 1);
		}
		break;
	case 0x42: /* UNMAP */
		x = CDB(7) << 8 | CDB(8);
		ftrace_pf_out_puts(o, "regions=");
		ftrace_pf_out_u64(o, (uint32_t) (x - 8) / 16);
		break;
	case 0x9e: /* SERVICE_ACTION_IN_16 */
		x = CDB(1) & 0x1f;
		if (x == 0x10)
			cmd = "READ_CAPACITY_16";
		else if (x == 0x12)
			cmd = "GET_LBA_STATUS";
		else {
			ftrace_pf_out_puts(o, "UNKNOWN");
			break;
		}
		lba = CDB(2) << 56 | CDB(3) << 48 | CDB(4) << 40 | CDB(5) << 32;
		lba |= (uint64_t) (int64_t) (int32_t) (uint32_t) (CDB(6) << 24 | CDB(7) << 16 |
								  CDB(8) << 8 | CDB(9));
		ftrace_pf_out_puts(o, cmd);
		ftrace_pf_out_puts(o, " lba=");
		ftrace_pf_out_u64(o, lba);
		ftrace_pf_out_puts(o, " alloc_len=");
		ftrace_pf_out_u64(
			o, (uint32_t) (CDB(10) << 24 | CDB(11) << 16 | CDB(12) << 8 | CDB(13)));
		break;
	case 0x7f: /* VARIABLE_LENGTH_CMD */
		x = CDB(8) << 8 | CDB(9);
		if (x == 0x9)
			cmd = "READ";
		else if (x == 0xa)
			cmd = "VERIFY";
		else if (x == 0xb)
			cmd = "WRITE";
		else if (x == 0xd)
			cmd = "WRITE_SAME";
		else {
			ftrace_pf_out_putc(o, '-');
			break;
		}
		lba = CDB(12) << 56 | CDB(13) << 48 | CDB(14) << 40 | CDB(15) << 32;
		lba |= (uint64_t) (int64_t) (int32_t) (uint32_t) (CDB(16) << 24 | CDB(17) << 16 |
								  CDB(18) << 8 | CDB(19));
		txlen = (uint64_t) (int64_t) (int32_t) (uint32_t) (CDB(28) << 24 | CDB(29) << 16 |
								   CDB(30) << 8 | CDB(31));
		ftrace_pf_out_puts(o, cmd);
		ftrace_pf_out_puts(o, "_32 lba=");
		ftrace_pf_out_u64(o, lba);
		ftrace_pf_out_puts(o, " txlen=");
		ftrace_pf_out_u64(o, txlen);
		ftrace_pf_out_puts(o, " protect=");
		ftrace_pf_out_u64(o, CDB(10) >> 5);
		ftrace_pf_out_puts(o, " ei_lbrt=");
		ftrace_pf_out_u64(
			o, (uint32_t) (CDB(20) << 24 | CDB(21) << 16 | CDB(22) << 8 | CDB(23)));
		if (x == 0xd) {
			ftrace_pf_out_puts(o, " unmap=");
			ftrace_pf_out_u64(o, CDB(10) >> 3 & 1);
		}
		break;
	default:
		ftrace_pf_out_putc(o, '-');
		break;
	}
	ftrace_pf_out_putc(o, '\0');
#undef CDB
}

uint64_t ftrace_pf_call_func(struct pf_out *o, const struct pf_rec *r, struct pf_arg *a)
{
	const struct pf_func *fn = a->func.fn;
	struct pf_out discard = {.dead = true, .cap = 0};
	uint64_t args[3] = {0};
	struct pf_arg *farg = a->func.args;

	if (!o)
		o = &discard;
	for (int i = 0; i < fn->nargs && farg; i++, farg = farg->next)
		args[i] = ftrace_pf_eval(r, farg); /* a dynamic array evaluates to its offset */
	switch (fn->id) {
	case FTRACE_PF_FN_LE16_TO_CPUP:
		/* a pointer to a little-endian u16: here an offset in the record */
		if (!args[0])
			return 0;
		return (uint64_t) ftrace_pf_byte(r, args[0]) |
		       (uint64_t) ftrace_pf_byte(r, args[0] + 1) << 8;
	case FTRACE_PF_FN_JBD2_DEV_TO_NAME: {
		uint32_t dev = (uint32_t) args[0];

		ftrace_pf_out_i64(o, (int32_t) (dev >> 20));
		ftrace_pf_out_putc(o, ':');
		ftrace_pf_out_i64(o, (int32_t) (dev & ((1u << 20) - 1)));
		return 0;
	}
	case FTRACE_PF_FN_JIFFIES_TO_MSECS:
		ftrace_pf_out_i64(o, (int64_t) args[0]);
		return args[0];
	case FTRACE_PF_FN_IS_WRITABLE_PTE:
		return args[0] & 2;
	case FTRACE_PF_FN_SCSI_PARSE_CDB:
		scsi_cdb(o, r, args[1]);
		return 0;
	case FTRACE_PF_FN_XEN_HYPERCALL_NAME:
		ftrace_pf_out_puts(o, xen_name((uint32_t) args[0]));
		return 0;
	default:
		return 0;
	}
}
