#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Summarise a Yosys synth_xilinx `stat -json` file as UltraScale+ resource
counts (what Vivado's utilisation report calls them) and fail on a latch.

    utilisation.py STAT.json [LABEL]

Prints one table; exits 1 if the netlist holds a latch (LDCE/LDPE) or the
file has no design. Python 3 standard library only."""

import json
import sys

# cell type -> (resource, weight); LUT RAM and SRL are LUTs in SLICEMs
GROUPS = {
    "LUT": ("LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6"),
    "LUT as memory": ("RAM16X1S", "RAM16X1D", "RAM32X1S", "RAM32X1D", "RAM64X1S", "RAM64X1D",
                      "RAM128X1S", "RAM128X1D", "RAM256X1S", "RAM256X1D", "RAM32M", "RAM32M16",
                      "RAM64M", "RAM64M8", "RAM512X1S"),
    "LUT as shift register": ("SRL16E", "SRLC16E", "SRLC32E"),
    "FF": ("FDRE", "FDSE", "FDCE", "FDPE"),
    "CARRY": ("CARRY4", "CARRY8"),
    "MUXF7/8/9": ("MUXF7", "MUXF8", "MUXF9"),
    "RAMB36E2": ("RAMB36E2",),
    "RAMB18E2": ("RAMB18E2",),
    "URAM288": ("URAM288", "URAM288_BASE"),
    "DSP48E2": ("DSP48E2",),
}
LATCHES = ("LDCE", "LDPE")


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip())
        return 2
    with open(sys.argv[1]) as f:
        data = json.load(f)
    label = sys.argv[2] if len(sys.argv) > 2 else "design"
    cells = {}
    if "design" in data:    # a hierarchy: Yosys has summed the instances
        cells = dict(data["design"].get("num_cells_by_type", {}))
    else:                   # flattened: one module
        for mod in data.get("modules", {}).values():
            for cell, n in mod.get("num_cells_by_type", {}).items():
                cells[cell] = cells.get(cell, 0) + n
    if not cells:
        print(f"utilisation: no cells in {sys.argv[1]}")
        return 1
    counts = {g: sum(cells.get(t, 0) for t in types) for g, types in GROUPS.items()}
    known = {t for types in GROUPS.values() for t in types}
    other = {t: n for t, n in cells.items() if t not in known}
    bram36 = counts["RAMB36E2"] + counts["RAMB18E2"] / 2
    print(f"Yosys synth_xilinx -family xcup utilisation of {label}:")
    for g in GROUPS:
        print(f"  {g:<24}{counts[g]:>8}")
    print(f"  {'block RAM (36 Kb tiles)':<24}{bram36:>8g}")
    boxes = {t: n for t, n in other.items() if t.endswith("froce_core")}
    for t in boxes:
        del other[t]
    if boxes:
        print(f"  {'froce_core (black box)':<24}{sum(boxes.values()):>8}")
    if other:
        print("  other: " + ", ".join(f"{t} {n}" for t, n in sorted(other.items())))
    latches = sum(cells.get(t, 0) for t in LATCHES)
    if latches:
        print(f"utilisation: {latches} latch cell(s) in the netlist")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
