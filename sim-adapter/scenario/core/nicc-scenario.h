/*
 * nicc-scenario.h — the built-in nicc-sim scenarios (incast, fairness) as
 * a table of typed keys with defaults, and one Run() that builds the fabric,
 * installs the NICs, starts the flows, samples the bottleneck queue and
 * per-flow throughput, and returns the numbers nicc-sim writes out.
 *
 *   NiccScenario s;
 *   std::string err;
 *   if (!s.Select("incast", &err) || !s.Set("cc", "hpcc", &err)) ... err names the key
 *   s.SetPair("dcqcn.rp_time_reset=100", &err);   // an engine parameter (us)
 *   NiccScenarioResult r;
 *   if (!s.Run(&r, &err)) ...
 *   r.QueuePercentile(0.99)
 *
 * Scenarios:
 *   incast      one switch: `senders` (16) flows of size_bytes each, all to one receiver
 *   fairness    one switch: 2 long flows to the receiver, the second stagger_us later
 *   leaf-spine  `leaves` x `spines` x `hosts_per_leaf`, workload mix from keys
 *               (poisson_load, incast_load, permutation_bytes, allreduce_bytes);
 *               key `topology` = leaf-spine (default), fat-tree (pods, tors_per_pod,
 *               aggs_per_pod, cores), rail (servers x rails NICs) or file
 *               (topology_file, HPCC text format) for both fabric scenarios
 *   ai-cluster  the default experiment: 4 x 4 x 8 hosts at 100 Gb/s, ring
 *               all-reduce + Poisson background (FB Hadoop) + incast bursts
 * Keys (nicc-scenario-keys.cc): scenario keys, model Attributes (mtu,
 * ecn_*, rto_us, ...: type, range and help from the TypeId), the NIC's
 * selectors and profiles (cc, spray, <algo>.profile) and one key per engine
 * parameter row, <algo>.<row> -> NiccNic Attribute CamelCase(<algo>_<row>),
 * -1 = the profile's value; old names in one alias table.
 * The fabric scenarios are in nicc-scenario-fabric.cc; ideal FCT there uses
 * the flow's own path (2 links inside a leaf, 4 across) and link rates.
 * Ideal FCT of a flow (document of record, docs/sim-nic.md): the unloaded
 * time on its 2-link path with store-and-forward and per-packet ACKs:
 *   frames * 8 / R  +  2 * H * d  +  (H - 1) * frame_max * 8 / R  +  H * ack * 8 / R
 * with H = 2 links, d the link delay, R the line rate, frames the wire bytes
 * of all its DATA packets (payload + 32-byte header + INT as stamped), ack
 * the bytes of one ACK.
 */
#ifndef NICC_SCENARIO_H
#define NICC_SCENARIO_H

#include "ns3/nicc-fault.h"
#include "ns3/nicc-link-util.h"
#include "ns3/nicc-log-histogram.h"
#include "ns3/nicc-nic-helper.h"
#include "ns3/nicc-port-monitor.h"
#include "ns3/nicc-scenario-pfc.h"
#include "ns3/nicc-training.h"
#include "ns3/nicc-spool.h"
#include "ns3/nicc-workload.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class NiccFabricHelper;
class NiccFabricRun;

/**
 * Prints one progress line to stderr ("nicc-sim: T of STOP ms simulated (P%),
 * done/total flows done, R M events/s, W s wall") once the run has taken
 * more than 2 s of wall time, at most once a second. *lastPrint and
 * *lastEvents carry the wall time and event count of the previous line.
 */
void NiccPrintProgress(std::chrono::steady_clock::time_point wall0,
                       Time stop,
                       uint32_t done,
                       uint32_t total,
                       double* lastPrint,
                       uint64_t* lastEvents);

/// One key of the scenario table.
struct NiccScenarioKey
{
    /// Where the key's value goes.
    enum Target : uint8_t
    {
        SCENARIO,  ///< read by the scenario itself (topology, workloads, run control)
        ATTRIBUTE, ///< an Attribute of a model object (typeId::attribute), checked by its checker
        ENGINE,    ///< an engine parameter: NiccNic Attribute, IntegerValue, -1 = the profile's value
    };
    std::string name;
    /// "uint", "int", "double", "bool", "string", "a|b|c" (choices), or for
    /// ATTRIBUTE keys the checker's type and range ("uint32_t 1:1024")
    std::string type;
    double min{0}; ///< numeric range (inclusive) of SCENARIO and ENGINE keys
    double max{0};
    std::string def;  ///< default unless the scenario overrides it (KeyHelp lists both)
    std::string help;
    std::string unit; ///< "us", "Mb/s", ... where the key has one
    Target target{SCENARIO};
    std::string typeId;    ///< ATTRIBUTE / ENGINE: the TypeId name ("ns3::NiccNic")
    std::string attribute; ///< ATTRIBUTE / ENGINE: its Attribute ("DcqcnRpTimeReset")
    std::string suffix;    ///< appended to the value for the Attribute ("us": a Time)
    /// ENGINE selector rows (a choice-code unit): the second name the key
    /// answers to, `<algo>_<row>` ("dcqcn_variant"), and the choice names by
    /// code; the value is a name (or -1 = the profile's), the Attribute gets
    /// the code.
    std::string altName;
    std::vector<std::string> choiceNames;
};

