#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The VM harness's workload (tests/vm/cases): a few execs, forks, exits, reads and sleeps,
# short enough for an emulated CPU. Run with sh, in the guest.
i=0
while [ $i -lt 10 ]; do
	/bin/true
	cat /proc/version >/dev/null
	i=$((i + 1))
done
/bin/true &
wait
sleep 0.2
