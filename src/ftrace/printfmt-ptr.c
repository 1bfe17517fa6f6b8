// SPDX-License-Identifier: MIT
/*
 * The kernel's %p extensions as libtraceevent 1.7.1 prints them in `trace-cmd report`:
 * symbols (%pS %pF with "+0xoff", %ps %pf without), MAC addresses (%pM %pMR %pMF %pm %pmR),
 * IPv4/IPv6 addresses (%pI4 %pi4 %pI6 %pi6 %pI6c) and socket addresses (%pIS/%piS with
 * p, c and byte-order modifiers), UUIDs and GUIDs (%pU[bBlL]) and hex dumps (%*ph[CDN]);
 * any other %p prints the value like glibc's "%p". Also the bitmask (__get_bitmask) and CPU
 * list (__get_cpumask) printers.
 *
 * libtraceevent insists on the argument being a field of the right size and prints a fixed
 * complaint otherwise ("INVALIDMAC", "ARG TYPE NOT FIELD BUT 11"); those texts are kept.
 */
#include <stdlib.h>
#include <string.h>

#include "printfmt-int.h"

static void out_not_field(struct pf_out *o, const struct pf_arg *a)
{
	ftrace_pf_out_puts(o, "ARG TYPE NOT FIELD BUT ");
	ftrace_pf_out_i64(o, a->kind);
}

/* The field an argument names once its casts are removed, or NULL (message printed). */
static struct pf_arg *strip_casts(struct pf_arg *a)
{
	while (a->kind == FTRACE_PF_TYPE)
		a = a->typecast.item;
	return a;
}

void ftrace_pf_out_function(struct pf_out *o, const struct pf_rec *r, char how, uint64_t v)
{
	const struct pf_symcache *c = ftrace_pf_sym_entry(r, v);

	if (c->sym) {
		ftrace_pf_out_write(o, c->sym->name, c->name_len);
		if (how == 'F' || how == 'S')
			ftrace_pf_out_write(o, c->off_text, c->off_len);
		return;
	}
	ftrace_pf_out_write(o, "0x", 2);
	ftrace_pf_out_hex(o, v, false);
}

static void print_mac(struct pf_out *o, const struct pf_rec *r, const char *fmt, struct pf_arg *a)
{
	char sep = ':';
	bool reverse = fmt[1] == 'R';
	const struct pf_field *f;

	if (a->kind == FTRACE_PF_FUNC) {
		ftrace_pf_call_func(o, r, a);
		return;
	}
	a = strip_casts(a);
	if (a->kind != FTRACE_PF_FIELD) {
		out_not_field(o, a);
		return;
	}
	if (fmt[0] == 'm')
		sep = 0;
	else if (fmt[1] == 'F')
		sep = '-';
	f = a->field.f;
	if (!f)
		return;
	if (f->size != 6) {
		ftrace_pf_out_puts(o, "INVALIDMAC");
		return;
	}
	for (int i = 0; i < 6; i++) {
		if (i && sep)
			ftrace_pf_out_putc(o, sep);
		ftrace_pf_out_hex2(o,
				   ftrace_pf_byte(r, (uint64_t) f->offset + (reverse ? 5 - i : i)));
	}
}

/* "%pI4h": the host order of the traced machine (reversed for little-endian traces). */
static int ip4_order(const struct pf_rec *r, const char *p, bool *reverse)
{
	*reverse = false;
	switch (*p) {
	case 'h':
		*reverse = r->ctx->bo != TK_BYTE_ORDER_BE;
		return 1;
	case 'l':
		*reverse = true;
		return 1;
	case 'n':
	case 'b':
		return 1;
	default:
		return 0;
	}
}

static void print_ip4(struct pf_out *o, char i, bool reverse, const uint8_t b[4])
{
	for (int k = 0; k < 4; k++) {
		uint8_t v = b[reverse ? 3 - k : k];

		if (k)
			ftrace_pf_out_putc(o, '.');
		if (i == 'i') {
			/* "%03d" */
			ftrace_pf_out_putc(o, (char) ('0' + v / 100));
			ftrace_pf_out_putc(o, (char) ('0' + v / 10 % 10));
			ftrace_pf_out_putc(o, (char) ('0' + v % 10));
		} else {
			ftrace_pf_out_u64(o, v);
		}
	}
}

