#!/bin/sh
# /init of the QEMU rig's initramfs (scripts/qemu/initramfs.sh packs it;
# runs in the guest only).  Loads the 9p modules packed beside it (the stock
# kernel has them as modules; the debug kernel has them built in), mounts the
# host's / over virtio-9p (mount tag "hostroot") and switches to it, where
# scripts/uml/init.sh (kernel parameter tplan_init) runs the test script as it
# does in UML.  The kernel hands its unknown parameters (tplan_cwd,
# tplan_init) to /init as environment variables; they are passed on.
/bin/busybox mkdir -p /proc /sys /dev /host
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t devtmpfs devtmpfs /dev
for m in $(/bin/busybox cat /modules/order 2>/dev/null); do
	/bin/busybox insmod "/modules/$m" || echo "tplan-initramfs: insmod $m failed"
done
if ! /bin/busybox mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 \
	hostroot /host; then
	echo "tplan-initramfs: cannot mount the host's root over 9p"
	echo "TPLAN-UML-EXIT 125"
	/bin/busybox poweroff -f
fi
/bin/busybox umount /dev /proc
# shellcheck disable=SC2154 # tplan_init comes from the kernel command line
exec /bin/busybox switch_root /host "$tplan_init" "$@"
