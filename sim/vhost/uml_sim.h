// SPDX-License-Identifier: MIT
// froce-uml-sim: simulated froce NICs behind User-Mode Linux's PCI over
// virtio (arch/um/drivers/virt-pci.c). See README.md in this directory.
//
//   UmlNic  one PCI function: the vhost-user connection (vhost_user.h), its
//           config space (pci_config.h), MMIO on BAR0/BAR2 to one NIC model
//           (nic_model.h: the bare core, Nic, or a board, AlveoNic), the
//           platform registers (CAPS.UAR_SHADOW, MAC_LO/HI, UAR_SHADOW_*),
//           DMA into guest memory through the memory table, MSI-X messages
//           on the interrupt queue, shadow-UAR polling.
//   UmlSim  one NIC on an inherited datagram socket (--wire-fd) or two NICs
//           on the simulated wire (froce::Wire, one per direction), stepped
//           in lockstep, and the loop: short simulation chunks between
//           non-blocking polls, throttled when idle.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nic_model.h"
#include "pci_config.h"
#include "vhost_user.h"
#include "wire.h"

namespace froce_vhost {

// virtio_pcidev ops (include/uapi/linux/virtio_pcidev.h)
enum PcidevOp : uint8_t {
    PCIDEV_OP_CFG_READ = 1,
    PCIDEV_OP_CFG_WRITE = 2,
    PCIDEV_OP_MMIO_READ = 3,
    PCIDEV_OP_MMIO_WRITE = 4,
    PCIDEV_OP_MMIO_MEMSET = 5,
    PCIDEV_OP_INT = 6,
    PCIDEV_OP_MSI = 7,
    PCIDEV_OP_PME = 8,
};
constexpr uint32_t kPcidevHdr = 16;        // op, bar, reserved u16, size u32, addr u64
constexpr unsigned kQueueCmd = 0, kQueueIrq = 1;
constexpr uint8_t kMsixCapOffset = 0x40;

struct UmlNicStats {
    uint64_t cfg_reads = 0, cfg_writes = 0;
    uint64_t mmio_reads = 0, mmio_writes = 0, memsets = 0;
    uint64_t mmio_errors = 0;          // model timeouts/errors, accesses nothing decodes
    uint64_t bar2_doorbells = 0, shadow_doorbells = 0;
    uint64_t msi_sent = 0, msi_backlog_max = 0, msi_not_enabled = 0;
    uint64_t dma_errors = 0;
    uint64_t dma_violations = 0;       // AXI protocol violations AxiMem saw on the model's DMA port
    uint64_t read_ns = 0;              // time spent answering MMIO reads (model included)
    uint64_t read_ns_max = 0;          // the longest of them (UML gives up after about 40 ms)
};

class UmlNic {
public:
    UmlNic(froce_sim::NicModel &nic, uint64_t mac, unsigned index);
    // Reads UAR_INFO, IRQ_INFO and CAPS from the model, builds the config
    // space, puts the NIC's host memory onto guest memory, hooks MSI-X.
    Status init();

    froce_sim::NicModel &nic() { return nic_; }
    VhostUserDevice &vu() { return vu_; }
    const PciConfig &config() const { return *cfg_; }
    const UmlNicStats &stats() const { return st_; }
    unsigned num_uar_pages() const { return num_pages_; }
    unsigned num_vectors() const { return num_vectors_; }

    // Answers every request waiting on the command queue. A malformed
    // request is an error (protocol violation by the front end).
    Status service_commands();
    // An MSI-X interrupt of the model; sent by flush_msi().
    void queue_msi(const froce_sim::MsixMessage &m);
    // Sends queued MSIs while the guest has interrupt buffers posted.
    Status flush_msi();
    size_t msi_backlog() const { return msi_q_.size(); }
    // Turns changed slots of the bound shadow UAR pages into doorbells.
    void scan_shadow();
    // Reports DMA the memory table did not cover (DECERR) and AXI protocol
    // violations on the DMA port.
    void check_dma();
    // The front end went away: bindings and queued interrupts are dropped.
    void on_disconnect();
    // Grows with every event (MMIO, doorbells, DMA bursts, frames, MSIs).
    uint64_t activity() const;

private:
    froce_sim::NicModel &nic_;
    VhostUserDevice vu_;
    std::unique_ptr<PciConfig> cfg_;
    uint64_t mac_;
    unsigned index_;
    unsigned num_pages_ = 0, num_vectors_ = 0;
    uint32_t caps_ = 0;
    UmlNicStats st_;
    std::array<std::array<uint32_t, 4>, 32> msix_table_{};   // addr lo, addr hi, data, control
    // interrupts to send; from a model that writes its messages
    // (sends_msix_messages) with the message, else composed from the table
    std::deque<froce_sim::MsixMessage> msi_q_;
    uint64_t dma_err_seen_ = 0;
    size_t dma_viol_seen_ = 0;
    uint32_t shadow_index_ = 0, shadow_lo_ = 0, shadow_hi_ = 0;
    struct Shadow {
        uint64_t gpa = 0;
        bool bound = false, warned = false;
        std::array<uint64_t, 512> last{};
    };
    std::vector<Shadow> shadow_;
    std::vector<unsigned> bound_;
    unsigned warn_budget_ = 20;

