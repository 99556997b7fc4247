/*
 * nicc-ecn.h — RED-style ECN marking of the nicc switch egress, as used for
 * DCQCN: no mark up to Kmin, a linear ramp to Pmax at Kmax, always above.
 *
 *   NiccRedParams red = NiccRedParams::ScaledForRate(100e9);  // 400 KB/1.6 MB, 0.2
 *   if (uniform01 < NiccRedMarkProbability(qlen_bytes, red)) { mark CE; }
 *
 * Units: queue lengths in bytes (1 KB = 1000 B); probabilities in [0, 1].
 * Published defaults (HPCC paper's DCQCN setting): Kmin 100 KB, Kmax 400 KB
 * at 25 Gb/s, scaled linearly with the link rate; Pmax 0.2.
 */
#ifndef NICC_ECN_H
#define NICC_ECN_H

#include <cstdint>

namespace ns3
{

/// RED thresholds of one egress queue.
struct NiccRedParams
{
    uint64_t kminBytes;
    uint64_t kmaxBytes;
    double pmax;

    static constexpr uint64_t KMIN_BYTES_AT_25G = 100000; ///< 100 KB
    static constexpr uint64_t KMAX_BYTES_AT_25G = 400000; ///< 400 KB
    static constexpr double PMAX_DEFAULT = 0.2;

    /// The published defaults scaled to a link of `bps` bit/s.
    static NiccRedParams ScaledForRate(uint64_t bps)
    {
        // bps / 25e9 without floating point drift for round rates.
        return NiccRedParams{KMIN_BYTES_AT_25G * bps / 25000000000ULL,
                             KMAX_BYTES_AT_25G * bps / 25000000000ULL,
                             PMAX_DEFAULT};
    }
};

/// Probability that a packet leaving a queue of `qlenBytes` is marked CE:
/// 0 for q <= Kmin; Pmax * (q - Kmin) / (Kmax - Kmin) for Kmin < q <= Kmax;
/// 1 for q > Kmax.
inline double
NiccRedMarkProbability(uint64_t qlenBytes, const NiccRedParams& red)
{
    if (qlenBytes <= red.kminBytes)
    {
        return 0.0;
    }
    if (qlenBytes > red.kmaxBytes)
    {
        return 1.0;
    }
    return red.pmax * static_cast<double>(qlenBytes - red.kminBytes) /
           static_cast<double>(red.kmaxBytes - red.kminBytes);
}

} // namespace ns3

#endif // NICC_ECN_H
