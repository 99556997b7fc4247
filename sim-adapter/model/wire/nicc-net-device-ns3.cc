/*
 * nicc-net-device-ns3.cc — the ns3::NetDevice interface of NiccNetDevice
 * that the model's packet path does not use: Send / SendFrom from an upper
 * layer (queued in the class of the frame's priority), interface index, address, MTU, link state,
 * broadcast and multicast (none: a point-to-point RoCE link), node and
 * receive callbacks.
 */
#include "nicc-net-device.h"

#include "nicc-channel.h"
#include "nicc-rocev2-header.h"

#include "ns3/node.h"

namespace ns3
{

bool
NiccNetDevice::Send(Ptr<Packet> packet, const Address& /*dest*/, uint16_t /*protocolNumber*/)
{
    NiccRoceHeader h;
    packet->PeekHeader(h);
    const uint8_t cls = static_cast<uint8_t>(
        h.GetPriority() < m_numClasses ? h.GetPriority() : m_numClasses - 1);
    Enqueue(packet, cls, 0);
    return true;
}

bool
NiccNetDevice::SendFrom(Ptr<Packet> packet,
                        const Address& /*source*/,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

void
NiccNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
NiccNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
NiccNetDevice::GetChannel() const
{
    return m_channel;
}

void
NiccNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
NiccNetDevice::GetAddress() const
{
    return m_address;
}

bool
NiccNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
NiccNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
NiccNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
NiccNetDevice::AddLinkChangeCallback(Callback<void> /*callback*/)
{
}

bool
NiccNetDevice::IsBroadcast() const
{
    return false;
}

Address
NiccNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
NiccNetDevice::IsMulticast() const
{
    return false;
}

Address
NiccNetDevice::GetMulticast(Ipv4Address /*multicastGroup*/) const
{
    return Mac48Address::GetMulticast(Ipv4Address());
}

Address
NiccNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
NiccNetDevice::IsBridge() const
{
    return false;
}

bool
NiccNetDevice::IsPointToPoint() const
{
    return true;
}

Ptr<Node>
NiccNetDevice::GetNode() const
{
    return m_node;
}

void
NiccNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
NiccNetDevice::NeedsArp() const
{
    return false;
}

void
NiccNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCb = cb;
}

void
NiccNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback /*cb*/)
{
}

bool
NiccNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
