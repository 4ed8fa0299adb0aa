// reducers/stage.h — one stage of the reduction pipeline and the state the
// stages share.
//
// Contract:
//  - A Stage proposes smaller candidates of ctx.current() and keeps one only
//    through ctx.Try(), which runs the interestingness test and, when the
//    candidate still reproduces the finding, makes it the current case. So a
//    stage can never make the case uninteresting.
//  - Run() returns whether the stage changed the current case; it stops
//    early (returning what it has) once ctx.Expired().
//  - Stages are listed in a pipeline (pipeline.h) that repeats them to a
//    fixed point; a new stage (e.g. transformation-log shrinking, log_stage.h)
//    plugs in by implementing this interface.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "reducers/interestingness.h"
#include "spirv/test_case.h"

namespace l0spv::reducers {

class ReductionContext {
 public:
  using Clock = std::chrono::steady_clock;
  ReductionContext(spirv::TestCase start, Interestingness* oracle,
                   Clock::time_point deadline)
      : current_(std::move(start)), oracle_(oracle), deadline_(deadline) {}

  const spirv::TestCase& current() const { return current_; }
  // Keeps `candidate` when it is interesting; returns whether it was.
  bool Try(const spirv::TestCase& candidate);
  // Replaces the current case without a check (a stage that ran the test
  // itself, e.g. through spirv-reduce's own interestingness script).
  void Accept(spirv::TestCase verified) { current_ = std::move(verified); }

  bool Expired() const { return Clock::now() >= deadline_; }
  Clock::time_point deadline() const { return deadline_; }
  Interestingness& oracle() { return *oracle_; }

 private:
  spirv::TestCase current_;
  Interestingness* oracle_;
  Clock::time_point deadline_;
};

class Stage {
 public:
  virtual ~Stage() = default;
  virtual std::string name() const = 0;
  virtual bool Run(ReductionContext& ctx) = 0;
};

}  // namespace l0spv::reducers
