#!/usr/bin/env bash
# Install every Debian package froce needs, idempotently and non-interactively.
# Run as root (or with sudo available). Safe to run again: it installs only what
# is missing and does nothing when everything is present.
#
#   scripts/deps.sh          install what is missing, then the pinned PyPI
#                            venvs (cocotb, the ECP5 tools) into the user's cache
#   scripts/deps.sh --check  only report missing Debian packages (exit 1 if any is)
set -euo pipefail

check_only=0
[[ ${1:-} == --check ]] && check_only=1

packages=(
	# build basics
	build-essential make git pkg-config python3 python3-scapy python3-venv
	# plots of the benchmark sweeps (make bench)
	python3-matplotlib
	# RTL: simulation, lint, synthesis
	verilator iverilog yosys
	# tclsh: the board build scripts run under a mocked Vivado (fpga/alveo_u200, make check)
	tcl
	# loads the ECPIX-5 bitstream over the board's FT2232H (make -C fpga/ecpix5 prog / flash)
	openfpgaloader
	# soft core firmware; picolibc: the C library of its unit tests on the core
	gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
	# host tools and fuzzing
	clang libclang-rt-14-dev libpcap-dev tshark
	# kernel driver (host build) and the User-Mode Linux co-simulation kernel
	linux-headers-amd64 linux-source-6.1 bc bison flex libelf-dev libssl-dev sparse
	# inside the co-simulation guests (the host's root is theirs): modules, netdev tools
	kmod ethtool iputils-ping
	# RDMA userspace: libibverbs, provider build, tools, perftest
	rdma-core libibverbs-dev ibverbs-utils ibverbs-providers perftest iproute2
)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$p")
done

# The PyPI tools live in venvs outside the checkout, keyed by their pins
# (scripts/cocotb_venv.sh, scripts/ecp5_tools.sh); each script installs its
# venv on first use, so this only saves that wait (and needs PyPI now rather
# than later). Under sudo they go into the invoking user's cache, not root's.
install_venvs() {
	local script as_user=()
	if [[ $(id -u) -eq 0 && -n ${SUDO_USER:-} && $SUDO_USER != root ]]; then
		as_user=(sudo -u "$SUDO_USER" -H)
	fi
	for script in scripts/cocotb_venv.sh scripts/ecp5_tools.sh; do
		echo "deps: $script -> $("${as_user[@]}" bash "$script")"
	done
}
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ${#missing[@]} -eq 0 ]]; then
	[[ $check_only -eq 1 ]] && exit 0
	echo "deps: all ${#packages[@]} packages present"
	install_venvs
	exit 0
fi

if [[ $check_only -eq 1 ]]; then
	echo "deps: missing Debian packages: ${missing[*]}" >&2
	echo "deps: run 'make deps' (as root) to install them" >&2
	exit 1
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
	command -v sudo >/dev/null || { echo "deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
	sudo=sudo
fi

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer for it.
echo "wireshark-common wireshark-common/install-setuid boolean false" | $sudo debconf-set-selections
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
install_venvs
echo "deps: done"
