// spirv/binary.h — reading and writing SPIR-V binaries.
//
// Contract: `ReadModule` accepts a byte buffer in either endianness (detected
// from the magic number) and returns a Module, or an InvalidArgument status
// naming the word offset and the problem: empty or short file, size not a
// multiple of 4, bad magic, id bound 0 or over the universal limit, word
// count 0 or past the end, id 0 or id >= bound, unknown opcode or
// enumerant, truncated string literal, operands missing or left over,
// instructions out of the logical layout order, or an OpLine/OpNoLine
// between functions (valid, but a Module has no place to keep it). It never
// crashes, whatever the bytes.
//
// `WriteModule` encodes a Module in the endianness it was read in (or the one
// given); `WriteModule(ReadModule(b))` == b for every module that reads.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "spirv/file_io.h"
#include "spirv/module.h"

namespace l0spv::spirv {

// The SPIR-V universal limit on the id bound (spec §2.17 "Universal Limits").
inline constexpr uint32_t kMaxIdBound = 4194303 + 1;

// Walks the instructions of a module's words without parsing them, for
// scans cheap enough to run on every case: f(opcode, words) gets each
// instruction's words (words[0] is the opcode/count word) and returns
// whether to go on. Returns false when the words are malformed (a word
// count of 0 or past the end), true otherwise, stopped early or not.
template <typename F>
bool ScanInstructions(std::span<const uint32_t> words, F&& f) {
  constexpr size_t kHeaderWords = 5;
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) return false;
    if (!f(words[at] & 0xffff, words.subspan(at, count))) return true;
    at += count;
  }
  return true;
}

// Whether the module declares a function without a body (an OpFunction
// whose next instruction after its parameters is OpFunctionEnd): an import
// or an unresolved call target. A scan of the words that stops at the first
// one; words malformed before it: false.
bool DeclaresFunctions(std::span<const uint32_t> words);

absl::StatusOr<Module> ReadModule(std::span<const uint8_t> bytes);
// Words already in host order (as SPIRV-Tools hands them around): the first
// word must be the magic number as is, else the error names word 0.
absl::StatusOr<Module> ReadModuleWords(std::span<const uint32_t> words);

// Host-order words.
std::vector<uint32_t> EncodeModule(const Module& module);
// Bytes in `endianness`, or the module's own endianness when not given.
std::vector<uint8_t> WriteModule(
    const Module& module, std::optional<Endianness> endianness = std::nullopt);

// Words -> bytes in little or big endianness, and the reverse.
std::vector<uint8_t> WordsToBytes(std::span<const uint32_t> words,
                                  Endianness endianness);

// Reads at most kMaxModuleFileBytes (file_io.h).
absl::StatusOr<Module> ReadModuleFile(const std::string& path);

}  // namespace l0spv::spirv
