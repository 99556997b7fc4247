/*
 * nicc-port-monitor.cc — queue statistics, the `monitor` spec parser and
 * NiccPortMonitor (see the header).
 */
#include "nicc-port-monitor.h"

#include "nicc-hpcc-output.h"
#include "nicc-spool.h"

#include "ns3/nicc-mpi.h"
#include "ns3/nicc-switch-node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>

namespace ns3
{

namespace
{

// Decimal unsigned integer that fits in 32 bits; false on anything else.
bool
ParseU32(const std::string& s, uint32_t* v)
{
    if (s.empty() || s.size() > 10 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        return false;
    }
    const uint64_t x = std::strtoull(s.c_str(), nullptr, 10);
    if (x > UINT32_MAX)
    {
        return false;
    }
    *v = static_cast<uint32_t>(x);
    return true;
}

std::string
Trim(const std::string& s)
{
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
    {
        return "";
    }
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// "leaf0, leaf1, ... (or a node id)" for error messages; at most 8 names.
std::string
SwitchList(const std::vector<NiccMonitorSwitch>& sws)
{
    std::string s;
    for (size_t i = 0; i < sws.size() && i < 8; ++i)
    {
        s += (i ? ", " : "") + sws[i].name + " (node " + std::to_string(sws[i].node) + ")";
    }
    if (sws.size() > 8)
    {
        s += ", ... " + std::to_string(sws.size()) + " switches";
    }
    return s.empty() ? "none" : s;
}

} // namespace

void
NiccQueueStream::Add(int64_t timeNs, uint64_t bytes)
{
    if (m_hist.Count() == 0 || bytes > m_hist.Max())
    {
        m_maxNs = timeNs; // a new maximum: the drain is measured from here
        m_drainNs = -1;
    }
    m_hist.Add(bytes);
    if (m_drainNs < 0 && bytes <= m_drainThreshold)
    {
        m_drainNs = timeNs - m_maxNs;
    }
    m_firstNs = m_firstNs < 0 ? timeNs : m_firstNs;
    m_lastNs = timeNs;
}

NiccQueueStats
NiccQueueStream::Stats() const
{
    NiccQueueStats st;
    st.samples = m_hist.Count();
    if (st.samples == 0)
    {
        return st;
    }
    st.p50Bytes = m_hist.Percentile(0.50);
    st.p95Bytes = m_hist.Percentile(0.95);
    st.p99Bytes = m_hist.Percentile(0.99);
    st.maxBytes = m_hist.Max();
    st.maxTimeNs = m_maxNs;
    st.drainNs = m_drainNs;
    return st;
}

NiccQueueStats
NiccComputeQueueStats(const std::vector<int64_t>& timeNs,
                      const std::vector<uint64_t>& queueBytes,
                      uint64_t drainThresholdBytes)
{
    NiccQueueStream q(drainThresholdBytes);
    const size_t n = std::min(timeNs.size(), queueBytes.size());
    for (size_t i = 0; i < n; ++i)
    {
        q.Add(timeNs[i], queueBytes[i]);
    }
    return q.Stats();
}

bool
NiccParseMonitorSpec(const std::string& spec,
                     const std::vector<NiccMonitorSwitch>& switches,
                     std::vector<NiccMonitorPortId>* out,
                     std::string* error)
{
    out->clear();
    std::vector<std::vector<bool>> taken(switches.size());
    for (size_t s = 0; s < switches.size(); ++s)
    {
        taken[s].assign(switches[s].hostFacing.size(), false);
    }
    auto add = [&](uint32_t s, uint32_t p) {
        if (!taken[s][p])
        {
            taken[s][p] = true;
            out->push_back({s, p});
        }
    };
    size_t pos = 0;
    uint32_t itemNo = 0;
    while (pos <= spec.size())
    {
        const size_t comma = std::min(spec.find(',', pos), spec.size());
        const std::string item = Trim(spec.substr(pos, comma - pos));
        pos = comma + 1;
        ++itemNo;
        const std::string where = "key 'monitor': item " + std::to_string(itemNo) + " '" + item + "': ";
        if (item.empty())
        {
            *error = where + "empty (items are SWITCH:PORT, SWITCH:*, host-facing or all, "
                             "separated by commas)";
            return false;
        }
        if (item == "host-facing" || item == "all")
        {
            for (uint32_t s = 0; s < switches.size(); ++s)
            {
                for (uint32_t p = 0; p < switches[s].hostFacing.size(); ++p)
                {
                    if (item == "all" || switches[s].hostFacing[p])
                    {
                        add(s, p);
                    }
                }
            }
            continue;
        }
        const size_t colon = item.find(':');
        if (colon == std::string::npos)
        {
            *error = where + "expected SWITCH:PORT, SWITCH:*, host-facing or all";
            return false;
        }
        const std::string swField = Trim(item.substr(0, colon));
        const std::string portField = Trim(item.substr(colon + 1));
        int64_t sw = -1;
        for (size_t s = 0; s < switches.size() && sw < 0; ++s)
        {
            if (switches[s].name == swField)
            {
                sw = static_cast<int64_t>(s);
            }
        }
        uint32_t nodeId = 0;
        for (size_t s = 0; s < switches.size() && sw < 0 && ParseU32(swField, &nodeId); ++s)
        {
            if (switches[s].node == nodeId)
            {
                sw = static_cast<int64_t>(s);
            }
        }
        if (sw < 0)
        {
            *error = where + "field SWITCH: no switch named or numbered '" + swField + "' (switches: " +
                     SwitchList(switches) + ")";
            return false;
        }
        const NiccMonitorSwitch& ms = switches[static_cast<size_t>(sw)];
        const uint32_t nPorts = static_cast<uint32_t>(ms.hostFacing.size());
        if (portField == "*")
        {
            for (uint32_t p = 0; p < nPorts; ++p)
            {
                add(static_cast<uint32_t>(sw), p);
            }
            continue;
        }
        uint32_t port = 0;
        if (!ParseU32(portField, &port))
        {
            *error = where + "field PORT: '" + portField + "' is not a port number or *";
            return false;
        }
        if (port >= nPorts)
        {
            *error = where + "field PORT: " + ms.name + " has " + std::to_string(nPorts) + " ports (0.." +
                     std::to_string(nPorts == 0 ? 0 : nPorts - 1) + ")";
            return false;
        }
        add(static_cast<uint32_t>(sw), port);
    }
    return true;
}

NiccPortMonitor::NiccPortMonitor(std::vector<Ptr<NiccNetDevice>> ports,
                                 std::vector<NiccPortSeries>* series,
                                 Time start,
                                 Time stop,
                                 Time period,
                                 std::ostream* queues,
                                 std::ostream* qlen)
    : m_ports(std::move(ports)),
      m_series(series),
      m_start(start),
      m_stop(stop),
      m_period(period),
      m_queues(queues),
      m_qlen(qlen)
{
    m_qlenOrder.resize(m_ports.size());
    std::iota(m_qlenOrder.begin(), m_qlenOrder.end(), 0);
    std::sort(m_qlenOrder.begin(), m_qlenOrder.end(), [this](size_t a, size_t b) {
        const auto& x = (*m_series)[a];
        const auto& y = (*m_series)[b];
        return x.node != y.node ? x.node < y.node : x.port < y.port;
    });
    m_qlenCount.resize(m_ports.size());
}

void
NiccPortMonitor::Start()
{
    if (m_ports.empty())
    {
        return;
    }
    Simulator::Schedule(m_start, &NiccPortMonitor::Sample, this);
    if (m_qlen)
    {
        Simulator::Schedule(m_start, &NiccPortMonitor::SampleQlen, this);
    }
}

void
NiccPortMonitor::Sample()
{
    const Time now = Simulator::Now();
    const std::vector<uint64_t>& queue = QueueBytes();
    for (size_t i = 0; i < m_ports.size(); ++i)
    {
        NiccPortSeries& row = (*m_series)[i];
        const uint64_t bytes = queue[i];
        row.queue.Add(now.GetNanoSeconds(), bytes);
        if (m_queues)
        {
            // queues.csv: long format, one row per (sample, port), in time order.
            *m_queues << now.GetNanoSeconds() << ',' << row.switchName << ',' << row.port << ',' << bytes << '\n';
        }
    }
    if (m_stop.IsZero() || now + m_period <= m_stop)
    {
        Simulator::Schedule(m_period, &NiccPortMonitor::Sample, this);
    }
}

const std::vector<uint64_t>&
NiccPortMonitor::QueueBytes()
{
    // Under MPI a port's queue is known to its switch's rank: the sum over
    // the ranks (every rank samples at the same times) gives each rank every
    // port's, so that every rank keeps the same statistics.
    m_queueBytes.resize(m_ports.size());
    for (size_t i = 0; i < m_ports.size(); ++i)
    {
        const bool mine = m_ports[i]->GetNode()->GetSystemId() == NiccMpi::Rank();
        m_queueBytes[i] = mine ? m_ports[i]->GetTotalQueueBytes() : 0;
    }
    NiccMpi::SumAll(&m_queueBytes);
    return m_queueBytes;
}

void
NiccPortMonitor::SampleQlen()
{
    // As third.cc's monitor_buffer: count every port, dump on a multiple of
    // the dump interval, go on while now < end (so the last sample is the
    // first at or after the end).
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const std::vector<uint64_t>& queue = QueueBytes();
    for (size_t i = 0; i < m_ports.size(); ++i)
    {
        const uint64_t bin = queue[i] / QLEN_BIN_BYTES;
        std::vector<uint32_t>& c = m_qlenCount[i];
        if (c.size() <= bin)
        {
            c.resize(bin + 1, 0);
        }
        ++c[bin];
    }
    m_lastQlenNs = now;
    if (now % QLEN_DUMP_NS == 0)
    {
        DumpQlen(now);
    }
    if (m_stop.IsZero() || now < m_stop.GetNanoSeconds())
    {
        Simulator::Schedule(NanoSeconds(QLEN_SAMPLE_NS), &NiccPortMonitor::SampleQlen, this);
    }
}

void
NiccPortMonitor::DumpQlen(int64_t nowNs)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "time: %" PRId64 "\n", nowNs);
    *m_qlen << buf;
    for (size_t i : m_qlenOrder)
    {
        // HPCC's port numbers are ns-3 device indices, 1-based (device 0 is
        // the loopback there); nicc switch port p is its device p.
        std::snprintf(buf, sizeof(buf), "%u %u", (*m_series)[i].node, (*m_series)[i].port + 1);
        *m_qlen << buf;
        for (uint32_t c : m_qlenCount[i])
        {
            std::snprintf(buf, sizeof(buf), " %u", c);
            *m_qlen << buf;
        }
        *m_qlen << '\n';
    }
    m_lastDumpNs = nowNs;
}

