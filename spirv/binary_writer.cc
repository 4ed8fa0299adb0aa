// Module → binary, plus the file helpers shared by every command.
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "spirv/binary.h"

namespace l0spv::spirv {

std::vector<uint32_t> EncodeModule(const Module& module) {
  std::vector<uint32_t> words;
  words.reserve(5 + module.InstructionCount() * 4);
  const Header& h = module.header;
  words.insert(words.end(),
               {h.magic, h.version, h.generator, h.bound, h.schema});
  module.ForEachInstruction(
      [&words](const Instruction& inst) { inst.Encode(words); });
  return words;
}

std::vector<uint8_t> WordsToBytes(std::span<const uint32_t> words,
                                  Endianness endianness) {
  std::vector<uint8_t> bytes(words.size() * 4);
  const bool swap = (endianness == Endianness::kBig) ==
                    (std::endian::native == std::endian::little);
  for (size_t i = 0; i < words.size(); ++i) {
    const uint32_t w = swap ? __builtin_bswap32(words[i]) : words[i];
    std::memcpy(&bytes[i * 4], &w, 4);
  }
  return bytes;
}

std::vector<uint8_t> WriteModule(const Module& module,
                                 std::optional<Endianness> endianness) {
  return WordsToBytes(EncodeModule(module),
                      endianness.value_or(module.endianness));
}

absl::StatusOr<std::vector<uint8_t>> ReadFileBytes(const std::string& path) {
  // A directory opens for reading on Linux and only fails on the first read.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": is a directory, not a file"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(absl::StrCat(path, ": cannot open for reading (",
                                            std::strerror(errno), ")"));
  }
  // istream::read turns a failing read(2) into badbit; reading through
  // istreambuf_iterator would let libstdc++'s exception escape instead.
  std::vector<uint8_t> bytes;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    bytes.insert(bytes.end(), buffer, buffer + in.gcount());
  }
  if (in.bad()) {
    return absl::DataLossError(
        absl::StrCat(path, ": read error (", std::strerror(errno), ")"));
  }
  return bytes;
}

absl::StatusOr<Module> ReadModuleFile(const std::string& path) {
  auto bytes = ReadFileBytes(path);
  if (!bytes.ok()) return bytes.status();
  auto module = ReadModule(*bytes);
  if (!module.ok()) {
    return absl::Status(module.status().code(),
                        absl::StrCat(path, ": ", module.status().message()));
  }
  return module;
}

absl::Status WriteFileBytes(const std::string& path,
                            std::span<const uint8_t> bytes) {
  // Unique per process and per call: threads of one campaign may write the
  // same path at once, and must not share (and interleave in) a temporary.
  static std::atomic<uint64_t> counter{0};
  const std::string tmp =
      absl::StrCat(path, ".tmp.", ::getpid(), ".", counter.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      return absl::PermissionDeniedError(absl::StrCat(
          tmp, ": cannot open for writing (", std::strerror(errno), ")"));
    }
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return absl::DataLossError(absl::StrCat(tmp, ": write failed"));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    return absl::PermissionDeniedError(
        absl::StrCat("cannot rename ", tmp, " to ", path, ": ", reason));
  }
  return absl::OkStatus();
}

}  // namespace l0spv::spirv
