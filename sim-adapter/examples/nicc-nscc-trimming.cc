/*
 * nicc-nscc-trimming.cc — UEC's NSCC with packet trimming on an incast.
 *
 * The Ultra Ethernet transport's configuration: no PFC (a lossy fabric),
 * NSCC (the engine's UEC sender-side congestion control: queueing delay and
 * ECN), REPS spraying and switches that trim. When a data packet would
 * push an egress queue past TrimThreshold, the switch forwards only its
 * header at high priority; the receiver answers with a trim NACK and the
 * sender resends that one packet at once, instead of waiting for a
 * retransmission timeout.
 *
 * A leaf-spine of 2 leaves x 2 spines x 8 hosts, 100 Gb/s everywhere: the
 * 8 hosts of leaf 0 and 7 of leaf 1 each send `size` bytes to host 8 (a
 * 15-to-1 incast), through switches of 200 KB of buffer. It runs twice:
 * trimming on, then off (the overflow is dropped: the senders learn of it
 * from SACK gaps or the timeout). Prints the last flow's completion over the ideal (all bytes
 * through the receiver's link at line rate), trims, drops, retransmissions
 * and timeouts; exits 1 if the trimming run left a flow incomplete or hit
 * a timeout.
 *
 *   ./nicc-nscc-trimming                        # 256 KB per sender
 *   ./nicc-nscc-trimming --size=1000000
 *
 * Settings as in scenarios/uec-incast64-leafspine.toml (docs/uec.md):
 * trim above 1 BDP of the port (100 Gb/s x 8.2 us = 102500 B), ECN from
 * 0.2 to 0.8 BDP, NSCC base RTT 8.2 us and target 0.75 of it.
 */
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>

using namespace ns3;

struct TrimResult
{
    int64_t lastFctNs{0}; ///< -1: a flow did not complete
    uint64_t trims{0};
    uint64_t drops{0};
    uint64_t retx{0};
    uint64_t timeouts{0};
};

static TrimResult
RunIncast(bool trim, uint64_t size, uint64_t buffer)
{
    NiccFabricHelper fabric;
    fabric.SetMmuAttribute("PfcEnabled", BooleanValue(false));
    fabric.SetMmuAttribute("BufferSize", UintegerValue(buffer));
    fabric.SetSwitchAttribute("TrimEnabled", BooleanValue(trim));
    fabric.SetSwitchAttribute("TrimThreshold", UintegerValue(102500));
    fabric.SetSwitchAttribute("EcnKmin", UintegerValue(20500));
    fabric.SetSwitchAttribute("EcnKmax", UintegerValue(82000));
    fabric.SetSwitchAttribute("EcnPmax", DoubleValue(1.0));
    NiccLeafSpineTopology t =
        fabric.BuildLeafSpine(2, 2, 8, DataRate("100Gbps"), DataRate("100Gbps"), MicroSeconds(1));

    NiccNicHelper nics;
    nics.SetNicAttribute("CongestionControl", StringValue("nscc"));
    nics.SetNicAttribute("SprayPolicy", StringValue("reps"));
    nics.SetNicAttribute("SprayEvBits", IntegerValue(8));
    nics.SetNicAttribute("Recovery", StringValue("SelectiveRepeat"));
    nics.SetNicAttribute("Sack", BooleanValue(true));
    nics.SetNicAttribute("NsccBaseRttNs", IntegerValue(8200));
    nics.SetNicAttribute("NsccTargetQdelayNs", IntegerValue(6150));
    nics.SetNicAttribute("RetxTimeout", TimeValue(MicroSeconds(500)));
    std::string error;
    if (!nics.Install(t.hosts, &error))
    {
        std::fprintf(stderr, "nicc-nscc-trimming: %s\n", error.c_str());
        std::exit(2);
    }
    for (uint32_t i = 0; i < t.hosts.size(); ++i)
    {
        if (i != 8)
        {
            nics.AddFlow(t.hosts[i], t.hosts[8], size, Time(0));
        }
    }
    nics.StopWhenAllComplete();
    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();

    TrimResult r;
    for (const NiccFlowRecord& f : nics.GetFlowRecords())
    {
        r.lastFctNs = f.fctNs < 0 || r.lastFctNs < 0 ? -1 : std::max(r.lastFctNs, f.fctNs);
    }
    for (const auto& sw : fabric.GetSwitches())
    {
        r.trims += sw->GetTrims();
        r.drops += sw->GetDrops();
    }
    for (const auto& h : t.hosts)
    {
        r.retx += NiccNicHelper::GetNic(h)->GetRetxPackets();
        r.timeouts += NiccNicHelper::GetNic(h)->GetTimeouts();
    }
    Simulator::Destroy();
    return r;
}

int
main(int argc, char* argv[])
{
    uint64_t size = 256000;
    uint64_t buffer = 200000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("size", "Bytes per sender", size);
    cmd.AddValue("buffer", "Switch buffer in bytes (shared by its ports)", buffer);
    cmd.Parse(argc, argv);

    const double idealNs = 15.0 * static_cast<double>(size) * 8 / 100e9 * 1e9;
    std::printf("nicc-nscc-trimming: 15-to-1 incast, %llu B each, NSCC + REPS, no PFC; ideal %.1f us\n",
                static_cast<unsigned long long>(size),
                idealNs / 1e3);
    TrimResult on{};
    for (bool trim : {true, false})
    {
        const TrimResult r = RunIncast(trim, size, buffer);
        std::printf("  trimming %-3s: last flow %s; %llu trims, %llu drops, %llu resent, %llu timeouts\n",
                    trim ? "on" : "off",
                    r.lastFctNs < 0 ? "incomplete"
                                    : (std::to_string(r.lastFctNs / 1000) + " us = " +
                                       std::to_string(r.lastFctNs / idealNs).substr(0, 4) + " x ideal")
                                          .c_str(),
                    static_cast<unsigned long long>(r.trims),
                    static_cast<unsigned long long>(r.drops),
                    static_cast<unsigned long long>(r.retx),
                    static_cast<unsigned long long>(r.timeouts));
        on = trim ? r : on;
    }
    return on.lastFctNs >= 0 && on.timeouts == 0 ? 0 : 1;
}
