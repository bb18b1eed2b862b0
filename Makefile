# froce top-level Makefile. `make help` lists the targets.

PYTHON := /usr/bin/python3
BUILD := build
PCAP_TOOL := $(BUILD)/bin/froce-pcap
VECTORS ?= $(or $(FROCE_VECTORS),tests/vectors/rxe)

.PHONY: help deps check-deps gen check-gen lint test froce-pcap demo bench synth timing area clean fuzz-firmware \
	driver provider install-provider uninstall-provider cosim bench-loss bench-loss-uml
FUZZ_SECONDS ?= 300

help:
	@echo "froce — open FPGA RoCE v2 offload NIC"
	@echo ""
	@echo "  make deps        install every Debian package the project needs (root, idempotent)"
	@echo "  make test        everything that asserts: generated files, lint, unit tests,"
	@echo "                   rxe vectors, round trips, synthesis; ends 'N passed, N failed'"
	@echo "  make demo        rxe captures through the RTL parser, then two simulated NICs:"
	@echo "                   WRITE/READ/SEND/atomic tables and pcaps that tshark decodes"
	@echo "  make froce-pcap  build $(PCAP_TOOL) (Verilator models of parser and builder)"
	@echo "  make lint        verilator --lint-only -Wall and iverilog on every RTL module"
	@echo "  make synth       Yosys synthesis (generic, ECP5, Xilinx) with utilisation table"
	@echo "  make bench       parser/builder bytes per cycle, transport engine Gb/s and latency,"
	@echo "                   soft core CPI and Yosys cell counts, firmware command cycles,"
	@echo "                   the loss sweep (bench-loss)"
	@echo "  make bench-loss  go-back-N on a lossy wire: goodput against drop rate (table + PNG),"
	@echo "                   and an envelope of sizes, MTUs, faults, QPs and depths (build/bench/loss)"
	@echo "  make bench-loss-uml  the same loss rates through the UML harness: rxe-rxe beside froce-froce"
	@echo "  make driver      build driver/froce.ko against the installed kernel headers (KDIR= overrides)"
	@echo "  make provider    build the rdma-core provider (build/provider/libfroce-rdmav34.so)"
	@echo "  make install-provider / uninstall-provider"
	@echo "                   put / remove it where Debian's libibverbs looks (root)"
	@echo "  make cosim       the full stack in User-Mode Linux: froce.ko + libibverbs + perftest,"
	@echo "                   two froce NICs, then froce against Linux rxe (rdma link, ibv_devinfo,"
	@echo "                   ping, ethtool, rc_pingpong, ib_{write,read,send}_bw, ib_write_lat)"
	@echo "  make fuzz-firmware  libFuzzer on the firmware's command decoder for FUZZ_SECONDS"
	@echo "                   (default 300; make test runs 20 s of it)"
	@echo "  make timing      place and route on the ECPIX-5's LFE5UM5G-85F (nextpnr): Fmax per clock of"
	@echo "                   the board top (and around a stand-in core), of the parser and builder alone"
	@echo "  make area        where the ECP5 area goes: froce_core by module (Yosys, LUT4 sites estimated);"
	@echo "                   AREA_ARGS=\"--top froce_tx_engine --set NUM_QPS=8\" for one block"
	@echo "  make gen         regenerate headers from spec/ and the CRC matrices"
	@echo "  make check-gen   fail if a generated file is out of date"
	@echo "  make clean       remove $(BUILD)/"

deps:
	bash scripts/deps.sh

check-deps:
	@bash scripts/deps.sh --check

gen:
	$(PYTHON) scripts/gen_hw.py
	$(PYTHON) scripts/gen_crc.py

check-gen: check-deps
	$(PYTHON) scripts/gen_hw.py --check
	$(PYTHON) scripts/gen_crc.py --check

lint: check-deps
	bash scripts/lint.sh

froce-pcap: check-deps
	$(MAKE) -s -C sim/pcap TOP_DIR=$(CURDIR) BUILD=$(CURDIR)/$(BUILD)

driver: check-deps
	$(MAKE) -C driver

provider: check-deps
	$(MAKE) -C provider

install-provider: provider
	$(MAKE) -C provider install

uninstall-provider:
	$(MAKE) -C provider uninstall

cosim: check-deps
	bash sim/uml/prepare.sh
	$(PYTHON) sim/uml/cosim.py --topology froce-froce
	$(PYTHON) sim/uml/cosim.py --topology froce-rxe

fuzz-firmware: check-deps
	$(MAKE) -C firmware fuzz FUZZ_SECONDS=$(FUZZ_SECONDS)

test: froce-pcap
	FROCE_VECTORS=$(VECTORS) $(PYTHON) tests/run_all.py

demo: froce-pcap
	VECTORS=$(VECTORS) bash scripts/demo.sh

bench: froce-pcap
	$(PCAP_TOOL) bench
	bash scripts/bench_core.sh
	bash scripts/bench_cpu.sh
	bash scripts/bench_fw.sh
	$(PYTHON) scripts/synth.py --flow generic --flow ecp5 --flow xilinx
	$(PYTHON) scripts/bench_loss.py

bench-loss: check-deps
	$(PYTHON) scripts/bench_loss.py

bench-loss-uml: check-deps
	bash scripts/bench_loss_uml.sh

synth: check-deps
	$(PYTHON) scripts/synth.py

timing: check-deps
	bash scripts/timing.sh

area: check-deps
	$(PYTHON) scripts/area.py $(AREA_ARGS)

clean:
	rm -rf $(BUILD)
