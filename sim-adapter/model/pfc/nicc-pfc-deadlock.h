/*
 * nicc-pfc-deadlock.h — run-time PFC deadlock detection on cyclic buffer
 * dependencies.
 *
 * Every `period` the detector builds the wait-for graph of the fabric's
 * paused egress queues: a vertex is a switch egress (switch S, port p,
 * class c) that holds packets while a PAUSE received from its neighbour is
 * in force; the neighbour N is a switch and paused it because its ingress
 * (N, q, c) from S is over threshold. The packets counted there sit in N's
 * egress queues; an edge (S, p, c) -> (N, e, c) is drawn when N's egress e
 * is itself a vertex and holds a class-c packet that came in on q (the
 * first ScanDepth packets of the queue are looked at). A cycle in this
 * graph is a cyclic buffer dependency with every queue on it stopped: a PFC
 * deadlock (Hu et al., "Deadlocks in Datacenter Networks: Why Do They Form,
 * and How to Avoid Them", HotNets 2016). Work per check is bounded by
 * ports x classes vertices, their neighbours' ports and ScanDepth.
 *
 *   NiccPfcDeadlockDetector d;
 *   d.Start(switches, names, MicroSeconds(50), stop);
 *   ...run...  d.GetDetections(), d.GetFirst().ports  ("leaf0:3", ...)
 */
#ifndef NICC_PFC_DEADLOCK_H
#define NICC_PFC_DEADLOCK_H

#include "ns3/nicc-switch-node.h"

#include "ns3/nstime.h"

#include <string>
#include <vector>

namespace ns3
{

/// One cycle found: when, and its egress queues as "SWITCH:PORT" in order.
struct NiccPfcDeadlock
{
    Time at{-1};
    uint8_t cls{0};
    std::vector<std::string> ports;
};

/**
 * \ingroup nicc
 * \brief Periodic PFC deadlock (cyclic buffer dependency) check.
 */
class NiccPfcDeadlockDetector
{
  public:
    static constexpr uint32_t SCAN_DEPTH = 256;

    /// Check `switches` (named `names`, same order; empty: "sw<node id>")
    /// every `period` until `stop`.
    void Start(const std::vector<Ptr<NiccSwitchNode>>& switches,
               const std::vector<std::string>& names,
               Time period,
               Time stop);
    /// One check now; true (and recorded) when a cycle is found.
    bool Check();

    /// Checks that found a cycle.
    uint64_t GetDetections() const { return m_detections; }
    uint64_t GetChecks() const { return m_checks; }
    /// The first cycle found (at negative: none).
    const NiccPfcDeadlock& GetFirst() const { return m_first; }

  private:
    struct Port
    {
        int32_t peerSw{-1}; ///< index of the neighbouring switch, -1: a host
        uint32_t peerPort{0};
    };
    void Periodic();
    /// The wait-for graph's part this rank sees (its switches): vertex[v]
    /// for its egress queues, edges (v, w) as uint32 pairs into its vertices.
    void OwnGraph(uint8_t cls, std::vector<uint64_t>* vertex, std::vector<uint8_t>* edges) const;
    /// A cycle in the graph of class `cls` (recorded: detections, the first).
    bool FindCycle(uint8_t cls, const std::vector<uint64_t>& vertex, const std::vector<std::vector<uint32_t>>& adj);

    std::vector<Ptr<NiccSwitchNode>> m_switches;
    std::vector<std::string> m_names;
    std::vector<uint32_t> m_base;           ///< first port index of each switch
    std::vector<Port> m_ports;              ///< per (switch, port), flattened
    Time m_period;
    Time m_stop;
    uint64_t m_detections{0};
    uint64_t m_checks{0};
    NiccPfcDeadlock m_first;
};

} // namespace ns3

#endif // NICC_PFC_DEADLOCK_H
