#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: MIT
#
# /init of the VM harness's initramfs (tests/vm/run.sh builds it): mounts proc, sysfs and
# devtmpfs -- not tracefs, so that the first cases of a boot find it unmounted, as on a
# machine that never mounted it, and mount it themselves (tests/vm/guest.sh) -- loads the
# modules of the virtio disk where the kernel has them as modules, runs the cases of this
# boot, and ends the virtual machine. Markers on the console (ttyS0) tell the host how far
# the guest got; the results go out on the disk (/dev/vda).
/bin/busybox --install -s /bin
export PATH=/vm:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /tmp /out
if [ -f /vm/modules/order ]; then
	for m in $(cat /vm/modules/order); do
		insmod "/vm/modules/$m.ko" || echo "tkvm-error cannot load module $m"
	done
fi
echo "tkvm-init $(uname -r) cpus=$(nproc) uptime=$(cut -d ' ' -f 1 /proc/uptime)"
sh /vm/guest.sh
echo "tkvm-done uptime=$(cut -d ' ' -f 1 /proc/uptime)"
sync
# with qemu's -no-reboot, a reboot ends qemu (the minimal kernel has no ACPI to power off)
reboot -f
