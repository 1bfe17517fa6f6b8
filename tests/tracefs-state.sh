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

# expanded_size FILE: what FILE (buffer_size_kb or buffer_total_size_kb) reads in a fresh
# instance: the size the kernel gives a never-used buffer when the first enabled event
# expands it (both are the boot-time default, rounded to whole sub-buffers).
expanded_size() {
	d=$tracefs/instances/tk-expanded-$$
	mkdir "$d" 2>/dev/null || return 0
	cat "$d/$1" 2>/dev/null
	rmdir "$d"
}

# changes BEFORE AFTER: "path<TAB>before<TAB>after" for each setting that differs. One change
# is the kernel's, not a difference: a top-level buffer never used since boot reads
# "7 (expanded: 1408)" until an event enabled there expands it, and nothing can make it
# unexpanded again; going from that to the expanded default size is accepted.
changes() {
	exp_size=
	exp_total=
	if grep -q '^buffer_size_kb	.*(expanded: ' "$1"; then
		exp_size=$(expanded_size buffer_size_kb)
		exp_total=$(expanded_size buffer_total_size_kb)
	fi
	awk -F '\t' -v exp_size="$exp_size" -v exp_total="$exp_total" '
		NR == FNR { b[$1] = $2; next }
		{ a[$1] = $2 }
		function expanded(p) {
			if (!(p in a) || index(b[p], "(expanded: ") == 0)
				return 0
			return (p == "buffer_size_kb" && a[p] == exp_size) ||
			       (p == "buffer_total_size_kb" && a[p] == exp_total)
		}
		END {
			for (p in b)
				if ((!(p in a) || a[p] != b[p]) && !expanded(p))
					print p "\t" b[p] "\t" (p in a ? a[p] : "(absent)")
			for (p in a)
				if (!(p in b))
					print p "\t(absent)\t" a[p]
		}' "$1" "$2" | sort
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

