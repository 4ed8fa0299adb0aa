// oracles/reference/executor.h — runs one work-item of a decoded Program
// until it finishes, reaches a barrier or collective, or stops on an error
// (internal to oracles/reference).
//
// Contract: every work-item (Invocation) owns its call frames on its own
// Stack, so it can be suspended at a barrier and resumed later without any
// host recursion. Run() executes instructions of one invocation only; the
// work-group scheduler decides who runs next and completes collectives.
// After Run() returns kError, RunState::status/message describe the first
// error and no further instruction may be run.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "oracles/execution.h"
#include "oracles/reference/ext_context.h"
#include "oracles/reference/memory.h"
#include "oracles/reference/program.h"

namespace l0spv::oracles::reference {

class RaceDetector;
struct ImageTable;

struct CallFrame {
  uint32_t function = 0;
  uint32_t pc = 0;  // where to continue in this frame
  uint8_t* regs = nullptr;
  uint32_t ret_slot = kNoSlot;  // result slot in the caller's frame
  Stack::Mark mark;             // the stack before this frame
  uint32_t live_begin = 0;      // first private allocation of the frame
};

struct Invocation {
  uint32_t tag = 0;  // unique per work-item in the run
  uint32_t local_index = 0;
  uint32_t subgroup = 0;
  std::array<uint64_t, 3> global_id{};
  std::array<uint64_t, 3> local_id{};
  std::vector<uint8_t> builtins;
  Stack stack;
  std::vector<CallFrame> frames;
  std::vector<uint32_t> live;  // private allocations, innermost last
  enum class State : uint8_t { kReady, kWaiting, kDone } state = State::kReady;
  uint32_t wait_pc = 0;
  // Race detection clocks per RaceClass (Workgroup, CrossWorkgroup): the
  // last barrier of any scope / of work-group scope this item passed.
  std::array<uint32_t, 2> sync{};
  std::array<uint32_t, 2> wg_sync{};
  // Image synchronisation (read-write images, executor_image.cc): image
  // fences (OpMemoryBarrier and barriers with ImageMemory semantics), image
  // barriers of any scope, and of work-group scope, this item passed.
  uint32_t image_fence = 0;
  uint32_t image_sync = 0;
  uint32_t image_wg_sync = 0;
};

// Everything one run shares between work-items.
struct RunState {
  const Program* program = nullptr;
  Memory* memory = nullptr;
  uint64_t steps = 0;
  uint64_t step_budget = 0;
  bool flush_denormals = false;
  // Optional checks: data races (nullptr: off) and uninitialised reads.
  RaceDetector* races = nullptr;
  bool check_uninitialized = false;
  // The run's images and samplers (nullptr: the kernel takes none and
  // declares no literal sampler).
  ImageTable* images = nullptr;
  std::string printf_output;
  ExecutionStatus status = ExecutionStatus::kOk;
  std::string message;
  std::array<uint64_t, 3> group_id{};
};

class Executor {
 public:
  enum class Stop { kDone, kWaiting, kError };

  explicit Executor(RunState& state);

  // Pushes the entry frame of `function` for a fresh invocation; false
  // (with the run state set) when memory runs out.
  bool Enter(Invocation& inv, uint32_t function);
  Stop Run(Invocation& inv);

  // A checked memory access made on behalf of `inv` by the scheduler
  // (collectives that touch memory): bounds, alignment, private ownership
  // and (unless !shadows) the shadow checks. nullptr after reporting the
  // fault.
  uint8_t* CheckedAccess(const Invocation& inv, uint32_t pc, uint64_t pointer,
                         uint64_t bytes, uint32_t align, bool write,
                         bool shadows = true);
  // Records an error for `inv` at instruction `pc`; returns kError.
  Stop Error(const Invocation& inv, uint32_t pc, ExecutionStatus status,
             absl::string_view check, absl::string_view detail);
  // "work-item (x, y, z), function F, instruction OpX %id"
  std::string Where(const Invocation& inv, uint32_t pc) const;

 private:
  template <bool kFtz>
  Stop RunImpl(Invocation& inv);
  Stop MemoryFault(const Invocation& inv, uint32_t pc, Fault fault,
                   const char* access, uint64_t pointer, uint64_t bytes,
                   uint32_t align);
  // What an access does, for the shadow checks.
  enum class Access : uint8_t { kRead, kWrite, kReadWrite };
  // Shadow bookkeeping of an access Resolve() accepted: uninitialised
  // reads (`aggregate`: only a wholly uninitialised value counts) and data
  // races (skipped for atomics). False after reporting.
  bool ShadowAccess(const Invocation& inv, uint32_t pc, uint64_t pointer,
                    uint64_t bytes, Access access, bool atomic, bool aggregate);
  // OpCopyMemory*: initialisation travels with the bytes; races as a read
  // of the source and a write of the target.
  bool ShadowCopy(const Invocation& inv, uint32_t pc, uint64_t dst,
                  uint64_t src, uint64_t bytes);
  // One image instruction (executor_image.cc); false after reporting.
  bool ImageOp(Invocation& inv, uint32_t pc, uint8_t* R, const ImageCall& c);
  // Pops the innermost frame (killing its private allocations).
  void PopFrame(Invocation& inv);

  struct Ext final : ExtContext {
    Executor* self = nullptr;
    Invocation* inv = nullptr;
    uint32_t pc = 0;
    uint8_t* Access(uint64_t pointer, uint64_t bytes, uint32_t align,
                    bool write) override;
    bool Fail(ExecutionStatus status, absl::string_view check,
              absl::string_view detail) override;
    bool ReadCString(uint64_t pointer, std::string* out) override;
  };

  RunState& state_;
  const Program& prog_;
  Memory& mem_;
  std::vector<uint8_t> scratch_;
  bool checks_ = false;  // any shadow check on
  Ext ext_;
};

}  // namespace l0spv::oracles::reference
