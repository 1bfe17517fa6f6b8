# SPDX-License-Identifier: MIT
#
# Sourced by the tests that damage trace.dat files (cli/damage-dat.sh on gen-dat files, and the
# other damage and hostile-input tests): awk programs that read the layout of a trace.dat file
# from its bytes, find each event of `tracekit print`'s full output on its CPU, and give the
# lines that must come before damage to a page or chunk. Expected values come from the file's
# bytes and the reference (reference/tracedat.md), never from the code under test.

# The layout of a trace.dat file, from `od -An -v -tu1` (reference/tracedat.md sections 2 to
# 5), as lines (byte ranges: END excluded). The size of a page's commit word is the long size
# of the file header, or -v commit=N when the header_page text says otherwise (files that
# trace-cmd 3.1.6 converted from 32-bit kernels' files claim 8):
#   file SIZE VERSION BIG-ENDIAN LONG-SIZE PAGE-SIZE COMPRESSED
#   region START END NAME      metadata parts, options, CPU table, v7 sections, CPU data, ...
#   region START END unused    bytes no reader uses: the padding before a CPU's data
#   meta_end OFFSET            v6: the end of the CPU table; v7: the end of the last options
#                              section (the one with the buffer options)
#   cpu CPU OFFSET SIZE        the data of one CPU (also a "data:CPU" region)
#   page CPU INDEX OFFSET RECORDS END
#                              an uncompressed page: its event records (type_len 0 to 28)
#                              and where the bytes a reader uses end (after the commit, and
#                              the lost-events count when the page stores it)
#   chunk CPU INDEX OFFSET ZSIZE USIZE
#                              compressed data: each chunk and its 8-byte header
#   option ID OFFSET SIZE      an option (its 6-byte header at OFFSET), v6 or v7
#   entry CPU OFFSET-AT SIZE-AT
#                              where the CPU table (v6) or a BUFFER option (v7) keeps the
#                              offset and the size of a CPU's data
LAYOUT_AWK='
{ for (i = 1; i <= NF; i++) b[n++] = $i }
function num(o, len,   v, i) {
	v = 0
	for (i = 0; i < len; i++)
		v = v * 256 + (be ? b[o + i] : b[o + len - 1 - i])
	return v
}
function after_cstr(o) {
	while (o < n && b[o] != 0)
		o++
	return o + 1
}
function region(s, e, name) {
	print "region", s, e, name
}
function page(c, k, po,   commit, p, e, cnt, w, tl, d) {
	commit = num(po + 8, ls) % 1073741824
	p = po + 8 + ls
	e = p + commit
	cnt = 0
	while (p + 4 <= e) {
		w = num(p, 4)
		if (be) {
			tl = int(w / 134217728)
			d = w % 134217728
		} else {
			tl = w % 32
			d = int(w / 32)
		}
		if (tl == 0) {
			cnt++
			p += 4 + num(p + 4, 4)
		} else if (tl <= 28) {
			cnt++
			p += 4 + 4 * tl
		} else if (tl == 29) {
			if (d == 0)
				break
			p += 4 + num(p + 4, 4)
		} else {
			p += 8
		}
	}
	if (num(po + 8, ls) % 2147483648 >= 1073741824)
		e += ls
	print "page", c, k, po, cnt, e
}
function cpu_data(c, off, size,   k, j, cnt, p, z) {
	print "cpu", c, off, size
	region(off, off + size, "data:" c)
	if (!compressed) {
		for (k = 0; k * P < size; k++)
			page(c, k, off + k * P)
		return
	}
	cnt = num(off, 4)
	p = off + 4
	for (j = 0; j < cnt; j++) {
		z = num(p, 4)
		print "chunk", c, j, p, z, num(p + 4, 4)
		p += 8 + z
	}
}
function v6(   o, s, i, j, k, ns, ncpu) {
	region(0, 18, "header")
	o = 18
	s = o
	o += 20 + num(o + 12, 8)
	region(s, o, "header_page")
	s = o
	o += 21 + num(o + 13, 8)
	region(s, o, "header_event")
	s = o
	k = num(o, 4)
	o += 4
	for (i = 0; i < k; i++)
		o += 8 + num(o, 8)
	region(s, o, "ftrace_formats")
	s = o
	ns = num(o, 4)
	o += 4
	for (j = 0; j < ns; j++) {
		o = after_cstr(o)
		k = num(o, 4)
		o += 4
		for (i = 0; i < k; i++)
			o += 8 + num(o, 8)
	}
	region(s, o, "event_formats")
	s = o
	o += 4 + num(o, 4)
	region(s, o, "kallsyms")
	s = o
	o += 4 + num(o, 4)
	region(s, o, "printk")
	s = o
	o += 8 + num(o, 8)
	region(s, o, "cmdlines")
	ncpu = num(o, 4)
	region(o, o + 4, "cpu_count")
	o += 4
	s = o
	o += 10
	while (o + 2 <= n && num(o, 2) != 0) {
		print "option", num(o, 2), o, num(o + 2, 4)
		o += 6 + num(o + 2, 4)
	}
	o += 2
	region(s, o, "options")
	region(o, o + 10, "flyrecord")
	o += 10
	s = o
	for (i = 0; i < ncpu; i++) {
		print "entry", i, o, o + 8
		coff[i] = num(o, 8)
		csize[i] = num(o + 8, 8)
		o += 16
	}
	region(s, o, "cpu_table")
	print "meta_end", o
	s = o
	o += 8 + num(o, 8)
	region(s, o, "clock")
	if (coff[0] > o)
		region(o, coff[0], "unused")
	for (i = 0; i < ncpu; i++)
		if (csize[i])
			cpu_data(i, coff[i], csize[i])
}
function v7(   o, e, id, sz, p, q, i, cnt, end_opts, bsec) {
	o = after_cstr(after_cstr(18)) + 8
	region(0, o, "header")
	ncpu = 0
	while (o + 16 <= n) {
		id = num(o, 2)
		sz = num(o + 8, 8)
		e = o + 16 + sz
		if (e > n)
			break
		region(o, o + 16, "section_header:" id)
		region(o + 16, e, "section:" id)
		if (id == 0) {
			for (p = o + 16; p + 6 <= e && num(p, 2) != 0; p += 6 + num(p + 2, 4)) {
				print "option", num(p, 2), p, num(p + 2, 4)
				if (num(p, 2) != 3)
					continue
				bsec = num(p + 6, 8)
				q = after_cstr(after_cstr(p + 14)) + 4
				cnt = num(q, 4)
				q += 4
				for (i = 0; i < cnt; i++) {
					print "entry", num(q, 4), q + 4, q + 12
					ccpu[ncpu] = num(q, 4)
					coff[ncpu] = num(q + 4, 8)
					csize[ncpu] = num(q + 12, 8)
					ncpu++
					q += 20
				}
			}
			end_opts = e
		}
		o = e
	}
	print "meta_end", end_opts
	# the padding that puts each CPU on a page boundary
	o = bsec + 16
	for (i = 0; i < ncpu; i++) {
		if (coff[i] > o)
			region(o, coff[i], "unused")
		cpu_data(ccpu[i], coff[i], csize[i])
		o = coff[i] + csize[i]
	}
}
END {
	be = b[12]
	ls = commit ? commit : b[13]
	ver = b[10] - 48
	P = num(14, 4)
	compressed = ver == 7 && b[18] != 110
	print "file", n, ver, be, ls, P, compressed
	if (ver == 6)
		v6()
	else
		v7()
}'

