// SPDX-License-Identifier: MIT
/*
 * The KVM and mac80211 handlers of Debian's libtraceevent1-plugin 1.7.1, as `trace-cmd
 * report` prints kvm_exit ("reason HLT rip 0x... info 0 0"), kvm_entry, the nested VM exits,
 * the MMU page roles ("1 q0 direct wux !pae nxe wp root 0 sync") and kvm_emulate_insn (the
 * instruction bytes in hex: Debian's plugin is built without a disassembler), and
 * mac80211's drv_bss_info_changed. Split from printfmt-plugin.c, which dispatches to them.
 */
#include <string.h>

#include "printfmt-int.h"

/* ------------------------------------------------------------------ kvm */

static const struct {
	int val;
	const char *str;
} vmx_reasons[] =
	{
		{0, "EXCEPTION_NMI"},
		{1, "EXTERNAL_INTERRUPT"},
		{2, "TRIPLE_FAULT"},
		{7, "PENDING_INTERRUPT"},
		{8, "NMI_WINDOW"},
		{9, "TASK_SWITCH"},
		{10, "CPUID"},
		{12, "HLT"},
		{13, "INVD"},
		{14, "INVLPG"},
		{15, "RDPMC"},
		{16, "RDTSC"},
		{18, "VMCALL"},
		{19, "VMCLEAR"},
		{20, "VMLAUNCH"},
		{21, "VMPTRLD"},
		{22, "VMPTRST"},
		{23, "VMREAD"},
		{24, "VMRESUME"},
		{25, "VMWRITE"},
		{26, "VMOFF"},
		{27, "VMON"},
		{28, "CR_ACCESS"},
		{29, "DR_ACCESS"},
		{30, "IO_INSTRUCTION"},
		{31, "MSR_READ"},
		{32, "MSR_WRITE"},
		{36, "MWAIT_INSTRUCTION"},
		{39, "MONITOR_INSTRUCTION"},
		{40, "PAUSE_INSTRUCTION"},
		{41, "MCE_DURING_VMENTRY"},
		{43, "TPR_BELOW_THRESHOLD"},
		{44, "APIC_ACCESS"},
		{45, "EOI_INDUCED"},
		{48, "EPT_VIOLATION"},
		{49, "EPT_MISCONFIG"},
		{50, "INVEPT"},
		{52, "PREEMPTION_TIMER"},
		{54, "WBINVD"},
		{55, "XSETBV"},
		{56, "APIC_WRITE"},
		{58, "INVPCID"},
		{62, "PML_FULL"},
		{63, "XSAVES"},
		{64, "XRSTORS"},
},
  svm_reasons[] = {
	  {0x000, "EXIT_READ_CR0"},
	  {0x003, "EXIT_READ_CR3"},
	  {0x004, "EXIT_READ_CR4"},
	  {0x008, "EXIT_READ_CR8"},
	  {0x010, "EXIT_WRITE_CR0"},
	  {0x013, "EXIT_WRITE_CR3"},
	  {0x014, "EXIT_WRITE_CR4"},
	  {0x018, "EXIT_WRITE_CR8"},
	  {0x020, "EXIT_READ_DR0"},
	  {0x021, "EXIT_READ_DR1"},
	  {0x022, "EXIT_READ_DR2"},
	  {0x023, "EXIT_READ_DR3"},
	  {0x024, "EXIT_READ_DR4"},
	  {0x025, "EXIT_READ_DR5"},
	  {0x026, "EXIT_READ_DR6"},
	  {0x027, "EXIT_READ_DR7"},
	  {0x030, "EXIT_WRITE_DR0"},
	  {0x031, "EXIT_WRITE_DR1"},
	  {0x032, "EXIT_WRITE_DR2"},
	  {0x033, "EXIT_WRITE_DR3"},
	  {0x034, "EXIT_WRITE_DR4"},
	  {0x035, "EXIT_WRITE_DR5"},
	  {0x036, "EXIT_WRITE_DR6"},
	  {0x037, "EXIT_WRITE_DR7"},
	  {0x040, "EXIT_EXCP_DE"},
	  {0x041, "EXIT_EXCP_DB"},
	  {0x043, "EXIT_EXCP_BP"},
	  {0x044, "EXIT_EXCP_OF"},
	  {0x045, "EXIT_EXCP_BR"},
	  {0x046, "EXIT_EXCP_UD"},
	  {0x047, "EXIT_EXCP_NM"},
	  {0x048, "EXIT_EXCP_DF"},
	  {0x04a, "EXIT_EXCP_TS"},
	  {0x04b, "EXIT_EXCP_NP"},
	  {0x04c, "EXIT_EXCP_SS"},
	  {0x04d, "EXIT_EXCP_GP"},
	  {0x04e, "EXIT_EXCP_PF"},
	  {0x050, "EXIT_EXCP_MF"},
	  {0x051, "EXIT_EXCP_AC"},
	  {0x052, "EXIT_EXCP_MC"},
	  {0x053, "EXIT_EXCP_XF"},
	  {0x060, "EXIT_INTR"},
	  {0x061, "EXIT_NMI"},
	  {0x062, "EXIT_SMI"},
	  {0x063, "EXIT_INIT"},
	  {0x064, "EXIT_VINTR"},
	  {0x065, "EXIT_CR0_SEL_WRITE"},
	  {0x066, "EXIT_IDTR_READ"},
	  {0x067, "EXIT_GDTR_READ"},
	  {0x068, "EXIT_LDTR_READ"},
	  {0x069, "EXIT_TR_READ"},
	  {0x06a, "EXIT_IDTR_WRITE"},
	  {0x06b, "EXIT_GDTR_WRITE"},
	  {0x06c, "EXIT_LDTR_WRITE"},
	  {0x06d, "EXIT_TR_WRITE"},
	  {0x06e, "EXIT_RDTSC"},
	  {0x06f, "EXIT_RDPMC"},
	  {0x070, "EXIT_PUSHF"},
	  {0x071, "EXIT_POPF"},
	  {0x072, "EXIT_CPUID"},
	  {0x073, "EXIT_RSM"},
	  {0x074, "EXIT_IRET"},
	  {0x075, "EXIT_SWINT"},
	  {0x076, "EXIT_INVD"},
	  {0x077, "EXIT_PAUSE"},
	  {0x078, "EXIT_HLT"},
	  {0x079, "EXIT_INVLPG"},
	  {0x07a, "EXIT_INVLPGA"},
	  {0x07b, "EXIT_IOIO"},
	  {0x07c, "EXIT_MSR"},
	  {0x07d, "EXIT_TASK_SWITCH"},
	  {0x07e, "EXIT_FERR_FREEZE"},
	  {0x07f, "EXIT_SHUTDOWN"},
	  {0x080, "EXIT_VMRUN"},
	  {0x081, "EXIT_VMMCALL"},
	  {0x082, "EXIT_VMLOAD"},
	  {0x083, "EXIT_VMSAVE"},
	  {0x084, "EXIT_STGI"},
	  {0x085, "EXIT_CLGI"},
	  {0x086, "EXIT_SKINIT"},
	  {0x087, "EXIT_RDTSCP"},
	  {0x088, "EXIT_ICEBP"},
	  {0x089, "EXIT_WBINVD"},
	  {0x08a, "EXIT_MONITOR"},
	  {0x08b, "EXIT_MWAIT"},
	  {0x08c, "EXIT_MWAIT_COND"},
	  {0x08d, "EXIT_XSETBV"},
	  {0x400, "EXIT_NPF"},
	  {0x401, "EXIT_AVIC_INCOMPLETE_IPI"},
	  {0x402, "EXIT_AVIC_UNACCELERATED_ACCESS"},
	  {-1, "EXIT_ERR"},
};

