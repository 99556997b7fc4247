/*
 * nicc-test-endpoint.h — a minimal traffic source/sink for testing the nicc
 * fabric, NOT the NIC: it sends paced (or line-rate) streams of DATA packets
 * through a NiccNetDevice's pull callback, honours PFC pause through
 * NiccNetDevice::IsPaused, and counts what arrives. No ACKs, no congestion
 * control, no retransmission. The NIC model replaces it on the same seams
 * (SetTxPullCallback / SetNiccReceiveCallback / Enqueue).
 *
 *   Ptr<NiccTestEndpoint> ep = CreateObject<NiccTestEndpoint>();
 *   ep->Install(hostDevice);
 *   ep->AddFlow(receiverNodeId, 1000000, DataRate(0), 0xC001, MicroSeconds(1));
 *   ...Simulator::Run()...  receiverEp->GetRxBytes()
 *
 * Units: bytes of payload (headers excluded) in all counters; rates in bit/s
 * over the whole frame (header + payload).
 */
#ifndef NICC_TEST_ENDPOINT_H
#define NICC_TEST_ENDPOINT_H

#include "nicc-net-device.h"
#include "nicc-rocev2-header.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief Test-only host endpoint: paced DATA streams out, byte counters in.
 */
class NiccTestEndpoint : public Object
{
  public:
    typedef void (*RxTracedCallback)(Ptr<const Packet> p, const NiccRoceHeader& h);

    static TypeId GetTypeId();
    NiccTestEndpoint();

    /// Take over `dev`'s pull and receive callbacks.
    void Install(Ptr<NiccNetDevice> dev);
    Ptr<NiccNetDevice> GetDevice() const { return m_dev; }

    /// Send `bytes` of payload to node `dst` with entropy `sport`, starting at
    /// absolute time `start`, paced at `rate` (DataRate(0) = as fast as the
    /// link allows). Returns the flow index.
    uint32_t AddFlow(uint32_t dst, uint64_t bytes, DataRate rate, uint16_t sport, Time start);

    uint64_t GetTxBytes() const { return m_txBytes; }
    uint64_t GetTxPackets() const { return m_txPackets; }
    uint64_t GetRxBytes() const { return m_rxBytes; }
    uint64_t GetRxPackets() const { return m_rxPackets; }
    uint64_t GetRxCePackets() const { return m_rxCe; }
    /// Time the last byte arrived (zero if none).
    Time GetLastRxTime() const { return m_lastRx; }
    /// INT stack of the last received DATA packet that carried one.
    const nicc::IntStack& GetLastIntStack() const { return m_lastInt; }
    bool HasIntStack() const { return m_sawInt; }

  protected:
    void DoDispose() override;

  private:
    struct Flow
    {
        uint32_t dst;
        uint16_t sport;
        uint64_t remaining;
        uint32_t psn;
        DataRate rate;
        Time nextTx;
    };

    Ptr<Packet> Pull(Ptr<NiccNetDevice> dev);
    void Receive(Ptr<NiccNetDevice> dev, Ptr<Packet> p);
    void Wake();
    void ArmWake(Time at);

    // Attributes.
    uint8_t m_priority;
    bool m_intEnabled;
    bool m_ect;
    uint32_t m_payloadSize;

    // State.
    Ptr<NiccNetDevice> m_dev;
    std::vector<Flow> m_flows;
    uint32_t m_rr{0};
    EventId m_wake;
    uint64_t m_txBytes{0};
    uint64_t m_txPackets{0};
    uint64_t m_rxBytes{0};
    uint64_t m_rxPackets{0};
    uint64_t m_rxCe{0};
    Time m_lastRx;
    nicc::IntStack m_lastInt{};
    bool m_sawInt{false};

    TracedCallback<Ptr<const Packet>, const NiccRoceHeader&> m_rxTrace;
};

} // namespace ns3

#endif // NICC_TEST_ENDPOINT_H
