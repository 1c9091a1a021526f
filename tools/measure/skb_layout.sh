#!/bin/sh
# sizeof(struct sk_buff) and of struct skb_shared_info's parts at v2.6.25, for each ABI of
# the profiles: tools/measure/skb_layout.c compiled (not run) by the host compiler (LP64,
# as ia64 and x86-64), with -m32 (i386: 64-bit integers aligned to 4 in a struct, as ARM's
# old ABI), and by arm-linux-gnueabi-gcc (EABI, 64-bit integers aligned to 8) and its
# -mabi=apcs-gnu (the old ABI: versatile_defconfig leaves CONFIG_AEABI off) when installed
# (Debian: gcc-arm-linux-gnueabi; gcc-multilib for -m32). Raw output: data/measured/skb_layout.txt.
set -e
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
src=$(dirname "$0")/skb_layout.c
sizes() { # compiler and flags; prints the three constants from .rodata
	"$@" -O2 -c "$src" -o "$d/o.o" 2>/dev/null || { echo "  (not available)"; return; }
	for s in sizeof_sk_buff sizeof_skb_shared_info_head sizeof_skb_frag; do
		printf '  %s %s\n' "$s" "$(python3 - "$d/o.o" "$s" <<'PY'
import subprocess, sys
obj, sym = sys.argv[1], sys.argv[2]
nm = subprocess.run(["nm", obj], capture_output=True, text=True).stdout.split("\n")
off = next(int(l.split()[0], 16) for l in nm if l.endswith(" " + sym))
data = open(obj, "rb").read()
# the .rodata section's file offset, from readelf
out = subprocess.run(["readelf", "-SW", obj], capture_output=True, text=True).stdout
for l in out.split("\n"):
    f = l.replace("[ ", "[").split()
    if len(f) > 5 and f[1] == ".rodata":
        base = int(f[4], 16)
        print(int.from_bytes(data[base + off:base + off + 4], "little"))
        break
PY
)"
	done
}
echo "# $(gcc --version | head -1)"
echo "LP64 (gcc; ia64 and x86-64 lay these types out alike), generic_defconfig"; sizes gcc
echo "LP64, x86_64_defconfig (NETDEVICES_MULTIQUEUE)"; sizes gcc -DCONFIG_NETDEVICES_MULTIQUEUE
echo "ILP32 i386 (gcc -m32), i386_defconfig (NETDEVICES_MULTIQUEUE)"; sizes gcc -m32 -DCONFIG_NETDEVICES_MULTIQUEUE
echo "ARM EABI (arm-linux-gnueabi-gcc), versatile_defconfig"; sizes arm-linux-gnueabi-gcc
echo "ARM old ABI (arm-linux-gnueabi-gcc -mabi=apcs-gnu), versatile_defconfig"; sizes arm-linux-gnueabi-gcc -mabi=apcs-gnu
