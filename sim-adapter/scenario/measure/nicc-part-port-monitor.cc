/*
 * nicc-part-port-monitor.cc — the port-monitor part (nicc-scenario-part.h):
 * the egress queues of the ports of key `monitor` sampled every
 * monitor_period_ns from monitor_start_us (in a fabric run: from the
 * traffic's start) and every PFC frame received (NiccPortMonitor,
 * nicc-port-monitor.h), the HPCC qlen text with qlen_mon_file; in the
 * output, summary.json "queue_monitor" and queues.csv (every scenario: the
 * one-switch ones set the monitor up themselves).
 */
#include "nicc-fabric-run.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

namespace ns3
{

namespace
{

// Per monitored port: queue statistics (NiccComputeQueueStats).
nlohmann::json
MonitorJson(const NiccScenario& s, const NiccScenarioResult& r)
{
    const uint64_t drain = static_cast<uint64_t>(std::strtod(s.Get("monitor_drain_bytes").c_str(), nullptr));
    nlohmann::json m;
    m["spec"] = s.Get("monitor");
    m["period_ns"] = static_cast<uint64_t>(std::strtod(s.Get("monitor_period_ns").c_str(), nullptr));
    m["drain_threshold_bytes"] = drain;
    m["meaning"] = "per port: egress queue bytes (all classes) sampled every period_ns in the window; "
                   "nearest-rank percentiles from a log histogram (reported >= exact, by under 0.4%); "
                   "max, max_time_ns and drain exact; max_time_ns = first sample at the max; drain_time_ns = "
                   "first sample at or below drain_threshold_bytes at or after the peak, minus "
                   "max_time_ns (null: not drained in the window)";
    m["ports"] = nlohmann::json::object();
    for (const auto& p : r.monitoredPorts)
    {
        const NiccQueueStats st = p.queue.Stats();
        nlohmann::json q = {{"switch", p.switchName},
                            {"node", p.node},
                            {"port", p.port},
                            {"samples", st.samples},
                            {"p50", st.p50Bytes},
                            {"p95", st.p95Bytes},
                            {"p99", st.p99Bytes},
                            {"max", st.maxBytes},
                            {"max_time_ns", st.maxTimeNs},
                            {"first_sample_ns", p.queue.FirstNs()},
                            {"last_sample_ns", p.queue.LastNs()}};
        q["drain_time_ns"] = st.drainNs >= 0 ? nlohmann::json(st.drainNs) : nlohmann::json(nullptr);
        m["ports"][p.switchName + ":" + std::to_string(p.port)] = q;
    }
    return m;
}

class PortMonitorPart : public NiccScenarioPart
{
  public:
    const char* Name() const override { return "port-monitor"; }

    bool Install(NiccFabricRun& run, std::string* error) override
    {
        NiccMonitorConfig config = run.MonitorConfig();
        if (config.start == Time(0))
        {
            config.start = run.trafficStart; // as the samplers: not through an idle warm-up
        }
        NiccScenarioResult* r = run.r;
        if (!NiccSetUpPortMonitor(config, run.fabric.GetSwitches(), run.switchNames, &r->monitoredPorts,
                                  r->spool.get(), &m_monitor, error))
        {
            return false;
        }
        for (const auto& dev : run.allDevices)
        {
            m_monitor->WatchPfc(dev, &r->pfcLog);
        }
        m_monitor->Start();
        return true;
    }

    void Finish(NiccFabricRun&) override { m_monitor->Finish(); }

    bool Write(const NiccScenario& s,
               const NiccScenarioResult& r,
               const std::filesystem::path& dir,
               nlohmann::json* summary) const override
    {
        if (r.monitoredPorts.empty())
        {
            return true;
        }
        (*summary)["queue_monitor"] = MonitorJson(s, r);
        // queues.csv was streamed into the spool as sampled.
        std::string error;
        return !r.spool || !r.spool->Has(NICC_QUEUES_CSV) ||
               r.spool->Deliver(NICC_QUEUES_CSV, dir / NICC_QUEUES_CSV, &error);
    }

  private:
    std::unique_ptr<NiccPortMonitor> m_monitor;
};

} // namespace

std::unique_ptr<NiccScenarioPart>
NiccMakePortMonitorPart()
{
    return std::make_unique<PortMonitorPart>();
}

} // namespace ns3