void
NiccPortMonitor::Finish()
{
    if (m_qlen && m_lastQlenNs >= 0 && m_lastDumpNs != m_lastQlenNs)
    {
        DumpQlen(m_lastQlenNs);
    }
}

void
NiccPortMonitor::WatchPfc(Ptr<NiccNetDevice> dev, NiccPfcLog* log)
{
    Ptr<NiccNetDevice> peer = dev->GetPeer();
    NiccPfcEvent proto{};
    proto.node = dev->GetNode()->GetId();
    proto.nodeType = DynamicCast<NiccSwitchNode>(dev->GetNode()) ? 1 : 0;
    proto.port = dev->GetIfIndex();
    proto.fromNode = peer ? peer->GetNode()->GetId() : UINT32_MAX;
    proto.fromPort = peer ? peer->GetIfIndex() : UINT32_MAX;
    m_pfcSinks.push_back(PfcSink{log, proto});
    dev->TraceConnectWithoutContext("PfcRx", MakeCallback(&PfcSink::OnPfc, &m_pfcSinks.back()));
}

void
NiccPortMonitor::PfcSink::OnPfc(uint8_t cls, uint16_t quanta)
{
    NiccPfcEvent e = proto;
    e.timeNs = Simulator::Now().GetNanoSeconds();
    e.priority = cls;
    e.pause = quanta > 0;
    log->Add(e);
}

