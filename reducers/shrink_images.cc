#include "reducers/shrink_images.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "oracles/known_bugs/image_format_bugs.h"
#include "reducers/module_edit.h"
#include "spirv/binary.h"
#include "spirv/grammar.h"
#include "spirv/image_format.h"
#include "spirv/numeric_bits.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::reducers {
namespace {

using spirv::AddressingMode;
using spirv::ChannelClass;
using spirv::ImageDesc;
using spirv::KernelArg;
using spirv::TestCase;
namespace order = spirv::channel_order;
namespace type = spirv::channel_type;

// Extent k of the storage order (see spirv::StorageExtent) set to v.
void SetStorageExtent(ImageDesc& d, int k, uint64_t v) {
  using spirv::ImageDim;
  if (k == 0) {
    d.width = v;
  } else if (k == 1) {
    (d.dim == ImageDim::k1DArray ? d.array_size : d.height) = v;
  } else {
    (d.dim == ImageDim::k2DArray ? d.array_size : d.depth) = v;
  }
}

bool Valid(const ImageDesc& d) {
  return spirv::ValidateImageDesc(d, std::numeric_limits<uint64_t>::max()).ok();
}

// Logical channel (0 r, 1 g, 2 b, 3 a) of each stored position; -1 ends.
// Intensity and luminance are handled by the caller.
std::array<int, 4> LogicalChannels(uint32_t o) {
  switch (o) {
    case order::kR:
      return {0, -1, -1, -1};
    case order::kA:
      return {3, -1, -1, -1};
    case order::kRG:
      return {0, 1, -1, -1};
    case order::kRA:
      return {0, 3, -1, -1};
    case order::kRGB:
      return {0, 1, 2, -1};
    case order::kBGRA:
    case order::kSBGRA:
      return {2, 1, 0, 3};
    case order::kARGB:
      return {3, 0, 1, 2};
    case order::kABGR:
      return {3, 2, 1, 0};
    default:  // RGBA, sRGBA
      return {0, 1, 2, 3};
  }
}

// A stored channel's value as the kernel reads it (before sRGB decoding,
// which the simplified UnormInt8 image then no longer applies: a format
// change is a candidate like any other, kept only if still interesting).
double Normalized(uint32_t t, uint32_t raw, int field) {
  switch (t) {
    case type::kUnormInt8:
      return raw / 255.0;
    case type::kUnormInt16:
      return raw / 65535.0;
    case type::kSnormInt8:
      return std::max(-1.0, static_cast<int8_t>(raw) / 127.0);
    case type::kSnormInt16:
      return std::max(-1.0, static_cast<int16_t>(raw) / 32767.0);
    case type::kUnormShort565:
      return raw / (field == 1 ? 63.0 : 31.0);
    case type::kUnormShort555:
      return raw / 31.0;
    default:  // UnormInt101010
      return raw / 1023.0;
  }
}

int64_t SignExtend(uint32_t t, uint32_t raw) {
  if (t == type::kSignedInt8) return static_cast<int8_t>(raw);
  if (t == type::kSignedInt16) return static_cast<int16_t>(raw);
  return static_cast<int32_t>(raw);
}

// One texel of `from` as four logical channels in the raw encoding of
// `to_type` (UnormInt8 / Float bits / SignedInt32 / UnsignedInt32).
std::array<uint32_t, 4> Decode(const ImageDesc& from, uint32_t to_type,
                               const uint8_t* texel) {
  const std::array<uint32_t, 4> stored =
      spirv::UnpackStoredChannels(from.order, from.type, texel);
  const ChannelClass cls = spirv::ClassOfChannelType(from.type);
  auto convert = [&](uint32_t raw, int field) -> uint32_t {
    switch (cls) {
      case ChannelClass::kNormalized: {
        const double v =
            std::clamp(Normalized(from.type, raw, field), 0.0, 1.0);
        return static_cast<uint32_t>(std::lround(v * 255.0));
      }
      case ChannelClass::kHalf: {
        const float f = spirv::HalfToFloat(static_cast<uint16_t>(raw));
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        return bits;
      }
      case ChannelClass::kSigned:
        return static_cast<uint32_t>(SignExtend(from.type, raw));
      default:  // unsigned, float: the bits as they are
        return raw;
    }
  };
  // The value 1 in the target encoding (alpha of orders without one).
  uint32_t one = 1;
  if (to_type == type::kUnormInt8) one = 255;
  if (to_type == type::kFloat) one = 0x3f800000u;
  std::array<uint32_t, 4> out{0, 0, 0, one};
  if (from.order == order::kIntensity) {
    out.fill(convert(stored[0], 0));
  } else if (from.order == order::kLuminance) {
    const uint32_t l = convert(stored[0], 0);
    out = {l, l, l, one};
  } else {
    const std::array<int, 4> logical = LogicalChannels(from.order);
    for (int i = 0; i < 4 && logical[i] >= 0; ++i)
      out[logical[i]] = convert(stored[i], i);
  }
  return out;
}

// The plainest channel type read by the same function as `t`.
uint32_t PlainType(uint32_t t) {
  switch (spirv::ClassOfChannelType(t)) {
    case ChannelClass::kNormalized:
      return type::kUnormInt8;
    case ChannelClass::kSigned:
      return type::kSignedInt32;
    case ChannelClass::kUnsigned:
      return type::kUnsignedInt32;
    default:
      return type::kFloat;
  }
}

int OrderRank(uint32_t o) {
  return o == order::kR ? 0 : o == order::kRGBA ? 1 : 2;
}

bool AnyNonZero(const std::vector<uint8_t>& bytes) {
  return std::any_of(bytes.begin(), bytes.end(),
                     [](uint8_t b) { return b != 0; });
}

// The module with OpConstantSampler `index` (in types_values order) moved
// one step towards Nearest / ClampToEdge, or nullopt when it is plain.
std::optional<TestCase> PlainerLiteralSampler(const TestCase& tc,
                                              spirv::Module module,
                                              size_t index) {
  spirv::Instruction& inst = module.types_values[index];
  for (spirv::Operand& op : inst.mutable_operands()) {
    if (op.words.size() != 1) continue;
    if (op.kind == spirv::OperandKind::kSamplerFilterMode &&
        op.words[0] == static_cast<uint32_t>(spirv::FilterMode::kLinear)) {
      op.words[0] = static_cast<uint32_t>(spirv::FilterMode::kNearest);
      return WithModule(tc, module);
    }
  }
  for (spirv::Operand& op : inst.mutable_operands()) {
    if (op.words.size() != 1 ||
        op.kind != spirv::OperandKind::kSamplerAddressingMode)
      continue;
    const auto mode = static_cast<AddressingMode>(op.words[0]);
    if (mode == AddressingMode::kClampToEdge || mode == AddressingMode::kNone)
      return std::nullopt;
    op.words[0] = static_cast<uint32_t>(AddressingMode::kClampToEdge);
    return WithModule(tc, module);
  }
  return std::nullopt;
}

bool ShrinkLiteralSamplers(TestCase& current,
                           absl::FunctionRef<bool(const TestCase&)> keep,
                           absl::FunctionRef<bool()> expired) {
  auto module = spirv::ReadModuleWords(current.module_words);
  if (!module.ok()) return false;
  bool progress = false;
  for (size_t i = 0; i < module->types_values.size() && !expired(); ++i) {
    if (module->types_values[i].opcode() !=
        static_cast<uint32_t>(spv::Op::OpConstantSampler))
      continue;
    // Up to two steps per sampler (filter, then addressing).
    for (int step = 0; step < 2 && !expired(); ++step) {
      std::optional<TestCase> c = PlainerLiteralSampler(current, *module, i);
      if (!c || !keep(*c)) break;
      current = *std::move(c);
      progress = true;
      auto again = spirv::ReadModuleWords(current.module_words);
      if (!again.ok()) return progress;
      *module = std::move(*again);
    }
  }
  return progress;
}

}  // namespace

