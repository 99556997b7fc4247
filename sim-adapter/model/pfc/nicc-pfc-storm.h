/*
 * nicc-pfc-storm.h — a PFC storm source and the pause-spread sampler.
 *
 * NiccPfcStorm models a stalled receiver: from `start` the host NIC's
 * receive side stops draining (every frame that arrives is held in its RX
 * buffer, not handed to the NIC) and the port sends XOFF on every data
 * class continuously, re-sending before the pause runs out (every half of
 * PauseQuanta's time, as the switches refresh). At `end` (if any) it sends
 * XON on those classes and hands the held frames to the NIC in arrival
 * order. Frames held when the run ends are reported (GetHeldBytes).
 *
 *   Ptr<NiccPfcStorm> storm = CreateObject<NiccPfcStorm>();
 *   storm->Install(hostDev, MicroSeconds(50), MicroSeconds(1000));  // Time(-1): no end
 *
 * NiccPfcSpreadSampler samples, every `period`, the switch ports whose
 * transmission a received PAUSE holds on some data class (watchdog-ignored
 * pauses excluded), the host ports held the same way, the queues a PFC
 * watchdog holds in the storm state, and the payload bytes of DATA frames
 * that arrived at hosts in the interval (throughput).
 */
#ifndef NICC_PFC_STORM_H
#define NICC_PFC_STORM_H

#include "ns3/nicc-net-device.h"
#include "ns3/nicc-switch-node.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief A host NIC stuck sending XOFF (see file banner).
 */
class NiccPfcStorm : public Object
{
  public:
    static TypeId GetTypeId();

    /// Storm on `dev` (a host's port) from `start`; `end` negative: never ends.
    void Install(Ptr<NiccNetDevice> dev, Time start, Time end, uint16_t quanta = 0xFFFF);

    bool IsActive() const { return m_active; }
    uint64_t GetXoffSent() const { return m_xoffSent; }
    /// Frames held in the stalled RX buffer now.
    uint64_t GetHeldPackets() const { return m_held.size(); }
    uint64_t GetHeldBytes() const { return m_heldBytes; }
    /// Largest RX buffer occupancy reached during the storm.
    uint64_t GetPeakHeldBytes() const { return m_peakHeld; }
    Time GetStart() const { return m_start; }
    Time GetEnd() const { return m_end; }

  protected:
    void DoDispose() override;

  private:
    void Begin();
    void Finish();
    void Refresh();
    void Hold(Ptr<NiccNetDevice> dev, Ptr<Packet> p);

    Ptr<NiccNetDevice> m_dev;
    Time m_start;
    Time m_end{-1};
    uint16_t m_quanta{0xFFFF};
    bool m_active{false};
    NiccNetDevice::NiccReceiveCallback m_saved;
    std::deque<Ptr<Packet>> m_held;
    uint64_t m_heldBytes{0};
    uint64_t m_peakHeld{0};
    uint64_t m_xoffSent{0};
    EventId m_refresh;
    EventId m_begin;
    EventId m_finish;
};

/// One sample of the pause spread.
struct NiccPfcSpreadSample
{
    Time at;
    uint32_t pausedSwitchPorts;
    uint32_t pausedHosts;
    uint32_t stormedQueues;     ///< watchdog queues in the storm state
    uint64_t rxPayloadBytes;    ///< DATA payload arrived at hosts since the last sample
};

/**
 * \ingroup nicc
 * \brief Samples the spread of PFC pauses over the fabric (see file banner).
 */
class NiccPfcSpreadSampler
{
  public:
    /// Sample `switches` and host ports `hostDevices` every `period` from
    /// `start` to `stop`.
    void Start(const std::vector<Ptr<NiccSwitchNode>>& switches,
               const std::vector<Ptr<NiccNetDevice>>& hostDevices,
               Time period,
               Time start,
               Time stop);
    const std::vector<NiccPfcSpreadSample>& GetSamples() const { return m_samples; }
    uint32_t GetPeakSwitchPorts() const { return m_peakPorts; }
    uint32_t GetPeakHosts() const { return m_peakHosts; }
    /// Time of the first sample at the peak of paused switch ports (negative: none).
    Time GetPeakPortsTime() const { return m_peakPortsAt; }
    Time GetPeakHostsTime() const { return m_peakHostsAt; }
    Time GetPeriod() const { return m_period; }
    /// Paused switch ports / hosts counted in one sample (for tests).
    static uint32_t CountPausedPorts(const std::vector<Ptr<NiccNetDevice>>& devs);

  private:
    void Sample();
    void OnRx(Ptr<const Packet> p);

    std::vector<Ptr<NiccSwitchNode>> m_switches;
    std::vector<Ptr<NiccNetDevice>> m_switchPorts;
    std::vector<Ptr<NiccNetDevice>> m_hosts;
    Time m_period;
    Time m_stop;
    uint64_t m_rxBytes{0};
    std::vector<NiccPfcSpreadSample> m_samples;
    uint32_t m_peakPorts{0};
    uint32_t m_peakHosts{0};
    Time m_peakPortsAt{-1};
    Time m_peakHostsAt{-1};
};

} // namespace ns3

#endif // NICC_PFC_STORM_H
