/*
 * nicc-switch-node.h — the nicc fabric switch: a Node whose ports are
 * NiccNetDevices, forwarding NiccRoceHeader packets by destination node id
 * over static equal-cost next-hop sets (ECMP on the 5-tuple with a per-switch
 * seed, per-packet spray, or least-queue), with a shared-buffer MMU and PFC
 * (NiccSwitchMmu), RED/ECN marking and HPCC INT stamping at egress dequeue.
 * For HPCC-PINT each port keeps its own utilisation, smoothed over
 * PintBaseRtt as HPCC's sender smooths a hop's (U = txRate / B + qlen / (B T),
 * EWMA weight tau / T), and raises a packet's one-byte PINT code to its own.
 *
 *   Ptr<NiccSwitchNode> sw = CreateObject<NiccSwitchNode>();
 *   sw->GetMmu()->SetAttribute("BufferSize", UintegerValue(4000000));
 *   uint32_t port = sw->AddPort(dev);          // dev attached to a channel
 *   sw->AddRoute(dstNodeId, port);             // or NiccFabricHelper::InstallRoutes
 *
 * Packet trimming (TrimEnabled, nicc-switch-trim.cc): a DATA packet that
 * would push its egress queue past TrimThreshold, or that the MMU would
 * drop, is cut to its header (trimmed flag set, PSN / EV / qpn / original
 * payloadSize kept, INT and PINT removed) and forwarded in TrimClass.
 *
 * Units: bytes, bit/s, node ids as addresses. Per packet and hop the switch
 * parses the header once at arrival and rewrites it only when it marks CE or
 * stamps INT.
 */
#ifndef NICC_SWITCH_NODE_H
#define NICC_SWITCH_NODE_H

#include "nicc-ecn.h"
#include "nicc-net-device.h"
#include "nicc-pfc-watchdog.h"
#include "nicc-switch-mmu.h"

#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <map>
#include <vector>

namespace ns3
{

class NiccRoceHeader;

/**
 * \ingroup nicc
 * \brief Shared-buffer lossless switch (see file banner).
 */
class NiccSwitchNode : public Node
{
  public:
    enum ForwardingMode : uint8_t
    {
        ECMP = 0,        ///< hash of (src, dst, sport, dport, proto) and seed
        SPRAY = 1,       ///< uniformly random next hop per packet
        LEAST_QUEUE = 2, ///< next hop with the fewest queued bytes (ties: ECMP)
    };

    enum DropReason : uint8_t
    {
        DROP_NO_ROUTE = 0,
        DROP_BUFFER = 1,
        DROP_HEADROOM_OVERFLOW = 2, ///< lossless data over its (port, class) headroom
        DROP_TRIM_NO_BUFFER = 3,    ///< trimming on, and not even the header found room
        DROP_PFC_WATCHDOG = 4,      ///< a stormed queue under the watchdog's drop action
    };

    /// Bits of a queued packet's meta word that hold its ingress port.
    static constexpr uint32_t META_PORT_MASK = 0xFFFF;

    /// Signatures of the trace sources.
    typedef void (*QueueTracedCallback)(Ptr<const Packet> p,
                                        uint32_t port,
                                        uint8_t cls,
                                        uint64_t qlenBytes);
    typedef void (*DropTracedCallback)(Ptr<const Packet> p, uint32_t inPort, uint8_t reason);
    typedef void (*PfcTracedCallback)(uint32_t port, uint8_t cls, bool pause);
    /// Trim: (original packet, ingress port, egress port, egress queue bytes
    /// of the packet's class when it was trimmed).
    typedef void (*TrimTracedCallback)(Ptr<const Packet> p,
                                       uint32_t inPort,
                                       uint32_t outPort,
                                       uint64_t qlenBytes);

    static TypeId GetTypeId();
    NiccSwitchNode();

    /// Add a port (the device must already be attached to its channel so its
    /// rate and delay size the PFC headroom). Returns the port index.
    uint32_t AddPort(Ptr<NiccNetDevice> dev);
    Ptr<NiccNetDevice> GetPort(uint32_t port) const { return m_ports[port]; }
    uint32_t GetNPorts() const { return static_cast<uint32_t>(m_ports.size()); }
    Ptr<NiccSwitchMmu> GetMmu() const { return m_mmu; }
    /// Replace the MMU (before the first AddPort); null is ignored.
    void SetMmu(Ptr<NiccSwitchMmu> mmu);

