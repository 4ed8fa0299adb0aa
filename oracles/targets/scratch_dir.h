// oracles/targets/scratch_dir.h — per-run scratch directories of the
// targets and the module file written into them.
//
// Contract: a scratch directory is uniquely named (mkdtemp) under the
// given parent, or under this process's scratch root when the parent is
// empty (oracles/process/scratch_root.h: removed at exit, swept after a
// kill);
// the parent is created if missing. Failure is FailedPrecondition saying
// what to fix (TMPDIR, a writable directory). A `ScratchDir` removes its
// directory with everything in it when it dies; a moved-from one removes
// nothing. `WriteModule` writes the words as they are in memory
// (little-endian hosts) and reports a short write.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace l0spv::oracles {

// A fresh directory the caller removes.
absl::StatusOr<std::string> MakeScratchDir(const std::string& parent,
                                           const std::string& prefix);

// A fresh directory removed with everything in it when the object dies.
class ScratchDir {
 public:
  static absl::StatusOr<ScratchDir> Make(const std::string& parent,
                                         const std::string& prefix);
  ScratchDir(ScratchDir&& other) noexcept;
  ScratchDir& operator=(ScratchDir&&) = delete;
  ScratchDir(const ScratchDir&) = delete;
  ~ScratchDir();
  const std::string& path() const { return path_; }

 private:
  explicit ScratchDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// Writes module words to `path`; FailedPrecondition when it cannot.
absl::Status WriteModule(const std::string& path,
                         const std::vector<uint32_t>& words);

}  // namespace l0spv::oracles
