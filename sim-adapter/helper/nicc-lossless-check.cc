/*
 * nicc-lossless-check.cc — the pre-run buffer check of lossless switches
 * (see the header banner).
 */
#include "nicc-lossless-check.h"

#include <sstream>

namespace ns3
{

namespace
{
// 16392740 -> "16 392 740" (the figures are read by people).
std::string
Grouped(uint64_t v)
{
    std::string digits = std::to_string(v);
    std::string out;
    const size_t n = digits.size();
    for (size_t k = 0; k < n; ++k)
    {
        out += digits[k];
        if (k + 1 < n && (n - k - 1) % 3 == 0)
        {
            out += ' ';
        }
    }
    return out;
}
} // namespace

std::string
NiccDescribeBufferNeed(Ptr<NiccSwitchNode> sw)
{
    Ptr<NiccSwitchMmu> mmu = sw->GetMmu();
    const uint32_t ports = mmu->GetNPorts();
    const uint32_t classes = mmu->GetLosslessClasses();
    const uint64_t total = mmu->GetHeadroomPerClassTotal();
    const uint64_t maxHeadroom = mmu->GetHeadroomMax();
    std::ostringstream os;
    os << "switch node " << sw->GetId() << " needs " << Grouped(mmu->GetRequiredBufferBytes())
       << " B of buffer = " << ports << " ports x " << classes << " lossless class"
       << (classes == 1 ? "" : "es") << " x headroom per (port, class) (";
    if (ports > 0 && total == maxHeadroom * ports)
    {
        os << Grouped(maxHeadroom) << " B each";
    }
    else
    {
        os << "largest " << Grouped(maxHeadroom) << " B, " << Grouped(total)
           << " B summed over ports";
    }
    os << "; 2 x rate x delay + 3 maximum frames + headroom_extra_bytes) + ";
    if (mmu->GetReserveTotal() > 0)
    {
        os << Grouped(mmu->GetReserveTotal()) << " B of per-(port, class) reserve + ";
    }
    os << Grouped(mmu->GetMinSharedBytes())
       << " B of shared pool (one maximum frame per port); buffer_bytes is "
       << Grouped(mmu->GetBufferSize()) << " B";
    return os.str();
}

bool
NiccCheckLosslessBuffer(const std::vector<Ptr<NiccSwitchNode>>& switches,
                        NiccHeadroomPolicy policy,
                        std::string* error,
                        std::string* warning)
{
    for (const Ptr<NiccSwitchNode>& sw : switches)
    {
        Ptr<NiccSwitchMmu> mmu = sw->GetMmu();
        if (!mmu->IsPfcEnabled() || mmu->GetRequiredBufferBytes() <= mmu->GetBufferSize())
        {
            continue;
        }
        const std::string need = NiccDescribeBufferNeed(sw);
        if (policy == NiccHeadroomPolicy::REFUSE)
        {
            *error = "lossless (pfc=true) but the buffer cannot back the PFC headroom: " + need +
                     ". Raise buffer_bytes, lower the link delay, rate or mtu, set "
                     "pfc=false, or headroom_policy=shrink (headroom sized down; overflow "
                     "drops counted as drops_headroom_overflow)";
            return false;
        }
        const uint64_t before = mmu->GetHeadroomMax();
        if (!mmu->FitHeadroomToBuffer())
        {
            *error = "headroom_policy=shrink: the buffer is below even the minimal shared "
                     "pool: " +
                     need;
            return false;
        }
        std::ostringstream os;
        os << "warning: " << need << "; headroom per (port, class) shrunk to fit (largest "
           << Grouped(before) << " -> " << Grouped(mmu->GetHeadroomMax())
           << " B): the fabric may drop (drops_headroom_overflow)\n";
        *warning += os.str();
    }
    return true;
}

} // namespace ns3
