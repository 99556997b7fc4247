/*
 * nicc-switch-mmu.cc — NiccSwitchMmu: admission, release and the PFC
 * XOFF / XON predicates (equations in the header banner).
 */
#include "nicc-switch-mmu.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NiccSwitchMmu");
NS_OBJECT_ENSURE_REGISTERED(NiccSwitchMmu);

TypeId
NiccSwitchMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NiccSwitchMmu")
            .SetParent<Object>()
            .SetGroupName("Nicc")
            .AddConstructor<NiccSwitchMmu>()
            .AddAttribute("BufferSize",
                          "Total packet buffer of the switch in bytes (shared pool + "
                          "PFC headroom).",
                          UintegerValue(16000000),
                          MakeUintegerAccessor(&NiccSwitchMmu::m_bufferSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("PfcAlpha",
                          "Dynamic-threshold factor: an (ingress port, class) may hold "
                          "Alpha * (free shared buffer) before XOFF.",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&NiccSwitchMmu::m_alpha),
                          MakeDoubleChecker<double>(1.0 / 1024, 64.0))
            .AddAttribute("PfcEnabled",
                          "Lossless data classes with PFC (true) or lossy data classes "
                          "that drop at the threshold (false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NiccSwitchMmu::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("XonOffset",
                          "Hysteresis in bytes: XON once the ingress usage is this far "
                          "below the dynamic threshold (and its headroom is empty).",
                          UintegerValue(8192),
                          MakeUintegerAccessor(&NiccSwitchMmu::m_xonOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HeadroomExtra",
                          "Bytes added to every computed headroom (PFC response time "
                          "of the upstream device, cable slack).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccSwitchMmu::m_headroomExtra),
                          // 2^40: sums over ports and classes stay far below 2^64.
                          MakeUintegerChecker<uint64_t>(0, uint64_t{1} << 40))
            .AddAttribute("NumClasses",
                          "Priority classes per port (must match the ports' NumClasses); "
                          "classes 1.. are lossless when PFC is enabled.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&NiccSwitchMmu::m_numClasses),
                          MakeUintegerChecker<uint32_t>(2, MAX_CLASSES))
            .AddAttribute("HeadroomDelayFactor",
                          "PFC headroom per (port, class): this many link delays' worth of "
                          "data at the port rate (2: the pause travelling up + the data "
                          "already on the cable; the HPCC simulator uses 3).",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&NiccSwitchMmu::m_headroomDelayFactor),
                          MakeDoubleChecker<double>(0.0, 64.0))
            .AddAttribute("HeadroomFrames",
                          "PFC headroom per (port, class): plus this many maximum frames "
                          "(MTU + header + full INT stack): the frame that crossed the "
                          "threshold, one sent ahead of the pause, one the upstream has "
                          "started (the HPCC simulator adds none).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&NiccSwitchMmu::m_headroomFrames),
                          MakeUintegerChecker<uint32_t>(0, 64))
            .AddAttribute("HeadroomFixed",
                          "PFC headroom per (port, class) in bytes for every port, instead "
                          "of the rate x delay formula; 0 = use the formula.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccSwitchMmu::m_headroomFixed),
                          MakeUintegerChecker<uint64_t>(0, uint64_t{1} << 40))
            .AddAttribute("PfcAlphaReferenceRate",
                          "Per-port alpha: a port faster than this rate gets PfcAlpha "
                          "doubled once per factor 2 (while alpha < 1), as the HPCC "
                          "simulator does above the NIC rate; 0 = PfcAlpha on every port. "
                          "Read when a port is added.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&NiccSwitchMmu::m_alphaReference),
                          MakeDataRateChecker())
            .AddAttribute("ReserveBytes",
                          "Bytes each (ingress port, data class) may hold before it uses "
                          "the shared pool, reserved out of the buffer (the HPCC "
                          "simulator: 4096); XOFF/XON look at the bytes above it.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NiccSwitchMmu::m_reserve),
                          MakeUintegerChecker<uint64_t>(0, uint64_t{1} << 32))
            .AddAttribute("XoffAtThreshold",
                          "XOFF when shared(i,c) >= T (the HPCC simulator) instead of "
                          "shared(i,c) > T.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NiccSwitchMmu::m_xoffAtThreshold),
                          MakeBooleanChecker());
    return tid;
}

NiccSwitchMmu::NiccSwitchMmu()
    : m_bufferSize(16000000),
      m_alpha(0.125),
      m_pfcEnabled(true),
      m_xonOffset(8192),
      m_headroomExtra(0),
      m_numClasses(2)
{
}

