/*
 * nicc-int.h — HPCC INT stamping of the nicc switch, in one place: turns a
 * port's state at egress dequeue into the engine's 8-byte per-hop record
 * (nicc::IntHop from nicc/int_codec.h), so the fabric stamps exactly what the
 * engine decodes.
 *
 *   nicc::IntHop hop = NiccIntMakeHop(100000000000ULL, now_ns, tx_bytes,
 *                                     qlen_bytes, st.mult_log2);
 *   header.PushIntHop(hop);
 *
 * Units: rate in bit/s, time in ns (truncated to 24 bits by the record),
 * txBytes a free-running byte counter of the port (wraps in the record),
 * qlenBytes the egress queue in bytes (saturates at the 17-bit maximum).
 */
#ifndef NICC_INT_H
#define NICC_INT_H

#include "nicc/int_codec.h"

#include <cstdint>

namespace ns3
{

/// INT link-rate code of a port: the largest code whose rate does not
/// exceed `bps` (codes 1..7 = 25, 50, ... 1600 Gb/s); 1 below 25 Gb/s.
inline uint8_t
NiccIntRateCode(uint64_t bps)
{
    uint8_t code = 1;
    for (uint32_t c = 1; c < nicc::kIntRateCodeCount; ++c)
    {
        if (static_cast<uint64_t>(nicc::IntRateGbps(c)) * 1000000000ULL <= bps)
        {
            code = static_cast<uint8_t>(c);
        }
    }
    return code;
}

/// The per-hop record of a port at dequeue time.
inline nicc::IntHop
NiccIntMakeHop(uint8_t rateCode, uint64_t nowNs, uint64_t txBytes, uint64_t qlenBytes, uint8_t multLog2)
{
    const uint64_t txUnit = static_cast<uint64_t>(nicc::kIntTxUnitBytes) << multLog2;
    const uint64_t qUnit = static_cast<uint64_t>(nicc::kIntQlenUnitBytes) << multLog2;
    const uint64_t qlenUnits = qlenBytes / qUnit;
    return nicc::IntHop::Make(rateCode,
                              static_cast<uint32_t>(nowNs & nicc::kIntTsMask),
                              static_cast<uint32_t>((txBytes / txUnit) & nicc::kIntTxMask),
                              static_cast<uint32_t>(qlenUnits < nicc::kIntQlenMask
                                                        ? qlenUnits
                                                        : nicc::kIntQlenMask));
}

} // namespace ns3

#endif // NICC_INT_H
