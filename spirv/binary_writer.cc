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

absl::StatusOr<Module> ReadModuleFile(const std::string& path) {
  auto bytes = ReadFileBytes(path, kMaxModuleFileBytes);
  if (!bytes.ok()) return bytes.status();
  auto module = ReadModule(*bytes);
  if (!module.ok()) {
    return absl::Status(module.status().code(),
                        absl::StrCat(path, ": ", module.status().message()));
  }
  return module;
}

}  // namespace l0spv::spirv
