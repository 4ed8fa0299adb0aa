// The generated grammar tables against SPIRV-Headers' own artefacts: the
// spirv.hpp11 / OpenCL.std.h enums and the JSON grammar the tables came from.
#define SPV_ENABLE_UTILITY_CODE  // spv::HasResultAndType
#include "spirv/grammar.h"

#include <fstream>
#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "spirv/unified1/OpenCL.std.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;

uint32_t Op(spv::Op op) { return static_cast<uint32_t>(op); }
uint32_t Cap(spv::Capability c) { return static_cast<uint32_t>(c); }

MATCHER_P2(Spec, kind, quantifier, "") {
  return arg.kind == kind && arg.quantifier == quantifier;
}

TEST(GrammarTest, VersionMatchesSpirvHeaders) {
  EXPECT_EQ(GrammarVersion(), spv::Version);
}

TEST(GrammarTest, OpIAddHasTypeResultAndTwoIdOperands) {
  const OpcodeInfo* info = FindOpcode(Op(spv::Op::OpIAdd));
  ASSERT_NE(info, nullptr);
  EXPECT_STREQ(info->name, "OpIAdd");
  EXPECT_STREQ(info->instr_class, "Arithmetic");
  EXPECT_TRUE(info->has_result_type);
  EXPECT_TRUE(info->has_result);
  EXPECT_THAT(info->operands,
              ElementsAre(Spec(OperandKind::kIdResultType, Quantifier::kOne),
                          Spec(OperandKind::kIdResult, Quantifier::kOne),
                          Spec(OperandKind::kIdRef, Quantifier::kOne),
                          Spec(OperandKind::kIdRef, Quantifier::kOne)));
  EXPECT_STREQ(info->operands[2].name, "Operand 1");
  EXPECT_TRUE(info->capabilities.empty());
  EXPECT_EQ(FindOpcodeByName("OpIAdd"), info);
}

TEST(GrammarTest, OpStoreHasNoResultAndOptionalMemoryAccess) {
  const OpcodeInfo* info = FindOpcode(Op(spv::Op::OpStore));
  ASSERT_NE(info, nullptr);
  EXPECT_FALSE(info->has_result_type);
  EXPECT_FALSE(info->has_result);
  EXPECT_THAT(
      info->operands,
      ElementsAre(Spec(OperandKind::kIdRef, Quantifier::kOne),
                  Spec(OperandKind::kIdRef, Quantifier::kOne),
                  Spec(OperandKind::kMemoryAccess, Quantifier::kOptional)));
  EXPECT_STREQ(info->operands[0].name, "Pointer");
}

TEST(GrammarTest, OpExtInstOperandLayout) {
  const OpcodeInfo* info = FindOpcode(Op(spv::Op::OpExtInst));
  ASSERT_NE(info, nullptr);
  EXPECT_THAT(
      info->operands,
      ElementsAre(Spec(OperandKind::kIdResultType, Quantifier::kOne),
                  Spec(OperandKind::kIdResult, Quantifier::kOne),
                  Spec(OperandKind::kIdRef, Quantifier::kOne),
                  Spec(OperandKind::kLiteralExtInstInteger, Quantifier::kOne),
                  Spec(OperandKind::kIdRef, Quantifier::kVariadic)));
  EXPECT_STREQ(info->operands[2].name, "Set");
}

TEST(GrammarTest, OpenClStdNumbersMatchOpenClStdHeader) {
  const ExtInstInfo* fma = FindOpenClStd(OpenCLLIB::Fma);
  ASSERT_NE(fma, nullptr);
  EXPECT_EQ(fma->number, 26u);
  EXPECT_STREQ(fma->name, "fma");
  EXPECT_THAT(fma->operands,
              ElementsAre(Spec(OperandKind::kIdRef, Quantifier::kOne),
                          Spec(OperandKind::kIdRef, Quantifier::kOne),
                          Spec(OperandKind::kIdRef, Quantifier::kOne)));
  EXPECT_EQ(FindOpenClStdByName("fma"), fma);

  const ExtInstInfo* printf = FindOpenClStdByName("printf");
  ASSERT_NE(printf, nullptr);
  EXPECT_EQ(printf->number, static_cast<uint32_t>(OpenCLLIB::Printf));
  EXPECT_THAT(printf->operands,
              ElementsAre(Spec(OperandKind::kIdRef, Quantifier::kOne),
                          Spec(OperandKind::kIdRef, Quantifier::kVariadic)));

  const ExtInstInfo* vloadn = FindOpenClStdByName("vloadn");
  ASSERT_NE(vloadn, nullptr);
  EXPECT_EQ(vloadn->number, static_cast<uint32_t>(OpenCLLIB::Vloadn));
  EXPECT_THAT(
      vloadn->operands,
      ElementsAre(Spec(OperandKind::kIdRef, Quantifier::kOne),
                  Spec(OperandKind::kIdRef, Quantifier::kOne),
                  Spec(OperandKind::kLiteralInteger, Quantifier::kOne)));

  const ExtInstInfo* rounding = FindOpenClStdByName("vstore_half_r");
  ASSERT_NE(rounding, nullptr);
  EXPECT_EQ(rounding->operands.back().kind, OperandKind::kFPRoundingMode);

  EXPECT_EQ(FindOpenClStd(100000), nullptr);
  EXPECT_EQ(FindOpenClStdByName("no_such_builtin"), nullptr);
}

