/*
 * nicc-scenario.h — the built-in nicc-sim scenarios (incast, fairness) as
 * a table of typed keys with defaults, and one Run() that builds the fabric,
 * installs the NICs, starts the flows, samples the bottleneck queue and
 * per-flow throughput, and returns the numbers nicc-sim writes out.
 *
 *   NiccScenario s;
 *   std::string err;
 *   if (!s.Select("incast", &err) || !s.Set("cc", "hpcc", &err)) ... err names the key
 *   NiccScenarioResult r;
 *   if (!s.Run(&r, &err)) ...
 *   r.QueuePercentile(0.99)
 *
 * Scenarios (one switch, `senders` hosts and one receiver, equal links):
 *   incast    `senders` (16) flows of size_bytes each, all to the receiver
 *   fairness  2 long flows to the receiver, the second stagger_us later
 * Ideal FCT of a flow (document of record, docs/sim-nic.md): the unloaded
 * time on its 2-link path with store-and-forward and per-packet ACKs:
 *   frames * 8 / R  +  2 * H * d  +  (H - 1) * frame_max * 8 / R  +  H * ack * 8 / R
 * with H = 2 links, d the link delay, R the line rate, frames the wire bytes
 * of all its DATA packets (payload + 32-byte header + INT as stamped), ack
 * the bytes of one ACK.
 */
#ifndef NICC_SCENARIO_H
#define NICC_SCENARIO_H

#include "ns3/nicc-nic-helper.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/// One key of the scenario table.
struct NiccScenarioKey
{
    const char* name;
    const char* type; ///< "uint", "int", "double", "bool" or "a|b|c" (choices)
    double min;       ///< numeric range (inclusive); ignored for bool/choices
    double max;
    const char* incastDefault;
    const char* fairnessDefault;
    const char* help;
};

/// What a run produced.
struct NiccScenarioResult
{
    std::string scenario;
    std::vector<NiccFlowRecord> flows;
    std::vector<int64_t> idealFctNs; ///< per flow
    std::vector<uint64_t> queueSamples; ///< bottleneck egress queue bytes
    uint64_t queueMaxExact{0};          ///< switch's largest egress queue (any port/class)
    uint64_t pauseFrames{0};            ///< XOFF frames sent by the switch
    uint64_t drops{0};
    uint64_t ecnMarked{0};
    uint64_t dataPackets{0};            ///< DATA packets sent by all NICs (incl. resends)
    uint64_t retxPackets{0};
    uint64_t timeouts{0};
    uint64_t cnpsSent{0};
    uint64_t bytesAcked{0};     ///< sum over flows of bytes acknowledged (payload)
    uint64_t bytesDelivered{0}; ///< payload delivered in order at the receivers
    double utilization{0};      ///< bottleneck wire bytes / (rate x active time)
    uint64_t events{0};
    double wallSeconds{0};
    double simSeconds{0};
    double rateWindowUs{0};
    /// Per flow, its goodput (acknowledged bytes) in each rate window, Gb/s.
    std::vector<std::vector<double>> rateSeriesGbps;
    uint32_t txQpStateBytes{0};
    uint32_t rxQpStateBytes{0};

    /// Nearest-rank percentile (q in [0, 1]) of the queue samples; 0 if none.
    uint64_t QueuePercentile(double q) const;
    /// Nearest-rank percentile of the FCT slowdowns of completed flows.
    double SlowdownPercentile(double q) const;
    uint32_t Completed() const;
};

/**
 * \ingroup nicc
 * \brief Built-in scenarios of nicc-sim with key=value overrides.
 */
class NiccScenario
{
  public:
    static const std::vector<NiccScenarioKey>& Keys();
    static const std::vector<std::string>& Names();
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
    const std::string& GetName() const { return m_name; }
    /// Print progress (simulated time, %, events/s) to stderr every second
    /// of wall time once a run has lasted 2 s.
    void SetProgress(bool on) { m_progress = on; }

    /// Build, run and measure. Calls Simulator::Destroy() at the end.
    bool Run(NiccScenarioResult* out, std::string* error);

  private:
    uint64_t U(const char* key) const;
    int64_t I(const char* key) const;
    double D(const char* key) const;
    bool B(const char* key) const;

    std::string m_name;
    std::map<std::string, std::string> m_values;
    bool m_progress{false};
};

} // namespace ns3

#endif // NICC_SCENARIO_H
