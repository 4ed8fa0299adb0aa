// Golden tests of every reduction stage the pipeline builds (DefaultStages,
// reducers/pipeline.h), in the manner of spirv-reduce's per-finder tests: a
// case before, the case after the ONE stage ran to its fixed point, and cases
// where the stage must change nothing. The data is in tests/reducer/golden/
// (README.md there: the file format, L0SPV_UPDATE_GOLDEN=1).
//
// The stages are taken from DefaultStages itself, so a stage added to the
// pipeline gets a test instance here, which fails until its golden directory
// exists. The interestingness predicates are the injected faults of
// reduce_fault_target.h, judged by the real oracle (Interestingness) with the
// reference interpreter in process.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "generators/spirv_fuzz/engine.h"
#include "generators/transform/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/targets/consumer_probe.h"
#include "reducers/interestingness.h"
#include "reducers/module_edit.h"
#include "reducers/pipeline.h"
#include "reducers/spirv_reduce_stage.h"
#include "spirv/file_io.h"
#include "spirv/image_format.h"
#include "spirv/spirv_tools.h"
#include "tests/reducer/reduce_fault_target.h"

namespace l0spv::reducers {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kGoldenDir =
    std::string(L0SPV_SOURCE_DIR) + "/tests/reducer/golden";
const std::string kTool =
    std::string(L0SPV_BINARY_DIR) + "/l0spv_reduce_fault_tool";
constexpr absl::string_view kHeader = "; golden: ";

// One golden file: the module, its launch and the fault that makes it
// interesting.
struct GoldenCase {
  std::string predicate;  // a fault target of reduce_fault_target.h
  spirv::TestCase test_case;
  // The untransformed case when the file's module had `replay` records
  // replayed on it (shrink-log's input).
  std::optional<spirv::TestCase> original;
  // `spirv-fuzz SEED`: the case is spirv-fuzz's mutant (seed SEED, through
  // the --mutate=spirv-fuzz engine) of this module, which becomes the
  // original (spirv-fuzz-shrink's input). Made in GoldenRun::Load; needs
  // the tool (skipped without it).
  std::optional<uint64_t> spirv_fuzz_seed;
};

// Unnamed dimensions get `fill` (1 for sizes, 0 for the offset).
absl::StatusOr<std::array<uint64_t, 3>> ParseSizes(absl::string_view v,
                                                   uint64_t fill,
                                                   uint32_t* dims) {
  std::array<uint64_t, 3> out{fill, fill, fill};
  const std::vector<absl::string_view> parts = absl::StrSplit(v, ',');
  if (parts.size() > 3) return absl::InvalidArgumentError("at most 3 sizes");
  for (size_t i = 0; i < parts.size(); ++i)
    if (!absl::SimpleAtoi(parts[i], &out[i]))
      return absl::InvalidArgumentError(
          absl::StrCat("bad size '", parts[i], "' (want X[,Y[,Z]])"));
  if (dims != nullptr) *dims = static_cast<uint32_t>(parts.size());
  return out;
}

absl::StatusOr<std::vector<uint8_t>> ParseHex(absl::string_view v) {
  std::string hex = absl::StrReplaceAll(v, {{" ", ""}});
  if (hex.size() % 2 != 0 ||
      hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    return absl::InvalidArgumentError(
        absl::StrCat("bad hex bytes '", v, "' (want pairs of hex digits)"));
  const std::string raw = absl::HexStringToBytes(hex);
  return std::vector<uint8_t>(raw.begin(), raw.end());
}

absl::StatusOr<spirv::KernelArg> ParseArg(absl::string_view v) {
  std::pair<absl::string_view, absl::string_view> kv =
      absl::StrSplit(v, absl::MaxSplits(' ', 1));
  spirv::KernelArg a;
  if (kv.first == "local") {
    a.kind = spirv::KernelArg::Kind::kLocal;
    if (!absl::SimpleAtoi(kv.second, &a.local_bytes))
      return absl::InvalidArgumentError("local: want a byte count");
    return a;
  }
  if (kv.first == "image" || kv.first == "result-image") {
    a.kind = spirv::KernelArg::Kind::kImage;
    a.is_result = kv.first == "result-image";
    const std::vector<absl::string_view> f =
        absl::StrSplit(kv.second, absl::MaxSplits(' ', 5));
    if (f.size() < 5)
      return absl::InvalidArgumentError(
          "image: want DIM ORDER TYPE W,H,D,A ACCESS [seed N | HEX]");
    auto dim = spirv::ParseImageDim(f[0]);
    auto order = spirv::ParseChannelOrder(f[1]);
    auto type = spirv::ParseChannelType(f[2]);
    auto access = spirv::ParseImageAccess(f[4]);
    const std::vector<absl::string_view> sizes = absl::StrSplit(f[3], ',');
    for (const absl::Status& st :
         {dim.status(), order.status(), type.status(), access.status()})
      if (!st.ok()) return st;
    spirv::ImageDesc& d = a.image;
    d.dim = *dim;
    d.order = *order;
    d.type = *type;
    d.access = *access;
    if (sizes.size() != 4 || !absl::SimpleAtoi(sizes[0], &d.width) ||
        !absl::SimpleAtoi(sizes[1], &d.height) ||
        !absl::SimpleAtoi(sizes[2], &d.depth) ||
        !absl::SimpleAtoi(sizes[3], &d.array_size))
      return absl::InvalidArgumentError(
          absl::StrCat("image: bad size '", f[3], "' (want W,H,D,A)"));
    if (absl::Status st = spirv::ValidateImageDesc(d, 1 << 20); !st.ok())
      return st;
    const absl::string_view texels = f.size() > 5 ? f[5] : "";
    uint64_t seed = 0;
    if (absl::StartsWith(texels, "seed ") &&
        absl::SimpleAtoi(texels.substr(5), &seed)) {
      a.bytes = spirv::ImageTexelsFromSeed(d, seed);
    } else {
      auto bytes = ParseHex(texels);
      if (!bytes.ok()) return bytes.status();
      a.bytes = std::move(*bytes);
    }
    if (a.bytes.size() != spirv::ImageBytes(d))
      return absl::InvalidArgumentError(absl::StrCat("image: ", a.bytes.size(),
                                                     " texel bytes, want ",
                                                     spirv::ImageBytes(d)));
    return a;
  }
  if (kv.first == "sampler") {
    a.kind = spirv::KernelArg::Kind::kSampler;
    const std::vector<absl::string_view> f = absl::StrSplit(kv.second, ' ');
    if (f.size() != 3 || (f[0] != "normalized" && f[0] != "unnormalized"))
      return absl::InvalidArgumentError(
          "sampler: want normalized|unnormalized ADDRESSING FILTER");
    a.sampler.normalized = f[0] == "normalized";
    auto addressing = spirv::ParseAddressingMode(f[1]);
    if (!addressing.ok()) return addressing.status();
    auto filter = spirv::ParseFilterMode(f[2]);
    if (!filter.ok()) return filter.status();
    a.sampler.addressing = *addressing;
    a.sampler.filter = *filter;
    return a;
  }
  if (kv.first == "buffer" || kv.first == "result") {
    a.is_result = kv.first == "result";
  } else if (kv.first == "scalar") {
    a.kind = spirv::KernelArg::Kind::kScalar;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown argument kind '", kv.first,
                     "' (buffer, result, scalar, local, image, "
                     "result-image, sampler)"));
  }
  auto bytes = ParseHex(kv.second);
  if (!bytes.ok()) return bytes.status();
  a.bytes = std::move(*bytes);
  return a;
}

