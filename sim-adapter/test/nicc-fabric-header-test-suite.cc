/*
 * nicc-fabric-header-test-suite.cc — tests of the nicc packet headers
 * ("nicc-fabric-header"; the fabric that carries them: nicc-fabric): a RoCE
 * header with an INT stack and a PFC frame survive serialisation; the
 * switch's in-place egress edits (NiccRoceWire: ECN mark, INT hop push, PINT
 * code) give the bytes of parsing, editing and re-serialising, over 2000
 * random headers.
 *
 *   ./nicc-sim-test-runner --suite=nicc-fabric-header --verbose
 */
#include "ns3/nicc-module.h"
#include "ns3/random-variable-stream.h"
#include "ns3/test.h"

#include <cstdint>
#include <vector>

using namespace ns3;

namespace
{

// ---------------------------------------------------------------------------
class HeaderRoundTripTest : public TestCase
{
  public:
    HeaderRoundTripTest()
        : TestCase("RoCE header + INT stack and PFC frame survive (de)serialisation")
    {
    }

  private:
    void DoRun() override
    {
        NiccRoceHeader h;
        h.SetType(NiccRoceHeader::ACK);
        h.SetSrc(7);
        h.SetDst(1234567);
        h.SetSport(0xC0DE);
        h.SetPriority(3);
        h.SetEcn(NiccRoceHeader::CE);
        h.SetQpn(99);
        h.SetPsn(0xFFFFFFF0u);
        h.SetAux(17);
        h.SetPayloadSize(9000);
        h.EnableInt(2);
        NS_TEST_ASSERT_MSG_EQ(h.GetSerializedSize(), 34u, "32 B + INT header");
        NS_TEST_ASSERT_MSG_EQ(h.PushIntHop(NiccIntMakeHop(3, 123456789, 5000, 8000, 2)),
                              true,
                              "first hop");
        NS_TEST_ASSERT_MSG_EQ(h.PushIntHop(NiccIntMakeHop(7, 5, 1, 1ULL << 40, 2)),
                              true,
                              "second hop");
        Ptr<Packet> p = Create<Packet>(100);
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 100u + 32u + 2u + 16u, "wire size");
        NiccRoceHeader r;
        p->RemoveHeader(r);
        NS_TEST_ASSERT_MSG_EQ(r.GetType(), NiccRoceHeader::ACK, "type");
        NS_TEST_ASSERT_MSG_EQ(r.GetSrc(), 7u, "src");
        NS_TEST_ASSERT_MSG_EQ(r.GetDst(), 1234567u, "dst");
        NS_TEST_ASSERT_MSG_EQ(r.GetSport(), 0xC0DE, "sport");
        NS_TEST_ASSERT_MSG_EQ(r.GetDport(), NiccRoceHeader::ROCEV2_UDP_PORT, "dport");
        NS_TEST_ASSERT_MSG_EQ(+r.GetPriority(), 3, "prio");
        NS_TEST_ASSERT_MSG_EQ(r.GetEcn(), NiccRoceHeader::CE, "ecn");
        NS_TEST_ASSERT_MSG_EQ(r.GetPsn(), 0xFFFFFFF0u, "psn");
        NS_TEST_ASSERT_MSG_EQ(r.GetAux(), 17u, "aux");
        NS_TEST_ASSERT_MSG_EQ(r.GetPayloadSize(), 9000, "len");
        NS_TEST_ASSERT_MSG_EQ(r.HasInt(), true, "int present");
        const nicc::IntStack& st = r.GetIntStack();
        NS_TEST_ASSERT_MSG_EQ(+st.hop_count, 2, "hops");
        NS_TEST_ASSERT_MSG_EQ(+st.mult_log2, 2, "multiplier");
        NS_TEST_ASSERT_MSG_EQ(st.hops[0].rate_code(), 3u, "rate code");
        NS_TEST_ASSERT_MSG_EQ(st.hops[0].ts_ns(), (123456789u & nicc::kIntTsMask), "ts wraps");
        NS_TEST_ASSERT_MSG_EQ(st.hops[0].tx_units(), 5000u / (128u * 4u), "tx units");
        NS_TEST_ASSERT_MSG_EQ(st.hops[0].qlen_units(), 8000u / (80u * 4u), "qlen units");
        NS_TEST_ASSERT_MSG_EQ(st.hops[1].qlen_units(), nicc::kIntQlenMask, "qlen saturates");

        NiccPfcHeader pfc;
        pfc.SetQuanta(1, 0xFFFF);
        pfc.SetQuanta(3, 0);
        Ptr<Packet> q = Create<Packet>(46);
        q->AddHeader(pfc);
        uint8_t first = 0xFF;
        q->CopyData(&first, 1);
        NS_TEST_ASSERT_MSG_EQ(+first, +NiccRoceHeader::PFC, "type byte first");
        NiccPfcHeader pr;
        q->RemoveHeader(pr);
        NS_TEST_ASSERT_MSG_EQ(pr.IsClassEnabled(1), true, "c1");
        NS_TEST_ASSERT_MSG_EQ(pr.IsClassEnabled(2), false, "c2");
        NS_TEST_ASSERT_MSG_EQ(pr.IsClassEnabled(3), true, "c3");
        NS_TEST_ASSERT_MSG_EQ(pr.GetQuanta(1), 0xFFFF, "quanta");
        NS_TEST_ASSERT_MSG_EQ(pr.GetQuanta(3), 0, "resume");
    }
};