void
NiccPfcLog::Add(const NiccPfcEvent& e)
{
    ++frames;
    if (txt)
    {
        NiccWriteHpccPfcRow(*txt, e);
        NiccWritePfcCsvRow(*csv, e);
    }
    else
    {
        kept.push_back(e);
    }
}

bool
NiccSetUpPortMonitor(const NiccMonitorConfig& cfg,
                     const std::vector<Ptr<NiccSwitchNode>>& switches,
                     const std::vector<std::string>& names,
                     std::vector<NiccPortSeries>* series,
                     NiccSpool* spool,
                     std::unique_ptr<NiccPortMonitor>* out,
                     std::string* error)
{
    std::vector<NiccMonitorSwitch> sws;
    for (size_t k = 0; k < switches.size(); ++k)
    {
        NiccMonitorSwitch m{switches[k]->GetId(), k < names.size() ? names[k] : "", {}};
        for (uint32_t p = 0; p < switches[k]->GetNPorts(); ++p)
        {
            Ptr<NiccNetDevice> peer = switches[k]->GetPort(p)->GetPeer();
            m.hostFacing.push_back(peer && !DynamicCast<NiccSwitchNode>(peer->GetNode()));
        }
        sws.push_back(m);
    }
    std::vector<NiccMonitorPortId> ids;
    if (!cfg.spec.empty() && !NiccParseMonitorSpec(cfg.spec, sws, &ids, error))
    {
        return false;
    }
    if (cfg.qlen && ids.empty())
    {
        *error = "key 'qlen_mon_file': no port is monitored: set key 'monitor' (e.g. monitor=all, "
                 "as the HPCC simulator, or monitor=host-facing)";
        return false;
    }
    if (!cfg.stop.IsZero() && cfg.stop < cfg.start)
    {
        *error = "key 'monitor_stop_us': before monitor_start_us (0 = until the end of the run)";
        return false;
    }
    series->clear();
    std::vector<Ptr<NiccNetDevice>> devs;
    for (const auto& id : ids)
    {
        NiccPortSeries row;
        row.node = sws[id.sw].node;
        row.switchName = sws[id.sw].name;
        row.port = id.port;
        row.queue = NiccQueueStream(cfg.drainBytes);
        series->push_back(row);
        devs.push_back(switches[id.sw]->GetPort(id.port));
    }
    std::ostream* queues = nullptr;
    std::ostream* qlen = nullptr;
    if (spool && !ids.empty() && NiccMpi::Rank() == 0) // under MPI rank 0 writes
    {
        if (!(queues = spool->Open(NICC_QUEUES_CSV, error)))
        {
            return false;
        }
        *queues << "time_ns,switch,port,queue_bytes\n";
        if (cfg.qlen && !(qlen = spool->Open(NICC_QLEN_SPOOL, error)))
        {
            return false;
        }
    }
    *out = std::make_unique<NiccPortMonitor>(devs, series, cfg.start, cfg.stop, cfg.period, queues, qlen);
    return true;
}

} // namespace ns3
