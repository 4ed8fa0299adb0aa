#include "generators/transform/context.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "spirv/hash.h"
#include "spirv/ir_edit.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

using spirv::OpOf;

// Whether the memory behind a kernel pointer argument is only ever read:
// every pointer derived from it (access chains, casts, copies, phis,
// selects) is used by loads, read-only extended instructions or pointer
// comparisons. Anything else (a store, an atomic, a call, a conversion to
// an integer) makes it writable as far as we can tell.
bool IsReadOnlyPointer(const spirv::Function& fn, uint32_t param) {
  // Uses of ids in this function only: pointers to the argument cannot
  // leave the kernel except through calls, which disqualify it.
  absl::flat_hash_map<uint32_t, std::vector<const spirv::Instruction*>> users;
  for (const spirv::BasicBlock& bb : fn.blocks)
    for (const spirv::Instruction& inst : bb.instructions)
      inst.ForEachInId([&](uint32_t id) { users[id].push_back(&inst); });
  std::vector<uint32_t> work{param};
  absl::flat_hash_map<uint32_t, bool> seen{{param, true}};
  while (!work.empty()) {
    const uint32_t ptr = work.back();
    work.pop_back();
    auto it = users.find(ptr);
    if (it == users.end()) continue;
    for (const spirv::Instruction* user : it->second) {
      switch (OpOf(*user)) {
        case Op::OpAccessChain:
        case Op::OpInBoundsAccessChain:
        case Op::OpPtrAccessChain:
        case Op::OpInBoundsPtrAccessChain:
        case Op::OpBitcast:
        case Op::OpCopyObject:
        case Op::OpPtrCastToGeneric:
        case Op::OpGenericCastToPtr:
        case Op::OpGenericCastToPtrExplicit:
        case Op::OpPhi:
        case Op::OpSelect:
          if (seen.emplace(user->result_id(), true).second)
            work.push_back(user->result_id());
          break;
        case Op::OpLoad:
        case Op::OpPtrEqual:
        case Op::OpPtrNotEqual:
        case Op::OpPtrDiff:
          break;
        case Op::OpCopyMemory:
        case Op::OpCopyMemorySized:
          // Operand 0 is the target.
          if (user->word(0) == ptr) return false;
          break;
        case Op::OpExtInst: {
          // vload* read through the pointer; everything else may write.
          const uint32_t number = user->word(1);
          if (number != 171 && number != 173 && number != 174 &&
              number != 175)  // vloadn, vload_half, vload_halfn, vloada_halfn
            return false;
          break;
        }
        default:
          return false;
      }
    }
  }
  return true;
}

}  // namespace

nlohmann::json ToJson(const InstDescriptor& d) {
  return {{"base", d.base}, {"opcode", d.opcode}, {"skip", d.skip}};
}

absl::StatusOr<InstDescriptor> InstDescriptorFromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("base") || !j.contains("opcode") ||
      !j.contains("skip") || !j["base"].is_number_unsigned() ||
      !j["opcode"].is_number_unsigned() || !j["skip"].is_number_unsigned()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "an instruction descriptor must be {\"base\", \"opcode\", \"skip\"} "
        "of non-negative integers, got ",
        j.dump()));
  }
  return InstDescriptor{j["base"].get<uint32_t>(), j["opcode"].get<uint32_t>(),
                        j["skip"].get<uint32_t>()};
}

TransformContext::TransformContext(spirv::Module& module,
                                   const spirv::TestCase& test_case)
    : module_(module),
      test_case_(test_case),
      entry_function_(
          spirv::EntryFunctionIndex(module, test_case.entry_point)) {
  ComputeInitialFacts();
}

void TransformContext::ComputeInitialFacts() {
  if (entry_function_ < 0) return;
  const spirv::Function& fn = module_.functions[entry_function_];
  const spirv::TypeTable& tt = types();
  for (size_t i = 0; i < fn.parameters.size() && i < test_case_.args.size();
       ++i) {
    const spirv::Instruction& param = fn.parameters[i];
    const spirv::KernelArg& arg = test_case_.args[i];
    const spirv::TypeInfo* type = tt.Get(param.type_id());
    if (type == nullptr) continue;
    if (arg.kind == spirv::KernelArg::Kind::kScalar &&
        type->op == Op::OpTypeInt && type->width / 8 == arg.bytes.size()) {
      uint64_t value = 0;
      for (size_t b = 0; b < arg.bytes.size(); ++b)
        value |= uint64_t{arg.bytes[b]} << (8 * b);
      facts_.known_scalars().push_back(
          {param.result_id(), param.type_id(), type->width, value});
    } else if (arg.kind == spirv::KernelArg::Kind::kBuffer &&
               type->op == Op::OpTypePointer &&
               (type->storage_class == spv::StorageClass::CrossWorkgroup ||
                type->storage_class == spv::StorageClass::UniformConstant) &&
               IsReadOnlyPointer(fn, param.result_id())) {
      facts_.input_buffers().push_back(
          {param.result_id(), i, static_cast<uint32_t>(type->storage_class),
           &arg.bytes});
    }
  }
}

