// spirv/file_io.h — the file reads and writes every command shares.
//
// Contract:
// - `ReadFileBytes` reads a regular file, a character device or a pipe, but
//   never more than `max_bytes`: a larger input (a huge file, /dev/zero, an
//   endless pipe) is an InvalidArgument naming the path and the cap, found
//   without allocating past the cap. A directory or a missing file is an
//   error naming the path and errno's text. It never blocks in open(): a
//   FIFO without a writer reads as empty.
// - `ReadOutputFile` reads a file a consumer wrote: a regular file only
//   (opened without following a last symlink and without blocking), at most
//   `max_bytes`. A directory, FIFO, device, socket or symlink in its place
//   is an InvalidArgument saying what the path is; a missing one NotFound.
//   Never blocks, never reads past the cap.
// - `ReadFileInside` reads `dir/name` (ReadFileBytes) only when the path,
//   every symlink resolved, is still inside `dir` resolved: a case or a
//   finding from someone else cannot make us read (and copy, and share)
//   another file of this machine. Otherwise InvalidArgument naming both.
// - `CheckTreeStaysInside` walks `dir`: every symlink in it must resolve
//   inside it, and every entry must be a regular file or a directory
//   (no FIFO, device or socket to block on or to read without end).
//   The first offending path is an InvalidArgument naming it.
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
absl::StatusOr<std::vector<uint8_t>> ReadFileInside(
    const std::string& dir, const std::string& name,
    uint64_t max_bytes = kMaxInputFileBytes);
absl::Status CheckTreeStaysInside(const std::string& dir);
absl::StatusOr<std::string> ReadOutputFile(
    const std::string& path, uint64_t max_bytes = kMaxModuleFileBytes);

absl::Status WriteFileBytes(const std::string& path,
                            std::span<const uint8_t> bytes);
absl::Status WriteTextFile(const std::string& path, absl::string_view text);
absl::Status AppendTextFile(const std::string& path, absl::string_view text);

}  // namespace l0spv::spirv
