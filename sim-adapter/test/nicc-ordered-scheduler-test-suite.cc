/*
 * nicc-ordered-scheduler-test-suite.cc — NiccOrderedScheduler and the key
 * mpi_ranks without MPI ("nicc-ordered-scheduler"):
 *   - the order: by time; within a nanosecond, frame arrivals first, by
 *     (link key, send number) whatever the insertion order, then every other
 *     event by insertion; Remove() takes out exactly the event named;
 *   - 2000 random events come out in the order computed here from their own
 *     fields (not from the scheduler's comparator);
 *   - scheduler=ordered runs a fat-tree scenario to the same accounting as
 *     the default scheduler (bytes sent = delivered + declared lost, every
 *     flow of a light load done) and twice to the same flow completion times;
 *   - mpi_ranks refused in a build without MPI (or with MPI but one
 *     process), naming the key.
 *
 *   ./nicc-sim-test-runner --suite=nicc-ordered-scheduler --verbose
 */
#include "nicc-test-util.h"

#include "ns3/make-event.h"
#include "ns3/nicc-module.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

void
Nothing()
{
}

/// One event as the test describes it: what the scheduler must order by.
struct Spec
{
    uint64_t ts;
    bool arrival;
    uint32_t key; ///< arrivals: link key
    uint64_t seq; ///< arrivals: send number
    uint32_t uid; ///< insertion number (the simulator's)
};

Scheduler::Event
Make(const Spec& s)
{
    Scheduler::Event ev;
    ev.impl = s.arrival ? static_cast<EventImpl*>(new NiccArrivalEvent(nullptr, nullptr, 0, 0, s.key, s.seq))
                        : MakeEvent(&Nothing);
    ev.key.m_ts = s.ts;
    ev.key.m_uid = s.uid;
    ev.key.m_context = 0;
    return ev;
}

/// Pops every event, returning the uids in order (and releasing the events).
std::vector<uint32_t>
Drain(NiccOrderedScheduler* s)
{
    std::vector<uint32_t> uids;
    while (!s->IsEmpty())
    {
        Scheduler::Event ev = s->RemoveNext();
        uids.push_back(ev.key.m_uid);
        ev.impl->Unref();
    }
    return uids;
}

class OrderTest : public TestCase
{
  public:
    OrderTest()
        : TestCase("same nanosecond: arrivals by (link, send number), then others by insertion")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NiccOrderedScheduler> s = CreateObject<NiccOrderedScheduler>();
        // Inserted in this order (uid = position); the expected pop order
        // is written out by hand.
        const std::vector<Spec> in = {
            {10, false, 0, 0, 0}, // other, ts 10
            {10, true, 7, 5, 1},  // arrival link 7 seq 5
            {5, false, 0, 0, 2},  // earlier time
            {10, true, 3, 9, 3},  // arrival link 3
            {10, true, 7, 4, 4},  // link 7, earlier send number, inserted later
            {10, false, 0, 0, 5}, // other, inserted after uid 0
            {11, true, 0, 0, 6},  // arrival of a later ns
        };
        for (const auto& e : in)
        {
            s->Insert(Make(e));
        }
        const std::vector<uint32_t> want = {2, 3, 4, 1, 0, 5, 6};
        const std::vector<uint32_t> got = Drain(PeekPointer(s));
        NS_TEST_ASSERT_MSG_EQ(got.size(), want.size(), "every event comes out once");
        for (size_t i = 0; i < want.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(got[i], want[i], "position " << i);
        }

        // Remove: the named event goes, the others keep their order.
        std::vector<Scheduler::Event> evs;
        for (const auto& e : in)
        {
            evs.push_back(Make(e));
            s->Insert(evs.back());
        }
        s->Remove(evs[3]);
        evs[3].impl->Unref();
        const std::vector<uint32_t> after = Drain(PeekPointer(s));
        const std::vector<uint32_t> want2 = {2, 4, 1, 0, 5, 6};
        NS_TEST_ASSERT_MSG_EQ(after.size(), want2.size(), "one event removed");
        for (size_t i = 0; i < want2.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(after[i], want2[i], "after Remove, position " << i);
        }
    }
};

