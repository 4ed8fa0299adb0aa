// Reducer tests: interestingness rules, end-to-end reduction of
// cases that trigger injected faults (reduce_fault_target.h), bundles,
// dedup and every error path.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzzers/campaign/findings.h"
#include "generators/kernel/generator.h"
#include "generators/transform/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/process/subprocess.h"
#include "reducers/bundle.h"
#include "reducers/check_case.h"
#include "reducers/dedup.h"
#include "reducers/finding.h"
#include "reducers/interestingness.h"
#include "reducers/module_edit.h"
#include "reducers/pipeline.h"
#include "reducers/spirv_reduce_stage.h"
#include "spirv/binary.h"
#include "spirv/file_io.h"
#include "spirv/image_format.h"
#include "spirv/spirv_tools.h"
#include "spirv/text_bytes.h"
#include "tests/reducer/fault_findings.h"
#include "tests/reducer/reduce_fault_target.h"

namespace l0spv::reducers {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kTool =
    std::string(L0SPV_BINARY_DIR) + "/l0spv_reduce_fault_tool";
const std::string kCli = std::string(L0SPV_BINARY_DIR) + "/l0spv-fuzz";

class TempDir {
 public:
  TempDir() {
    std::string t = (fs::temp_directory_path() / "l0spv-reducer-XXXXXX");
    path_ = ::mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string ReadText(const std::string& path) {
  std::ifstream f(path);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// A generated case that triggers `fault`, recorded as a campaign finding
// under out; returns the finding directory.
std::string MakeFinding(const std::string& fault, const std::string& out,
                        uint32_t max_statements = 40) {
  testing::FaultFindingOptions o;
  o.fault = fault;
  o.last_seed = 3000;
  o.max_statements = max_statements;
  const std::vector<std::string> found = testing::MakeFaultFindings(o, out);
  return found.empty() ? "" : found[0];
}

oracles::Verdict V(oracles::VerdictKind kind, const std::string& target,
                   const std::string& signature) {
  oracles::Verdict v;
  v.kind = kind;
  v.target = target;
  v.signature = signature;
  return v;
}

TEST(SignatureMatches, ExactAnyMismatchOfSameTargetAndAnyFinding) {
  using K = oracles::VerdictKind;
  EXPECT_TRUE(
      SignatureMatches("crash:ocloc-tgllp:abc",
                       V(K::kCrash, "ocloc:tgllp", "crash:ocloc-tgllp:abc")));
  EXPECT_FALSE(
      SignatureMatches("crash:ocloc-tgllp:abc",
                       V(K::kCrash, "ocloc:tgllp", "crash:ocloc-tgllp:xyz")));
  EXPECT_TRUE(
      SignatureMatches("mismatch:opencl:bytes",
                       V(K::kMismatch, "opencl", "mismatch:opencl:float-f32")));
  EXPECT_FALSE(
      SignatureMatches("mismatch:opencl:bytes",
                       V(K::kMismatch, "oclgrind", "mismatch:oclgrind:bytes")));
  EXPECT_FALSE(SignatureMatches("mismatch:opencl:bytes",
                                V(K::kCrash, "opencl", "crash:opencl:bytes")));
  EXPECT_TRUE(SignatureMatches("", V(K::kTimeout, "x", "timeout:x:")));
  EXPECT_FALSE(SignatureMatches("", V(K::kOk, "x", "")));
}

TEST(Interestingness, NeverAcceptsInvalidModulesOrUndefinedBehaviour) {
  TempDir tmp;
  const std::string dir = MakeFinding("fault-imul16v", tmp.path());
  ASSERT_FALSE(dir.empty());
  auto finding = ReadFinding(dir);
  ASSERT_TRUE(finding.ok()) << finding.status();
  InterestingnessOptions io;
  io.targets = {"fault-imul16v"};
  io.signature = finding->signature;
  io.make_target = testing::MakeReduceFaultTarget;
  auto oracle = Interestingness::Make(io);
  ASSERT_TRUE(oracle.ok()) << oracle.status();
  EXPECT_TRUE((*oracle)->IsInteresting(finding->test_case));

  spirv::TestCase garbage = finding->test_case;
  garbage.module_words.resize(7);
  const CheckOutcome g = (*oracle)->Check(garbage);
  EXPECT_FALSE(g.interesting);
  EXPECT_FALSE(g.rejected.empty());

  // Shrinking every buffer to one byte makes the kernel write its results
  // (and read any input) out of bounds: the reference reports UB and the
  // target is never judged.
  spirv::TestCase ub = finding->test_case;
  for (auto& a : ub.args)
    if (a.kind == spirv::KernelArg::Kind::kBuffer) a.bytes.resize(1);
  const CheckOutcome u = (*oracle)->Check(ub);
  EXPECT_FALSE(u.interesting);
  ASSERT_FALSE(u.verdicts.empty());
  EXPECT_EQ(u.verdicts[0].kind, oracles::VerdictKind::kUb);
  EXPECT_EQ(u.verdicts.size(), 1u);
}

// Only the candidate is held to every UB check; targets are judged as the
// campaign judged them. spirv-opt's loop-invariant code motion hoists the
// load of a never-written variable out of a loop body that never runs: a
// legal speculative load, which the uninitialised-read check would report
// as target-ub if it also applied to the optimizer's output.
TEST(Interestingness, StrictChecksApplyToTheCandidateNotToTargetOutputs) {
  auto words = spirv::Assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
      %false = OpConstantFalse %bool
      %ptr_f = OpTypePointer Function %uint
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
        %var = OpVariable %ptr_f Function
               OpBranch %header
     %header = OpLabel
               OpLoopMerge %exit %body None
               OpBranchConditional %false %body %exit
       %body = OpLabel
          %v = OpLoad %uint %var
               OpBranch %header
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(words.ok()) << words.status();
  spirv::TestCase tc;
  tc.module_words = *words;
  tc.entry_point = "k";
  tc.nd_range.global = {1, 1, 1};
  tc.nd_range.local = std::array<uint64_t, 3>{1, 1, 1};
  InterestingnessOptions io;
  io.targets = {"spirv-opt:loop-invariant-code-motion"};
  auto oracle = Interestingness::Make(io);
  if (!oracle.ok() &&
      oracle.status().code() == absl::StatusCode::kFailedPrecondition)
    GTEST_SKIP() << oracle.status();
  ASSERT_TRUE(oracle.ok()) << oracle.status();
  const CheckOutcome o = (*oracle)->Check(tc);
  ASSERT_EQ(o.verdicts.size(), 2u) << o.rejected;
  for (const oracles::Verdict& v : o.verdicts)
    EXPECT_EQ(v.kind, oracles::VerdictKind::kOk) << v.explanation;
  EXPECT_FALSE(o.interesting);
}

TEST(ReduceFinding, ReproCommandSurvivesSpacesInTargetNames) {
  const std::string cmd =
      ReproCommand("/opt/l0spv fuzz/l0spv-fuzz",
                   {"opencl:Portable Computing Language"}, "crash:opencl:x", 0);
  // sh splits it into exactly the words `check` needs.
  const std::string script =
      "set -- " + cmd + "; printf '%s\\n' \"$#\" \"$1\" \"$4\"";
  oracles::ChildLimits limits;
  limits.wall_time = std::chrono::seconds(10);
  auto run = oracles::RunCommand({"sh", "-c", script}, limits);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->stdout_text,
            "6\n/opt/l0spv fuzz/l0spv-fuzz\n"
            "--target=opencl:Portable Computing Language\n");
}

TEST(ReduceFinding, CandidatesGetAWallLimitNearTheFindingsOwnCost) {
  using std::chrono::milliseconds;
  EXPECT_EQ(CandidateWallLimit(milliseconds(100)), milliseconds(5000));
  EXPECT_EQ(CandidateWallLimit(milliseconds(3000)), milliseconds(12000));
}

TEST(Interestingness, UnknownTargetIsAnError) {
  InterestingnessOptions io;
  io.targets = {"no-such-target"};
  auto oracle = Interestingness::Make(io);
  ASSERT_FALSE(oracle.ok());
  EXPECT_THAT(oracle.status().message(), HasSubstr("no-such-target"));
}

// An image finding: the shrink-images golden's kernel, whose
// 16-bit multiply of an image texel is the fault, recorded as a finding and
// reduced by the whole pipeline (spirv-reduce skipped, for time).
TEST(ReduceFinding, ImageFindingShrinksImagesFormatsAndSamplers) {
  TempDir tmp;
  auto words = spirv::Assemble(
      ReadText(std::string(L0SPV_SOURCE_DIR) +
               "/tests/reducer/golden/shrink-images/before.spvasm"));
  ASSERT_TRUE(words.ok()) << words.status();
  spirv::TestCase tc;
  tc.module_words = *words;
  tc.entry_point = "k";
  tc.nd_range.dims = 1;
  tc.nd_range.global = {1, 1, 1};
  auto image = [](uint32_t type, uint64_t seed) {
    spirv::KernelArg a;
    a.kind = spirv::KernelArg::Kind::kImage;
    a.image.order = spirv::channel_order::kRGBA;
    a.image.type = type;
    a.image.width = 8;
    a.image.height = 4;
    a.bytes = spirv::ImageTexelsFromSeed(a.image, seed);
    return a;
  };
  spirv::KernelArg sampler;
  sampler.kind = spirv::KernelArg::Kind::kSampler;
  sampler.sampler = {true, spirv::AddressingMode::kRepeat,
                     spirv::FilterMode::kLinear};
  spirv::KernelArg out, fout;
  out.is_result = fout.is_result = true;
  out.bytes.assign(4, 0);
  fout.bytes.assign(16, 0);
  tc.args = {image(spirv::channel_type::kUnsignedInt16, 3),
             image(spirv::channel_type::kUnormInt16, 5), sampler, out, fout};

  InterestingnessOptions io;
  io.targets = {"fault-imul16v"};
  io.make_target = testing::MakeReduceFaultTarget;
  auto probe = Interestingness::Make(io);
  ASSERT_TRUE(probe.ok()) << probe.status();
  std::string signature;
  for (const oracles::Verdict& v : (*probe)->Check(tc).verdicts)
    if (v.target == "fault-imul16v") signature = v.signature;
  ASSERT_EQ(signature.rfind("mismatch:fault-imul16v:", 0), 0u) << signature;
  const std::string dir = tmp.path() + "/finding";
  ASSERT_TRUE(spirv::WriteTestCase(tc, dir + "/case").ok());
  ASSERT_TRUE(spirv::WriteTextFile(dir + "/verdict.json",
                                   nlohmann::json{{"kind", "mismatch"},
                                                  {"target", "fault-imul16v"},
                                                  {"signature", signature},
                                                  {"explanation", ""}}
                                       .dump())
                  .ok());

  ReduceOptions o;
  o.budget = std::chrono::seconds(60);
  o.make_target = testing::MakeReduceFaultTarget;
  o.self_command = kTool;
  auto report = ReduceFinding(dir, o);
  ASSERT_TRUE(report.ok()) << report.status();
  auto reduced = spirv::ReadTestCase(dir + "/reduced");
  ASSERT_TRUE(reduced.ok()) << reduced.status();
  EXPECT_TRUE(testing::HasFault("fault-imul16v", reduced->module_words));
  std::vector<const spirv::KernelArg*> images, samplers;
  for (const spirv::KernelArg& a : reduced->args) {
    if (a.kind == spirv::KernelArg::Kind::kImage) images.push_back(&a);
    if (a.kind == spirv::KernelArg::Kind::kSampler) samplers.push_back(&a);
  }
  // The sampled image and the samplers go altogether (their reads are not
  // the fault, and drop-unused-args removes them once unread); the read
  // image stays, as small and plain as it gets once shrink-constants moved
  // the read to (0, 0): 1 x 1 R UnsignedInt32, its texel non-zero (x * x
  // equals x + x for 0).
  ASSERT_EQ(images.size(), 1u);
  EXPECT_TRUE(samplers.empty());
  const spirv::ImageDesc& d = images[0]->image;
  EXPECT_EQ(spirv::TexelCount(d), 1u);
  EXPECT_EQ(d.order, spirv::channel_order::kR);
  EXPECT_EQ(d.type, spirv::channel_type::kUnsignedInt32);
  EXPECT_TRUE(std::any_of(images[0]->bytes.begin(), images[0]->bytes.end(),
                          [](uint8_t b) { return b != 0; }));
  EXPECT_LT(report->instructions_after, report->instructions_before);
  uint64_t image_steps = 0;
  for (const StageReport& st : report->stages)
    if (st.name == "shrink-images") image_steps += st.kept;
  EXPECT_GE(image_steps, 1u);
  std::cout << "image finding: " << report->instructions_before << " -> "
            << report->instructions_after << " body instructions; images:";
  for (const spirv::KernelArg* a : images)
    std::cout << " [" << spirv::DescribeImage(a->image) << "]";
  std::cout << "; samplers " << samplers.size() << "\n";
}

TEST(ReduceFinding, MiscompiledMultiplyReducesToAFewInstructionsAndReproduces) {
  TempDir tmp;
  const std::string dir = MakeFinding("fault-imul16v", tmp.path(), 80);
  ASSERT_FALSE(dir.empty());
  ReduceOptions o;
  o.budget = std::chrono::seconds(90);
  o.make_target = testing::MakeReduceFaultTarget;
  o.self_command = kTool;
  o.check_command = {kTool, "check"};
  auto report = ReduceFinding(dir, o);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_GT(report->instructions_before, report->instructions_after);
  EXPECT_LE(report->instructions_after, 25u);
  EXPECT_EQ(report->work_items_after, 1u);
  EXPECT_EQ(report->final_signature.rfind("mismatch:fault-imul16v:", 0), 0u);
  auto reduced = spirv::ReadTestCase(dir + "/reduced");
  ASSERT_TRUE(reduced.ok()) << reduced.status();
  EXPECT_TRUE(testing::HasFault("fault-imul16v", reduced->module_words));
  for (const char* f : {"module.spv", "module.spvasm", "case.json", "repro.sh",
                        "reduction.json", "differences.json", "verdict.json",
                        "outputs/ref.json"})
    EXPECT_TRUE(fs::exists(dir + "/reduced/" + f)) << f;
  const auto diff =
      nlohmann::json::parse(ReadText(dir + "/reduced/differences.json"));
  EXPECT_TRUE(diff.is_array());
  EXPECT_FALSE(diff.empty());
  const auto rj =
      nlohmann::json::parse(ReadText(dir + "/reduced/reduction.json"));
  EXPECT_EQ(rj["instructions_after"], report->instructions_after);
  EXPECT_GT(rj["interestingness_runs"].get<uint64_t>(), 0u);
  EXPECT_THAT(ReadText(dir + "/README.md"),
              HasSubstr("# mismatch on fault-imul16v (reduced)"));
  EXPECT_TRUE(fs::exists(dir + "/README.campaign.md"));
  // repro.sh reproduces: exit 1 = interesting.
  oracles::ChildLimits limits;
  limits.wall_time = std::chrono::seconds(60);
  auto run = oracles::RunCommand({"sh", dir + "/reduced/repro.sh"}, limits);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->exit_code, 1) << run->stderr_text;
  EXPECT_FALSE(fs::exists(dir + "/.reduced-tmp-" + std::to_string(::getpid())));
}

TEST(ReduceFinding, CrashKeepsTheCrashingCallWithoutSpirvReduce) {
  TempDir tmp;
  const std::string dir = MakeFinding("fault-crash-rotate", tmp.path(), 80);
  ASSERT_FALSE(dir.empty());
  ReduceOptions o;
  // Generous: under ASan on a loaded 2-core machine a candidate costs
  // seconds; a quiet run reaches its fixed point long before.
  o.budget = std::chrono::seconds(120);
  o.make_target = testing::MakeReduceFaultTarget;
  o.self_command = kTool;  // no check_command: spirv-reduce unsupported
  auto report = ReduceFinding(dir, o);
  ASSERT_TRUE(report.ok()) << report.status();
  // The bound depends on which generated case first hits the fault (the
  // generator's gates change it: 31 instructions, from 80-statement cases).
  EXPECT_LE(report->instructions_after, 35u);
  bool saw = false;
  for (const auto& s : report->stages) {
    if (s.name != "spirv-reduce") continue;
    saw = true;
    EXPECT_THAT(s.unsupported, HasSubstr("no interestingness command"));
  }
  EXPECT_TRUE(saw);
  auto reduced = spirv::ReadTestCase(dir + "/reduced");
  ASSERT_TRUE(reduced.ok());
  EXPECT_TRUE(testing::HasFault("fault-crash-rotate", reduced->module_words));
  EXPECT_FALSE(fs::exists(dir + "/reduced/differences.json"));
}

TEST(ReduceFinding, ShrinksTheTransformationLogOfAMutatedFinding) {
  TempDir tmp;
  const std::string plain = MakeFinding("fault-imul16v", tmp.path() + "/p");
  ASSERT_FALSE(plain.empty());
  auto finding = ReadFinding(plain);
  ASSERT_TRUE(finding.ok());
  generators::transform::TransformOptions to;
  to.seed = 7;
  to.count = 30;
  auto mutated = generators::transform::Transform(finding->test_case, to);
  ASSERT_TRUE(mutated.ok()) << mutated.status();
  InterestingnessOptions io;
  io.targets = {"fault-imul16v"};
  io.make_target = testing::MakeReduceFaultTarget;
  auto oracle = Interestingness::Make(io);
  ASSERT_TRUE(oracle.ok());
  const CheckOutcome c = (*oracle)->Check(mutated->test_case);
  ASSERT_TRUE(c.interesting);
  fuzzers::campaign::FindingRecord r;
  for (const auto& v : c.verdicts)
    if (v.target == "fault-imul16v") r.verdict = v;
  r.test_case = mutated->test_case;
  r.original = finding->test_case;
  r.outputs = c.executions;
  ASSERT_TRUE(fuzzers::campaign::RecordFinding(tmp.path() + "/m", r).ok());
  const std::string dir =
      tmp.path() + "/m/findings/" +
      fuzzers::campaign::FindingDirName(r.verdict.signature);
  ASSERT_TRUE(fs::exists(dir + "/original/case.json"));
  ReduceOptions o;
  // Generous: under ASan on a loaded 2-core machine a candidate costs
  // seconds; a quiet run reaches its fixed point long before.
  o.budget = std::chrono::seconds(120);
  o.make_target = testing::MakeReduceFaultTarget;
  o.self_command = kTool;
  auto report = ReduceFinding(dir, o);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_GT(report->log_records_before, 0u);
  // The original already shows the fault: no transformation is needed.
  EXPECT_EQ(report->log_records_after, 0u);
  // spirv-fuzz-shrink comes first and has nothing to do here (no spirv-fuzz
  // sequence); shrink-log is the stage that keeps.
  ASSERT_GE(report->stages.size(), 2u);
  EXPECT_EQ(report->stages[0].name, "spirv-fuzz-shrink");
  EXPECT_EQ(report->stages[0].kept, 0u);
  EXPECT_EQ(report->stages[1].name, "shrink-log");
  EXPECT_GE(report->stages[1].kept, 1u);
  // 27 since the version swarm changed what seed 1 generates.
  EXPECT_LE(report->instructions_after, 30u);
}

TEST(ReduceFinding, ErrorPaths) {
  TempDir tmp;
  ReduceOptions o;
  o.make_target = testing::MakeReduceFaultTarget;
  EXPECT_EQ(ReduceFinding(tmp.path() + "/nope", o).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(ReduceFinding(tmp.path(), o).status().code(),
            absl::StatusCode::kInvalidArgument);

  const std::string dir = MakeFinding("fault-imul16v", tmp.path());
  ASSERT_FALSE(dir.empty());
  const std::string verdict = ReadText(dir + "/verdict.json");
  EXPECT_TRUE(spirv::WriteTextFile(dir + "/verdict.json", "{ not json").ok());
  auto bad = ReadFinding(dir);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("verdict.json"));

  auto j = nlohmann::json::parse(verdict);
  j["signature"] = "";
  EXPECT_TRUE(spirv::WriteTextFile(dir + "/verdict.json", j.dump()).ok());
  EXPECT_THAT(ReadFinding(dir).status().message(),
              HasSubstr("empty signature"));

  j.erase("target");
  j["signature"] = "x";
  EXPECT_TRUE(spirv::WriteTextFile(dir + "/verdict.json", j.dump()).ok());
  EXPECT_THAT(ReadFinding(dir).status().message(),
              HasSubstr("verdict.json: field 'target': missing"));

  // A finding whose signature does not reproduce: nothing is written.
  j = nlohmann::json::parse(verdict);
  j["signature"] = "crash:fault-imul16v:signal-11";
  EXPECT_TRUE(spirv::WriteTextFile(dir + "/verdict.json", j.dump()).ok());
  auto r = ReduceFinding(dir, o);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("does not reproduce"));
  EXPECT_FALSE(fs::exists(dir + "/reduced"));

