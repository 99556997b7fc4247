/*
 * nicc-switch-watchdog.cc — NiccSwitchNode's side of the PFC watchdog
 * (NiccPfcWatchdog, ../pfc): turning it on and off (Attribute PfcWatchdog),
 * and the flush of a storm-stuck queue it orders: each packet of the class
 * dropped (DROP_PFC_WATCHDOG, its buffer released), then the paused
 * ingresses checked for XON.
 */
#include "nicc-switch-node.h"

namespace ns3
{

void
NiccSwitchNode::SetPfcWatchdog(bool on)
{
    m_pfcWdOn = on;
    if (on)
    {
        m_pfcWd.Start(this);
    }
    else
    {
        m_pfcWd.Stop();
    }
}

void
NiccSwitchNode::WatchdogDropOne(Ptr<Packet> p, uint32_t meta)
{
    m_mmu->Release(meta & META_PORT_MASK, m_flushCls, p->GetSize());
    ++m_drops;
    m_pfcWd.CountDrop(p->GetSize());
    m_dropTrace(p, meta & META_PORT_MASK, DROP_PFC_WATCHDOG);
}

void
NiccSwitchNode::WatchdogFlush(uint32_t port, uint8_t cls)
{
    m_flushPort = port;
    m_flushCls = cls;
    m_ports[port]->FlushQueue(cls, MakeCallback(&NiccSwitchNode::WatchdogDropOne, this));
    if (!m_mmu->GetPausedList().empty())
    {
        CheckResumes();
    }
}

} // namespace ns3
