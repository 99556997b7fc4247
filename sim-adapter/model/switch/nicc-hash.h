/*
 * nicc-hash.h — the 64-bit mixing function the model hashes with (ECMP
 * next-hop choice, per-QP port salts and spray seeds).
 *
 *   const uint64_t h = NiccMix64((uint64_t{node} << 32) | qpn);
 *
 * The splitmix64 finaliser: every input bit affects every output bit, so
 * `h % n` spreads well. Private to the model (.cc files only).
 */
#ifndef NICC_HASH_H
#define NICC_HASH_H

#include <cstdint>

namespace ns3
{

inline uint64_t
NiccMix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

} // namespace ns3

#endif // NICC_HASH_H
