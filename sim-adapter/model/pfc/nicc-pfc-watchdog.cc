/*
 * nicc-pfc-watchdog.cc — NiccPfcWatchdog: the per-switch poll that detects
 * stormed lossless queues, applies drop / forward and restores them.
 */
#include "nicc-pfc-watchdog.h"

#include "nicc-switch-node.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccPfcWatchdog");

void
NiccPfcWatchdog::Start(NiccSwitchNode* sw)
{
    m_sw = sw;
    if (m_running)
    {
        return;
    }
    m_running = true;
    m_event = Simulator::Schedule(poll, &NiccPfcWatchdog::Poll, this);
}

void
NiccPfcWatchdog::Stop()
{
    m_running = false;
    m_event.Cancel();
    m_check.Cancel();
}

void
NiccPfcWatchdog::Record(uint32_t port, uint8_t cls, bool storm)
{
    if (m_actions.size() < MAX_RECORDS)
    {
        m_actions.push_back(ActionRecord{Simulator::Now(), port, cls, storm});
    }
}

void
NiccPfcWatchdog::Poll()
{
    Scan();
    if (m_running)
    {
        m_event = Simulator::Schedule(poll, &NiccPfcWatchdog::Poll, this);
    }
}

void
NiccPfcWatchdog::Scan()
{
    const Time now = Simulator::Now();
    const uint32_t nPorts = m_sw->GetNPorts();
    if (m_queues.size() < nPorts * 8u)
    {
        m_queues.resize(nPorts * 8u);
    }
    Time next = Time::Max(); // earliest deadline of a queue being timed
    for (uint32_t port = 0; port < nPorts; ++port)
    {
        Ptr<NiccNetDevice> dev = m_sw->GetPort(port);
        const uint32_t nClasses = dev->GetNumClasses();
        for (uint8_t cls = 1; cls < nClasses; ++cls)
        {
            Queue& q = m_queues[port * 8u + cls];
            if (q.storm)
            {
                // Quiet: no XOFF arrived, and no pause was in force, for `restore`.
                const Time last = std::max(dev->GetLastPauseRxTime(cls), dev->GetPausedUntil(cls));
                if (last > now)
                {
                    continue; // a pause in force (until resume or expiry)
                }
                if (now - last >= restore)
                {
                    q.storm = false;
                    ++m_restorations;
                    m_closedStormTime += now - q.since;
                    dev->SetIgnorePause(cls, false);
                    Record(port, cls, false);
                    NS_LOG_INFO("switch " << m_sw->GetId() << " port " << port << " class " << +cls
                                          << ": PFC storm restored at " << now.As(Time::US));
                }
                else
                {
                    next = std::min(next, last + restore);
                }
                continue;
            }
            // Stopped: paused with packets waiting; since the later of the
            // pause's start and the class's last transmission.
            if (!dev->IsPauseReceived(cls) || dev->GetQueuePackets(cls) == 0)
            {
                continue;
            }
            const Time since = std::max(dev->GetPauseStart(cls), dev->GetLastClassTxTime(cls));
            if (now - since >= detect)
            {
                q.storm = true;
                q.since = now;
                ++m_storms;
                Record(port, cls, true);
                NS_LOG_INFO("switch " << m_sw->GetId() << " port " << port << " class " << +cls
                                      << ": PFC storm detected at " << now.As(Time::US));
                dev->SetIgnorePause(cls, true);
                if (action == DROP)
                {
                    m_sw->WatchdogFlush(port, cls);
                }
            }
            else
            {
                next = std::min(next, since + detect);
            }
        }
    }
    // A deadline before the next poll gets its own check, so detection and
    // restoration happen at their time, not rounded up to the poll.
    const Time nextPoll = m_event.IsRunning() ? Simulator::GetDelayLeft(m_event) + now : now + poll;
    if (next < nextPoll && next > now)
    {
        m_check.Cancel();
        m_check = Simulator::Schedule(next - now, &NiccPfcWatchdog::Scan, this);
    }
}

Time
NiccPfcWatchdog::GetStormTime() const
{
    Time t = m_closedStormTime;
    const Time now = Simulator::Now();
    for (const Queue& q : m_queues)
    {
        if (q.storm)
        {
            t += now - q.since;
        }
    }
    return t;
}

uint32_t
NiccPfcWatchdog::GetStormedQueues() const
{
    uint32_t n = 0;
    for (const Queue& q : m_queues)
    {
        n += q.storm ? 1 : 0;
    }
    return n;
}

} // namespace ns3
