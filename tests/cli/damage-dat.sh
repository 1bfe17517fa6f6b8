#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Bad input, trace.dat edition: truncated and bit-flipped copies of gen-dat files. The contract
# (STYLE.md, 2.4): exit status 1, one "tracekit: Cannot ..." line, every event before the
# damage on stdout, and never a crash, hang or sanitizer report. The ASan and UBSan build runs
# this same script, so each copy is also a memory-safety test.
#
# Traces: v6 LE; v6 BE with 4-byte longs and lost events; v6 on one CPU; v7 uncompressed; v7
# zstd; v7 zlib BE with 4-byte longs and lost events on one CPU (more than one 10-page chunk
# per CPU). Expected values come from the generator and the bytes, not from the code under
# test: the layout of each file (metadata parts or v7 sections, options, CPU table, per-CPU
# pages or chunks) is read here with od and awk, and so is every ring-buffer page: its records
# are counted from their headers (type_len 0 and 1-28 are events; padding and time records are
# not) and must add up to the events gen-dat was asked for, CPU by CPU, in the full output. A
# compressed file's pages are those of its uncompressed v7 twin (gen-dat encodes pages
# independently of the compression), which must print alike.
#
# What "before the damage" means. Events are merged by time over the CPUs, and the merge reads
# a CPU's next event only after returning its previous one; so when CPU c can give only its
# first N_c events, the output is the full output up to and including the N_c-th event of c
# (up to the "cpus=N" line when N_c is 0), taking the earliest such point over the damaged
# CPUs. Call it E_c(k) when N_c counts the events of the first k pages of c. Output is
# compared line for line with the full output (lost-event lines belong to the event after).
#
#   a. Files cut short, at and around every region boundary, inside every metadata part,
#      option list and CPU table, at and inside every page and chunk, and at pseudo-random
#      points. v6 keeps the CPU table before the data: cut before the end of the table,
#      exit 1 and no output; after it, every CPU has its whole pages before the cut and no
#      more (a page cut anywhere is lost whole), and the output is exactly the earliest
#      E_c(k) over the CPUs cut short (the "cpus=N" line alone when one of them has no whole
#      page), exit 1; a file cut at its end prints everything. v7 keeps the buffer options
#      after the data: a cut before the end of the last options section loses them, exit 1
#      and no output; a cut in the string table after it loses only section descriptions:
#      exit 0 and the full output. `tracekit info` on every third cut: the same exit status,
#      and its event count is that of the events print shows ("(before the error below)").
#   b. One bit flipped (targeted at header fields, the first bytes and middle of every
#      region, v7 section headers, the id, size and data of every option, the offsets and
#      sizes of the CPU tables and BUFFER options, page headers, commit words, record headers
#      and payloads, chunk counts, chunk headers and compressed data; and pseudo-random): exit 0,
#      or 1 with one line; stdout in whole lines. A flip in page k of CPU c, or in chunk j
#      (pages 10j on) of compressed data: stdout starts with E_c(k) (E_c(10j)). In zlib data,
#      whose Adler-32 check catches a flip: exit 1 and exactly E_c(10j), or exit 0 and the
#      full output (a flip in bits the decoder ignores). A flip in bytes no reader uses (the
#      padding before the first CPU's data, page bytes after the data and the lost-events
#      count, an uncompressed string table): exit 0, the full output. `tracekit info` on
#      every fourth flip: exit 0, or 1 with one line.
#   c. Any other exit status fails: signals, a hang (`timeout`, 124), a runaway output (the
#      file-size limit), and sanitizer reports, whose exit statuses are set here to 86 (ASan,
#      LSan) and 87 (UBSan) so that they can never pass for exit status 1.
#
# Usage: damage-dat.sh TRACEKIT GEN_DAT
# shellcheck disable=SC2016 # the single-quoted strings are awk programs
set -u
LC_ALL=C
TZ=UTC
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=87"
export LC_ALL TZ ASAN_OPTIONS UBSAN_OPTIONS
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tools_from_args "${1:-}" "${2:-${TRACEKIT_BUILD:-.}/tests/tools/gen-dat}"
# shellcheck source=../damage-lib.sh
. "$(dirname "$0")/../damage-lib.sh"

# first_lines N: the first N lines of the full output (none for 0) into $tmp/want.
first_lines() {
	if [ "$1" -gt 0 ]; then
		head -n "$1" "$t/full" >"$tmp/want"
	else
		: >"$tmp/want"
	fi
}

