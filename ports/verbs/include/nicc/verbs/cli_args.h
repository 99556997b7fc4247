// nicc/verbs/cli_args.h — the argv pre-pass of nicc-verbs, before Abseil
// parses the flags: perftest's short spellings that do not clash with ours,
// the hyphenated --rdma-cm, and repeated --set.
//
//   -D N  -> --duration_s=N     (also -DN)
//   -s N  -> --msg_size=N
//   -n N  -> --messages=N
//   --rdma-cm[=v] -> --rdma_cm[=v]
//   --set a=1 --set b=2 -> --set=a=1,b=2  (Abseil keeps only the last of a
//                                           repeated flag)
// Everything after "--" is left alone. perftest's -p (TCP port) is not
// mapped: nicc-verbs' --port is the device port; use --tcp_port.
#ifndef NICC_VERBS_CLI_ARGS_H_
#define NICC_VERBS_CLI_ARGS_H_

#include <string>
#include <vector>

namespace nicc {
namespace verbs {

// False with *error set when a short flag lacks its value.
bool MapPerftestArgs(const std::vector<std::string>& in, std::vector<std::string>* out,
                     std::string* error);

}  // namespace verbs
}  // namespace nicc

#endif  // NICC_VERBS_CLI_ARGS_H_
