/*
 * nicc-scheduler-test-suite.cc — NiccScheduler, the default scheduler, and
 * the events it lets the port model leave out ("nicc-scheduler"):
 *   - order: by time, then insertion; an event inserted at a marked position
 *     (ScheduleAt) runs after the events of its time inserted before the
 *     mark and before those inserted after it;
 *   - ScheduleFrom: an event armed from a position not yet reached runs
 *     where an insertion made at that position would: after what events
 *     before the position inserted, before what events after it insert;
 *     Simulator::Remove takes it back unrun and uncounted;
 *   - an event run from a marked position does not make ns-3 take a later-
 *     placed event of its time stamp for run (EventId::IsExpired, Cancel);
 *   - scheduler=pq (every frame's end an event) and the default give the
 *     same completion time for every flow, the same drops and PFC frames,
 *     with fewer events under the default (a fat-tree under HPCC, incasts
 *     under DCQCN and HPCC).
 *
 *   ./nicc-sim-test-runner --suite=nicc-scheduler --verbose
 */
#include "nicc-test-util.h"

#include "ns3/make-event.h"
#include "ns3/nicc-module.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

std::vector<std::string> g_log;

void
Log(std::string what)
{
    g_log.push_back(what + "@" + std::to_string(Simulator::Now().GetNanoSeconds()));
}

void
LogThenSchedule(std::string what, Time delay, std::string child)
{
    Log(what);
    Simulator::Schedule(delay, &Log, child);
}

NiccScheduler*
UseNiccScheduler()
{
    Simulator::Destroy();
    ObjectFactory f;
    f.SetTypeId("ns3::NiccScheduler");
    Simulator::SetScheduler(f);
    g_log.clear();
    // The scheduler becomes Active at its first insertion.
    Simulator::Schedule(Time(0), &Log, std::string("start"));
    return NiccScheduler::Active();
}

std::string
Joined()
{
    std::string s;
    for (const auto& e : g_log)
    {
        s += (s.empty() ? "" : " ") + e;
    }
    return s;
}

class MarkOrderTest : public TestCase
{
  public:
    MarkOrderTest()
        : TestCase("ScheduleAt: an event takes the place of the mark, among events of its time")
    {
    }

  private:
    void DoRun() override
    {
        NiccScheduler* s = UseNiccScheduler();
        NS_TEST_ASSERT_MSG_NE(s, nullptr, "NiccScheduler is the running scheduler");
        Simulator::Schedule(NanoSeconds(10), &Log, std::string("a"));
        const uint64_t mark = s->Mark();
        Simulator::Schedule(NanoSeconds(10), &Log, std::string("b"));
        Simulator::Schedule(NanoSeconds(5), &Log, std::string("early"));
        s->ScheduleAt(NanoSeconds(10), mark, MakeEvent(&Log, std::string("marked")));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(Joined(), "start@0 early@5 a@10 marked@10 b@10", "order");
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(NiccScheduler::Active(), nullptr, "none active once destroyed");
    }
};

class ScheduleFromTest : public TestCase
{
  public:
    ScheduleFromTest()
        : TestCase("ScheduleFrom: placed as if inserted at its position; Remove takes it back")
    {
    }

