/*
 * nicc-scenario-pfc.cc — pfc_storm parsing, the PFC storm / watchdog /
 * deadlock set-up of a fabric run, and its outputs (summary.json
 * "pfc_storm", pfc_spread.csv).
 */
#include "nicc-scenario-pfc.h"

#include "nicc-scenario-mpi.h"
#include "nicc-scenario.h"

#include "ns3/nicc-mpi.h"
#include "ns3/nicc-pfc-deadlock.h"
#include "ns3/nicc-pfc-storm.h"

#include "ns3/simulator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ns3
{

namespace
{
bool
ParseUs(const std::string& text, double* out)
{
    if (text.empty())
    {
        return false;
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v) || v < 0 || v > 1e9)
    {
        return false;
    }
    *out = v;
    return true;
}
} // namespace

bool
NiccParsePfcStorms(const std::string& value, std::vector<NiccPfcStormSpec>* out, std::string* error)
{
    out->clear();
    if (value.empty())
    {
        return true;
    }
    std::stringstream ss(value);
    std::string item;
    while (std::getline(ss, item, ';'))
    {
        const std::string where = "key 'pfc_storm': entry '" + item + "': ";
        const size_t at = item.find('@');
        if (at == std::string::npos || at == 0)
        {
            *error = where + "expected HOST@START_US[,END_US]";
            return false;
        }
        NiccPfcStormSpec spec;
        spec.host = item.substr(0, at);
        const std::string times = item.substr(at + 1);
        const size_t comma = times.find(',');
        if (!ParseUs(times.substr(0, comma), &spec.startUs))
        {
            *error = where + "START_US '" + times.substr(0, comma) + "' is not a time in us (0..1e9)";
            return false;
        }
        if (comma != std::string::npos)
        {
            if (!ParseUs(times.substr(comma + 1), &spec.endUs))
            {
                *error = where + "END_US '" + times.substr(comma + 1) + "' is not a time in us (0..1e9)";
                return false;
            }
            if (spec.endUs <= spec.startUs)
            {
                *error = where + "END_US must be after START_US";
                return false;
            }
        }
        out->push_back(spec);
    }
    return true;
}

void
NiccPfcRun::OnDrop(NiccPfcRun* run, uint32_t sw, Ptr<const Packet> /*p*/, uint32_t inPort, uint8_t reason)
{
    ++run->m_drops[{sw, inPort, reason}];
}

NiccPfcRun::NiccPfcRun() = default;
NiccPfcRun::~NiccPfcRun() = default;

