/*
 * nicc-scenario-faults.cc — the scenario's fault keys (fault, flap,
 * link_loss, loss_rate) parsed and handed to a NiccFaultInjector.
 */
#include "nicc-fault.h"
#include "nicc-scenario.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace ns3
{

namespace
{

struct FaultKeys
{
    std::vector<NiccFaultSpec> faults;
    std::vector<NiccLinkLossSpec> losses;
};

} // namespace

bool
NiccScenario::CheckFaultKeys(std::string* error) const
{
    std::vector<NiccFaultSpec> faults;
    std::vector<NiccLinkLossSpec> losses;
    return NiccParseFaults(Get("fault"), "fault", false, &faults, error) &&
           NiccParseFaults(Get("flap"), "flap", true, &faults, error) &&
           NiccParseLinkLoss(Get("link_loss"), "link_loss", &losses, error);
}

bool
NiccScenario::SetUpFaults(NiccFaultInjector* inj,
                          const std::vector<std::string>& names,
                          const std::vector<Ptr<Node>>& hosts,
                          int64_t* stream,
                          std::string* error) const
{
    FaultKeys k;
    if (!NiccParseFaults(Get("fault"), "fault", false, &k.faults, error) ||
        !NiccParseFaults(Get("flap"), "flap", true, &k.faults, error) ||
        !NiccParseLinkLoss(Get("link_loss"), "link_loss", &k.losses, error))
    {
        return false;
    }
    int64_t used = 0;
    if (!inj->Install(k.faults, k.losses, D("loss_rate"), names, hosts, *stream, &used, error))
    {
        return false;
    }
    *stream += used;
    return true;
}

/// summary.json's "accounting" and "faults" and, with faults, the goodput
/// series fault_throughput.csv (nicc-scenario-output.cc calls it).
bool
NiccFaultSummary(const NiccScenarioResult& r, const std::filesystem::path& dir, nlohmann::json* j)
{
    const NiccLinkLossTotals& l = r.linkLoss;
    (*j)["accounting"] = {
        {"bytes_offered", r.bytesOffered},
        {"bytes_delivered", r.bytesDelivered},
        {"bytes_retransmitted", r.retxBytes},
        {"lost_link_down", {{"packets", l.downPackets}, {"bytes", l.downBytes}}},
        {"lost_corruption", {{"packets", l.corruptionPackets}, {"bytes", l.corruptionBytes}}},
        {"lost_switch_drops_packets", r.drops},
        {"lost_packets_total", l.downPackets + l.corruptionPackets + r.drops},
        {"all_delivered", r.bytesDelivered == r.bytesOffered}};
    if (r.faults.empty())
    {
        return true;
    }
    nlohmann::json list = nlohmann::json::array();
    for (const auto& f : r.faults)
    {
        list.push_back({{"kind", f.kind},
                        {"link", f.link},
                        {"spec", f.spec},
                        {"down_us", f.downUs},
                        {"up_us", f.upUs},
                        {"detect_us", f.detectUs},
                        {"links_matched", f.channels},
                        {"lost_packets", f.lostPackets},
                        {"lost_bytes", f.lostBytes},
                        {"lost_data_packets", f.lostDataPackets},
                        {"lost_data_payload_bytes", f.lostDataPayloadBytes},
                        {"affected_flows", f.affectedFlows},
                        {"measured_flows", f.measuredFlows},
                        {"recovered_flows", f.recoveredFlows},
                        {"recovery_us", {{"p50", f.recoveryP50Us}, {"max", f.recoveryMaxUs}}},
                        {"recovery_after_detect_us",
                         {{"p50", f.recoveryAfterDetectP50Us}, {"max", f.recoveryAfterDetectMaxUs}}}});
    }
    (*j)["faults"] = list;
    std::ofstream csv(dir / "fault_throughput.csv");
    csv.precision(12);
    csv << "time_us,total_gbps,affected_gbps\n";
    const auto& t = r.faultThroughput;
    for (size_t k = 0; k < t.totalGbps.size(); ++k)
    {
        csv << t.startUs + static_cast<double>(k) * t.binUs << ',' << t.totalGbps[k] << ',' << t.affectedGbps[k] << '\n';
    }
    return static_cast<bool>(csv);
}

} // namespace ns3
