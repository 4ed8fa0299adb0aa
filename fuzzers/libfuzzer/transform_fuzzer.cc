// libFuzzer target for the transformations: the input chooses a
// generated case, a subset of transformation kinds, a seed and a count; the
// transformed module must stay valid with `ref`'s results unchanged, and its
// log must replay to the same module. Any violation aborts (a bug in a
// transformation kind or the engine).
//
// Input layout (missing bytes read as zero): 8 bytes generator seed, 8 bytes
// transformation seed, 8 bytes kind mask (bit k enables kind k mod 64 of the
// registry; all zero = every kind), 1 byte count (1..200).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "generators/kernel/generator.h"
#include "generators/transform/engine.h"
#include "generators/transform/registry.h"
#include "generators/transform/semantics_check.h"

namespace {

uint64_t Read64(const uint8_t* data, size_t size, size_t offset) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i)
    if (offset + i < size) v |= uint64_t{data[offset + i]} << (8 * i);
  return v;
}

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "l0spv_transform_fuzzer: %s: %s\n", what,
               detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace l0spv;
  generators::kernel::GeneratorOptions g;
  g.seed = Read64(data, size, 0);
  g.max_statements = 30;  // small kernels keep executions fast
  auto original = generators::kernel::GenerateTestCase(g);
  if (!original.ok())
    Fail("generator", std::string(original.status().message()));

  generators::transform::TransformOptions o;
  o.seed = Read64(data, size, 8);
  const uint64_t mask = Read64(data, size, 16);
  const auto kinds = generators::transform::AllTransformations();
  for (size_t k = 0; k < kinds.size() && mask != 0; ++k)
    if (mask & (uint64_t{1} << (k % 64)))
      o.kinds.emplace_back(kinds[k]->kind());
  o.count = 1 + (size > 24 ? data[24] : 0) % 200;
  auto result = generators::transform::Transform(*original, o);
  if (!result.ok()) Fail("transform", std::string(result.status().message()));

  const absl::Status same =
      generators::transform::CheckTransformed(*original, result->test_case);
  if (!same.ok() && !absl::IsFailedPrecondition(same))
    Fail("semantics not preserved",
         std::string(same.message()) + "\nlog: " + result->log.dump());
  auto again = generators::transform::Replay(*original, result->log);
  if (!again.ok()) Fail("replay", std::string(again.status().message()));
  if (again->test_case.module_words != result->test_case.module_words)
    Fail("replay", "not byte-identical");
  return 0;
}