  private:
    void DoRun() override
    {
        NiccScheduler* s = UseNiccScheduler();
        // At 20 ns: e0 (inserted now), a2 (inserted by a at 10 ns, before the
        // position), from (inserted from the position between a and b at
        // 10 ns), b2 (inserted by b, after the position).
        Simulator::Schedule(NanoSeconds(20), &Log, std::string("e0"));
        Simulator::Schedule(NanoSeconds(10), &LogThenSchedule, std::string("a"), NanoSeconds(10), std::string("a2"));
        const uint64_t mark = s->Mark();
        Simulator::Schedule(NanoSeconds(10), &LogThenSchedule, std::string("b"), NanoSeconds(10), std::string("b2"));
        s->ScheduleFrom(NanoSeconds(20), NanoSeconds(10), mark, MakeEvent(&Log, std::string("from")));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(Joined(), "start@0 a@10 b@10 e0@20 a2@20 from@20 b2@20", "order");
        const uint64_t counted = Simulator::GetEventCount();
        NS_TEST_EXPECT_MSG_EQ(counted, 7u, "seven events ran");

        // Taken back before its position is reached: never runs, not counted.
        s = UseNiccScheduler();
        const uint64_t mark2 = s->Mark();
        EventId id = s->ScheduleFrom(NanoSeconds(30), NanoSeconds(10), mark2, MakeEvent(&Log, std::string("gone")));
        Simulator::Schedule(NanoSeconds(5), [id]() mutable { Simulator::Remove(id); });
        Simulator::Schedule(NanoSeconds(40), &Log, std::string("end"));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(Joined(), "start@0 end@40", "the removed event did not run");
        NS_TEST_EXPECT_MSG_EQ(Simulator::GetEventCount(), 3u, "start, the remover and end");
        Simulator::Destroy();
    }
};

class ExpiryTest : public TestCase
{
  public:
    ExpiryTest()
        : TestCase("an event run from a mark can still cancel a later-placed event of its time")
    {
    }

  private:
    void DoRun() override
    {
        NiccScheduler* s = UseNiccScheduler();
        const uint64_t mark = s->Mark();
        // x is inserted after the mark (placed after it) but before the
        // marked event is, so its ns-3 number is lower than the marked one's.
        EventId x = Simulator::Schedule(NanoSeconds(10), &Log, std::string("x"));
        bool pendingSeen = false;
        s->ScheduleAt(NanoSeconds(10),
                      mark,
                      MakeEvent(
                          +[](EventId* e, bool* seen) {
                              Log("m");
                              *seen = e->IsRunning();
                              e->Cancel();
                          },
                          &x,
                          &pendingSeen));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(pendingSeen, true, "x is still pending when the marked event runs");
        NS_TEST_EXPECT_MSG_EQ(Joined(), "start@0 m@10", "x was cancelled");
        Simulator::Destroy();
    }
};

// NiccNow() reads the time from the scheduler: it must be the simulator's
// in every event, including one from a marked position and one held aside
// (ScheduleFrom), and before the first event runs.
class NowTest : public TestCase
{
  public:
    NowTest()
        : TestCase("NiccNow() is Simulator::Now() before and in every event")
    {
    }

  private:
    static void Check(std::vector<std::pair<int64_t, int64_t>>* seen)
    {
        seen->emplace_back(NiccNow().GetTimeStep(), Simulator::Now().GetTimeStep());
    }

    void DoRun() override
    {
        std::vector<std::pair<int64_t, int64_t>> seen;
        Simulator::Destroy();
        Simulator::Schedule(NanoSeconds(3), &NowTest::Check, &seen); // under ns-3's default
        Simulator::Run();
        NiccScheduler* s = UseNiccScheduler();
        Check(&seen); // before any event has run
        for (int k = 1; k <= 5; ++k)
        {
            Simulator::Schedule(NanoSeconds(7 * k), &NowTest::Check, &seen);
        }
        const uint64_t mark = s->Mark();
        s->ScheduleAt(NanoSeconds(12), mark, MakeEvent(&NowTest::Check, &seen));
        s->ScheduleFrom(NanoSeconds(30), NanoSeconds(12), s->Mark(), MakeEvent(&NowTest::Check, &seen));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 9u, "every check ran");
        for (const auto& [mine, its] : seen)
        {
            NS_TEST_EXPECT_MSG_EQ(mine, its, "NiccNow() agrees");
        }
        NS_TEST_EXPECT_MSG_EQ(seen.back().second, 35, "the last event's time");
        Simulator::Destroy();
    }
};

// The heap both nicc schedulers keep their events in: interleaved pushes,
// pops and removals against a sorted reference, with ties on the first key.
class HeapTest : public TestCase
{
  public:
    HeapTest()
        : TestCase("event heap: pops in (time, tie) order through pushes and removals")
    {
    }