  // A broken case directory.
  EXPECT_TRUE(spirv::WriteTextFile(dir + "/verdict.json", verdict).ok());
  fs::remove(dir + "/case/case.json");
  EXPECT_THAT(ReadFinding(dir).status().message(), HasSubstr("/case"));
}

TEST(SpirvReduceStage, MissingProgramIsUnsupportedWithTheReason) {
  SpirvReduceOptions so;
  so.program = "/nonexistent/spirv-reduce";
  so.check_command = {kTool, "check"};
  SpirvReduceStage stage(so);
  EXPECT_THAT(stage.unsupported(), HasSubstr("/nonexistent/spirv-reduce"));
  EXPECT_THAT(stage.unsupported(), HasSubstr("not executable"));
}

TEST(SpirvReduceStage, ShellQuoteSurvivesQuotes) {
  EXPECT_EQ(spirv::ShellQuote("a'b"), "'a'\\''b'");
  EXPECT_EQ(spirv::ShellQuote("x y"), "'x y'");
}

TEST(Dedup, SameReducedSignatureBecomesOneBucketWithEverySeed) {
  TempDir tmp;
  auto make = [&](const std::string& name, const std::string& sig,
                  const std::string& seed) {
    const std::string d = tmp.path() + "/findings/" + name;
    fs::create_directories(d + "/reduced");
    fs::create_directories(d + "/seeds");
    EXPECT_TRUE(spirv::WriteTextFile(d + "/seeds/" + seed, "").ok());
    EXPECT_TRUE(
        spirv::WriteTextFile(d + "/reduced/reduction.json",
                             nlohmann::json{{"final_signature", sig}}.dump())
            .ok());
  };
  make("a", "crash:x:one", "1");
  make("b", "crash:x:one", "2");
  make("c", "crash:x:two", "3");
  fs::create_directories(tmp.path() + "/findings/unreduced/seeds");
  auto r = DedupFindings(tmp.path());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->findings, 3u);
  EXPECT_EQ(r->merged, 1u);
  EXPECT_TRUE(fs::exists(tmp.path() + "/findings/a/seeds/1"));
  EXPECT_TRUE(fs::exists(tmp.path() + "/findings/a/seeds/2"));
  EXPECT_TRUE(fs::exists(tmp.path() + "/findings/a/duplicates/b/seeds/2"));
  EXPECT_FALSE(fs::exists(tmp.path() + "/findings/b"));
  EXPECT_TRUE(fs::exists(tmp.path() + "/findings/c"));
  EXPECT_TRUE(fs::exists(tmp.path() + "/findings/unreduced"));
  // Idempotent.
  auto again = DedupFindings(tmp.path());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->merged, 0u);
  EXPECT_EQ(DedupFindings(tmp.path() + "/none").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(Bundle, DifferencesListOnlyDifferingElements) {
  spirv::TestCase tc;
  spirv::KernelArg a;
  a.is_result = true;
  a.type = "u32 results";
  a.bytes.resize(16);
  tc.args = {a};
  oracles::Execution e, x;
  e.buffers = {std::vector<uint8_t>(16, 0)};
  x.buffers = e.buffers;
  x.buffers[0][9] = 7;  // element 2
  const nlohmann::json d = BufferDifferences(tc, e, x);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]["element"], 2);
  EXPECT_EQ(d[0]["expected"], "0x00000000");
  EXPECT_EQ(d[0]["actual"], "0x00000700");
}

