#!/bin/bash
# kconfig-check.sh DOT_CONFIG FRAGMENT... - check that a kernel .config has
# every setting the kconfig fragments ask for (merge_config.sh only warns when
# an unmet dependency drops one). A later fragment overrides an earlier one,
# so only each symbol's last setting counts; "# CONFIG_X is not set" is also
# met when X is absent (not visible on this architecture / configuration).
# Prints "kconfig-check: wanted '...', got '...'" on stderr for each miss and
# exits 1 if there was any. Used by scripts/uml/build-kernel.sh and
# scripts/qemu/build-kernel.sh: a test kernel without an option a fragment asks
# for would test something else.
set -euo pipefail
if [ $# -lt 2 ]; then
	echo "usage: $0 DOT_CONFIG FRAGMENT..." >&2
	exit 2
fi
config=$1
shift
bad=0
while IFS= read -r want; do
	sym=${want#\# }
	sym=${sym%%[= ]*}
	got=$(grep -E "^(# )?${sym}[= ]" "$config" || true)
	if [ "$got" != "$want" ] && ! { [ -z "$got" ] && [ "${want#\#}" != "$want" ]; }; then
		printf "kconfig-check: wanted '%s', got '%s'\n" "$want" "${got:-<absent>}" >&2
		bad=1
	fi
done < <(cat "$@" | tac | awk '
	/^CONFIG_[A-Za-z0-9_]*=/ { s = $0; sub(/=.*/, "", s) }
	/^# CONFIG_[A-Za-z0-9_]* is not set/ { s = $2 }
	s != "" { if (!(s in seen)) { seen[s] = 1; print } s = ""; next }
	' | tac)
exit $bad
