// oracles/process/scratch_root.h — the one directory under TMPDIR that
// holds every scratch directory this process makes, so that nothing is
// left behind however the process ends.
//
// Contract:
// - `ProcessScratchRoot` is `$TMPDIR/l0spv-PID-START/` (START: the
//   process's start time in clock ticks since boot, so a reused pid never
//   claims another's root), made on first use with mode 0700. A forked
//   process (a campaign job, a worker) shares the root its parent had made
//   before the fork; the process that made a root removes it.
// - Making a root first sweeps the roots of processes that no longer run
//   (killed with SIGKILL, or by a signal whose handler could not clean
//   up): a crash costs disk only until the next command.
// - The root is removed, with everything in it, when the process exits
//   normally (atexit); `SweepStaleScratchRoots` also runs then, so a
//   campaign's parent removes its dead jobs' roots.
// - Failure is FailedPrecondition saying what to fix (TMPDIR).
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace l0spv::oracles {

absl::StatusOr<std::string> ProcessScratchRoot();

// Removes every `l0spv-PID-START` directory directly under `base` whose
// process is gone.
void SweepStaleScratchRoots(const std::string& base);

}  // namespace l0spv::oracles
