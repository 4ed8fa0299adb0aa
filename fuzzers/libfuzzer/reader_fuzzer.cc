// libFuzzer target for the module model: arbitrary bytes into
// spirv::ReadModule. Besides "no crash, no sanitizer report", it checks the
// contracts of spirv/binary.h on every input:
//   - a rejected input gets an InvalidArgument naming a word offset;
//   - an accepted input re-encodes to exactly its own words, in either
//     endianness, and every id it holds is below the header bound;
//   - DefUse and TypeTable can be built and queried over it (they must
//     survive hostile type graphs and id references).
// A broken contract aborts, which libFuzzer reports as a crash.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "spirv/binary.h"
#include "spirv/def_use.h"
#include "spirv/type_table.h"

namespace {

using l0spv::spirv::DefUse;
using l0spv::spirv::Endianness;
using l0spv::spirv::Instruction;
using l0spv::spirv::Module;
using l0spv::spirv::TypeTable;

void Check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "l0spv_reader_fuzzer: contract broken: %s\n", what);
  std::abort();
}

Endianness HostEndianness() {
  return std::endian::native == std::endian::little ? Endianness::kLittle
                                                    : Endianness::kBig;
}

Endianness Other(Endianness e) {
  return e == Endianness::kLittle ? Endianness::kBig : Endianness::kLittle;
}

// The input as host-order words, un-swapped if the module was read as the
// other endianness.
std::vector<uint32_t> HostWords(std::span<const uint8_t> bytes,
                                Endianness endianness) {
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  if (endianness != HostEndianness()) {
    for (uint32_t& w : words) w = __builtin_bswap32(w);
  }
  return words;
}

void CheckRoundTrip(const Module& m, std::span<const uint8_t> bytes) {
  const std::vector<uint32_t> words = HostWords(bytes, m.endianness);
  Check(l0spv::spirv::EncodeModule(m) == words,
        "EncodeModule(ReadModule(b)) differs from b's words");
  const std::vector<uint8_t> written = l0spv::spirv::WriteModule(m);
  Check(written.size() == bytes.size() &&
            std::equal(written.begin(), written.end(), bytes.begin()),
        "WriteModule(ReadModule(b)) differs from b");
  Check(m.InstructionCount() > 0 || words.size() == 5, "instructions lost");

  // The same module in the other byte order reads to the same words.
  auto swapped = l0spv::spirv::ReadModule(
      l0spv::spirv::WriteModule(m, Other(m.endianness)));
  Check(swapped.ok(), "the byte-swapped module does not read");
  Check(swapped->endianness == Other(m.endianness),
        "the byte-swapped module's endianness was not detected");
  Check(l0spv::spirv::EncodeModule(*swapped) == words,
        "the byte-swapped module reads differently");
  Check(m.ComputeTightBound() <= m.header.bound,
        "an id is not below the bound");
}

// Queries every analysis over every id the module mentions; the results are
// not checked (there is no oracle for them), only that they are computed
// without crashing, hanging or tripping a sanitizer.
void ExerciseAnalyses(const Module& m) {
  const DefUse def_use(m);
  const TypeTable types(m);
  uint64_t sink = 0;
  // Each id once: a hostile module can use one wide struct thousands of
  // times, and querying all its members per use would be quadratic.
  absl::flat_hash_set<uint32_t> queried;
  m.ForEachInstruction([&](const Instruction& inst) {
    auto query = [&](uint32_t id) {
      if (!queried.insert(id).second) return;
      if (const Instruction* def = def_use.Def(id)) sink += def->opcode();
      sink += def_use.Uses(id).size();
      sink += def_use.FunctionOf(id) != nullptr;
      sink += def_use.BlockOf(id) != nullptr;
      sink += types.SizeOf(id).value_or(1);
      sink += types.AlignOf(id).value_or(1);
      sink += types.IntConstant(id, true).value_or(0);
      sink += types.ScalarWidth(id);
      if (const auto* t = types.Get(id)) {
        for (uint32_t i = 0; i <= t->members.size(); ++i)
          sink += types.MemberOffset(id, i).value_or(0);
      }
    };
    if (inst.result_id() != 0) query(inst.result_id());
    inst.ForEachInId(query);
  });
  // Keeps the queries from being optimized away.
  if (sink == 0x5a5a5a5a5a5a5a5aull)
    std::fprintf(stderr, "%llu\n", static_cast<unsigned long long>(sink));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  auto module = l0spv::spirv::ReadModule(bytes);
  if (!module.ok()) {
    Check(module.status().code() == absl::StatusCode::kInvalidArgument,
          "a reader error is not InvalidArgument");
    Check(std::string(module.status().message()).find("word ") !=
              std::string::npos,
          "a reader error does not name a word offset");
    return 0;
  }
  CheckRoundTrip(*module, bytes);
  ExerciseAnalyses(*module);
  return 0;
}