    /// Add `port` to the equal-cost next hops towards node `dst`.
    void AddRoute(uint32_t dst, uint32_t port);
    /// The equal-cost next hops towards node `dst`, in order (replacing any).
    void SetRoute(uint32_t dst, const std::vector<uint32_t>& ports);
    /// SetRoute in two steps, for many destinations with the same next hops:
    /// the set's group number (made once), then each destination's group.
    uint16_t InternRouteGroup(const std::vector<uint32_t>& ports);
    void SetRouteGroup(uint32_t dst, uint16_t group);
    void ClearRoutes();
    /// Next hops towards `dst` (empty if unknown).
    const std::vector<uint32_t>& GetRoute(uint32_t dst) const
    {
        return m_routeGroups[dst < m_routeOf.size() ? m_routeOf[dst] : 0];
    }
    /// Distinct next-hop sets in the table (group 0, the empty one, included).
    uint32_t GetNRouteGroups() const { return static_cast<uint32_t>(m_routeGroups.size()); }
    /// The egress port the switch picks for a packet with header `h`.
    uint32_t SelectEgressPort(const NiccRoceHeader& h);
    /// ECMP hash of the 5-tuple (protocol UDP) with this switch's seed.
    uint64_t EcmpHash(const NiccRoceHeader& h) const;
    uint64_t EcmpHash(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport) const;

    /// One RED draw for a packet leaving `port` with `qlenBytes` queued
    /// behind it (the decision OnEgress applies to ECT data packets).
    bool ShouldMarkEcn(uint32_t port, uint64_t qlenBytes);

    /// RED parameters in force on `port` (explicit attributes or scaled).
    NiccRedParams GetRedParams(uint32_t port) const;
    /// Replace the RED parameters of `port` (e.g. from a per-rate table).
    void SetRedParams(uint32_t port, const NiccRedParams& red) { m_red[port] = red; }

    /// Fix the random streams used (spray, ECN). Returns streams used.
    int64_t AssignStreams(int64_t stream);

    // Counters.
    uint64_t GetDrops() const { return m_drops; }
    /// Drops of lossless data whose headroom was full (counted in GetDrops too).
    uint64_t GetHeadroomOverflowDrops() const { return m_mmu->GetHeadroomOverflowDrops(); }
    uint64_t GetPfcPauseSent() const { return m_pausesSent; }
    uint64_t GetPfcResumeSent() const { return m_resumesSent; }
    uint64_t GetEcnMarked() const { return m_ecnMarked; }
    uint64_t GetMaxQueueBytes() const { return m_maxQueueBytes; }
    uint64_t GetMaxBufferUsed() const { return m_maxBufferUsed; }
    /// DATA packets cut to their header and forwarded (TrimEnabled).
    uint64_t GetTrims() const { return m_trims; }
    /// DATA packets (trimmed ones too) that arrived at this switch.
    uint64_t GetDataPacketsReceived() const { return m_dataRx; }
    /// Trimmed headers that found no buffer either (counted in GetDrops too).
    uint64_t GetTrimDrops() const { return m_trimDrops; }

    /// The PFC watchdog (Attributes PfcWatchdog*; nicc-pfc-watchdog.h).
    const NiccPfcWatchdog& GetPfcWatchdog() const { return m_pfcWd; }
    /// Watchdog drop action: drop every queued packet of (port, cls),
    /// returning their bytes to the MMU (counted as watchdog drops).
    void WatchdogFlush(uint32_t port, uint8_t cls);

  protected:
    void DoDispose() override;

  private:
    void SetPfcWatchdog(bool on);
    bool GetPfcWatchdogOn() const { return m_pfcWdOn; }
    void SetWdDetect(Time t) { m_pfcWd.detect = t; }
    Time GetWdDetect() const { return m_pfcWd.detect; }
    void SetWdRestore(Time t) { m_pfcWd.restore = t; }
    Time GetWdRestore() const { return m_pfcWd.restore; }
    void SetWdPoll(Time t) { m_pfcWd.poll = t; }
    Time GetWdPoll() const { return m_pfcWd.poll; }
    void SetWdAction(NiccPfcWatchdog::Action a) { m_pfcWd.action = a; }
    NiccPfcWatchdog::Action GetWdAction() const { return m_pfcWd.action; }
    void WatchdogDropOne(Ptr<Packet> p, uint32_t meta);
    uint32_t m_flushPort{0};
    uint8_t m_flushCls{0};