std::vector<uint8_t> ResizeTexels(const ImageDesc& from,
                                  const std::vector<uint8_t>& texels,
                                  const ImageDesc& to) {
  const uint64_t tb = spirv::TexelBytes(from.order, from.type);
  const auto fe = spirv::StorageExtent(from);
  const auto te = spirv::StorageExtent(to);
  std::vector<uint8_t> out(spirv::ImageBytes(to), 0);
  for (uint64_t z = 0; z < std::min(fe[2], te[2]); ++z) {
    for (uint64_t y = 0; y < std::min(fe[1], te[1]); ++y) {
      const uint64_t src = ((z * fe[1] + y) * fe[0]) * tb;
      const uint64_t dst = ((z * te[1] + y) * te[0]) * tb;
      const uint64_t n = std::min(fe[0], te[0]) * tb;
      if (src + n <= texels.size() && dst + n <= out.size())
        std::memcpy(out.data() + dst, texels.data() + src, n);
    }
  }
  return out;
}

std::vector<uint8_t> ReencodeTexels(const ImageDesc& from,
                                    const std::vector<uint8_t>& texels,
                                    const ImageDesc& to) {
  const uint64_t fb = spirv::TexelBytes(from.order, from.type);
  const uint64_t tb = spirv::TexelBytes(to.order, to.type);
  const uint32_t cb = spirv::ChannelTypeBytes(to.type);
  const uint64_t count = spirv::TexelCount(from);
  std::vector<uint8_t> out(count * tb, 0);
  for (uint64_t i = 0; i < count && (i + 1) * fb <= texels.size(); ++i) {
    const std::array<uint32_t, 4> c = Decode(from, to.type, &texels[i * fb]);
    const std::array<int, 4> logical = LogicalChannels(to.order);
    for (int k = 0; k < 4 && logical[k] >= 0; ++k)
      std::memcpy(&out[i * tb + k * cb], &c[logical[k]], cb);
  }
  return out;
}