  private:
    struct E
    {
        uint64_t ts;
        uint64_t tie;
    };

    struct Before
    {
        bool operator()(const E& a, const E& b) const
        {
            return (a.ts < b.ts) | ((a.ts == b.ts) & (a.tie < b.tie));
        }
    };

    void DoRun() override
    {
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(43);
        std::vector<E> heap;
        std::set<std::pair<uint64_t, uint64_t>> ref; // (ts, tie), in order
        uint64_t tie = 0;
        uint32_t pops = 0;
        std::size_t most = 0;
        for (uint32_t step = 0; step < 200000; ++step)
        {
            // A slow drift upward: the heap grows to thousands of entries.
            const uint32_t what = u->GetInteger(0, 99);
            if (what < 52 || ref.empty())
            {
                const E e{u->GetInteger(0, 3000), ++tie};
                NiccHeapPush(heap, e, Before{});
                ref.emplace(e.ts, e.tie);
            }
            else if (what < 92)
            {
                const E got = NiccHeapPop(heap, Before{});
                NS_TEST_ASSERT_MSG_EQ(got.ts, ref.begin()->first, "time of the first");
                NS_TEST_ASSERT_MSG_EQ(got.tie, ref.begin()->second, "tie of the first");
                ref.erase(ref.begin());
                ++pops;
            }
            else
            {
                auto victim = ref.begin();
                std::advance(victim, u->GetInteger(0, ref.size() - 1));
                const uint64_t t = victim->second;
                NS_TEST_ASSERT_MSG_EQ(
                    NiccHeapRemove(heap, [t](const E& e) { return e.tie == t; }, Before{}),
                    true,
                    "removed");
                ref.erase(victim);
            }
            NS_TEST_ASSERT_MSG_EQ(heap.size(), ref.size(), "size");
            most = std::max(most, heap.size());
        }
        NS_TEST_ASSERT_MSG_GT(most, 2000u, "a deep heap");
        NS_TEST_ASSERT_MSG_GT(pops, 50000u, "many pops");
    }
};

// Events near and far (NiccScheduler keeps those 20 us or more ahead in a
// heap of their own) run in (time, insertion) order, also when inserted by
// running events.
class NearFarOrderTest : public TestCase
{
  public:
    NearFarOrderTest()
        : TestCase("near and far events run in (time, insertion) order")
    {
    }

  private:
    struct Run
    {
        std::vector<std::pair<int64_t, uint32_t>> order; // (time, insertion number) as run
        Ptr<UniformRandomVariable> u;
        uint32_t next{0};
        std::vector<std::pair<int64_t, uint32_t>> inserted;
    };

    static void Fire(Run* r, uint32_t id, uint32_t children)
    {
        r->order.emplace_back(Simulator::Now().GetNanoSeconds(), id);
        for (uint32_t k = 0; k < children; ++k)
        {
            Add(r, children - 1);
        }
    }

    static void Add(Run* r, uint32_t children)
    {
        // Delays on both sides of 20 us, with ties of the nanosecond.
        const int64_t delay = r->u->GetInteger(0, 1) == 0 ? r->u->GetInteger(0, 50)
                                                          : r->u->GetInteger(19990, 40000);
        const uint32_t id = r->next++;
        r->inserted.emplace_back(Simulator::Now().GetNanoSeconds() + delay, id);
        Simulator::Schedule(NanoSeconds(delay), &NearFarOrderTest::Fire, r, id, children);
    }

    void DoRun() override
    {
        UseNiccScheduler();
        Run r;
        r.u = CreateObject<UniformRandomVariable>();
        r.u->SetStream(47);
        for (uint32_t k = 0; k < 300; ++k)
        {
            Add(&r, 3);
        }
        Simulator::Run();
        std::sort(r.inserted.begin(), r.inserted.end());
        NS_TEST_ASSERT_MSG_EQ(r.order.size(), r.inserted.size(), "every event ran");
        NS_TEST_ASSERT_MSG_GT(r.order.size(), 3000u, "many events");
        for (std::size_t k = 0; k < r.order.size(); ++k)
        {
            NS_TEST_ASSERT_MSG_EQ(r.order[k].first, r.inserted[k].first, "time, event " << k);
            NS_TEST_ASSERT_MSG_EQ(r.order[k].second, r.inserted[k].second, "order, event " << k);
        }
        Simulator::Destroy();
    }
};

