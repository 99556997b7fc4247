/*
 * nicc-sim-test-runner.cc — runs the nicc ns-3 TestSuites linked into this
 * binary (ns-3's own runner: same flags as ns-3's test-runner, e.g.
 * --suite=nicc-fabric --verbose, --list). Exit status non-zero on failure.
 *
 *   ./nicc-sim-test-runner                  # every suite, quick ones
 *   ./nicc-sim-test-runner --fullness=TAKES_FOREVER
 */
#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
