#!/bin/bash
# Boot a real x86_64 kernel in QEMU (q35, VT-d, SMP) with the host's / as its
# root over virtio-9p, and run one script there, as scripts/uml/boot.sh does
# in UML.
#
#   scripts/qemu/boot.sh stock|debug SCRIPT [ARGS...]
#
# stock: Debian's own linux-image-6.12.*-amd64 (installed when missing), the
#        kernel tplan's users run; load build/kmod-qemu-stock/tplan.ko after
#        "modprobe drm".
# debug: the debug SMP kernel built from linux-source-6.12 with lockdep, KCSAN,
#        DMA-API debugging and the lockup detectors (scripts/qemu/build-kernel.sh,
#        cached); its module comes from scripts/qemu/build-module.sh.
# SCRIPT runs as a child of scripts/uml/init.sh (after the initramfs has
# mounted the host's root), in the caller's working directory; ARGS must not
# contain whitespace.  Console output goes to stdout; the exit status is
# scripts/console-verdict.sh's (SCRIPT's rc, 124 timeout, 125 no end
# marker, 126 kernel splat).
# Environment: TPLAN_QEMU_CPUS (vCPUs, default 4), TPLAN_QEMU_MEM (default
#   2G), TPLAN_QEMU_TIMEOUT (s, default 300), TPLAN_QEMU_ARGS (extra kernel
#   parameters), TPLAN_QEMU_LOG (keep the log there), TPLAN_ALLOW_SPLAT=1,
#   TPLAN_QEMU_BOOT_TRIES (boots of a kernel that dies before SCRIPT
#   starts, default 2).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 2 ]; then
	echo "usage: $0 stock|debug SCRIPT [ARGS...]" >&2
	exit 2
fi
flavour=$1; script=$2; shift 2
[ -e "$script" ] || { echo "boot.sh: $script not found" >&2; exit 2; }
script=$(realpath "$script")
for a in "$script" "$PWD" "$@"; do
	case $a in *[[:space:]]*) echo "boot.sh: whitespace in '$a' is not supported" >&2; exit 2 ;; esac
done

case $flavour in
stock)
	kver=$("$here/stock-kernel.sh") || exit 2
	kernel=/boot/vmlinuz-$kver
	initrd=$("$here/initramfs.sh" "$kver") || exit 2
	;;
debug)
	kdir=$("$here/build-kernel.sh" | tail -n 1) || exit 2
	kernel=$kdir/arch/x86/boot/bzImage
	initrd=$("$here/initramfs.sh" none) || exit 2
	;;
*)
	echo "boot.sh: unknown kernel '$flavour' (stock or debug)" >&2
	exit 2
	;;
esac
command -v qemu-system-x86_64 >/dev/null ||
	"$here/../install-deps.sh" qemu-system-x86 || exit 2

timeout_s=${TPLAN_QEMU_TIMEOUT:-300}
log=${TPLAN_QEMU_LOG:-}
tmplog=
if [ -z "$log" ]; then
	tmplog=$(mktemp /tmp/tplan-qemu.XXXXXX.log)
	log=$tmplog
fi
cleanup() { [ -n "$tmplog" ] && rm -f "$tmplog"; }
trap cleanup EXIT

# TCG (the emulator, one host thread per vCPU): KVM does not work on every
# host (here it fails on MSR set-up) and TCG's slowness is no problem for
# tests that count bytes, not cycles.  intel-iommu puts VT-d between every
# device and memory; the guest turns it on with intel_iommu=on.
# tsc=unstable: under multi-threaded TCG a vCPU can run the old code of a
# static key the kernel flips by int3 patching; marking the TSC (and with it
# sched_clock) stable at boot, or unstable when the clocksource watchdog
# sees TCG's skew, flips one, and 2 of 36 boots died of "Oops: int3" in
# sched_clock_cpu().  With the TSC unstable from the start nothing flips.
# edu is QEMU's educational PCI device (1234:11e8, a DMA engine with a 4 KiB
# buffer, docs/specs/edu.rst), which driver/edu/ (tplan_edu) drives; it comes
# after intel-iommu so that VT-d translates its DMA.  Nothing binds it unless
# tplan_edu.ko is loaded.
boot_once() {
	# shellcheck disable=SC2086
	timeout -k 5 "$timeout_s" qemu-system-x86_64 \
		-machine q35 -accel tcg,thread=multi -cpu max \
		-smp "${TPLAN_QEMU_CPUS:-4}" -m "${TPLAN_QEMU_MEM:-2G}" \
		-device intel-iommu \
		-device edu \
		-nographic -no-reboot -nic none -serial stdio -monitor none \
		-fsdev local,id=hostroot,path=/,security_model=none,multidevs=remap \
		-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 intel_iommu=on tsc=unstable ${TPLAN_QEMU_ARGS:-} tplan_cwd=$PWD tplan_init=$(realpath "$here/../uml/init.sh") -- $script $*" \
		</dev/null 2>&1 | tr -d '\r' | tee "$log"
	return "${PIPESTATUS[0]}"
}

# tsc=unstable does not remove every flip: other static keys change during
# boot too (one boot died of "Oops: int3" in hrtimer_start_range_ns() while
# tracing initialised).  A kernel that dies before init.sh prints
# TPLAN-UML-START has run nothing of tplan's (the module is loaded by
# SCRIPT), so it is booted once more; a death after the start is the test's.
tries=${TPLAN_QEMU_BOOT_TRIES:-2}
for ((try = 1; ; try++)); do
	boot_once "$@"
	krc=$?
	if [ "$krc" = 124 ] || [ "$krc" = 137 ] || [ "$try" -ge "$tries" ] ||
		grep -a -q '^TPLAN-UML-START' "$log"; then
		break
	fi
	echo "boot: the kernel died before the script started (boot $try of $tries): booting again" >&2
done

"$here/../console-verdict.sh" "$log" "$krc" "$timeout_s"
