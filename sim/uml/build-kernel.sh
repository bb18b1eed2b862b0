#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the User-Mode Linux kernel of the co-simulation from Debian's
# linux-source-6.1 with sim/uml/froce-uml.config, and froce.ko against it.
# The tree is cached outside the checkout, keyed by a hash of the config
# fragment, the recipe version (RECIPE below) and the linux-source package
# version, so a second run with nothing changed only rebuilds froce.ko.
#
#   sim/uml/build-kernel.sh            build (or reuse) the kernel, then froce.ko
#   sim/uml/build-kernel.sh --print    print the cached tree's path (exit 1 if not built)
#
# Environment: FROCE_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/froce),
# JOBS (default: number of CPUs). Needs the packages of `make deps`
# (linux-source-6.1, bc, bison, flex, libelf-dev, build-essential).
# Output: <tree>/linux (the UML binary), <tree>/.config, and build/uml/froce.ko
# built for ARCH=um from a copy of driver/ and include/ in build/uml/ (driver/
# itself, where the host build lives, is not touched).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
FRAG="$ROOT/sim/uml/froce-uml.config"
TARBALL=/usr/src/linux-source-6.1.tar.xz
CACHE="${FROCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/froce}"
JOBS="${JOBS:-$(nproc)}"

die() { echo "build-kernel: $*" >&2; exit 1; }

[[ -r $TARBALL ]] || die "$TARBALL not found: run 'make deps' (package linux-source-6.1)"
for tool in bc bison flex gcc make xz; do
	command -v "$tool" >/dev/null || die "'$tool' not found: run 'make deps'"
done
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
# bump RECIPE when the way the tree is configured or built changes
RECIPE=1
key=$(cat "$FRAG" <(echo "recipe $RECIPE linux-source $srcver") | sha256sum | cut -c1-16)
TREE="$CACHE/uml-6.1-$key"

if [[ ${1:-} == --print ]]; then
	[[ -x $TREE/linux ]] || die "no kernel built for this config yet ($TREE)"
	echo "$TREE"
	exit 0
fi
[[ $# -eq 0 ]] || die "usage: build-kernel.sh [--print]"

mkdir -p "$CACHE"
exec 9>"$CACHE/uml-build.lock"
flock 9   # one build of the tree at a time

start=$SECONDS
if [[ -x $TREE/linux && -f $TREE/.froce-built ]]; then
	echo "build-kernel: cached kernel $TREE/linux"
else
	rm -rf "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	echo "build-kernel: unpacking $TARBALL ($srcver) into $TREE.tmp"
	tar -xJf "$TARBALL" -C "$TREE.tmp" --strip-components=1
	cd "$TREE.tmp"
	echo "build-kernel: config: ARCH=um defconfig + $(basename "$FRAG")"
	make -s ARCH=um defconfig >/dev/null
	scripts/kconfig/merge_config.sh -m .config "$FRAG" >merge.log 2>&1 || { cat merge.log; die "merge_config failed"; }
	make -s ARCH=um olddefconfig >/dev/null
	# every option the fragment sets must have survived olddefconfig
	missing=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) grep -qxF "$line" .config || { echo "build-kernel: not in .config: $line" >&2; missing=1; } ;;
		"# CONFIG_"*" is not set") grep -qxF "$line" .config || { echo "build-kernel: not in .config: $line" >&2; missing=1; } ;;
		esac
	done <"$FRAG"
	[[ $missing -eq 0 ]] || die "the config fragment did not apply (dependencies missing?)"
	echo "build-kernel: make ARCH=um -j$JOBS linux modules (3-10 minutes on 2 cores)"
	if ! make ARCH=um -j"$JOBS" linux modules >build.log 2>&1; then
		tail -40 build.log
		die "kernel build failed (log: $TREE.tmp/build.log)"
	fi
	touch .froce-built
	cd "$CACHE"
	rm -rf "$TREE"
	mv "$TREE.tmp" "$TREE"
	echo "build-kernel: built $TREE/linux in $((SECONDS - start)) s"
fi

"$TREE/linux" --version >/dev/null 2>&1 || die "$TREE/linux does not run"
echo "build-kernel: $("$TREE/linux" --version 2>&1 | head -1)"

# froce.ko for ARCH=um is built in a copy of the driver under build/uml/ so
# the host build in driver/ is left alone; the result is build/uml/froce.ko.
UMLB="$ROOT/build/uml"
echo "build-kernel: froce.ko for ARCH=um in $UMLB"
rm -rf "$UMLB/driver" "$UMLB/include" "$UMLB/froce.ko"
mkdir -p "$UMLB/driver"
cp "$ROOT"/driver/Kbuild "$ROOT"/driver/Makefile "$ROOT"/driver/*.[ch] "$UMLB/driver/"
cp -r "$ROOT/include" "$UMLB/include"
if ! make -C "$UMLB/driver" KDIR="$TREE" ARCH=um W=1 >"$UMLB/froce-ko-um.log" 2>&1; then
	tail -40 "$UMLB/froce-ko-um.log"
	die "froce.ko did not build against $TREE (log: $UMLB/froce-ko-um.log)"
fi
if grep -qE 'warning:|error:' "$UMLB/froce-ko-um.log"; then
	grep -E 'warning:|error:' "$UMLB/froce-ko-um.log" | head -20
	die "froce.ko built with warnings against the UML tree"
fi
cp "$UMLB/driver/froce.ko" "$UMLB/froce.ko"
echo "build-kernel: ok: $TREE/linux, $UMLB/froce.ko (ARCH=um, W=1, no warnings) in $((SECONDS - start)) s"
