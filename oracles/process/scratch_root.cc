#include "oracles/process/scratch_root.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <system_error>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace l0spv::oracles {
namespace fs = std::filesystem;
namespace {

constexpr char kPrefix[] = "l0spv-";

// Field 22 of /proc/PID/stat: start time in clock ticks since boot; "" if
// the process does not exist.
std::string StartTimeOf(pid_t pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string stat((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  const size_t close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return "";
  std::istringstream fields(stat.substr(close_paren + 2));
  std::string field;
  // Fields 3.. follow the command name; the start time is field 22.
  for (int i = 3; i <= 22; ++i)
    if (!(fields >> field)) return "";
  return field;
}

std::mutex g_mutex;
pid_t g_owner = 0;
std::string g_root;

std::string TempBase() {
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  return ec ? std::string() : base.string();
}

void RemoveOwnRootAtExit() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_owner != getpid() || g_root.empty()) return;
  std::error_code ec;
  fs::remove_all(g_root, ec);
  g_root.clear();
  SweepStaleScratchRoots(TempBase());
}

}  // namespace

void SweepStaleScratchRoots(const std::string& base) {
  if (base.empty()) return;
  std::error_code ec;
  for (fs::directory_iterator it(base, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(kPrefix, 0) != 0) continue;
    const std::vector<std::string> parts =
        absl::StrSplit(name.substr(sizeof(kPrefix) - 1), '-');
    int pid = 0;
    uint64_t start = 0;
    if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &pid) ||
        !absl::SimpleAtoi(parts[1], &start) || pid <= 0) {
      continue;  // not a root (another tool's l0spv-... directory)
    }
    std::error_code is_dir;
    if (!fs::is_directory(it->path(), is_dir)) continue;
    if (StartTimeOf(pid) == parts[1]) continue;  // still running
    std::error_code gone;
    fs::remove_all(it->path(), gone);
  }
}

absl::StatusOr<std::string> ProcessScratchRoot() {
  std::lock_guard<std::mutex> lock(g_mutex);
  // Made here or inherited through fork (a campaign job, a worker): the
  // process that made it removes it.
  if (!g_root.empty()) return g_root;
  const pid_t self = getpid();
  const std::string base = TempBase();
  if (base.empty()) {
    return absl::FailedPreconditionError(
        "no temporary directory (set TMPDIR to a writable directory)");
  }
  SweepStaleScratchRoots(base);
  const std::string root =
      absl::StrCat(base, "/", kPrefix, self, "-", StartTimeOf(self));
  if (::mkdir(root.c_str(), 0700) != 0 && errno != EEXIST) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot create the scratch directory ", root, ": ",
        std::strerror(errno), " (set TMPDIR to a writable directory)"));
  }
  static bool registered = false;
  if (!registered) {
    std::atexit(RemoveOwnRootAtExit);
    registered = true;
  }
  g_owner = self;
  g_root = root;
  return g_root;
}

}  // namespace l0spv::oracles