bool
NiccPfcRun::SetUp(const NiccScenario& s,
                  const std::vector<Ptr<NiccSwitchNode>>& switches,
                  const std::vector<std::string>& switchNames,
                  const std::vector<Ptr<NiccNetDevice>>& hostDevices,
                  const std::vector<std::string>& hostNames,
                  Time stop,
                  std::string* error)
{
    m_switches = switches;
    m_switchNames = switchNames;
    for (size_t i = 0; i < switches.size() + hostDevices.size(); ++i)
    {
        const bool sw = i < switches.size();
        const uint32_t id = sw ? switches[i]->GetId()
                               : hostDevices[i - switches.size()]->GetNode()->GetId();
        if (m_nodeNames.size() <= id)
        {
            m_nodeNames.resize(id + 1);
        }
        m_nodeNames[id] = sw ? switchNames[i] : hostNames[i - switches.size()];
    }
    if (!NiccParsePfcStorms(s.Get("pfc_storm"), &m_specs, error))
    {
        return false;
    }
    m_watchdog = s.Get("pfc_watchdog") == "true" || s.Get("pfc_watchdog") == "1";
    m_action = s.Get("pfc_watchdog_action");
    const double deadlockUs = std::stod(s.Get("pfc_deadlock_check_us"));
    m_on = !m_specs.empty() || m_watchdog || deadlockUs > 0;
    if (!m_on)
    {
        return true; // nothing scheduled: results of runs without these keys unchanged
    }
    for (uint32_t k = 0; k < switches.size(); ++k)
    {
        switches[k]->TraceConnectWithoutContext("Drop", MakeBoundCallback(&NiccPfcRun::OnDrop, this, k));
    }
    for (const NiccPfcStormSpec& spec : m_specs)
    {
        int64_t h = -1;
        for (size_t i = 0; i < hostNames.size(); ++i)
        {
            h = hostNames[i] == spec.host ? static_cast<int64_t>(i) : h;
        }
        if (h < 0 && spec.host.find_first_not_of("0123456789") == std::string::npos &&
            spec.host.size() < 10)
        {
            h = std::stoll(spec.host);
            h = h < static_cast<int64_t>(hostDevices.size()) ? h : -1;
        }
        if (h < 0)
        {
            *error = "key 'pfc_storm': host '" + spec.host + "' is neither a host index (0.." +
                     std::to_string(hostDevices.size() - 1) + ") nor a host name (e.g. " +
                     (hostNames.empty() ? std::string("host0") : hostNames[0]) + ")";
            return false;
        }
        Ptr<NiccPfcStorm> storm = CreateObject<NiccPfcStorm>();
        if (hostDevices[h]->GetNode()->GetSystemId() == NiccMpi::Rank()) // MPI: the host's rank only
        {
            storm->Install(hostDevices[h],
                           MicroSeconds(spec.startUs),
                           spec.endUs < 0 ? Time(-1) : MicroSeconds(spec.endUs));
        }
        m_storms.push_back(storm);
    }
    if (!m_specs.empty() || m_watchdog)
    {
        m_spread = std::make_unique<NiccPfcSpreadSampler>();
        const Time period = MicroSeconds(std::stod(s.Get("pfc_spread_sample_us")));
        m_spread->Start(switches, hostDevices, period, period, stop);
    }
    if (deadlockUs > 0)
    {
        m_deadlock = std::make_unique<NiccPfcDeadlockDetector>();
        m_deadlock->Start(switches, switchNames, MicroSeconds(deadlockUs), stop);
    }
    return true;
}

