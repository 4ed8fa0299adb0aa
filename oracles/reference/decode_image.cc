// oracles/reference/decode_image.cc — images and samplers in the decoder:
// OpTypeImage / OpTypeSampler / OpTypeSampledImage (8-byte handles, see
// image_state.h), OpConstantSampler, kernel parameters of image and
// sampler type, and the grammar class "Image" (OpSampledImage, OpImage,
// OpImageRead, OpImageWrite, OpImageSampleExplicitLod, OpImageQuery*).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/reference/decode_state.h"
#include "spirv/grammar.h"
#include "spirv/image_format.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference::decoder {

using spv::Op;

namespace {

// Image operands the interpreter accepts: Lod (checked to be 0 when run),
// SignExtend / ZeroExtend (the channel type decides the signedness
// anyway) and Nontemporal (a hint).
constexpr uint32_t kLodBit = 0x2;
constexpr uint32_t kAcceptedOperands = kLodBit | 0x1000 | 0x2000 | 0x4000;

// Coordinates an image of SPIR-V Dim `dim` takes (arrays add the layer).
uint32_t CoordsFor(uint32_t dim, bool arrayed) {
  const uint32_t base = dim == 1 ? 2 : dim == 2 ? 3 : 1;
  return base + (arrayed ? 1 : 0);
}

// Lanes OpImageQuerySize(Lod) returns.
uint32_t SizeLanesFor(uint32_t dim, bool arrayed) {
  return CoordsFor(dim, arrayed);
}

}  // namespace

absl::Status DecodeState::DecodeImageType(const Instruction& inst,
                                          TypeDesc* t) {
  const auto op = static_cast<Op>(inst.opcode());
  auto w = [&inst](size_t i) -> uint32_t {
    return i < inst.NumOperands() && !inst.operand(i).words.empty()
               ? inst.operand(i).words[0]
               : 0;
  };
  t->cls = TypeDesc::kOpaque;
  t->sized = true;
  t->size = 8;
  t->align = 8;
  if (op == Op::OpTypeSampler) {
    t->handle = TypeDesc::Handle::kSampler;
  } else if (op == Op::OpTypeImage) {
    t->handle = TypeDesc::Handle::kImage;
    t->image_dim = w(1);
    t->image_arrayed = w(3) != 0;
    // Kernel images carry an access qualifier; without one, read-only.
    t->image_access = inst.NumOperands() > 7 ? w(7) : 0;
  } else {
    t->handle = TypeDesc::Handle::kSampledImage;
    t->elem = w(0);
    const TypeDesc* img = Type(t->elem);
    if (img == nullptr || img->handle != TypeDesc::Handle::kImage)
      return Bad("OpTypeSampledImage of something other than an image");
    t->image_dim = img->image_dim;
    t->image_arrayed = img->image_arrayed;
    t->image_access = img->image_access;
  }
  return absl::OkStatus();
}

absl::Status DecodeState::DecodeConstantSampler(const Instruction& inst) {
  const TypeDesc* t = Type(inst.type_id());
  if (t == nullptr || t->handle != TypeDesc::Handle::kSampler ||
      inst.NumOperands() < 3)
    return Bad("malformed OpConstantSampler");
  const uint32_t addressing = inst.word(0);
  const uint32_t filter = inst.word(2);
  if (addressing > 4 || filter > 1) {
    unsupported_values_[inst.result_id()] =
        absl::StrCat("OpConstantSampler with addressing mode ", addressing,
                     " / filter mode ", filter, " is not an OpenCL sampler");
    return absl::OkStatus();
  }
  prog_.literal_samplers.push_back({inst.word(1) != 0,
                                    static_cast<uint8_t>(addressing),
                                    static_cast<uint8_t>(filter)});
  ModValue v;
  v.type = inst.type_id();
  const uint64_t handle = prog_.literal_samplers.size();
  v.bytes.resize(8);
  for (int i = 0; i < 8; ++i)
    v.bytes[i] = static_cast<uint8_t>(handle >> (8 * i));
  values_[inst.result_id()] = std::move(v);
  return absl::OkStatus();
}

