/*
 * nicc-workload.h — traffic generators for nicc fabric experiments: flow
 * sizes from an empirical CDF file, Poisson flows at a target load with
 * uniform random destinations, Poisson incast bursts, a one-shot
 * permutation, and collectives in synchronized steps: ring all-reduce (one
 * ring or several parallel rings, e.g. one per rail) and all-to-all
 * (pairwise exchange), double-binary-tree all-reduce, and given flow lists
 * (flow files); on a rail fabric with NVLink, PXN relays. They start
 * flows through a NiccNicHelper while the simulation runs; several
 * generators may run in one simulation (a mix). Every random choice comes
 * from ns-3 random variable streams (exponential gaps, uniform destinations,
 * sizes and shuffles), so a run depends on RngSeed / RngRun (--RngRun,
 * NS_GLOBAL_VALUE) and on the stream numbers given to AssignStreams(), as
 * with any ns-3 model.
 *
 *   NiccFlowSizeCdf cdf;
 *   std::string err;
 *   cdf.Load("sim-adapter/data/FbHdp_distribution.txt", &err);   // mean_bytes from the file
 *   NiccWorkload w(&nics, hosts);
 *   w.AssignStreams(0);                                           // streams 0..STREAMS-1
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
#include "ns3/nicc-collective-plan.h"
#include "ns3/nicc-nic-helper.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
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
    ALLTOALL = 5,
    FLOWFILE = 6, ///< a flow of a given list (flow_file)
};

/// Name of a kind ("other", "poisson", "incast", "permutation", "allreduce",
/// "alltoall", "file").
const char* NiccFlowKindName(NiccFlowKind k);
constexpr uint32_t NICC_FLOW_KINDS = 7;

/// Suffix of the scenario key that sets a workload kind's congestion
/// control: NiccFlowKindName(kind) + it ("incast_cc"); value "cc" = the key cc.
constexpr const char* NICC_WORKLOAD_CC_SUFFIX = "_cc";

/// A congestion control by its name in nicc::hal::kCcKinds ("dcqcn",
/// "nscc", ...); false for any other text.
bool NiccCcKindByName(const std::string& name, nicc::hal::CcKind* out);
/// The names of nicc::hal::kCcKinds, joined by `sep` (messages, key types).
std::string NiccCcKindNames(const char* sep);

/// One flow of a given list (a flow file, nicc-flow-file.h): host indices
/// into the workload's hosts, size, absolute start, the file's dport and
/// pg, kept per flow (GetDport / GetPg), and its congestion control (none
/// given: the list's kind's, SetCc, else the sender NIC's).
struct NiccListedFlow
{
    uint32_t src;
    uint32_t dst;
    uint64_t sizeBytes;
    Time start;
    uint16_t dport;
    uint8_t pg;
    std::optional<nicc::hal::CcKind> cc;
};

/// One synchronized step of a collective.
struct NiccCollectiveStep
{
    uint32_t step;
    int64_t startNs;
    int64_t endNs; ///< -1 while running
};

/// A collective's progress: its steps so far and how many it has.
struct NiccCollectiveResult
{
    std::string name; ///< "allreduce" or "alltoall"
    uint32_t stepsPlanned{0};
    std::vector<NiccCollectiveStep> steps;
    /// Flows started so far by fabric switches crossed ([h] = flows that
    /// cross h switches of the fabric; NVLink-only flows count as 0); empty
    /// unless NiccWorkload::SetHopCount was called.
    std::vector<uint64_t> flowsByFabricHops;
    uint64_t nvlinkFlows{0};      ///< flows over a server's NVSwitch (allreduce_relay)
    uint64_t relayedTransfers{0}; ///< transfers relayed over NVLink to another rail (PXN)
    bool Done() const { return stepsPlanned > 0 && steps.size() == stepsPlanned && steps.back().endNs >= 0; }
    /// Last step's end minus the first step's start, ns; -1 unless Done().
    int64_t TotalNs() const { return Done() ? steps.back().endNs - steps.front().startNs : -1; }
};

/// Ring placement `layout` (key allreduce_ring: interleaved, sequential,
/// rail-local, rail-crossing) over `groups` groups of `groupSize` hosts
/// (leaves / ToRs / servers; host g * groupSize + i is position i of group
/// g): one ring over every host, or one ring per position (rail-*).
std::vector<std::vector<uint32_t>> NiccAllReduceRings(const std::string& layout,
                                                      uint32_t groups,
                                                      uint32_t groupSize);

/**
 * \ingroup nicc
 * \brief Traffic generators (Poisson/CDF, incast, permutation, ring all-reduce).
 */
class NiccWorkload
{
  public:
    /// Random variable streams a workload uses (AssignStreams' return value).
    static constexpr int64_t STREAMS = 5;

    /// `hosts` are the hosts flows may use (all need a NIC from `nics`).
    NiccWorkload(NiccNicHelper* nics, const std::vector<Ptr<Node>>& hosts);