static bool kvm_reason(struct pf_out *o, const struct pf_rec *r, int k_reason, int k_isa)
{
	uint64_t v, isa;
	const char *reason = NULL;

	if (!ftrace_pf_h_field_val(o, r, k_reason, true, &v))
		return false;
	if (!ftrace_pf_h_field_val(o, r, k_isa, false, &isa))
		isa = 1;
	if (isa == 1) {
		for (size_t i = 0; i < TK_ARRAY_SIZE(vmx_reasons); i++) {
			if (vmx_reasons[i].val == (int) v) {
				reason = vmx_reasons[i].str;
				break;
			}
		}
	} else if (isa == 2) {
		for (size_t i = 0; i < TK_ARRAY_SIZE(svm_reasons); i++) {
			if (svm_reasons[i].val == (int) v) {
				reason = svm_reasons[i].str;
				break;
			}
		}
	} else {
		reason = "UNKNOWN-ISA";
	}
	if (reason) {
		ftrace_pf_out_puts(o, "reason ");
		ftrace_pf_out_puts(o, reason);
	} else {
		ftrace_pf_out_puts(o, "reason UNKNOWN (");
		ftrace_pf_out_u64(o, v);
		ftrace_pf_out_putc(o, ')');
	}
	return true;
}

bool ftrace_pf_h_kvm_exit(struct pf_out *o, const struct pf_rec *r)
{
	uint64_t rip, i1, i2;

	if (!kvm_reason(o, r, 0, 1))
		return true;
	if (!ftrace_pf_h_field_val(o, r, 2, true, &rip))
		return true;
	ftrace_pf_out_puts(o, " rip 0x");
	ftrace_pf_out_hex(o, rip, false);
	if (ftrace_pf_h_field_val(o, r, 3, false, &i1) &&
	    ftrace_pf_h_field_val(o, r, 4, false, &i2)) {
		ftrace_pf_out_puts(o, " info ");
		ftrace_pf_out_hex(o, i1, false);
		ftrace_pf_out_putc(o, ' ');
		ftrace_pf_out_hex(o, i2, false);
	}
	return false;
}