TEST(ModuleEdit, UnreachableBlocksGoWithTheirPhiEntries) {
  auto words = spirv::Assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpBranch %join
       %dead = OpLabel
               OpBranch %join
       %join = OpLabel
          %p = OpPhi %uint %uint_1 %entry %uint_2 %dead
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(words.ok()) << words.status();
  auto m = spirv::ReadModuleWords(*words);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(FunctionBodyInstructionCount(*m), 7u);
  RemoveUnreachableBlocks(*m);
  EXPECT_EQ(FunctionBodyInstructionCount(*m), 5u);
  RemoveDeadCode(*m);  // %p is unused; %uint_2 then too
  EXPECT_EQ(FunctionBodyInstructionCount(*m), 4u);
  EXPECT_TRUE(spirv::Validate(spirv::EncodeModule(*m)).ok());
}

// The command line: every error path exits 2 with a message.
int Cli(const std::vector<std::string>& args, std::string* err = nullptr) {
  std::vector<std::string> argv = {kCli};
  argv.insert(argv.end(), args.begin(), args.end());
  oracles::ChildLimits limits;
  limits.wall_time = std::chrono::seconds(60);
  auto r = oracles::RunCommand(argv, limits);
  if (!r.ok()) return -1;
  if (err) *err = r->stderr_text;
  return r->exit_code;
}