void DecodeState::ImageParam(const TypeDesc& t, KernelParam* kp) {
  kp->bytes = 8;
  if (t.handle == TypeDesc::Handle::kImage) {
    kp->kind = KernelParam::Kind::kImage;
    kp->index = prog_.image_params++;
    kp->image_dim = t.image_dim;
    kp->image_arrayed = t.image_arrayed;
    kp->image_access = t.image_access;
  } else {
    // A sampled image parameter is not OpenCL; treat it like a value the
    // argument check refuses.
    kp->kind = t.handle == TypeDesc::Handle::kSampler
                   ? KernelParam::Kind::kSampler
                   : KernelParam::Kind::kValue;
    if (kp->kind == KernelParam::Kind::kSampler)
      kp->index = static_cast<uint32_t>(prog_.literal_samplers.size()) +
                  sampler_params_++;
  }
}

void DecodeState::EmitImageCall(const Instruction& inst,
                                const ImageCall& call) {
  Inst i{Op_::kImage};
  i.d = static_cast<uint32_t>(prog_.image_calls.size());
  prog_.image_calls.push_back(call);
  Emit(i, inst);
}

absl::Status DecodeState::TranslateImage(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  switch (op) {
    case Op::OpSampledImage:
    case Op::OpImage: {
      ImageCall call;
      call.kind = op == Op::OpImage ? ImageOpKind::kImageOf
                                    : ImageOpKind::kSampledImage;
      L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
      L0SPV_DECODE_TRY(a, SlotOf(inst, 0));
      call.r = *r;
      call.image = *a;
      if (op == Op::OpSampledImage) {
        L0SPV_DECODE_TRY(b, SlotOf(inst, 1));
        call.sampler = *b;
      }
      EmitImageCall(inst, call);
      return absl::OkStatus();
    }
    case Op::OpImageRead:
      return ImageAccessOp(inst, ImageOpKind::kRead);
    case Op::OpImageWrite:
      return ImageAccessOp(inst, ImageOpKind::kWrite);
    case Op::OpImageSampleExplicitLod:
      return ImageAccessOp(inst, ImageOpKind::kSample);
    case Op::OpImageQuerySize:
    case Op::OpImageQuerySizeLod:
      return ImageQuery(inst, ImageOpKind::kQuerySize);
    case Op::OpImageQueryFormat:
      return ImageQuery(inst, ImageOpKind::kQueryFormat);
    case Op::OpImageQueryOrder:
      return ImageQuery(inst, ImageOpKind::kQueryOrder);
    case Op::OpImageQueryLevels:
      return ImageQuery(inst, ImageOpKind::kQueryLevels);
    case Op::OpImageQuerySamples:
      return ImageQuery(inst, ImageOpKind::kQuerySamples);
    default:
      return Unsupported(inst, kNotImplemented);
  }
}