bool ftrace_pf_h_kvm_entry(struct pf_out *o, const struct pf_rec *r)
{
	uint64_t v;

	if (ftrace_pf_h_num_field(o, r, 0, true, &v)) {
		ftrace_pf_out_puts(o, " vcpu ");
		ftrace_pf_out_u64(o, (uint32_t) v);
	}
	if (!ftrace_pf_h_field_val(o, r, 1, true, &v))
		return true;
	ftrace_pf_out_puts(o, " rip 0x");
	ftrace_pf_out_hex(o, v, false);
	return false;
}

bool ftrace_pf_h_kvm_inject(struct pf_out *o, const struct pf_rec *r)
{
	static const char *const labels[] = {" info1 ", " info2 ", " int_info ", " int_info_err "};
	uint64_t v;

	if (!kvm_reason(o, r, 1, 2))
		return true;
	for (int k = 0; k < 4; k++) {
		if (ftrace_pf_h_num_field(o, r, 3 + k, true, &v)) {
			ftrace_pf_out_puts(o, labels[k]);
			ftrace_pf_out_hex(o, v, false);
		}
	}
	return false;
}

bool ftrace_pf_h_kvm_nested(struct pf_out *o, const struct pf_rec *r)
{
	uint64_t v;

	if (!ftrace_pf_h_field_val(o, r, 0, true, &v))
		return true;
	ftrace_pf_out_puts(o, " rip ");
	ftrace_pf_out_hex(o, v, false);
	return ftrace_pf_h_kvm_inject(o, r);
}

bool ftrace_pf_h_kvm_role(struct pf_out *o, const struct pf_rec *r)
{
	static const char *const access[] = {"---", "--x", "w--", "w-x",
					     "-u-", "-ux", "wu-", "wux"};
	uint64_t v;
	uint32_t w;

	if (!ftrace_pf_h_field_val(o, r, 2, true, &v))
		return true;
	w = (uint32_t) v;
	if ((r->ctx->bo == TK_BYTE_ORDER_BE) == (TK_BYTE_ORDER_HOST == TK_BYTE_ORDER_BE)) {
		/* union kvm_mmu_page_role, little-endian bit-field layout */
		ftrace_pf_out_u64(o, w & 15);
		ftrace_pf_out_puts(o, " q");
		ftrace_pf_out_u64(o, (w >> 5) & 3);
		if ((w >> 7) & 1)
			ftrace_pf_out_puts(o, " direct");
		ftrace_pf_out_putc(o, ' ');
		ftrace_pf_out_puts(o, access[(w >> 8) & 7]);
		if ((w >> 11) & 1)
			ftrace_pf_out_puts(o, " invalid");
		ftrace_pf_out_puts(o, ((w >> 4) & 1) ? " pae " : " !pae ");
		ftrace_pf_out_puts(o, ((w >> 12) & 1) ? "nxe " : "!nxe ");
		ftrace_pf_out_puts(o, ((w >> 13) & 1) ? "wp" : "!wp");
		if ((w >> 14) & 1)
			ftrace_pf_out_puts(o, " smep");
		if ((w >> 15) & 1)
			ftrace_pf_out_puts(o, " smap");
		if (w >> 24)
			ftrace_pf_out_puts(o, " smm");
	} else {
		ftrace_pf_h_hex08(o, "WORD: ", w);
	}
	if (ftrace_pf_h_num_field(o, r, 3, true, &v)) {
		ftrace_pf_out_puts(o, " root ");
		ftrace_pf_out_u64(o, (uint32_t) v);
		ftrace_pf_out_putc(o, ' ');
	}
	if (!ftrace_pf_h_field_val(o, r, 4, true, &v))
		return true;
	ftrace_pf_out_puts(o, v ? "unsync" : "sync");
	ftrace_pf_out_putc(o, '\0');
	return false;
}

bool ftrace_pf_h_kvm_get_page(struct pf_out *o, const struct pf_rec *r)
{
	uint64_t v;

	if (!ftrace_pf_h_field_val(o, r, 0, true, &v))
		return true;
	ftrace_pf_out_puts(o, v ? "new " : "existing ");
	if (!ftrace_pf_h_field_val(o, r, 1, true, &v))
		return true;
	ftrace_pf_out_puts(o, "sp gfn ");
	ftrace_pf_out_hex(o, v, false);
	ftrace_pf_out_putc(o, ' ');
	return ftrace_pf_h_kvm_role(o, r);
}

