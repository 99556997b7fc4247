/*
 * nicc-event-heap.h — the binary heap both nicc schedulers keep their events
 * in (NiccScheduler, NiccOrderedScheduler): a vector of entries ordered by
 * the scheduler's `before(a, b)`, a
 * function object (a type of its own, so that the comparisons inline).
 * std::push_heap / pop_heap do the work (their layout: children of i at
 * 2i+1 and 2i+2, the first entry first); Remove restores it around a hole.
 *
 *   struct Before { bool operator()(const Entry& a, const Entry& b) const; };
 *   std::vector<Entry> heap;
 *   NiccHeapPush(heap, e, Before{});
 *   Entry top = NiccHeapPop(heap, Before{});
 *   NiccHeapRemove(heap, [&](const Entry& e) { return ...; }, Before{});  // linear
 */
#ifndef NICC_EVENT_HEAP_H
#define NICC_EVENT_HEAP_H

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace ns3
{

template <class E, class Before>
void
NiccHeapUp(std::vector<E>& h, std::size_t i, Before before)
{
    E e = std::move(h[i]);
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / 2;
        if (!before(e, h[parent]))
        {
            break;
        }
        h[i] = std::move(h[parent]);
        i = parent;
    }
    h[i] = std::move(e);
}

template <class E, class Before>
void
NiccHeapDown(std::vector<E>& h, std::size_t i, Before before)
{
    const std::size_t n = h.size();
    E e = std::move(h[i]);
    for (;;)
    {
        std::size_t child = 2 * i + 1;
        if (child >= n)
        {
            break;
        }
        if (child + 1 < n && before(h[child + 1], h[child]))
        {
            ++child;
        }
        if (!before(h[child], e))
        {
            break;
        }
        h[i] = std::move(h[child]);
        i = child;
    }
    h[i] = std::move(e);
}

/// std's heaps put the largest first: "less" is "comes later".
template <class Before>
struct NiccLater
{
    Before before;
    template <class E>
    bool operator()(const E& a, const E& b) const
    {
        return before(b, a);
    }
};

template <class E, class Before>
void
NiccHeapPush(std::vector<E>& h, E e, Before before)
{
    h.push_back(std::move(e));
    std::push_heap(h.begin(), h.end(), NiccLater<Before>{before});
}

/// Takes the first entry out (the heap must not be empty).
template <class E, class Before>
E
NiccHeapPop(std::vector<E>& h, Before before)
{
    std::pop_heap(h.begin(), h.end(), NiccLater<Before>{before});
    E top = std::move(h.back());
    h.pop_back();
    return top;
}

/// Removes the first entry for which holds(entry); false if none does.
template <class E, class Holds, class Before>
bool
NiccHeapRemove(std::vector<E>& h, Holds holds, Before before)
{
    for (std::size_t i = 0; i < h.size(); ++i)
    {
        if (holds(h[i]))
        {
            h[i] = std::move(h.back());
            h.pop_back();
            if (i < h.size())
            {
                NiccHeapUp(h, i, before);
                NiccHeapDown(h, i, before);
            }
            return true;
        }
    }
    return false;
}

} // namespace ns3

#endif // NICC_EVENT_HEAP_H