bool ShrinkImageArguments(TestCase& current,
                          absl::FunctionRef<bool(const TestCase&)> keep,
                          absl::FunctionRef<bool()> expired, uint32_t avoid) {
  bool progress = false;
  auto attempt = [&](const TestCase& c) {
    if (!keep(c)) return false;
    current = c;
    progress = true;
    return true;
  };
  for (size_t i = 0; i < current.args.size() && !expired(); ++i) {
    if (current.args[i].kind == KernelArg::Kind::kSampler) {
      const spirv::SamplerDesc s = current.args[i].sampler;
      if (s.filter == spirv::FilterMode::kLinear) {
        TestCase c = current;
        c.args[i].sampler.filter = spirv::FilterMode::kNearest;
        attempt(c);
      }
      const spirv::AddressingMode a = current.args[i].sampler.addressing;
      if (!expired() && a != spirv::AddressingMode::kClampToEdge &&
          a != spirv::AddressingMode::kNone) {
        TestCase c = current;
        c.args[i].sampler.addressing = spirv::AddressingMode::kClampToEdge;
        attempt(c);
      }
      continue;
    }
    if (current.args[i].kind != KernelArg::Kind::kImage) continue;
    // Extents, halved one storage axis at a time.
    for (int k = 0; k < 3; ++k) {
      while (!expired()) {
        const KernelArg& a = current.args[i];
        const uint64_t extent = spirv::StorageExtent(a.image)[k];
        // OpenCL's clCreateImage wants a 3D image at least 2 deep (a 2D
        // image is the 1-deep case): below that, consumers refuse the case.
        const uint64_t floor =
            k == 2 && a.image.dim == spirv::ImageDim::k3D ? 2 : 1;
        if (extent <= floor) break;
        TestCase c = current;
        SetStorageExtent(c.args[i].image, k, extent / 2);
        if (!Valid(c.args[i].image)) break;
        c.args[i].bytes = ResizeTexels(a.image, a.bytes, c.args[i].image);
        if (!attempt(c)) break;
      }
    }
    if (!expired() && AnyNonZero(current.args[i].bytes)) {
      TestCase c = current;
      std::fill(c.args[i].bytes.begin(), c.args[i].bytes.end(), 0);
      attempt(c);
    }
    // Format: the first plainer candidate kept wins.
    const ImageDesc d = current.args[i].image;
    const uint32_t plain = PlainType(d.type);
    std::vector<uint32_t> orders = {order::kR, order::kRGBA};
    if (OrderRank(d.order) == 2) orders.push_back(d.order);
    for (uint32_t o : orders) {
      if (expired()) break;
      ImageDesc to = d;
      to.order = o;
      to.type = plain;
      if (to == d || OrderRank(o) > OrderRank(d.order) || !Valid(to) ||
          oracles::KnownBugOfImageFormat(to.order, to.type, avoid))
        continue;
      TestCase c = current;
      c.args[i].image = to;
      c.args[i].bytes = ReencodeTexels(d, current.args[i].bytes, to);
      if (attempt(c)) break;
    }
  }
  if (!expired() && ShrinkLiteralSamplers(current, keep, expired))
    progress = true;
  return progress;
}

namespace {

class ShrinkImagesStage : public Stage {
 public:
  std::string name() const override { return "shrink-images"; }
  bool Run(ReductionContext& ctx) override {
    TestCase current = ctx.current();
    return ShrinkImageArguments(
        current, [&ctx](const TestCase& c) { return ctx.Try(c); },
        [&ctx] { return ctx.Expired(); }, ctx.oracle().consumers());
  }
};

}  // namespace

std::unique_ptr<Stage> MakeShrinkImagesStage() {
  return std::make_unique<ShrinkImagesStage>();
}

}  // namespace l0spv::reducers
