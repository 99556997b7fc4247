/*
 * nicc-mpi.cc — NiccMpi over ns3::MpiInterface (NICC_NS3_MPI) or a single
 * rank.
 */
#include "nicc-mpi.h"

#include "ns3/channel.h"
#include "ns3/node-list.h"

#ifdef NICC_NS3_MPI
#include "ns3/distributed-simulator-impl.h"
#include "ns3/global-value.h"
#include "ns3/simulator.h"
#include "ns3/make-event.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/string.h"

#include <mpi.h>
#endif

namespace ns3
{

namespace
{
bool g_active = false;
/// Every rank's mailbox (OpenMailboxes): node id and device index.
std::vector<std::pair<uint32_t, uint32_t>> g_mailbox;

/// Device `d` of `node` links only nodes of `rank`.
bool
StaysOnRank(const Ptr<Node>& node, uint32_t d, uint32_t rank)
{
    Ptr<Channel> ch = node->GetDevice(d)->GetChannel();
    if (!ch || ch->GetNDevices() < 2)
    {
        return false;
    }
    for (std::size_t k = 0; k < ch->GetNDevices(); ++k)
    {
        if (ch->GetDevice(k)->GetNode()->GetSystemId() != rank)
        {
            return false;
        }
    }
    return true;
}
} // namespace

bool
NiccMpi::OpenMailboxes(const std::vector<Ptr<Node>>& nodes, Callback<void, Ptr<Packet>> cb, std::string* error)
{
    const uint32_t ranks = Size();
    g_mailbox.assign(ranks, {UINT32_MAX, 0});
    for (const auto& n : nodes)
    {
        const uint32_t r = n->GetSystemId();
        for (uint32_t d = 0; r < ranks && g_mailbox[r].first == UINT32_MAX && d < n->GetNDevices(); ++d)
        {
            if (StaysOnRank(n, d, r))
            {
                g_mailbox[r] = {n->GetId(), d};
            }
        }
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        if (g_mailbox[r].first == UINT32_MAX)
        {
            *error = "MPI rank " + std::to_string(r) + " owns no host with a link inside the rank (notices "
                     "between ranks need one)";
            return false;
        }
    }
    if (ranks > 1)
    {
        Listen(NodeList::GetNode(g_mailbox[Rank()].first)->GetDevice(g_mailbox[Rank()].second), cb);
    }
    return true;
}

#ifdef NICC_NS3_MPI

bool
NiccMpi::Built()
{
    return true;
}

bool
NiccMpi::Start(uint32_t ranks, std::string* error)
{
    if (!g_active)
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DistributedSimulatorImpl"));
        MpiInterface::Enable(nullptr, nullptr);
        g_active = true;
    }
    if (MpiInterface::GetSize() != ranks)
    {
        *error = "key 'mpi_ranks': " + std::to_string(ranks) + " ranks asked for, but this MPI job has " +
                 std::to_string(MpiInterface::GetSize()) + " process(es) (run it as: mpirun -np " +
                 std::to_string(ranks) + " nicc-sim ...)";
        return false;
    }
    return true;
}

bool
NiccMpi::Active()
{
    return g_active;
}

uint32_t
NiccMpi::Rank()
{
    return g_active ? MpiInterface::GetSystemId() : 0;
}

uint32_t
NiccMpi::Size()
{
    return g_active ? MpiInterface::GetSize() : 1;
}

void
NiccMpi::Finish()
{
    if (g_active)
    {
        MpiInterface::Disable();
        g_active = false;
    }
}

void
NiccMpi::Send(Ptr<Packet> p, Time rxTime, uint32_t node, uint32_t ifIndex)
{
    MpiInterface::SendPacket(p, rxTime, node, ifIndex);
}

void
NiccMpi::BoundLookAhead(Time t)
{
    Ptr<DistributedSimulatorImpl> impl = DynamicCast<DistributedSimulatorImpl>(Simulator::GetImplementation());
    if (impl)
    {
        impl->BoundLookAhead(t);
    }
}

void
NiccMpi::Listen(Ptr<NetDevice> dev, Callback<void, Ptr<Packet>> cb)
{
    Ptr<MpiReceiver> rx = CreateObject<MpiReceiver>();
    rx->SetReceiveCallback(cb);
    dev->AggregateObject(rx);
}

const std::type_info*
NiccMpi::DeliveryEventType()
{
    // The same MakeEvent instantiation as GrantedTimeWindowMpiInterface's
    // ScheduleWithContext(node, delay, &MpiReceiver::Receive, Ptr<MpiReceiver>,
    // Ptr<Packet>), hence the same local event class.
    static const std::type_info* type = [] {
        EventImpl* ev = MakeEvent(&MpiReceiver::Receive, Ptr<MpiReceiver>(), Ptr<Packet>());
        const std::type_info* t = &typeid(*ev);
        ev->Unref();
        return t;
    }();
    return g_active ? type : nullptr;
}

