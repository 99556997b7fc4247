/*
 * nicc-switch-trim.cc — NiccSwitchNode's packet trimming (UEC 1.0 / NDP
 * style): instead of queueing a DATA packet past the trim threshold, or
 * dropping it for lack of buffer, the switch forwards its header alone in a
 * high-priority class so the receiver learns at once which PSN to ask for
 * again (docs/sim-fabric.md, "Packet trimming").
 *
 * The trimmed packet keeps type, src, dst, sport (the entropy value), dport,
 * qpn, psn, aux (send time), opFlags and payloadSize (the original length:
 * the receiver knows what is missing); it loses its payload, INT stack and
 * PINT code, gets the trimmed flag and the trim class as its priority, and
 * is zero-padded to TrimSize bytes. It is never trimmed again downstream.
 */
#include "nicc-rocev2-header.h"
#include "nicc-switch-node.h"

namespace ns3
{

bool
NiccSwitchNode::ShouldTrim(uint32_t inPort, Ptr<NiccNetDevice> out, uint8_t cls, uint32_t size) const
{
    if (m_trimThreshold > 0 && out->GetQueueBytes(cls) + size > m_trimThreshold)
    {
        return true;
    }
    const NiccSwitchMmu::Admission a = m_mmu->Peek(inPort, cls, size);
    return a == NiccSwitchMmu::DROP || a == NiccSwitchMmu::DROP_HEADROOM;
}

void
NiccSwitchNode::TrimAndForward(Ptr<Packet> p, uint32_t inPort, uint32_t outPort, uint8_t cls)
{
    Ptr<NiccNetDevice> out = m_ports[outPort];
    const uint64_t qlen = out->GetQueueBytes(cls);
    NiccRoceHeader h;
    p->PeekHeader(h);
    const uint8_t nClasses = static_cast<uint8_t>(out->GetNumClasses());
    const uint8_t trimCls = m_trimClass < nClasses ? m_trimClass : nClasses - 1;
    h.SetTrimmed(true);
    h.SetPriority(trimCls);
    h.DisableInt();
    h.ClearPint();
    Ptr<Packet> t = Create<Packet>(m_trimSize - NiccRoceHeader::BASE_SIZE);
    t->AddHeader(h);
    // No ECT / INT / PINT bits in the meta word: the header is not marked or stamped.
    if (!AdmitAndEnqueue(t, inPort, outPort, trimCls, inPort & META_PORT_MASK, true))
    {
        return; // counted as a drop and, apart, in GetTrimDrops
    }
    ++m_trims;
    m_trimTrace(p, inPort, outPort, qlen);
}

} // namespace ns3