static void print_ip6(struct pf_out *o, char i, const uint8_t b[16])
{
	for (int j = 0; j < 16; j += 2) {
		ftrace_pf_out_hex2(o, b[j]);
		ftrace_pf_out_hex2(o, b[j + 1]);
		if (i == 'I' && j < 14)
			ftrace_pf_out_putc(o, ':');
	}
}

/* The compressed IPv6 form, with the IPv4 tail of mapped and ISATAP addresses. */
static void print_ip6c(struct pf_out *o, const uint8_t b[16])
{
	uint8_t zerolength[8] = {0};
	int longest = 1, colonpos = -1, range;
	bool needcolon = false;
	bool v4mapped = !(b[0] | b[1] | b[2] | b[3] | b[4] | b[5] | b[6] | b[7]) && b[8] == 0 &&
			b[9] == 0 && b[10] == 0xff && b[11] == 0xff;
	bool isatap = (b[8] | 0x02) == 0x02 && b[9] == 0 && b[10] == 0x5e && b[11] == 0xfe;
	bool use4 = v4mapped || isatap;

	range = use4 ? 6 : 8;
	for (int i = 0; i < range; i++) {
		for (int j = i; j < range; j++) {
			if (b[2 * j] || b[2 * j + 1])
				break;
			zerolength[i]++;
		}
	}
	for (int i = 0; i < range; i++) {
		if (zerolength[i] > longest) {
			longest = zerolength[i];
			colonpos = i;
		}
	}
	if (longest == 1)
		colonpos = -1;
	for (int i = 0; i < range; i++) {
		if (i == colonpos) {
			if (needcolon || i == 0)
				ftrace_pf_out_putc(o, ':');
			ftrace_pf_out_putc(o, ':');
			needcolon = false;
			i += longest - 1;
			continue;
		}
		if (needcolon) {
			ftrace_pf_out_putc(o, ':');
			needcolon = false;
		}
		if (b[2 * i]) {
			ftrace_pf_out_hex(o, b[2 * i], false);
			ftrace_pf_out_hex2(o, b[2 * i + 1]);
		} else {
			ftrace_pf_out_hex(o, b[2 * i + 1], false);
		}
		needcolon = true;
	}
	if (use4) {
		if (needcolon)
			ftrace_pf_out_putc(o, ':');
		print_ip4(o, 'I', false, b + 12);
	}
}

static void read_bytes(const struct pf_rec *r, uint64_t off, uint8_t *dst, size_t n)
{
	for (size_t k = 0; k < n; k++)
		dst[k] = ftrace_pf_byte(r, off + k);
}

static void print_ipv4(struct pf_out *o, const struct pf_rec *r, const char *p, char i,
		       struct pf_arg *a)
{
	bool reverse;
	uint8_t b[4];

	ip4_order(r, p, &reverse);
	if (a->kind == FTRACE_PF_FUNC) {
		ftrace_pf_call_func(o, r, a);
		return;
	}
	a = strip_casts(a);
	if (a->kind != FTRACE_PF_FIELD) {
		out_not_field(o, a);
		return;
	}
	if (!a->field.f)
		return;
	if (a->field.f->size != 4) {
		ftrace_pf_out_puts(o, "INVALIDIPv4");
		return;
	}
	read_bytes(r, a->field.f->offset, b, 4);
	print_ip4(o, i, reverse, b);
}

static void print_ipv6(struct pf_out *o, const struct pf_rec *r, const char *p, char i,
		       struct pf_arg *a)
{
	bool have_c = i == 'I' && *p == 'c';
	uint8_t b[16];

	if (a->kind == FTRACE_PF_FUNC) {
		ftrace_pf_call_func(o, r, a);
		return;
	}
	a = strip_casts(a);
	if (a->kind != FTRACE_PF_FIELD) {
		out_not_field(o, a);
		return;
	}
	if (!a->field.f)
		return;
	if (a->field.f->size != 16) {
		ftrace_pf_out_puts(o, "INVALIDIPv6");
		return;
	}
	read_bytes(r, a->field.f->offset, b, 16);
	if (have_c)
		print_ip6c(o, b);
	else
		print_ip6(o, i, b);
}

