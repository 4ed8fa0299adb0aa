#include "oracles/targets/scratch_dir.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "oracles/process/scratch_root.h"

namespace l0spv::oracles {

absl::StatusOr<std::string> MakeScratchDir(const std::string& parent,
                                           const std::string& prefix) {
  std::error_code ec;
  std::filesystem::path base(parent);
  if (parent.empty()) {
    auto root = ProcessScratchRoot();
    if (!root.ok()) return root.status();
    base = *root;
  }
  std::filesystem::create_directories(base, ec);
  std::string templ = (base / (prefix + "XXXXXX")).string();
  if (mkdtemp(templ.data()) == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot create a scratch directory under ", base.string(), ": ",
        std::strerror(errno), " (pick a writable scratch directory)"));
  }
  return templ;
}

absl::StatusOr<ScratchDir> ScratchDir::Make(const std::string& parent,
                                            const std::string& prefix) {
  auto path = MakeScratchDir(parent, prefix);
  if (!path.ok()) return path.status();
  return ScratchDir(*std::move(path));
}

ScratchDir::ScratchDir(ScratchDir&& other) noexcept
    : path_(std::move(other.path_)) {
  other.path_.clear();
}

ScratchDir::~ScratchDir() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

absl::Status WriteModule(const std::string& path,
                         const std::vector<uint32_t>& words) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(words.data()),
            static_cast<std::streamsize>(words.size() * 4));
  if (!out) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot write ", path, " (is the scratch dir full?)"));
  }
  return absl::OkStatus();
}

}  // namespace l0spv::oracles
