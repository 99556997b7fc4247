/*
 * nicc-spool.cc — NiccSpool (nicc-spool.h): files written during a run and
 * moved into the output directory after it.
 */
#include "nicc-spool.h"

#include <atomic>
#include <unistd.h>

namespace ns3
{

namespace
{

// A fresh directory name per spool of this process.
std::filesystem::path
PrivateDir()
{
    static std::atomic<uint32_t> counter{0};
    return std::filesystem::temp_directory_path() /
           ("nicc-spool-" + std::to_string(static_cast<long>(::getpid())) + "-" + std::to_string(counter++));
}

} // namespace

NiccSpool::NiccSpool(const std::filesystem::path& dir)
    : m_dir(dir.empty() ? PrivateDir() : dir),
      m_own(dir.empty())
{
}

NiccSpool::~NiccSpool()
{
    std::error_code ec;
    for (auto& [name, f] : m_files)
    {
        f.reset(); // closed before it goes
        if (m_delivered.count(name) == 0)
        {
            std::filesystem::remove(Path(name), ec); // never delivered: the run failed or wrote no output
        }
    }
    if (m_own)
    {
        std::filesystem::remove_all(m_dir, ec);
    }
    else
    {
        std::filesystem::remove(m_dir, ec); // only if empty
    }
}

std::filesystem::path
NiccSpool::Path(const std::string& name) const
{
    return m_dir / name;
}

std::ofstream*
NiccSpool::Open(const std::string& name, std::string* error)
{
    std::error_code ec;
    std::filesystem::create_directories(m_dir, ec);
    auto f = std::make_unique<std::ofstream>(Path(name), std::ios::binary | std::ios::trunc);
    if (ec || !*f)
    {
        *error = "cannot write " + Path(name).string() + (ec ? ": " + ec.message() : "");
        return nullptr;
    }
    std::ofstream* raw = f.get();
    m_files[name] = std::move(f);
    return raw;
}

std::ofstream*
NiccSpool::Get(const std::string& name)
{
    auto it = m_files.find(name);
    return it == m_files.end() ? nullptr : it->second.get();
}

bool
NiccSpool::CloseAll(std::string* error)
{
    bool ok = true;
    for (auto& [name, f] : m_files)
    {
        if (f->is_open())
        {
            f->close();
            if (!*f && ok)
            {
                *error = "cannot write " + Path(name).string();
                ok = false;
            }
        }
    }
    return ok;
}

bool
NiccSpool::Deliver(const std::string& name, const std::filesystem::path& to, std::string* error)
{
    if (auto* f = Get(name); f && f->is_open())
    {
        f->close();
    }
    std::error_code ec;
    if (auto d = m_delivered.find(name); d != m_delivered.end()) // written before: copy that
    {
        std::filesystem::copy_file(d->second, to, std::filesystem::copy_options::overwrite_existing, ec);
        if (ec)
        {
            *error = "cannot copy " + d->second.string() + " to " + to.string() + ": " + ec.message();
        }
        return !ec;
    }
    const std::filesystem::path from = Path(name);
    std::filesystem::rename(from, to, ec);
    if (ec)
    {
        ec.clear();
        std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing, ec);
        if (!ec)
        {
            std::filesystem::remove(from, ec);
            ec.clear();
        }
    }
    if (ec)
    {
        *error = "cannot move " + from.string() + " to " + to.string() + ": " + ec.message();
        return false;
    }
    m_delivered[name] = std::filesystem::absolute(to, ec);
    return true;
}

} // namespace ns3
