#include "reducers/known_match.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "oracles/known_bugs/registry.h"
#include "oracles/known_bugs/reproduce.h"
#include "oracles/targets/target_kinds.h"
#include "reducers/interestingness.h"
#include "spirv/binary.h"
#include "spirv/json_reader.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::reducers {
namespace {

namespace fs = std::filesystem;
using spv::Op;

// Instructions every kernel has: they say nothing about which bug it is.
bool Boilerplate(uint32_t opcode) {
  switch (static_cast<Op>(opcode)) {
    case Op::OpLabel:
    case Op::OpReturn:
    case Op::OpReturnValue:
    case Op::OpFunction:
    case Op::OpFunctionParameter:
    case Op::OpFunctionEnd:
    case Op::OpFunctionCall:
    case Op::OpVariable:
    case Op::OpLoad:
    case Op::OpStore:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
    case Op::OpBranch:
    case Op::OpBranchConditional:
    case Op::OpSelectionMerge:
    case Op::OpLoopMerge:
    case Op::OpPhi:
    case Op::OpCompositeExtract:
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpBitcast:
    case Op::OpIAdd:
    case Op::OpIMul:
    case Op::OpISub:
    case Op::OpULessThan:
    case Op::OpSLessThan:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpLine:
    case Op::OpNoLine:
    case Op::OpUndef:
      return true;
    default:
      return false;
  }
}

// Distinctive instruction kinds: opcodes, and OpenCL.std calls as
// 0x10000 + instruction number.
std::set<uint32_t> Construct(const std::vector<uint32_t>& words) {
  std::set<uint32_t> out;
  auto module = spirv::ReadModuleWords(words);
  if (!module.ok()) return out;
  const uint32_t ocl = module->OpenClStdImportId();
  for (const spirv::Function& fn : module->functions) {
    for (const spirv::BasicBlock& bb : fn.blocks) {
      for (const spirv::Instruction& inst : bb.instructions) {
        const uint32_t op = inst.opcode();
        if (op == static_cast<uint32_t>(Op::OpExtInst) &&
            inst.NumOperands() >= 2 && inst.word(0) == ocl) {
          out.insert(0x10000 + inst.word(1));
        } else if (!Boilerplate(op)) {
          out.insert(op);
        }
      }
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::optional<KnownMatch>> MatchKnownBug(const Finding& f) {
  const auto& registry = oracles::EmbeddedKnownBugs();
  if (!registry.ok()) return registry.status();
  const uint32_t consumers = oracles::ConsumersOfTarget(f.target);
  // Entries of the consumers this target runs, most specific first: those
  // recorded on this very target, then the target's own consumer (Oclgrind
  // before the translator it reads through), then the rest — when two
  // reproducers fail alike, the finding belongs to the closer one.
  std::vector<std::pair<int, const oracles::KnownBug*>> ranked;
  const uint32_t primary =
      consumers & ~static_cast<uint32_t>(oracles::kConsumerLlvmSpirv);
  for (const oracles::KnownBug& b : registry->bugs) {
    if ((b.consumers & consumers) == 0) continue;
    const int rank = b.target == f.target           ? 0
                     : (b.consumers & primary) != 0 ? 1
                                                    : 2;
    ranked.emplace_back(rank, &b);
  }
  std::stable_sort(
      ranked.begin(), ranked.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  const std::set<uint32_t> mine = Construct(f.test_case.module_words);
  // Whether the finding holds an entry's construct, worked out once per
  // entry (both passes below may ask).
  absl::flat_hash_map<const oracles::KnownBug*, bool> construct_memo;
  auto has_construct_of = [&](const oracles::KnownBug& b) {
    auto [it, inserted] = construct_memo.try_emplace(&b, false);
    if (!inserted) return it->second;
    auto tc = oracles::ReproducerCase(b);
    if (!tc.ok()) return false;
    const std::set<uint32_t> theirs = Construct(tc->module_words);
    it->second = !theirs.empty() && std::includes(mine.begin(), mine.end(),
                                                  theirs.begin(), theirs.end());
    return it->second;
  };
  // Signature and construct: the entry's reproducer, under the finding's
  // kernel name, on the finding's target (its verdict there may differ from
  // the recorded one: the translator's abort is a crash on Oclgrind's path),
  // and the entry's instructions in the finding. A signature alone is no
  // evidence (every crash of a tool whose log names no cause shares one;
  // every miscompile of a target shares a coarse mismatch signature).
  std::optional<KnownMatch> possible;
  for (const auto& [rank, b] : ranked) {
    const bool construct = has_construct_of(*b);
    if (!construct && possible) continue;  // no better than what we have
    auto run = oracles::RunKnownBug(*b, f.target, std::chrono::seconds(30),
                                    f.test_case.entry_point);
    if (!run.ok() || !run->verdict.IsFinding()) continue;
    if (!SignatureMatches(f.signature, run->verdict)) continue;
    if (construct) return KnownMatch{b->name, "signature and construct", true};
    possible = KnownMatch{
        b->name,
        absl::StrCat("signature only: the finding lacks instructions of ",
                     b->name, "'s reproducer"),
        false};
  }
  if (possible) return possible;
  // Construct alone: only entries of the same verdict kind.
  for (const auto& [rank, b] : ranked) {
    if (b->verdict == f.kind && has_construct_of(*b)) {
      return KnownMatch{b->name,
                        absl::StrCat("construct only: holds ", b->name,
                                     "'s instructions, but its reproducer "
                                     "does not give this signature on ",
                                     f.target),
                        false};
    }
  }
  return std::optional<KnownMatch>();
}

absl::StatusOr<std::optional<KnownMatch>> LabelFinding(const std::string& dir) {
  auto finding = ReadFinding(dir);
  if (!finding.ok()) return finding.status();
  std::error_code ec;
  if (fs::exists(dir + "/reduced/case.json", ec)) {
    auto reduced = spirv::ReadTestCase(dir + "/reduced");
    if (reduced.ok()) finding->test_case = std::move(*reduced);
  }
  auto match = MatchKnownBug(*finding);
  if (!match.ok()) return match.status();
  nlohmann::json label = {
      {"known", nullptr}, {"possibly", nullptr}, {"how", nullptr}};
  if (*match) {
    label[(*match)->certain ? "known" : "possibly"] = (*match)->name;
    label["how"] = (*match)->how;
  }
  if (auto s = spirv::WriteJsonFile(dir + "/known.json", label); !s.ok())
    return s;
  // First line of the README: a driver engineer sees it first.
  auto readme = spirv::ReadTextFile(dir + "/README.md");
  if (readme.ok()) {
    std::string text = *readme;
    if (text.rfind("Known: ", 0) == 0 || text.rfind("New: ", 0) == 0 ||
        text.rfind("Possibly known: ", 0) == 0)
      text = text.substr(text.find('\n') + 1);
    std::string head = "New: no known consumer bug matches this finding\n";
    if (*match && (*match)->certain) {
      head = absl::StrCat("Known: ", (*match)->name, " (matched by ",
                          (*match)->how,
                          "; corpora/known-consumer-bugs/registry.json)\n");
    } else if (*match) {
      head = absl::StrCat("Possibly known: ", (*match)->name, " (",
                          (*match)->how, "); treated as new\n");
    }
    if (auto s = spirv::WriteTextFile(dir + "/README.md", head + text); !s.ok())
      return s;
  }
  return match;
}

std::optional<std::string> ReadKnownLabel(const std::string& dir) {
  auto j = spirv::ReadJsonFile(dir + "/known.json");
  if (!j.ok() || !j->is_object()) return std::nullopt;
  const nlohmann::json& k = (*j)["known"];
  return k.is_string() ? k.get<std::string>() : std::string();
}

}  // namespace l0spv::reducers