# info_events: the event count `tracekit info` printed, or nothing.
info_events() {
	sed -n 's/^Events: *\([0-9][0-9]*\).*/\1/p' "$tmp/out"
}

# The layout of a trace.dat file, from `od -An -v -tu1` (reference/tracedat.md sections 2 to
# 5), as lines (byte ranges: END excluded):
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
	ls = b[13]
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

# Cut points from the layout, "offset", one a line (sorted and made unique by the caller):
# around the boundaries and inside every region, page and chunk, and pseudo-random ones.
CUTS_AWK='
function emit(x) {
	if (x >= 0 && x < size)
		print x
}
$1 == "file" { size = $2; ls = $5; P = $6 }
$1 == "region" {
	emit($2)
	emit($2 + 1)
	emit(int(($2 + $3) / 2))
	emit($3 - 1)
}
$1 == "page" {
	emit($4 + 1)
	emit($4 + 8)
	emit($4 + 8 + ls + 3)
	emit(int(($4 + $6) / 2))
	emit($6 - 1)
	emit($4 + P - 1)
	emit($4 + P)
}
$1 == "chunk" {
	emit($4)
	emit($4 + 4)
	emit($4 + 8)
	emit($4 + 8 + int($5 / 2))
	emit($4 + 8 + $5 - 1)
}
END {
	x = seed
	for (i = 0; i < 12; i++) {
		x = (x * 69069 + 1) % 4294967296
		emit(x % size)
	}
}'

# For each cut "offset" (third file): "offset rc lines", the exit status and the number of
# lines of the full output that the file cut there must print (see a. above).
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

# Bit flips from the layout, "offset bit", one a line (sorted and made unique by the caller).
FLIPS_AWK='
function emit(x) {
	if (x >= 0 && x < size)
		print x, (x * 5 + k++) % 8
}
$1 == "file" { size = $2; ls = $5; P = $6 }
$1 == "region" && $4 !~ /^data:/ {
	for (d = 0; d < 16 && $2 + d < $3; d += 5)
		emit($2 + d)
	emit(int(($2 + $3) / 2))
	emit($3 - 1)
}
$1 == "region" && $4 ~ /^section_header:/ {
	emit($2 + 2)
	emit($2 + 8)
}
$1 == "option" {
	emit($3)
	emit($3 + 2)
	emit($3 + 6)
}
$1 == "entry" {
	emit($3)
	emit($3 + 1)
	emit($4)
	emit($4 + 1)
	emit($4 + 2)
}
$1 == "cpu" {
	emit($3)
	emit($3 + 3)
}
$1 == "page" {
	emit($4)
	emit($4 + 7)
	emit($4 + 8)
	emit($4 + 7 + ls)
	emit($4 + 8 + ls)
	emit($4 + 11 + ls)
	emit($4 + 14 + ls)
	emit(int(($4 + $6) / 2))
	emit($6 - 1)
	if ($6 < $4 + P) {
		emit($6)
		emit($4 + P - 1)
	}
}
$1 == "chunk" {
	emit($4)
	emit($4 + 3)
	emit($4 + 4)
	emit($4 + 7)
	emit($4 + 8)
	emit($4 + 9)
	emit($4 + 8 + int($5 / 2))
	emit($4 + 8 + $5 - 5)
	emit($4 + 8 + $5 - 1)
}
END {
	x = seed
	for (i = 0; i < 40; i++) {
		x = (x * 69069 + 1) % 4294967296
		print x % size, int(x / 65536) % 8
	}
}'

# For each flip "offset bit old new" (third file): that line with the kind of check and the
# lines of the full output it must print first (see b. above). Kinds: "status" (exit status
# and whole lines only), "prefix" (stdout starts with those lines), "zlib" (exit 1 and exactly
# those lines, or exit 0 and the full output), "unused" (exit 0 and the full output).
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

