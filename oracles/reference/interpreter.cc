#include "oracles/reference/interpreter.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/reference/builtins.h"
#include "oracles/reference/decode.h"
#include "oracles/reference/executor.h"
#include "oracles/reference/image_args.h"
#include "oracles/reference/image_state.h"
#include "oracles/reference/memory.h"
#include "oracles/reference/race.h"
#include "oracles/reference/workgroup.h"
#include "spirv/binary.h"
#include "spirv/link.h"
#include "spirv/spirv_tools.h"

namespace l0spv::oracles::reference {
namespace {

Execution Fail(ExecutionStatus status, std::string message) {
  Execution e;
  e.status = status;
  e.message = std::move(message);
  return e;
}

// The local size when the test case leaves it to the implementation:
// a required size from the module, else the largest divisor of the global
// size that is <= 64 in dimension 0 and 1 elsewhere.
std::array<uint64_t, 3> ChooseLocalSize(const spirv::NdRange& range,
                                        const Program& prog) {
  if (prog.reqd_local_size[0] != 0) {
    return {prog.reqd_local_size[0], std::max(1u, prog.reqd_local_size[1]),
            std::max(1u, prog.reqd_local_size[2])};
  }
  uint64_t l0 = 1;
  for (uint64_t d = std::min<uint64_t>(64, range.global[0]); d >= 1; --d) {
    if (range.global[0] % d == 0) {
      l0 = d;
      break;
    }
  }
  return {l0, 1, 1};
}

Execution DecodeFailure(const absl::Status& s) {
  return Fail(s.code() == absl::StatusCode::kUnimplemented
                  ? ExecutionStatus::kUnsupported
                  : ExecutionStatus::kBuildFailed,
              std::string(s.message()));
}

class Run {
 public:
  Run(const spirv::TestCase& tc, const ReferenceOptions& opts)
      : tc_(tc), opts_(opts), mem_(opts.memory_limit_bytes) {}

  Execution Go();
  // Runs `prog`, decoded already from the test case's module (a batch).
  Execution GoDecoded(Program prog);

 private:
  bool SetUpMemory();
  // Race cells and initialisation bytes for the static allocations the
  // enabled checks track; false when the memory limit is spent.
  bool SetUpShadows();
  bool StartWorkItem(Invocation& inv);

