// `l0spv-fuzz run`: execute one test case on one target and show the result.
//
//   run CASE_DIR --target=T [--json] [--dump=DIR]
//   run FILE.spv --kernel=NAME --global=X[,Y,Z] [--local=..] [--offset=..]
//       [--arg=SPEC ...] --target=T [--json] [--dump=DIR]
//
// The target (oracles/targets/target.h, made by MakeTarget) runs in a worker
// process with a wall-clock and memory limit, so a crash or hang in it is
// reported, not suffered.
#include <filesystem>
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "fuzzers/cli/case_input.h"
#include "fuzzers/cli/commands.h"
#include "oracles/execution_json.h"
#include "oracles/targets/target.h"
#include "spirv/binary.h"
#include "spirv/launch_spec.h"
#include "spirv/link.h"
#include "spirv/test_case.h"
#include "spirv/text_bytes.h"

ABSL_DECLARE_FLAG(bool, json);
ABSL_FLAG(std::string, target, "ref",
          "target to run on: ref | gpu[:DEVICE] | opencl[:PLATFORM] | "
          "ocloc:DEVICE (compile-only) | oclgrind | spirv-opt[:PASSES] | "
          "llvm-spirv | spirv-link | spirv-fuzz:SEED[+fixup], each with an "
          "optional @RELEASE (`l0spv-fuzz targets` lists what this machine "
          "has)");
ABSL_FLAG(std::string, kernel, "", "entry point name (with FILE.spv)");
ABSL_FLAG(std::string, global, "", "global size X[,Y,Z] (with FILE.spv)");
ABSL_FLAG(std::string, local, "",
          "local size X[,Y,Z] (with FILE.spv; empty = target chooses)");
ABSL_FLAG(std::string, offset, "", "global offset X[,Y,Z] (with FILE.spv)");
ABSL_FLAG(std::vector<std::string>, arg, {},
          "kernel argument, repeatable, in order: buf:BYTES | buf:@FILE | "
          "local:BYTES | i8/i16/i32/i64/u8/u16/u32/u64/f16/f32/f64:VALUE | "
          "image:DIM:ORDER:TYPE:W[xH[xD|xLAYERS]][:ACCESS][:seed=N|:@FILE] "
          "(e.g. image:2d:RGBA:UnormInt8:16x8:read_only:seed=1) | "
          "sampler:normalized|unnormalized:ADDRESSING:FILTER (e.g. "
          "sampler:normalized:ClampToEdge:Linear); docs/case-format.md");
ABSL_FLAG(std::string, sidecar, "",
          "take the launch (kernel, ND-range, argument contents) of FILE.spv "
          "from a corpus sidecar JSON file (corpora/README.md)");
ABSL_FLAG(std::string, dump, "",
          "write the final contents of every buffer and image argument to "
          "DIR/argN.bin (images: texels tightly packed)");
ABSL_FLAG(int, timeout, 60,
          "wall-clock limit of the whole run (every worker and tool), "
          "seconds");
ABSL_FLAG(uint64_t, memory_limit_mb, 4096,
          "address-space limit of every worker and tool process, MiB (0 = "
          "unlimited)");
ABSL_FLAG(uint64_t, schedule_seed, 0,
          "permute the work-item order at barriers (0 = in order)");

ABSL_DECLARE_FLAG(uint64_t, ref_steps);

