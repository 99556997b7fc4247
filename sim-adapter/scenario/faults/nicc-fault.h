/*
 * nicc-fault.h — link faults of the nicc fabric: links going down and up at
 * given times, flapping links, per-link and fabric-wide loss rates; the
 * switches drop a failed link from their ECMP groups after a detection delay
 * (routes recomputed over the remaining links, as InstallRoutes builds them)
 * and take it back the same delay after it comes up. Per fault: frames lost,
 * the flows that lost data on it, and each such flow's recovery time.
 * docs/faults.md has the syntax and the definitions.
 *
 *   std::vector<NiccFaultSpec> specs;
 *   if (!NiccParseFaults("link:leaf0-spine1@100,400", "fault", false, &specs, &err)) ...
 *   NiccFaultInjector inj(&fabric, MicroSeconds(5), MicroSeconds(10));
 *   inj.Install(specs, losses, 0.0, names, hosts, stream, &err);
 *   Simulator::Run();
 *   inj.Finish(Simulator::Now(), &results, &throughput);
 *
 * Spec syntax (one key value; several faults separated by ';'):
 *   link:A-B@down_us[,up_us]          down at down_us, up at up_us (never if absent)
 *   flap: link:A-B@start_us,period_us,count
 *                                     count cycles: down at start + i*period,
 *                                     up half a period later
 *   link_loss: A-B:rate[;C-D:rate]    per-link frame loss probability
 * A and B are node names as links.csv prints them (leaf0, spine1, host3,
 * tor2, agg0, core1, rail0, server0nic1, sw<file id>, host<file id>) or
 * ns-3 node ids; every link between A and B (parallel links too) is meant.
 */
#ifndef NICC_FAULT_H
#define NICC_FAULT_H

#include "nicc-fabric-helper.h"

#include "ns3/nicc-channel.h"
#include "ns3/node.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/// One link fault as written: a down/up interval, or a flap train.
struct NiccFaultSpec
{
    std::string kind{"link"}; ///< "link" (down/up) or "flap"
    std::string a;            ///< node name or id as written
    std::string b;
    double downUs{0};   ///< link: down time; flap: first down time
    double upUs{-1};    ///< link: up time, -1 = never; flap: unused
    double periodUs{0}; ///< flap: one down+up cycle
    uint32_t count{0};  ///< flap: cycles
    std::string text;   ///< the spec as written (messages, output)
};

/// One per-link loss rate as written.
struct NiccLinkLossSpec
{
    std::string a;
    std::string b;
    double rate{0};
    std::string text;
};

/// What happened for one fault (one spec; a flap train is one fault).
struct NiccFaultResult
{
    std::string kind;
    std::string link;       ///< "A-B" as written
    std::string spec;       ///< the spec text
    double downUs{0};       ///< first down time
    double upUs{-1};        ///< last up time, -1 = never
    double detectUs{0};     ///< detection delay in force
    uint32_t channels{0};   ///< parallel links matched
    uint64_t lostPackets{0}; ///< frames lost on the link while down (any kind)
    uint64_t lostBytes{0};
    uint64_t lostDataPackets{0}; ///< of which DATA
    uint64_t lostDataPayloadBytes{0};
    uint32_t affectedFlows{0};   ///< flows with a DATA packet lost on it
    uint32_t measuredFlows{0};   ///< affected flows with a rate before the fault
    uint32_t recoveredFlows{0};  ///< of those, recovered before the run ended
    double recoveryP50Us{-1};    ///< from the failure; -1 = none measured
    double recoveryMaxUs{-1};
    double recoveryAfterDetectP50Us{-1}; ///< from the detection (clamped at 0)
    double recoveryAfterDetectMaxUs{-1};
};

/// Losses on the fabric's links, by cause, over the whole run.
struct NiccLinkLossTotals
{
    uint64_t downPackets{0};
    uint64_t downBytes{0};
    uint64_t corruptionPackets{0};
    uint64_t corruptionBytes{0};
};

/// Goodput around the faults, per bin: every flow, and the flows affected by any fault.
struct NiccFaultThroughput
{
    double binUs{0};
    double startUs{0}; ///< time of the first bin
    std::vector<double> totalGbps;
    std::vector<double> affectedGbps;
};

/// Parse `text` (the value of key `key`; ';'-separated specs). flap = the
/// flap syntax. False with "key 'KEY': spec 'S': message" on any error.
bool NiccParseFaults(const std::string& text,
                     const std::string& key,
                     bool flap,
                     std::vector<NiccFaultSpec>* out,
                     std::string* error);