# Where each event of the full output is: "CPU N LINE" for the N-th event of CPU (the lines
# that are not events, "cpus=N" and lost-event lines, are not counted).
EVENTS_AWK='
match($0, /-[0-9]+ +\[[0-9]+\] /) {
	s = substr($0, RSTART, RLENGTH)
	sub(/.*\[/, "", s)
	sub(/\].*/, "", s)
	c = s + 0
	print c, ++k[c], NR
}'

# Shared by the programs below: the layout (first file: its cpu, chunk and page lines; the
# pages may come from a twin) and the events (second file). prefix(c, k): the lines of the
# full output before the first event of page k of CPU c, that is E_c(k).
PREFIX_AWK='
FILENAME == ARGV[1] && $1 == "file" { size = $2; ver = $3; P = $6; compressed = $7 }
FILENAME == ARGV[1] && $1 == "meta_end" { meta_end = $2 }
FILENAME == ARGV[1] && $1 == "cpu" { cpus[ncpu++] = $2; coff[$2] = $3; csize[$2] = $4 }
FILENAME == ARGV[1] && $1 == "page" {
	npages[$2] = $3 + 1
	recs[$2, $3] = $5
	pend[$2, $3] = $6
}
FILENAME == ARGV[1] && $1 == "chunk" {
	nchunks[$2] = $3 + 1
	choff[$2, $3] = $4
	chz[$2, $3] = $5
	chu[$2, $3] = $6
}
FILENAME == ARGV[1] && $1 == "region" &&
    ($4 == "unused" || ($4 == "section:15" && !compressed)) {
	nu++
	us[nu] = $2
	ue[nu] = $3
}
FILENAME == ARGV[1] { next }
FILENAME == ARGV[2] { line[$1, $2] = $3; next }
function prefix(c, k,   i, N) {
	N = 0
	for (i = 0; i < k && i < npages[c]; i++)
		N += recs[c, i]
	return N ? line[c, N] : 1
}
# pages of CPU c before its chunk j
function chunk_pages(c, j,   i, u) {
	u = 0
	for (i = 0; i < j; i++)
		u += chu[c, i]
	return int(u / P)
}'