    uint32_t SelectEgressPort(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport);
    void Receive(Ptr<NiccNetDevice> dev, Ptr<Packet> p);
    void OnEgress(Ptr<NiccNetDevice> dev, Ptr<Packet> p, uint8_t cls, uint32_t meta);
    /// Trimming (nicc-switch-trim.cc): whether a DATA packet of `size` bytes
    /// for (outPort, cls) from `inPort` is to be trimmed.
    bool ShouldTrim(uint32_t inPort, Ptr<NiccNetDevice> out, uint8_t cls, uint32_t size) const;
    /// Cut `p` to its header and forward it in the trim class.
    void TrimAndForward(Ptr<Packet> p, uint32_t inPort, uint32_t outPort, uint8_t cls);
    /// Admit `p` of class `cls` from `inPort` and queue it on `outPort`
    /// (XOFF, counters, Enqueue trace); false (and counted, `trimmed`: as a
    /// trimmed header that found no buffer) when dropped.
    bool AdmitAndEnqueue(const Ptr<Packet>& p,
                         uint32_t inPort,
                         uint32_t outPort,
                         uint8_t cls,
                         uint32_t meta,
                         bool trimmed = false);
    void SendPause(uint32_t port, uint8_t cls);
    void SendResume(uint32_t port, uint8_t cls);
    void RefreshPause(uint32_t port, uint8_t cls);
    void CheckResumes();

    // Attributes.
    Ptr<NiccSwitchMmu> m_mmu;
    uint32_t m_ecmpSeed;
    ForwardingMode m_mode;
    bool m_ecnEnabled;
    uint64_t m_kminBytes;
    uint64_t m_kmaxBytes;
    double m_pmax;
    bool m_intEnabled;
    uint16_t m_pauseQuanta;
    Time m_pintBaseRtt;
    bool m_trimEnabled{false};
    uint64_t m_trimThreshold{0};
    uint8_t m_trimClass{0};
    uint32_t m_trimSize{32};
    bool m_pfcWdOn{false};
    NiccPfcWatchdog m_pfcWd;

    /// HPCC-PINT: one port's utilisation and the last sample it came from.
    struct PintPort
    {
        int64_t lastNs{-1}; ///< -1: no sample yet
        uint64_t lastTxBytes{0};
        uint64_t lastQlen{0};
        double u{0};
    };
    /// The port's smoothed utilisation after this dequeue, as a PINT code.
    uint8_t PintCode(uint32_t port, Ptr<NiccNetDevice> dev);

    // State.
    std::vector<Ptr<NiccNetDevice>> m_ports;
    std::vector<uint32_t> m_portIndex; ///< device ifIndex -> port index
    std::vector<NiccRedParams> m_red;   ///< per port
    std::vector<uint8_t> m_intRateCode; ///< per port
    std::vector<PintPort> m_pint;       ///< per port
    // Routes: per destination node id a 2-byte index into the switch's few
    // distinct next-hop sets (a ToR: one per local host and one "up"; a
    // fabric of 8,192 hosts holds 16 KB per switch, not a vector per host).
    std::vector<uint16_t> m_routeOf;                  ///< dst node id -> group (0: no route)
    std::vector<std::vector<uint32_t>> m_routeGroups; ///< group -> ports, in route order
    std::map<std::vector<uint32_t>, uint16_t> m_routeGroupIndex; ///< ports -> group (setup only)
    std::vector<EventId> m_pauseRefresh;         ///< per (port, class)
    Ptr<UniformRandomVariable> m_rng;
    uint64_t m_drops{0};
    uint64_t m_pausesSent{0};
    uint64_t m_resumesSent{0};
    uint64_t m_ecnMarked{0};
    uint64_t m_maxQueueBytes{0};
    uint64_t m_maxBufferUsed{0};
    uint64_t m_trims{0};
    uint64_t m_dataRx{0};
    uint64_t m_trimDrops{0};

    // Trace sources.
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t, uint64_t> m_enqueueTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t, uint64_t> m_dequeueTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t> m_dropTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t, uint64_t> m_markTrace;
    TracedCallback<uint32_t, uint8_t, bool> m_pfcTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t, uint64_t> m_trimTrace;
};

} // namespace ns3

#endif // NICC_SWITCH_NODE_H