// ---------------------------------------------------------------------------
// The switch edits a header's bytes where they are (NiccRoceWire); the bytes
// must be those of parsing it, making the same edits and writing it back.
class HeaderWireEditTest : public TestCase
{
  public:
    HeaderWireEditTest()
        : TestCase("egress edits in place give the bytes of parse, edit, re-serialise")
    {
    }

  private:
    static std::vector<uint8_t> Bytes(const Packet& p)
    {
        std::vector<uint8_t> b(p.GetSize());
        p.CopyData(b.data(), p.GetSize());
        return b;
    }

    void DoRun() override
    {
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(41);
        auto draw = [&u](uint32_t max) { return u->GetInteger(0, max); };
        uint32_t pushed = 0;
        uint32_t full = 0;
        for (uint32_t trial = 0; trial < 2000; ++trial)
        {
            NiccRoceHeader h;
            h.SetType(static_cast<NiccRoceHeader::Type>(draw(NiccRoceHeader::CNP)));
            h.SetEcn(static_cast<NiccRoceHeader::Ecn>(draw(3)));
            h.SetSrc(draw(100000));
            h.SetDst(draw(100000));
            h.SetSport(static_cast<uint16_t>(draw(0xFFFF)));
            h.SetPriority(static_cast<uint8_t>(draw(7)));
            h.SetPsn(draw(0xFFFFFFFFu));
            h.SetAux(draw(0xFFFFFFFFu));
            h.SetPayloadSize(static_cast<uint16_t>(draw(9000)));
            h.SetCc(static_cast<uint8_t>(draw(5)));
            h.SetTrimmed(draw(1) == 1);
            if (draw(1) == 1)
            {
                h.SetSack((uint64_t{draw(0xFFFFFFFFu)} << 32) | draw(0xFFFFFFFFu));
            }
            if (draw(1) == 1)
            {
                h.SetCredit(draw(0xFFFFFFFFu));
            }
            if (draw(1) == 1)
            {
                h.SetPint(static_cast<uint8_t>(draw(255)));
            }
            if (draw(2) != 0)
            {
                h.EnableInt(static_cast<uint8_t>(draw(7)));
                const uint32_t hops = draw(nicc::kIntMaxHops);
                for (uint32_t k = 0; k < hops; ++k)
                {
                    h.PushIntHop(NiccIntMakeHop(1 + draw(6), draw(0xFFFFFFFFu), draw(1u << 30),
                                                draw(1u << 24), h.GetIntStack().mult_log2));
                }
            }
            const bool mark = draw(1) == 1;
            const bool stamp = draw(1) == 1;
            const bool pint = draw(1) == 1;
            const uint8_t code = static_cast<uint8_t>(draw(255));
            const uint32_t payload = draw(1) == 1 ? 0 : draw(4000);

            Ptr<Packet> a = Create<Packet>(payload);
            a->AddHeader(h);
            Ptr<Packet> b = a->Copy();

            NiccRoceHeader r;
            a->RemoveHeader(r);
            NiccRoceWire w(*b);
            NS_TEST_ASSERT_MSG_EQ(w.GetSerializedSize(), r.GetSerializedSize(), "size read back");
            NS_TEST_ASSERT_MSG_EQ(+w.GetIntMultLog2(), r.HasInt() ? +r.GetIntStack().mult_log2 : 0,
                                  "multiplier");
            NS_TEST_ASSERT_MSG_EQ(+w.GetPint(), +r.GetPint(), "PINT code");
            if (mark)
            {
                r.SetEcn(NiccRoceHeader::CE);
                w.SetEcn(NiccRoceHeader::CE);
            }
            if (stamp)
            {
                const nicc::IntHop hop = NiccIntMakeHop(1 + draw(6), draw(0xFFFFFFFFu),
                                                        draw(1u << 30), draw(1u << 24),
                                                        w.GetIntMultLog2());
                const bool ok = r.PushIntHop(hop);
                NS_TEST_ASSERT_MSG_EQ(w.PushIntHop(hop), ok, "push accepted alike");
                pushed += ok ? 1 : 0;
                full += (!ok && r.HasInt()) ? 1 : 0;
            }
            if (pint)
            {
                r.SetPint(code);
                w.SetPint(code);
            }
            a->AddHeader(r);
            w.Replace(*b);
            NS_TEST_ASSERT_MSG_EQ(b->GetSize(), a->GetSize(), "packet size");
            NS_TEST_ASSERT_MSG_EQ((Bytes(*b) == Bytes(*a)), true, "the same bytes");

            NiccRoceHeader back;
            b->PeekHeader(back);
            NS_TEST_ASSERT_MSG_EQ(back.GetPsn(), h.GetPsn(), "parses after the edit");
        }
        NS_TEST_ASSERT_MSG_GT(pushed, 100u, "hops were pushed");
        NS_TEST_ASSERT_MSG_GT(full, 10u, "full stacks were met");
    }
};

// ---------------------------------------------------------------------------
class NiccFabricHeaderTestSuite : public TestSuite
{
  public:
    NiccFabricHeaderTestSuite()
        : TestSuite("nicc-fabric-header", UNIT)
    {
        AddTestCase(new HeaderRoundTripTest, TestCase::QUICK);
        AddTestCase(new HeaderWireEditTest, TestCase::QUICK);
    }
};

NiccFabricHeaderTestSuite g_niccFabricHeaderTestSuite; //!< static registration

} // namespace
