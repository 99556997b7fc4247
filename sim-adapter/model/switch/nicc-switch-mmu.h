/*
 * nicc-switch-mmu.h — shared-buffer memory management unit of the nicc
 * switch, with the PFC decisions: per (ingress port, class) accounting in a
 * shared pool bounded by a dynamic threshold, a reserved headroom per
 * (ingress port, lossless class), XOFF / XON with hysteresis.
 *
 *   Ptr<NiccSwitchMmu> mmu = CreateObject<NiccSwitchMmu>();
 *   uint32_t port = mmu->AddPort(NiccSwitchMmu::HeadroomBytes(100e9, MicroSeconds(1), 1100));
 *   NiccSwitchMmu::Admission a = mmu->Admit(port, 1, 1056);
 *   if (mmu->NeedPause(port, 1)) { send XOFF; mmu->SetPaused(port, 1, true); }
 *   ...at departure: mmu->Release(port, 1, 1056);
 *   if (mmu->NeedResume(port, 1)) { send XON; mmu->SetPaused(port, 1, false); }
 *
 * Equations (bytes):
 *   SharedSize = BufferSize - sum over (port, lossless class) of Headroom
 *   T          = Alpha * (SharedSize - SharedUsed)         dynamic threshold
 *   Headroom   = 2 * rate * delay / 8 + 3 * MtuFrame + HeadroomExtra
 *                (factors: HeadroomDelayFactor, HeadroomFrames; or HeadroomFixed)
 *   XOFF when  shared(i,c) + bytes > T at arrival: the packet goes to the
 *              headroom of (i,c) and a pause is due; drop if headroom is full.
 *   XON  when  headroom(i,c) == 0 and
 *              (shared(i,c) + XonOffset <= T  or  shared(i,c) == 0).
 * With ReserveBytes > 0 each (port, data class) first fills its own reserve
 * (outside the pool; SharedSize shrinks by ReserveBytes x ports x data
 * classes) and releases it last; with XoffAtThreshold XOFF is due at
 * shared(i,c) >= T (the HPCC simulator) instead of > T.
 * Class 0 (control) is never paused: admitted while the shared pool has room.
 * With PFC off, data classes are lossy: drop when shared(i,c) + bytes > T.
 *
 * Lossless budget (checked before a run, NiccCheckLosslessBuffer):
 *   RequiredBuffer = LosslessClasses * sum over ports Headroom(port)
 *                  + ReserveBytes * ports * data classes
 *                  + MinShared,   MinShared = sum over ports MaxFrame(port)
 * (the shared pool must hold at least one maximum frame per port so control
 * packets and the first data packet of every ingress find room). A buffer
 * below it cannot back the headroom: FitHeadroomToBuffer() scales every
 * port's headroom down to fit, and data dropped because a (port, class)
 * headroom ran over is counted apart (GetHeadroomOverflowDrops).
 */
#ifndef NICC_SWITCH_MMU_H
#define NICC_SWITCH_MMU_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup nicc
 * \brief Shared-buffer MMU with PFC thresholds (see file banner).
 */
class NiccSwitchMmu : public Object
{
  public:
    static constexpr uint32_t MAX_CLASSES = 8;

    enum Admission : uint8_t
    {
        ADMIT_SHARED = 0,
        ADMIT_HEADROOM = 1,
        DROP = 2,          ///< no room (control: pool full; lossy: over T)
        DROP_HEADROOM = 3, ///< lossless class whose headroom ran over
        ADMIT_RESERVE = 4, ///< into the (port, class) reserve (ReserveBytes)
    };

    static TypeId GetTypeId();
    NiccSwitchMmu();

    /// PFC headroom of one (port, class) for a link of `bps` bit/s and one-way
    /// `delay`: two in-flight link delays of data plus three maximum frames
    /// (the frame that crossed the threshold, one sent ahead of the pause,
    /// one the upstream has started).
    static uint64_t HeadroomBytes(uint64_t bps, Time delay, uint32_t mtuFrameBytes);
    /// The same under this MMU's Attributes: HeadroomFixed if set, else
    /// HeadroomDelayFactor * rate * delay / 8 + HeadroomFrames * mtuFrameBytes.
    uint64_t ComputeHeadroom(uint64_t bps, Time delay, uint32_t mtuFrameBytes) const;

    /// Register a port; its lossless classes reserve `headroomBytes` + the
    /// HeadroomExtra attribute each (only when PFC is enabled). `maxFrameBytes`
    /// is the largest frame the port can receive (for MinShared). Returns the
    /// port index (0, 1, ...). `portBps` scales the port's alpha when
    /// PfcAlphaReferenceRate is set (see GetPortAlpha).
    uint32_t AddPort(uint64_t headroomBytes, uint32_t maxFrameBytes = 0, uint64_t portBps = 0);
    uint32_t GetNPorts() const { return m_nPorts; }

    /// Account a packet arriving on (port, cls).
    Admission Admit(uint32_t port, uint8_t cls, uint32_t bytes);
    /// What Admit would decide, without accounting anything (a switch that
    /// trims asks first, so a packet it trims is no drop).
    Admission Peek(uint32_t port, uint8_t cls, uint32_t bytes) const;
    /// Return a departed packet's bytes: headroom of (port, cls) first.
    void Release(uint32_t port, uint8_t cls, uint32_t bytes);