    void warn(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    Status request(Chain &c, uint32_t *written);
    void mmio_read(unsigned bar, uint64_t addr, uint32_t size, uint8_t *out);
    void mmio_write(unsigned bar, uint64_t addr, uint32_t size, const uint8_t *data);
    void mmio_memset(unsigned bar, uint64_t addr, uint32_t size, uint8_t v);
    uint32_t bar0_read(uint32_t off);
    void bar0_write(uint32_t off, uint32_t v);
    void shadow_commit();
    // the capability's Enable and Function Mask to the model
    void msix_state_to_model();
};

// Makes the NIC model of a UmlSim (empty: the bare core, froce_sim::Nic).
using NicFactory = std::function<std::unique_ptr<froce_sim::NicModel>(const froce_sim::NicConfig &)>;

struct UmlSimConfig {
    std::vector<std::string> socks;     // one socket per NIC (empty: tests adopt connections)
    unsigned nics = 1;                  // with no socks: how many NICs
    int wire_fd = -1;                   // one NIC: its Ethernet port (-1: frames are dropped)
    std::string pcap;
    double drop_pct = 0;
    uint64_t seed = 1;
    std::string ready_file;
    uint64_t mac_base = 0x020000000001ull;
    unsigned chunk_cycles = 256;        // cycles between polls
    unsigned idle_chunk_cycles = 64;    // the same when throttled
    uint64_t idle_cycles = 200000;      // no activity for this long: throttle
    int idle_poll_ms = 1;               // poll timeout between chunks when throttled
    bool fw_console = true;
    NicFactory make_nic;                // the NIC model (empty: the bare core)
};

class UmlSim {
public:
    explicit UmlSim(const UmlSimConfig &cfg);
    ~UmlSim();
    Status init();

    unsigned num_nics() const { return unsigned(unics_.size()); }
    UmlNic &unic(unsigned i) { return *unics_[i]; }
    uint64_t cycle() const;
    // One round: poll (non-blocking, or idle_poll_ms when idle), handle
    // connections, messages, kicks and frames, run chunk_cycles, scan the
    // shadow pages, send MSIs. *all_gone: every front end connected once
    // and all have disconnected.
    Status round(bool *all_gone);
    // Advances every NIC (and the wires) by n cycles.
    void step(uint64_t n);
    bool idle() const { return idle_; }
    std::string stats_line() const;
    uint64_t frames_to_wire() const { return fd_tx_; }
    uint64_t frames_from_wire() const { return fd_rx_; }

private:
    UmlSimConfig cfg_;
    std::vector<std::unique_ptr<froce_sim::NicModel>> nics_;
    std::unique_ptr<froce::PcapTap> tap_;
    std::unique_ptr<froce::Wire> ab_, ba_;         // two NICs: A->B, B->A
    std::unique_ptr<froce::Wire> to_fd_, from_fd_; // one NIC: to and from the wire fd
    uint64_t cycle_ = 0;
    std::vector<std::unique_ptr<UmlNic>> unics_;
    std::vector<bool> ever_connected_;
    uint64_t last_activity_ = 0, last_active_cycle_ = 0;
    bool idle_ = false;
    uint64_t fd_tx_ = 0, fd_rx_ = 0, fd_tx_dropped_ = 0;
    std::vector<uint8_t> rxbuf_;

    void step1();
    void step2();
    void pump_wire_fd_out();
    void pump_wire_fd_in();
};

}  // namespace froce_vhost
