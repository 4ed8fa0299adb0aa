#include "generators/kernel/images.h"

#include <algorithm>
#include <array>
#include <string>

#include "generators/kernel/expressions.h"
#include "generators/kernel/outputs.h"
#include "oracles/known_bugs/image_format_bugs.h"
#include "spirv/image_format.h"
#include "spirv/numeric_bits.h"

namespace l0spv::generators::kernel {

using spirv::ChannelClass;
using spirv::ImageAccess;
using spirv::ImageDesc;
using spirv::ImageDim;
using spirv::SamplerDesc;
using spv::Op;
using Role = ImageResource::Role;

namespace {

// barrier(CLK_IMAGE_MEM_FENCE): SequentiallyConsistent | ImageMemory, the
// semantics llvm-spirv emits.
constexpr uint32_t kImageBarrierSemantics = 0x10 | 0x800;
constexpr uint32_t kCrossWorkgroupMemory = 0x200;

// --- types -----------------------------------------------------------------

// The type instruction with these operands, declared once (SPIR-V forbids
// two identical non-aggregate types).
uint32_t FindOrAddType(GenContext& ctx, Op op,
                       std::vector<spirv::Operand> operands) {
  for (const spirv::Instruction& inst : ctx.module.types_values) {
    if (inst.opcode() != static_cast<uint32_t>(op) ||
        inst.NumOperands() != operands.size())
      continue;
    bool same = true;
    for (size_t i = 0; i < operands.size() && same; ++i)
      same = inst.operand(i).words == operands[i].words;
    if (same) return inst.result_id();
  }
  const uint32_t id = ctx.builder.TakeNextId();
  ctx.module.types_values.emplace_back(static_cast<uint32_t>(op), 0, id,
                                       std::move(operands));
  return id;
}

// OpTypeImage with Level Zero's rules: Sampled Type void, Depth 0, Arrayed
// only for 1D/2D, MS 0, Sampled 0, Image Format Unknown, Access Qualifier
// present.
uint32_t ImageType(GenContext& ctx, ImageDim dim, ImageAccess access) {
  const uint32_t void_type = ctx.types.Void();
  ctx.builder.AddCapability(spv::Capability::ImageBasic);
  if (dim == ImageDim::k1D || dim == ImageDim::k1DArray)
    ctx.builder.AddCapability(spv::Capability::Image1D);
  if (dim == ImageDim::k1DBuffer)
    ctx.builder.AddCapability(spv::Capability::ImageBuffer);
  if (access == ImageAccess::kReadWrite)
    ctx.builder.AddCapability(spv::Capability::ImageReadWrite);
  return FindOrAddType(
      ctx, Op::OpTypeImage,
      {Id(void_type),
       spirv::EnumOperand(spirv::OperandKind::kDim, spirv::SpirvDim(dim)),
       Lit(0), Lit(spirv::IsArrayed(dim) ? 1 : 0), Lit(0), Lit(0),
       spirv::EnumOperand(spirv::OperandKind::kImageFormat,
                          static_cast<uint32_t>(spv::ImageFormat::Unknown)),
       spirv::EnumOperand(spirv::OperandKind::kAccessQualifier,
                          static_cast<uint32_t>(access))});
}

uint32_t SamplerType(GenContext& ctx) {
  return FindOrAddType(ctx, Op::OpTypeSampler, {});
}

// Consumer limitations met by image cases, not yet filed in the registry
// (corpora/known-consumer-bugs/): avoided while the consumer is avoided.
bool Avoiding(const GenContext& ctx, oracles::ConsumerBit consumer) {
  return (ctx.features.avoid_bugs & consumer) != 0;
}

// --- descriptors -------------------------------------------------------------

struct Format {
  uint32_t order;
  uint32_t type;
};

// Orders and types every consumer here supports: OpenCL 1.2's minimum list
// (RGBA with every non-packed type, BGRA UnormInt8) and OpenCL 2.0's R/RG.
Format RandomFormat(GenContext& ctx, bool exact_rw) {
  namespace co = spirv::channel_order;
  namespace ct = spirv::channel_type;
  static constexpr uint32_t kTypes[] = {
      ct::kUnormInt8,     ct::kUnormInt16,   ct::kSnormInt8,
      ct::kSnormInt16,    ct::kSignedInt8,   ct::kSignedInt16,
      ct::kSignedInt32,   ct::kUnsignedInt8, ct::kUnsignedInt16,
      ct::kUnsignedInt32, ct::kHalfFloat,    ct::kFloat};
  // Read-write images read back what they wrote: only types whose writes
  // are exact (integers, float).
  static constexpr uint32_t kExactTypes[] = {
      ct::kSignedInt8,   ct::kSignedInt16,   ct::kSignedInt32,
      ct::kUnsignedInt8, ct::kUnsignedInt16, ct::kUnsignedInt32,
      ct::kFloat};
  static constexpr uint32_t kOrders[] = {co::kRGBA, co::kRGBA, co::kRGBA,
                                         co::kR, co::kRG};
  uint32_t type = exact_rw ? ctx.rng.Pick<uint32_t>(kExactTypes)
                           : ctx.rng.Pick<uint32_t>(kTypes);
  uint32_t order = ctx.rng.Pick<uint32_t>(kOrders);
  if (!exact_rw && type == ct::kUnormInt8 && ctx.rng.Percent(25))
    order = co::kBGRA;
  // PoCL 3.1's CPU device supports no RG format at all (the opencl target
  // answers unsupported): RGBA instead.
  if (order == co::kRG && Avoiding(ctx, oracles::kConsumerPocl))
    order = co::kRGBA;
  // Formats that meet a filed bug of an avoided consumer
  // (oracles/known_bugs/image_format_bugs.h): an unsigned type becomes its
  // signed twin (llvm_spirv_image_unsigned), a single-channel order RGBA
  // (pocl_image_r_alpha, pocl_image_r_half).
  while (const auto bug = oracles::KnownBugOfImageFormat(
             order, type, ctx.features.avoid_bugs)) {
    if (*bug == KnownBugId::kLlvmSpirvImageUnsigned) {
      type = type == ct::kUnsignedInt8    ? ct::kSignedInt8
             : type == ct::kUnsignedInt16 ? ct::kSignedInt16
                                          : ct::kSignedInt32;
    } else {
      order = co::kRGBA;
    }
  }
  return {order, type};
}

// Whether coordinates of this image get a fourth, zero lane: llvm-spirv 14
// -r turns a 3-component coordinate of a 3D or 2D-array image into
// read_imagef(image3d_ro, int3) and the like, overloads OpenCL C does not
// have (known-consumer-bugs/llvm_spirv_image_coord3; PoCL fails to link).
// SPIR-V lets a coordinate vector be larger than needed (the extra lanes
// come last and are ignored), and int4/float4 is OpenCL C's own shape.
// IGC lowers such accesses to built-ins it does not define either
// (igc_image_coord3).
bool PadsCoordinate(const GenContext& ctx, const ImageDesc& d) {
  return (d.dim == ImageDim::k3D || d.dim == ImageDim::k2DArray) &&
         !ctx.BugsAllowed(
             {KnownBugId::kLlvmSpirvImageCoord3, KnownBugId::kIgcImageCoord3});
}

bool IsIntegerImage(const ImageDesc& d) {
  const ChannelClass c = spirv::ClassOfChannelType(d.type);
  return c == ChannelClass::kSigned || c == ChannelClass::kUnsigned;
}

uint64_t PowerOfTwo(GenContext& ctx, uint32_t min_log, uint32_t max_log) {
  return uint64_t{1} << ctx.rng.Range(min_log, max_log);
}

// A read-only image: power-of-two spatial extents (normalised coordinates
// are then exact) of at least 4 when it may be sampled linearly.
ImageDesc ReadImageDesc(GenContext& ctx, bool sampled) {
  static constexpr ImageDim kSampledDims[] = {ImageDim::k1D, ImageDim::k1DArray,
                                              ImageDim::k2D, ImageDim::k2DArray,
                                              ImageDim::k3D};
  static constexpr ImageDim kReadDims[] = {
      ImageDim::k1D, ImageDim::k1DBuffer, ImageDim::k1DArray,
      ImageDim::k2D, ImageDim::k2DArray,  ImageDim::k3D};
  ImageDesc d;
  d.dim = sampled ? ctx.rng.Pick<ImageDim>(kSampledDims)
                  : ctx.rng.Pick<ImageDim>(kReadDims);
  const Format format = RandomFormat(ctx, false);
  d.order = format.order;
  d.type = format.type;
  d.access = ImageAccess::kReadOnly;
  const uint32_t max_log = d.dim == ImageDim::k3D ? 3 : 4;
  const uint32_t min_log = sampled ? 2 : 0;
  d.width = PowerOfTwo(ctx, min_log, max_log);
  if (d.dim == ImageDim::k2D || d.dim == ImageDim::k2DArray ||
      d.dim == ImageDim::k3D)
    d.height = PowerOfTwo(ctx, min_log, max_log);
  // OpenCL requires a 3D image's depth to exceed 1.
  if (d.dim == ImageDim::k3D)
    d.depth = PowerOfTwo(ctx, std::max<uint32_t>(min_log, 1), max_log);
  if (spirv::IsArrayed(d.dim)) d.array_size = ctx.rng.Range(1, 4);
  return d;
}

// An image with exactly one texel per work-item: storage extents
// {x, y, z} whose product is the work-item count.
ImageDesc OwnedImageDesc(GenContext& ctx, const KernelResources& k,
                         const spirv::NdRange& range, bool read_write) {
  ImageDesc d;
  const Format format = RandomFormat(ctx, read_write);
  d.order = format.order;
  d.type = format.type;
  if (read_write) {
    // x = the work-item's index in its group, y = its group.
    d.access = ImageAccess::kReadWrite;
    d.dim = ctx.rng.Percent(50) ? ImageDim::k2D : ImageDim::k1D;
    if (d.dim == ImageDim::k2D) {
      d.width = k.group_size;
      d.height = k.work_items / k.group_size;
    } else {
      d.width = k.work_items;
    }
    return d;
  }
  static constexpr ImageDim kDims[] = {ImageDim::k1D,      ImageDim::k1DBuffer,
                                       ImageDim::k1DArray, ImageDim::k2D,
                                       ImageDim::k2DArray, ImageDim::k3D};
  d.access = ImageAccess::kWriteOnly;
  d.dim = ctx.rng.Pick<ImageDim>(kDims);
  // PoCL 3.1 defines write_imagei of 3D and 2D-array images under a wrongly
  // mangled name (known-consumer-bugs/pocl_write_imagei_3d), and llvm-spirv
  // -r writes unsigned images with write_imagei too: 2D instead.
  if ((d.dim == ImageDim::k3D || d.dim == ImageDim::k2DArray) &&
      IsIntegerImage(d) && !ctx.BugsAllowed(KnownBugId::kPoclWriteImagei3d))
    d.dim = ImageDim::k2D;
  // OpenCL requires a 3D image's depth to exceed 1.
  if (d.dim == ImageDim::k3D && range.global[2] < 2) d.dim = ImageDim::k2D;
  const uint64_t gx = range.global[0], gy = range.global[1],
                 gz = range.global[2];
  switch (spirv::CoordinateCount(d.dim)) {
    case 1:
      d.width = k.work_items;
      break;
    case 2:
      d.width = gx;
      if (d.dim == ImageDim::k1DArray) {
        d.array_size = gy * gz;
      } else {
        d.height = gy * gz;
      }
      break;
    default:
      d.width = gx;
      d.height = gy;
      if (d.dim == ImageDim::k2DArray) {
        d.array_size = gz;
      } else {
        d.depth = gz;
      }
      break;
  }
  return d;
}

SamplerDesc RandomSampler(GenContext& ctx, bool integer_image) {
  SamplerDesc s;
  s.addressing = static_cast<spirv::AddressingMode>(ctx.rng.Below(5));
  // Unnormalised coordinates with repeat / mirrored repeat are undefined.
  const bool repeats = s.addressing == spirv::AddressingMode::kRepeat ||
                       s.addressing == spirv::AddressingMode::kRepeatMirrored;
  s.normalized = repeats || ctx.rng.Percent(50);
  // Linear filtering is defined only for float-returning images.
  s.filter = !integer_image && ctx.rng.Percent(40)
                 ? spirv::FilterMode::kLinear
                 : spirv::FilterMode::kNearest;
  // Oclgrind 21.10 answers (0, 0, 0, 0) for linear filtering with addressing
  // None even when the footprint is inside the image
  // (known-consumer-bugs/oclgrind_image_linear_none): clamp to edge, which
  // reads the same texels for the in-range coordinates None gets.
  if (s.filter == spirv::FilterMode::kLinear &&
      s.addressing == spirv::AddressingMode::kNone &&
      !ctx.BugsAllowed(KnownBugId::kOclgrindImageLinearNone))
    s.addressing = spirv::AddressingMode::kClampToEdge;
  return s;
}

// --- emission helpers
// ----------------------------------------------------------

uint32_t U32Of(GenContext& ctx, uint32_t u64) {
  return ctx.fn->Op(Op::OpUConvert, ctx.types.Id(IntT(32)), {u64});
}

// (base + offset) mod m, as u32 (m > 0).
uint32_t Wrap(GenContext& ctx, uint32_t base, uint32_t offset, uint32_t m) {
  const uint32_t u32 = ctx.types.Id(IntT(32));
  const uint32_t sum =
      ctx.fn->Op(Op::OpIAdd, u32, {base, ctx.types.U32(offset)});
  return ctx.fn->Op(Op::OpUMod, u32, {sum, ctx.types.U32(m)});
}

// A u32 that varies between work-items: the linear id or a pool integer.
uint32_t Varying(GenContext& ctx) {
  if (ctx.rng.Percent(60)) return U32Of(ctx, ctx.kernel->linear_id);
  return AnyIntAs(ctx, 32);
}

// A vector of run-time lanes. OpCompositeConstruct of run-time values
// crashes llvm-spirv 14 -r (known-consumer-bugs/composite_construct_runtime):
// unless that bug is allowed, the lanes are inserted into an OpUndef.
uint32_t Vector(GenContext& ctx, ValueType element,
                const std::vector<uint32_t>& lanes) {
  if (lanes.size() == 1) return lanes[0];
  const ValueType t{element.kind, element.width,
                    static_cast<uint8_t>(lanes.size())};
  const uint32_t type = ctx.types.Id(t);
  if (ctx.BugsAllowed(KnownBugId::kCompositeConstructRuntime))
    return ctx.fn->Op(Op::OpCompositeConstruct, type, lanes);
  uint32_t acc = ctx.fn->Op(Op::OpUndef, type, {});
  for (uint32_t i = 0; i < lanes.size(); ++i)
    acc = ctx.fn->OpWith(Op::OpCompositeInsert, type,
                         {Id(lanes[i]), Id(acc), Lit(i)});
  return acc;
}

uint32_t FloatConst(GenContext& ctx, double v) {
  return ctx.types.Splat(FloatT(32), spirv::EncodeFloat(v, 32));
}

// One spatial coordinate of a sampled read, as a float: the texel position
// i + f (f a quarter-texel position for nearest, an eighth other than the
// tie 1/2 for linear), normalised by the power-of-two extent when the
// sampler is.
uint32_t SampleCoordinate(GenContext& ctx, uint64_t extent,
                          const SamplerDesc& s) {
  FunctionEmitter& fn = *ctx.fn;
  const uint32_t w = static_cast<uint32_t>(extent);
  int32_t offset = 0;
  uint32_t span = w;
  const bool linear = s.filter == spirv::FilterMode::kLinear;
  switch (s.addressing) {
    case spirv::AddressingMode::kNone:
      // Every tap in range: i in [1, w-2] for linear (w >= 4).
      if (linear) {
        offset = 1;
        span = w - 2;
      }
      break;
    case spirv::AddressingMode::kClamp:
    case spirv::AddressingMode::kClampToEdge:
      offset = -2;  // two texels beyond either edge
      span = w + 4;
      break;
    default: {
      // Repeat / mirrored repeat: any whole number of periods.
      const int32_t periods = static_cast<int32_t>(ctx.rng.Range(0, 4)) - 2;
      offset = periods * static_cast<int32_t>(w);
      break;
    }
  }
  static constexpr double kNearest[] = {0.25, 0.5, 0.75};
  static constexpr double kLinear[] = {0.125, 0.25, 0.375, 0.625, 0.75, 0.875};
  const double f =
      linear ? ctx.rng.Pick<double>(kLinear) : ctx.rng.Pick<double>(kNearest);
  const uint32_t base = Varying(ctx);
  const uint32_t start = ctx.rng.Below(span);
  const uint32_t i = Wrap(ctx, base, start, span);
  const uint32_t u32 = ctx.types.Id(IntT(32));
  const uint32_t shifted =
      fn.Op(Op::OpIAdd, u32, {i, ctx.types.U32(static_cast<uint32_t>(offset))});
  const uint32_t f32 = ctx.types.Id(FloatT(32));
  const uint32_t as_float = fn.Op(Op::OpConvertSToF, f32, {shifted});
  const uint32_t fraction = FloatConst(ctx, f);
  const uint32_t u = fn.Op(Op::OpFAdd, f32, {as_float, fraction});
  if (!s.normalized) return u;
  const uint32_t inverse = FloatConst(ctx, 1.0 / w);
  return fn.Op(Op::OpFMul, f32, {u, inverse});
}

// An array layer: integral, in range (never normalised).
uint32_t LayerCoordinate(GenContext& ctx, uint64_t layers, bool as_float) {
  const uint32_t base = Varying(ctx);
  const uint32_t start = ctx.rng.Below(static_cast<uint32_t>(layers));
  const uint32_t layer = Wrap(ctx, base, start, static_cast<uint32_t>(layers));
  if (!as_float) return layer;
  return ctx.fn->Op(Op::OpConvertUToF, ctx.types.Id(FloatT(32)), {layer});
}

// Integer coordinates of a texel in range.
uint32_t InRangeCoordinates(GenContext& ctx, const ImageDesc& d) {
  const std::array<uint64_t, 3> extent = spirv::StorageExtent(d);
  std::vector<uint32_t> lanes;
  for (uint32_t a = 0; a < spirv::CoordinateCount(d.dim); ++a) {
    const uint32_t base = Varying(ctx);
    const uint32_t start = ctx.rng.Below(static_cast<uint32_t>(extent[a]));
    lanes.push_back(Wrap(ctx, base, start, static_cast<uint32_t>(extent[a])));
  }
  if (PadsCoordinate(ctx, d)) lanes.push_back(ctx.types.U32(0));
  return Vector(ctx, IntT(32), lanes);
}

// The texel a linear index names in storage order (x fastest).
uint32_t TexelOf(GenContext& ctx, const ImageDesc& d, uint32_t index) {
  FunctionEmitter& fn = *ctx.fn;
  const uint32_t u32 = ctx.types.Id(IntT(32));
  const std::array<uint64_t, 3> extent = spirv::StorageExtent(d);
  std::vector<uint32_t> lanes;
  uint32_t rest = index;
  const uint32_t count = spirv::CoordinateCount(d.dim);
  for (uint32_t a = 0; a < count; ++a) {
    const uint32_t e = ctx.types.U32(static_cast<uint32_t>(extent[a]));
    if (a + 1 == count) {
      lanes.push_back(rest);
    } else {
      lanes.push_back(fn.Op(Op::OpUMod, u32, {rest, e}));
      rest = fn.Op(Op::OpUDiv, u32, {rest, e});
    }
  }
  if (PadsCoordinate(ctx, d)) lanes.push_back(ctx.types.U32(0));
  return Vector(ctx, IntT(32), lanes);
}

// Stores a float4 read: 1.5 ulp for normalised conversions (OpenCL 8.3),
// plus an absolute bound for linear filtering.
void SinkFloatRead(GenContext& ctx, uint32_t v4, const ImageDesc& d,
                   bool linear, uint32_t filtered_axes) {
  const ChannelClass c = spirv::ClassOfChannelType(d.type);
  const bool normalised = c == ChannelClass::kNormalized;
  const double ulp = normalised ? 1.5 : 0;
  double absolute = 0;
  std::string reason = normalised
                           ? "image read: normalised integer to float, 1.5 ulp "
                             "(OpenCL 8.3)"
                           : "image read: exact";
  if (linear) {
    // Texel range: unorm [0, 1], snorm [-1, 1], half/float texels from
    // ImageTexelsFromSeed in [-4, 4].
    const double range =
        normalised ? (spirv::channel_type::kSnormInt8 == d.type ||
                              spirv::channel_type::kSnormInt16 == d.type
                          ? 2.0
                          : 1.0)
                   : 8.0;
    absolute = range * filtered_axes / 256.0;
    reason =
        "image read, linear filtering: GPUs weight the taps with "
        "low-precision fractions (e.g. 8 bits), so up to range/256 per "
        "filtered axis" +
        std::string(normalised ? ", plus 1.5 ulp normalised conversion" : "");
  }
  const uint32_t f32 = ctx.types.Id(FloatT(32));
  const uint32_t lanes = ctx.rng.Range(1, 4);
  for (uint32_t i = 0; i < lanes; ++i) {
    const uint32_t lane = ctx.rng.Below(4);
    const uint32_t scalar =
        ctx.fn->OpWith(Op::OpCompositeExtract, f32, {Id(v4), Lit(lane)});
    SinkLooseFloat(ctx, scalar, FloatT(32), ulp, false, reason);
    if (absolute > 0) {
      FloatOutput& out = ctx.kernel->float_out[1];
      if (out.used > 0) out.slot_info[out.used - 1].absolute = absolute;
    }
  }
}

void UseRead(GenContext& ctx, uint32_t v4, const ImageDesc& d, bool linear,
             uint32_t filtered_axes) {
  if (IsIntegerImage(d)) {
    AddValue(ctx, v4, IntT(32, 4));
    SinkValue(ctx, Value{v4, IntT(32, 4)});
  } else {
    SinkFloatRead(ctx, v4, d, linear, filtered_axes);
  }
}

uint32_t ReadType(GenContext& ctx, const ImageDesc& d) {
  return ctx.types.Id(IsIntegerImage(d) ? IntT(32, 4) : FloatT(32, 4));
}

void SampledRead(GenContext& ctx, const ImageResource& img) {
  FunctionEmitter& fn = *ctx.fn;
  const ImageDesc& d = img.desc;
  SamplerDesc s;
  uint32_t sampler = 0;
  if (img.sampler_arg >= 0 && ctx.rng.Percent(60)) {
    s = img.sampler;
    sampler = img.sampler_param;
  } else {
    s = RandomSampler(ctx, IsIntegerImage(d));
    ctx.builder.AddCapability(spv::Capability::LiteralSampler);
    sampler = ctx.builder.TakeNextId();
    ctx.module.types_values.emplace_back(
        static_cast<uint32_t>(Op::OpConstantSampler), SamplerType(ctx), sampler,
        std::vector<spirv::Operand>{
            spirv::EnumOperand(spirv::OperandKind::kSamplerAddressingMode,
                               static_cast<uint32_t>(s.addressing)),
            Lit(s.normalized ? 1 : 0),
            spirv::EnumOperand(spirv::OperandKind::kSamplerFilterMode,
                               static_cast<uint32_t>(s.filter))});
  }
  if (d.dim == ImageDim::k1D || d.dim == ImageDim::k1DArray)
    ctx.builder.AddCapability(spv::Capability::Sampled1D);
  const uint32_t sampled_type =
      FindOrAddType(ctx, Op::OpTypeSampledImage, {Id(img.type)});
  const uint32_t sampled =
      fn.Op(Op::OpSampledImage, sampled_type, {img.param, sampler});
  // Coordinates: x (, y (, z)) spatial; an array's last one is the layer.
  std::vector<uint32_t> lanes;
  uint32_t filtered = 0;
  const std::array<uint64_t, 3> extent = spirv::StorageExtent(d);
  const uint32_t count = spirv::CoordinateCount(d.dim);
  for (uint32_t a = 0; a < count; ++a) {
    if (spirv::IsArrayed(d.dim) && a + 1 == count) {
      // PoCL 3.1 scales the layer by the array size when the sampler
      // normalises (known-consumer-bugs/pocl_image_array_layer_normalized):
      // layer 0, which it reads right, while PoCL is avoided.
      const bool scaled_layer =
          s.normalized &&
          !ctx.BugsAllowed(KnownBugId::kPoclImageArrayLayerNormalized);
      lanes.push_back(scaled_layer ? FloatConst(ctx, 0.0)
                                   : LayerCoordinate(ctx, extent[a], true));
    } else {
      lanes.push_back(SampleCoordinate(ctx, extent[a], s));
      ++filtered;
    }
  }
  if (PadsCoordinate(ctx, d)) lanes.push_back(FloatConst(ctx, 0.0));
  const uint32_t coordinate = Vector(ctx, FloatT(32), lanes);
  const uint32_t read = fn.OpWith(
      Op::OpImageSampleExplicitLod, ReadType(ctx, d),
      {Id(sampled), Id(coordinate),
       spirv::EnumOperand(spirv::OperandKind::kImageOperands,
                          static_cast<uint32_t>(spv::ImageOperandsMask::Lod)),
       Id(FloatConst(ctx, 0.0))});
  UseRead(ctx, read, d, s.filter == spirv::FilterMode::kLinear, filtered);
}

void PlainRead(GenContext& ctx, const ImageResource& img, uint32_t coordinate) {
  const uint32_t read = ctx.fn->Op(Op::OpImageRead, ReadType(ctx, img.desc),
                                   {img.param, coordinate});
  UseRead(ctx, read, img.desc, false, 0);
}

// A value to write, in range for the channel type: integers masked to the
// type's non-negative range, floats k/64 in [-4, 4) (exact in half; clamped
// by normalised types).
uint32_t WriteValue(GenContext& ctx, const ImageDesc& d) {
  FunctionEmitter& fn = *ctx.fn;
  const uint32_t u32 = ctx.types.Id(IntT(32));
  std::vector<uint32_t> lanes;
  for (int i = 0; i < 4; ++i) lanes.push_back(AnyIntAs(ctx, 32));
  const ValueType v4 = IntT(32, 4);
  const uint32_t ints = Vector(ctx, IntT(32), lanes);
  namespace ct = spirv::channel_type;
  if (IsIntegerImage(d)) {
    uint32_t mask = 0xffffffffu;
    switch (d.type) {
      case ct::kSignedInt8:
        mask = 0x7f;
        break;
      case ct::kUnsignedInt8:
        mask = 0xff;
        break;
      case ct::kSignedInt16:
        mask = 0x7fff;
        break;
      case ct::kUnsignedInt16:
        mask = 0xffff;
        break;
      default:
        return ints;
    }
    return fn.Op(Op::OpBitwiseAnd, ctx.types.Id(v4),
                 {ints, ctx.types.Splat(v4, mask)});
  }
  (void)u32;
  const uint32_t small = fn.Op(Op::OpBitwiseAnd, ctx.types.Id(v4),
                               {ints, ctx.types.Splat(v4, 0x1ff)});
  const uint32_t centred =
      fn.Op(Op::OpISub, ctx.types.Id(v4), {small, ctx.types.Splat(v4, 256)});
  const ValueType f4 = FloatT(32, 4);
  const uint32_t as_float =
      fn.Op(Op::OpConvertSToF, ctx.types.Id(f4), {centred});
  return fn.Op(Op::OpVectorTimesScalar, ctx.types.Id(f4),
               {as_float, FloatConst(ctx, 1.0 / 64)});
}

void Queries(GenContext& ctx, const ImageResource& img) {
  // PoCL 3.1's kernel library calls an undefined _cl_get_image_* for every
  // query of an image1d_buffer_t: loading the kernel aborts
  // (known-consumer-bugs/pocl_image1d_buffer_query).
  if (img.desc.dim == ImageDim::k1DBuffer &&
      !ctx.BugsAllowed(KnownBugId::kPoclImage1dBufferQuery))
    return;
  FunctionEmitter& fn = *ctx.fn;
  const uint32_t u32 = ctx.types.Id(IntT(32));
  if (ctx.rng.Percent(60)) {
    const uint32_t n = spirv::SizeQueryCount(img.desc.dim);
    const ValueType t = IntT(32, static_cast<uint8_t>(n));
    const uint32_t size =
        img.desc.dim == ImageDim::k1DBuffer
            ? fn.Op(Op::OpImageQuerySize, ctx.types.Id(t), {img.param})
            : fn.Op(Op::OpImageQuerySizeLod, ctx.types.Id(t),
                    {img.param, ctx.types.U32(0)});
    AddValue(ctx, size, t);
    SinkValue(ctx, Value{size, t});
  }
  // llvm-spirv 14 -r subtracts the CL_* offset (0x10D0 / 0x10B0) from
  // get_image_channel_data_type/order for the first use of the query only
  // (known-consumer-bugs/llvm_spirv_image_query_offset): unless that bug is
  // allowed, the query's single use is an OpBitwiseOr with 0 that carries
  // the value to every other use.
  const bool single_use =
      !ctx.BugsAllowed(KnownBugId::kLlvmSpirvImageQueryOffset);
  for (const Op query : {Op::OpImageQueryFormat, Op::OpImageQueryOrder}) {
    if (!ctx.rng.Percent(30)) continue;
    uint32_t value = fn.Op(query, u32, {img.param});
    if (single_use)
      value = fn.Op(Op::OpBitwiseOr, u32, {value, ctx.types.U32(0)});
    AddValue(ctx, value, IntT(32));
    SinkValue(ctx, Value{value, IntT(32)});
  }
}

}  // namespace

void PlanImages(GenContext& ctx, KernelResources& k, spirv::TestCase& tc,
                std::vector<uint32_t>& param_types) {
  const uint32_t count = ctx.rng.Range(1, 3);
  for (uint32_t n = 0; n < count; ++n) {
    ImageResource img;
    const uint32_t roll = ctx.rng.Below(100);
    const bool rw_ok = !ctx.features.non_uniform;
    if (roll < 40) {
      img.role = Role::kSampled;
    } else if (roll < 60) {
      img.role = Role::kRead;
    } else if (roll < 80 || !rw_ok) {
      img.role = Role::kWrite;
    } else {
      img.role = Role::kReadWrite;
    }
    switch (img.role) {
      case Role::kSampled:
        img.desc = ReadImageDesc(ctx, true);
        break;
      case Role::kRead:
        img.desc = ReadImageDesc(ctx, false);
        break;
      case Role::kWrite:
        img.desc = OwnedImageDesc(ctx, k, tc.nd_range, false);
        break;
      case Role::kReadWrite:
        img.desc = OwnedImageDesc(ctx, k, tc.nd_range, true);
        break;
    }
    spirv::KernelArg arg;
    arg.kind = spirv::KernelArg::Kind::kImage;
    arg.image = img.desc;
    arg.bytes = spirv::ImageTexelsFromSeed(img.desc, ctx.rng.Next());
    arg.is_result = img.role == Role::kWrite || img.role == Role::kReadWrite;
    arg.type = "image";
    tc.args.push_back(std::move(arg));
    img.arg = static_cast<uint32_t>(tc.args.size() - 1);
    img.type = ImageType(ctx, img.desc.dim, img.desc.access);
    param_types.push_back(img.type);
    if (img.role == Role::kSampled && ctx.rng.Percent(60)) {
      img.sampler = RandomSampler(ctx, IsIntegerImage(img.desc));
      spirv::KernelArg sarg;
      sarg.kind = spirv::KernelArg::Kind::kSampler;
      sarg.sampler = img.sampler;
      sarg.type = "sampler";
      tc.args.push_back(std::move(sarg));
      img.sampler_arg = static_cast<int32_t>(tc.args.size() - 1);
      param_types.push_back(SamplerType(ctx));
    }
    k.images.push_back(img);
  }
}

void GenImageOps(GenContext& ctx) {
  KernelResources& k = *ctx.kernel;
  // Phase 1: reads, writes of owned texels, queries; read-write images
  // write their own texel.
  std::vector<std::pair<const ImageResource*, uint32_t>> neighbours;
  for (const ImageResource& img : k.images) {
    Queries(ctx, img);
    switch (img.role) {
      case Role::kSampled:
        for (uint32_t i = ctx.rng.Range(1, 3); i > 0; --i)
          SampledRead(ctx, img);
        break;
      case Role::kRead:
        for (uint32_t i = ctx.rng.Range(1, 3); i > 0; --i) {
          const uint32_t coordinate = InRangeCoordinates(ctx, img.desc);
          PlainRead(ctx, img, coordinate);
        }
        break;
      case Role::kWrite: {
        const uint32_t index = U32Of(ctx, k.linear_id);
        const uint32_t texel = TexelOf(ctx, img.desc, index);
        const uint32_t value = WriteValue(ctx, img.desc);
        ctx.fn->Void(Op::OpImageWrite, {Id(img.param), Id(texel), Id(value)});
        break;
      }
      case Role::kReadWrite: {
        // Texel (local index, group) of a width-group_size image; a 1D
        // image flattens the two.
        FunctionEmitter& fn = *ctx.fn;
        const ValueType v3 = IntT(64, 3);
        const uint32_t u64 = ctx.types.Id(IntT(64));
        const uint32_t u32 = ctx.types.Id(IntT(32));
        const uint32_t local = U32Of(
            ctx, k.load_builtin(spv::BuiltIn::LocalInvocationIndex, IntT(64)));
        const uint32_t gid = k.load_builtin(spv::BuiltIn::WorkgroupId, v3);
        const uint32_t groups = k.load_builtin(spv::BuiltIn::NumWorkgroups, v3);
        auto component = [&](uint32_t v, uint32_t i) {
          return fn.OpWith(Op::OpCompositeExtract, u64, {Id(v), Lit(i)});
        };
        uint32_t group = component(gid, 2);
        for (int d = 1; d >= 0; --d) {
          const uint32_t n = component(groups, static_cast<uint32_t>(d));
          group = fn.Op(Op::OpIMul, u64, {group, n});
          const uint32_t g = component(gid, static_cast<uint32_t>(d));
          group = fn.Op(Op::OpIAdd, u64, {group, g});
        }
        const uint32_t group32 = U32Of(ctx, group);
        const uint32_t size = static_cast<uint32_t>(k.group_size);
        const uint32_t next = Wrap(ctx, local, 1, size);
        auto texel = [&](uint32_t x) {
          if (img.desc.dim == ImageDim::k2D)
            return Vector(ctx, IntT(32), {x, group32});
          const uint32_t row =
              fn.Op(Op::OpIMul, u32, {group32, ctx.types.U32(size)});
          return fn.Op(Op::OpIAdd, u32, {row, x});
        };
        const uint32_t own = texel(local);
        const uint32_t value = WriteValue(ctx, img.desc);
        fn.Void(Op::OpImageWrite, {Id(img.param), Id(own), Id(value)});
        neighbours.emplace_back(&img, texel(next));
        break;
      }
    }
  }
  if (neighbours.empty()) return;
  // Phase 2: after the image barrier, read a neighbour's texel.
  // Oclgrind 21.10 reports a read-write race across a barrier whose only
  // fence is CLK_IMAGE_MEM_FENCE (known-consumer-bugs/
  // oclgrind_image_fence_race; quiet on a global fence): also
  // CrossWorkgroupMemory unless that bug is allowed.
  const uint32_t semantics =
      kImageBarrierSemantics |
      (ctx.BugsAllowed(KnownBugId::kOclgrindImageFenceRace)
           ? 0
           : kCrossWorkgroupMemory);
  if (!ctx.GuardOn(kGuardImageBarrier)) {
    for (const auto& [img, coordinate] : neighbours)
      PlainRead(ctx, *img, coordinate);
    return;
  }
  ctx.fn->Void(Op::OpControlBarrier, {Id(ctx.types.U32(kScopeWorkgroup)),
                                      Id(ctx.types.U32(kScopeWorkgroup)),
                                      Id(ctx.types.U32(semantics))});
  for (const auto& [img, coordinate] : neighbours)
    PlainRead(ctx, *img, coordinate);
}

}  // namespace l0spv::generators::kernel