    /// Fixed stream numbers stream .. stream + STREAMS - 1 for the workload's
    /// random variables (ns-3 convention: call before the simulation runs);
    /// returns STREAMS. Without it ns-3 numbers the streams in creation order.
    int64_t AssignStreams(int64_t stream);

    /// Flows of `kind` started from now on run `cc` (not called: the sender
    /// NIC's CongestionControl). A listed flow's own cc comes first.
    void SetCc(NiccFlowKind kind, nicc::hal::CcKind cc);

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
    /// Several rings in parallel (e.g. one per rail, as multi-rail
    /// collective libraries run them), all of the same size n >= 2; each ring
    /// reduces its share bytes / rings, so every rank of ring g sends
    /// ceil(bytes / (rings * n)) per step; step k ends when every ring's
    /// step k is done. Returns false (and starts nothing) on rings of
    /// unequal size or fewer than 2 ranks.
    bool StartRingAllReduce(const std::vector<std::vector<uint32_t>>& rings, uint64_t bytes, Time start);
    /// The same, named `name` in GetCollectives(), calling `onDone` when its
    /// last step ends (`start` is a delay from now, as above). With
    /// `inServerNvlink` a transfer between two NICs of the same server runs
    /// over the server's NVLink (SetIntraServer) even without pxn (tensor
    /// parallelism inside a server); other transfers as without it.
    bool StartRingAllReduce(const std::vector<std::vector<uint32_t>>& rings,
                            uint64_t bytes,
                            Time start,
                            const std::string& name,
                            std::function<void()> onDone,
                            bool inServerNvlink = false);
    /// Double-binary-tree all-reduce (NiccTreeAllReducePlan) over each of
    /// `groups`, each group reducing its share ceil(bytes / groups) (as
    /// parallel rings do); named `name`, `onDone` at its end. False (nothing started)
    /// on groups of unequal size or fewer than 2 ranks.
    bool StartTreeAllReduce(const std::vector<std::vector<uint32_t>>& groups,
                            uint64_t bytes,
                            uint32_t chunks,
                            Time start,
                            const std::string& name,
                            std::function<void()> onDone);
    /// The servers' NVLink side (rail fabric with NVLink): gpus[k] is the
    /// GPU endpoint of host k's server slot (host k = server k / perServer,
    /// rail k % perServer; NICs installed). With pxn, each collective
    /// transfer from host a to host b runs: same server -> one NVLink flow
    /// gpus[a] -> gpus[b]; same rail -> the fabric flow a -> b; else the
    /// NVLink flow gpus[a] -> gpus[relay], then (when it is acknowledged,
    /// store and forward) the fabric flow relay -> b, relay = the host of
    /// a's server on b's rail. Without pxn the GPUs carry nothing.
    void SetIntraServer(const std::vector<Ptr<Node>>& gpus, uint32_t perServer, bool pxn);
    /// Fabric switches crossed by a flow between two nodes: recorded per
    /// collective flow (NiccCollectiveResult::flowsByFabricHops).
    void SetHopCount(std::function<uint32_t(Ptr<Node>, Ptr<Node>)> hops) { m_hops = std::move(hops); }
    /// While held, CollectivesDone() is false: a driver that starts more
    /// collectives later (a training job between its all-reduces) keeps a
    /// finite run from stopping early.
    void HoldCollectives(bool hold) { m_held = hold; }
    /// A collective flow's end moves the collective on `delay` later (0: at
    /// once), on every MPI rank: the end is posted to the other ranks as a
    /// notice (NiccMpi::Post, NiccNoticeEvent) and handled everywhere at the
    /// same time, so that each rank runs every collective's steps and starts
    /// the flows of its own hosts. Under MPI `delay` must be at least the
    /// shortest link delay (the ranks' time window). Call before the
    /// simulation runs; false with a message if a rank has no mailbox.
    bool SetNotices(Time delay, std::string* error);
    /// All-to-all by pairwise exchange: each of the n ranks holds `bytes`,
    /// bytes / n for every rank; n - 1 steps, in step k (1..n-1) rank r sends
    /// ceil(bytes / n) to rank (r + k) mod n.
    void StartAllToAll(const std::vector<uint32_t>& ranks, uint64_t bytes, Time start);
    /// Adds every listed flow now, each starting at its own absolute time
    /// (kind FLOWFILE; flow ids in list order). Call before the simulation
    /// runs; src != dst, both < hosts.
    void StartFlowList(const std::vector<NiccListedFlow>& flows);
    NiccFlowKind GetKind(uint32_t flowId) const;
    /// The dport a flow list gave the flow; 0 for generated flows.
    uint16_t GetDport(uint32_t flowId) const;
    /// The pg (HPCC) / prio (CSV) a flow list gave the flow; 0 for generated
    /// flows. Recorded only: every DATA packet uses the NIC's DataPriority.
    uint8_t GetPg(uint32_t flowId) const;
    /// Every collective started, in start order.
    std::vector<NiccCollectiveResult> GetCollectives() const;
    /// True when every collective started has finished (or none was) and
    /// none is held (HoldCollectives).
    bool CollectivesDone() const;
    /// The permutation's destination index per source index (empty without one).
    const std::vector<uint32_t>& GetPermutation() const { return m_perm; }