/* struct sockaddr_in / sockaddr_in6 in a field or a dynamic array. */
static void print_ipsa(struct pf_out *o, const struct pf_rec *r, const char *p, char i,
		       struct pf_arg *a)
{
	bool have_p = false, have_c = false, reverse;
	uint32_t off, len;
	uint8_t b[16];
	uint16_t family;

	if (i == 'I') {
		if (*p == 'p') {
			have_p = true;
			p++;
		}
		if (*p == 'c') {
			have_c = true;
			p++;
		}
	}
	ip4_order(r, p, &reverse);
	if (a->kind == FTRACE_PF_FUNC) {
		ftrace_pf_call_func(o, r, a);
		return;
	}
	a = strip_casts(a);
	if (a->kind == FTRACE_PF_FIELD) {
		if (!a->field.f)
			return;
		off = a->field.f->offset;
		len = a->field.f->size;
	} else if (a->kind == FTRACE_PF_DYNARRAY) {
		ftrace_pf_dyn_loc(r, a->dyn.f, &off, &len);
	} else {
		ftrace_pf_out_puts(o, "ARG NOT FIELD NOR DYNAMIC ARRAY BUT TYPE ");
		ftrace_pf_out_i64(o, a->kind);
		return;
	}
	/* sa_family is in the traced machine's order; libtraceevent reads it in its own */
	family = (uint16_t) ftrace_pf_read_host(r, off, 2);
	if (family == 2) { /* AF_INET */
		if (len < 16) {
			ftrace_pf_out_puts(o, "INVALIDIPv4");
			return;
		}
		read_bytes(r, (uint64_t) off + 4, b, 4);
		print_ip4(o, i, reverse, b);
		if (have_p) {
			ftrace_pf_out_putc(o, ':');
			ftrace_pf_out_u64(o, (uint64_t) ftrace_pf_byte(r, (uint64_t) off + 2) << 8 |
						     ftrace_pf_byte(r, (uint64_t) off + 3));
		}
	} else if (family == 10) { /* AF_INET6 */
		if (len < 28) {
			ftrace_pf_out_puts(o, "INVALIDIPv6");
			return;
		}
		if (have_p)
			ftrace_pf_out_putc(o, '[');
		read_bytes(r, (uint64_t) off + 8, b, 16);
		if (have_c)
			print_ip6c(o, b);
		else
			print_ip6(o, i, b);
		if (have_p) {
			ftrace_pf_out_write(o, "]:", 2);
			ftrace_pf_out_u64(o, (uint64_t) ftrace_pf_byte(r, (uint64_t) off + 2) << 8 |
						     ftrace_pf_byte(r, (uint64_t) off + 3));
		}
	}
}

static void print_ip(struct pf_out *o, const struct pf_rec *r, const char *p, struct pf_arg *a)
{
	char i = p[0];

	switch (p[1]) {
	case '4':
		print_ipv4(o, r, p + 2, i, a);
		break;
	case '6':
		print_ipv6(o, r, p + 2, i, a);
		break;
	case 'S':
		print_ipsa(o, r, p + 2, i, a);
		break;
	default:
		break;
	}
}

