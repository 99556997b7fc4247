// Instruction counts per spray selection and per feedback event, per policy
// (run by scripts/icount.sh). Selections that depend on history (OPS round
// draws, probe packets) are averaged over many calls on one flow; events that
// change a flow's mode run once on each of an array of prepared flows.
#include <vector>

#include "icount.h"
#include "nicc/ecn_path.h"
#include "nicc/spray.h"

namespace sp = nicc::spray;
using nicc_bench::Expect;
using nicc_bench::Measure;
using nicc_bench::Sink;
using sp::Feedback;
using sp::Policy;

namespace {

constexpr int kN = 4096;

sp::Config Cfg(Policy policy, uint32_t ev_bits) {
  sp::Config cfg{};
  Expect(sp::Compile(sp::Params::Defaults(policy, ev_bits, 0x12345), &cfg).ok(), "compile");
  return cfg;
}

uint32_t U(int i) {
  return static_cast<uint32_t>(i);
}

}  // namespace

int main() {
  // --- ecmp ---------------------------------------------------------------
  {
    const sp::Config cfg = Cfg(Policy::kEcmp, 0);
    sp::EcmpState s;
    sp::EcmpInit(cfg, &s);
    Measure("spray.ecmp_select", kN, [&](int) { Sink(sp::EcmpSelect(cfg, &s)); });
  }
  // --- ops: averaged over 256 rounds (k = 4) and 16 rounds (k = 8) --------
  {
    const sp::Config cfg = Cfg(Policy::kOps, 4);
    sp::OpsState s;
    sp::OpsInit(cfg, &s, 1);
    Measure("spray.ops_select_k4", kN, [&](int) { Sink(sp::OpsSelect(cfg, &s)); });
    const sp::Config cfg8 = Cfg(Policy::kOps, 8);
    sp::OpsInit(cfg8, &s, 1);
    Measure("spray.ops_select_k8", kN, [&](int) { Sink(sp::OpsSelect(cfg8, &s)); });
  }
  // --- bitmap (k = 6) -----------------------------------------------------
  {
    const sp::Config cfg = Cfg(Policy::kBitmap, 6);
    sp::BitmapState s;
    sp::BitmapInit(cfg, &s, 1);
    Measure("spray.bitmap_select_clean", kN, [&](int) { Sink(sp::BitmapSelect(cfg, &s)); });
    // One EV in 8 penalised 1 per round: 1/8 of selects skip once.
    Measure("spray.bitmap_select_1of8_pen", kN, [&](int i) {
      if ((i & 63) == 0)
        for (uint32_t ev = 0; ev < 64; ev += 8)
          sp::BitmapOnFeedback(cfg, &s, sp::EvPort(cfg, ev), Feedback::kEcn);
      Sink(sp::BitmapSelect(cfg, &s));
    });
    sp::BitmapInit(cfg, &s, 1);
    Measure("spray.bitmap_fb_good", kN, [&](int i) {
      sp::BitmapOnFeedback(cfg, &s, sp::EvPort(cfg, U(i) & 63u), Feedback::kGood);
      Sink(&s);
    });
    Measure("spray.bitmap_fb_ecn", kN, [&](int i) {
      sp::BitmapOnFeedback(cfg, &s, sp::EvPort(cfg, U(i) & 63u), Feedback::kEcn);
      Sink(&s);
    });
    Measure("spray.bitmap_fb_nack", kN, [&](int i) {
      sp::BitmapOnFeedback(cfg, &s, sp::EvPort(cfg, U(i) & 63u), Feedback::kNack);
      Sink(&s);
    });
  }
  // --- reps (k = 8) -------------------------------------------------------
  {
    const sp::Config cfg = Cfg(Policy::kReps, 8);
    std::vector<sp::RepsState> v(kN);
    for (int i = 0; i < kN; ++i) sp::RepsInit(cfg, &v[i], U(i) + 1u);
    Measure("spray.reps_select_explore", kN, [&](int i) { Sink(sp::RepsSelect(cfg, &v[i], 0)); });
    Measure("spray.reps_fb_good", kN, [&](int i) {
      sp::RepsOnFeedback(cfg, &v[i], sp::EvPort(cfg, U(i) & 255u), Feedback::kGood, 0);
      Sink(&v[i]);
    });
    Measure("spray.reps_select_cached", kN, [&](int i) { Sink(sp::RepsSelect(cfg, &v[i], 0)); });
    Expect(v[0].count == 0, "cached entry consumed");
    Measure("spray.reps_fb_ecn", kN, [&](int i) {
      sp::RepsOnFeedback(cfg, &v[i], sp::EvPort(cfg, U(i) & 255u), Feedback::kEcn, 0);
      Sink(&v[i]);
    });
    // Timeout with a full ring (purge walks all 8 entries), then frozen selects.
    for (int i = 0; i < kN; ++i)
      for (uint32_t e = 0; e < 8; ++e)
        sp::RepsOnFeedback(cfg, &v[i], sp::EvPort(cfg, e), Feedback::kGood, 0);
    Measure("spray.reps_fb_timeout_full", kN, [&](int i) {
      sp::RepsOnFeedback(cfg, &v[i], sp::EvPort(cfg, 3), Feedback::kTimeout, 1000);
      Sink(&v[i]);
    });
    Expect((v[0].flags & sp::kRepsFrozen) && v[0].count == 7, "frozen, purged");
    Measure("spray.reps_select_frozen", kN, [&](int i) { Sink(sp::RepsSelect(cfg, &v[i], 2000)); });
  }
  // --- plb (k = 4) -------------------------------------------------------
  {
    const sp::Config cfg = Cfg(Policy::kPlb, 4);
    sp::PlbState s;
    sp::PlbInit(cfg, &s, 1);
    Measure("spray.plb_select", kN, [&](int) { Sink(sp::PlbSelect(cfg, &s)); });
    // kN marked feedbacks inside one round (kN packets in flight).
    Measure("spray.plb_fb_in_round", kN, [&](int i) {
      sp::PlbOnFeedback(cfg, &s, Feedback::kEcn, U(i));
      Sink(&s);
    });
    // The feedback that closes the 12th congested round and repaths: flows
    // with a 16-packet round open, 15 fed back, 11 congested rounds behind.
    std::vector<sp::PlbState> v(kN);
    for (int i = 0; i < kN; ++i) {
      sp::PlbInit(cfg, &v[i], U(i) + 1u);
      for (int j = 0; j < 16; ++j) (void)sp::PlbSelect(cfg, &v[i]);
      for (int j = 0; j < 15; ++j) {
        sp::PlbOnFeedback(cfg, &v[i], Feedback::kEcn, 0);
        (void)sp::PlbSelect(cfg, &v[i]);
      }
      v[i].cong_rounds = 11;
    }
    Measure("spray.plb_fb_close_repath", kN, [&](int i) {
      sp::PlbOnFeedback(cfg, &v[i], Feedback::kEcn, 100);
      Sink(&v[i]);
    });
    Expect(v[0].ev != 0 && v[0].cong_rounds == 0, "12th congested round repaths");
  }
  // --- dlb (k = 4) --------------------------------------------------------
  {
    const sp::Config cfg = Cfg(Policy::kDlb, 4);
    sp::DlbState s;
    sp::DlbInit(cfg, &s, 1);
    Measure("spray.dlb_select", kN, [&](int) { Sink(sp::DlbSelect(cfg, &s)); });
    Measure("spray.dlb_fb_good_rtt", kN, [&](int i) {
      sp::DlbOnFeedback(cfg, &s, sp::EvPort(cfg, U(i) & 15u), Feedback::kGood, 12000);
      Sink(&s);
    });
    Measure("spray.dlb_fb_ecn", kN, [&](int i) {
      sp::DlbOnFeedback(cfg, &s, sp::EvPort(cfg, U(i) & 15u), Feedback::kEcn, 0);
      Sink(&s);
    });
  }
  // --- dispatch through SprayState ----------------------------------------
  {
    const sp::Config cfg = Cfg(Policy::kOps, 4);
    sp::SprayState s;
    sp::Init(cfg, &s, 1);
    Measure("spray.dispatch_ops_select", kN, [&](int i) { Sink(sp::Select(cfg, &s, U(i))); });
    const sp::Config rc = Cfg(Policy::kReps, 4);
    sp::Init(rc, &s, 1);
    Measure("spray.dispatch_reps_fb_good", kN, [&](int i) {
      sp::OnFeedback(rc, &s, sp::EvPort(rc, U(i) & 15u), Feedback::kGood, 9000, U(i));
      Sink(&s);
    });
  }
  // --- the NSCC rule ------------------------------------------------------
  {
    nicc::ecn_path::Rule rule = nicc::ecn_path::Rule::Defaults();
    rule.base_rtt_ns = 10000;
    Measure("spray.nscc_classify", kN,
            [&](int i) { Sink(nicc::ecn_path::Classify(rule, (i & 1) != 0, 10000u + U(i))); });
  }
  return 0;
}
