// Device discovery through VerbsApi.
#include "nicc/verbs/devices.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace nicc {
namespace verbs {

std::string NoDeviceMessage(const HostRoots& roots, int list_errno) {
  const std::string ib_dir = roots.sysfs + "/class/infiniband";
  std::string sysfs_state;
  const std::vector<std::string> entries = ListDir(ib_dir);
  if (!IsDir(ib_dir)) {
    sysfs_state = absl::StrCat(ib_dir, " does not exist (no RDMA driver loaded)");
  } else if (entries.empty()) {
    sysfs_state = absl::StrCat(ib_dir, " is empty");
  } else {
    sysfs_state = absl::StrCat(ib_dir, " lists ", absl::StrJoin(entries, ", "),
                               " but libibverbs opened none: is ibverbs-providers installed "
                               "and /dev/infiniband/uverbs* readable?");
  }
  return absl::StrCat(
      "no RDMA device found.\n"
      "  looked for: ibv_get_device_list() returned no devices",
      list_errno != 0 ? absl::StrCat(" (", strerror(list_errno), ")") : std::string(), ";\n",
      "              ", sysfs_state, ".\n",
      "  to try without RDMA hardware, load a software RoCE device (as root):\n"
      "    modprobe rdma_rxe\n"
      "    rdma link add rxe0 type rxe netdev eth0    # any up Ethernet interface\n"
      "  then check with: nicc-verbs list\n");
}

absl::StatusOr<std::vector<DeviceInfo>> QueryDevices(VerbsApi* api, const HostRoots& roots) {
  int n = 0;
  errno = 0;
  ibv_device** list = api->GetDeviceList(&n);
  const int list_errno = list == nullptr ? errno : 0;
  if (list == nullptr || n <= 0) {
    if (list != nullptr) api->FreeDeviceList(list);
    return absl::NotFoundError(NoDeviceMessage(roots, list_errno));
  }
  std::vector<DeviceInfo> out;
  for (int i = 0; i < n && list[i] != nullptr; ++i) {
    DeviceInfo d;
    d.name = api->GetDeviceName(list[i]);
    ibv_context* ctx = api->OpenDevice(list[i]);
    if (ctx == nullptr) {
      d.error = absl::StrCat("ibv_open_device failed: ", strerror(errno));
      out.push_back(d);
      continue;
    }
    const int rc = api->QueryDeviceEx(ctx, &d.attr);
    if (rc != 0) {
      d.error = absl::StrCat("ibv_query_device_ex failed: ", strerror(rc));
    } else {
      const uint32_t nports = d.attr.orig_attr.phys_port_cnt;
      for (uint32_t p = 1; p <= nports && p <= 255; ++p) {
        PortInfo pi;
        pi.num = static_cast<uint8_t>(p);
        pi.query_error = api->QueryPort(ctx, pi.num, &pi.attr);
        if (pi.query_error == 0) {
          const int ngid = pi.attr.gid_tbl_len < 1024 ? pi.attr.gid_tbl_len : 1024;
          for (int g = 0; g < ngid; ++g) {
            ibv_gid gid{};
            if (api->QueryGid(ctx, pi.num, g, &gid) == 0 && !GidIsZero(gid))
              pi.gids.emplace_back(g, gid);
          }
        }
        d.ports.push_back(pi);
      }
    }
    (void)api->CloseDevice(ctx);
    out.push_back(d);
  }
  api->FreeDeviceList(list);
  return out;
}

absl::StatusOr<ibv_context*> OpenDeviceByName(VerbsApi* api, const HostRoots& roots,
                                              const std::string& name, std::string* opened) {
  int n = 0;
  errno = 0;
  ibv_device** list = api->GetDeviceList(&n);
  const int list_errno = list == nullptr ? errno : 0;
  if (list == nullptr || n <= 0) {
    if (list != nullptr) api->FreeDeviceList(list);
    return absl::NotFoundError(NoDeviceMessage(roots, list_errno));
  }
  ibv_device* pick = nullptr;
  std::vector<std::string> names;
  for (int i = 0; i < n && list[i] != nullptr; ++i) {
    const std::string nm = api->GetDeviceName(list[i]);
    names.push_back(nm);
    if (pick == nullptr && (name.empty() || nm == name)) pick = list[i];
  }
  if (pick == nullptr) {
    api->FreeDeviceList(list);
    return absl::NotFoundError(absl::StrCat("no RDMA device named '", name,
                                            "'; present: ", absl::StrJoin(names, ", ")));
  }
  if (opened != nullptr) *opened = api->GetDeviceName(pick);
  ibv_context* ctx = api->OpenDevice(pick);
  const int e = errno;
  api->FreeDeviceList(list);
  if (ctx == nullptr)
    return absl::UnavailableError(absl::StrCat("ibv_open_device(", name, ") failed: ", strerror(e)));
  return ctx;
}

bool GidIsZero(const ibv_gid& gid) {
  for (int i = 0; i < 16; ++i)
    if (gid.raw[i] != 0) return false;
  return true;
}

std::string GidToString(const ibv_gid& gid) {
  char buf[INET6_ADDRSTRLEN];
  if (inet_ntop(AF_INET6, gid.raw, buf, sizeof buf) == nullptr) return "?";
  return buf;
}

absl::StatusOr<ibv_gid> ParseGid(const std::string& text) {
  ibv_gid gid{};
  const std::string t(absl::StripAsciiWhitespace(text));
  if (inet_pton(AF_INET6, t.c_str(), gid.raw) == 1) return gid;
  const std::string hex = absl::StrReplaceAll(t, {{":", ""}});
  if (hex.size() == 32) {
    bool ok = true;
    for (int i = 0; i < 16 && ok; ++i) {
      int v = 0;
      for (int j = 0; j < 2; ++j) {
        const char c = hex[static_cast<size_t>(2 * i + j)];
        if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) ok = false;
        v = v * 16 + (c <= '9' ? c - '0' : (absl::ascii_tolower(static_cast<unsigned char>(c)) - 'a' + 10));
      }
      gid.raw[i] = static_cast<uint8_t>(v);
    }
    if (ok) return gid;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "bad GID '", text, "': expected IPv6 form (fe80::1, ::ffff:10.0.0.2) or 32 hex digits"));
}

uint32_t MtuToBytes(ibv_mtu mtu) {
  switch (mtu) {
    case IBV_MTU_256: return 256;
    case IBV_MTU_512: return 512;
    case IBV_MTU_1024: return 1024;
    case IBV_MTU_2048: return 2048;
    case IBV_MTU_4096: return 4096;
  }
  return 0;
}

const char* PortStateName(ibv_port_state s) {
  switch (s) {
    case IBV_PORT_NOP: return "NOP";
    case IBV_PORT_DOWN: return "DOWN";
    case IBV_PORT_INIT: return "INIT";
    case IBV_PORT_ARMED: return "ARMED";
    case IBV_PORT_ACTIVE: return "ACTIVE";
    case IBV_PORT_ACTIVE_DEFER: return "ACTIVE_DEFER";
  }
  return "?";
}

const char* LinkLayerName(uint8_t ll) {
  switch (ll) {
    case IBV_LINK_LAYER_ETHERNET: return "Ethernet";
    case IBV_LINK_LAYER_INFINIBAND: return "InfiniBand";
    default: return "unspecified";
  }
}

}  // namespace verbs
}  // namespace nicc
