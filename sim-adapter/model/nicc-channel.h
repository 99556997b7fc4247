/*
 * nicc-channel.h — full-duplex point-to-point link of the nicc fabric: two
 * NiccNetDevices and a propagation delay. A frame handed over at the start
 * of its transmission arrives whole at the peer after txTime + Delay; one
 * scheduler event per frame.
 *
 *   Ptr<NiccChannel> ch = CreateObject<NiccChannel>();
 *   ch->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
 *   a->Attach(ch); b->Attach(ch);   // devices must be on their nodes before
 *                                   // the first frame is sent
 */
#ifndef NICC_CHANNEL_H
#define NICC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

namespace ns3
{

class NiccNetDevice;

/**
 * \ingroup nicc
 * \brief Point-to-point channel carrying frames between two NiccNetDevices.
 */
class NiccChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    NiccChannel();

    /// Connect a device; at most two. Returns false when full.
    bool Attach(Ptr<NiccNetDevice> dev);
    /// Deliver `p` from `src` to the other end after txTime + Delay.
    void Transmit(Ptr<Packet> p, Ptr<NiccNetDevice> src, Time txTime) const;
    Time GetDelay() const { return m_delay; }
    Ptr<NiccNetDevice> GetPeer(Ptr<const NiccNetDevice> dev) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    Time m_delay;
    Ptr<NiccNetDevice> m_dev[2];
    std::size_t m_nDevices{0};
};

} // namespace ns3

#endif // NICC_CHANNEL_H
