/*
 * nicc-fabric-incast.cc — N-to-1 incast on one nicc switch with the test
 * endpoints (no congestion control: senders run at line rate, PFC keeps the
 * fabric lossless). Prints pause frames, max queue, drops, delivered bytes,
 * ECN marks and simulator speed (events, wall time, events/s).
 *
 *   ./nicc-fabric-incast                       # 16-to-1, 100 Gb/s, 1 us, 10 ms
 *   ./nicc-fabric-incast --senders=8 --pfc=false --buffer=1000000
 *   ./nicc-fabric-incast --scheduler=map       # compare core schedulers
 *
 * Units on the command line: rates as ns-3 DataRate strings, times as ns-3
 * Time strings, sizes in bytes. --bytes=0 means senders never run dry.
 */
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/nicc-module.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <cstdio>
#include <limits>
#include <sys/resource.h>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t senders = 16;
    std::string rate = "100Gbps";
    Time delay = MicroSeconds(1);
    Time stop = MilliSeconds(10);
    uint64_t bytes = 0;
    uint64_t buffer = 16000000;
    bool pfc = true;
    bool intStack = true;
    uint32_t mtu = 1024;
    std::string scheduler = "pq";

    CommandLine cmd(__FILE__);
    cmd.AddValue("senders", "Number of senders", senders);
    cmd.AddValue("rate", "Link rate of every link", rate);
    cmd.AddValue("delay", "One-way propagation delay of every link", delay);
    cmd.AddValue("stop", "Simulated time", stop);
    cmd.AddValue("bytes", "Payload bytes per sender (0 = unlimited)", bytes);
    cmd.AddValue("buffer", "Switch buffer in bytes", buffer);
    cmd.AddValue("pfc", "PFC on (lossless) or off (lossy)", pfc);
    cmd.AddValue("int", "Senders attach an INT stack", intStack);
    cmd.AddValue("mtu", "Payload MTU: 1024, 4096 or 9000", mtu);
    cmd.AddValue("scheduler", "Core scheduler: pq (PriorityQueue) or map (default)", scheduler);
    cmd.Parse(argc, argv);

    if (scheduler == "pq")
    {
        NiccFabricHelper::UsePriorityQueueScheduler();
    }

    NiccFabricHelper fabric;
    fabric.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    fabric.SetMmuAttribute("BufferSize", UintegerValue(buffer));
    fabric.SetMmuAttribute("PfcEnabled", BooleanValue(pfc));
    fabric.SetEndpointAttribute("IntEnabled", BooleanValue(intStack));
    NiccIncastTopology t = fabric.BuildIncast(senders, DataRate(rate), delay);

    std::vector<Ptr<NiccTestEndpoint>> tx;
    const uint64_t each = bytes ? bytes : std::numeric_limits<uint64_t>::max() / 2;
    for (uint32_t i = 0; i < senders; ++i)
    {
        tx.push_back(fabric.InstallTestEndpoint(t.senders[i]));
        tx.back()->AddFlow(t.receiver->GetId(),
                           each,
                           DataRate(0),
                           static_cast<uint16_t>(0xC000 + i),
                           MicroSeconds(1));
    }
    Ptr<NiccTestEndpoint> rx = fabric.InstallTestEndpoint(t.receiver);

    const auto wall0 = std::chrono::steady_clock::now();
    Simulator::Stop(stop);
    Simulator::Run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

    uint64_t sent = 0;
    for (const auto& e : tx)
    {
        sent += e->GetTxBytes();
    }
    uint64_t inflight = t.sw->GetMmu()->GetSharedUsed() + t.sw->GetMmu()->GetHeadroomUsedTotal();
    const uint64_t events = Simulator::GetEventCount();
    struct rusage ru{};
    getrusage(RUSAGE_SELF, &ru);

    std::printf("nicc-fabric-incast: %u-to-1, %s, delay %lld ns, %lld us simulated, PFC %s, "
                "buffer %llu B\n",
                senders,
                rate.c_str(),
                static_cast<long long>(delay.GetNanoSeconds()),
                static_cast<long long>(stop.GetMicroSeconds()),
                pfc ? "on" : "off",
                static_cast<unsigned long long>(buffer));
    std::printf("  pause frames sent     %llu (resumes %llu)\n",
                static_cast<unsigned long long>(t.sw->GetPfcPauseSent()),
                static_cast<unsigned long long>(t.sw->GetPfcResumeSent()));
    std::printf("  max egress queue      %llu B\n",
                static_cast<unsigned long long>(t.sw->GetMaxQueueBytes()));
    std::printf("  max buffer used       %llu B\n",
                static_cast<unsigned long long>(t.sw->GetMaxBufferUsed()));
    std::printf("  drops                 %llu\n", static_cast<unsigned long long>(t.sw->GetDrops()));
    std::printf("  ECN-marked packets    %llu\n",
                static_cast<unsigned long long>(t.sw->GetEcnMarked()));
    std::printf("  bytes sent            %llu (payload)\n", static_cast<unsigned long long>(sent));
    std::printf("  bytes delivered       %llu (payload), %llu B still in the switch\n",
                static_cast<unsigned long long>(rx->GetRxBytes()),
                static_cast<unsigned long long>(inflight));
    std::printf("  receiver goodput      %.2f Gb/s\n",
                static_cast<double>(rx->GetRxBytes()) * 8 / stop.GetSeconds() / 1e9);
    std::printf("  events                %llu\n", static_cast<unsigned long long>(events));
    std::printf("  wall time             %.3f s (%s scheduler)\n", wall, scheduler.c_str());
    const double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
                       ru.ru_stime.tv_usec * 1e-6;
    std::printf("  events/s              %.2f M per wall second, %.2f M per CPU second "
                "(CPU %.3f s, whole process)\n",
                static_cast<double>(events) / wall / 1e6,
                static_cast<double>(events) / cpu / 1e6,
                cpu);
    std::printf("  max RSS               %ld MB\n", ru.ru_maxrss / 1024);
    // The example's check (its ctest): a lossless fabric drops nothing and
    // the receiver got data.
    const bool ok = rx->GetRxBytes() > 0 && (!pfc || t.sw->GetDrops() == 0);
    Simulator::Destroy();
    return ok ? 0 : 1;
}