TEST(GrammarTest, OpenClStdTableIsSortedAndComplete) {
  std::span<const ExtInstInfo> all = AllOpenClStd();
  ASSERT_FALSE(all.empty());
  for (size_t i = 1; i < all.size(); ++i) {
    EXPECT_LT(all[i - 1].number, all[i].number);
  }
  for (const ExtInstInfo& e : all) {
    EXPECT_EQ(FindOpenClStd(e.number), &e);
    EXPECT_EQ(FindOpenClStdByName(e.name), &e);
  }
  EXPECT_EQ(all.back().number, static_cast<uint32_t>(OpenCLLIB::UMad_hi));
  EXPECT_STREQ(all.back().name, "u_mad_hi");
}

TEST(GrammarTest, CapabilityRequirements) {
  const OpcodeInfo* group_iadd = FindOpcode(Op(spv::Op::OpGroupIAdd));
  ASSERT_NE(group_iadd, nullptr);
  EXPECT_THAT(group_iadd->capabilities,
              ElementsAre(Cap(spv::Capability::Groups)));

  const OpcodeInfo* ptr_chain = FindOpcode(Op(spv::Op::OpPtrAccessChain));
  ASSERT_NE(ptr_chain, nullptr);
  EXPECT_THAT(ptr_chain->capabilities,
              Contains(Cap(spv::Capability::Addresses)));

  const EnumerantInfo* vector16 =
      FindEnumerant(OperandKind::kCapability, Cap(spv::Capability::Vector16));
  ASSERT_NE(vector16, nullptr);
  EXPECT_THAT(vector16->capabilities,
              ElementsAre(Cap(spv::Capability::Kernel)));
}

TEST(GrammarTest, VersionRequirements) {
  const OpcodeInfo* elect = FindOpcode(Op(spv::Op::OpGroupNonUniformElect));
  ASSERT_NE(elect, nullptr);
  EXPECT_EQ(elect->min_version, 0x00010300u);
  EXPECT_EQ(elect->last_version, 0xFFFFFFFFu);
  EXPECT_EQ(FindOpcode(Op(spv::Op::OpIAdd))->min_version, 0u);
}

TEST(GrammarTest, ValueEnumLookups) {
  const OperandKindInfo& storage = GetOperandKind(OperandKind::kStorageClass);
  EXPECT_STREQ(storage.name, "StorageClass");
  EXPECT_EQ(storage.category, OperandCategory::kValueEnum);
  const EnumerantInfo* cwg =
      FindEnumerantByName(OperandKind::kStorageClass, "CrossWorkgroup");
  ASSERT_NE(cwg, nullptr);
  EXPECT_EQ(cwg->value,
            static_cast<uint32_t>(spv::StorageClass::CrossWorkgroup));
  EXPECT_EQ(FindEnumerant(OperandKind::kStorageClass, cwg->value), cwg);
  EXPECT_EQ(EnumerantName(OperandKind::kStorageClass, 999), "<unknown>");
  EXPECT_EQ(FindEnumerant(OperandKind::kStorageClass, 999), nullptr);

  const EnumerantInfo* linkage =
      FindEnumerant(OperandKind::kDecoration,
                    static_cast<uint32_t>(spv::Decoration::LinkageAttributes));
  ASSERT_NE(linkage, nullptr);
  EXPECT_THAT(linkage->parameters, ElementsAre(OperandKind::kLiteralString,
                                               OperandKind::kLinkageType));
  const EnumerantInfo* param_attr =
      FindEnumerant(OperandKind::kDecoration,
                    static_cast<uint32_t>(spv::Decoration::FuncParamAttr));
  ASSERT_NE(param_attr, nullptr);
  EXPECT_THAT(param_attr->parameters,
              ElementsAre(OperandKind::kFunctionParameterAttribute));
  EXPECT_EQ(EnumerantName(OperandKind::kDecoration,
                          static_cast<uint32_t>(spv::Decoration::Alignment)),
            "Alignment");
}

