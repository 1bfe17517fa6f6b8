#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Guest side of the VM case ust-eh (tests/vm/cases): the application tracer's EventHeader
# output through the kernel's user_events. ust-eh-tp --kernel registers the test provider's
# events at its start, then waits for a recorder to enable them (the kernel sets bit 1 of
# each event's enable word) and to record (the file "go", made by the command tracekit runs
# once its buffers are on); tracekit records every user_events event until the program says
# it has emitted (the file "emitted"). The host decodes ust-eh.dat with
# `tracekit print --style perf-decode` to the values written (tests/ust/ust-eh-tp.json-lines).
ust-eh-tp --kernel >ust-eh-tp.out 2>&1 &
prog=$!
i=0
while [ ! -e /sys/kernel/tracing/events/user_events/tktest_L4K1 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
tracekit record -e 'user_events:*' -e sched:sched_switch -o ust-eh.dat -- sh -c \
	': >go; i=0; while [ ! -e emitted ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done'
rc=$?
wait $prog || { cat ust-eh-tp.out >&2; exit 1; }
exit $rc
