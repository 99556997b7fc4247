/*
 * nicc-nic-typeid.cc — NiccNic's TypeId: the Attributes of NiccNicConfig
 * (nicc-nic-config.cc lists them) and the NIC's trace sources.
 */
#include "nicc-nic.h"

#include "ns3/trace-source-accessor.h"

namespace ns3
{

NiccNicConfig*
NiccNic::ConfigOf(const ObjectBase* object)
{
    const NiccNic* nic = dynamic_cast<const NiccNic*>(object);
    return nic ? &const_cast<NiccNic*>(nic)->m_config : nullptr;
}

TypeId
NiccNic::GetTypeId()
{
    static TypeId tid =
        NiccNicConfig::AddAttributes(TypeId("ns3::NiccNic")
                                         .SetParent<Object>()
                                         .SetGroupName("Nicc")
                                         .AddConstructor<NiccNic>(),
                                     &NiccNic::ConfigOf)
            .AddTraceSource("FlowComplete",
                            "The last byte of a QP's message was acknowledged: (flow id, "
                            "qpn, bytes, FCT).",
                            MakeTraceSourceAccessor(&NiccNic::m_flowCompleteTrace),
                            "ns3::NiccNic::FlowCompleteTracedCallback")
            .AddTraceSource("Rate",
                            "The engine set a QP's rate: (qpn, kb/s).",
                            MakeTraceSourceAccessor(&NiccNic::m_rateTrace),
                            "ns3::NiccNic::QpValueTracedCallback")
            .AddTraceSource("Window",
                            "The engine set a QP's window: (qpn, bytes).",
                            MakeTraceSourceAccessor(&NiccNic::m_windowTrace),
                            "ns3::NiccNic::QpValueTracedCallback")
            .AddTraceSource("Retransmit",
                            "A DATA packet is sent again: (qpn, psn).",
                            MakeTraceSourceAccessor(&NiccNic::m_retxTrace),
                            "ns3::NiccNic::QpValueTracedCallback")
            .AddTraceSource("Timeout",
                            "A QP's retransmission timer expired: (qpn, snd_una psn).",
                            MakeTraceSourceAccessor(&NiccNic::m_timeoutTrace),
                            "ns3::NiccNic::QpValueTracedCallback")
            .AddTraceSource("CnpRx",
                            "A CNP arrived for a QP: (qpn, 0).",
                            MakeTraceSourceAccessor(&NiccNic::m_cnpRxTrace),
                            "ns3::NiccNic::QpValueTracedCallback")
            .AddTraceSource("Deliver",
                            "Receiver: a packet was delivered in order to the application: "
                            "(src node, qpn, psn, payload bytes).",
                            MakeTraceSourceAccessor(&NiccNic::m_deliverTrace),
                            "ns3::NiccNic::DeliverTracedCallback")
            .AddTraceSource("OutOfOrder",
                            "A DATA packet arrived ahead of the expected PSN (distance in packets).",
                            MakeTraceSourceAccessor(&NiccNic::m_outOfOrderTrace),
                            "ns3::NiccNic::OutOfOrderTracedCallback")
            .AddTraceSource("FlowTableFull",
                            "The driver's flow table (MAX_FLOWS slots, senders and receivers) "
                            "refused a flow: (receiver?, peer node, qpn). A refused sender QP "
                            "waits for a slot; a refused receiver flow has no notification "
                            "point (sends no CNP) until it gets one.",
                            MakeTraceSourceAccessor(&NiccNic::m_flowTableFullTrace),
                            "ns3::NiccNic::FlowTableFullTracedCallback");
    return tid;
}

} // namespace ns3
