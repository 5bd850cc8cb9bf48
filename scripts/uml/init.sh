#!/bin/sh
# PID 1 inside UML (started by scripts/uml/boot.sh) or QEMU (after
# scripts/qemu/initramfs-init.sh); never run on the host.
# Usage (kernel command line): init=/path/init.sh -- SCRIPT [ARGS...]
# Mounts proc, sysfs, debugfs, devtmpfs; cd's to $tplan_cwd (from boot.sh); runs
# SCRIPT ARGS; prints the end marker "TPLAN-UML-EXIT <rc>"; powers UML off.
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH

mnt() { # fstype dir
	grep -q " $2 $1 " /proc/mounts 2>/dev/null || mount -t "$1" "$1" "$2" ||
		echo "tplan-init: mount -t $1 $2 failed" >&2
}
mount -t proc proc /proc 2>/dev/null
mnt sysfs /sys
mnt debugfs /sys/kernel/debug
mnt devtmpfs /dev

# Kernel messages at KERN_INFO and above go to the console with the script output.
echo 7 >/proc/sys/kernel/printk 2>/dev/null

[ -n "$tplan_cwd" ] && cd "$tplan_cwd" 2>/dev/null
unset tplan_cwd

echo "TPLAN-UML-START"
if [ $# -eq 0 ]; then
	echo "tplan-init: no script given" >&2
	rc=127
elif [ -x "$1" ]; then
	"$@"
	rc=$?
else
	/bin/sh "$@"
	rc=$?
fi
sync
echo "TPLAN-UML-EXIT $rc"
# Power off. sysrq 'o' works without any init system: at once in UML; in
# QEMU it queues the power-off, which takes the 9p root away, so nothing may
# be exec'd after it (that failed with EIO) and PID 1 must not exit (a
# panic): wait in the shell itself.
echo o >/proc/sysrq-trigger 2>/dev/null
while :; do :; done