void
NiccPfcRun::Collect(NiccPfcRunResult* r) const
{
    *r = NiccPfcRunResult{};
    r->on = m_on;
    if (!m_on)
    {
        return;
    }
    // Under MPI a storm, a switch's watchdog and its drops live on their
    // node's rank (zero on the others): sums and every rank's records go to
    // rank 0, in the order of one process.
    std::vector<uint64_t> sums;
    for (const auto& storm : m_storms)
    {
        sums.insert(sums.end(), {storm->GetXoffSent(), storm->GetHeldBytes(), storm->GetPeakHeldBytes()});
    }
    struct ActionRec
    {
        int64_t atNs;
        uint32_t sw;
        uint32_t port;
        uint32_t cls;
        uint32_t storm;
    };
    std::vector<uint8_t> actions;
    for (uint32_t k = 0; k < m_switches.size(); ++k)
    {
        const NiccPfcWatchdog& wd = m_switches[k]->GetPfcWatchdog();
        sums.insert(sums.end(), {wd.GetStormsDetected(), wd.GetRestorations(), wd.GetDroppedPackets(),
                                 wd.GetDroppedBytes(), static_cast<uint64_t>(wd.GetStormTime().GetNanoSeconds())});
        for (const NiccPfcWatchdog::ActionRecord& a : wd.GetActions())
        {
            NiccMpiAppend(&actions, ActionRec{a.at.GetNanoSeconds(), k, a.port, a.cls, a.storm ? 1u : 0u});
        }
    }
    struct DropRec
    {
        uint32_t sw;
        uint32_t port;
        uint64_t reason;
        uint64_t n;
    };
    std::vector<uint8_t> drops;
    for (const auto& [key, n] : m_drops)
    {
        NiccMpiAppend(&drops, DropRec{std::get<0>(key), std::get<1>(key), std::get<2>(key), n});
    }
    NiccMpi::SumToRoot(&sums);
    actions = NiccMpi::GatherToRoot(actions);
    drops = NiccMpi::GatherToRoot(drops);
    for (size_t i = 0; i < m_storms.size(); ++i)
    {
        r->storms.push_back({m_specs[i].host, m_specs[i].startUs, m_specs[i].endUs, sums[3 * i], sums[3 * i + 1],
                             sums[3 * i + 2]});
    }
    r->watchdog = m_watchdog;
    r->watchdogAction = m_action;
    for (size_t k = 0, at = 3 * m_storms.size(); k < m_switches.size(); ++k, at += 5)
    {
        r->stormsDetected += sums[at];
        r->restorations += sums[at + 1];
        r->droppedPackets += sums[at + 2];
        r->droppedBytes += sums[at + 3];
        r->stormTimeUs += static_cast<double>(sums[at + 4]) / 1e3;
    }
    std::vector<ActionRec> recs;
    for (size_t at = 0; at + sizeof(ActionRec) <= actions.size(); at += sizeof(ActionRec))
    {
        recs.push_back(NiccMpiTake<ActionRec>(&actions[at]));
    }
    std::stable_sort(recs.begin(), recs.end(), [](const ActionRec& a, const ActionRec& b) { return a.sw < b.sw; });
    for (const ActionRec& a : recs)
    {
        Ptr<NiccNetDevice> peer = m_switches[a.sw]->GetPort(a.port)->GetPeer();
        const uint32_t id = peer ? peer->GetNode()->GetId() : 0;
        r->actions.push_back({a.atNs / 1e3,
                              m_switchNames[a.sw] + ":" + std::to_string(a.port),
                              id < m_nodeNames.size() ? m_nodeNames[id] : "",
                              a.cls,
                              a.storm ? "storm" : "restore"});
    }
    std::map<std::tuple<uint32_t, uint32_t, uint8_t>, uint64_t> allDrops;
    for (size_t at = 0; at + sizeof(DropRec) <= drops.size(); at += sizeof(DropRec))
    {
        const DropRec d = NiccMpiTake<DropRec>(&drops[at]);
        allDrops[{d.sw, d.port, static_cast<uint8_t>(d.reason)}] += d.n;
    }
    static const char* const reasons[] = {"no_route", "buffer", "headroom_overflow",
                                          "trim_no_buffer", "pfc_watchdog"};
    for (const auto& [key, n] : allDrops)
    {
        const auto [sw, port, reason] = key;
        r->drops.push_back({m_switchNames[sw] + ":" + std::to_string(port),
                            reason < 5 ? reasons[reason] : std::to_string(reason), n});
    }
    std::sort(r->actions.begin(), r->actions.end(),
              [](const auto& a, const auto& b) { return a.atUs < b.atUs; });
    if (m_spread)
    {
        r->samplePeriodUs = m_spread->GetPeriod().GetNanoSeconds() / 1e3;
        for (const NiccPfcSpreadSample& s : m_spread->GetSamples())
        {
            r->sampleUs.push_back(s.at.GetNanoSeconds() / 1e3);
            r->pausedPorts.push_back(s.pausedSwitchPorts);
            r->pausedHosts.push_back(s.pausedHosts);
            r->stormedQueues.push_back(s.stormedQueues);
            r->rxGbps.push_back(static_cast<double>(s.rxPayloadBytes) * 8.0 /
                                (r->samplePeriodUs * 1e3));
        }
        r->peakPorts = m_spread->GetPeakSwitchPorts();
        r->peakHosts = m_spread->GetPeakHosts();
        const double t0 = m_specs.empty() ? 0.0 : m_specs.front().startUs;
        if (!m_spread->GetPeakPortsTime().IsNegative())
        {
            r->timeToPeakPortsUs = m_spread->GetPeakPortsTime().GetNanoSeconds() / 1e3 - t0;
        }
        if (!m_spread->GetPeakHostsTime().IsNegative())
        {
            r->timeToPeakHostsUs = m_spread->GetPeakHostsTime().GetNanoSeconds() / 1e3 - t0;
        }
    }
    if (m_deadlock)
    {
        r->deadlockCheck = true;
        r->deadlockChecks = m_deadlock->GetChecks();
        r->deadlockDetections = m_deadlock->GetDetections();
        const NiccPfcDeadlock& f = m_deadlock->GetFirst();
        if (!f.at.IsNegative())
        {
            r->deadlockFirstUs = f.at.GetNanoSeconds() / 1e3;
            r->deadlockPorts = f.ports;
            std::cerr << "nicc-sim: warning: PFC deadlock (cyclic buffer dependency) at "
                      << r->deadlockFirstUs << " us:";
            for (const std::string& p : f.ports)
            {
                std::cerr << ' ' << p;
            }
            std::cerr << '\n';
        }
    }
}

