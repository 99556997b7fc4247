/*
 * nicc-pfc-storm.cc — a PFC storm, with and without the switch watchdog.
 *
 * A leaf-spine of 2 leaves x 2 spines x 4 hosts at 100 Gb/s. From 50 us on,
 * host 4's NIC stops draining its receive side and keeps sending XOFF (a
 * stalled receiver: NiccPfcStorm). Host 0 sends to that victim; hosts 1..3
 * send to hosts 5..7, which are healthy, on the same leaf as the victim.
 *
 * Without the watchdog the pause spreads: leaf 1's port to host 4 fills its
 * share of the buffer, leaf 1 pauses the spines, the spines pause leaf 0,
 * and the innocent flows stop too. With the PFC watchdog on every switch
 * (SONiC pfcwd semantics: a lossless queue paused with no transmission for
 * PfcWatchdogDetect is stormed and its packets dropped), only the victim's
 * flow suffers. NiccPfcSpreadSampler counts the paused ports every 10 us.
 *
 * Prints, per run, the peak number of paused switch ports and hosts and the
 * innocent flows' completion; exits 1 unless the watchdog run completes
 * every innocent flow.
 *
 *   ./nicc-pfc-storm                            # 1 MB per flow, 2 ms
 *   ./nicc-pfc-storm --size=4000000 --stop=5ms
 */
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdio>

using namespace ns3;

struct StormResult
{
    uint32_t peakSwitchPorts{0};
    uint32_t peakHosts{0};
    uint32_t innocentDone{0};
    std::vector<NiccFlowRecord> flows;
};

static StormResult
RunStorm(bool watchdog, const std::string& cc, uint64_t size, uint64_t buffer, Time stop)
{
    NiccFabricHelper fabric;
    fabric.SetSwitchAttribute("PfcWatchdog", BooleanValue(watchdog));
    fabric.SetMmuAttribute("BufferSize", UintegerValue(buffer)); // a small buffer fills soon
    NiccLeafSpineTopology t =
        fabric.BuildLeafSpine(2, 2, 4, DataRate("100Gbps"), DataRate("100Gbps"), MicroSeconds(1));
    NiccNicHelper nics;
    nics.SetNicAttribute("CongestionControl", StringValue(cc));
    std::string error;
    if (!nics.Install(t.hosts, &error))
    {
        std::fprintf(stderr, "nicc-pfc-storm: %s\n", error.c_str());
        std::exit(2);
    }
    nics.AddFlow(t.hosts[0], t.hosts[4], size, Time(0)); // to the victim
    for (uint32_t i = 1; i < 4; ++i)
    {
        nics.AddFlow(t.hosts[i], t.hosts[4 + i], size, Time(0)); // innocent
    }
    Ptr<NiccPfcStorm> storm = CreateObject<NiccPfcStorm>();
    storm->Install(t.hostDevices[4], MicroSeconds(50), Time(-1)); // never ends
    NiccPfcSpreadSampler spread;
    spread.Start(fabric.GetSwitches(), t.hostDevices, MicroSeconds(10), MicroSeconds(10), stop);

    Simulator::Stop(stop);
    Simulator::Run();
    StormResult r;
    r.peakSwitchPorts = spread.GetPeakSwitchPorts();
    r.peakHosts = spread.GetPeakHosts();
    r.flows = nics.GetFlowRecords();
    for (size_t i = 1; i < r.flows.size(); ++i)
    {
        r.innocentDone += r.flows[i].fctNs >= 0 ? 1 : 0;
    }
    Simulator::Destroy();
    return r;
}

int
main(int argc, char* argv[])
{
    uint64_t size = 1000000;
    uint64_t buffer = 1000000;
    std::string cc = "none";
    Time stop = MilliSeconds(2);
    CommandLine cmd(__FILE__);
    cmd.AddValue("size", "Bytes per flow", size);
    cmd.AddValue("buffer", "Switch buffer in bytes", buffer);
    cmd.AddValue("cc", "Congestion control: none, dcqcn, hpcc", cc);
    cmd.AddValue("stop", "Simulated time", stop);
    cmd.Parse(argc, argv);

    std::printf("nicc-pfc-storm: host 4 stalls at 50 us; flow 0 goes to it, flows 1-3 to its neighbours\n");
    StormResult on{};
    for (bool watchdog : {false, true})
    {
        const StormResult r = RunStorm(watchdog, cc, size, buffer, stop);
        std::printf("  watchdog %-3s: peak paused switch ports %u, hosts %u; innocent flows done %u of 3",
                    watchdog ? "on" : "off",
                    r.peakSwitchPorts,
                    r.peakHosts,
                    r.innocentDone);
        std::string fcts;
        for (size_t i = 1; i < r.flows.size(); ++i)
        {
            fcts += r.flows[i].fctNs >= 0 ? " " + std::to_string(r.flows[i].fctNs / 1000) + " us" : " -";
        }
        std::printf(" (fct%s)\n", fcts.c_str());
        on = watchdog ? r : on;
    }
    return on.innocentDone == 3 ? 0 : 1;
}
