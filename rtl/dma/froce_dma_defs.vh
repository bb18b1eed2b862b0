// SPDX-License-Identifier: MIT
// DMA engine status codes, shared by froce_dma_rd and froce_dma_wr.
//
// Included inside a module body (these are localparams, not macros), so there
// is no include guard. Status ports are 4 bits wide; codes 4..15 are reserved.
// When several beats of one request fail, DECERR wins over SLVERR.

localparam [3:0] DMA_ERR_OK      = 4'd0;   // every beat answered OKAY (or EXOKAY)
localparam [3:0] DMA_ERR_SLVERR  = 4'd1;   // at least one beat answered SLVERR
localparam [3:0] DMA_ERR_DECERR  = 4'd2;   // at least one beat answered DECERR
localparam [3:0] DMA_ERR_BAD_LEN = 4'd3;   // length 0: refused, no bus traffic