bool
NiccWritePfcOutputs(const NiccPfcRunResult& r, const std::filesystem::path& dir, nlohmann::json* j)
{
    if (!r.on)
    {
        return true;
    }
    nlohmann::json p;
    nlohmann::json storms = nlohmann::json::array();
    for (const auto& s : r.storms)
    {
        storms.push_back({{"host", s.host},
                          {"start_us", s.startUs},
                          {"end_us", s.endUs < 0 ? nlohmann::json(nullptr) : nlohmann::json(s.endUs)},
                          {"xoff_sent", s.xoffSent},
                          {"held_bytes_at_end", s.heldBytesAtEnd},
                          {"peak_held_bytes", s.peakHeldBytes}});
    }
    p["storms"] = storms;
    nlohmann::json actions = nlohmann::json::array();
    for (const auto& a : r.actions)
    {
        actions.push_back(
            {{"at_us", a.atUs}, {"port", a.port}, {"peer", a.peer}, {"class", a.cls}, {"action", a.what}});
    }
    p["watchdog"] = {{"on", r.watchdog},
                     {"action", r.watchdogAction},
                     {"storms_detected", r.stormsDetected},
                     {"restorations", r.restorations},
                     {"dropped_packets", r.droppedPackets},
                     {"dropped_bytes", r.droppedBytes},
                     {"storm_time_us", r.stormTimeUs},
                     {"actions", actions}};
    auto orNull = [](double v) { return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); };
    p["spread"] = {{"sample_us", r.samplePeriodUs},
                   {"peak_paused_switch_ports", r.peakPorts},
                   {"peak_paused_hosts", r.peakHosts},
                   {"time_to_peak_ports_us", orNull(r.timeToPeakPortsUs)},
                   {"time_to_peak_hosts_us", orNull(r.timeToPeakHostsUs)},
                   {"file", "pfc_spread.csv"}};
    nlohmann::json drops = nlohmann::json::array();
    for (const auto& d : r.drops)
    {
        drops.push_back({{"ingress", d.port}, {"reason", d.reason}, {"packets", d.packets}});
    }
    p["switch_drops"] = drops;
    p["deadlock"] = {{"checked", r.deadlockCheck},
                     {"checks", r.deadlockChecks},
                     {"detections", r.deadlockDetections},
                     {"first_at_us", orNull(r.deadlockFirstUs)},
                     {"cycle", r.deadlockPorts}};
    (*j)["pfc_storm"] = p;
    std::ofstream csv(dir / "pfc_spread.csv");
    csv << "time_us,paused_switch_ports,paused_hosts,stormed_queues,rx_gbps\n";
    for (size_t i = 0; i < r.sampleUs.size(); ++i)
    {
        csv << r.sampleUs[i] << ',' << r.pausedPorts[i] << ',' << r.pausedHosts[i] << ','
            << r.stormedQueues[i] << ',' << r.rxGbps[i] << '\n';
    }
    return static_cast<bool>(csv);
}

} // namespace ns3
