// Consumer of the installed nicc package: compiles against the installed
// headers and checks that a first CNP cuts the rate of a 100 Gb/s flow.
#include <cstdio>

#include "nicc/dcqcn.h"

int main() {
  nicc::dcqcn::Config cfg;
  if (!nicc::dcqcn::Compile(nicc::dcqcn::Params::Mlx5(100000), &cfg).ok()) return 1;
  nicc::dcqcn::RpState rp;
  nicc::dcqcn::RpInit(cfg, &rp);
  const nicc::Action a = nicc::dcqcn::RpOnCnp(cfg, &rp, 1000);
  std::printf("rate after first CNP: %u kb/s\n", a.rate_kbps);
  return (a.Has(nicc::kActSetRate) && a.rate_kbps < cfg.max_kbps) ? 0 : 2;
}
