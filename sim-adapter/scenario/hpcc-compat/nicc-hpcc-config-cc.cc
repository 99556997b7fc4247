/*
 * nicc-hpcc-config-cc.cc — the congestion-control keys of the HPCC config
 * mapping (nicc-hpcc-config-map.h): CC_MODE, DCQCN's gain and rates, HPCC's
 * rates as windows over T, and the window and feedback mode flags.
 */
#include "nicc-hpcc-config-map.h"

#include "nicc-units.h"

#include <cmath>

namespace ns3
{
namespace hpcc_config
{

bool
MapCcMode(const Line& l, Ctx* c, std::string* why)
{
    uint64_t m;
    if (!Whole(l.args[0], 0, 1000, &m, why))
    {
        return false;
    }
    c->out->ccMode = static_cast<uint32_t>(m);
    const char* cc = m == 1 ? "dcqcn" : m == 3 ? "hpcc" : m == 10 ? "hpcc-pint" : nullptr;
    if (cc)
    {
        c->Set("cc", cc);
        return true;
    }
    *why = m == 7   ? "7 is TIMELY: not implemented in nicc (DCQCN = 1, HPCC = 3, HPCC-PINT = 10)"
           : m == 8 ? "8 is DCTCP: not implemented in nicc (DCQCN = 1, HPCC = 3, HPCC-PINT = 10)"
                    : l.args[0] + " is no congestion control of the HPCC simulator (1 DCQCN, 3 HPCC, "
                                  "7 TIMELY, 8 DCTCP, 10 HPCC-PINT)";
    return false;
}

bool
Hpcc(const Ctx& c)
{
    return c.out->ccMode == 3 || c.out->ccMode == 10;
}

bool
MapEwmaGain(const Line& l, Ctx* c, std::string* why)
{
    // The engine keeps g as (1024 - dce_tcp_g) / 1024 (mlx5's encoding).
    double g;
    if (!Number(l.args[0], 1.0 / 1024, 1, &g, why))
    {
        return false;
    }
    const double steps = g * 1024.0;
    if (std::fabs(steps - std::round(steps)) > 1e-9)
    {
        *why = "g = " + l.args[0] + " is not a multiple of 1/1024 (the engine's g resolution, "
               "dcqcn.rp_dce_tcp_g = 1024 - g * 1024)";
        return false;
    }
    c->Set("dcqcn.rp_dce_tcp_g", std::to_string(1024 - static_cast<int>(std::lround(steps))));
    return true;
}

/// A rate as the HPCC window it gives over T (the simulator's HPCC is
/// rate-based with window = rate x T): bytes = bit/s x T / 8.
bool
HpccWindowBytes(const Line& l, const Ctx& c, std::string* bytes, std::string* why)
{
    uint64_t bps;
    if (!NiccParseDataRate(l.args[0], &bps))
    {
        *why = "'" + l.args[0] + "' is not an ns-3 data rate (e.g. 50Mb/s, 1Gbps)";
        return false;
    }
    *bytes = std::to_string(static_cast<uint64_t>(std::llround(static_cast<double>(bps) * c.baseRttNs / 8e9)));
    return true;
}

/// A rate key of DCQCN that HPCC reads as a window over T: `dcqcnKey` in
/// Mb/s, or `hpccKey` in bytes (R x T / 8; at least `minBytes`).
static bool
RateOrWindow(const Line& l, Ctx* c, const char* hpccKey, const char* dcqcnKey, uint64_t minBytes, std::string* why)
{
    std::string v;
    if (Hpcc(*c) ? !HpccWindowBytes(l, *c, &v, why) : !RateMbps(l, &v, why))
    {
        return false;
    }
    if (Hpcc(*c) && std::stoull(v) < minBytes)
    {
        v = std::to_string(minBytes);
    }
    c->Set(Hpcc(*c) ? hpccKey : dcqcnKey, v);
    return true;
}

bool
MapRateAi(const Line& l, Ctx* c, std::string* why)
{
    // HPCC's additive increase R_AI as the window's W_AI = R_AI x T / 8.
    return RateOrWindow(l, c, "hpcc.w_ai_bytes", "dcqcn.rp_ai_rate", 0, why);
}

bool
MapMinRate(const Line& l, Ctx* c, std::string* why)
{
    // HPCC's rate floor as the window floor over T (at least 1 byte).
    return RateOrWindow(l, c, "hpcc.min_window_bytes", "dcqcn.rp_min_rate", 1, why);
}

bool
MapPint(const Line& l, Ctx* c, std::string* why)
{
    double v;
    if (!Number(l.args[0], 0, 1e6, &v, why))
    {
        return false;
    }
    c->Note(l, c->out->ccMode == 10 ? "HPCC-PINT: the engine's PINT encoding is fixed (docs/hpcc.md); not applied"
                                    : "applies to HPCC-PINT (CC_MODE 10) only; no effect");
    return true;
}

/// A flag that must be `want` (else refused with `refusal`) for HPCC and is
/// irrelevant otherwise.
bool
HpccMust(const Line& l, Ctx* c, bool want, const char* refusal, std::string* why)
{
    if (!Hpcc(*c))
    {
        bool on;
        if (!Flag(l, &on, why))
        {
            return false;
        }
        c->Note(l, "applies to HPCC only; no effect with this CC_MODE");
        return true;
    }
    return FlagMust(l, want, refusal, why);
}

bool
MapHasWin(const Line& l, Ctx* c, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (Hpcc(*c))
    {
        if (!on)
        {
            *why = "0 (HPCC without its window) is not implemented: nicc's HPCC is window-based";
            return false;
        }
        return true;
    }
    if (on)
    {
        // DCQCN with a BDP window on top of its rate (third.cc gives each
        // flow maxBdp with GLOBAL_T 1, its pair's BDP otherwise; GLOBAL_T's
        // default is 1): the fabric computes them from the topology.
        c->Set("dcqcn_window_bdp", LineFlag(*c, "GLOBAL_T", true) ? "max" : "pair");
    }
    return true;
}

bool
MapVarWin(const Line& l, Ctx* c, std::string* why)
{
    if (Hpcc(*c))
    {
        return HpccMust(l, c, true, "0 (a fixed maximum window) is not implemented: nicc's HPCC window is "
                                    "variable", why);
    }
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (c->out->ccMode == 1 && LineFlag(*c, "HAS_WIN", false))
    {
        c->Set("dcqcn_var_window", on ? "true" : "false");
        return true;
    }
    c->Note(l, "applies to HPCC and to DCQCN with HAS_WIN 1 only; no effect here");
    return true;
}

bool
MapFastReact(const Line& l, Ctx* c, std::string* why)
{
    return HpccMust(l, c, true, "0 (react once per RTT) is not implemented: nicc's HPCC reacts to every ACK",
                    why);
}

bool
MapMultiRate(const Line& l, Ctx* c, std::string* why)
{
    bool on;
    if (!Flag(l, &on, why))
    {
        return false;
    }
    if (Hpcc(*c) && on)
    {
        c->Note(l, "1 (a rate per hop, the smallest taken) is not modelled: nicc's HPCC takes U from the "
                   "most loaded hop (MULTI_RATE 0, the paper's algorithm); results can differ where several "
                   "hops are loaded");
    }
    return true;
}

bool
MapSampleFeedback(const Line& l, Ctx* c, std::string* why)
{
    return HpccMust(l, c, false, "1 (INT once per RTT or when a queue is seen) is not implemented: nicc's "
                                 "HPCC reads INT on every ACK; use 0", why);
}

bool
MapRateBound(const Line& l, Ctx*, std::string* why)
{
    return FlagMust(l, true, "0 (no rate limiter: line rate within the window) is not implemented: nicc paces "
                             "every flow at its rate; use 1", why);
}

} // namespace hpcc_config
} // namespace ns3