  const spirv::TestCase& tc_;
  const ReferenceOptions& opts_;
  Program prog_;
  Memory mem_;
  Geometry geo_;
  RunState state_;
  std::unique_ptr<Executor> exec_;
  std::vector<uint32_t> workgroup_allocs_;
  std::unique_ptr<RaceDetector> races_;
  std::vector<std::unique_ptr<uint8_t[]>> init_shadows_;
  // Workgroup allocations whose shadow restarts uninitialised per group.
  std::vector<uint32_t> uninit_allocs_;
  bool races_disabled_ = false;  // the race shadow did not fit
  std::vector<std::pair<uint32_t, uint32_t>> builtin_allocs_;
  std::vector<uint64_t> param_values_;  // pointer/scalar payload per param
  ImageTable images_;
};

bool Run::SetUpMemory() {
  // Static allocations take ids 1..N in program order.
  for (size_t i = 0; i < prog_.static_allocs.size(); ++i) {
    const StaticAlloc& a = prog_.static_allocs[i];
    const uint32_t want = static_cast<uint32_t>(i + 1);
    uint32_t id = 0;
    switch (a.kind) {
      case AllocKind::kGlobalVariable:
      case AllocKind::kWorkgroupVariable:
        id = mem_.AddOwned(a.bytes, static_cast<uint8_t>(a.storage_class),
                           a.read_only);
        if (id != 0 && !a.init.empty())
          std::memcpy(mem_.record(id).data, a.init.data(), a.init.size());
        if (a.kind == AllocKind::kWorkgroupVariable)
          workgroup_allocs_.push_back(id);
        break;
      case AllocKind::kBuiltin:
        id = mem_.Add(nullptr, a.bytes, kScInput, kSharedOwner, true);
        builtin_allocs_.push_back({id, a.builtin_offset});
        break;
      case AllocKind::kBufferArg:
      case AllocKind::kLocalArg: {
        // Which argument: find the parameter that owns this allocation.
        size_t arg = 0;
        while (arg < prog_.params.size() && prog_.params[arg].alloc_id != want)
          ++arg;
        const spirv::KernelArg& ka = tc_.args[arg];
        const uint64_t bytes =
            a.kind == AllocKind::kLocalArg ? ka.local_bytes : ka.bytes.size();
        id = mem_.AddOwned(bytes, static_cast<uint8_t>(a.storage_class),
                           a.read_only);
        if (id != 0 && a.kind == AllocKind::kBufferArg && bytes)
          std::memcpy(mem_.record(id).data, ka.bytes.data(), bytes);
        if (a.kind == AllocKind::kLocalArg) workgroup_allocs_.push_back(id);
        break;
      }
      case AllocKind::kDynamic:
        break;
    }
    if (id != want) {
      state_.status = ExecutionStatus::kUnsupported;
      state_.message = absl::StrCat(
          "memory limit exceeded while allocating module-scope and argument "
          "memory (limit ",
          opts_.memory_limit_bytes, " bytes)");
      return false;
    }
  }
  return true;
}

// Race cells of the runs on this thread: kept between runs (up to
// kKeptRaceCells) so that a run pays for zeroing its cells, not for fresh
// pages.
constexpr size_t kKeptRaceCells = size_t{4} << 20;  // 64 MiB
thread_local std::vector<RaceCell> race_arena;

bool Run::SetUpShadows() {
  auto tracked = [this](uint32_t id) {
    const StaticAlloc& sa = prog_.static_allocs[id - 1];
    const Allocation& a = mem_.record(id);
    return a.size != 0 && !a.read_only && sa.kind != AllocKind::kBuiltin;
  };
  if (races_) {
    uint64_t cells = 0;
    for (uint32_t id = 1; id <= prog_.static_allocs.size(); ++id) {
      const Allocation& a = mem_.record(id);
      if (tracked(id) && (a.storage_class == kScWorkgroup ||
                          a.storage_class == kScCrossWorkgroup))
        cells += a.size;
    }
    if (cells > (uint64_t{1} << 36) || !mem_.Charge(cells * sizeof(RaceCell))) {
      // 16 bytes of shadow per byte do not fit: run without race detection
      // rather than refuse the run, and say so in the log.
      races_disabled_ = true;
    } else if (cells != 0) {
      if (race_arena.size() < cells) {
        race_arena.clear();
        race_arena.shrink_to_fit();
        race_arena.resize(cells);
      } else {
        std::memset(static_cast<void*>(race_arena.data()), 0,
                    cells * sizeof(RaceCell));
      }
      RaceCell* next = race_arena.data();
      for (uint32_t id = 1; id <= prog_.static_allocs.size(); ++id) {
        Allocation& a = mem_.record(id);
        if (tracked(id) && (a.storage_class == kScWorkgroup ||
                            a.storage_class == kScCrossWorkgroup)) {
          a.race = next;
          next += a.size;
        }
      }
    }
  }
  for (uint32_t id = 1; id <= prog_.static_allocs.size(); ++id) {
    const StaticAlloc& sa = prog_.static_allocs[id - 1];
    Allocation& a = mem_.record(id);
    if (!tracked(id)) continue;
    const bool fresh_per_group =
        sa.kind == AllocKind::kLocalArg ||
        (sa.kind == AllocKind::kWorkgroupVariable && sa.init.empty());
    if (opts_.check_uninitialized && fresh_per_group) {
      if (!mem_.Charge(a.size)) return false;
      init_shadows_.push_back(std::make_unique<uint8_t[]>(a.size));
      a.init = init_shadows_.back().get();
      uninit_allocs_.push_back(id);
    }
  }
  return true;
}

bool Run::StartWorkItem(Invocation& inv) {
  if (!exec_->Enter(inv, prog_.entry_function)) return false;
  inv.image_fence = inv.image_sync = inv.image_wg_sync = 0;
  const FunctionInfo& fn = prog_.functions[prog_.entry_function];
  uint8_t* R = inv.frames.back().regs;
  for (size_t i = 0; i < prog_.params.size(); ++i) {
    const KernelParam& p = prog_.params[i];
    const uint32_t slot = fn.param_slots[i];
    switch (p.kind) {
      case KernelParam::Kind::kBuffer:
      case KernelParam::Kind::kLocal: {
        const uint64_t ptr = MakePointer(p.alloc_id, 0);
        std::memcpy(R + slot, &ptr, 8);
        break;
      }
      case KernelParam::Kind::kValue:
        std::memcpy(R + slot, tc_.args[i].bytes.data(), p.bytes);
        break;
      case KernelParam::Kind::kImage:
      case KernelParam::Kind::kSampler: {
        const uint64_t handle = uint64_t{p.index} + 1;  // image_state.h
        std::memcpy(R + slot, &handle, 8);
        break;
      }
      case KernelParam::Kind::kByValuePointer: {
        // A private copy per work-item, freed when the kernel returns.
        uint8_t* data = inv.stack.Push(p.bytes, mem_);
        const uint32_t id =
            data ? mem_.Add(data, p.bytes, kScFunction, inv.tag, false) : 0;
        if (id == 0) {
          exec_->Error(inv, fn.entry_pc, ExecutionStatus::kUnsupported,
                       "memory limit exceeded", "by-value argument copy");
          return false;
        }
        std::memcpy(data, tc_.args[i].bytes.data(), p.bytes);
        inv.live.push_back(id);
        const uint64_t ptr = MakePointer(id, 0);
        std::memcpy(R + slot, &ptr, 8);
        break;
      }
    }
  }
  return true;
}

Execution Run::Go() {
  if (!opts_.skip_validation) {
    // The universal environment of the module's version: Level Zero's full
    // profile accepts capabilities (Float16, Int64Atomics, ...) that
    // spirv-val's OpenCL 2.2 environment rejects; the environment's own
    // rules are the validity oracle's business.
    const uint32_t version =
        tc_.module_words.size() > 1 ? tc_.module_words[1] : 0;
    const spv_target_env env = spirv::UniversalEnvForVersion(version);
    if (auto s = spirv::Validate(tc_.module_words, env); !s.ok())
      return Fail(ExecutionStatus::kBuildFailed,
                  absl::StrCat("spirv-val rejected the module: ", s.message()));
  }
  auto module = spirv::ReadModuleWords(tc_.module_words);
  if (!module.ok())
    return Fail(ExecutionStatus::kBuildFailed,
                std::string(module.status().message()));
  auto prog = Decode(*module, tc_.entry_point);
  if (!prog.ok()) return DecodeFailure(prog.status());
  return GoDecoded(*std::move(prog));
}

Execution Run::GoDecoded(Program prog) {
  prog_ = std::move(prog);

  // Arguments must match the kernel's parameters.
  if (tc_.args.size() != prog_.params.size())
    return Fail(
        ExecutionStatus::kBuildFailed,
        absl::StrCat("kernel ", tc_.entry_point, " takes ", prog_.params.size(),
                     " arguments, the test case "
                     "gives ",
                     tc_.args.size()));
  for (size_t i = 0; i < prog_.params.size(); ++i) {
    const KernelParam& p = prog_.params[i];
    const spirv::KernelArg& a = tc_.args[i];
    using K = spirv::KernelArg::Kind;
    if (p.kind == KernelParam::Kind::kImage ||
        p.kind == KernelParam::Kind::kSampler || a.kind == K::kImage ||
        a.kind == K::kSampler) {
      if (std::string why = CheckImageArg(p, a); !why.empty())
        return Fail(
            ExecutionStatus::kBuildFailed,
            absl::StrCat("argument ", i,
                         " does not match the kernel parameter: ", why));
      continue;
    }
    const bool ok =
        (p.kind == KernelParam::Kind::kBuffer && a.kind == K::kBuffer) ||
        (p.kind == KernelParam::Kind::kLocal && a.kind == K::kLocal) ||
        ((p.kind == KernelParam::Kind::kValue ||
          p.kind == KernelParam::Kind::kByValuePointer) &&
         a.kind == K::kScalar && a.bytes.size() == p.bytes);
    if (!ok)
      return Fail(ExecutionStatus::kBuildFailed,
                  absl::StrCat("argument ", i,
                               " does not match the kernel parameter (kind or "
                               "size; the parameter takes ",
                               p.bytes, " bytes)"));
  }

  const spirv::NdRange& range = tc_.nd_range;
  if (auto s = spirv::ValidateNdRange(range); !s.ok())
    return Fail(ExecutionStatus::kBuildFailed, std::string(s.message()));
  geo_.dims = range.dims;
  geo_.global = range.global;
  geo_.offset = range.offset;
  geo_.local = range.local ? *range.local : ChooseLocalSize(range, prog_);
  for (uint32_t d = range.dims; d < 3; ++d) {
    geo_.global[d] = std::max<uint64_t>(1, geo_.global[d]);
    geo_.local[d] = 1;
  }
  uint64_t group_items = 1;
  for (int d = 0; d < 3; ++d) {
    if (geo_.local[d] == 0 || geo_.global[d] == 0)
      return Fail(ExecutionStatus::kBuildFailed, "zero-sized ND-range");
    geo_.groups[d] = (geo_.global[d] + geo_.local[d] - 1) / geo_.local[d];
    group_items *= geo_.local[d];
  }
  if (group_items > (uint64_t{1} << 20))
    return Fail(ExecutionStatus::kUnsupported,
                "work-groups of more than 2^20 work-items are not supported");
  geo_.subgroup_size = std::max<uint32_t>(1, opts_.subgroup_size);

  state_.program = &prog_;
  state_.memory = &mem_;
  state_.step_budget = opts_.step_budget;
  state_.flush_denormals = opts_.flush_denormals;
  state_.check_uninitialized = opts_.check_uninitialized;
  if (opts_.check_races) {
    races_ = std::make_unique<RaceDetector>(geo_);
    state_.races = races_.get();
  }
  if (!BuildImageTable(prog_, tc_, mem_, &images_))
    return Fail(ExecutionStatus::kUnsupported,
                absl::StrCat("memory limit exceeded while copying the image "
                             "arguments (limit ",
                             opts_.memory_limit_bytes, " bytes)"));
  if (!images_.images.empty() || !images_.samplers.empty())
    state_.images = &images_;
  exec_ = std::make_unique<Executor>(state_);
  if (!SetUpMemory()) return Fail(state_.status, state_.message);
  const bool shadows_ok = SetUpShadows();
  if (races_disabled_) {
    // Partial race shadows would misreport: drop race detection entirely.
    for (uint32_t id = 1; id <= prog_.static_allocs.size(); ++id)
      mem_.record(id).race = nullptr;
    state_.races = nullptr;
    exec_ = std::make_unique<Executor>(state_);
  }
  if (!shadows_ok)
    return Fail(ExecutionStatus::kUnsupported,
                absl::StrCat("memory limit exceeded while allocating the "
                             "shadow memory of the race/uninitialised-read "
                             "checks (limit ",
                             opts_.memory_limit_bytes, " bytes)"));

  WorkgroupContext ctx;
  ctx.state = &state_;
  ctx.executor = exec_.get();
  ctx.geometry = &geo_;
  ctx.schedule_seed = opts_.schedule_seed;
  ctx.builtin_allocs = builtin_allocs_;
  ctx.start = [this](Invocation& inv) { return StartWorkItem(inv); };
  std::vector<std::unique_ptr<Invocation>> pool;
  uint32_t next_tag = 0;
  bool ok = true;
  for (uint64_t gz = 0; gz < geo_.groups[2] && ok; ++gz) {
    for (uint64_t gy = 0; gy < geo_.groups[1] && ok; ++gy) {
      for (uint64_t gx = 0; gx < geo_.groups[0] && ok; ++gx) {
        // __local memory starts zeroed in every work-group (OpenCL leaves
        // it undefined; zero keeps runs deterministic).
        for (uint32_t id : workgroup_allocs_) {
          Allocation& a = mem_.record(id);
          if (a.size) std::memset(a.data, 0, a.size);
        }
        for (uint32_t id : uninit_allocs_) {
          Allocation& a = mem_.record(id);
          std::memset(a.init, 0, a.size);
        }
        ++images_.group_serial;
        ok = RunWorkgroup(ctx, {gx, gy, gz}, pool, &next_tag);
      }
    }
  }
  for (auto& inv : pool) inv->stack.Release(mem_);
  if (race_arena.size() > kKeptRaceCells) {
    race_arena.clear();
    race_arena.shrink_to_fit();
  }

  Execution e;
  if (races_disabled_) {
    e.log =
        "reference: data-race detection was off for this run: its shadow "
        "memory (16 bytes per byte of shared memory) exceeds the memory "
        "limit\n";
  }
  e.status = state_.status;
  e.message = state_.message;
  e.printf_output = std::move(state_.printf_output);
  e.instructions_executed = state_.steps;
  e.buffers.resize(tc_.args.size());
  for (size_t i = 0; i < prog_.params.size(); ++i) {
    if (prog_.params[i].kind == KernelParam::Kind::kImage) {
      e.buffers[i] = std::move(images_.images[prog_.params[i].index].texels);
      continue;
    }
    if (prog_.params[i].kind != KernelParam::Kind::kBuffer) continue;
    const Allocation& a = mem_.record(prog_.params[i].alloc_id);
    e.buffers[i].assign(a.data, a.data + a.size);
  }
  return e;
}

// One module, linked already: what runs (`prog` when decoded already).
Execution RunProgram(const spirv::TestCase& test_case,
                     const ReferenceOptions& options,
                     absl::StatusOr<Program>* prog = nullptr) {
  const auto start = std::chrono::steady_clock::now();
  Run run(test_case, options);
  Execution e = prog == nullptr ? run.Go()
                : prog->ok()    ? run.GoDecoded(**std::move(prog))
                                : DecodeFailure(prog->status());
  e.wall_time = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now() - start);
  return e;
}

// Launches that can share one decoding: one module, no linked modules and
// no imports (those go through the linker, case by case).
bool ShareOneModule(std::span<const spirv::TestCase> launches) {
  if (launches.size() < 2) return false;
  for (const spirv::TestCase& l : launches) {
    if (!l.linked_modules.empty() ||
        l.module_words != launches.front().module_words)
      return false;
  }
  return !spirv::HasImports(launches.front().module_words);
}

}  // namespace

