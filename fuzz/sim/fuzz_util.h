// fuzz/sim/fuzz_util.h — what the simulator-input fuzz targets share: the
// input split into parts, a scratch directory per input, and the check that
// reports a broken invariant and traps (libFuzzer and the replay main both
// catch the trap).
//
//   std::vector<std::string> parts = nicc_fuzz::Split(data, size);  // at lines "%%%"
//   nicc_fuzz::ScratchDir dir;                                      // removed at scope end
//   dir.Write("topology.txt", parts[1]);
//   NICC_FUZZ_CHECK(spec.hosts.size() >= 2, "hosts " << spec.hosts.size());
#ifndef NICC_FUZZ_SIM_FUZZ_UTIL_H
#define NICC_FUZZ_SIM_FUZZ_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#define NICC_FUZZ_CHECK(cond, what)                                                        \
    do                                                                                     \
    {                                                                                      \
        if (!(cond))                                                                       \
        {                                                                                  \
            std::cerr << "invariant broken: " #cond " (" << __FILE__ << ":" << __LINE__ << "): " \
                      << what << std::endl;                                                \
            __builtin_trap();                                                              \
        }                                                                                  \
    } while (0)

namespace nicc_fuzz
{

/// The separator between the parts of one input: a line holding "%%%".
constexpr const char* kSeparator = "\n%%%\n";

/// The input as text, cut at every separator line (at most `maxParts` parts;
/// the last part keeps any further separators).
inline std::vector<std::string>
Split(const uint8_t* data, size_t size, size_t maxParts = 8)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string sep = kSeparator;
    std::vector<std::string> parts;
    size_t from = 0;
    while (parts.size() + 1 < maxParts)
    {
        const size_t at = text.find(sep, from);
        if (at == std::string::npos)
        {
            break;
        }
        parts.push_back(text.substr(from, at + 1 - from)); // keeps the part's last newline
        from = at + sep.size();
    }
    parts.push_back(text.substr(from));
    return parts;
}

/// The lines of `text` (without their '\n').
inline std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> out;
    size_t from = 0;
    while (from < text.size())
    {
        size_t nl = text.find('\n', from);
        if (nl == std::string::npos)
        {
            nl = text.size();
        }
        out.push_back(text.substr(from, nl - from));
        from = nl + 1;
    }
    return out;
}

/// Where a process's scratch directories go: $NICC_FUZZ_SCRATCH when set
/// (scripts/fuzz.sh --runs gives each target a fixed path there, created
/// and removed by the script), else a fresh directory (mkdtemp) in the temp
/// directory ($TMPDIR, else /tmp; TMPDIR=/dev/shm spares the disk) removed
/// at exit.
class ScratchBase
{
  public:
    static const std::string& Path()
    {
        static ScratchBase s_base;
        return s_base.m_path;
    }

  private:
    ScratchBase()
    {
        const char* fixed = std::getenv("NICC_FUZZ_SCRATCH");
        if (fixed != nullptr && *fixed != '\0')
        {
            std::error_code ec;
            std::filesystem::create_directories(fixed, ec);
            if (std::filesystem::is_directory(fixed, ec))
            {
                m_path = fixed;
            }
            return;
        }
        std::string tmpl = (std::filesystem::temp_directory_path() / "nicc-fuzz-XXXXXX").string();
        if (mkdtemp(tmpl.data()) != nullptr)
        {
            m_path = tmpl;
            m_owned = true;
        }
    }
    ~ScratchBase()
    {
        std::error_code ec;
        if (m_owned)
        {
            std::filesystem::remove_all(m_path, ec);
        }
    }
    std::string m_path;
    bool m_owned = false;
};

/// A fresh directory for one input, removed with everything in it when the
/// object goes: ScratchBase's path and "scratch-" with a counter. The name is
/// the same on every run of a process, not mkdtemp's letters or a process
/// id: the targets parse paths under it (as absolute paths), and text that
/// differs from run to run steers libFuzzer's coverage and so a fixed-seed
/// run (scripts/fuzz-check.sh).
class ScratchDir
{
  public:
    ScratchDir()
    {
        const std::string& base = ScratchBase::Path();
        NICC_FUZZ_CHECK(!base.empty(), "no scratch directory (NICC_FUZZ_SCRATCH, TMPDIR)");
        static unsigned long s_next = 0;
        for (int attempt = 0; attempt < 1000 && m_root.empty(); ++attempt)
        {
            char name[32];
            std::snprintf(name, sizeof name, "/scratch-%010lu", s_next++);
            if (mkdir((base + name).c_str(), 0700) == 0)
            {
                m_root = base + name;
            }
        }
        NICC_FUZZ_CHECK(!m_root.empty(), "no scratch directory under " << base);
    }
    ~ScratchDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_root, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::string& Root() const { return m_root; }
    std::string Path(const std::string& rel) const { return m_root + "/" + rel; }
    void Write(const std::string& rel, const std::string& content) const
    {
        std::ofstream(Path(rel), std::ios::binary) << content;
    }

  private:
    std::string m_root;
};

} // namespace nicc_fuzz

#endif // NICC_FUZZ_SIM_FUZZ_UTIL_H