// The `; golden: KEY VALUE` lines of a file, then its SPIR-V assembly.
absl::StatusOr<GoldenCase> ParseGolden(const std::string& text,
                                       const std::string& file) {
  GoldenCase g;
  spirv::TestCase& tc = g.test_case;
  std::vector<nlohmann::json> replay, log;
  bool have_global = false;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    if (!absl::ConsumePrefix(&line, kHeader)) continue;
    auto fail = [&](absl::string_view why) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ":", line_no, ": ", why));
    };
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    const absl::string_view key = kv.first;
    const absl::string_view value = absl::StripAsciiWhitespace(kv.second);
    if (key == "predicate") {
      g.predicate = std::string(value);
    } else if (key == "entry") {
      tc.entry_point = std::string(value);
    } else if (key == "global" || key == "local" || key == "offset") {
      auto sizes = ParseSizes(value, key == "offset" ? 0 : 1,
                              key == "global" ? &tc.nd_range.dims : nullptr);
      if (!sizes.ok()) return fail(sizes.status().message());
      if (key == "global") {
        tc.nd_range.global = *sizes;
        have_global = true;
      } else if (key == "local") {
        tc.nd_range.local = *sizes;
      } else {
        tc.nd_range.offset = *sizes;
      }
    } else if (key == "arg") {
      auto a = ParseArg(value);
      if (!a.ok()) return fail(a.status().message());
      tc.args.push_back(std::move(*a));
    } else if (key == "linked") {
      // A further module of the case: an .spvasm file beside
      // this one.
      const std::string path =
          absl::StrCat(file.substr(0, file.rfind('/') + 1), value);
      std::ifstream in(path);
      if (!in) return fail(absl::StrCat("cannot read ", path));
      const std::string lib((std::istreambuf_iterator<char>(in)),
                            std::istreambuf_iterator<char>());
      auto lib_words = spirv::Assemble(lib);
      if (!lib_words.ok()) return fail(lib_words.status().message());
      tc.linked_modules.push_back(std::move(*lib_words));
    } else if (key == "spirv-fuzz") {
      uint64_t seed = 0;
      if (!absl::SimpleAtoi(value, &seed)) return fail("want a seed");
      g.spirv_fuzz_seed = seed;
    } else if (key == "replay" || key == "log") {
      nlohmann::json record =
          nlohmann::json::parse(value, nullptr, /*allow_exceptions=*/false);
      if (!record.is_object())
        return fail("want one transformation record (a JSON object)");
      (key == "replay" ? replay : log).push_back(std::move(record));
    } else {
      return fail(absl::StrCat("unknown key '", key,
                               "' (predicate, entry, global, local, offset, "
                               "arg, linked, replay, log, spirv-fuzz)"));
    }
  }
  if (g.predicate.empty() || tc.entry_point.empty() || !have_global)
    return absl::InvalidArgumentError(
        absl::StrCat(file,
                     ": needs `; golden: predicate`, `entry` and "
                     "`global` lines"));
  if (!replay.empty() && !log.empty())
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": `replay` and `log` records exclude each other"));
  auto words = spirv::Assemble(text);
  if (!words.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": ", words.status().message()));
  tc.module_words = std::move(*words);
  if (!log.empty())
    tc.transformation_log =
        generators::transform::MakeLog(tc.module_words, log);
  if (!replay.empty()) {
    g.original = tc;
    const nlohmann::json l =
        generators::transform::MakeLog(tc.module_words, replay);
    auto r = generators::transform::Replay(tc, l);
    if (!r.ok())
      return absl::InvalidArgumentError(
          absl::StrCat(file, ": replay: ", r.status().message()));
    tc = std::move(r->test_case);
    tc.transformation_log = l;
  }
  return g;
}