/// A deprecated key name and the key it stands for.
struct NiccScenarioAlias
{
    const char* from;
    const char* to;
};

/// One fabric link direction (a device's transmit side) and its use.
struct NiccLinkStat
{
    std::string from;
    std::string to;
    std::string kind; ///< "fabric" (switch-switch), "down" (switch-host), "up" (host-switch), "nvlink" (GPU-NVSwitch)
    double rateGbps;
    uint64_t txBytes;
    double utilization; ///< wire bytes / (rate x simulated time)
};

/// What a run produced.
struct NiccScenarioResult
{
    std::string scenario;
    std::vector<NiccFlowRecord> flows;
    std::vector<int64_t> idealFctNs; ///< per flow
    /// Queue bytes sampled every sample_ns: the bottleneck egress port
    /// (one switch), every switch egress port (fabrics); nicc-log-histogram.h.
    NiccLogHistogram queueHist;
    uint64_t queueMaxExact{0};          ///< switch's largest egress queue (any port/class)
    uint64_t pauseFrames{0};            ///< XOFF frames sent by the switch
    uint64_t drops{0};
    uint64_t ecnMarked{0};
    uint64_t dataPackets{0};            ///< DATA packets sent by all NICs (incl. resends)
    uint64_t retxPackets{0};
    uint64_t timeouts{0};
    uint64_t flowTableFullTx{0}; ///< sender QPs refused by a full driver table (waited)
    uint64_t flowTableFullRx{0}; ///< receiver flows refused (no CNPs until a slot freed)
    uint64_t cnpsSent{0};
    uint64_t bytesAcked{0};     ///< sum over flows of bytes acknowledged (payload)
    uint64_t bytesDelivered{0}; ///< payload delivered in order at the receivers
    /// Faults (fabric scenarios, nicc-fault.h): per fault, link losses by
    /// cause, payload offered (sizes of the flows started) and resent.
    std::vector<NiccFaultResult> faults;
    NiccLinkLossTotals linkLoss;
    NiccFaultThroughput faultThroughput;
    uint64_t bytesOffered{0};
    uint64_t retxBytes{0};
    double utilization{0};      ///< bottleneck wire bytes / (rate x active time)
    uint64_t events{0};
    /// DATA packets that crossed a link (received by a switch or a host);
    /// fabric scenarios only, else 0.
    uint64_t dataPacketHops{0};
    double wallSeconds{0};
    double simSeconds{0};
    double rateWindowUs{0};
    /// Per flow, its goodput (acknowledged bytes) in each rate window, Gb/s.
    std::vector<std::vector<double>> rateSeriesGbps;
    uint32_t txQpStateBytes{0};
    uint32_t rxQpStateBytes{0};
    uint32_t rngSeed{0}; ///< ns-3 RngSeed the run used (key `seed`, else the global value)
    uint64_t rngRun{0};  ///< ns-3 RngRun the run used (key `run`, else --RngRun / NS_GLOBAL_VALUE)

    // Fabric scenarios (leaf-spine, ai-cluster) only.
    bool fabric{false};
    uint32_t hosts{0};
    double hostRateGbps{0};
    std::vector<uint8_t> flowKind;         ///< per flow, NiccFlowKind
    std::vector<NiccLinkStat> links;       ///< every link direction
    double pauseTimeNs{0};                 ///< sum over devices of time a data class was paused
    uint32_t pausableDevices{0};           ///< devices counted in pauseTimeNs
    std::vector<uint64_t> oooHistogram;    ///< [d] = DATA packets d ahead (0 = in order)
    uint32_t oooMax{0};
    uint64_t rxDataPackets{0};
    std::vector<NiccCollectiveResult> collectives; ///< in start order (all-reduce, then all-to-all)
    double permutationThroughput{0};       ///< goodput / ideal goodput after warmup_us; 0 = none
    std::vector<double> seriesTimeUs;      ///< end of each rate window
    std::vector<std::vector<double>> seriesGbpsByKind; ///< [window][kind] goodput, Gb/s
    NiccLogHistogram hostDownQueueHist; ///< leaf egress ports to hosts only

