# SPDX-License-Identifier: MIT
#
# Sourced by the tests that touch tracefs: a snapshot of every tracefs setting a recorder
# could change, the differences between two snapshots, and putting settings back. The caller
# sets $tracefs (the mount) and $tmp (a scratch directory) and defines note() and fail().

# snapshot OUT: one sorted line per tracefs setting, "path<TAB>value", the lines of a
# multi-line value joined by a literal \n. Files that read empty or cannot be read are absent
# (alike before and after). Reading every event's three files takes a few tens of ms.
snapshot() {
	(
		cd "$tracefs" || exit 1
		grep -H '' tracing_on buffer_size_kb buffer_total_size_kb buffer_subbuf_size_kb buffer_percent \
			current_tracer trace_clock saved_cmdlines_size tracing_cpumask \
			tracing_thresh timestamp_mode set_event set_event_pid set_event_notrace_pid \
			set_ftrace_pid set_ftrace_notrace_pid set_ftrace_filter set_ftrace_notrace \
			set_graph_function set_graph_notrace dynamic_events kprobe_events \
			uprobe_events synthetic_events options/* per_cpu/cpu*/buffer_size_kb
		grep -r -H '' events --include=enable --include=filter --include=trigger
		for i in instances/*; do
			[ -e "$i" ] && echo "$i:present"
		done
		grep -H '' /proc/sys/kernel/kptr_restrict /proc/sys/kernel/ftrace_enabled
	) 2>/dev/null | awk '
		{
			i = index($0, ":")
			p = substr($0, 1, i - 1)
			v = substr($0, i + 1)
			if (p in val)
				val[p] = val[p] "\\n" v
			else
				val[p] = v
		}
		END { for (p in val) print p "\t" val[p] }' | sort >"$1"
}

# write_back PATH OLD: write one setting back; status 1 for a setting not restored here.
write_back() {
	case $1 in
	/proc/sys/kernel/kptr_restrict | /proc/sys/kernel/ftrace_enabled) f=$1 ;;
	/*) return 1 ;;
	*) f=$tracefs/$1 ;;
	esac
	v=$2
	case $1 in
	trace_clock) v=$(echo "$2" | sed -n 's/.*\[\(.*\)\].*/\1/p') ;;
	events/*/filter) [ "$2" = none ] && v=0 ;;
	events/*/*/enable) v=${2%\*} ;; # "1*": soft-disabled by a trigger
	buffer_size_kb | events/enable | events/*/enable)
		# "X": per-CPU sizes or per-event states differ; those files are restored instead
		[ "$2" = X ] && return 0
		;;
	/proc/* | options/* | per_cpu/cpu*/buffer_size_kb) ;;
	buffer_subbuf_size_kb | buffer_percent | current_tracer | saved_cmdlines_size) ;;
	tracing_cpumask | tracing_thresh | tracing_on) ;;
	*) return 1 ;;
	esac
	case $v in
	*'\n'* | "(absent)") return 1 ;;
	esac
	printf '%s\n' "$v" >"$f" 2>/dev/null
}

# restore WHEN: compare the settings with the snapshot taken before the first recording;
# write back what changed in dependency order (sizes, tracer, clock and options; system-wide
# event switches; single events and filters; tracing_on last), then read again: anything
# still different fails the test.
restore() {
	[ -s "$tmp/state.before" ] || return 0
	snapshot "$tmp/state.after"
	changes "$tmp/state.before" "$tmp/state.after" >"$tmp/state.diff"
	[ -s "$tmp/state.diff" ] || return 0
	n=0
	for pass in 1 2 3; do
		while IFS='	' read -r path old new; do
			case $path in
			tracing_on) p=3 ;;
			events/*/*/*) p=2 ;;
			*) p=1 ;;
			esac
			[ $p -eq $pass ] || continue
			write_back "$path" "$old" || continue
			n=$((n + 1))
			[ $n -le 5 ] && note "after $1, $path was '$new', set back to '$old'"
		done <"$tmp/state.diff"
	done
	[ $n -le 5 ] || note "after $1, $((n - 5)) more settings set back"
	snapshot "$tmp/state.after"
	changes "$tmp/state.before" "$tmp/state.after" >"$tmp/state.diff"
	if [ -s "$tmp/state.diff" ]; then
		while IFS='	' read -r path old new; do
			fail "after $1, $path is '$new', was '$old', and could not be written back"
		done <"$tmp/state.diff"
	fi
}


# --- every readable tracefs file (the VM harness, tests/vm/; POSIX sh and busybox alike) ---