std::string Sizes(const std::array<uint64_t, 3>& s, uint32_t dims) {
  return absl::StrJoin(s.begin(), s.begin() + dims, ",");
}

// The case as a golden file: header lines, then the disassembly.
std::string RenderGolden(const std::string& predicate,
                         const spirv::TestCase& tc) {
  std::string out;
  auto line = [&](absl::string_view key, absl::string_view value) {
    absl::StrAppend(&out, kHeader, key, " ", value, "\n");
  };
  line("predicate", predicate);
  line("entry", tc.entry_point);
  const spirv::NdRange& r = tc.nd_range;
  line("global", Sizes(r.global, r.dims));
  if (r.local) line("local", Sizes(*r.local, r.dims));
  line("offset", Sizes(r.offset, r.dims));
  for (const spirv::KernelArg& a : tc.args) {
    if (a.kind == spirv::KernelArg::Kind::kLocal) {
      line("arg", absl::StrCat("local ", a.local_bytes));
      continue;
    }
    if (a.kind == spirv::KernelArg::Kind::kSampler) {
      line("arg",
           absl::StrCat("sampler ",
                        a.sampler.normalized ? "normalized " : "unnormalized ",
                        spirv::AddressingModeName(a.sampler.addressing), " ",
                        spirv::FilterModeName(a.sampler.filter)));
      continue;
    }
    // Groups of 4 bytes, so a diff points at the word that changed.
    std::vector<std::string> words;
    for (size_t i = 0; i < a.bytes.size(); i += 4) {
      const size_t n = std::min<size_t>(4, a.bytes.size() - i);
      words.push_back(absl::BytesToHexString(absl::string_view(
          reinterpret_cast<const char*>(a.bytes.data() + i), n)));
    }
    if (a.kind == spirv::KernelArg::Kind::kImage) {
      const spirv::ImageDesc& d = a.image;
      line("arg", absl::StrCat(a.is_result ? "result-image " : "image ",
                               spirv::ImageDimName(d.dim), " ",
                               spirv::ChannelOrderName(d.order), " ",
                               spirv::ChannelTypeName(d.type), " ", d.width,
                               ",", d.height, ",", d.depth, ",", d.array_size,
                               " ", spirv::ImageAccessName(d.access), " ",
                               absl::StrJoin(words, " ")));
      continue;
    }
    const char* kind = a.kind == spirv::KernelArg::Kind::kScalar ? "scalar"
                       : a.is_result                             ? "result"
                                                                 : "buffer";
    line("arg", absl::StrCat(kind, " ", absl::StrJoin(words, " ")));
  }
  if (tc.transformation_log) {
    auto records = generators::transform::LogRecords(*tc.transformation_log);
    if (records.ok())
      for (const nlohmann::json& rec : *records) line("log", rec.dump());
  }
  auto text = spirv::Disassemble(tc.module_words);
  absl::StrAppend(&out, text.ok() ? *text : text.status().ToString());
  // Linked modules that remain, as comments after the module.
  for (size_t i = 0; i < tc.linked_modules.size(); ++i) {
    auto lib = spirv::Disassemble(tc.linked_modules[i]);
    absl::StrAppend(&out, "; linked ", spirv::LinkedModuleFile(i), ":\n");
    for (absl::string_view l :
         absl::StrSplit(lib.ok() ? *lib : lib.status().ToString(), '\n'))
      if (!l.empty()) absl::StrAppend(&out, "; ", l, "\n");
  }
  return out;
}