TEST(GrammarTest, BitEnumParameters) {
  const OperandKindInfo& access = GetOperandKind(OperandKind::kMemoryAccess);
  EXPECT_EQ(access.category, OperandCategory::kBitEnum);
  const EnumerantInfo* aligned =
      FindEnumerant(OperandKind::kMemoryAccess,
                    static_cast<uint32_t>(spv::MemoryAccessMask::Aligned));
  ASSERT_NE(aligned, nullptr);
  EXPECT_STREQ(aligned->name, "Aligned");
  EXPECT_THAT(aligned->parameters, ElementsAre(OperandKind::kLiteralInteger));
  const EnumerantInfo* none = FindEnumerant(OperandKind::kMemoryAccess, 0);
  ASSERT_NE(none, nullptr);
  EXPECT_STREQ(none->name, "None");
  EXPECT_TRUE(none->parameters.empty());
  // Combined masks are not enumerants; callers look bits up one at a time.
  EXPECT_EQ(FindEnumerant(OperandKind::kMemoryAccess, 3), nullptr);
}

TEST(GrammarTest, EveryOperandKindIndexesItself) {
  for (int i = 0; i < kOperandKindCount; ++i) {
    const auto kind = static_cast<OperandKind>(i);
    const OperandKindInfo& info = GetOperandKind(kind);
    EXPECT_EQ(info.kind, kind) << info.name;
    for (size_t e = 1; e < info.enumerants.size(); ++e) {
      EXPECT_LE(info.enumerants[e - 1].value, info.enumerants[e].value)
          << info.name << " enumerants must be sorted for binary search";
    }
    for (const EnumerantInfo& e : info.enumerants) {
      const EnumerantInfo* found = FindEnumerant(kind, e.value);
      ASSERT_NE(found, nullptr) << info.name << " " << e.name;
      EXPECT_EQ(found->value, e.value);
      const EnumerantInfo* by_name = FindEnumerantByName(kind, e.name);
      ASSERT_NE(by_name, nullptr) << info.name << " " << e.name;
      EXPECT_EQ(by_name->value, e.value);
      if (info.category == OperandCategory::kBitEnum) {
        EXPECT_EQ(e.value & (e.value - 1), 0u)
            << info.name << " " << e.name << " is not a single bit";
      }
    }
    EXPECT_EQ(info.category == OperandCategory::kComposite, !info.bases.empty())
        << info.name;
  }
}

TEST(GrammarTest, EveryOpcodeIsConsistent) {
  std::span<const OpcodeInfo> all = AllOpcodes();
  ASSERT_GT(all.size(), 300u);
  std::set<std::string> names;
  for (size_t i = 0; i < all.size(); ++i) {
    const OpcodeInfo& info = all[i];
    SCOPED_TRACE(info.name);
    if (i > 0) {
      EXPECT_LT(all[i - 1].opcode, info.opcode);
    }
    EXPECT_TRUE(names.insert(info.name).second) << "duplicate name";
    EXPECT_EQ(std::string(info.name).rfind("Op", 0), 0u);
    EXPECT_EQ(FindOpcode(info.opcode), &info);
    EXPECT_EQ(FindOpcodeByName(info.name), &info);

    // The reader and Instruction::Encode rely on result type and result id
    // being the first operands, in that order, exactly once.
    size_t expected_result_pos = 0;
    if (info.has_result_type) {
      ASSERT_FALSE(info.operands.empty());
      EXPECT_EQ(info.operands[0].kind, OperandKind::kIdResultType);
      EXPECT_TRUE(info.has_result) << "a result type needs a result";
      expected_result_pos = 1;
    }
    if (info.has_result) {
      ASSERT_GT(info.operands.size(), expected_result_pos);
      EXPECT_EQ(info.operands[expected_result_pos].kind,
                OperandKind::kIdResult);
    }
    bool seen_optional = false;
    for (size_t op = 0; op < info.operands.size(); ++op) {
      const OperandSpec& spec = info.operands[op];
      if (spec.kind == OperandKind::kIdResultType) {
        EXPECT_EQ(op, 0u);
      }
      if (spec.kind == OperandKind::kIdResult) {
        EXPECT_EQ(op, expected_result_pos);
      }
      if (spec.quantifier == Quantifier::kVariadic) {
        EXPECT_EQ(op + 1, info.operands.size()) << "variadic must be last";
      }
      if (spec.quantifier == Quantifier::kOne) {
        EXPECT_FALSE(seen_optional) << "required operand after optional";
      } else {
        seen_optional = true;
      }
    }
    for (uint32_t cap : info.capabilities) {
      EXPECT_NE(FindEnumerant(OperandKind::kCapability, cap), nullptr) << cap;
    }
    EXPECT_LE(info.min_version, info.last_version);

    bool has_result = false, has_type = false;
    spv::HasResultAndType(static_cast<spv::Op>(info.opcode), &has_result,
                          &has_type);
    EXPECT_EQ(info.has_result, has_result) << "disagrees with spirv.hpp11";
    EXPECT_EQ(info.has_result_type, has_type) << "disagrees with spirv.hpp11";
  }
  EXPECT_EQ(FindOpcode(0xFFFF), nullptr);
  EXPECT_EQ(FindOpcode(1023), nullptr);
  EXPECT_EQ(FindOpcodeByName("OpNoSuchThing"), nullptr);
}

