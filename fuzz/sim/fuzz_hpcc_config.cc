// fuzz/sim/fuzz_hpcc_config.cc — target `hpcc-config`: an HPCC-simulator
// config.txt in either dialect nicc-sim --hpcc-config reads (`KEY value`
// lines as the simulator's config, or the Yes/No and tab spelling of its
// stdout echo), mapped to nicc scenario keys (NiccLoadHpccConfig, strict
// and --lenient) and applied to a scenario (NiccApplyHpccConfig), without
// running it. The input's parts, cut at lines "%%%", are written to a
// scratch directory as config.txt, topology.txt, flow.txt and trace.txt
// (the files a config names, relative to it). Invariants: a refusal names
// the config file (and a refused mapped value the key); an accepted config
// sets only scenario keys, its notes name file:line, and the scenario it
// gives, printed as a scenario file, loads again.
#include "fuzz_util.h"

#include "ns3/nicc-hpcc-config.h"
#include "ns3/nicc-scenario-file.h"
#include "ns3/nicc-scenario.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::vector<std::string> parts = nicc_fuzz::Split(data, size, 4);
    nicc_fuzz::ScratchDir dir;
    const char* names[4] = {"config.txt", "topology.txt", "flow.txt", "trace.txt"};
    for (size_t i = 0; i < parts.size(); ++i)
    {
        dir.Write(names[i], parts[i]);
    }
    const std::string config = dir.Path("config.txt");
    for (bool lenient : {false, true})
    {
        ns3::NiccHpccConfig cfg;
        std::string error;
        if (!ns3::NiccLoadHpccConfig(config, lenient, &cfg, &error))
        {
            NICC_FUZZ_CHECK(error.rfind(config, 0) == 0 || error.rfind("TOPOLOGY_FILE", 0) == 0 ||
                                error.rfind(dir.Root(), 0) == 0,
                            "error without the file: " << error);
            continue;
        }
        for (const auto& [key, value] : cfg.keys)
        {
            NICC_FUZZ_CHECK(ns3::NiccScenario::IsKey(key), "mapped to '" << key << "', no scenario key");
        }
        for (const std::string& note : cfg.notes)
        {
            NICC_FUZZ_CHECK(note.rfind(config + ":", 0) == 0, "note without file:line: " << note);
        }
        ns3::NiccScenario s;
        if (!ns3::NiccApplyHpccConfig(cfg, &s, &error))
        {
            // A mapped value the scenario refuses (exit 2 in nicc-sim): the
            // message names the config and the key.
            NICC_FUZZ_CHECK(error.rfind(config + ": ", 0) == 0, "refusal without the file: " << error);
            continue;
        }
        const std::string printed = ns3::NiccScenarioToml(s);
        ns3::NiccScenario again;
        NICC_FUZZ_CHECK(ns3::NiccLoadScenarioText(printed, "printed.toml", "", &again, &error),
                        "the printed scenario does not load: " << error << "\n--- printed:\n" << printed);
    }
    return 0;
}
