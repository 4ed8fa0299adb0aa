// spirv/file_io.h — the file reads and writes every command shares.
//
// Contract:
// - `ReadFileBytes` reads a regular file, a character device or a pipe, but
//   never more than `max_bytes`: a larger input (a huge file, /dev/zero, an
//   endless pipe) is an InvalidArgument naming the path and the cap, found
//   without allocating past the cap. A directory or a missing file is an
//   error naming the path and errno's text. It never blocks in open(): a
//   FIFO without a writer reads as empty.
// - `WriteFileBytes` / `WriteTextFile` write atomically (a temporary beside
//   the target, then rename) and check every step (open, each write, close,
//   rename): a full disk (ENOSPC), a read-only file system (EROFS) or a
//   missing directory is an error with the path and errno's text, and the
//   temporary is removed. `AppendTextFile` appends (not atomic: for logs of
//   lines) with the same checks.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace l0spv::spirv {

// Buffers (case argN.bin, --arg=buf:@FILE) share this cap with the launch
// specs: the interpreter must be able to hold them.
inline constexpr uint64_t kMaxInputFileBytes = uint64_t{1} << 30;
// SPIR-V modules: far beyond any real kernel module.
inline constexpr uint64_t kMaxModuleFileBytes = uint64_t{256} << 20;

absl::StatusOr<std::vector<uint8_t>> ReadFileBytes(
    const std::string& path, uint64_t max_bytes = kMaxInputFileBytes);
absl::StatusOr<std::string> ReadTextFile(
    const std::string& path, uint64_t max_bytes = kMaxInputFileBytes);

absl::Status WriteFileBytes(const std::string& path,
                            std::span<const uint8_t> bytes);
absl::Status WriteTextFile(const std::string& path, absl::string_view text);
absl::Status AppendTextFile(const std::string& path, absl::string_view text);

}  // namespace l0spv::spirv
