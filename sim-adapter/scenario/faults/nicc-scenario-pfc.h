/*
 * nicc-scenario-pfc.h — the PFC storm, watchdog and deadlock keys of the
 * fabric scenarios, and what a run reports about them.
 *
 *   pfc_storm=HOST@START_US[,END_US][;HOST@...]   hosts by index (0..hosts-1)
 *                                                 or by name (links.csv: host3)
 *   pfc_watchdog=true pfc_watchdog_action=drop|forward
 *   pfc_watchdog_detect_us / _restore_us / _poll_us  (switch Attributes)
 *   pfc_deadlock_check_us=50                       (0 = off)
 *   pfc_spread_sample_us=10                        (with a storm or the watchdog)
 *
 * Within RunFabric:
 *   NiccPfcRun pfc;
 *   if (!pfc.SetUp(scenario, switches, switchNames, hostDevices, hostNames, stop, error)) ...
 *   ...Simulator::Run()...
 *   pfc.Collect(&result.pfcStorm);          // after the run, before Destroy
 * Outputs (NiccWritePfcOutputs): summary.json "pfc_storm" and pfc_spread.csv,
 * only when a storm, the watchdog or the deadlock check was on.
 */
#ifndef NICC_SCENARIO_PFC_H
#define NICC_SCENARIO_PFC_H

#include "ns3/nicc-net-device.h"
#include "ns3/nicc-switch-node.h"

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <string>
#include <vector>

namespace ns3
{

class NiccScenario;

/// One storm of the pfc_storm key.
struct NiccPfcStormSpec
{
    std::string host; ///< as written: an index or a host name
    double startUs{0};
    double endUs{-1}; ///< negative: never ends
};

/// Parse pfc_storm's value; false with "key 'pfc_storm': ..." in *error.
bool NiccParsePfcStorms(const std::string& value,
                        std::vector<NiccPfcStormSpec>* out,
                        std::string* error);

/// What the PFC keys produced in one run.
struct NiccPfcRunResult
{
    bool on{false}; ///< a storm, the watchdog or the deadlock check was configured
    struct Storm
    {
        std::string host;
        double startUs;
        double endUs;
        uint64_t xoffSent;
        uint64_t heldBytesAtEnd;
        uint64_t peakHeldBytes;
    };
    std::vector<Storm> storms;
    bool watchdog{false};
    std::string watchdogAction;
    uint64_t stormsDetected{0};
    uint64_t restorations{0};
    uint64_t droppedPackets{0};
    uint64_t droppedBytes{0};
    double stormTimeUs{0};
    struct Action
    {
        double atUs;
        std::string port; ///< SWITCH:PORT
        std::string peer; ///< node on the other end
        uint32_t cls;
        std::string what; ///< "storm" (action applied) or "restore"
    };
    std::vector<Action> actions;
    // Spread.
    double samplePeriodUs{0};
    std::vector<double> sampleUs;
    std::vector<uint32_t> pausedPorts;
    std::vector<uint32_t> pausedHosts;
    std::vector<uint32_t> stormedQueues;
    std::vector<double> rxGbps;
    uint32_t peakPorts{0};
    uint32_t peakHosts{0};
    double timeToPeakPortsUs{-1}; ///< from the first storm's start
    double timeToPeakHostsUs{-1};
    /// Switch drops during the run by ingress port and reason:
    /// "SWITCH:PORT" (ingress), reason name, packets.
    struct Drop
    {
        std::string port;
        std::string reason;
        uint64_t packets;
    };
    std::vector<Drop> drops;
    // Deadlock.
    bool deadlockCheck{false};
    uint64_t deadlockChecks{0};
    uint64_t deadlockDetections{0};
    double deadlockFirstUs{-1};
    std::vector<std::string> deadlockPorts;
};

class NiccPfcStorm;
class NiccPfcSpreadSampler;
class NiccPfcDeadlockDetector;

/// Storms, spread sampler and deadlock detector of one fabric run.
class NiccPfcRun
{
  public:
    NiccPfcRun();
    ~NiccPfcRun();
    bool SetUp(const NiccScenario& s,
               const std::vector<Ptr<NiccSwitchNode>>& switches,
               const std::vector<std::string>& switchNames,
               const std::vector<Ptr<NiccNetDevice>>& hostDevices,
               const std::vector<std::string>& hostNames,
               Time stop,
               std::string* error);
    /// Fill *r from the run (call before Simulator::Destroy); prints a
    /// warning to stderr when a deadlock was found.
    void Collect(NiccPfcRunResult* r) const;

  private:
    static void OnDrop(NiccPfcRun* run, uint32_t sw, Ptr<const Packet> p, uint32_t inPort, uint8_t reason);

    std::vector<Ptr<NiccSwitchNode>> m_switches;
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, uint64_t> m_drops;
    std::vector<std::string> m_switchNames;
    std::vector<std::string> m_nodeNames; ///< by node id
    std::vector<NiccPfcStormSpec> m_specs;
    std::vector<Ptr<NiccPfcStorm>> m_storms;
    std::unique_ptr<NiccPfcSpreadSampler> m_spread;
    std::unique_ptr<NiccPfcDeadlockDetector> m_deadlock;
    bool m_on{false};
    bool m_watchdog{false};
    std::string m_action;
};

} // namespace ns3

#endif // NICC_SCENARIO_PFC_H
