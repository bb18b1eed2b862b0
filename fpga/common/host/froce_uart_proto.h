/* SPDX-License-Identifier: MIT */
/*
 * froce UART host link: the wire protocol between a host program
 * (froce_uart_link.c) and froce_uart_host_bridge.v. The one source of the
 * protocol's numbers: the C library includes this file, the cocotb bench
 * (tests/fpga_common/uart/uart_proto.py) parses it, and
 * tests/fpga_common/uart/check_proto.py checks that the bridge's
 * localparams of the same names (without FROCE_UART_) are equal to these.
 * Keep every value a plain literal on one #define line.
 *
 * Frames (all multi-byte fields little-endian; README.md in this folder
 * draws them field by field):
 *
 * Request, host -> device:
 *   SOF_REQ | CMD | TAG | LEN | ADDR[8] | PAYLOAD[LEN + 1] | CRC[2]
 *   PAYLOAD is present only when CMD has CMD_PAYLOAD_FLAG. LEN is the
 *   byte count less one (1..256 bytes).
 *
 * Response and interrupt frame, device -> host:
 *   SOF_RSP | CMD | TAG | STATUS | DLEN[2] | DATA[DLEN] | CRC[2]
 *   SOF_IRQ | CMD_IRQ | NUMBER | STATUS_OK | 4 0 | BITMAP[4] | CRC[2]
 * The start byte tells the two apart (a request with CMD 0x7E is answered
 * BAD_CMD in a SOF_RSP frame that echoes 0x7E).
 *
 * CRC: CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no
 * final xor) over every byte of the frame before it, SOF included, sent
 * low byte first.
 */
#ifndef FROCE_UART_PROTO_H
#define FROCE_UART_PROTO_H

#define FROCE_UART_PROTO_VERSION        1
#define FROCE_UART_INFO_MAGIC           0x4C555246

/* start-of-frame bytes: request, response, interrupt frame */
#define FROCE_UART_SOF_REQ              0xA5
#define FROCE_UART_SOF_RSP              0x5A
#define FROCE_UART_SOF_IRQ              0x96

/* frame sizes in bytes */
#define FROCE_UART_REQ_HDR_LEN          12
#define FROCE_UART_RSP_HDR_LEN          6
#define FROCE_UART_CRC_LEN              2
#define FROCE_UART_MAX_DATA             256

/* CRC-16/CCITT-FALSE */
#define FROCE_UART_CRC_POLY             0x1021
#define FROCE_UART_CRC_INIT             0xFFFF

/* commands; those with CMD_PAYLOAD_FLAG carry LEN + 1 payload bytes */
#define FROCE_UART_CMD_PAYLOAD_FLAG     0x80
#define FROCE_UART_CMD_INFO             0x01
#define FROCE_UART_CMD_BAR0_RD32        0x02
#define FROCE_UART_CMD_MEM_RD           0x04
#define FROCE_UART_CMD_BAR0_WR32        0x82
#define FROCE_UART_CMD_DB_WR64          0x83
#define FROCE_UART_CMD_MEM_WR           0x84
/* device -> host only: the CMD of interrupt frames (SOF_IRQ), DATA = 32-bit
 * bitmap of the vectors raised since the previous interrupt frame */
#define FROCE_UART_CMD_IRQ              0x7E

/* response STATUS */
#define FROCE_UART_STATUS_OK            0x00
#define FROCE_UART_STATUS_BAD_CRC       0x01
#define FROCE_UART_STATUS_BAD_CMD       0x02
#define FROCE_UART_STATUS_BAD_ARG       0x03
#define FROCE_UART_STATUS_OUT_OF_WINDOW 0x04
#define FROCE_UART_STATUS_TIMEOUT       0x05
/* AXI error: STATUS_AXI | BRESP/RRESP (0x09 EXOKAY, 0x0A SLVERR, 0x0B DECERR) */
#define FROCE_UART_STATUS_AXI           0x08

/* DATA of a good INFO response, byte offsets */
#define FROCE_UART_INFO_LEN             40
#define FROCE_UART_INFO_OFF_MAGIC       0
#define FROCE_UART_INFO_OFF_VERSION     4
#define FROCE_UART_INFO_OFF_BAR0_AW     5
#define FROCE_UART_INFO_OFF_BAR2_AW     6
#define FROCE_UART_INFO_OFF_VECTORS     7
#define FROCE_UART_INFO_OFF_MEM_BASE    8
#define FROCE_UART_INFO_OFF_MEM_SIZE    16
#define FROCE_UART_INFO_OFF_CNT_FRAMING 24
#define FROCE_UART_INFO_OFF_CNT_OVERRUN 26
#define FROCE_UART_INFO_OFF_CNT_BAD_CRC 28
#define FROCE_UART_INFO_OFF_CNT_TIMEOUT 30
#define FROCE_UART_INFO_OFF_USER_ID     32
#define FROCE_UART_INFO_OFF_CNT_DUP     36
#define FROCE_UART_INFO_OFF_CNT_IRQ     38

/* DATA of an interrupt frame */
#define FROCE_UART_IRQ_LEN              4

#endif /* FROCE_UART_PROTO_H */
