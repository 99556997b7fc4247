/*
 * nicc-port-monitor.h — per-port telemetry of a scenario run:
 *   - the switch egress ports named by the `monitor` key, sampled every
 *     monitor_period_ns inside [monitor_start_us, monitor_stop_us]
 *     (queues.csv, streamed as sampled, and per-port statistics in
 *     summary.json, kept as a stream: NiccQueueStream);
 *   - with qlen_mon_file set, the HPCC simulator's qlen output for those
 *     ports (alibaba-edu/High-Precision-Congestion-Control, third.cc
 *     monitor_buffer: per port, counts of queue-length samples in 1000-byte
 *     bins, one sample every 100 ns, accumulated from the window's start and
 *     dumped at every multiple of 100 ms of simulated time);
 *   - every PFC frame any device receives (pfc.csv, pfc.txt: streamed to
 *     the spool as received; under MPI kept until the ranks' are merged).
 * What the monitor holds does not grow with simulated time (nicc-spool.h).
 *
 *   std::vector<NiccMonitorSwitch> sws = {{7, "leaf0", {true, true, false}}};
 *   std::vector<NiccMonitorPortId> ports;
 *   if (!NiccParseMonitorSpec("leaf0:*,host-facing", sws, &ports, &err)) ... err names the item
 *   NiccQueueStream q(1000);  q.Add(2000, 0);  q.Add(2500, 64000);  ...
 *   NiccQueueStats st = q.Stats();
 *
 * Units: times in ns, queue lengths in bytes (all classes of the port).
 */
#ifndef NICC_PORT_MONITOR_H
#define NICC_PORT_MONITOR_H

#include "ns3/nicc-log-histogram.h"
#include "ns3/nicc-net-device.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class NiccSpool;

/// The monitor's series file in the spool and the output directory.
constexpr const char* NICC_QUEUES_CSV = "queues.csv";
/// The qlen dumps in the spool (moved to key qlen_mon_file's path).
constexpr const char* NICC_QLEN_SPOOL = "qlen_mon.txt";
class NiccSwitchNode;

/// Statistics of one port's queue series (NiccQueueStream).
struct NiccQueueStats
{
    uint64_t samples{0};
    uint64_t p50Bytes{0}; ///< nearest-rank percentiles, as the pooled figures (NiccLogHistogram's bound)
    uint64_t p95Bytes{0};
    uint64_t p99Bytes{0};
    uint64_t maxBytes{0};
    int64_t maxTimeNs{-1}; ///< time of the first sample at the maximum; -1 = no samples
    /// First sample at or below the drain threshold at or after the peak,
    /// minus maxTimeNs; -1 = the queue did not drain inside the window.
    int64_t drainNs{-1};
};

/// The statistics of a queue series kept as it is sampled: memory that
/// depends on the largest length, not on the number of samples.
class NiccQueueStream
{
  public:
    explicit NiccQueueStream(uint64_t drainThresholdBytes = 0)
        : m_drainThreshold(drainThresholdBytes)
    {
    }

    /// One sample; times non-decreasing.
    void Add(int64_t timeNs, uint64_t bytes);
    NiccQueueStats Stats() const;
    int64_t FirstNs() const { return m_firstNs; } ///< -1: no samples
    int64_t LastNs() const { return m_lastNs; }
    const NiccLogHistogram& Histogram() const { return m_hist; }

  private:
    uint64_t m_drainThreshold;
    NiccLogHistogram m_hist;
    int64_t m_firstNs{-1};
    int64_t m_lastNs{-1};
    int64_t m_maxNs{-1}; ///< first sample at the maximum so far
    int64_t m_drainNs{-1}; ///< after it, the first at or below the threshold, minus m_maxNs
};

/**
 * Statistics of a queue series: timeNs[i] is the time of sample i (non
 * decreasing), queueBytes[i] its length (a NiccQueueStream fed in order).
 * Both the same size (else the shorter length counts).
 */
NiccQueueStats NiccComputeQueueStats(const std::vector<int64_t>& timeNs,
                                     const std::vector<uint64_t>& queueBytes,
                                     uint64_t drainThresholdBytes);

/// A switch the `monitor` key can name.
struct NiccMonitorSwitch
{
    uint32_t node;                ///< ns-3 node id
    std::string name;             ///< as in links.csv ("leaf0", "tor3", "sw12", ...)
    std::vector<bool> hostFacing; ///< per port: the peer is a host
};

/// One monitored port: index into the switch list and port index.
struct NiccMonitorPortId
{
    uint32_t sw;
    uint32_t port;
};

/**
 * Parses a `monitor` spec: comma-separated items, each SWITCH:PORT,
 * SWITCH:* (every port of the switch), host-facing (every switch port whose
 * peer is a host) or all (every switch port); SWITCH is a name from
 * `switches` or a node id. Ports in first-named order, duplicates once.
 * False with the item and the field named in *error.
 */
bool NiccParseMonitorSpec(const std::string& spec,
                          const std::vector<NiccMonitorSwitch>& switches,
                          std::vector<NiccMonitorPortId>* out,
                          std::string* error);

/// One monitored port and its queue statistics (the series itself is
/// streamed to queues.csv).
struct NiccPortSeries
{
    uint32_t node{0};
    std::string switchName;
    uint32_t port{0};
    NiccQueueStream queue;
};