// Line diff (longest common subsequence) with two lines of context.
std::string LineDiff(const std::string& want, const std::string& got) {
  const std::vector<std::string> a = absl::StrSplit(want, '\n');
  const std::vector<std::string> b = absl::StrSplit(got, '\n');
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1
                               : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  struct Op {
    char tag;
    size_t line;  // in `want` for ' ' and '-', in `got` for '+'
    const std::string* text;
  };
  std::vector<Op> ops;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      ops.push_back({' ', i, &a[i]});
      ++i, ++j;
    } else if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.push_back({'-', i, &a[i]});
      ++i;
    } else {
      ops.push_back({'+', j, &b[j]});
      ++j;
    }
  }
  std::string out;
  size_t last = 0;
  bool gap = false;
  for (size_t k = 0; k < ops.size(); ++k) {
    bool near = false;
    for (size_t d = (k < 2 ? 0 : k - 2); d < std::min(ops.size(), k + 3); ++d)
      near = near || ops[d].tag != ' ';
    if (!near) {
      gap = true;
      continue;
    }
    if (gap && last != 0) out += "  ...\n";
    gap = false;
    last = k + 1;
    absl::StrAppend(&out, std::string(1, ops[k].tag), " ", ops[k].line + 1,
                    ": ", *ops[k].text, "\n");
  }
  return out;
}