# gen_trace: the trace, its full output, its layout and where its events are. Returns 1 when
# it cannot.
gen_trace() {
	# shellcheck disable=SC2086 # $opts is a list of options
	if ! "$gen" $opts "$t/orig.dat" >/dev/null; then
		fail setup "$name: gen-dat $opts failed"
		return 1
	fi
	run "$t/orig.dat"
	if ! expect setup "$name: the undamaged trace" 0 || [ -s "$tmp/err" ]; then
		fail setup "$name: the undamaged trace does not print cleanly"
		return 1
	fi
	cp "$tmp/out" "$t/full"
	total=$(wc -l <"$t/full")
	awk "$EVENTS_AWK" "$t/full" >"$t/events"
	nevents=$(wc -l <"$t/events")
	if [ "$nevents" -ne "$events" ] || [ "$(head -n 1 "$t/full")" != "cpus=$cpus" ]; then
		fail setup "$name: the undamaged trace does not print cpus=$cpus and $events events"
		return 1
	fi
	if ! od -An -v -tu1 "$t/orig.dat" | awk "$LAYOUT_AWK" >"$t/layout" ||
		[ "$(awk '$1 == "file" { print $2 }' "$t/layout")" -ne \
			"$(wc -c <"$t/orig.dat")" ] ||
		! grep -q '^meta_end [1-9]' "$t/layout"; then
		fail setup "$name: cannot read the layout of the file"
		return 1
	fi
	pages=$t/layout
	if [ -n "$twin" ]; then
		# shellcheck disable=SC2086 # $twin is a list of options
		"$gen" $twin "$t/twin.dat" >/dev/null
		run "$t/twin.dat"
		if ! cmp -s "$tmp/out" "$t/full"; then
			fail setup "$name: the uncompressed twin does not print alike"
			return 1
		fi
		od -An -v -tu1 "$t/twin.dat" | awk "$LAYOUT_AWK" | grep '^page' >"$t/pages"
		pages=$t/pages
		# each CPU's chunks hold its twin's pages
		if ! awk '$1 == "chunk" { u[$2] += $6; nc[$2]++ } $1 == "file" { P = $6 }
			$1 == "page" { p[$2]++ }
			END {
				for (c in u)
					if (u[c] != p[c] * P || nc[c] < 2)
						exit 1
				for (c in p)
					if (!(c in u))
						exit 1
			}' "$t/layout" "$t/pages"; then
			fail setup "$name: the chunks are not the pages of the twin, or too few"
			return 1
		fi
	fi
	# the records counted in the pages are the events printed, CPU by CPU
	if ! awk 'FILENAME == ARGV[1] && $1 == "page" { r[$2] += $5 }
		FILENAME == ARGV[2] { e[$1]++ }
		END {
			for (c in e)
				if (r[c] != e[c])
					exit 1
			for (c in r)
				if (r[c] != e[c])
					exit 1
		}' "$pages" "$t/events"; then
		fail setup "$name: the records of the pages are not the events printed"
		return 1
	fi
	grep -v '^page' "$t/layout" >"$t/layout.x"
	grep '^page' "$pages" >>"$t/layout.x"
	run "$t/orig.dat" info
	if ! expect setup "$name: tracekit info" 0 || [ "$(info_events)" != "$events" ]; then
		fail setup "$name: tracekit info does not count $events events"
		return 1
	fi
	return 0
}

# a. the file cut short
check_cuts() {
	awk -v seed="$seed" "$CUTS_AWK" "$t/layout" | sort -n -u >"$t/cuts.in"
	awk -v total="$total" "$CUT_EXPECT_AWK" "$t/layout.x" "$t/events" "$t/cuts.in" \
		>"$t/cuts"
	# enough cuts, and (v6) some after the first events of the last CPU
	if ! awk -v ver="$ver" '$2 == 1 && $3 > 1 { some = 1 }
		END { exit NR < 50 || (ver == 6 && !some) }' "$t/cuts"; then
		fail setup "$name: too few cut points, or none after the first events"
	fi
	i=0
	while read -r x want_rc want_lines; do
		head -c "$x" "$t/orig.dat" >"$t/cut.dat"
		run "$t/cut.dat"
		c="$name: cut at $x, want exit $want_rc and $want_lines lines"
		first_lines "$want_lines"
		if expect trunc "$c" "$want_rc" && ! cmp -s "$tmp/out" "$tmp/want"; then
			fail trunc "$c: stdout has $(wc -l <"$tmp/out") lines, or not those"
		fi
		i=$((i + 1))
		[ $((i % 3)) -eq 0 ] || continue
		want_events=$(grep -c -e '-[0-9][0-9]* *\[[0-9]*\] ' "$tmp/want")
		run "$t/cut.dat" info
		c="$c, tracekit info"
		expect trunc_info "$c" "$want_rc" || continue
		if [ "$want_lines" -eq 0 ]; then
			[ -s "$tmp/out" ] && fail trunc_info "$c: prints a summary of no trace"
		elif [ "$(info_events)" != "$want_events" ]; then
			fail trunc_info "$c: counts $(info_events) events, want $want_events"
		fi
	done <"$t/cuts"
	rm -f "$t/cut.dat"
}