/// One PFC frame as received (and obeyed) by a device.
struct NiccPfcEvent
{
    int64_t timeNs;
    uint32_t node;     ///< receiver: the device that pauses or resumes its transmitter
    uint8_t nodeType;  ///< 0 host, 1 switch (the HPCC simulator's node types)
    uint32_t port;     ///< receiver's port (switch port index; 0 on a host)
    uint8_t priority;  ///< class paused / resumed
    bool pause;        ///< XOFF (quanta > 0) or XON (quanta 0)
    uint32_t fromNode; ///< sender: the node whose ingress buffer asked for it
    uint32_t fromPort;
};

/// Every PFC frame received in a run: streamed as received to pfc.txt (the
/// HPCC simulator's format) and pfc.csv, or (under MPI, whose ranks' frames
/// are merged in one order after the run; or with no files) kept in `kept`.
struct NiccPfcLog
{
    std::ostream* txt{nullptr}; ///< pfc.txt rows as received (nullptr: keep)
    std::ostream* csv{nullptr}; ///< pfc.csv rows as received, after its header
    uint64_t frames{0};         ///< every frame received (streamed or kept)
    std::vector<NiccPfcEvent> kept;
    void Add(const NiccPfcEvent& e);
};

/**
 * \ingroup nicc
 * \brief Samples monitored egress queues inside a window; optionally keeps
 * the HPCC simulator's qlen histograms; records received PFC frames.
 *
 * Costs events only for monitored ports and only inside the window: one
 * event per period for the series, one per 100 ns for the histograms.
 */
class NiccPortMonitor
{
  public:
    /// HPCC's qlen_mon_interval (ns) and qlen_dump_interval (ns), third.cc.
    static constexpr int64_t QLEN_SAMPLE_NS = 100;
    static constexpr int64_t QLEN_DUMP_NS = 100000000;
    static constexpr uint32_t QLEN_BIN_BYTES = 1000; ///< third.cc: kb = qlen / 1000

    /// `ports`: the devices to sample, their rows in `series` (same
    /// order). stop = 0: until the run ends. queues: where the queues.csv
    /// rows go as sampled (nullptr = nowhere); qlen: where the HPCC qlen
    /// dumps go (nullptr = off).
    NiccPortMonitor(std::vector<Ptr<NiccNetDevice>> ports,
                    std::vector<NiccPortSeries>* series,
                    Time start,
                    Time stop,
                    Time period,
                    std::ostream* queues,
                    std::ostream* qlen);
    NiccPortMonitor(const NiccPortMonitor&) = delete;
    NiccPortMonitor& operator=(const NiccPortMonitor&) = delete;

    /// Schedule the first samples (call before Simulator::Run).
    void Start();
    /// After the run: a last qlen dump at the last sample unless one was made there.
    void Finish();

    /// Record every PFC frame `dev` receives in *log.
    void WatchPfc(Ptr<NiccNetDevice> dev, NiccPfcLog* log);

  private:
    struct PfcSink
    {
        NiccPfcLog* log;
        NiccPfcEvent proto;
        void OnPfc(uint8_t cls, uint16_t quanta);
    };

    void Sample();
    void SampleQlen();
    /// Every monitored port's queue now, in m_ports' order (MPI: summed over the ranks).
    const std::vector<uint64_t>& QueueBytes();
    void DumpQlen(int64_t nowNs);

    std::vector<Ptr<NiccNetDevice>> m_ports;
    std::vector<NiccPortSeries>* m_series;
    Time m_start;
    Time m_stop;
    Time m_period;
    std::ostream* m_queues;
    std::ostream* m_qlen;
    std::vector<size_t> m_qlenOrder;                ///< ports by (node, port): HPCC's dump order
    std::vector<std::vector<uint32_t>> m_qlenCount; ///< per port, samples per 1000-byte bin
    int64_t m_lastQlenNs{-1};
    int64_t m_lastDumpNs{-1};
    std::deque<PfcSink> m_pfcSinks; ///< stable addresses for the bound callbacks
    std::vector<uint64_t> m_queueBytes; ///< QueueBytes' buffer
};

/// The monitor keys of a run (monitor, monitor_start_us, monitor_stop_us,
/// monitor_period_ns, qlen_mon_file != "").
struct NiccMonitorConfig
{
    std::string spec;
    Time start;
    Time stop; ///< zero: until the run ends
    Time period;
    bool qlen{false};
    uint64_t drainBytes{0}; ///< monitor_drain_bytes
};

/**
 * The monitor of a run: parses cfg.spec against `switches` (names[i] is
 * switches[i]'s name), fills one row of *series per monitored port and
 * creates *out (also when no port is monitored: it records PFC frames).
 * With a spool, queues.csv and (cfg.qlen) the qlen dumps (NICC_QLEN_SPOOL)
 * are streamed into it; without, only the statistics are kept.
 * False with the key and field named in *error.
 */
bool NiccSetUpPortMonitor(const NiccMonitorConfig& cfg,
                          const std::vector<Ptr<NiccSwitchNode>>& switches,
                          const std::vector<std::string>& names,
                          std::vector<NiccPortSeries>* series,
                          NiccSpool* spool,
                          std::unique_ptr<NiccPortMonitor>* out,
                          std::string* error);

} // namespace ns3

#endif // NICC_PORT_MONITOR_H