    // Lossless checks (all scenarios).
    uint64_t dropsHeadroomOverflow{0}; ///< lossless data over a shrunk headroom (in drops too)
    uint64_t trims{0};                 ///< DATA packets cut to their header (key trim)
    uint64_t dropsTrimNoBuffer{0};     ///< trimmed headers with no buffer either (in drops too)

    /// Nearest-rank percentile of the slowdowns of completed flows with
    /// size in [minBytes, maxBytes), (kind < 0 or flowKind == kind) and (cc < 0
    /// or the flow's congestion control == cc, a nicc::hal::CcKind code).
    double SlowdownPercentileOf(double q,
                                uint64_t minBytes,
                                uint64_t maxBytes,
                                int kind,
                                size_t* n,
                                int cc = -1) const;
    /// Reordering distance percentile over all DATA packets received.
    uint32_t OooPercentile(double q) const;

    /// Nearest-rank percentile (q in [0, 1]) of the queue samples (within
    /// NiccLogHistogram's bound); 0 if none.
    uint64_t QueuePercentile(double q) const;
    /// Nearest-rank percentile of the FCT slowdowns of completed flows.
    double SlowdownPercentile(double q) const;
    uint32_t Completed() const;

    // Outputs: monitors and HPCC formats (nicc-port-monitor.h, nicc-hpcc-output.h).
    std::vector<NiccPortSeries> monitoredPorts; ///< ports of the `monitor` key, in its order
    NiccPfcLog pfcLog;                          ///< every PFC frame received, in time order
    /// The files streamed during the run (queues.csv, pfc.txt, pfc.csv,
    /// link_util.csv, the qlen file): NiccWriteScenarioOutputs moves them
    /// into the output directory (nicc-spool.h).
    std::shared_ptr<NiccSpool> spool;
    std::vector<int64_t> standaloneFctNs;       ///< per flow, the HPCC simulator's standalone FCT
    std::vector<uint32_t> flowDport; ///< per flow
    /// PFC storm / watchdog / deadlock figures (nicc-scenario-pfc.h).
    NiccPfcRunResult pfcStorm;
    /// The training job's iterations and summary (key training; nicc-training.h).
    NiccTrainingResult training;
    /// Fabric link utilization over time (key link_util_interval_us; nicc-link-util.h).
    NiccLinkUtilResult linkUtil;
};

/**
 * \ingroup nicc
 * \brief Built-in scenarios of nicc-sim with key=value overrides.
 */
class NiccScenario
{
  public:
    /// Every key: scenario keys, model Attributes, the NIC's selectors and
    /// profiles, one per engine parameter row (nicc-scenario-keys.cc).
    static const std::vector<NiccScenarioKey>& Keys();
    /// Deprecated names (old key -> key); Set and Get accept them.
    static const std::vector<NiccScenarioAlias>& Aliases();
    /// The key an alias stands for; any other name unchanged.
    static const std::string& Canonical(const std::string& key);
    /// True for a key or an alias.
    static bool IsKey(const std::string& key);
    /// The built-in scenarios (one table, nicc-scenario-key-table.cc).
    static const std::vector<std::string>& Names();
    /// Their names as text: "a, b or c" with sep ", " and last " or ";
    /// only those RunFabric runs with fabricOnly.
    static std::string NamesText(const char* sep, const char* last, bool fabricOnly = false);
    /// One line per built-in scenario: "  name: what it is".
    static std::string ScenariosHelp();
    /// True for a built-in scenario RunFabric runs (a fabric of switches).
    static bool IsFabric(const std::string& scenario);
    /// The key table as text: name, type, defaults per scenario, help.
    static std::string KeyHelp();

    NiccScenario();
    /// Choose a scenario; resets every key to its default there.
    bool Select(const std::string& name, std::string* error);
    /// Override one key; false with a message naming the key on an unknown
    /// key or a bad value.
    bool Set(const std::string& key, const std::string& value, std::string* error);
    /// "key=value" form of Set.
    bool SetPair(const std::string& pair, std::string* error);
    std::string Get(const std::string& key) const;
    /// "old -> new" for every deprecated alias Set since the last Select().
    const std::vector<std::string>& GetAliasesUsed() const { return m_aliasesUsed; }
    const std::string& GetName() const { return m_name; }
    /// Name the result carries (NiccScenarioResult::scenario) instead of the
    /// built-in scenario's; empty = the built-in name. Select() clears it.
    void SetLabel(const std::string& label) { m_label = label; }
    const std::string& GetLabel() const { return m_label; }
    /// Print progress (simulated time, %, events/s) to stderr every second
    /// of wall time once a run has lasted 2 s.
    void SetProgress(bool on) { m_progress = on; }
    /// Where a run streams its series files before they are moved into the
    /// output directory (nicc-spool.h): best inside it (a rename); empty (the
    /// default) = a private temporary directory.
    void SetSpoolDir(const std::string& dir) { m_spoolDir = dir; }