uint64_t
NiccSwitchMmu::HeadroomBytes(uint64_t bps, Time delay, uint32_t mtuFrameBytes)
{
    // Bytes in flight during one round trip of the cable (pause travelling
    // up, data still travelling down) plus three frames: the one whose
    // arrival crossed the threshold (it is already in the headroom when the
    // pause is decided), a frame this port is sending ahead of the pause
    // frame and a frame the upstream has started.
    const double inflight = 2.0 * static_cast<double>(bps) * delay.GetSeconds() / 8.0;
    return static_cast<uint64_t>(inflight + 0.5) + 3ULL * mtuFrameBytes;
}

uint64_t
NiccSwitchMmu::ComputeHeadroom(uint64_t bps, Time delay, uint32_t mtuFrameBytes) const
{
    if (m_headroomFixed > 0)
    {
        return m_headroomFixed;
    }
    const double inflight =
        m_headroomDelayFactor * static_cast<double>(bps) * delay.GetSeconds() / 8.0;
    return static_cast<uint64_t>(inflight + 0.5) + uint64_t{m_headroomFrames} * mtuFrameBytes;
}

uint32_t
NiccSwitchMmu::AddPort(uint64_t headroomBytes, uint32_t maxFrameBytes, uint64_t portBps)
{
    const uint32_t port = m_nPorts++;
    // HPCC's loop: while (rate > nic_rate && shift > 0) { shift--; rate /= 2; }.
    // At most 64 halvings of a 64-bit rate.
    double scale = 1.0;
    const uint64_t reference = m_alphaReference.GetBitRate();
    for (uint64_t bps = portBps; reference > 0 && bps > reference && m_alpha * scale < 1.0;
         bps /= 2)
    {
        scale *= 2.0;
    }
    m_alphaScale.push_back(scale);
    m_maxFrameTotal += maxFrameBytes;
    m_headroomSize.push_back(headroomBytes + m_headroomExtra);
    m_reservedHeadroom += headroomBytes + m_headroomExtra;
    m_shared.resize(m_nPorts * MAX_CLASSES, 0);
    m_reserveUsed.resize(m_nPorts * MAX_CLASSES, 0);
    m_headroomUsed.resize(m_nPorts * MAX_CLASSES, 0);
    m_paused.resize(m_nPorts * MAX_CLASSES, false);
    return port;
}

uint64_t
NiccSwitchMmu::GetHeadroomMax() const
{
    return m_headroomSize.empty() ? 0
                                  : *std::max_element(m_headroomSize.begin(), m_headroomSize.end());
}

uint64_t
NiccSwitchMmu::GetRequiredBufferBytes() const
{
    return GetLosslessClasses() * m_reservedHeadroom + GetReserveTotal() + m_maxFrameTotal;
}

bool
NiccSwitchMmu::FitHeadroomToBuffer()
{
    if (GetRequiredBufferBytes() <= m_bufferSize)
    {
        return true;
    }
    if (m_bufferSize < m_maxFrameTotal + GetReserveTotal() || GetLosslessClasses() == 0 ||
        m_reservedHeadroom == 0)
    {
        return false; // no headroom to take from, or not enough even without it
    }
    // Every headroom times budget / reserved, rounded down, so the sum over
    // ports times the classes stays within the budget. The factor is applied
    // in double (products of two 64-bit sizes could overflow); its rounding
    // error is below one byte per port, taken back by the loop after.
    const uint64_t budget =
        (m_bufferSize - m_maxFrameTotal - GetReserveTotal()) / GetLosslessClasses();
    const double factor =
        static_cast<double>(budget) / static_cast<double>(m_reservedHeadroom);
    m_reservedHeadroom = 0;
    for (uint64_t& h : m_headroomSize)
    {
        h = static_cast<uint64_t>(static_cast<double>(h) * factor);
        m_reservedHeadroom += h;
    }
    for (uint64_t& h : m_headroomSize)
    {
        if (m_reservedHeadroom <= budget)
        {
            break;
        }
        const uint64_t cut = std::min<uint64_t>(h, m_reservedHeadroom - budget);
        h -= cut;
        m_reservedHeadroom -= cut;
    }
    return true;
}

uint64_t
NiccSwitchMmu::GetSharedSize() const
{
    const uint64_t reserved =
        (m_pfcEnabled ? m_reservedHeadroom * (m_numClasses - 1) : 0) + GetReserveTotal();
    return reserved < m_bufferSize ? m_bufferSize - reserved : 0;
}

