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

TEST(ReferenceUbLimits, MemoryLimitStopsTheRun) {
  ReferenceOptions opts;
  opts.memory_limit_bytes = 1024;
  Execution e = RunBody("", "", "uint", 4096, 1, opts);
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported);
  EXPECT_NE(e.message.find("memory limit"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
