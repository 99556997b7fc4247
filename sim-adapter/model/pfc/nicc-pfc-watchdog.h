/*
 * nicc-pfc-watchdog.h — the PFC watchdog of a NiccSwitchNode, after the
 * watchdogs of production switch operating systems (SONiC pfcwd, Arista
 * and Cisco "PFC watchdog"): a lossless egress queue that holds packets,
 * sends none and stays paused by its downstream neighbour for PfcWatchdogDetect is
 * declared stormed; the watchdog then either drops (the queue's packets and
 * every new arrival for it, pauses ignored) or forwards (pauses ignored, the
 * queue transmits), until for PfcWatchdogRestore no XOFF has arrived and no pause
 * has been in force for that class on that port; the queue then returns to
 * normal PFC.
 *
 *   sw->SetAttribute("PfcWatchdog", BooleanValue(true));     // on the switch
 *   sw->SetAttribute("PfcWatchdogDetect", TimeValue(MicroSeconds(200)));
 *   ...
 *   const NiccPfcWatchdog& wd = sw->GetPfcWatchdog();
 *   wd.GetStormsDetected(), wd.GetRestorations(), wd.GetDroppedBytes()
 *
 * A queue is stopped since the later of the start of the pause in force and
 * its last transmission. The scan runs every PfcWatchdogPoll (bounded work:
 * ports x data classes) and finds stopped queues; a queue found stopped is
 * checked again at exactly since + PfcWatchdogDetect (and a stormed queue
 * at its restoration deadline), so a queue downstream, stopped first, is
 * acted on first and its neighbours resume before their own deadline.
 * SONiC polls at polling_interval (100 ms) and rounds up to it; here a
 * stop shorter than one poll can go unseen.
 * Off (the default), nothing is scheduled and no result changes.
 */
#ifndef NICC_PFC_WATCHDOG_H
#define NICC_PFC_WATCHDOG_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class NiccSwitchNode;

/**
 * \ingroup nicc
 * \brief Per-switch PFC watchdog state and polling (see file banner).
 */
class NiccPfcWatchdog
{
  public:
    enum Action : uint8_t
    {
        DROP = 0,    ///< drop the queue's packets and new arrivals; ignore PAUSE
        FORWARD = 1, ///< ignore PAUSE and transmit
    };

    /// One watchdog action: a storm detected on (port, class) or restored.
    struct ActionRecord
    {
        Time at;
        uint32_t port;
        uint8_t cls;
        bool storm; ///< true: detected (action applied); false: restored
    };
    /// Records kept per switch (later actions are counted, not recorded).
    static constexpr uint32_t MAX_RECORDS = 256;

    Time detect{MicroSeconds(200)};
    Time restore{MicroSeconds(200)};
    Time poll{MicroSeconds(20)};
    Action action{DROP};

    /// Begin polling `sw` (idempotent).
    void Start(NiccSwitchNode* sw);
    void Stop();
    bool IsRunning() const { return m_running; }

    /// Whether arrivals for (port, cls) are to be dropped now.
    bool IsDropping(uint32_t port, uint8_t cls) const
    {
        const uint32_t i = port * 8 + cls;
        return action == DROP && i < m_queues.size() && m_queues[i].storm;
    }
    /// Whether (port, cls) is in the storm state now.
    bool IsStormed(uint32_t port, uint8_t cls) const
    {
        const uint32_t i = port * 8 + cls;
        return i < m_queues.size() && m_queues[i].storm;
    }
    /// Count a packet dropped because of the watchdog.
    void CountDrop(uint32_t bytes)
    {
        ++m_droppedPackets;
        m_droppedBytes += bytes;
    }

    uint64_t GetStormsDetected() const { return m_storms; }
    uint64_t GetRestorations() const { return m_restorations; }
    uint64_t GetDroppedPackets() const { return m_droppedPackets; }
    uint64_t GetDroppedBytes() const { return m_droppedBytes; }
    /// Sum over queues of the time spent in the storm state (open storms up to now).
    Time GetStormTime() const;
    /// Queues in the storm state now.
    uint32_t GetStormedQueues() const;
    const std::vector<ActionRecord>& GetActions() const { return m_actions; }

  private:
    struct Queue
    {
        bool storm{false};
        Time since; ///< storm state entered
    };
    void Poll();
    void Scan();
    void Record(uint32_t port, uint8_t cls, bool storm);

    NiccSwitchNode* m_sw{nullptr};
    bool m_running{false};
    EventId m_event;
    EventId m_check; ///< a deadline between two polls
    std::vector<Queue> m_queues; ///< per (port, class), port * 8 + class
    uint64_t m_storms{0};
    uint64_t m_restorations{0};
    uint64_t m_droppedPackets{0};
    uint64_t m_droppedBytes{0};
    Time m_closedStormTime{0};
    std::vector<ActionRecord> m_actions;
};

} // namespace ns3

#endif // NICC_PFC_WATCHDOG_H
