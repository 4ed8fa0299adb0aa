// tests/spirv/test_support.h — shared fixtures for the module-model tests:
// the hand-written modules in tests/spirv/modules/ and a raw word builder for
// binaries that no assembler would produce (the reader's error paths).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv::test {

// tests/spirv/modules/, where the hand-written .spvasm modules live.
std::string HandWrittenModuleDir();
// File stems of every .spvasm module there, sorted.
std::vector<std::string> HandWrittenModuleNames();
// Assembles modules/<name>.spvasm as SPIR-V 1.2 with numeric ids preserved.
absl::StatusOr<std::vector<uint32_t>> AssembleHandWritten(
    std::string_view name);

absl::StatusOr<std::string> ReadTextFile(const std::string& path);

// Every word byte-swapped: a host-order module as the other endianness sees it.
std::vector<uint32_t> ByteSwapWords(std::span<const uint32_t> words);
// Host-order words as bytes (what ReadModule receives from a file written on
// this machine).
std::vector<uint8_t> HostBytes(std::span<const uint32_t> words);

// The words of a LiteralString: UTF-8, nul-terminated, zero-padded.
std::vector<uint32_t> StringWords(std::string_view text);
std::vector<uint32_t> Cat(std::initializer_list<std::vector<uint32_t>> parts);

// Builds a binary word by word. Offsets returned are word offsets from the
// start of the module (the header is words 0-4), as the reader reports them.
class RawModule {
 public:
  explicit RawModule(uint32_t bound = 100);

  // Appends `op` with a correct word count; returns the instruction's offset.
  size_t Add(spv::Op op, const std::vector<uint32_t>& operands);
  // Appends one raw word; returns its offset.
  size_t AddWord(uint32_t word);
  // OpCapability Addresses/Kernel/Int64 and OpMemoryModel Physical64 OpenCL.
  RawModule& KernelPrologue();

  size_t size() const { return words_.size(); }
  std::vector<uint32_t>& words() { return words_; }
  const std::vector<uint32_t>& words() const { return words_; }
  std::vector<uint8_t> Bytes() const { return HostBytes(words_); }

 private:
  std::vector<uint32_t> words_;
};

}  // namespace l0spv::spirv::test