  private:
    uint32_t Add(uint32_t src, uint32_t dst, uint64_t bytes, NiccFlowKind kind);
    /// A flow between two nodes (hosts or GPUs) starting now.
    uint32_t AddNodes(Ptr<Node> src, Ptr<Node> dst, uint64_t bytes, NiccFlowKind kind, Time start,
                      std::optional<nicc::hal::CcKind> cc = std::nullopt);
    /// Add starting at absolute time `start`.
    uint32_t AddAt(uint32_t src,
                   uint32_t dst,
                   uint64_t bytes,
                   NiccFlowKind kind,
                   Time start,
                   std::optional<nicc::hal::CcKind> cc = std::nullopt);
    void PoissonArrival(uint32_t host);
    void IncastArrival();
    void RunPermutation(uint64_t bytes);
    /// A collective: `groups` run the same pattern in lockstep.
    struct Job
    {
        NiccCollectiveResult result;
        NiccFlowKind kind;
        std::vector<std::vector<uint32_t>> groups;
        uint64_t chunk{0};
        uint32_t step{0};
        uint32_t pending{0};
        std::function<void()> onDone;
        /// Explicit steps (tree); empty: `groups` in the ring / all-to-all pattern.
        std::vector<std::vector<NiccTransfer>> plan;
        bool inServerNvlink{false}; ///< same-server transfers over NVLink
    };
    /// The second leg of a relayed transfer, started when the NVLink leg ends.
    struct Relay
    {
        uint32_t job;
        uint32_t via; ///< host index of the relay NIC
        uint32_t dst;
        uint64_t bytes;
    };
    /// One transfer of job j: a fabric flow, or NVLink legs (SetIntraServer).
    void Send(uint32_t j, uint32_t src, uint32_t dst, uint64_t bytes);
    void CountHops(uint32_t j, Ptr<Node> a, Ptr<Node> b);
    void StartJob(Job job, Time start);
    void JobStep(uint32_t job);
    /// FlowComplete of a NIC: FlowDone now, or as a notice (SetNotices).
    void FlowComplete(uint32_t flowId, uint32_t qpn, uint64_t bytes, Time fct);
    /// A notice from another rank (a flow id), at its time.
    void NoticeArrived(Ptr<Packet> p);
    /// FlowDone(flowId) `delay` from now, as a notice (ordered by flow id).
    void ScheduleNotice(uint32_t flowId, Time delay);
    void FlowDone(uint32_t flowId);
    /// An exponential gap of mean 1 / perSecond from `rv`, at least 1 ns.
    static Time Exponential(const Ptr<ExponentialRandomVariable>& rv, double perSecond);
    /// Fisher-Yates shuffle of v drawing from `rv`.
    static void Shuffle(const Ptr<UniformRandomVariable>& rv, std::vector<uint32_t>* v);

    NiccNicHelper* m_nics;
    std::vector<Ptr<Node>> m_hosts;
    // One stream per kind of choice, so e.g. the incast bursts do not change
    // when Poisson traffic is switched on.
    Ptr<ExponentialRandomVariable> m_poissonGap;  ///< Poisson arrivals
    Ptr<UniformRandomVariable> m_poissonPick;     ///< destination and CDF draw
    Ptr<ExponentialRandomVariable> m_incastGap;   ///< incast burst arrivals
    Ptr<UniformRandomVariable> m_incastPick;      ///< receiver and senders of a burst
    Ptr<UniformRandomVariable> m_permPick;        ///< the permutation
    std::vector<uint8_t> m_kind; ///< per flow id
    std::array<std::optional<nicc::hal::CcKind>, NICC_FLOW_KINDS> m_cc{}; ///< per kind (SetCc)

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
    // Collectives.
    std::vector<Job> m_jobs;
    std::unordered_map<uint32_t, uint32_t> m_flowJob; ///< running flow id -> job
    bool m_traced{false};
    std::vector<Ptr<Node>> m_gpus;
    uint32_t m_perServer{1};
    bool m_pxn{false};
    std::unordered_map<uint32_t, Relay> m_relay; ///< NVLink leg's flow id -> fabric leg
    std::function<uint32_t(Ptr<Node>, Ptr<Node>)> m_hops;
    bool m_held{false};
    Time m_noticeDelay; ///< SetNotices
    // Flow lists: per flow id (sized only when a list is started).
    std::vector<uint16_t> m_dport;
    std::vector<uint8_t> m_pg;
};

} // namespace ns3

#endif // NICC_WORKLOAD_H