    /// Build, run and measure. Calls Simulator::Destroy() at the end.
    /// Applies the `compat` preset first (ApplyCompat).
    bool Run(NiccScenarioResult* out, std::string* error);

    /// Sets every key of the `compat` preset that was not Set explicitly
    /// since Select() (Run calls it; Get shows the result afterwards).
    bool ApplyCompat(std::string* error);

    /// Sets every model Attribute the keys name on the helpers (fabric may
    /// be null: NIC Attributes only), and Recovery from `recovery`; false
    /// with the key named when the model lacks an Attribute.
    bool ApplyAttributes(NiccFabricHelper* fabric, NiccNicHelper* nics, std::string* error) const;

    /// Default of `key` in `scenario` (the table's default or its override).
    static std::string DefaultFor(const std::string& scenario, const std::string& key);
    /// Directory the CDF files are read from (compile-time NICC_SIM_DATA_DIR,
    /// else "data"); a cdf_file key overrides the file itself.
    static std::string DataDir();

  private:
    /// RngSeed / RngRun for one run: the keys' values, or (0) the global
    /// values; the previous values come back when the scope ends, so a
    /// scenario leaves the process's RngRun as it found it.
    class RngScope
    {
      public:
        RngScope(uint64_t seedKey, uint64_t runKey);
        ~RngScope();
        RngScope(const RngScope&) = delete;
        RngScope& operator=(const RngScope&) = delete;
        const uint32_t seed;
        const uint64_t run;

      private:
        uint32_t m_oldSeed;
        uint64_t m_oldRun;
    };

    /// The fabric scenarios: one NiccFabricRun (nicc-fabric-run.h), a friend.
    bool RunFabric(NiccScenarioResult* out, std::string* error);
    friend class NiccFabricRun;
    /// recovery == sr, or auto while spraying (NIC or switch).
    bool UseSelectiveRepeat() const;

    /// The monitor keys' values (nicc-port-monitor.h).
    NiccMonitorConfig MonitorConfig() const;
    /// False, naming the key, if a key only the fabric scenarios read is set.
    bool RefuseFabricOnlyKeys(std::string* error) const;
    /// r->spool, and pfc.txt / pfc.csv streamed into it (not under MPI:
    /// the ranks' frames are merged after the run).
    bool OpenSpool(NiccScenarioResult* r, std::string* error) const;

    uint64_t U(const char* key) const;
    int64_t I(const char* key) const;
    double D(const char* key) const;
    bool B(const char* key) const;

    std::string m_name;
    std::string m_label;
    std::map<std::string, std::string> m_values;
    std::vector<std::string> m_aliasesUsed;
    std::set<std::string> m_userSet; ///< keys Set since Select() (a compat preset leaves them)
    bool m_progress{false};
    std::string m_spoolDir;

    /// After the switches are built: per-tier buffers (buffer_bytes_edge /
    /// _agg / _core), per-rate ECN thresholds (ecn_map), then the buffer check
    /// of lossless switches (NiccCheckLosslessBuffer) under key
    /// headroom_policy; warnings go to stderr. False with *error naming the
    /// key when the configuration is refused.
    bool SetUpSwitches(const NiccFabricHelper& fabric, std::string* error) const;
    /// Fault keys (fault, flap, link_loss, loss_rate) into `inj`
    /// (nicc-scenario-faults.cc); advances *stream past the streams used.
    bool SetUpFaults(NiccFaultInjector* inj,
                     const std::vector<std::string>& names,
                     const std::vector<Ptr<Node>>& hosts,
                     int64_t* stream,
                     std::string* error) const;
    /// Check the fault keys' syntax (before anything is built).
    bool CheckFaultKeys(std::string* error) const;
    /// mpi_ranks > 0: refuse what does not run across ranks, then start MPI
    /// (nicc-scenario-mpi.cc). True at once when mpi_ranks is 0.
    bool CheckMpiKeys(std::string* error) const;
    /// The ns-3 scheduler TypeId of key `scheduler` (ordered under mpi_ranks).
    std::string SchedulerTypeId() const;
};

} // namespace ns3

#endif // NICC_SCENARIO_H