class SameResultsTest : public TestCase
{
  public:
    SameResultsTest()
        : TestCase("scheduler=pq and the default: the same results, fewer events by default")
    {
    }

  private:
    void Compare(const std::string& scenario, const std::vector<std::string>& sets)
    {
        NiccScenarioResult nicc;
        NiccScenarioResult pq;
        std::string err;
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith(scenario, sets, &nicc, &err), true, err);
        std::vector<std::string> withPq = sets;
        withPq.push_back("scheduler=pq");
        NS_TEST_ASSERT_MSG_EQ(NiccRunWith(scenario, withPq, &pq, &err), true, err);
        NS_TEST_ASSERT_MSG_GT(nicc.flows.size(), 10u, scenario << ": a workload ran");
        NS_TEST_ASSERT_MSG_EQ(nicc.flows.size(), pq.flows.size(), scenario << ": same flows");
        uint32_t same = 0;
        for (size_t i = 0; i < nicc.flows.size(); ++i)
        {
            same += nicc.flows[i].fctNs == pq.flows[i].fctNs ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(same, nicc.flows.size(), scenario << ": every flow's completion time");
        NS_TEST_EXPECT_MSG_EQ(nicc.pauseFrames, pq.pauseFrames, scenario << ": PFC frames");
        NS_TEST_EXPECT_MSG_EQ(nicc.ecnMarked, pq.ecnMarked, scenario << ": ECN marks");
        NS_TEST_EXPECT_MSG_EQ(nicc.drops, pq.drops, scenario << ": drops");
        NS_TEST_EXPECT_MSG_EQ(nicc.cnpsSent, pq.cnpsSent, scenario << ": CNPs");
        NS_TEST_EXPECT_MSG_EQ(nicc.queueMaxExact, pq.queueMaxExact, scenario << ": largest queue");
        const bool sameSamples = nicc.queueHist == pq.queueHist;
        NS_TEST_EXPECT_MSG_EQ(sameSamples, true, scenario << ": queue samples");
        NS_TEST_EXPECT_MSG_LT(nicc.events, pq.events, scenario << ": fewer events");
    }

    void DoRun() override
    {
        Compare("leaf-spine",
                {"topology=fat-tree", "pods=2", "tors_per_pod=2", "aggs_per_pod=2", "cores=4",
                 "hosts_per_leaf=4", "cc=hpcc", "poisson_load=0.5", "traffic_stop_ms=0.2", "stop_ms=2"});
        Compare("incast", {"cc=dcqcn", "senders=16", "size_bytes=200000"});
        // HPCC re-keys the pacer on every ACK: wakes armed ahead, stale
        // wakes run ahead, wakes due during a frame, and their take-backs.
        Compare("incast", {"cc=hpcc", "senders=16", "size_bytes=1000000"});
    }
};

class NiccSchedulerTestSuite : public TestSuite
{
  public:
    NiccSchedulerTestSuite()
        : TestSuite("nicc-scheduler", UNIT)
    {
        AddTestCase(new MarkOrderTest, TestCase::QUICK);
        AddTestCase(new ScheduleFromTest, TestCase::QUICK);
        AddTestCase(new ExpiryTest, TestCase::QUICK);
        AddTestCase(new NowTest, TestCase::QUICK);
        AddTestCase(new HeapTest, TestCase::QUICK);
        AddTestCase(new NearFarOrderTest, TestCase::QUICK);
        AddTestCase(new SameResultsTest, TestCase::QUICK);
    }
};

NiccSchedulerTestSuite g_niccSchedulerTestSuite;

} // namespace
