// OpenCL.std vloadn / vstoren and the half variants.
#include "absl/strings/str_cat.h"
#include "oracles/reference/memory.h"
#include "oracles/reference/opencl_std.h"
#include "oracles/reference/opencl_std_lanes.h"
#include "spirv/unified1/OpenCL.std.h"

namespace l0spv::oracles::reference {
namespace {

using namespace OpenCLLIB;  // NOLINT: the instruction numbers

uint64_t PointerAt(const ExtContext& c, const ExtArg& ptr, uint64_t delta) {
  uint64_t p;
  std::memcpy(&p, c.regs + ptr.slot, 8);
  return (p & 0xFFFFFFFF00000000ull) |
         static_cast<uint32_t>(PointerOffset(p) + delta);
}

}  // namespace

bool OpenClVloadHandler(ExtContext& c, const ExtCall& call) {
  const uint32_t n = call.number;
  const uint64_t offset = lanes::Raw(c, call.args[0], 0);
  const ExtArg& ptr = call.args[1];
  const uint32_t count = n == Vload_half ? 1 : call.lanes;
  if (n == Vloadn) {
    const uint32_t eb = KindBytes(call.kind);
    if (ptr.kind != call.kind)
      return c.Fail(ExecutionStatus::kUnsupported, "unsupported instruction",
                    "vloadn through a pointer to another type");
    uint8_t* src =
        c.Access(PointerAt(c, ptr, offset * count * eb), count * eb, eb, false);
    if (src == nullptr) return false;
    std::memcpy(c.regs + call.result, src, count * eb);
    return true;
  }
  // Half loads: the pointer is to half (or ushort) elements.
  const uint32_t stride = (n == Vloada_halfn && count == 3) ? 4 : count;
  const uint32_t align = n == Vloada_halfn ? 2 * stride : 2;
  uint8_t* src =
      c.Access(PointerAt(c, ptr, offset * stride * 2), count * 2, align, false);
  if (src == nullptr) return false;
  for (uint32_t l = 0; l < count; ++l) {
    uint16_t h;
    std::memcpy(&h, src + 2 * l, 2);
    lanes::StoreFloat(c, call.result, call.kind, static_cast<int>(l),
                      HalfToFloat(h));
  }
  return true;
}

bool OpenClVstoreHandler(ExtContext& c, const ExtCall& call) {
  const uint32_t n = call.number;
  const ExtArg& data = call.args[0];
  const uint64_t offset = lanes::Raw(c, call.args[1], 0);
  const ExtArg& ptr = call.args[2];
  const uint32_t count = data.lanes;
  if (n == Vstoren) {
    const uint32_t eb = KindBytes(data.kind);
    if (ptr.kind != data.kind)
      return c.Fail(ExecutionStatus::kUnsupported, "unsupported instruction",
                    "vstoren through a pointer to another type");
    uint8_t* dst =
        c.Access(PointerAt(c, ptr, offset * count * eb), count * eb, eb, true);
    if (dst == nullptr) return false;
    std::memcpy(dst, c.regs + data.slot, count * eb);
    return true;
  }
  if (data.kind != kF32 && data.kind != kF64)
    return c.Fail(ExecutionStatus::kUnsupported, "unsupported instruction",
                  "vstore_half of a non-float value");
  const bool aligned = n == Vstorea_halfn || n == Vstorea_halfn_r;
  const uint32_t stride = (aligned && count == 3) ? 4 : count;
  const uint32_t align = aligned ? 2 * stride : 2;
  uint8_t* dst =
      c.Access(PointerAt(c, ptr, offset * stride * 2), count * 2, align, true);
  if (dst == nullptr) return false;
  const RoundMode mode =
      (n == Vstore_half_r || n == Vstore_halfn_r || n == Vstorea_halfn_r)
          ? call.mode
          : RoundMode::kRte;
  for (uint32_t l = 0; l < count; ++l) {
    const long double v = lanes::Float(c, data, static_cast<int>(l));
    const uint16_t h = data.kind == kF32
                           ? FloatToHalf(static_cast<float>(v), mode)
                           : DoubleToHalf(static_cast<double>(v), mode);
    std::memcpy(dst + 2 * l, &h, 2);
  }
  return true;
}

}  // namespace l0spv::oracles::reference