/// Parse a link_loss value ("A-B:rate;...").
bool NiccParseLinkLoss(const std::string& text,
                       const std::string& key,
                       std::vector<NiccLinkLossSpec>* out,
                       std::string* error);

/// The syntax check of the fault keys' values (fault, flap, link_loss) when
/// they are set; true for any other key. *why: the spec and what is wrong.
bool NiccCheckFaultKey(const std::string& key, const std::string& value, std::string* why);

/**
 * \ingroup nicc
 * \brief Schedules link faults, reroutes after detection, meters recovery.
 */
class NiccFaultInjector
{
  public:
    /// `detect`: delay from a link's change to the route recomputation;
    /// `window`: the goodput window of the recovery measurement.
    NiccFaultInjector(NiccFabricHelper* fabric, Time detect, Time window);

    /// Resolve names (`names[node id]`, or ids), set loss rates (`lossRate`
    /// on every link, then the per-link ones), schedule the faults and
    /// attach the meters to `hosts`' NICs. `stream`: first random stream of
    /// the channels (returns through *streamsUsed). False with a message
    /// naming the spec on an unknown node or a pair without a link.
    bool Install(const std::vector<NiccFaultSpec>& faults,
                 const std::vector<NiccLinkLossSpec>& losses,
                 double lossRate,
                 const std::vector<std::string>& names,
                 const std::vector<Ptr<Node>>& hosts,
                 int64_t stream,
                 int64_t* streamsUsed,
                 std::string* error);
    /// Results per fault, the link-loss totals and the goodput series.
    void Finish(Time end,
                std::vector<NiccFaultResult>* results,
                NiccLinkLossTotals* totals,
                NiccFaultThroughput* throughput) const;

  private:
    struct Fault
    {
        NiccFaultSpec spec;
        std::vector<Ptr<NiccChannel>> channels;
        std::vector<std::pair<Time, bool>> changes; ///< (time, up)
        NiccFaultResult result;
        std::map<uint64_t, bool> affected; ///< flow key (src << 32 | qpn)
    };
    /// Payload delivered per bin, from bin `first` on (a run at 2 s keeps
    /// no empty bins before its traffic).
    struct Series
    {
        size_t first{0};
        std::vector<uint64_t> bins;
        void Add(size_t bin, uint64_t bytes);
        uint64_t At(size_t bin) const
        {
            return bin >= first && bin - first < bins.size() ? bins[bin - first] : 0;
        }
    };

    /// What Finish reads, of every MPI rank (nicc-fault-mpi.cc): on rank 0
    /// the faults' losses and affected flows, the delivery series and the
    /// senders' finish times summed or joined over the ranks; *totals the
    /// links' losses. One process: its own.
    struct Ranks
    {
        std::vector<Fault> faults;
        std::map<uint64_t, Series> series;
        Series total;
        std::map<uint64_t, int64_t> finish; ///< flow key -> sender's finish time step (0: not finished)
    };
    Ranks Gather(NiccLinkLossTotals* totals) const;

    void Change(uint32_t fault, bool up);
    void Reroute(uint32_t fault, bool up);
    /// A channel's Drop trace, bound to the channel.
    struct Probe
    {
        NiccFaultInjector* self;
        const NiccChannel* ch;
        void OnDrop(Ptr<const Packet> p, uint32_t from, uint8_t cause);
    };
    void OnDrop(const NiccChannel* ch, Ptr<const Packet> p, uint8_t cause);
    void OnDeliver(uint32_t src, uint32_t qpn, uint32_t psn, uint32_t bytes);
    Ptr<Node> Resolve(const std::string& name, const std::vector<std::string>& names) const;

    NiccFabricHelper* m_fabric;
    Time m_detect;
    Time m_window;
    Time m_bin;
    std::vector<Fault> m_faults;
    std::map<const NiccChannel*, int32_t> m_active; ///< channel -> fault holding it down
    std::vector<std::unique_ptr<Probe>> m_probes;
    std::vector<Ptr<NiccChannel>> m_all;
    std::map<uint64_t, Series> m_series;
    Series m_total;
    std::vector<Ptr<Node>> m_hosts; ///< whose NICs are metered (Install)
};

} // namespace ns3

#endif // NICC_FAULT_H
