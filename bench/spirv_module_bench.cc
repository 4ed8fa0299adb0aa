// Throughput of the module model on a large valid kernel: reading bytes,
// writing them, spirv-val, and all three in sequence (what every stage of a
// campaign does to each test case). Items are instructions.
#include <cstring>
#include <map>
#include <vector>

#include "bench/large_kernel.h"
#include "benchmark/benchmark.h"
#include "spirv/binary.h"
#include "spirv/def_use.h"
#include "spirv/spirv_tools.h"

namespace l0spv::bench {
namespace {

struct Fixture {
  spirv::Module module;
  std::vector<uint32_t> words;
  std::vector<uint8_t> bytes;
  int64_t instructions = 0;
  bool valid = false;
};

// Built once per size, outside any timing loop.
const Fixture& GetFixture(size_t min_instructions) {
  static auto* cache = new std::map<size_t, Fixture>();
  auto [it, inserted] = cache->try_emplace(min_instructions);
  Fixture& f = it->second;
  if (inserted) {
    f.module = BuildLargeKernel(min_instructions);
    f.words = spirv::EncodeModule(f.module);
    f.bytes = spirv::WriteModule(f.module);
    f.instructions = static_cast<int64_t>(f.module.InstructionCount());
    f.valid = spirv::Validate(f.words).ok() &&
              f.module.InstructionCount() >= min_instructions;
  }
  return f;
}

const Fixture* Setup(benchmark::State& state) {
  const Fixture& f = GetFixture(static_cast<size_t>(state.range(0)));
  if (!f.valid) {
    state.SkipWithError("the generated kernel does not validate");
    return nullptr;
  }
  state.counters["instructions"] = static_cast<double>(f.instructions);
  state.counters["blocks"] =
      static_cast<double>(f.module.functions.at(0).blocks.size());
  return &f;
}

void Finish(benchmark::State& state, const Fixture& f) {
  state.SetItemsProcessed(state.iterations() * f.instructions);
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(f.bytes.size()));
}

void BM_Read(benchmark::State& state) {
  const Fixture* f = Setup(state);
  if (f == nullptr) return;
  for (auto _ : state) {
    auto m = spirv::ReadModule(f->bytes);
    benchmark::DoNotOptimize(m);
  }
  Finish(state, *f);
}

void BM_Write(benchmark::State& state) {
  const Fixture* f = Setup(state);
  if (f == nullptr) return;
  for (auto _ : state) {
    auto bytes = spirv::WriteModule(f->module);
    benchmark::DoNotOptimize(bytes);
  }
  Finish(state, *f);
}

// A module validated for the first time: each iteration changes the
// header's generator word (any value is valid), so spirv::Validate cannot
// answer from the passes it remembers.
void BM_Validate(benchmark::State& state) {
  const Fixture* f = Setup(state);
  if (f == nullptr) return;
  std::vector<uint32_t> words = f->words;
  for (auto _ : state) {
    ++words[2];
    absl::Status s = spirv::Validate(words);
    benchmark::DoNotOptimize(s);
  }
  Finish(state, *f);
}

// The same module again: what a consumer adapter pays to check a case the
// reference has just validated.
void BM_ValidateRepeat(benchmark::State& state) {
  const Fixture* f = Setup(state);
  if (f == nullptr) return;
  for (auto _ : state) {
    absl::Status s = spirv::Validate(f->words);
    benchmark::DoNotOptimize(s);
  }
  Finish(state, *f);
}

void BM_ReadWriteValidate(benchmark::State& state) {
  const Fixture* f = Setup(state);
  if (f == nullptr) return;
  std::vector<uint32_t> words;
  uint32_t generator = 0;
  for (auto _ : state) {
    auto m = spirv::ReadModule(f->bytes);
    const std::vector<uint8_t> bytes = spirv::WriteModule(*m);
    words.resize(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    words[2] = ++generator;  // validated afresh, as in BM_Validate
    absl::Status s = spirv::Validate(words);
    benchmark::DoNotOptimize(s);
  }
  Finish(state, *f);
}

void BM_DefUse(benchmark::State& state) {
  const Fixture* f = Setup(state);
  if (f == nullptr) return;
  for (auto _ : state) {
    spirv::DefUse du(f->module);
    benchmark::DoNotOptimize(du);
  }
  Finish(state, *f);
}

// 10k instructions is a large generated kernel; 100k shows the scaling.
#define L0SPV_SIZES ->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond)
BENCHMARK(BM_Read) L0SPV_SIZES;
BENCHMARK(BM_Write) L0SPV_SIZES;
BENCHMARK(BM_Validate) L0SPV_SIZES;
BENCHMARK(BM_ValidateRepeat) L0SPV_SIZES;
BENCHMARK(BM_ReadWriteValidate) L0SPV_SIZES;
BENCHMARK(BM_DefUse) L0SPV_SIZES;

}  // namespace
}  // namespace l0spv::bench

BENCHMARK_MAIN();