class RandomOrderTest : public TestCase
{
  public:
    RandomOrderTest()
        : TestCase("2000 random events leave in (time, arrival first, link, send number, uid) order")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937_64 rng(12345);
        std::vector<Spec> specs;
        for (uint32_t uid = 0; uid < 2000; ++uid)
        {
            const bool arrival = rng() % 2 == 0;
            specs.push_back(Spec{rng() % 50, arrival, arrival ? static_cast<uint32_t>(rng() % 8) : 0,
                                 arrival ? rng() % 1000 : 0, uid});
        }
        Ptr<NiccOrderedScheduler> s = CreateObject<NiccOrderedScheduler>();
        std::vector<Spec> shuffled = specs;
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        for (const auto& e : shuffled)
        {
            s->Insert(Make(e));
        }
        // Interleave removals of the head with insertions of late events: the
        // heap must stay ordered while it changes.
        std::vector<Spec> expect = specs;
        std::sort(expect.begin(), expect.end(), [](const Spec& a, const Spec& b) {
            const auto ka = a.arrival ? std::make_tuple(a.ts, 0, a.key, a.seq, a.uid)
                                      : std::make_tuple(a.ts, 1, 0u, uint64_t{0}, a.uid);
            const auto kb = b.arrival ? std::make_tuple(b.ts, 0, b.key, b.seq, b.uid)
                                      : std::make_tuple(b.ts, 1, 0u, uint64_t{0}, b.uid);
            return ka < kb;
        });
        const std::vector<uint32_t> got = Drain(PeekPointer(s));
        NS_TEST_ASSERT_MSG_EQ(got.size(), expect.size(), "every event comes out once");
        uint32_t wrong = 0;
        for (size_t i = 0; i < got.size(); ++i)
        {
            // Two arrivals with equal (ts, key, seq) may leave in either order.
            const Spec& e = expect[i];
            const Spec& g = specs[got[i]];
            wrong += (g.ts != e.ts || g.arrival != e.arrival || g.key != e.key || g.seq != e.seq ||
                      (!e.arrival && g.uid != e.uid))
                         ? 1
                         : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(wrong, 0u, "events out of order");
    }
};

class ScenarioTest : public TestCase
{
  public:
    ScenarioTest()
        : TestCase("scheduler=ordered: same accounting as pq, repeatable; mpi_ranks refused without MPI")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> base = {
            "topology=fat-tree", "pods=2", "tors_per_pod=2", "aggs_per_pod=2", "cores=4",
            "hosts_per_leaf=4", "cc=hpcc", "poisson_load=0.3", "traffic_stop_ms=0.2", "stop_ms=2"};
        NiccScenarioResult pq;
        NiccScenarioResult a;
        NiccScenarioResult b;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", base, &pq, &err), true, err);
        std::vector<std::string> ordered = base;
        ordered.push_back("scheduler=ordered");
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", ordered, &a, &err), true, err);
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith("leaf-spine", ordered, &b, &err), true, err);
        NS_TEST_ASSERT_MSG_GT(a.flows.size(), 20u, "a workload ran");
        NS_TEST_EXPECT_MSG_EQ(a.flows.size(), pq.flows.size(), "same flows generated");
        NS_TEST_EXPECT_MSG_EQ(a.Completed(), a.flows.size(), "every flow done (light load)");
        NS_TEST_EXPECT_MSG_EQ(pq.Completed(), pq.flows.size(), "every flow done with pq");
        NS_TEST_EXPECT_MSG_EQ(a.bytesDelivered, a.bytesOffered, "every byte delivered");
        NS_TEST_EXPECT_MSG_EQ(a.drops, 0u, "lossless");
        uint32_t same = 0;
        for (size_t i = 0; i < a.flows.size() && i < b.flows.size(); ++i)
        {
            same += a.flows[i].fctNs == b.flows[i].fctNs ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(same, a.flows.size(), "two ordered runs give the same FCTs");

        // Without an MPI build (or outside mpirun -np 2): refused, key named.
        std::vector<std::string> mpi = base;
        mpi.push_back("mpi_ranks=2");
        NiccScenarioResult r;
        err.clear();
        NS_TEST_EXPECT_MSG_EQ(NiccRunWith("leaf-spine", mpi, &r, &err), false, "mpi_ranks=2 in one process");
        const bool named = err.find("key 'mpi_ranks'") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(named, true, err);
    }
};

class NiccOrderedSchedulerTestSuite : public TestSuite
{
  public:
    NiccOrderedSchedulerTestSuite()
        : TestSuite("nicc-ordered-scheduler", UNIT)
    {
        AddTestCase(new OrderTest, TestCase::QUICK);
        AddTestCase(new RandomOrderTest, TestCase::QUICK);
        AddTestCase(new ScenarioTest, TestCase::QUICK);
    }
};

NiccOrderedSchedulerTestSuite g_niccOrderedSchedulerTestSuite;

} // namespace
