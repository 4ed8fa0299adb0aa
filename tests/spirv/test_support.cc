#include "tests/spirv/test_support.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "spirv/module.h"
#include "spirv/spirv_tools.h"

namespace l0spv::spirv::test {

std::string HandWrittenModuleDir() {
  return std::string(L0SPV_SOURCE_DIR) + "/tests/spirv/modules";
}

std::vector<std::string> HandWrittenModuleNames() {
  std::vector<std::string> names;
  for (const auto& entry :
       std::filesystem::directory_iterator(HandWrittenModuleDir())) {
    if (entry.path().extension() == ".spvasm")
      names.push_back(entry.path().stem().string());
  }
  // Directory order is unspecified; sort so test indices are stable.
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<std::string> ReadTextFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

absl::StatusOr<std::vector<uint32_t>> AssembleHandWritten(
    std::string_view name) {
  const std::string path =
      absl::StrCat(HandWrittenModuleDir(), "/", std::string(name), ".spvasm");
  auto text = ReadTextFile(path);
  if (!text.ok()) return text.status();
  auto words = Assemble(*text, SPV_ENV_UNIVERSAL_1_2);
  if (!words.ok()) {
    return absl::Status(words.status().code(),
                        absl::StrCat(path, ": ", words.status().message()));
  }
  return words;
}

std::vector<uint32_t> ByteSwapWords(std::span<const uint32_t> words) {
  std::vector<uint32_t> out;
  out.reserve(words.size());
  for (uint32_t w : words) out.push_back(__builtin_bswap32(w));
  return out;
}

std::vector<uint8_t> HostBytes(std::span<const uint32_t> words) {
  std::vector<uint8_t> bytes(words.size() * 4);
  if (!words.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

std::vector<uint32_t> StringWords(std::string_view text) {
  std::vector<uint32_t> words(text.size() / 4 + 1, 0);
  for (size_t i = 0; i < text.size(); ++i) {
    words[i / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(text[i]))
                    << (8 * (i % 4));
  }
  return words;
}

std::vector<uint32_t> Cat(std::initializer_list<std::vector<uint32_t>> parts) {
  std::vector<uint32_t> out;
  for (const auto& part : parts)
    out.insert(out.end(), part.begin(), part.end());
  return out;
}

RawModule::RawModule(uint32_t bound)
    : words_{kMagicNumber, 0x00010200, 0, bound, 0} {}

size_t RawModule::Add(spv::Op op, const std::vector<uint32_t>& operands) {
  const size_t offset = words_.size();
  const uint32_t count = static_cast<uint32_t>(operands.size() + 1);
  words_.push_back((count << 16) | static_cast<uint32_t>(op));
  words_.insert(words_.end(), operands.begin(), operands.end());
  return offset;
}

size_t RawModule::AddWord(uint32_t word) {
  words_.push_back(word);
  return words_.size() - 1;
}

RawModule& RawModule::KernelPrologue() {
  Add(spv::Op::OpCapability,
      {static_cast<uint32_t>(spv::Capability::Addresses)});
  Add(spv::Op::OpCapability, {static_cast<uint32_t>(spv::Capability::Kernel)});
  Add(spv::Op::OpCapability, {static_cast<uint32_t>(spv::Capability::Int64)});
  Add(spv::Op::OpMemoryModel,
      {static_cast<uint32_t>(spv::AddressingModel::Physical64),
       static_cast<uint32_t>(spv::MemoryModel::OpenCL)});
  return *this;
}

}  // namespace l0spv::spirv::test