# Files left out of snapshot_all, each because it changes by itself or reading it is not a
# look (an ERE on the path below the mount, instances and per_cpu included):
#   trace, snapshot              the buffers' events (per_cpu/cpuN/ ones too)
#   trace_pipe, trace_pipe_raw   consuming reads, which wait while the buffer is empty
#   snapshot_raw                 the snapshot buffer's pages, a consuming read as well
#   free_buffer                  closing it, even after a read, shrinks the buffer to 0
#   stats                        per_cpu counters: entries, bytes, "now ts", overruns
#   saved_cmdlines, saved_tgids  pid -> comm caches filled by every sched event
#   error_log                    the kernel appends a line for each refused write, and
#                                tracekit never clears it (doc/record.md)
#   touched_functions            every function ever traced since boot (6.6 and later),
#                                never cleared by design
# and, because reading them would be most of the time a snapshot takes under emulation
# (Debian 6.1 in qemu: 4.5 s a snapshot with them, 2.5 s without) and they cannot change:
#   events/*/*/format, id        fixed when the event is made; whether it exists shows in
#                                its enable file, what a dynamic event is in *_events
#   available_filter_functions(_addrs)  the kernel's list of traceable functions (a
#                                megabyte), which changes only when modules load
tracefs_volatile='(^|/)(trace|snapshot|trace_pipe|trace_pipe_raw|snapshot_raw|free_buffer|stats|saved_cmdlines|saved_tgids|error_log|touched_functions|format|id|available_filter_functions|available_filter_functions_addrs)$'

# snapshot_all DIR OUT: "path<TAB>value" for every file under the tracefs mount DIR but the
# ones above, in path order, the lines of a value joined by a literal \n; files that read empty or
# cannot be read (write-only ones) have an empty value, so a file that appears or goes (an
# instance, a probe's event) shows too. kptr_restrict and ftrace_enabled are added, as
# /proc/sys/kernel/NAME.
snapshot_all() {
	case $2 in
	/*) set -- "$1" "$2" ;;
	*) set -- "$1" "$PWD/$2" ;; # the list is written from inside the mount
	esac
	(
		cd "$1" || exit 1
		find . -type f | sed 's|^\./||' | grep -v -E "$tracefs_volatile" | sort >"$2.files"
		xargs grep -H '' <"$2.files"
		grep -H '' /proc/sys/kernel/kptr_restrict /proc/sys/kernel/ftrace_enabled
	) 2>/dev/null | awk -v files="$2.files" '
		# grep prints the lines of each file together: stream them out, never growing a
		# string (available_filter_functions has tens of thousands of lines)
		{
			i = index($0, ":")
			p = substr($0, 1, i - 1)
			v = substr($0, i + 1)
			if (p == cur) {
				printf "\\n%s", v
				next
			}
			if (cur != "")
				printf "\n"
			printf "%s\t%s", p, v
			cur = p
			seen[p] = 1
		}
		END {
			if (cur != "")
				printf "\n"
			while ((getline p <files) > 0)
				if (!(p in seen))
					print p "\t"
		}' >"$2"
	rm -f "$2.files"
}

# fresh_sizes: sets exp_size, exp_total and exp_cpu to what buffer_size_kb,
# buffer_total_size_kb and per_cpu/cpu0/buffer_size_kb read in a new instance, whose buffers
# the kernel allocates at the boot-time size, rounded up to whole pages (1408 KiB reads 1410):
# what a top-level buffer reads once an event expands it.
fresh_sizes() {
	d=$tracefs/instances/tk-fresh-$$
	mkdir "$d" 2>/dev/null || return 0
	exp_size=$(cat "$d/buffer_size_kb" 2>/dev/null)
	exp_total=$(cat "$d/buffer_total_size_kb" 2>/dev/null)
	exp_cpu=$(cat "$d/per_cpu/cpu0/buffer_size_kb" 2>/dev/null)
	rmdir "$d"
}

# changes BEFORE AFTER: "path<TAB>before<TAB>after" for each file of two snapshots (snapshot
# or snapshot_all) that differs, but for the one change nothing can undo: a freshly booted
# kernel's top-level buffer is not allocated at its size yet (buffer_size_kb "7 (expanded:
# 1408)", buffer_total_size_kb "14 (expanded: 2816)" with 2 CPUs, per_cpu/cpuN/buffer_size_kb
# "7"); enabling any event there (on 6.1, in any instance) expands it, and no write
# un-expands it. Those files of the top level may go from such values to what a new
# instance's read (fresh_sizes), and to nothing else.
changes() {
	exp_size=
	exp_total=
	exp_cpu=
	grep -q '^buffer_size_kb	[0-9]* (expanded: ' "$1" && fresh_sizes
	awk -F '\t' -v exp_size="$exp_size" -v exp_total="$exp_total" -v exp_cpu="$exp_cpu" '
		NR == FNR { b[$1] = $2; next }
		{ a[$1] = $2 }
		function expanded(p, old, new) {
			if (exp_size == "")
				return 0
			if (p == "buffer_size_kb")
				return old ~ /\(expanded: / && new == exp_size
			if (p == "buffer_total_size_kb")
				return old ~ /\(expanded: / && new == exp_total
			return p ~ /^per_cpu\/cpu[0-9]+\/buffer_size_kb$/ && new == exp_cpu
		}
		END {
			for (p in b)
				if (!(p in a))
					print p "\t" b[p] "\t(absent)"
				else if (a[p] != b[p] && !expanded(p, b[p], a[p]))
					print p "\t" b[p] "\t" a[p]
			for (p in a)
				if (!(p in b))
					print p "\t(absent)\t" a[p]
		}' "$1" "$2" | sort
}