namespace l0spv::fuzzers::cli {
namespace {

namespace fs = std::filesystem;

absl::StatusOr<std::array<uint64_t, 3>> ParseSizes(const std::string& text,
                                                   const char* flag,
                                                   uint32_t* dims) {
  std::array<uint64_t, 3> out{1, 1, 1};
  std::vector<std::string> parts = absl::StrSplit(text, ',');
  if (parts.empty() || parts.size() > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, "=", text, ": expected 1–3 sizes X[,Y,Z]"));
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!absl::SimpleAtoi(parts[i], &out[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", flag, "=", text, ": '", parts[i], "' is not a size"));
    }
  }
  if (dims) *dims = static_cast<uint32_t>(parts.size());
  return out;
}

absl::StatusOr<spirv::TestCase> CaseFromFlags(const std::string& spv) {
  auto module = spirv::ReadModuleFile(spv);
  if (!module.ok()) return module.status();
  spirv::TestCase tc;
  tc.module_words = spirv::EncodeModule(*module);
  tc.entry_point = absl::GetFlag(FLAGS_kernel);
  if (tc.entry_point.empty()) {
    return absl::InvalidArgumentError(
        "running a FILE.spv needs --kernel=NAME and --global=X[,Y,Z]");
  }
  if (absl::GetFlag(FLAGS_global).empty()) {
    return absl::InvalidArgumentError("missing --global=X[,Y,Z]");
  }
  auto global =
      ParseSizes(absl::GetFlag(FLAGS_global), "global", &tc.nd_range.dims);
  if (!global.ok()) return global.status();
  tc.nd_range.global = *global;
  if (!absl::GetFlag(FLAGS_local).empty()) {
    uint32_t dims = 0;
    auto local = ParseSizes(absl::GetFlag(FLAGS_local), "local", &dims);
    if (!local.ok()) return local.status();
    if (dims != tc.nd_range.dims) {
      return absl::InvalidArgumentError(
          "--local must have as many dimensions as --global");
    }
    tc.nd_range.local = *local;
  }
  if (!absl::GetFlag(FLAGS_offset).empty()) {
    auto offset = ParseSizes(absl::GetFlag(FLAGS_offset), "offset", nullptr);
    if (!offset.ok()) return offset.status();
    tc.nd_range.offset = *offset;
  }
  if (auto s = spirv::ValidateNdRange(tc.nd_range); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--global/--local/--offset: ", s.message()));
  }
  for (const std::string& spec : absl::GetFlag(FLAGS_arg)) {
    auto arg = spirv::ParseArgSpec(spec);
    if (!arg.ok()) return arg.status();
    tc.args.push_back(std::move(*arg));
  }
  return tc;
}

void PrintBuffer(size_t index, const std::vector<uint8_t>& bytes) {
  constexpr size_t kRow = 32, kMaxRows = 8;
  std::cout << absl::StrFormat("arg%d: %d bytes\n", index, bytes.size());
  for (size_t row = 0; row * kRow < bytes.size() && row < kMaxRows; ++row) {
    std::cout << absl::StrFormat("  %06x ", row * kRow);
    for (size_t i = row * kRow; i < std::min(bytes.size(), (row + 1) * kRow);
         ++i)
      std::cout << absl::StrFormat("%02x", bytes[i])
                << ((i % 4 == 3) ? " " : "");
    std::cout << "\n";
  }
  if (bytes.size() > kRow * kMaxRows)
    std::cout << "  ... (use --dump=DIR or --json for everything)\n";
}

int RunRun(const std::vector<std::string>& positional) {
  if (positional.empty()) {
    return UsageError("run",
                      "expected one CASE_DIR, or FILE.spv [LINKED.spv ...]");
  }
  const std::string& input = positional[0];
  std::error_code ec;
  const std::string sidecar = absl::GetFlag(FLAGS_sidecar);
  const bool case_input = fs::is_directory(input, ec) || !sidecar.empty();
  if (case_input && positional.size() > 1) {
    return UsageError("run",
                      absl::StrCat("unexpected argument '", positional[1],
                                   "': further modules go with a FILE.spv "
                                   "(a case directory lists its own)"));
  }
  auto tc = case_input ? ReadCaseInput(input) : CaseFromFlags(input);
  if (!tc.ok()) return UsageError("run", std::string(tc.status().message()));
  // FILE.spv LINKED.spv ...: modules linked with the first (Level Zero's
  // zeModuleDynamicLink); the kernel is the first's.
  if (positional.size() - 1 > spirv::kMaxLinkedModules) {
    return UsageError("run",
                      absl::StrCat("at most ", spirv::kMaxLinkedModules + 1,
                                   " modules can be linked"));
  }
  for (size_t i = 1; i < positional.size(); ++i) {
    auto linked = spirv::ReadModuleFile(positional[i]);
    if (!linked.ok())
      return UsageError("run", std::string(linked.status().message()));
    tc->linked_modules.push_back(spirv::EncodeModule(*linked));
  }
  // The launch comes from the sidecar when there is one: name it.
  if (absl::Status s = spirv::CheckCaseRunnable(
          *tc,
          sidecar.empty() ? input : absl::StrCat(input, " with ", sidecar));
      !s.ok())
    return UsageError("run", std::string(s.message()));
  const std::string target = absl::GetFlag(FLAGS_target);
  oracles::TargetOptions options;
  if (absl::GetFlag(FLAGS_schedule_seed) != 0)
    options.reference.schedule_seed = absl::GetFlag(FLAGS_schedule_seed);
  if (absl::GetFlag(FLAGS_ref_steps) != 0)
    options.reference.step_budget = absl::GetFlag(FLAGS_ref_steps);
  auto adapter = oracles::MakeTarget(target, options);
  if (!adapter.ok()) {
    const std::string message(adapter.status().message());
    return UsageError(
        "run", absl::StrCat("--target=", target, ": ", message,
                            absl::StrContains(message, "l0spv-fuzz targets")
                                ? ""
                                : " (see `l0spv-fuzz targets` for what this "
                                  "machine has)"));
  }
  oracles::TargetRunLimits limits;
  limits.wall_time = std::chrono::seconds(absl::GetFlag(FLAGS_timeout));
  limits.memory_bytes = absl::GetFlag(FLAGS_memory_limit_mb) << 20;
  const oracles::Execution e = (*adapter)->Run(*tc, limits);

  if (const std::string dir = absl::GetFlag(FLAGS_dump); !dir.empty()) {
    fs::create_directories(dir, ec);
    for (size_t i = 0; i < e.buffers.size(); ++i) {
      if (tc->args.size() > i &&
          (tc->args[i].kind == spirv::KernelArg::Kind::kBuffer ||
           tc->args[i].kind == spirv::KernelArg::Kind::kImage)) {
        if (auto s = spirv::WriteFileBytes(absl::StrCat(dir, "/arg", i, ".bin"),
                                           e.buffers[i]);
            !s.ok()) {
          return UsageError("run", std::string(s.message()));
        }
      }
    }
  }
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json j = oracles::ExecutionToJson(e);
    j["target"] = target;
    std::cout << spirv::DumpJson(j, 2) << "\n";
  } else {
    std::cout << e.printf_output;
    std::cerr << "target " << target << ", kernel " << tc->entry_point
              << ": status " << oracles::ExecutionStatusName(e.status)
              << (e.message.empty() ? "" : ": ")
              << spirv::EscapeInvalidUtf8(e.message) << "\n"
              << "instructions executed: " << e.instructions_executed << "\n";
    if (!(*adapter)->executes() && e.status == oracles::ExecutionStatus::kOk)
      std::cerr << "compile-only target: the module was accepted; there are "
                   "no buffers\n";
    // Result buffers only; --json and --dump give every buffer.
    for (size_t i = 0; i < e.buffers.size() && i < tc->args.size(); ++i) {
      const spirv::KernelArg& a = tc->args[i];
      if (!a.is_result) continue;
      if (a.kind == spirv::KernelArg::Kind::kImage)
        std::cout << "arg" << i << ": image " << spirv::DescribeImage(a.image)
                  << "\n";
      if (a.kind == spirv::KernelArg::Kind::kBuffer ||
          a.kind == spirv::KernelArg::Kind::kImage)
        PrintBuffer(i, e.buffers[i]);
    }
  }
  switch (e.status) {
    case oracles::ExecutionStatus::kOk:
      return kExitOk;
    case oracles::ExecutionStatus::kBuildFailed:
    case oracles::ExecutionStatus::kUnsupported:
      return kExitUsage;
    default:
      return kExitFinding;
  }
}

}  // namespace

Command RunCommand() {
  return {
      "run",
      "execute one test case on a target",
      "run (CASE_DIR | FILE.spv [LINKED.spv ...] --kernel=NAME "
      "--global=X[,Y,Z] "
      "[--local=X[,Y,Z]] [--arg=SPEC ...] | FILE.spv --sidecar=JSON) "
      "[--target=T] [--json] [--dump=DIR] [--timeout=S] "
      "[--memory_limit_mb=M] [--ref_steps=N]\n\n"
      "T: ref | opencl[:PLATFORM] | ocloc:DEVICE | oclgrind | "
      "spirv-opt[:PASSES] | llvm-spirv (`l0spv-fuzz targets`). "
      "Runs the case in a worker process with a time and memory limit. "
      "Prints printf output verbatim on stdout, then (on stderr) the status "
      "and the buffers. Exit 0 when the run is ok; 1 on undefined "
      "behaviour, a crash or a timeout (a finding); 2 when the case is "
      "malformed, fails validation or uses something unsupported.",
      {"target", "kernel", "global", "local", "offset", "arg", "sidecar",
       "json", "dump", "timeout", "memory_limit_mb", "schedule_seed",
       "ref_steps"},
      RunRun};
}

}  // namespace l0spv::fuzzers::cli