absl::Status DecodeState::ImageAccessOp(const Instruction& inst,
                                        ImageOpKind kind) {
  const std::string name = OpName(inst.opcode());
  ImageCall call;
  call.kind = kind;
  L0SPV_DECODE_TRY(img_id, Id(inst, 0));
  L0SPV_DECODE_TRY(img_type, TypeOfValue(*img_id));
  const TypeDesc* it = Type(*img_type);
  const auto want = kind == ImageOpKind::kSample
                        ? TypeDesc::Handle::kSampledImage
                        : TypeDesc::Handle::kImage;
  if (it == nullptr || it->handle != want)
    return Bad(absl::StrCat(name, ": operand 1 is not of the right type"));
  L0SPV_DECODE_TRY(image, Slot(*img_id));
  call.image = *image;
  // Coordinates.
  L0SPV_DECODE_TRY(coord_id, Id(inst, 1));
  L0SPV_DECODE_TRY(coord_type, TypeOfValue(*coord_id));
  L0SPV_DECODE_TRY(cs, ShapeOf(*coord_type));
  const uint32_t need = CoordsFor(it->image_dim, it->image_arrayed);
  if ((cs->k != kI32 && cs->k != kF32) || cs->n < need)
    return Unsupported(
        inst, absl::StrCat("with ", ShapeName(*cs), " coordinates (the ", need,
                           " coordinates must be int or float)"));
  if (cs->k == kF32 && kind != ImageOpKind::kSample)
    return Bad(absl::StrCat(name, " with float coordinates"));
  L0SPV_DECODE_TRY(coord, Slot(*coord_id));
  call.coord = *coord;
  call.coord_kind = cs->k;
  call.coord_lanes = cs->n;
  // The texel: the result, or the written value.
  size_t next = 2;
  uint32_t value_type = inst.type_id();
  if (kind == ImageOpKind::kWrite) {
    L0SPV_DECODE_TRY(texel_id, Id(inst, 2));
    L0SPV_DECODE_TRY(tt, TypeOfValue(*texel_id));
    value_type = *tt;
    L0SPV_DECODE_TRY(texel, Slot(*texel_id));
    call.texel = *texel;
    next = 3;
  } else {
    L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
    call.r = *r;
  }
  L0SPV_DECODE_TRY(vs, ShapeOf(value_type));
  if ((vs->k != kF32 && vs->k != kF16 && vs->k != kI32) || vs->n != 4)
    return Unsupported(inst, absl::StrCat("with a ", ShapeName(*vs),
                                          " texel (float4, half4 or int4)"));
  call.value_kind = vs->k;
  call.value_lanes = vs->n;
  // Image operands: the mask, then one id per set bit in bit order.
  std::vector<uint32_t> ops;
  for (size_t i = next; i < inst.NumOperands(); ++i)
    for (uint32_t word : inst.operand(i).words) ops.push_back(word);
  const uint32_t mask = ops.empty() ? 0 : ops[0];
  if ((mask & ~kAcceptedOperands) != 0)
    return Unsupported(inst,
                       absl::StrCat("with image operands 0x", absl::Hex(mask),
                                    " (only Lod 0, SignExtend, ZeroExtend and "
                                    "Nontemporal are implemented)"));
  if (kind == ImageOpKind::kSample && (mask & kLodBit) == 0)
    return Bad(absl::StrCat(name, " without a Lod operand"));
  if (mask & kLodBit) {
    if (ops.size() < 2) return Bad(absl::StrCat(name, ": Lod without an id"));
    L0SPV_DECODE_TRY(lod_type, TypeOfValue(ops[1]));
    L0SPV_DECODE_TRY(ls, ShapeOf(*lod_type));
    if ((ls->k != kI32 && ls->k != kF32) || ls->n != 1)
      return Unsupported(inst, "with a Lod that is not an int or float");
    L0SPV_DECODE_TRY(lod, Slot(ops[1]));
    call.lod = *lod;
    call.lod_kind = ls->k;
  }
  EmitImageCall(inst, call);
  return absl::OkStatus();
}

absl::Status DecodeState::ImageQuery(const Instruction& inst,
                                     ImageOpKind kind) {
  const std::string name = OpName(inst.opcode());
  ImageCall call;
  call.kind = kind;
  L0SPV_DECODE_TRY(img_id, Id(inst, 0));
  L0SPV_DECODE_TRY(img_type, TypeOfValue(*img_id));
  const TypeDesc* it = Type(*img_type);
  if (it == nullptr || it->handle != TypeDesc::Handle::kImage)
    return Bad(absl::StrCat(name, ": operand 1 is not an image"));
  L0SPV_DECODE_TRY(image, Slot(*img_id));
  call.image = *image;
  L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
  call.r = *r;
  L0SPV_DECODE_TRY(rs, ShapeOf(inst.type_id()));
  if (rs->k != kI32 && rs->k != kI64)
    return Unsupported(inst, absl::StrCat("with a ", ShapeName(*rs),
                                          " result (an integer type)"));
  const uint32_t lanes = kind == ImageOpKind::kQuerySize
                             ? SizeLanesFor(it->image_dim, it->image_arrayed)
                             : 1;
  if (rs->n != lanes)
    return Bad(absl::StrCat(name, ": the result has ", int{rs->n},
                            " components, the image has ", lanes));
  call.value_kind = rs->k;
  call.value_lanes = rs->n;
  if (static_cast<Op>(inst.opcode()) == Op::OpImageQuerySizeLod) {
    L0SPV_DECODE_TRY(lod_id, Id(inst, 1));
    L0SPV_DECODE_TRY(lt, TypeOfValue(*lod_id));
    L0SPV_DECODE_TRY(ls, ShapeOf(*lt));
    if (ls->k != kI32 || ls->n != 1)
      return Unsupported(inst, "with a Lod that is not a 32-bit int");
    L0SPV_DECODE_TRY(lod, Slot(*lod_id));
    call.lod = *lod;
    call.lod_kind = kI32;
  }
  EmitImageCall(inst, call);
  return absl::OkStatus();
}

}  // namespace l0spv::oracles::reference::decoder