bool ftrace_pf_h_kvm_emulate(struct pf_out *o, const struct pf_rec *r)
{
	const struct pf_field *f = r->pp->hf[5];
	uint64_t rip, csbase, len, flags, failed;
	uint32_t off;

	if (!ftrace_pf_h_field_val(o, r, 0, true, &rip) ||
	    !ftrace_pf_h_field_val(o, r, 1, true, &csbase) ||
	    !ftrace_pf_h_field_val(o, r, 2, true, &len) ||
	    !ftrace_pf_h_field_val(o, r, 3, true, &flags) ||
	    !ftrace_pf_h_field_val(o, r, 4, true, &failed))
		return true;
	if (!f) {
		ftrace_pf_out_puts(o, "<CANT FIND FIELD insn>");
		return true;
	}
	off = f->offset;
	if (f->flags & FTRACE_PF_F_DYNAMIC) {
		off = (uint32_t) ftrace_pf_read_num(r, f->offset, f->size) & 0xffff;
		if (f->flags & FTRACE_PF_F_RELATIVE)
			off += f->offset + f->size;
	}
	ftrace_pf_out_hex(o, csbase, false);
	ftrace_pf_out_putc(o, ':');
	ftrace_pf_out_hex(o, rip, false);
	ftrace_pf_out_write(o, ": ", 2);
	/*
	 * Without a disassembler (Debian builds none in): the bytes in hex. The plugin's buffer
	 * holds 15 but it writes as many as "len" says, past its end; that is what prints.
	 */
	for (uint64_t i = 0; i < len && !o->dead; i++) {
		if (i)
			ftrace_pf_out_putc(o, ' ');
		ftrace_pf_out_hex2(o, ftrace_pf_byte(r, (uint64_t) off + i));
	}
	if (failed)
		ftrace_pf_out_puts(o, " FAIL");
	return false;
}

/* ------------------------------------------------------------------ mac80211 */

static void bss_string(struct pf_out *o, const struct pf_rec *r, int k)
{
	const struct pf_field *f = r->pp->hf[k];
	uint64_t off, len, v;

	if (!f) {
		ftrace_pf_out_puts(o, "NOTFOUND:");
		ftrace_pf_out_puts(o, ftrace_pf_h_field_name(r, k));
		return;
	}
	off = f->offset;
	len = f->size;
	if ((f->flags & FTRACE_PF_F_DYNAMIC) && !(f->flags & FTRACE_PF_F_RELATIVE)) {
		if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) {
			ftrace_pf_out_puts(o, "invalid_data_loc");
			return;
		}
		v = ftrace_pf_read_num(r, f->offset, f->size);
		off = v & 0xffff;
		len = (v >> 16) & 0xffffffffffffULL;
	}
	for (uint64_t i = 0; i < len && !o->dead; i++) {
		uint8_t c = ftrace_pf_byte(r, off + i);

		if (!c)
			break;
		ftrace_pf_out_putc(o, (char) c);
	}
}

static void bss_num(struct pf_out *o, const struct pf_rec *r, int k, bool hex)
{
	uint64_t v;

	if (!ftrace_pf_h_num_field(o, r, k, false, &v))
		return;
	ftrace_pf_out_puts(o, ftrace_pf_h_field_name(r, k));
	ftrace_pf_out_putc(o, ':');
	if (!hex) {
		ftrace_pf_out_i64(o, (int32_t) v);
	} else if ((uint32_t) v) {
		ftrace_pf_h_hex0x(o, (uint32_t) v);
	} else {
		ftrace_pf_out_putc(o, '0');
	}
}

bool ftrace_pf_h_bss(struct pf_out *o, const struct pf_rec *r)
{
	uint64_t v;

	bss_string(o, r, 0);
	ftrace_pf_out_puts(o, " vif:");
	bss_string(o, r, 1);
	if (ftrace_pf_h_num_field(o, r, 2, true, &v)) {
		ftrace_pf_out_putc(o, '(');
		ftrace_pf_out_i64(o, (int32_t) v);
		ftrace_pf_out_putc(o, ')');
	}
	ftrace_pf_out_putc(o, '\n');
	ftrace_pf_out_fill(o, ' ', 65);
	for (int k = 3; k <= 8; k++) {
		bss_num(o, r, k, false);
		ftrace_pf_out_putc(o, ' ');
	}
	ftrace_pf_out_putc(o, '\n');
	ftrace_pf_out_fill(o, ' ', 65);
	bss_num(o, r, 9, false);
	ftrace_pf_out_putc(o, ' ');
	bss_num(o, r, 10, true);
	ftrace_pf_out_putc(o, ' ');
	bss_num(o, r, 11, true);
	ftrace_pf_out_putc(o, ' ');
	bss_num(o, r, 12, false);
	ftrace_pf_out_putc(o, '\n');
	ftrace_pf_out_fill(o, ' ', 65);
	bss_num(o, r, 13, false);
	return false;
}