uint64_t
NiccSwitchMmu::GetThreshold(uint32_t port) const
{
    const uint64_t size = GetSharedSize();
    const uint64_t freeBytes = m_sharedUsed < size ? size - m_sharedUsed : 0;
    return static_cast<uint64_t>(GetPortAlpha(port) * static_cast<double>(freeBytes));
}

uint64_t
NiccSwitchMmu::GetThreshold() const
{
    const uint64_t size = GetSharedSize();
    const uint64_t freeBytes = m_sharedUsed < size ? size - m_sharedUsed : 0;
    return static_cast<uint64_t>(m_alpha * static_cast<double>(freeBytes));
}

NiccSwitchMmu::Admission
NiccSwitchMmu::Peek(uint32_t port, uint8_t cls, uint32_t bytes) const
{
    NS_ABORT_MSG_UNLESS(port < m_nPorts && cls < MAX_CLASSES, "bad port/class");
    const uint32_t i = Idx(port, cls);
    const bool poolRoom = m_sharedUsed + bytes <= GetSharedSize();
    if (cls == 0)
    {
        // Control: small, strict priority, never paused; bounded by the pool.
        return poolRoom ? ADMIT_SHARED : DROP;
    }
    if (m_reserveUsed[i] + bytes <= m_reserve)
    {
        return ADMIT_RESERVE;
    }
    const bool underThreshold = m_shared[i] + bytes <= GetThreshold(port);
    // Once a pair is using headroom it stays there until XON, so packets of
    // one ingress are not reordered between the two pools' accounting.
    if (poolRoom && underThreshold && m_headroomUsed[i] == 0)
    {
        return ADMIT_SHARED;
    }
    if (m_pfcEnabled && m_headroomUsed[i] + bytes <= m_headroomSize[port])
    {
        return ADMIT_HEADROOM;
    }
    return m_pfcEnabled ? DROP_HEADROOM : DROP;
}

NiccSwitchMmu::Admission
NiccSwitchMmu::Admit(uint32_t port, uint8_t cls, uint32_t bytes)
{
    const Admission a = Peek(port, cls, bytes);
    const uint32_t i = Idx(port, cls);
    switch (a)
    {
    case ADMIT_RESERVE:
        m_reserveUsed[i] += bytes;
        break;
    case ADMIT_SHARED:
        m_shared[i] += bytes;
        m_sharedUsed += bytes;
        break;
    case ADMIT_HEADROOM:
        m_headroomUsed[i] += bytes;
        m_headroomUsedTotal += bytes;
        break;
    case DROP_HEADROOM:
        ++m_dropsHeadroom;
        ++m_drops;
        break;
    case DROP:
        ++m_drops;
        break;
    }
    return a;
}

void
NiccSwitchMmu::Release(uint32_t port, uint8_t cls, uint32_t bytes)
{
    const uint32_t i = Idx(port, cls);
    uint64_t left = bytes;
    const uint64_t fromHeadroom = std::min<uint64_t>(left, m_headroomUsed[i]);
    m_headroomUsed[i] -= fromHeadroom;
    m_headroomUsedTotal -= fromHeadroom;
    left -= fromHeadroom;
    const uint64_t fromShared = std::min<uint64_t>(left, m_shared[i]);
    m_shared[i] -= fromShared;
    m_sharedUsed -= fromShared;
    left -= fromShared;
    NS_ABORT_MSG_UNLESS(left <= m_reserveUsed[i], "MMU release underflow");
    m_reserveUsed[i] -= left;
}

bool
NiccSwitchMmu::NeedPause(uint32_t port, uint8_t cls) const
{
    if (!IsLossless(cls))
    {
        return false;
    }
    const uint32_t i = Idx(port, cls);
    const uint64_t t = GetThreshold(port);
    const bool over = m_xoffAtThreshold ? m_shared[i] >= t : m_shared[i] > t;
    return !m_paused[i] && (m_headroomUsed[i] > 0 || over);
}

bool
NiccSwitchMmu::NeedResume(uint32_t port, uint8_t cls) const
{
    const uint32_t i = Idx(port, cls);
    if (!m_paused[i] || m_headroomUsed[i] > 0)
    {
        return false;
    }
    return m_shared[i] == 0 || m_shared[i] + m_xonOffset <= GetThreshold(port);
}

void
NiccSwitchMmu::SetPaused(uint32_t port, uint8_t cls, bool paused)
{
    const uint32_t i = Idx(port, cls);
    if (m_paused[i] == paused)
    {
        return;
    }
    m_paused[i] = paused;
    if (paused)
    {
        m_pausedList.push_back(i);
    }
    else
    {
        m_pausedList.erase(std::find(m_pausedList.begin(), m_pausedList.end(), i));
    }
}

} // namespace ns3
