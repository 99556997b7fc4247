/*
 * nicc-workload.h — traffic generators for nicc fabric experiments: flow
 * sizes from an empirical CDF file, Poisson flows at a target load with
 * uniform random destinations, Poisson incast bursts, a one-shot
 * permutation, and a ring all-reduce in synchronized steps. They start
 * flows through a NiccNicHelper while the simulation runs; several
 * generators may run in one simulation (a mix). Every random choice comes
 * from one std::mt19937_64 seeded by the caller, so a run is repeatable.
 *
 *   NiccFlowSizeCdf cdf;
 *   std::string err;
 *   cdf.Load("sim-adapter/data/FbHdp_distribution.txt", &err);   // mean_bytes from the file
 *   NiccWorkload w(&nics, hosts, 1);                              // seed 1
 *   w.StartPoisson(&cdf, 0.3, DataRate("100Gbps"), Seconds(0), MilliSeconds(5));
 *   w.StartRingAllReduce(ranks, 8000000, MicroSeconds(10));
 *   Simulator::Run();  ...  w.GetSteps(), w.GetKind(flowId)
 *
 * CDF file: one point per line, "<flow size in bytes> <cumulative percent>",
 * monotone, first "0 0", last at 100. A size is drawn by u in [0, 100) and
 * linear interpolation; the mean is the exact mean of that piecewise-linear
 * distribution. Poisson arrival rate per sending host:
 *   lambda = load * B / (8 * mean_bytes)        flows per second
 * Units: bytes, ns, bit/s.
 */
#ifndef NICC_WORKLOAD_H
#define NICC_WORKLOAD_H

#include "ns3/data-rate.h"
#include "ns3/nicc-nic-helper.h"
#include "ns3/node.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ns3
{

/// Empirical flow-size distribution (piecewise linear CDF).
class NiccFlowSizeCdf
{
  public:
    /// Read a CDF file; false with "file:line: reason" in *error.
    bool Load(const std::string& path, std::string* error);
    /// Exact mean of the piecewise-linear distribution, bytes.
    double MeanBytes() const { return m_mean; }
    /// Size for u in [0, 100): linear interpolation, at least 1 byte.
    uint64_t Sample(double u) const;
    size_t Points() const { return m_bytes.size(); }

  private:
    std::vector<double> m_bytes;
    std::vector<double> m_percent;
    double m_mean{0};
};

/// What a flow started by NiccWorkload is part of.
enum class NiccFlowKind : uint8_t
{
    OTHER = 0,
    POISSON = 1,
    INCAST = 2,
    PERMUTATION = 3,
    ALLREDUCE = 4,
};

/// Name of a kind ("other", "poisson", "incast", "permutation", "allreduce").
const char* NiccFlowKindName(NiccFlowKind k);
constexpr uint32_t NICC_FLOW_KINDS = 5;

/// One synchronized step of a collective.
struct NiccCollectiveStep
{
    uint32_t step;
    int64_t startNs;
    int64_t endNs; ///< -1 while running
};

/**
 * \ingroup nicc
 * \brief Traffic generators (Poisson/CDF, incast, permutation, ring all-reduce).
 */
class NiccWorkload
{
  public:
    /// `hosts` are the hosts flows may use (all need a NIC from `nics`).
    NiccWorkload(NiccNicHelper* nics, const std::vector<Ptr<Node>>& hosts, uint64_t seed);

    /// Each host starts flows with exponential gaps at
    /// load * rate / (8 * cdf->MeanBytes()) per second, sizes from the CDF,
    /// destinations uniform among the other hosts, from `start` to `stop`.
    void StartPoisson(const NiccFlowSizeCdf* cdf, double load, DataRate rate, Time start, Time stop);

    /// Bursts arrive as one Poisson process of rate
    /// load * hosts * rate / (8 * fanin * bytes); each picks a receiver and
    /// `fanin` distinct other hosts that each send `bytes` to it.
    void StartIncast(double load, uint32_t fanin, uint64_t bytes, DataRate rate, Time start, Time stop);

    /// Host i sends `bytes` to host perm[i] at `start`: a random
    /// permutation without fixed points; with `crossGroup` > 1 no host sends
    /// inside its own group of that many consecutive hosts (e.g. its leaf).
    void StartPermutation(uint64_t bytes, uint32_t crossGroup, Time start);

    /// Ring all-reduce of `bytes` per rank over `ranks` (host indices into
    /// `hosts`, in ring order): 2 (n - 1) steps; in each every rank sends
    /// ceil(bytes / n) to the next rank; a step starts when the previous
    /// step's n flows are all acknowledged.
    void StartRingAllReduce(const std::vector<uint32_t>& ranks, uint64_t bytes, Time start);

    NiccFlowKind GetKind(uint32_t flowId) const;
    const std::vector<NiccCollectiveStep>& GetSteps() const { return m_steps; }
    bool AllReduceDone() const { return m_arActive && m_arStep == m_arSteps; }
    /// Total steps of the all-reduce (0 without one).
    uint32_t AllReduceSteps() const { return m_arSteps; }
    /// The permutation's destination index per source index (empty without one).
    const std::vector<uint32_t>& GetPermutation() const { return m_perm; }

  private:
    uint32_t Add(uint32_t src, uint32_t dst, uint64_t bytes, NiccFlowKind kind);
    void PoissonArrival(uint32_t host);
    void IncastArrival();
    void RunPermutation(uint64_t bytes);
    void AllReduceStep();
    void FlowDone(uint32_t flowId, uint32_t qpn, uint64_t bytes, Time fct);
    Time Exponential(double perSecond);

    NiccNicHelper* m_nics;
    std::vector<Ptr<Node>> m_hosts;
    std::mt19937_64 m_rng;
    std::vector<uint8_t> m_kind; ///< per flow id

    // Poisson.
    const NiccFlowSizeCdf* m_cdf{nullptr};
    double m_poissonPerSecond{0};
    Time m_poissonStop;
    // Incast.
    double m_incastPerSecond{0};
    uint32_t m_incastFanin{0};
    uint64_t m_incastBytes{0};
    Time m_incastStop;
    // Permutation.
    std::vector<uint32_t> m_perm;
    uint32_t m_crossGroup{1};
    // Ring all-reduce.
    bool m_arActive{false};
    std::vector<uint32_t> m_ranks;
    uint64_t m_arChunk{0};
    uint32_t m_arSteps{0};
    uint32_t m_arStep{0};
    uint32_t m_arFirstFlow{0};
    uint32_t m_arPending{0};
    std::vector<NiccCollectiveStep> m_steps;
    bool m_traced{false};
};

} // namespace ns3

#endif // NICC_WORKLOAD_H
