// tests/generator/count_generated.h — counting what the generator emits
// over a range of seeds, for the gate and feature tests.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "generators/kernel/generator.h"
#include "spirv/binary.h"
#include "spirv/type_table.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::kernel {

// The sum of `count` over the modules of `seeds` generated cases from seed
// `first` on `profile` (known bugs of `avoid` avoided); -1 when a case does
// not generate or parse.
inline int SumOverGenerated(
    uint64_t seeds, uint32_t avoid,
    const std::function<int(const spirv::Module&)>& count, uint64_t first = 0,
    const std::string& profile = "full") {
  int total = 0;
  for (uint64_t seed = first; seed < first + seeds; ++seed) {
    GeneratorOptions options;
    options.seed = seed;
    options.profile = profile;
    options.avoid_known_bugs = avoid;
    auto tc = GenerateTestCase(options);
    if (!tc.ok()) return -1;
    auto module = spirv::ReadModuleWords(tc->module_words);
    if (!module.ok()) return -1;
    total += count(*module);
  }
  return total;
}

// Instructions of those cases' function bodies that `match` accepts.
inline int CountGenerated(
    uint64_t seeds, uint32_t avoid,
    const std::function<bool(const spirv::TypeTable&,
                             const spirv::Instruction&)>& match,
    uint64_t first = 0, const std::string& profile = "full") {
  return SumOverGenerated(
      seeds, avoid,
      [&](const spirv::Module& module) {
        const spirv::TypeTable types(module);
        int count = 0;
        for (const spirv::Function& fn : module.functions)
          for (const spirv::BasicBlock& bb : fn.blocks)
            for (const spirv::Instruction& i : bb.instructions)
              if (match(types, i)) ++count;
        return count;
      },
      first, profile);
}

// The (variable id, built-in) pairs of a module's BuiltIn decorations.
inline std::vector<std::pair<uint32_t, spv::BuiltIn>> DecoratedBuiltIns(
    const spirv::Module& module) {
  std::vector<std::pair<uint32_t, spv::BuiltIn>> out;
  for (const spirv::Instruction& i : module.annotations) {
    if (static_cast<spv::Op>(i.opcode()) != spv::Op::OpDecorate ||
        i.NumOperands() < 3 ||
        i.operand(1).AsLiteral() !=
            static_cast<uint32_t>(spv::Decoration::BuiltIn))
      continue;
    out.emplace_back(i.operand(0).AsId(),
                     static_cast<spv::BuiltIn>(i.operand(2).AsLiteral()));
  }
  return out;
}

}  // namespace l0spv::generators::kernel