    bool NeedPause(uint32_t port, uint8_t cls) const;
    bool NeedResume(uint32_t port, uint8_t cls) const;
    void SetPaused(uint32_t port, uint8_t cls, bool paused);
    bool IsPaused(uint32_t port, uint8_t cls) const { return m_paused[Idx(port, cls)]; }
    /// (port * MAX_CLASSES + cls) of every paused pair, for XON scans.
    const std::vector<uint32_t>& GetPausedList() const { return m_pausedList; }

    /// Current dynamic threshold T in bytes (PfcAlpha, no per-port scaling).
    uint64_t GetThreshold() const;
    /// T of an ingress port: GetPortAlpha(port) * (SharedSize - SharedUsed).
    uint64_t GetThreshold(uint32_t port) const;
    /// PfcAlpha doubled once per halving of the port rate that is still above
    /// PfcAlphaReferenceRate, while below 1 (the HPCC simulator's pfc_a_shift);
    /// PfcAlpha when the reference rate is 0.
    double GetPortAlpha(uint32_t port) const { return m_alpha * m_alphaScale[port]; }
    uint64_t GetSharedSize() const;
    uint64_t GetSharedUsed() const { return m_sharedUsed; }
    uint64_t GetHeadroomUsedTotal() const { return m_headroomUsedTotal; }
    uint64_t GetIngressShared(uint32_t port, uint8_t cls) const { return m_shared[Idx(port, cls)]; }
    uint64_t GetIngressReserve(uint32_t port, uint8_t cls) const
    {
        return m_reserveUsed[Idx(port, cls)];
    }
    /// ReserveBytes x ports x data classes: taken from the buffer before the pool.
    uint64_t GetReserveTotal() const { return m_reserve * m_nPorts * (m_numClasses - 1); }
    uint64_t GetIngressHeadroom(uint32_t port, uint8_t cls) const
    {
        return m_headroomUsed[Idx(port, cls)];
    }
    uint64_t GetHeadroomSize(uint32_t port) const { return m_headroomSize[port]; }
    uint64_t GetDrops() const { return m_drops; }
    bool IsPfcEnabled() const { return m_pfcEnabled; }
    uint64_t GetBufferSize() const { return m_bufferSize; }
    bool IsLossless(uint8_t cls) const { return m_pfcEnabled && cls != 0; }

    /// Lossless classes per port: NumClasses - 1 with PFC on, else 0.
    uint32_t GetLosslessClasses() const { return m_pfcEnabled ? m_numClasses - 1 : 0; }
    /// Sum over ports of one (port, class) headroom.
    uint64_t GetHeadroomPerClassTotal() const { return m_reservedHeadroom; }
    /// Largest single (port, class) headroom.
    uint64_t GetHeadroomMax() const;
    /// One maximum frame per port: the least shared pool a lossless switch needs.
    uint64_t GetMinSharedBytes() const { return m_maxFrameTotal; }
    /// LosslessClasses * headroom total + MinShared (0 headroom with PFC off).
    uint64_t GetRequiredBufferBytes() const;
    /// Scale every port's headroom down by one factor so that
    /// GetRequiredBufferBytes() <= BufferSize. False (nothing changed) when
    /// even zero headroom does not fit (BufferSize < MinShared).
    bool FitHeadroomToBuffer();
    /// Lossless-class data dropped because its (port, class) headroom was full.
    uint64_t GetHeadroomOverflowDrops() const { return m_dropsHeadroom; }

  private:
    static uint32_t Idx(uint32_t port, uint8_t cls) { return port * MAX_CLASSES + cls; }

    // Attributes.
    uint64_t m_bufferSize;
    double m_alpha;
    bool m_pfcEnabled;
    uint64_t m_xonOffset;
    uint64_t m_headroomExtra;
    uint32_t m_numClasses;

    // State.
    uint32_t m_nPorts{0};
    uint64_t m_reservedHeadroom{0};
    uint64_t m_sharedUsed{0};
    uint64_t m_headroomUsedTotal{0};
    uint64_t m_drops{0};
    std::vector<uint64_t> m_headroomSize; ///< per port (each lossless class)
    std::vector<uint64_t> m_shared;       ///< per (port, class)
    std::vector<uint64_t> m_headroomUsed; ///< per (port, class)
    std::vector<bool> m_paused;           ///< per (port, class)
    std::vector<uint32_t> m_pausedList;
    uint64_t m_maxFrameTotal{0};
    uint64_t m_dropsHeadroom{0};
    // Attributes (headroom sizing).
    double m_headroomDelayFactor{2.0};
    uint32_t m_headroomFrames{3};
    uint64_t m_headroomFixed{0};
    DataRate m_alphaReference{0};    ///< Attribute PfcAlphaReferenceRate
    std::vector<double> m_alphaScale; ///< per port: 2^doublings
    uint64_t m_reserve{0};             ///< Attribute ReserveBytes
    bool m_xoffAtThreshold{false};     ///< Attribute XoffAtThreshold
    std::vector<uint64_t> m_reserveUsed; ///< per (port, class)
};

} // namespace ns3

#endif // NICC_SWITCH_MMU_H