bool UpdateGolden() {
  const char* v = std::getenv("L0SPV_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

// Names of the stages DefaultStages builds, first appearance order.
std::vector<std::string> PipelineStageNames() {
  std::vector<std::string> names;
  for (const auto& s : DefaultStages(SpirvReduceOptions{}))
    if (std::find(names.begin(), names.end(), s->name()) == names.end())
      names.push_back(s->name());
  return names;
}

// A golden file's case with its oracle and the stage, as ReduceFinding
// builds them: the signature is the one the case shows at the start.
class GoldenRun {
 public:
  void Load(const std::string& stage, const std::string& path) {
    path_ = path;
    auto text = spirv::ReadTextFile(path);
    ASSERT_TRUE(text.ok()) << text.status();
    auto g = ParseGolden(*text, path);
    ASSERT_TRUE(g.ok()) << g.status();
    golden_ = std::move(*g);
    std::string transformations;
    if (golden_.spirv_fuzz_seed) {
      const auto program = oracles::FindSpirvFuzz();
      if (!program) {
        unsupported_ = oracles::kSpirvFuzzInstallHint;
        return;
      }
      generators::spirv_fuzz::EngineOptions eo;
      eo.program = *program;
      auto m = generators::spirv_fuzz::MutateWithSpirvFuzz(
          golden_.test_case, *golden_.spirv_fuzz_seed, eo);
      ASSERT_TRUE(m.ok()) << m.status();
      ASSERT_EQ(m->outcome, generators::spirv_fuzz::Outcome::kMutated)
          << path << ": " << m->detail;
      golden_.original = golden_.test_case;
      golden_.test_case = m->test_case;
      transformations = m->transformations;
    }
    InterestingnessOptions io;
    io.targets = {golden_.predicate};
    io.make_target = testing::MakeReduceFaultTarget;
    io.target_options.ref_in_process = true;
    io.max_undefs = CountUndefs(golden_.test_case.module_words);
    auto probe = Interestingness::Make(io);
    ASSERT_TRUE(probe.ok()) << probe.status();
    const CheckOutcome first = (*probe)->Check(golden_.test_case);
    std::string seen = first.rejected;
    for (const oracles::Verdict& v : first.verdicts) {
      absl::StrAppend(&seen, " [", v.signature, ": ", v.explanation, "]");
      if (v.target == golden_.predicate) io.signature = v.signature;
    }
    ASSERT_TRUE(first.interesting)
        << path << ": the case must show its predicate's fault:" << seen;
    auto oracle = Interestingness::Make(io);
    ASSERT_TRUE(oracle.ok()) << oracle.status();
    oracle_ = std::move(*oracle);

    SpirvReduceOptions so;
    so.check_command = {kTool, "check"};
    so.targets = io.targets;
    so.signature = io.signature;
    for (auto& s : DefaultStages(so, golden_.original, transformations))
      if (s->name() == stage && stage_ == nullptr) stage_ = std::move(s);
    ASSERT_NE(stage_, nullptr) << "no stage " << stage << " in DefaultStages";
    if (auto* sr = dynamic_cast<SpirvReduceStage*>(stage_.get()))
      unsupported_ = sr->unsupported();
  }

  // Runs the stage until a run keeps nothing; returns the runs that kept.
  int RunToFixedPoint(int max_runs) {
    ReductionContext ctx(
        golden_.test_case, oracle_.get(),
        ReductionContext::Clock::now() + std::chrono::seconds(120));
    int kept = 0;
    for (int r = 0; r < max_runs && stage_->Run(ctx); ++r) ++kept;
    EXPECT_LT(kept, max_runs) << path_ << ": no fixed point";
    EXPECT_TRUE(oracle_->IsInteresting(ctx.current()));
    result_ = ctx.current();
    return kept;
  }

  const GoldenCase& golden() const { return golden_; }
  const spirv::TestCase& result() const { return result_; }
  const std::string& unsupported() const { return unsupported_; }
  std::string Rendered(const spirv::TestCase& tc) const {
    return RenderGolden(golden_.predicate, tc);
  }

 private:
  std::string path_;
  GoldenCase golden_;
  std::unique_ptr<Interestingness> oracle_;
  std::unique_ptr<Stage> stage_;
  std::string unsupported_;
  spirv::TestCase result_;
};

std::vector<std::string> UnchangedFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("unchanged", 0) == 0 && e.path().extension() == ".spvasm")
      files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class GoldenStage : public ::testing::TestWithParam<std::string> {
 protected:
  std::string Dir() const { return kGoldenDir + "/" + GetParam(); }
  void ReduceOneBefore(const std::string& suffix);
};

// before.spvasm -> after.spvasm, and before-X.spvasm -> after-X.spvasm for
// a stage with several things to show.
std::vector<std::string> BeforeSuffixes(const std::string& dir) {
  std::vector<std::string> suffixes;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("before", 0) == 0 && e.path().extension() == ".spvasm")
      suffixes.push_back(name.substr(6, name.size() - 6 - 7));
  }
  std::sort(suffixes.begin(), suffixes.end());
  return suffixes;
}