# check_flip: the output of a flip of kind $kind, beyond its exit status and whole lines.
check_flip() {
	case $kind in
	prefix)
		if ! head -c "$(wc -c <"$tmp/want")" "$tmp/out" | cmp -s - "$tmp/want"; then
			fail flip_prefix "$c: not all the lines before the damaged page are printed"
		fi
		;;
	zlib)
		if [ "$rc" -eq 0 ] && ! cmp -s "$tmp/out" "$t/full"; then
			fail flip_zlib "$c: exit status 0 without the full output"
		elif [ "$rc" -eq 1 ] && ! cmp -s "$tmp/out" "$tmp/want"; then
			fail flip_zlib "$c: stdout is not the lines before the chunk"
		fi
		;;
	unused)
		if [ "$rc" -ne 0 ] || ! cmp -s "$tmp/out" "$t/full"; then
			fail flip_unused "$c: a byte nothing uses changes the output"
		fi
		;;
	esac
}

# b. one bit flipped
check_flips() {
	cp "$t/orig.dat" "$t/flip.dat"
	awk -v seed="$seed" "$FLIPS_AWK" "$t/layout" | sort -n -u -k 1,1 >"$t/flips.in"
	od -An -v -tu1 "$t/orig.dat" | awk '
		FNR == NR { for (i = 1; i <= NF; i++) b[n++] = $i; next }
		$1 < n {
			v = b[$1]
			print $0, v, int(v / 2 ^ $2) % 2 ? v - 2 ^ $2 : v + 2 ^ $2
		}' - "$t/flips.in" >"$t/flips.old"
	awk -v zlib="$zlib" "$FLIP_EXPECT_AWK" "$t/layout.x" "$t/events" "$t/flips.old" \
		>"$t/flips"
	for k in prefix unused; do
		grep -q " $k [0-9]*\$" "$t/flips" ||
			fail setup "$name: no flip of kind $k"
	done
	i=0
	while read -r x bit old new kind lines; do
		flip "$t/flip.dat" "$x" "$new"
		run "$t/flip.dat"
		c="$name: bit $bit of byte $x flipped ($kind, $lines lines)"
		first_lines "$lines"
		if status_ok flip "$c" && whole_lines flip "$c"; then
			check_flip
		fi
		i=$((i + 1))
		if [ $((i % 4)) -eq 0 ]; then
			run "$t/flip.dat" info
			status_ok flip_info "$c, tracekit info" && whole_lines flip_info "$c, info"
		fi
		flip "$t/flip.dat" "$x" "$old"
	done <"$t/flips"
	if ! cmp -s "$t/flip.dat" "$t/orig.dat"; then
		fail setup "$name: the flipped bits were not restored"
	fi
	rm -f "$t/flip.dat"
}

# check_trace NAME EVENTS CPUS SEED "GEN-DAT OPTIONS" ["TWIN OPTIONS"]: a file with EVENTS
# events over CPUS CPUs; a compressed one names its uncompressed twin.
check_trace() {
	name=$1 events=$2 cpus=$3 seed=$4
	opts="-n $events -c $cpus -S $seed $5"
	twin=
	[ -n "${6:-}" ] && twin="-n $events -c $cpus -S $seed $6"
	zlib=0
	case $5 in *zlib*) zlib=1 ;; esac
	ver=7
	case $5 in *file-version=6*) ver=6 ;; esac
	t=$tmp/$name
	mkdir "$t"
	gen_trace || return
	check_cuts
	check_flips
	[ -n "${KEEP:-}" ] && cp -r "$t" "$KEEP/"
	rm -r "$t"
}

check_trace v6-le 600 2 1 "--file-version=6"
check_trace v6-be-l4-missed 600 2 2 "--file-version=6 --byte-order=be --long-size=4 --missed"
check_trace v6-1cpu 300 1 3 "--file-version=6"
check_trace v7-none 600 2 4 ""
check_trace v7-zstd 2400 2 5 "--compression=zstd" " "
check_trace v7-zlib-be-l4-missed 1600 1 6 "--compression=zlib --byte-order=be --long-size=4 \
--missed" "--byte-order=be --long-size=4 --missed"

if [ "$failures" -ne 0 ]; then
	echo "$failures failures in $runs runs of tracekit"
	exit 1
fi
echo "$runs runs of tracekit on damaged trace.dat files, all as expected"
exit 0
