#!/usr/bin/env bash
# Host-side C++ unit tests of the simulation models, built with ASan and UBSan.
# Runs from the repository root.
set -euo pipefail
out=build/tests/sim
mkdir -p "$out"
flags=(-std=c++17 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined
	-fno-sanitize-recover=all -fno-omit-frame-pointer -Isim/wire -Isim/pcap)
g++ "${flags[@]}" -o "$out/wire_test" tests/sim/wire_test.cpp sim/wire/wire.cpp sim/pcap/pcap_file.cpp
"$out/wire_test" "$out"
g++ "${flags[@]}" -Isim/ecpix5 -o "$out/ecpix5_models_test" tests/sim/ecpix5_models_test.cpp sim/ecpix5/board_models.cpp
"$out/ecpix5_models_test"