TEST_P(GoldenStage, ReducesBeforeToAfter) {
  for (const std::string& suffix : BeforeSuffixes(Dir())) {
    SCOPED_TRACE("before" + suffix + ".spvasm");
    ReduceOneBefore(suffix);
  }
}

void GoldenStage::ReduceOneBefore(const std::string& suffix) {
  GoldenRun run;
  ASSERT_NO_FATAL_FAILURE(
      run.Load(GetParam(), Dir() + "/before" + suffix + ".spvasm"));
  if (!run.unsupported().empty()) GTEST_SKIP() << run.unsupported();
  const int kept = run.RunToFixedPoint(25);
  EXPECT_GE(kept, 1) << GetParam() << " found nothing to reduce in " << Dir()
                     << "/before" << suffix << ".spvasm";
  const std::string got = run.Rendered(run.result());
  const std::string after = Dir() + "/after" + suffix + ".spvasm";
  if (UpdateGolden()) {
    ASSERT_TRUE(spirv::WriteTextFile(after, got).ok());
    std::cerr << "updated " << after << "\n";
    return;
  }
  auto want = spirv::ReadTextFile(after);
  ASSERT_TRUE(want.ok()) << want.status()
                         << " (create it with L0SPV_UPDATE_GOLDEN=1)";
  if (*want != got) {
    ADD_FAILURE() << after << ": the stage " << GetParam()
                  << " reduced before.spvasm to something else (- expected, "
                     "+ actual; rerun with L0SPV_UPDATE_GOLDEN=1 if the "
                     "change is intended, and review the diff):\n"
                  << LineDiff(*want, got);
  }
}

TEST_P(GoldenStage, LeavesUnchangedCasesAlone) {
  const std::vector<std::string> files = UnchangedFiles(Dir());
  ASSERT_FALSE(files.empty()) << Dir() << " has no unchanged*.spvasm";
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    GoldenRun run;
    ASSERT_NO_FATAL_FAILURE(run.Load(GetParam(), file));
    if (!run.unsupported().empty()) GTEST_SKIP() << run.unsupported();
    EXPECT_EQ(run.RunToFixedPoint(25), 0)
        << GetParam() << " changed a case it must leave alone";
    const std::string want = run.Rendered(run.golden().test_case);
    const std::string got = run.Rendered(run.result());
    EXPECT_TRUE(SameCase(run.golden().test_case, run.result()) && want == got)
        << file << ": " << GetParam() << " changed it (- input, + output):\n"
        << LineDiff(want, got);
  }
}

