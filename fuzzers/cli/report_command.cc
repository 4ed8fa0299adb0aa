// `l0spv-fuzz report FINDING_DIR`: writes FINDING_DIR/UPSTREAM.md, a bug
// report a consumer's maintainers can act on without l0spv-fuzz: what goes
// wrong, the consumer and its version, the (reduced) SPIR-V as text, the
// launch, expected (ref) vs actual values of only the differing elements,
// and the commands that reproduce it with the consumer's own tools.
#include <filesystem>
#include <iostream>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fuzzers/cli/commands.h"
#include "fuzzers/cli/opencl_run_source.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/spirv_opt_adapter.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/targets/target_name.h"
#include "oracles/validity/device_profile.h"
#include "oracles/verdict/verdict.h"
#include "reducers/bundle.h"
#include "reducers/finding.h"
#include "spirv/file_io.h"
#include "spirv/link.h"
#include "spirv/spirv_tools.h"
#include "spirv/test_case.h"
#include "spirv/text_bytes.h"

namespace l0spv::fuzzers::cli {
namespace {

namespace fs = std::filesystem;

std::string Hex(const std::vector<uint8_t>& bytes) {
  return absl::BytesToHexString(absl::string_view(
      reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

std::string SpacedHex(const std::vector<uint8_t>& bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) {
    absl::StrAppend(&out, i == 0 ? "" : (i % 16 == 0 ? "\n" : " "),
                    absl::StrFormat("%02x", bytes[i]));
  }
  return out;
}

std::string Dims(const std::array<uint64_t, 3>& a, uint32_t dims,
                 const char* sep) {
  std::vector<uint64_t> v(a.begin(), a.begin() + dims);
  return absl::StrJoin(v, sep);
}

std::string LaunchText(const spirv::TestCase& tc) {
  const spirv::NdRange& r = tc.nd_range;
  std::string text = absl::StrCat(
      "- kernel `", tc.entry_point, "`, global size (",
      Dims(r.global, r.dims, ", "), ")",
      r.local
          ? absl::StrCat(", local size (", Dims(*r.local, r.dims, ", "), ")")
          : std::string(", local size chosen by the implementation"),
      "\n");
  for (size_t i = 0; i < tc.args.size(); ++i) {
    const spirv::KernelArg& a = tc.args[i];
    switch (a.kind) {
      case spirv::KernelArg::Kind::kBuffer:
        absl::StrAppend(&text, "- arg ", i, ": global buffer of ",
                        a.bytes.size(), " bytes (initial contents: `arg", i,
                        ".bin`)", a.is_result ? ", result" : "", "\n");
        break;
      case spirv::KernelArg::Kind::kScalar:
        absl::StrAppend(&text, "- arg ", i,
                        ": by value, bytes (little-endian) ", Hex(a.bytes),
                        a.type.empty() ? "" : " (" + a.type + ")", "\n");
        break;
      case spirv::KernelArg::Kind::kLocal:
        absl::StrAppend(&text, "- arg ", i, ": __local, ", a.local_bytes,
                        " bytes\n");
        break;
      case spirv::KernelArg::Kind::kImage:
        absl::StrAppend(&text, "- arg ", i, ": image ",
                        spirv::DescribeImage(a.image), " (initial texels: `arg",
                        i, ".bin`)", a.is_result ? ", result" : "", "\n");
        break;
      case spirv::KernelArg::Kind::kSampler:
        absl::StrAppend(&text, "- arg ", i, ": sampler ",
                        spirv::DescribeSampler(a.sampler), "\n");
        break;
    }
  }
  return text;
}

// An oclgrind-kernel simulator file for the SPIR bitcode of the module.
std::string OclgrindSim(const spirv::TestCase& tc) {
  const spirv::NdRange& r = tc.nd_range;
  std::array<uint64_t, 3> local =
      r.local.value_or(std::array<uint64_t, 3>{1, 1, 1});
  std::string sim =
      absl::StrCat("module.bc\n", tc.entry_point, "\n", Dims(r.global, 3, " "),
                   "\n", Dims(local, 3, " "), "\n");
  for (const spirv::KernelArg& a : tc.args) {
    switch (a.kind) {
      case spirv::KernelArg::Kind::kBuffer:
        absl::StrAppend(&sim, "\n<size=", a.bytes.size(), " uchar hex",
                        a.is_result ? " dump" : "", ">\n", SpacedHex(a.bytes),
                        "\n");
        break;
      case spirv::KernelArg::Kind::kScalar:
        absl::StrAppend(&sim, "\n<size=", a.bytes.size(), " uchar hex>\n",
                        SpacedHex(a.bytes), "\n");
        break;
      case spirv::KernelArg::Kind::kLocal:
        absl::StrAppend(&sim, "\n<local size=", a.local_bytes, ">\n");
        break;
      case spirv::KernelArg::Kind::kImage:
      case spirv::KernelArg::Kind::kSampler:
        // oclgrind-kernel's .sim format has no image or sampler arguments;
        // the caller leaves the oclgrind-kernel command out for such cases.
        break;
    }
  }
  return sim;
}

bool HasImageArgs(const spirv::TestCase& tc) {
  for (const spirv::KernelArg& a : tc.args) {
    if (a.kind == spirv::KernelArg::Kind::kImage ||
        a.kind == spirv::KernelArg::Kind::kSampler)
      return true;
  }
  return false;
}

// The arguments of opencl_run (opencl_run_source.h) for the case.
std::string OpenClRunArgs(const std::string& platform,
                          const spirv::TestCase& tc) {
  const spirv::NdRange& r = tc.nd_range;
  std::string args =
      absl::StrCat("'", platform, "' module.bc ", tc.entry_point, " ",
                   Dims(r.global, r.dims, ","), " ",
                   r.local ? Dims(*r.local, r.dims, ",") : std::string("-"));
  for (size_t i = 0; i < tc.args.size(); ++i) {
    const spirv::KernelArg& a = tc.args[i];
    switch (a.kind) {
      case spirv::KernelArg::Kind::kBuffer:
        absl::StrAppend(&args, " buf:arg", i, ".bin",
                        a.is_result ? ":out" : "");
        break;
      case spirv::KernelArg::Kind::kScalar:
        absl::StrAppend(&args, " val:", Hex(a.bytes));
        break;
      case spirv::KernelArg::Kind::kLocal:
        absl::StrAppend(&args, " local:", a.local_bytes);
        break;
      case spirv::KernelArg::Kind::kImage:
        absl::StrAppend(&args, " image:arg", i,
                        ".bin:", spirv::ImageDimName(a.image.dim), ":",
                        spirv::ChannelOrderName(a.image.order), ":",
                        spirv::ChannelTypeName(a.image.type), ":",
                        a.image.width, "x", a.image.height, "x", a.image.depth,
                        "x", a.image.array_size, a.is_result ? ":out" : "");
        break;
      case spirv::KernelArg::Kind::kSampler:
        absl::StrAppend(&args, " sampler:",
                        a.sampler.normalized ? "normalized" : "unnormalized",
                        ":", spirv::AddressingModeName(a.sampler.addressing),
                        ":", spirv::FilterModeName(a.sampler.filter));
        break;
    }
  }
  return args;
}

// The command a recipe names for a target's tool: the PyPI release's
// executable by its path (it is not on PATH), else the usual name.
std::string ToolCommand(const std::string& target, const std::string& usual) {
  auto release = oracles::ReleaseOfTarget(target);
  if (!release || release->origin == "debian") return usual;
  return release->program;
}

// The commands that show the bug with the consumer's own tools, run from
// the directory UPSTREAM.md is in (module.spvasm and argN.bin beside it).
std::string ConsumerCommands(const std::string& target,
                             const spirv::TestCase& tc,
                             const std::string& verdict_kind, bool* wrote_sim,
                             bool* wrote_host) {
  const oracles::TargetName parsed = oracles::ParseTargetName(target);
  const std::string& kind = parsed.kind;
  const std::string& param = parsed.param;
  const std::string version = oracles::SpirvVersionString(
      tc.module_words.size() > 1 ? tc.module_words[1] : 0);
  const std::string assemble = absl::StrCat(
      "spirv-as --target-env spv", version, " module.spvasm -o module.spv");
  if (kind == "ocloc") {
    return absl::StrCat(
        assemble, "\nocloc compile -spirv_input -file module.spv -device ",
        param, "\n");
  }
  if (kind == "spirv-opt") {
    std::string text = absl::StrCat(
        assemble, "\n", ToolCommand(target, "spirv-opt"), " --target-env=spv",
        version, " ", absl::StrJoin(oracles::SpirvOptPassFlags(param), " "),
        " module.spv -o opt.spv\nspirv-val --target-env opencl2.2 opt.spv\n");
    if (verdict_kind == "mismatch")
      absl::StrAppend(&text,
                      "spirv-dis opt.spv   # compare with module.spvasm: the "
                      "optimized kernel computes the values under Actual\n");
    return text;
  }
  if (kind == "llvm-spirv") {
    const std::string tool = ToolCommand(target, "llvm-spirv-14");
    return absl::StrCat(assemble, "\n", tool, " -r module.spv -o module.bc\n",
                        tool, " --spirv-max-version=", version,
                        " module.bc -o back.spv\nspirv-val --target-env "
                        "opencl2.2 back.spv\n");
  }
  if (kind == "oclgrind" && HasImageArgs(tc)) {
    *wrote_host = true;
    return absl::StrCat(
        "# oclgrind-kernel's .sim format has no image or sampler arguments: "
        "the kernel runs\n# through the OpenCL host program opencl_run.c "
        "under Oclgrind instead.\n",
        assemble,
        "\nllvm-spirv-14 -r module.spv -o module.bc\n"
        "cc opencl_run.c -lOpenCL -o opencl_run\n"
        "oclgrind ./opencl_run ",
        OpenClRunArgs("Oclgrind", tc), "   # prints the result buffers\n");
  }
  if (kind == "oclgrind") {
    *wrote_sim = true;
    return absl::StrCat(assemble,
                        "\nllvm-spirv-14 -r module.spv -o module.bc\n"
                        "oclgrind-kernel module.sim   # prints the result "
                        "buffers\n");
  }
  if (kind == "opencl") {
    // No stand-alone kernel runner ships with PoCL: a 100-line OpenCL host
    // program does what l0spv-fuzz's worker does (SPIR path).
    *wrote_host = true;
    return absl::StrCat(assemble,
                        "\nllvm-spirv-14 -r module.spv -o module.bc\n"
                        "cc opencl_run.c -lOpenCL -o opencl_run\n"
                        "./opencl_run ",
                        OpenClRunArgs(param, tc),
                        "   # prints the result buffers\n");
  }
  return absl::StrCat("# no stand-alone tool for target ", target,
                      ": `l0spv-fuzz run . --target=", target, "`\n");
}

std::string ConsumerVersions(const std::string& target) {
  std::vector<std::string> parts;
  const uint32_t mask = oracles::ConsumersOfTarget(target);
  for (const oracles::ConsumerInfo& c : oracles::Consumers()) {
    if ((mask & c.bit) == 0) continue;
    const std::string v = oracles::ConsumerVersionOfTarget(target, c.bit);
    parts.push_back(absl::StrCat(std::string(c.description), " ",
                                 v.empty() ? "(version unknown)" : v));
  }
  return parts.empty() ? target : absl::StrJoin(parts, ", ");
}

int RunReport(const std::vector<std::string>& positional) {
  if (positional.size() != 1)
    return UsageError("report", "expected exactly one FINDING_DIR");
  const std::string dir = positional[0];
  auto finding = reducers::ReadFinding(dir);
  if (!finding.ok())
    return UsageError("report", std::string(finding.status().message()));
  if (finding->target == "ref") {
    return UsageError("report",
                      "the finding is about the reference interpreter or the "
                      "generator (ours), not a consumer: nothing to send "
                      "upstream");
  }
  // The reduced case when there is one: that is what maintainers want.
  spirv::TestCase tc = finding->test_case;
  std::string from = "case/";
  std::error_code ec;
  if (fs::exists(dir + "/reduced/case.json", ec)) {
    auto reduced = spirv::ReadTestCase(dir + "/reduced");
    if (!reduced.ok())
      return UsageError("report", std::string(reduced.status().message()));
    if (auto s = spirv::CheckCaseRunnable(*reduced, dir + "/reduced"); !s.ok())
      return UsageError("report", std::string(s.message()));
    tc = std::move(*reduced);
    from = "reduced/";
  }
  // Run it again: the report shows what this machine's consumer does now.
  auto ref = oracles::MakeTarget("ref", oracles::TargetOptions{});
  auto target = oracles::MakeTarget(finding->target, oracles::TargetOptions{});
  if (!ref.ok() || !target.ok()) {
    return UsageError(
        "report", absl::StrCat("cannot run target ", finding->target, ": ",
                               (!ref.ok() ? ref : target).status().message()));
  }
  oracles::TargetRunLimits limits;
  const oracles::Execution expected = (*ref)->Run(tc, limits);
  const oracles::Execution actual = (*target)->Run(tc, limits);
  const oracles::Verdict v = oracles::Judge(tc, expected, (*target)->name(),
                                            (*target)->executes(), actual);
  if (!v.IsFinding()) {
    return UsageError(
        "report", absl::StrCat(dir, ": ", from,
                               " does not show the bug on this machine "
                               "(the target is ok now): nothing to report"));
  }
  const std::string kind = oracles::VerdictKindName(v.kind);
  auto text = spirv::Disassemble(tc.module_words);
  if (!text.ok())
    return UsageError("report", std::string(text.status().message()));
  const std::string out_dir = dir + "/upstream";
  fs::create_directories(out_dir, ec);
  if (auto s = spirv::WriteTextFile(out_dir + "/module.spvasm", *text); !s.ok())
    return UsageError("report", std::string(s.message()));
  for (size_t i = 0; i < tc.args.size(); ++i) {
    // An image's file holds its initial texels (opencl_run's image:FILE).
    if (tc.args[i].kind != spirv::KernelArg::Kind::kBuffer &&
        tc.args[i].kind != spirv::KernelArg::Kind::kImage)
      continue;
    if (auto s = spirv::WriteFileBytes(absl::StrCat(out_dir, "/arg", i, ".bin"),
                                       tc.args[i].bytes);
        !s.ok())
      return UsageError("report", std::string(s.message()));
  }
  bool wrote_sim = false, wrote_host = false;
  const std::string commands =
      ConsumerCommands(finding->target, tc, kind, &wrote_sim, &wrote_host);
  if (wrote_host) {
    if (auto s =
            spirv::WriteTextFile(out_dir + "/opencl_run.c", kOpenClRunSource);
        !s.ok())
      return UsageError("report", std::string(s.message()));
  }
  if (wrote_sim) {
    if (auto s = spirv::WriteTextFile(out_dir + "/module.sim", OclgrindSim(tc));
        !s.ok())
      return UsageError("report", std::string(s.message()));
  }
  std::string md = absl::StrCat(
      "# ", ConsumerVersions(finding->target), ": ", kind, " on a valid ",
      "OpenCL-environment SPIR-V kernel\n\n", v.explanation, "\n\n",
      "The module passes `spirv-val` (OpenCL 2.2 environment) and the Level "
      "Zero SPIR-V environment's rules, and its results are fully defined: "
      "the reference interpreter of l0spv-fuzz runs it with every "
      "undefined-behaviour check on. Found by l0spv-fuzz (signature `",
      v.signature, "`), ",
      from == "reduced/" ? "reduced automatically." : "not reduced.",
      "\n\n## Module (SPIR-V assembly, `module.spvasm`)\n\n```\n", *text,
      "```\n\n## Launch\n\n", LaunchText(tc), "\n");
  if (v.kind == oracles::VerdictKind::kMismatch) {
    const nlohmann::json diff =
        reducers::BufferDifferences(tc, expected, actual, 32);
    absl::StrAppend(&md,
                    "## Expected (reference) vs actual\n\nOnly the "
                    "differing elements:\n\n```json\n",
                    spirv::DumpJson(diff, 2), "\n```\n\n");
  } else {
    std::string log = actual.log.empty() ? actual.message : actual.log;
    if (log.size() > 3000) log = "..." + log.substr(log.size() - 3000);
    absl::StrAppend(&md, "## What the consumer says\n\n```\n", log,
                    "\n```\n\n");
  }
  absl::StrAppend(&md, "## Reproduce (from this directory)\n\n```sh\n",
                  commands, "```\n");
  // A consumer's bytes that are not UTF-8 shown as \xNN: a report is read.
  if (auto s = spirv::WriteTextFile(out_dir + "/UPSTREAM.md",
                                    spirv::EscapeInvalidUtf8(md));
      !s.ok())
    return UsageError("report", std::string(s.message()));
  std::cout << "wrote " << out_dir << "/UPSTREAM.md (with module.spvasm"
            << (wrote_sim ? ", module.sim" : "")
            << (wrote_host ? ", opencl_run.c" : "")
            << " and the argument files)\n";
  return kExitOk;
}

}  // namespace

Command ReportCommand() {
  return {"report",
          "write an upstream bug report (UPSTREAM.md) for a finding",
          "report FINDING_DIR\n\n"
          "Re-runs the finding's case (its reduced/ case when it was reduced) "
          "on ref and on its target and writes FINDING_DIR/upstream/: "
          "UPSTREAM.md (what goes wrong, the consumer and its version, the "
          "SPIR-V as text, the launch, expected vs actual values of only the "
          "differing elements or the consumer's own message, and the "
          "commands that reproduce it with the consumer's tools: ocloc, "
          "spirv-opt + spirv-val, llvm-spirv, oclgrind-kernel with a "
          "simulator file, a small OpenCL host program for PoCL), "
          "module.spvasm and the argument files. Exit 2 when "
          "the finding is ours (ref) or no longer shows on this machine.",
          {},
          RunReport};
}

}  // namespace l0spv::fuzzers::cli
