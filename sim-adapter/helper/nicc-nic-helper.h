/*
 * nicc-nic-helper.h — installs NiccNic on hosts of a nicc fabric, starts
 * flows (src host, dst host, size, start time) and collects one record per
 * flow with its flow completion time (FCT, measured at the sender when the
 * last byte is acknowledged).
 *
 *   NiccNicHelper nics;
 *   nics.SetNicAttribute("CongestionControl", StringValue("hpcc"));
 *   nics.Install(t.senders); nics.Install(t.receiver);
 *   nics.AddFlow(t.senders[0], t.receiver, 1000000, MicroSeconds(1));
 *   nics.StopWhenAllComplete();
 *   Simulator::Run();
 *   for (const NiccFlowRecord& r : nics.GetFlowRecords()) ... r.fctNs ...
 *
 * Units: bytes, ns.
 */
#ifndef NICC_NIC_HELPER_H
#define NICC_NIC_HELPER_H

#include "ns3/nicc-nic.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

/// One flow: who, how much, when, and (once done) its FCT.
struct NiccFlowRecord
{
    uint32_t id;
    uint32_t src; ///< node id
    uint32_t dst; ///< node id
    uint64_t sizeBytes;
    int64_t startNs;
    int64_t fctNs;        ///< -1 while not complete
    uint64_t ackedBytes;  ///< bytes acknowledged so far
    Ptr<NiccNic> nic;     ///< the sender's NIC (null: another MPI rank runs the flow)
    uint32_t qpn;         ///< the QP on that NIC
    nicc::hal::CcKind cc; ///< the flow's congestion control
};

/**
 * \ingroup nicc
 * \brief Installs NICs and runs flows on a nicc fabric.
 */
class NiccNicHelper
{
  public:
    NiccNicHelper();

    /// An attribute of every NiccNic installed from now on.
    void SetNicAttribute(const std::string& name, const AttributeValue& value);

    /// A NIC on the host's first NiccNetDevice, aggregated to the node. On a
    /// bad attribute returns null with the reason in *error (aborts if null).
    Ptr<NiccNic> Install(Ptr<Node> host, std::string* error = nullptr);
    /// Install on every host; false (and *error) at the first failure.
    bool Install(const std::vector<Ptr<Node>>& hosts, std::string* error = nullptr);
    /// The NIC aggregated to `host` (null if none).
    static Ptr<NiccNic> GetNic(Ptr<Node> host);

    /// A flow of `bytes` from src to dst starting at absolute time `start`
    /// (both hosts need a NIC). Returns its id (0, 1, ... in call order).
    uint32_t AddFlow(Ptr<Node> src, Ptr<Node> dst, uint64_t bytes, Time start);
    /// The same with the flow's own congestion control (the other form: the
    /// sender NIC's CongestionControl Attribute).
    uint32_t AddFlow(Ptr<Node> src, Ptr<Node> dst, uint64_t bytes, Time start, nicc::hal::CcKind cc);

    /// Stop the simulator as soon as every flow added so far is complete.
    void StopWhenAllComplete();

    uint32_t GetNFlows() const { return static_cast<uint32_t>(m_flows.size()); }
    uint32_t GetNCompleted() const { return m_completed; }
    std::vector<NiccFlowRecord> GetFlowRecords() const;

  private:
    void FlowDone(uint32_t flowId, uint32_t qpn, uint64_t bytes, Time fct);

    ObjectFactory m_factory;
    std::vector<NiccFlowRecord> m_flows;
    uint32_t m_completed{0};
    bool m_stopWhenDone{false};
};

} // namespace ns3

#endif // NICC_NIC_HELPER_H