Execution RunReference(const spirv::TestCase& test_case,
                       const ReferenceOptions& options) {
  if (test_case.linked_modules.empty()) {
    // A module that imports what it defines itself (an Export or a
    // LinkOnceODR of the same name) is linked as zeModuleCreate does; one
    // whose imports stay unresolved runs as it is (a call of an import
    // stops as unsupported when reached).
    const uint32_t version =
        test_case.module_words.size() > 1 ? test_case.module_words[1] : 0;
    auto m = spirv::HasImports(test_case.module_words)
                 ? spirv::ReadModuleWords(test_case.module_words)
                 : absl::StatusOr<spirv::Module>(absl::NotFoundError(""));
    if (m.ok() && (options.skip_validation ||
                   spirv::Validate(test_case.module_words,
                                   spirv::UniversalEnvForVersion(version))
                       .ok())) {
      const spirv::LinkInput input{"module.spv", &*m};
      if (auto linked = spirv::LinkModules({&input, 1}); linked.ok()) {
        spirv::TestCase self_linked = test_case;
        self_linked.module_words = spirv::EncodeModule(*linked);
        return RunProgram(self_linked, options);
      }
    }
  }
  if (!test_case.linked_modules.empty()) {
    // Each module must be valid alone (named in the message), then the
    // linked program is what runs.
    Execution e;
    e.status = ExecutionStatus::kBuildFailed;
    const size_t modules = test_case.linked_modules.size() + 1;
    for (size_t i = 0; i < modules && !options.skip_validation; ++i) {
      const auto& words =
          i == 0 ? test_case.module_words : test_case.linked_modules[i - 1];
      const uint32_t version = words.size() > 1 ? words[1] : 0;
      if (auto s =
              spirv::Validate(words, spirv::UniversalEnvForVersion(version));
          !s.ok()) {
        e.message = absl::StrCat(
            "spirv-val rejected ",
            i == 0 ? std::string("module.spv") : spirv::LinkedModuleFile(i - 1),
            ": ", s.message());
        return e;
      }
    }
    auto linked = spirv::LinkTestCase(test_case);
    if (!linked.ok()) {
      e.message = std::string(linked.status().message());
      return e;
    }
    return RunProgram(*linked, options);
  }
  return RunProgram(test_case, options);
}