void
NiccMpi::SumToRoot(std::vector<uint64_t>* v)
{
    if (!g_active || MpiInterface::GetSize() == 1 || v->empty())
    {
        return;
    }
    std::vector<uint64_t> out(v->size());
    MPI_Reduce(v->data(), out.data(), static_cast<int>(v->size()), MPI_UINT64_T, MPI_SUM, 0,
               MpiInterface::GetCommunicator());
    if (MpiInterface::GetSystemId() == 0)
    {
        *v = std::move(out);
    }
}

void
NiccMpi::MaxToRoot(std::vector<uint64_t>* v)
{
    if (!g_active || MpiInterface::GetSize() == 1 || v->empty())
    {
        return;
    }
    std::vector<uint64_t> out(v->size());
    MPI_Reduce(v->data(), out.data(), static_cast<int>(v->size()), MPI_UINT64_T, MPI_MAX, 0,
               MpiInterface::GetCommunicator());
    if (MpiInterface::GetSystemId() == 0)
    {
        *v = std::move(out);
    }
}

std::vector<uint8_t>
NiccMpi::GatherToRoot(const std::vector<uint8_t>& mine)
{
    if (!g_active || MpiInterface::GetSize() == 1)
    {
        return mine;
    }
    const int n = static_cast<int>(MpiInterface::GetSize());
    const bool root = MpiInterface::GetSystemId() == 0;
    const int len = static_cast<int>(mine.size());
    std::vector<int> lens(root ? n : 0);
    MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MpiInterface::GetCommunicator());
    std::vector<int> offsets(root ? n : 0);
    std::size_t total = 0;
    for (int i = 0; root && i < n; ++i)
    {
        offsets[i] = static_cast<int>(total);
        total += static_cast<std::size_t>(lens[i]);
    }
    std::vector<uint8_t> all(total);
    MPI_Gatherv(mine.data(), len, MPI_BYTE, all.data(), lens.data(), offsets.data(), MPI_BYTE, 0,
                MpiInterface::GetCommunicator());
    return all;
}

void
NiccMpi::Post(Ptr<Packet> p, Time rxTime)
{
    for (uint32_t r = 0; r < g_mailbox.size(); ++r)
    {
        if (r != Rank())
        {
            Send(p->Copy(), rxTime, g_mailbox[r].first, g_mailbox[r].second);
        }
    }
}

void
NiccMpi::SumAll(std::vector<uint64_t>* v)
{
    if (!g_active || MpiInterface::GetSize() == 1 || v->empty())
    {
        return;
    }
    std::vector<uint64_t> out(v->size());
    MPI_Allreduce(v->data(), out.data(), static_cast<int>(v->size()), MPI_UINT64_T, MPI_SUM,
                  MpiInterface::GetCommunicator());
    *v = std::move(out);
}

#else // no MPI in this ns-3

bool
NiccMpi::Built()
{
    return false;
}

bool
NiccMpi::Start(uint32_t /*ranks*/, std::string* error)
{
    *error = "key 'mpi_ranks': this nicc-sim is built against an ns-3 without MPI; build the MPI "
             "flavour with scripts/build-ns3-mpi.sh and configure with "
             "-DCMAKE_PREFIX_PATH=build/ns3-mpi/prefix (docs/scale.md)";
    return false;
}

bool
NiccMpi::Active()
{
    return g_active; // never set without MPI
}

uint32_t
NiccMpi::Rank()
{
    return 0;
}

uint32_t
NiccMpi::Size()
{
    return 1;
}

void
NiccMpi::Finish()
{
}

void
NiccMpi::Send(Ptr<Packet> /*p*/, Time /*rxTime*/, uint32_t /*node*/, uint32_t /*ifIndex*/)
{
}

void
NiccMpi::BoundLookAhead(Time /*t*/)
{
}

void
NiccMpi::Listen(Ptr<NetDevice> /*dev*/, Callback<void, Ptr<Packet>> /*cb*/)
{
}

const std::type_info*
NiccMpi::DeliveryEventType()
{
    return nullptr;
}

void
NiccMpi::SumToRoot(std::vector<uint64_t>* /*v*/)
{
}

void
NiccMpi::MaxToRoot(std::vector<uint64_t>* /*v*/)
{
}

std::vector<uint8_t>
NiccMpi::GatherToRoot(const std::vector<uint8_t>& mine)
{
    return mine;
}

void
NiccMpi::SumAll(std::vector<uint64_t>* /*v*/)
{
}

void
NiccMpi::Post(Ptr<Packet> /*p*/, Time /*rxTime*/)
{
}

#endif

} // namespace ns3