void TransformContext::BuildDefs() {
  defs_.assign(module_.header.bound, DefSite{});
  auto put = [&](uint32_t id, const DefSite& site) {
    if (id >= defs_.size()) defs_.resize(id + 1);
    defs_[id] = site;
  };
  for (const spirv::Instruction& inst : module_.types_values)
    if (inst.result_id() != 0)
      put(inst.result_id(), {-1, 0, 0, 0, inst.opcode(), inst.type_id()});
  for (const spirv::Instruction& inst : module_.ext_inst_imports)
    put(inst.result_id(), {-1, 0, 0, 0, inst.opcode(), 0});
  for (size_t f = 0; f < module_.functions.size(); ++f) {
    const spirv::Function& fn = module_.functions[f];
    const int32_t fi = static_cast<int32_t>(f);
    put(fn.id(), {-1, 0, 0, 0, fn.def.opcode(), fn.def.type_id()});
    for (size_t p = 0; p < fn.parameters.size(); ++p)
      put(fn.parameters[p].result_id(),
          {fi, 0, 0, p, fn.parameters[p].opcode(), fn.parameters[p].type_id()});
    for (size_t b = 0; b < fn.blocks.size(); ++b) {
      const spirv::BasicBlock& bb = fn.blocks[b];
      DefSite label{fi, bb.id(), b, 0, bb.label.opcode(), 0};
      label.is_label = true;
      put(bb.id(), label);
      for (size_t i = 0; i < bb.instructions.size(); ++i) {
        const spirv::Instruction& inst = bb.instructions[i];
        if (inst.result_id() != 0)
          put(inst.result_id(),
              {fi, bb.id(), b, i, inst.opcode(), inst.type_id()});
      }
    }
  }
  defs_built_ = true;
}

const DefSite* TransformContext::Def(uint32_t id) {
  if (!defs_built_) BuildDefs();
  if (id >= defs_.size() || defs_[id].opcode == 0) return nullptr;
  return &defs_[id];
}

const spirv::TypeTable& TransformContext::types() {
  // Types and constants are only ever appended (through the builder), so
  // the table is current while the section and the decorations keep their
  // sizes.
  if (!types_ || types_size_ != module_.types_values.size() ||
      annotations_size_ != module_.annotations.size()) {
    types_ = std::make_unique<spirv::TypeTable>(module_);
    types_size_ = module_.types_values.size();
    annotations_size_ = module_.annotations.size();
  }
  return *types_;
}

spirv::ModuleBuilder& TransformContext::builder() {
  if (!builder_) {
    builder_ = std::make_unique<spirv::ModuleBuilder>(module_);
    builder_->set_id_source([this] { return NewId(); });
  }
  return *builder_;
}

// A cheap summary of a function's CFG: block labels and terminator
// targets. The dominator tree is rebuilt only when it changes.
static uint64_t CfgFingerprint(const spirv::Function& fn) {
  uint64_t h = spirv::kFnv1a64Offset ^ fn.blocks.size();
  auto mix = [&h](uint64_t v) { h = spirv::Fnv1a64Mix(h, v); };
  for (const spirv::BasicBlock& bb : fn.blocks) {
    mix(bb.id());
    const spirv::Instruction* term = bb.terminator();
    if (term == nullptr) continue;
    mix(term->opcode());
    for (const spirv::Operand& op : term->operands())
      if (!op.words.empty()) mix(op.words[0]);
  }
  return h;
}

const Dominators& TransformContext::dominators(size_t function) {
  auto& slot = dominators_[function];
  const uint64_t fp = CfgFingerprint(module_.functions[function]);
  if (!slot.tree || slot.fingerprint != fp) {
    slot.tree = std::make_unique<Dominators>(module_.functions[function]);
    slot.fingerprint = fp;
  }
  return *slot.tree;
}

void TransformContext::Invalidate() {
  defs_built_ = false;
  // The builder, the type table and the dominator trees check themselves
  // for staleness (see above); the builder stays valid because kinds add
  // types and constants only through it.
}

void TransformContext::ResetBuilder() { builder_.reset(); }

uint32_t TransformContext::NewId() {
  uint32_t id;
  if (recording_ != nullptr) {
    id = module_.header.bound;
    recording_->push_back(id);
  } else if (replay_next_ < replay_ids_.size()) {
    id = replay_ids_[replay_next_++];
  } else if (overflow_next_ != nullptr) {
    id = (*overflow_next_)++;
  } else {
    id = module_.header.bound;
  }
  module_.header.bound = std::max(module_.header.bound, id + 1);
  return id;
}