std::vector<Execution> RunReferenceBatch(
    std::span<const spirv::TestCase> launches,
    const ReferenceOptions& options) {
  std::vector<Execution> results;
  results.reserve(launches.size());
  std::optional<spirv::Module> module;
  std::optional<DecodedModule> decoded;
  if (ShareOneModule(launches)) {
    const std::vector<uint32_t>& words = launches.front().module_words;
    const uint32_t version = words.size() > 1 ? words[1] : 0;
    if (options.skip_validation ||
        spirv::Validate(words, spirv::UniversalEnvForVersion(version)).ok()) {
      if (auto m = spirv::ReadModuleWords(words); m.ok()) {
        module = *std::move(m);
        if (auto d = DecodedModule::Make(*module); d.ok())
          decoded = *std::move(d);
      }
    }
  }
  // Anything the shared path cannot take (invalid, undecodable, linked)
  // runs launch by launch, so its message is exactly RunReference's.
  if (!decoded) {
    for (const spirv::TestCase& l : launches)
      results.push_back(RunReference(l, options));
    return results;
  }
  ReferenceOptions validated = options;
  validated.skip_validation = true;
  for (const spirv::TestCase& l : launches) {
    absl::StatusOr<Program> prog = decoded->ProgramFor(l.entry_point);
    results.push_back(RunProgram(l, validated, &prog));
  }
  return results;
}

}  // namespace l0spv::oracles::reference