INSTANTIATE_TEST_SUITE_P(Pipeline, GoldenStage,
                         ::testing::ValuesIn(PipelineStageNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(GoldenStages, EveryPipelineStageHasAGoldenDirectory) {
  const std::vector<std::string> names = PipelineStageNames();
  EXPECT_GE(names.size(), 15u);
  for (const std::string& name : names) {
    const std::string dir = kGoldenDir + "/" + name;
    EXPECT_TRUE(fs::exists(dir + "/before.spvasm") &&
                fs::exists(dir + "/after.spvasm") &&
                !UnchangedFiles(dir).empty())
        << "the pipeline stage " << name << " has no golden: add " << dir
        << "/before.spvasm, unchanged.spvasm and (L0SPV_UPDATE_GOLDEN=1) "
           "after.spvasm";
  }
  for (const auto& e : fs::directory_iterator(kGoldenDir)) {
    if (!e.is_directory()) continue;
    const std::string name = e.path().filename().string();
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end())
        << e.path() << " is the golden of no stage DefaultStages builds";
  }
}

TEST(GoldenStages, MalformedFilesAreErrorsNamingTheLine) {
  const std::string module =
      "OpCapability Kernel\nOpCapability Addresses\n"
      "OpMemoryModel Physical64 OpenCL\n";
  const std::string ok =
      "; golden: predicate fault-imul16v\n; golden: entry k\n"
      "; golden: global 2\n";
  EXPECT_TRUE(ParseGolden(ok + module, "f").ok());
  auto error = [&](const std::string& text) {
    auto g = ParseGolden(text, "f.spvasm");
    return g.ok() ? std::string("(no error)")
                  : std::string(g.status().message());
  };
  EXPECT_THAT(error(ok + "; golden: colour blue\n" + module),
              HasSubstr("f.spvasm:4: unknown key 'colour'"));
  EXPECT_THAT(error(ok + "; golden: spirv-fuzz seven\n" + module),
              HasSubstr("f.spvasm:4: want a seed"));
  EXPECT_THAT(error(ok + "; golden: arg buffer 0g\n" + module),
              HasSubstr("f.spvasm:4: bad hex bytes"));
  EXPECT_THAT(error(ok +
                    "; golden: arg image 2d RGBA UnormInt8 4,1 read_only"
                    " seed 1\n" +
                    module),
              HasSubstr("f.spvasm:4: image: bad size '4,1'"));
  EXPECT_THAT(error(ok +
                    "; golden: arg image 2d BGRA UnormInt16 1,1,1,1 "
                    "read_only seed 1\n" +
                    module),
              HasSubstr("BGRA"));
  EXPECT_THAT(error(ok +
                    "; golden: arg image 2d R UnormInt8 2,1,1,1 "
                    "read_only 00\n" +
                    module),
              HasSubstr("image: 1 texel bytes, want 2"));
  EXPECT_THAT(error(ok + "; golden: arg image 2d R\n" + module),
              HasSubstr("image: want DIM ORDER TYPE"));
  EXPECT_THAT(
      error(ok + "; golden: arg sampler sometimes Clamp Nearest\n" + module),
      HasSubstr("sampler: want normalized|unnormalized"));
  EXPECT_THAT(
      error(ok + "; golden: arg sampler normalized Wrap Nearest\n" + module),
      HasSubstr("f.spvasm:4: "));
  EXPECT_THAT(error(ok + "; golden: arg pipe 00\n" + module),
              HasSubstr("unknown argument kind 'pipe'"));
  EXPECT_THAT(error(ok + "; golden: local 1,2,3,4\n" + module),
              HasSubstr("f.spvasm:4: at most 3 sizes"));
  EXPECT_THAT(error(ok + "; golden: replay [1]\n" + module),
              HasSubstr("want one transformation record"));
  EXPECT_THAT(error("; golden: entry k\n" + module),
              HasSubstr("needs `; golden: predicate`"));
  EXPECT_THAT(error(ok + "OpBogus\n"), HasSubstr("f.spvasm: "));
}

TEST(GoldenStages, DiffShowsOnlyChangedLinesWithContext) {
  const std::string d =
      LineDiff("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nd\nE\nf\ng\nh\n");
  EXPECT_EQ(d, "  3: c\n  4: d\n- 5: e\n+ 5: E\n  6: f\n  7: g\n");
}

}  // namespace
}  // namespace l0spv::reducers