static void print_uuid(struct pf_out *o, const struct pf_rec *r, const char *p, struct pf_arg *a)
{
	static const uint8_t guid[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
	static const uint8_t uuid[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
	const uint8_t *index = uuid;
	bool upper = false;
	const struct pf_field *f;

	switch (p[1]) {
	case 'L':
		upper = true;
		/* fall through */
	case 'l':
		index = guid;
		break;
	case 'B':
		upper = true;
		break;
	default:
		break;
	}
	if (a->kind == FTRACE_PF_FUNC) {
		ftrace_pf_call_func(o, r, a);
		return;
	}
	a = strip_casts(a);
	if (a->kind != FTRACE_PF_FIELD) {
		out_not_field(o, a);
		return;
	}
	f = a->field.f;
	if (!f)
		return;
	if (f->size != 16) {
		ftrace_pf_out_puts(o, "INVALIDUUID");
		return;
	}
	for (int i = 0; i < 16; i++) {
		uint8_t v = ftrace_pf_byte(r, (uint64_t) f->offset + index[i]);

		if (upper) {
			char buf[2] = {TK_HEX_UPPER[v >> 4], TK_HEX_UPPER[v & 15]};

			ftrace_pf_out_write(o, buf, 2);
		} else {
			ftrace_pf_out_hex2(o, v);
		}
		if (i == 3 || i == 5 || i == 7 || i == 9)
			ftrace_pf_out_putc(o, '-');
	}
}

/* "%*ph": @plen bytes of a dynamic array (1 without a '*'). */
static void print_raw_buf(struct pf_out *o, const struct pf_rec *r, const char *p, int plen,
			  struct pf_arg *a)
{
	const char *delim = " ";
	uint32_t off, len;

	switch (p[1]) {
	case 'C':
		delim = ":";
		break;
	case 'D':
		delim = "-";
		break;
	case 'N':
		delim = "";
		break;
	default:
		break;
	}
	if (a->kind == FTRACE_PF_FUNC) {
		ftrace_pf_call_func(o, r, a);
		return;
	}
	if (a->kind != FTRACE_PF_DYNARRAY) {
		out_not_field(o, a);
		return;
	}
	ftrace_pf_dyn_loc(r, a->dyn.f, &off, &len);
	if (plen < 0 || (uint32_t) plen > len)
		plen = (int) len; /* libtraceevent compares them unsigned */
	if (plen < 1)
		return;
	ftrace_pf_out_hex2(o, ftrace_pf_byte(r, off));
	for (int i = 1; i < plen && !o->dead; i++) {
		ftrace_pf_out_puts(o, delim);
		ftrace_pf_out_hex2(o, ftrace_pf_byte(r, (uint64_t) off + (uint32_t) i));
	}
}

const char *ftrace_pf_ptr_ext(const struct pf_piece *pc)
{
	const char *p = strchr(pc->text, 'p');

	return p ? p + 1 : "";
}

void ftrace_pf_print_pointer(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
			     int plen, struct pf_arg *a)
{
	const char *p = ftrace_pf_ptr_ext(pc);
	uint64_t v;

	if (a->kind == FTRACE_PF_BSTRING) {
		ftrace_pf_out_write(o, (const char *) a->bstr.p, a->bstr.len);
		return;
	}
	switch (*p) {
	case 'F':
	case 'f':
	case 'S':
	case 's':
		ftrace_pf_out_function(o, r, *p, ftrace_pf_eval(r, a));
		return;
	case 'M':
	case 'm':
		print_mac(o, r, p, a);
		return;
	case 'I':
	case 'i':
		print_ip(o, r, p, a);
		return;
	case 'U':
		print_uuid(o, r, p, a);
		return;
	case 'h':
		print_raw_buf(o, r, p, plen, a);
		return;
	default:
		/* glibc's "%p" */
		v = ftrace_pf_eval(r, a);
		if (!v) {
			ftrace_pf_out_write(o, "(nil)", 5);
			return;
		}
		ftrace_pf_out_write(o, "0x", 2);
		ftrace_pf_out_hex(o, v, false);
		return;
	}
}

/* ------------------------------------------------------------------ bitmasks */

/* Room on the stack for the masks events carry; larger ones go to the heap. */
#define MASK_STACK 1024

/*
 * A mask text of @n characters of which @have were made (@n > @have only for lengths the
 * output cap cuts anyway): printed with the %s spec. Without a spec or when complete, plain.
 */
static void out_mask_text(struct pf_out *o, const struct pf_piece *pc, int len_arg,
			  bool has_len_arg, const char *s, size_t have, uint64_t n)
{
	if (have == n) {
		if (pc)
			ftrace_pf_out_str_spec(o, &pc->spec, len_arg, has_len_arg, s, have);
		else
			ftrace_pf_out_write(o, s, have);
		return;
	}
	/* longer than the cap: right-aligning spaces first, then the text, all capped */
	if (pc && !pc->spec.minus && !pc->spec.star_width && pc->spec.width > 0 &&
	    (uint64_t) pc->spec.width > n)
		ftrace_pf_out_fill(o, ' ', (size_t) ((uint64_t) pc->spec.width - n));
	if (pc && pc->spec.prec >= 0 && (uint64_t) pc->spec.prec < have)
		have = (size_t) pc->spec.prec;
	ftrace_pf_out_write(o, s, have);
}

/* How many bytes of the @size-byte mask at @off the record holds (the rest read as 0). */
static uint64_t mask_avail(const struct pf_rec *r, uint32_t off, uint32_t size)
{
	if (off >= r->size)
		return 0;
	return r->size - off < size ? r->size - off : size;
}

/*
 * The bitmask in hex, most significant byte first, with a comma every 32 bits. libtraceevent
 * fills its buffer from the end two digits at a time, which makes groups of four bytes from
 * the least significant one, the first group holding what is left; the text is built from
 * the front here, so a huge length (a bad location) costs no more than the output cap.
 */
void ftrace_pf_print_bitmask(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
			     int len_arg, bool has_len_arg, uint32_t off, uint32_t size)
{
	static const char dig[] = TK_HEX_LOWER;
	uint64_t n = (uint64_t) size * 2 + (size ? (size - 1) / 4 : 0), have;
	char stack[MASK_STACK], *str = stack;
	size_t k = 0;

	have = n < (uint64_t) o->cap + 1 ? n : (uint64_t) o->cap + 1;
	if (have > sizeof(stack)) {
		str = malloc((size_t) have);
		if (!str)
			return;
	}
	/* the byte written len-th from the end is byte len (little-endian) or size - 1 - len */
	for (uint64_t len = size; len-- > 0 && k < have;) {
		uint64_t index = r->ctx->bo == TK_BYTE_ORDER_BE ? size - 1 - len : len;
		uint8_t v = ftrace_pf_byte(r, (uint64_t) off + index);

		str[k++] = dig[v >> 4];
		if (k < have)
			str[k++] = dig[v & 15];
		if (len && len % 4 == 0 && k < have)
			str[k++] = ',';
	}
	out_mask_text(o, pc, len_arg, has_len_arg, k ? str : "", k, n);
	if (str != stack)
		free(str);
}

static void cpu_append(char *str, size_t *n, const char *prefix, int64_t v)
{
	char buf[24];
	size_t k = fmt_i64(buf, v);

	if (prefix)
		str[(*n)++] = *prefix;
	memcpy(str + *n, buf, k);
	*n += k;
}

/*
 * The set bits as a CPU list ("0-3,8"), scanning byte by byte like libtraceevent. Bytes past
 * the record read as zeros, so the scan stops one byte after them (a run of ones ending with
 * the record ends there) whatever length the location claims.
 */
void ftrace_pf_print_cpumask(struct pf_out *o, const struct pf_rec *r, const struct pf_piece *pc,
			     int len_arg, bool has_len_arg, uint32_t off, uint32_t size)
{
	int64_t firstone = -1, firstzero = -1, nr_bits = (int64_t) size * 8;
	bool first = true, be = r->ctx->bo == TK_BYTE_ORDER_BE;
	uint64_t avail = mask_avail(r, off, size), from, to;
	/* each range needs at most two 20-digit numbers, '-' and ',' */
	size_t cap = (size_t) (avail + 1) * 4 * 44 + 1, n = 0;
	char stack[MASK_STACK], *str = stack;

	if (cap > sizeof(stack)) {
		str = malloc(cap);
		if (!str)
			return;
	}
	/* little-endian scans index i; big-endian reads index size - 1 - i */
	from = be ? size - avail : 0;
	to = be ? size : (avail + 1 < size ? avail + 1 : size);
	for (uint64_t i = from; i < to; i++) {
		uint64_t index = be ? size - (i + 1) : i;
		unsigned int byte = ftrace_pf_byte(r, (uint64_t) off + index);

more:
		if (firstone < 0 && byte) {
			firstone = __builtin_ctz(byte);
			byte |= (1u << firstone) - 1;
			firstone += (int64_t) i * 8;
		}
		if (firstone < 0)
			continue;
		if ((~byte) & 0xff) {
			firstzero = __builtin_ctz(~byte);
			byte &= ~((1u << firstzero) - 1);
			firstzero += (int64_t) i * 8;
		} else if (i == (uint64_t) size - 1) {
			firstzero = nr_bits;
			byte = 0;
		} else {
			continue;
		}
		if (!first)
			str[n++] = ',';
		first = false;
		cpu_append(str, &n, NULL, firstone);
		if (firstzero > firstone + 1)
			cpu_append(str, &n, "-", firstzero - 1);
		firstzero = firstone = -1;
		if (byte)
			goto more;
	}
	out_mask_text(o, pc, len_arg, has_len_arg, str, n, n);
	if (str != stack)
		free(str);
}
