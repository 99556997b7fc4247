/*
 * nicc-hpcc-output.h — the output formats and FCT analysis convention of the
 * HPCC simulator (alibaba-edu/High-Precision-Congestion-Control:
 * simulation/scratch/third.cc qp_finish and get_pfc, analysis/fct_analysis.py),
 * so nicc runs can be read by the tools written for it:
 *   fct.txt   "%08x %08x %u %u %lu %lu %lu %lu": sip dip sport dport size_bytes
 *             start_ns fct_ns standalone_fct_ns, one line per completed flow in
 *             completion order;
 *   pfc.txt   "time_ns node node_type ifindex type" per PFC frame received
 *             (type 1 = pause, 0 = resume);
 *   the FCT analysis: flows sorted by size, 5% equal-count buckets, slowdown
 *   fct / standalone_fct clamped at >= 1, percentile a[int(n * p)].
 * And nicc's own pfc.csv (one line per PFC frame, receiver and sender named).
 *
 *   std::ofstream f(dir / "fct.txt");
 *   NiccWriteHpccFct(f, result);
 *   auto rows = NiccHpccFctAnalysis(NiccHpccFctFlows(result), NiccHpccFlowType::BACKGROUND, 5);
 *
 * Units: ns, bytes, bit/s.
 */
#ifndef NICC_HPCC_OUTPUT_H
#define NICC_HPCC_OUTPUT_H

#include "ns3/nicc-scenario.h"

#include <cstdint>
#include <ostream>
#include <vector>

namespace ns3
{

/// HPCC simulator's address of a node: 0x0b000001 + (id / 256) * 0x10000 +
/// (id % 256) * 0x100 (node id = (ip >> 8) & 0xffff).
uint32_t NiccHpccIp(uint32_t nodeId);

/// dport of the HPCC analysis convention: 100 = background, 200 = incast.
constexpr uint32_t NICC_HPCC_DPORT_BACKGROUND = 100;
constexpr uint32_t NICC_HPCC_DPORT_INCAST = 200;
/// First source port of every host (third.cc: portNumder[i] = 10000).
constexpr uint16_t NICC_HPCC_FIRST_SPORT = 10000;

/**
 * Base RTT of a host pair as third.cc computes it (pairRtt): twice the
 * summed one-way link delay plus, per link of the path, the serialization of
 * one packet payload (mtu bytes, no header) at that link's rate, each term
 * truncated to whole ns.
 */
int64_t NiccHpccBaseRttNs(double pathDelayNs, const std::vector<double>& linkBps, uint32_t mtu);

/**
 * Standalone FCT as third.cc's qp_finish writes it: baseRtt + wire bytes *
 * 8 / bottleneck rate (truncated to ns), wire bytes = size + packets *
 * headerBytes, packets = ceil(size / mtu) (no INT bytes).
 */
int64_t NiccHpccStandaloneFctNs(uint64_t sizeBytes,
                                uint32_t mtu,
                                uint32_t headerBytes,
                                int64_t baseRttNs,
                                uint64_t bottleneckBps);

/// Per flow, dport: 200 for incast flows (kind INCAST, or every flow of the
/// incast scenario), 100 for the others.
std::vector<uint32_t> NiccFlowDports(const std::vector<uint8_t>& flowKind, size_t flows, bool incastScenario);

/// Per flow, the source port: 10000, 10001, ... per source host in flow
/// start order (ties by flow id), wrapping at 2^16 as the simulator's uint16_t.
std::vector<uint16_t> NiccHpccSports(const std::vector<NiccFlowRecord>& flows);

/// fct.txt: completed flows in completion order (ties by flow id).
void NiccWriteHpccFct(std::ostream& os, const NiccScenarioResult& r);
/// pfc.txt: every PFC frame received, in time order (one row: ...Row).
void NiccWriteHpccPfc(std::ostream& os, const std::vector<NiccPfcEvent>& events);
void NiccWriteHpccPfcRow(std::ostream& os, const NiccPfcEvent& e);
/// pfc.csv: this header, then one row per frame (...Row).
constexpr const char* NICC_PFC_CSV_HEADER = "time_ns,node,port,priority,type,from_node,from_port\n";
void NiccWritePfcCsv(std::ostream& os, const std::vector<NiccPfcEvent>& events);
void NiccWritePfcCsvRow(std::ostream& os, const NiccPfcEvent& e);

/// One completed flow as the analysis script reads it from fct.txt.
struct NiccHpccFctFlow
{
    uint64_t sizeBytes;
    int64_t fctNs;
    int64_t standaloneFctNs;
    uint32_t dport;
};

/// Completed flows of a result (fct.txt's lines).
std::vector<NiccHpccFctFlow> NiccHpccFctFlows(const NiccScenarioResult& r);

/// The script's -t: 0 background (dport 100), 1 incast (dport 200), 2 all.
enum class NiccHpccFlowType : uint8_t
{
    BACKGROUND = 0,
    INCAST = 1,
    ALL = 2,
};
const char* NiccHpccFlowTypeName(NiccHpccFlowType t);

/// One row of the script's output.
struct NiccHpccFctBucket
{
    uint32_t startPercent; ///< bucket i covers flows [i * n / 100, (i + step) * n / 100)
    uint64_t sizeBytes;    ///< size of the bucket's last (largest) flow
    uint32_t flows;
    double p50;
    double p95;
    double p99;
};

/**
 * fct_analysis.py on `flows`: keep the type's flows, slowdown = fct /
 * standalone clamped at >= 1, sort by (size, slowdown), drop the last
 * (largest) flow as the script does (`output.split('\n')[:-2]`), cut n flows
 * into buckets [i * n / 100, (i + step) * n / 100) for i = 0, step, ... < 100
 * (integer division), and per bucket report its last flow's size and the
 * slowdown at a[int(len * p)] for p = 0.5, 0.95, 0.99. Empty buckets (fewer
 * than 100 / step flows) are left out (the script stops with an error there).
 */
std::vector<NiccHpccFctBucket> NiccHpccFctAnalysis(const std::vector<NiccHpccFctFlow>& flows,
                                                   NiccHpccFlowType type,
                                                   uint32_t stepPercent);

} // namespace ns3

#endif // NICC_HPCC_OUTPUT_H
