#include "tests/reference/test_util.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "spirv/spirv_tools.h"

namespace l0spv::oracles::reference::test {

std::string Prelude(const std::string& extra_capabilities,
                    const std::string& extra_entry_interface,
                    const std::string& extra_annotations) {
  std::string types;
  for (const char* t :
       {"uchar", "ushort", "uint", "ulong", "half", "float", "double"}) {
    absl::StrAppend(&types, "%ptr_g_", t, " = OpTypePointer CrossWorkgroup %",
                    t, "\n", "%ptr_l_", t, " = OpTypePointer Workgroup %", t,
                    "\n", "%ptr_f_", t, " = OpTypePointer Function %", t, "\n");
  }
  return absl::StrCat(R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int16
OpCapability Int8
OpCapability Float16Buffer
OpCapability Float64
OpCapability Vector16
)",
                      extra_capabilities, R"(
%ext = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid )",
                      extra_entry_interface, R"(
OpDecorate %gid BuiltIn GlobalInvocationId
)",
                      extra_annotations, R"(
%void = OpTypeVoid
%bool = OpTypeBool
%uchar = OpTypeInt 8 0
%ushort = OpTypeInt 16 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%v2uint = OpTypeVector %uint 2
%v3uint = OpTypeVector %uint 3
%v4uint = OpTypeVector %uint 4
%v2ulong = OpTypeVector %ulong 2
%v3ulong = OpTypeVector %ulong 3
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%v2double = OpTypeVector %double 2
%v4half = OpTypeVector %half 4
%v2bool = OpTypeVector %bool 2
%v4bool = OpTypeVector %bool 4
%v4uchar = OpTypeVector %uchar 4
%v16uchar = OpTypeVector %uchar 16
%v8ushort = OpTypeVector %ushort 8
%ptr_in_v3ulong = OpTypePointer Input %v3ulong
%gid = OpVariable %ptr_in_v3ulong Input
)",
                      types, R"(
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_5 = OpConstant %uint 5
%uint_6 = OpConstant %uint 6
%uint_7 = OpConstant %uint 7
%uint_8 = OpConstant %uint 8
%uint_264 = OpConstant %uint 264
%ulong_0 = OpConstant %ulong 0
%ulong_1 = OpConstant %ulong 1
%ulong_4 = OpConstant %ulong 4
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%float_2 = OpConstant %float 2
%true = OpConstantTrue %bool
%false = OpConstantFalse %bool
)");
}

std::string WrapBody(const std::string& decls, const std::string& body_in,
                     const std::string& out_type, bool body_terminates,
                     const std::string& extra_capabilities) {
  // Function-storage OpVariables must open the entry block.
  std::string vars, body;
  for (absl::string_view line : absl::StrSplit(body_in, '\n')) {
    std::string& to =
        line.find("= OpVariable") != absl::string_view::npos ? vars : body;
    absl::StrAppend(&to, line, "\n");
  }
  return absl::StrCat(Prelude(extra_capabilities), decls, R"(
%kfn = OpTypeFunction %void %ptr_g_)",
                      out_type, R"(
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_)",
                      out_type, R"(
%entry = OpLabel
)",
                      vars, R"(
%gidv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gidv 0
)",
                      body, body_terminates ? "" : "\nOpReturn\n",
                      "\nOpFunctionEnd\n");
}

std::vector<uint32_t> AssembleOrDie(const std::string& text) {
  // Half arithmetic (Float16) is only valid outside the OpenCL 2.2
  // validation environment: such modules are built as SPIR-V 1.3.
  const bool half_math =
      text.find("OpCapability Float16\n") != std::string::npos;
  auto words = spirv::Assemble(
      text, half_math ? SPV_ENV_UNIVERSAL_1_3 : SPV_ENV_UNIVERSAL_1_2);
  EXPECT_TRUE(words.ok()) << words.status() << "\n" << text;
  return words.ok() ? *words : std::vector<uint32_t>{};
}

spirv::KernelArg Buffer(size_t bytes, bool result) {
  spirv::KernelArg a;
  a.kind = spirv::KernelArg::Kind::kBuffer;
  a.bytes.assign(bytes, 0);
  a.is_result = result;
  return a;
}

spirv::KernelArg Local(uint64_t bytes) {
  spirv::KernelArg a;
  a.kind = spirv::KernelArg::Kind::kLocal;
  a.local_bytes = bytes;
  return a;
}

spirv::TestCase MakeCase(std::vector<uint32_t> words,
                         std::vector<uint64_t> global,
                         std::optional<std::vector<uint64_t>> local,
                         std::vector<spirv::KernelArg> args,
                         const std::string& entry) {
  spirv::TestCase tc;
  tc.module_words = std::move(words);
  tc.entry_point = entry;
  tc.nd_range.dims = static_cast<uint32_t>(global.size());
  for (size_t i = 0; i < global.size() && i < 3; ++i)
    tc.nd_range.global[i] = global[i];
  if (local) {
    std::array<uint64_t, 3> l{1, 1, 1};
    for (size_t i = 0; i < local->size() && i < 3; ++i) l[i] = (*local)[i];
    tc.nd_range.local = l;
  }
  tc.args = std::move(args);
  return tc;
}

Execution RunBody(const std::string& decls, const std::string& body,
                  const std::string& out_type, size_t out_bytes, uint64_t items,
                  const ReferenceOptions& options, bool body_terminates,
                  const std::string& extra_capabilities) {
  const std::string text =
      WrapBody(decls, body, out_type, body_terminates, extra_capabilities);
  auto words = AssembleOrDie(text);
  return RunReference(
      MakeCase(words, {items}, std::nullopt, {Buffer(out_bytes)}), options);
}

}  // namespace l0spv::oracles::reference::test