TEST(ReduceCli, ErrorPathsExitTwoWithAMessage) {
  TempDir tmp;
  std::string err;
  EXPECT_EQ(Cli({"reduce"}, &err), 2);
  EXPECT_THAT(err, HasSubstr("FINDING_DIR"));
  EXPECT_EQ(Cli({"reduce", tmp.path() + "/missing"}, &err), 2);
  EXPECT_THAT(err, HasSubstr("no such directory"));
  EXPECT_EQ(Cli({"reduce", tmp.path()}, &err), 2);
  EXPECT_THAT(err, HasSubstr("not a finding directory"));
  EXPECT_EQ(Cli({"reduce", tmp.path(), "--reduce_time=soon"}, &err), 2);
  EXPECT_THAT(err, HasSubstr("--reduce_time"));
  EXPECT_EQ(Cli({"reduce", tmp.path(), "--spirv_reduce=/nonexistent"}, &err),
            2);
  EXPECT_THAT(err, HasSubstr("not an executable"));
  EXPECT_EQ(Cli({"reduce", "--help"}), 0);
}

TEST(CheckCli, StrictCheckOfACandidateModule) {
  TempDir tmp;
  const std::string dir = MakeFinding("fault-imul16v", tmp.path());
  ASSERT_FALSE(dir.empty());
  std::string err;
  // ref alone finds nothing on a generated case: not interesting.
  EXPECT_EQ(Cli({"check", dir + "/case", "--target=ref", "--strict",
                 "--module=" + dir + "/case/module.spv"}),
            0);
  EXPECT_EQ(Cli({"check", dir + "/case", "--target=ref",
                 "--module=" + tmp.path() + "/none.spv"},
                &err),
            2);
  EXPECT_THAT(err, HasSubstr("none.spv"));
  // The fault tool's check (what spirv-reduce's script runs) says yes.
  auto finding = ReadFinding(dir);
  ASSERT_TRUE(finding.ok());
  oracles::ChildLimits limits;
  auto r = oracles::RunCommand(
      {kTool, "check", dir + "/case", "--target=fault-imul16v",
       "--signature=" + finding->signature, "--strict",
       "--module=" + dir + "/case/module.spv"},
      limits);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 1);
}

}  // namespace
}  // namespace l0spv::reducers
