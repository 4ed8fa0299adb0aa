// The generator's printf calls (printf.h): valid, defined text, every
// conversion the OpenCL C specification defines, the known-bug gates, and
// output that depends on the work-item order only in line order.
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "generators/kernel/generator.h"
#include "gtest/gtest.h"
#include "oracles/compare/compare.h"
#include "oracles/known_bugs/registry.h"
#include "oracles/reference/interpreter.h"
#include "oracles/validity/device_profile.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"
#include "spirv/def_use.h"
#include "spirv/unified1/OpenCL.std.h"
#include "tests/generator/same_results.h"

namespace l0spv::generators::kernel {
namespace {

using oracles::KnownBugId;

// The format strings of a module's printf calls: the initializer of the
// UniformConstant array the format pointer points into.
std::vector<std::string> Formats(const spirv::Module& m) {
  const spirv::DefUse du(m);
  const uint32_t std_set = m.OpenClStdImportId();
  std::vector<std::string> formats;
  m.ForEachInstruction([&](const spirv::Instruction& i) {
    if (!spirv::Is(i, spv::Op::OpExtInst) || i.operand(0).AsId() != std_set ||
        i.operand(1).AsLiteral() != OpenCLLIB::Printf)
      return;
    const spirv::Instruction* chain = du.Def(i.operand(2).AsId());
    const spirv::Instruction* var = du.Def(chain->operand(0).AsId());
    const spirv::Instruction* init = du.Def(var->operand(1).AsId());
    std::string s;
    for (size_t k = 0; k < init->NumOperands(); ++k) {
      const uint32_t ch =
          du.Def(init->operand(k).AsId())->operand(0).AsLiteral();
      if (ch != 0) s += static_cast<char>(ch);
    }
    formats.push_back(s);
  });
  return formats;
}

struct Generated {
  spirv::TestCase tc;
  std::vector<std::string> formats;
  oracles::LintReport lint;
};

std::vector<Generated> Generate(uint64_t seeds, uint32_t avoid,
                                PrintfMode mode = PrintfMode::kOn,
                                const std::string& profile = "full") {
  std::vector<Generated> out;
  auto device = oracles::FindDeviceProfile(profile);
  EXPECT_TRUE(device.ok()) << device.status();
  if (!device.ok()) return out;
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    GeneratorOptions options;
    options.seed = seed;
    options.profile = profile;
    options.avoid_known_bugs = avoid;
    options.printf = mode;
    auto tc = GenerateTestCase(options);
    EXPECT_TRUE(tc.ok()) << tc.status();
    if (!tc.ok()) continue;
    auto m = spirv::ReadModuleWords(tc->module_words);
    EXPECT_TRUE(m.ok()) << m.status();
    if (!m.ok()) continue;
    out.push_back({*tc, Formats(*m), oracles::LintModule(*m, *device)});
  }
  return out;
}

// Does any format of `cases` contain a match of `pattern`?
int Matching(const std::vector<Generated>& cases, const std::string& pattern) {
  const std::regex re(pattern);
  int n = 0;
  for (const Generated& g : cases)
    for (const std::string& f : g.formats)
      n += std::regex_search(f, re) ? 1 : 0;
  return n;
}

// Conversion specifications: flags, width, precision, vector, length.
const char kSpec[] = "%[-+ #0]*[0-9]*(\\.[0-9]+)?";

TEST(GeneratedPrintf, ValidOnEveryProfile) {
  // tgllp has no doubles (float arguments stay float), baseline is SPIR-V
  // 1.2 with no optional capability.
  for (const char* profile : {"full", "tgllp", "baseline", "pvc"}) {
    for (const Generated& g : Generate(25, 0, PrintfMode::kOn, profile)) {
      EXPECT_FALSE(g.formats.empty());
      EXPECT_TRUE(g.lint.ok()) << profile << "\n" << g.lint.ToText();
    }
  }
}

TEST(GeneratedPrintf, PrintsOneTaggedLinePerCall) {
  const std::vector<Generated> cases = Generate(40, 0);
  int printing = 0;
  for (const Generated& g : cases) {
    ASSERT_FALSE(g.formats.empty()) << "--printf=on: every case prints";
    const oracles::Execution e = oracles::reference::RunReference(g.tc, {});
    ASSERT_EQ(e.status, oracles::ExecutionStatus::kOk) << e.message;
    // Calls in untaken branches print nothing; the rest print whole lines
    // tagged "p<call> <work-item>:".
    if (e.printf_output.empty()) continue;
    ++printing;
    ASSERT_EQ(e.printf_output.back(), '\n');
    size_t start = 0;
    while (start < e.printf_output.size()) {
      const size_t end = e.printf_output.find('\n', start) + 1;
      const std::string l = e.printf_output.substr(start, end - start);
      EXPECT_TRUE(std::regex_match(l, std::regex("p[0-9] [0-9]+:[^\n]*\n")))
          << l;
      start = end;
    }
    for (const std::string& f : g.formats) {
      EXPECT_EQ(f.find('\n'), f.size() - 1) << f;
      EXPECT_EQ(f.rfind("p", 0), 0u) << f;
    }
  }
  EXPECT_GE(printing, 30);
}

TEST(GeneratedPrintf, UsesEveryConversionLengthAndVectorSize) {
  const std::vector<Generated> cases = Generate(300, 0);
  const std::string spec = kSpec;
  for (const char* conv : {"d", "i", "u", "x", "X", "o", "c", "f", "F", "e",
                           "E", "g", "G", "a", "A", "s"}) {
    EXPECT_GT(Matching(cases, spec + conv), 0) << "%" << conv;
  }
  EXPECT_GT(Matching(cases, "%%"), 0);
  for (const char* length : {"hh[diouxX]", "h[diouxX]", "l[diouxX]"})
    EXPECT_GT(Matching(cases, spec + length), 0) << length;
  for (const char* vector : {"v2", "v3", "v4", "v8", "v16"})
    EXPECT_GT(Matching(cases, spec + vector + "(hh|h|hl|l)"), 0) << vector;
  for (const char* element :
       {"hh[diouxX]", "h[diouxX]", "hl[diouxX]", "l[diouxX]", "h[fFeEgGaA]",
        "hl[fFeEgGaA]", "l[fFeEgGaA]"})
    EXPECT_GT(Matching(cases, spec + "v[0-9]+" + element), 0) << element;
  // Flags, widths and precisions.
  for (const char* m : {"%-", "%\\+", "% ", "%#", "%0", "%[0-9]", "%\\.[0-9]"})
    EXPECT_GT(Matching(cases, m), 0) << m;
}

TEST(GeneratedPrintf, GatesAvoidTheKnownPrintfBugs) {
  const std::string spec = kSpec;
  // Scalar h/hh: Oclgrind.
  const std::string scalar_short = spec + "(hh|h)[diouxX]";
  const uint32_t oclgrind =
      oracles::ConsumersOf(KnownBugId::kOclgrindPrintfLengthModifiers);
  EXPECT_GT(Matching(Generate(150, 0), scalar_short), 0);
  EXPECT_EQ(Matching(Generate(150, oclgrind), scalar_short), 0);
  // char/short and 512-bit vectors: PoCL.
  const uint32_t pocl =
      oracles::ConsumersOf(KnownBugId::kPoclPrintfCharVectors);
  const std::string narrow = spec + "v[0-9]+(hh|h)[diouxX]";
  const std::string wide = spec + "v(16hl|16l|8l)";
  const std::vector<Generated> all = Generate(200, 0);
  const std::vector<Generated> gated = Generate(200, pocl);
  EXPECT_GT(Matching(all, narrow), 0);
  EXPECT_GT(Matching(all, wide), 0);
  EXPECT_EQ(Matching(gated, narrow), 0);
  EXPECT_EQ(Matching(gated, wide), 0);
}

TEST(GeneratedPrintf, SwarmAndOff) {
  int with = 0;
  for (const Generated& g : Generate(60, 0, PrintfMode::kSwarm))
    with += g.formats.empty() ? 0 : 1;
  EXPECT_GT(with, 5);
  EXPECT_LT(with, 40);
  for (const Generated& g : Generate(30, 0, PrintfMode::kOff))
    EXPECT_TRUE(g.formats.empty());
}

// Work-items run in other orders: the lines come out in another order (so
// the comparison must not be byte for byte) but as the same multiset.
TEST(GeneratedPrintf, OutputIsTheSameMultisetInEveryWorkItemOrder) {
  int reordered = 0;
  for (const Generated& g : Generate(30, 0)) {
    const auto orders = ScheduleVariants({1, 2, 3});
    ExpectSameResults(g.tc, "printf case", {}, orders);
    const auto a = oracles::reference::RunReference(g.tc, {});
    const auto b = oracles::reference::RunReference(g.tc, orders[0].second);
    reordered += a.printf_output != b.printf_output ? 1 : 0;
  }
  EXPECT_GT(reordered, 0);
}

}  // namespace
}  // namespace l0spv::generators::kernel
