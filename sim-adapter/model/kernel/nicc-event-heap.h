/*
 * nicc-event-heap.h — the 4-ary heap both nicc schedulers keep their events
 * in (NiccScheduler, NiccOrderedScheduler): a vector of entries ordered by
 * the scheduler's `before(a, b)`, a
 * function object (a type of its own, so that the comparisons inline; best
 * written without branches, see NiccHeapPop). Children of i at 4i+1 ..
 * 4i+4, the first entry first; Remove restores the order around a hole.
 * Four children, not two: half the levels, and the four loads of a level
 * are independent, so a pop waits on memory about half as often.
 *
 *   struct Before { bool operator()(const Entry& a, const Entry& b) const; };
 *   std::vector<Entry> heap;
 *   NiccHeapPush(heap, e, Before{});
 *   Entry top = NiccHeapPop(heap, Before{});
 *   NiccHeapRemove(heap, [&](const Entry& e) { return ...; }, Before{});  // linear
 */
#ifndef NICC_EVENT_HEAP_H
#define NICC_EVENT_HEAP_H

#include <cstddef>
#include <utility>
#include <vector>

namespace ns3
{

/// Children per entry.
constexpr std::size_t kNiccHeapArity = 4;

/// Puts e in at the hole i and moves it up to its place.
template <class E, class Before>
void
NiccHeapRise(std::vector<E>& h, std::size_t i, E e, Before before)
{
    while (i > 0)
    {
        const std::size_t parent = (i - 1) / kNiccHeapArity;
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
NiccHeapUp(std::vector<E>& h, std::size_t i, Before before)
{
    NiccHeapRise(h, i, std::move(h[i]), before);
}

template <class E, class Before>
void
NiccHeapDown(std::vector<E>& h, std::size_t i, Before before)
{
    const std::size_t n = h.size();
    E e = std::move(h[i]);
    for (;;)
    {
        const std::size_t first = kNiccHeapArity * i + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t child = first;
        const std::size_t end = first + kNiccHeapArity < n ? first + kNiccHeapArity : n;
        for (std::size_t c = first + 1; c < end; ++c)
        {
            if (before(h[c], h[child]))
            {
                child = c;
            }
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

template <class E, class Before>
void
NiccHeapPush(std::vector<E>& h, E e, Before before)
{
    h.push_back(std::move(e));
    NiccHeapUp(h, h.size() - 1, before);
}

/// Takes the first entry out (the heap must not be empty). Bottom-up: the
/// hole at the root goes down to a leaf along the earliest child (the
/// earlier of each pair, then the earlier of the two: three comparisons per
/// level, and the choice is arithmetic, not a branch: which child comes
/// first is as good as random, and a mispredicted branch per level cost
/// more than the rest of the pop), then the last entry goes in at the hole
/// and up to its place (rarely more than a level: it is late).
template <class E, class Before>
E
NiccHeapPop(std::vector<E>& h, Before before)
{
    static_assert(kNiccHeapArity == 4, "the pop below picks among four children");
    E top = std::move(h.front());
    E last = std::move(h.back());
    h.pop_back();
    const std::size_t n = h.size();
    if (n == 0)
    {
        return top;
    }
    std::size_t i = 0;
    std::size_t c = 1;
    while (c + 3 < n)
    {
        const std::size_t a = c + static_cast<std::size_t>(before(h[c + 1], h[c]));
        const std::size_t b = c + 2 + static_cast<std::size_t>(before(h[c + 3], h[c + 2]));
        const std::size_t m = before(h[b], h[a]) ? b : a;
        h[i] = std::move(h[m]);
        i = m;
        c = kNiccHeapArity * i + 1;
    }
    if (c < n)
    {
        std::size_t m = c;
        for (std::size_t k = c + 1; k < n; ++k)
        {
            m = before(h[k], h[m]) ? k : m;
        }
        h[i] = std::move(h[m]);
        i = m;
    }
    NiccHeapRise(h, i, std::move(last), before);
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
