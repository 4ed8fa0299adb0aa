// Arithmetic undefined behaviour: each check fires with its own message.
#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

struct UbCase {
  const char* name;
  const char* decls;
  const char* body;
  const char* message;
};

class ReferenceUb : public ::testing::TestWithParam<UbCase> {};

TEST_P(ReferenceUb, IsDetected) {
  const UbCase& c = GetParam();
  Execution e = RunBody(c.decls, c.body, "uint", 4);
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find(c.message), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("work-item global id"), std::string::npos);
  EXPECT_NE(e.message.find("function k"), std::string::npos) << e.message;
}

INSTANTIATE_TEST_SUITE_P(
    Checks, ReferenceUb,
    ::testing::Values(
        UbCase{"udiv0", "",
               "%v = OpUDiv %uint %uint_1 %uint_0\nOpStore %out %v\n",
               "integer division by zero"},
        UbCase{"srem0", "",
               "%v = OpSRem %uint %uint_1 %uint_0\nOpStore %out %v\n",
               "integer division by zero"},
        UbCase{"sdivmin",
               "%min = OpConstant %uint 0x80000000\n%m1 = OpConstant %uint "
               "0xFFFFFFFF\n",
               "%v = OpSDiv %uint %min %m1\nOpStore %out %v\n", "INT_MIN / -1"},
        UbCase{"shift", "%uint_32 = OpConstant %uint 32\n",
               "%v = OpShiftLeftLogical %uint %uint_1 %uint_32\nOpStore %out "
               "%v\n",
               "shift amount out of range"},
        UbCase{"ftoi", "%big = OpConstant %float 1e10\n",
               "%v = OpConvertFToS %uint %big\nOpStore %out %v\n",
               "float to integer conversion out of range"},
        UbCase{"ftou_neg", "%neg = OpConstant %float -1\n",
               "%v = OpConvertFToU %uint %neg\nOpStore %out %v\n",
               "float to integer conversion out of range"},
        UbCase{
            "vector_index",
            "%v = OpConstantComposite %v2uint %uint_1 %uint_2\n",
            "%e = OpVectorExtractDynamic %uint %v %uint_2\nOpStore %out %e\n",
            "vector component index out of range"}),
    [](const ::testing::TestParamInfo<UbCase>& info) {
      return std::string(info.param.name);
    });

// NoSignedWrap / NoUnsignedWrap (SPV_KHR_no_integer_wrap_decoration, core
// in SPIR-V 1.4): a decorated operation that wraps is undefined; one that
// fits, or an undecorated one that wraps, is not.
Execution RunDecorated(const std::string& decoration, const std::string& decls,
                       const std::string& body) {
  std::string text =
      WrapBody(decls, body, "uint", false,
               "OpExtension \"SPV_KHR_no_integer_wrap_decoration\"\n");
  const std::string anchor = "OpDecorate %gid BuiltIn";
  text.insert(text.find(anchor), "OpDecorate %v " + decoration + "\n");
  return RunReference(
      MakeCase(AssembleOrDie(text), {1}, std::nullopt, {Buffer(16)}),
      ReferenceOptions{});
}

TEST(ReferenceNoWrap, DecoratedWrapsAreUndefined) {
  const std::string max = "%max = OpConstant %uint 0x7fffffff\n";
  const std::string all = "%all = OpConstant %uint 0xffffffff\n";
  struct Case {
    const char* decoration;
    std::string decls, body;
    bool ub;
  };
  const Case cases[] = {
      {"NoSignedWrap", max, "%v = OpIAdd %uint %max %uint_1\n", true},
      {"NoUnsignedWrap", max, "%v = OpIAdd %uint %max %uint_1\n", false},
      {"NoUnsignedWrap", all, "%v = OpIAdd %uint %all %uint_1\n", true},
      {"NoSignedWrap", all, "%v = OpIAdd %uint %all %uint_1\n", false},
      {"NoUnsignedWrap", "", "%v = OpISub %uint %uint_0 %uint_1\n", true},
      {"NoSignedWrap", max, "%v = OpIMul %uint %max %uint_2\n", true},
      {"NoUnsignedWrap", max, "%v = OpIMul %uint %max %uint_2\n", false},
      {"NoSignedWrap", max, "%v = OpShiftLeftLogical %uint %max %uint_1\n",
       true},
      {"NoUnsignedWrap", "", "%v = OpSNegate %uint %uint_1\n", true},
      {"NoSignedWrap", "", "%v = OpSNegate %uint %uint_1\n", false},
      {"NoSignedWrap", "%m = OpConstant %uint 0x80000000\n",
       "%v = OpSNegate %uint %m\n", true},
  };
  for (const Case& c : cases) {
    const Execution e =
        RunDecorated(c.decoration, c.decls, c.body + "OpStore %out %v\n");
    if (c.ub) {
      EXPECT_EQ(e.status, ExecutionStatus::kUbDetected)
          << c.decoration << " " << c.body << e.message;
      EXPECT_NE(e.message.find(c.decoration), std::string::npos) << e.message;
    } else {
      EXPECT_EQ(e.status, ExecutionStatus::kOk)
          << c.decoration << " " << c.body << e.message;
    }
  }
}

TEST(ReferenceUbLimits, MemoryLimitStopsTheRun) {
  ReferenceOptions opts;
  opts.memory_limit_bytes = 1024;
  Execution e = RunBody("", "", "uint", 4096, 1, opts);
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported);
  EXPECT_NE(e.message.find("memory limit"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
