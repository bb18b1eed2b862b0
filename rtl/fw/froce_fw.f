# froce_fw (the firmware subsystem) and every module it instantiates, one path
# per line relative to the repository root. Include directories: rtl/include
# (froce_hw.vh) and rtl/dma (froce_dma_defs.vh).
rtl/common/froce_fifo.v
rtl/dma/froce_dma_rd.v
rtl/dma/froce_dma_wr.v
rtl/cpu/froce_cpu.v
rtl/cpu/froce_cpu_ram.v
rtl/fw/froce_fw_dma.v
rtl/fw/froce_fw.v