# For each cut "offset" (third file): "offset rc lines", the exit status and the number of
# lines of the full output that the file cut there must print. v6 keeps the CPU table before
# the data: a cut before its end fails (exit 1, nothing printed); after it, every CPU has its
# whole pages before the cut and no more, so the output is the earliest E_c(k) over the CPUs
# cut short (exit 1), or everything for a cut past all data (exit 0). v7 keeps the buffer
# options after the data: a cut before the end of the last options section fails with no
# output, a cut after it only loses section descriptions (exit 0, everything).
CUT_EXPECT_AWK="$PREFIX_AWK"'
{
	x = $1
	if (x < meta_end) {
		print x, 1, 0
		next
	}
	if (ver == 7) {
		print x, 0, total
		next
	}
	L = total
	for (i = 0; i < ncpu; i++) {
		c = cpus[i]
		g = x <= coff[c] ? 0 : int((x - coff[c]) / P)
		if (g >= npages[c])
			continue
		l = prefix(c, g)
		if (l < L)
			L = l
		damaged = 1
	}
	print x, damaged ? 1 : 0, L
	damaged = 0
}'

# For each flip "offset bit old new" (third file; zlib=1 for zlib data): that line with the
# kind of check and the lines of the full output it must print first. Kinds: "status" (exit
# status and whole lines only: metadata, options, tables), "prefix" (stdout starts with
# E_c(k) for a flip in page k of CPU c, or in the chunk holding it), "zlib" (zlib's check
# catches the flip: exit 1 and exactly those lines, or exit 0 and the full output),
# "unused" (bytes no reader uses: exit 0 and the full output).
FLIP_EXPECT_AWK="$PREFIX_AWK"'
{
	x = $1
	kind = "status"
	L = 0
	for (i = 1; i <= nu; i++)
		if (x >= us[i] && x < ue[i])
			kind = "unused"
	for (i = 0; i < ncpu; i++) {
		c = cpus[i]
		if (x < coff[c] || x >= coff[c] + csize[c])
			continue
		if (!compressed) {
			k = int((x - coff[c]) / P)
			if (x >= pend[c, k]) {
				kind = "unused"
			} else {
				kind = "prefix"
				L = prefix(c, k)
			}
			continue
		}
		kind = "prefix"
		for (j = nchunks[c] - 1; j > 0 && choff[c, j] > x; j--)
			;
		L = prefix(c, chunk_pages(c, j))
		if (zlib && x >= choff[c, j] + 8)
			kind = "zlib"
	}
	print $0, kind, L
}'
