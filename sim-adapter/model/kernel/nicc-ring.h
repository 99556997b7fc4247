/*
 * nicc-ring.h — a FIFO over one growing array (power-of-two capacity, the
 * head wrapping around): no allocation per element once it has grown to
 * its working size, unlike std::deque's blocks.
 *
 *   NiccRing<Frame> q;
 *   q.PushBack(std::move(f));
 *   Frame g = q.PopFront();          // the ring must not be empty
 *
 * An empty ring holds no memory (the array is made at the first push).
 */
#ifndef NICC_RING_H
#define NICC_RING_H

#include <cstddef>
#include <utility>
#include <vector>

namespace ns3
{

template <class T>
class NiccRing
{
  public:
    bool Empty() const { return m_size == 0; }
    std::size_t Size() const { return m_size; }
    const T& Back() const { return m_buf[(m_head + m_size - 1) & (m_buf.size() - 1)]; }
    /// Element k from the front (k < Size()).
    const T& At(std::size_t k) const { return m_buf[(m_head + k) & (m_buf.size() - 1)]; }
    void Swap(NiccRing& o)
    {
        m_buf.swap(o.m_buf);
        std::swap(m_head, o.m_head);
        std::swap(m_size, o.m_size);
    }

    void PushBack(T v)
    {
        if (m_size == m_buf.size())
        {
            Grow();
        }
        m_buf[(m_head + m_size) & (m_buf.size() - 1)] = std::move(v);
        ++m_size;
    }

    /// Takes the first element out; its slot is left holding T{}.
    T PopFront()
    {
        T v = std::move(m_buf[m_head]);
        m_buf[m_head] = T{};
        m_head = (m_head + 1) & (m_buf.size() - 1);
        --m_size;
        return v;
    }

    void Clear()
    {
        m_buf.clear();
        m_head = 0;
        m_size = 0;
    }

  private:
    void Grow()
    {
        std::vector<T> bigger(m_buf.empty() ? 16 : 2 * m_buf.size());
        for (std::size_t k = 0; k < m_size; ++k)
        {
            bigger[k] = std::move(m_buf[(m_head + k) & (m_buf.size() - 1)]);
        }
        m_buf.swap(bigger);
        m_head = 0;
    }

    std::vector<T> m_buf; ///< size 0 or a power of two
    std::size_t m_head{0};
    std::size_t m_size{0};
};

} // namespace ns3

#endif // NICC_RING_H