void TransformContext::BeginRecording(std::vector<uint32_t>* out) {
  recording_ = out;
  replay_ids_ = {};
  replay_next_ = 0;
  overflow_next_ = nullptr;
}

void TransformContext::BeginReplaying(std::span<const uint32_t> ids,
                                      uint32_t* overflow_next) {
  recording_ = nullptr;
  replay_ids_ = ids;
  replay_next_ = 0;
  overflow_next_ = overflow_next;
}

void TransformContext::EndIds() {
  recording_ = nullptr;
  replay_ids_ = {};
  replay_next_ = 0;
  overflow_next_ = nullptr;
}

std::optional<InstPos> TransformContext::Find(const InstDescriptor& d) {
  const DefSite* base = Def(d.base);
  if (base == nullptr || base->function < 0 || base->block == 0)
    return std::nullopt;
  const spirv::BasicBlock& bb =
      module_.functions[base->function].blocks[base->block_index];
  uint32_t seen = 0;
  for (size_t i = base->is_label ? 0 : base->index; i < bb.instructions.size();
       ++i) {
    if (bb.instructions[i].opcode() != d.opcode) continue;
    if (seen++ == d.skip)
      return InstPos{static_cast<size_t>(base->function), base->block_index, i};
  }
  return std::nullopt;
}

InstDescriptor TransformContext::Describe(const InstPos& pos) {
  const spirv::BasicBlock& bb = BlockAt(pos);
  const uint32_t opcode = bb.instructions[pos.index].opcode();
  size_t start = 0;
  uint32_t base = bb.id();
  for (size_t i = pos.index + 1; i-- > 0;) {
    if (bb.instructions[i].result_id() != 0) {
      start = i;
      base = bb.instructions[i].result_id();
      break;
    }
  }
  uint32_t skip = 0;
  for (size_t i = start; i < pos.index; ++i)
    if (bb.instructions[i].opcode() == opcode) ++skip;
  return {base, opcode, skip};
}

spirv::Instruction& TransformContext::At(const InstPos& pos) {
  return BlockAt(pos).instructions[pos.index];
}

std::optional<InstPos> TransformContext::PosOfDef(uint32_t id) {
  const DefSite* d = Def(id);
  if (d == nullptr || d->function < 0 || d->block == 0 || d->is_label)
    return std::nullopt;
  return InstPos{static_cast<size_t>(d->function), d->block_index, d->index};
}

std::optional<std::pair<size_t, size_t>> TransformContext::FindBlock(
    uint32_t label) {
  const DefSite* d = Def(label);
  if (d == nullptr || !d->is_label) return std::nullopt;
  return std::make_pair(static_cast<size_t>(d->function), d->block_index);
}

bool TransformContext::IsAvailableAt(uint32_t id, const InstPos& pos) {
  const DefSite* d = Def(id);
  if (d == nullptr || d->is_label) return false;
  const spirv::Function& fn = module_.functions[pos.function];
  const uint32_t here = fn.blocks[pos.block].id();
  const Dominators& dom = dominators(pos.function);
  if (!dom.IsReachable(here)) return false;
  if (d->function < 0)
    return d->opcode != static_cast<uint32_t>(Op::OpFunction) &&
           d->opcode != static_cast<uint32_t>(Op::OpExtInstImport);
  if (static_cast<size_t>(d->function) != pos.function) return false;
  if (d->block == 0) return true;  // a parameter
  if (d->block == here) return d->index < pos.index;
  return dom.Dominates(d->block, here);
}

size_t TransformContext::FirstInsertionIndex(const spirv::BasicBlock& block) {
  size_t i = 0;
  while (
      i < block.instructions.size() &&
      (block.instructions[i].opcode() == static_cast<uint32_t>(Op::OpPhi) ||
       block.instructions[i].opcode() ==
           static_cast<uint32_t>(Op::OpVariable) ||
       block.instructions[i].opcode() == static_cast<uint32_t>(Op::OpLine) ||
       block.instructions[i].opcode() == static_cast<uint32_t>(Op::OpNoLine)))
    ++i;
  return i;
}

size_t TransformContext::LastInsertionIndex(const spirv::BasicBlock& block) {
  size_t i = block.instructions.empty() ? 0 : block.instructions.size() - 1;
  if (i > 0) {
    const uint32_t op = block.instructions[i - 1].opcode();
    if (op == static_cast<uint32_t>(Op::OpSelectionMerge) ||
        op == static_cast<uint32_t>(Op::OpLoopMerge))
      --i;
  }
  return i;
}

uint32_t TransformContext::TypeOf(uint32_t id) {
  const DefSite* d = Def(id);
  return d == nullptr ? 0 : d->type_id;
}

}  // namespace l0spv::generators::transform
