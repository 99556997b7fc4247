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
 *
 * Faults (docs/faults.md): while Up is false every frame handed over, in
 * either direction and of any kind (data, ACK/NACK, CNP, PFC), is lost
 * ("lost: link down"); with LossRate > 0 each frame is lost with that
 * probability, one uniform draw per frame from the channel's own stream
 * ("lost: corruption"). A frame on the wire when the link goes down is lost
 * at its arrival. The sender still spends the frame's wire time. Each
 * loss is counted (packets, bytes) per cause and fired on the Drop trace.
 *
 * Under NiccScheduler, a direction of the link keeps one arrival event in
 * the scheduler at a time: a frame sent while another is on the wire waits
 * in the link's FIFO with the position its arrival event would have taken
 * (NiccScheduler::Mark), and is scheduled there when the frame before it
 * arrives (frames arrive in the order they were sent). The events and their
 * order are those of one event per frame; the scheduler's heap holds one
 * entry per busy link direction instead of one per frame on the wire.
 */
#ifndef NICC_CHANNEL_H
#define NICC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include "nicc-ring.h"

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
    /// Why a frame was lost on the channel.
    enum LossCause : uint8_t
    {
        LOST_LINK_DOWN = 0,
        LOST_CORRUPTION = 1,
    };
    /// Signature of the Drop trace source: (frame, sending device's node id, cause).
    typedef void (*DropTracedCallback)(Ptr<const Packet> p, uint32_t fromNode, uint8_t cause);

    static TypeId GetTypeId();
    NiccChannel();

    /// Connect a device; at most two. Returns false when full.
    bool Attach(Ptr<NiccNetDevice> dev);
    /// Deliver `p` from `src` to the other end after txTime + Delay.
    /// A frame lost on the way (link down, LossRate) is counted and dropped.
    void Transmit(const Ptr<Packet>& p, const NiccNetDevice* src, Time txTime);
    /// Bring the link down (every frame lost) or up again.
    /// Frames on the wire when the link goes down are lost on arrival.
    void SetUp(bool up);
    bool IsUp() const { return m_up; }
    void SetLossRate(double rate) { m_lossRate = rate; }
    double GetLossRate() const { return m_lossRate; }
    /// Fix the loss-rate streams: `stream` for frames towards end 0,
    /// stream + 1 towards end 1 (each direction draws on its own, so that a
    /// link whose ends are on two MPI ranks draws as in one process).
    /// Returns streams used (2).
    int64_t AssignStreams(int64_t stream);
    uint64_t GetLostPackets(LossCause c) const { return m_lostPackets[c]; }
    uint64_t GetLostBytes(LossCause c) const { return m_lostBytes[c]; }
    Time GetDelay() const { return m_delay; }
    Ptr<NiccNetDevice> GetPeer(Ptr<const NiccNetDevice> dev) const;
    /// Under MPI (NiccMpi): mark the ends whose node's SystemId is not
    /// `rank` as remote; frames towards a remote end go to its rank, and a
    /// local end facing a remote one listens for them. Call once the nodes'
    /// SystemIds are set, before the run.
    void Partition(uint32_t rank);
    /// One end is on this rank and the other is not (after Partition).
    bool CrossesRanks() const;
    /// A frame reaches end `dst` (the arrival event; also after a link fault).
    void Arrive(Ptr<Packet> p, std::size_t dst, uint64_t downs);
    /// The arrival event of end `dst` that held the link's place in the
    /// scheduler runs: the next frame waiting in the FIFO takes it.
    void ArmNextArrival(std::size_t dst);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    Time m_delay;
    Ptr<NiccNetDevice> m_dev[2];
    std::size_t m_nDevices{0};
    bool m_remote[2]{false, false}; ///< end k is on another MPI rank (Partition)
    uint64_t m_sent[2]{0, 0};       ///< frames sent towards end k (NiccOrderedScheduler)
    /// Node id of end k, the context of its arrivals (read at the first frame).
    uint32_t m_context[2]{UINT32_MAX, UINT32_MAX};
    /// A frame on the wire towards end k, waiting for the arrival before it.
    /// (The packet is held by a raw pointer with one reference of its own:
    /// ns-3's Ptr has no move, and a copy would touch the packet's memory
    /// here, long before its arrival needs it.)
    struct InFlight
    {
        Packet* p{nullptr};
        uint64_t at{0};  ///< arrival time stamp
        uint64_t tie{0}; ///< the position its arrival event takes (Mark)
        uint64_t downs{0};
        uint64_t seq{0};
    };
    NiccRing<InFlight> m_flight[2];
    bool m_arriving[2]{false, false}; ///< end k's FIFO has its event in the scheduler
    uint64_t m_lastAt[2]{0, 0};       ///< arrival time stamp of the last frame sent to end k
    void Deliver(Ptr<Packet> p);
    void Lose(Ptr<Packet> p, uint32_t fromNode, LossCause c);

    bool m_up{true};
    uint64_t m_downs{0}; ///< times the link went down (frames sent before are lost)
    double m_lossRate{0};
    Ptr<UniformRandomVariable> m_rng[2]; ///< loss draws of frames towards end k
    uint64_t m_lostPackets[2]{};
    uint64_t m_lostBytes[2]{};
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t> m_dropTrace;
};

} // namespace ns3

#endif // NICC_CHANNEL_H