TEST(GrammarTest, OpcodeValuesMatchSpirvHpp11) {
  const std::pair<spv::Op, const char*> samples[] = {
      {spv::Op::OpNop, "OpNop"},
      {spv::Op::OpCapability, "OpCapability"},
      {spv::Op::OpMemoryModel, "OpMemoryModel"},
      {spv::Op::OpTypeInt, "OpTypeInt"},
      {spv::Op::OpConstant, "OpConstant"},
      {spv::Op::OpFunction, "OpFunction"},
      {spv::Op::OpLabel, "OpLabel"},
      {spv::Op::OpSwitch, "OpSwitch"},
      {spv::Op::OpSpecConstantOp, "OpSpecConstantOp"},
      {spv::Op::OpPtrAccessChain, "OpPtrAccessChain"},
      {spv::Op::OpAtomicIAdd, "OpAtomicIAdd"},
      {spv::Op::OpSubgroupShuffleINTEL, "OpSubgroupShuffleINTEL"},
  };
  for (const auto& [op, name] : samples) {
    const OpcodeInfo* info = FindOpcodeByName(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(info->opcode, static_cast<uint32_t>(op)) << name;
  }
}

// Cross-checks against the JSON grammar itself, by name, so a capability
// name the generator failed to resolve (and silently mapped to 0) shows up.
TEST(GrammarTest, CapabilitiesMatchJsonGrammarByName) {
  const std::string path = std::string(L0SPV_SPIRV_HEADERS_DIR) +
                           "/spirv/unified1/spirv.core.grammar.json";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const nlohmann::json grammar = nlohmann::json::parse(in);
  size_t checked = 0;
  std::set<uint32_t> seen;
  for (const auto& inst : grammar["instructions"]) {
    const uint32_t opcode = inst["opcode"].get<uint32_t>();
    // Aliases share an opcode; the table keeps the first spelling.
    if (!seen.insert(opcode).second) continue;
    const OpcodeInfo* info = FindOpcode(opcode);
    ASSERT_NE(info, nullptr) << inst["opname"];
    EXPECT_EQ(info->name, inst["opname"].get<std::string>());
    const size_t json_operands =
        inst.contains("operands") ? inst["operands"].size() : 0;
    EXPECT_EQ(info->operands.size(), json_operands) << info->name;
    std::vector<std::string> caps;
    for (uint32_t c : info->capabilities)
      caps.emplace_back(EnumerantName(OperandKind::kCapability, c));
    std::vector<std::string> json_caps;
    if (inst.contains("capabilities")) {
      for (const auto& c : inst["capabilities"])
        json_caps.push_back(c.get<std::string>());
    }
    // EnumerantName returns the first spelling of a value; compare values.
    ASSERT_EQ(caps.size(), json_caps.size()) << info->name;
    for (size_t i = 0; i < caps.size(); ++i) {
      const EnumerantInfo* e =
          FindEnumerantByName(OperandKind::kCapability, json_caps[i]);
      ASSERT_NE(e, nullptr) << json_caps[i];
      EXPECT_EQ(e->value, info->capabilities[i]) << info->name;
    }
    ++checked;
  }
  EXPECT_EQ(checked, AllOpcodes().size());
}

}  // namespace
}  // namespace l0spv::spirv
