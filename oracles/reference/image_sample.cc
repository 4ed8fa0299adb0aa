// oracles/reference/image_sample.cc — see image_sample.h. The formulas are
// the OpenCL 1.2 specification's §8.2 (written from the text, per axis).
#include "oracles/reference/image_sample.h"

#include <algorithm>
#include <cmath>

namespace l0spv::oracles::reference {
namespace {

using spirv::AddressingMode;
using spirv::FilterMode;
using spirv::ImageDim;

// Where the coordinates go: `spatial` axes first (storage axes 0..), then
// an optional layer coordinate stored on axis `layer_axis`.
struct Shape {
  int spatial = 1;
  int layer_axis = -1;
  int coords = 1;
};

inline Shape ShapeOf(ImageDim dim) {
  switch (dim) {
    case ImageDim::k1DArray:
      return {1, 1, 2};
    case ImageDim::k2D:
      return {2, -1, 2};
    case ImageDim::k2DArray:
      return {2, 2, 3};
    case ImageDim::k3D:
      return {3, -1, 3};
    default:  // 1D, 1D buffer
      return {1, -1, 1};
  }
}

// floor(u) as an index; u is not NaN. Extents are far below 2^30, so
// clamping keeps the conversion defined without changing any result.
inline int64_t FloorIndex(float u) {
  return static_cast<int64_t>(std::floor(std::clamp(u, -1.0e9f, 1.0e9f)));
}

struct Axis {
  int64_t i0 = 0, i1 = 0;
  float a = 0.0f;  // weight of i1 (linear)
};

// One spatial axis of extent w. False for a NaN coordinate.
inline bool Locate(float s, int64_t w, const spirv::SamplerDesc& smp,
                   Axis* ax) {
  const bool linear = smp.filter == FilterMode::kLinear;
  float u;
  switch (smp.addressing) {
    case AddressingMode::kRepeat: {
      const float sp = s - std::floor(s);
      u = sp * static_cast<float>(w);
      if (std::isnan(u)) return false;
      if (!linear) {
        ax->i0 = FloorIndex(u);
        if (ax->i0 > w - 1) ax->i0 -= w;
        return true;
      }
      const float v = u - 0.5f;
      ax->i0 = FloorIndex(v);
      ax->i1 = ax->i0 + 1;
      ax->a = v - std::floor(v);
      if (ax->i0 < 0) ax->i0 += w;
      if (ax->i1 > w - 1) ax->i1 -= w;
      return true;
    }
    case AddressingMode::kRepeatMirrored: {
      float sp = 2.0f * std::rint(0.5f * s);
      sp = std::fabs(s - sp);
      u = sp * static_cast<float>(w);
      if (std::isnan(u)) return false;
      if (!linear) {
        ax->i0 = std::min(FloorIndex(u), w - 1);
        return true;
      }
      const float v = u - 0.5f;
      ax->i0 = std::max<int64_t>(FloorIndex(v), 0);
      ax->i1 = std::min<int64_t>(FloorIndex(v) + 1, w - 1);
      ax->a = v - std::floor(v);
      return true;
    }
    default:
      break;
  }
  u = smp.normalized ? s * static_cast<float>(w) : s;
  if (std::isnan(u)) return false;
  int64_t lo = 0, hi = w - 1;  // clamp to edge
  if (smp.addressing == AddressingMode::kClamp) lo = -1, hi = w;
  if (!linear) {
    ax->i0 = FloorIndex(u);
    if (smp.addressing != AddressingMode::kNone)
      ax->i0 = std::clamp(ax->i0, lo, hi);
    return true;
  }
  const float v = u - 0.5f;
  ax->i0 = FloorIndex(v);
  ax->i1 = ax->i0 + 1;
  ax->a = v - std::floor(v);
  if (smp.addressing != AddressingMode::kNone) {
    ax->i0 = std::clamp(ax->i0, lo, hi);
    ax->i1 = std::clamp(ax->i1, lo, hi);
  }
  return true;
}

inline bool InRange(int64_t i, uint64_t w) {
  return i >= 0 && static_cast<uint64_t>(i) < w;
}

// Shared set-up of a sampled read: per-axis locations and the layer.
struct Located {
  Shape shape;
  Axis axis[3];
  int64_t layer = 0;
};

bool LocateAll(const ImageState& img, const spirv::SamplerDesc& smp,
               const float* coord, Located* L, SampleFault* fault) {
  L->shape = ShapeOf(img.desc.dim);
  fault->axes = L->shape.coords;
  if (!smp.normalized && (smp.addressing == AddressingMode::kRepeat ||
                          smp.addressing == AddressingMode::kRepeatMirrored)) {
    fault->check =
        "repeat or mirrored-repeat addressing with unnormalized coordinates";
    return false;
  }
  for (int d = 0; d < L->shape.spatial; ++d) {
    if (!Locate(coord[d], static_cast<int64_t>(img.extent[d]), smp,
                &L->axis[d])) {
      fault->check = "NaN image coordinate";
      return false;
    }
  }
  if (L->shape.layer_axis >= 0) {
    const float s = coord[L->shape.spatial];
    if (std::isnan(s)) {
      fault->check = "NaN image coordinate";
      return false;
    }
    const int64_t layers =
        static_cast<int64_t>(img.extent[L->shape.layer_axis]);
    L->layer = std::clamp<int64_t>(FloorIndex(std::rint(s)), 0, layers - 1);
  }
  return true;
}

// The texel at spatial indices i[0..spatial) and the layer; out of range
// reads the border (clamp) or is undefined (none).
template <typename Decode, typename T>
bool Fetch(const ImageState& img, const spirv::SamplerDesc& smp,
           const Located& L, const int64_t* i, Decode decode, T out[4],
           SampleFault* fault) {
  uint64_t pos[3] = {0, 0, 0};
  for (int d = 0; d < L.shape.spatial; ++d) {
    if (!InRange(i[d], img.extent[d])) {
      if (smp.addressing == AddressingMode::kNone) {
        fault->check = "image read outside the image with addressing mode None";
        for (int k = 0; k < L.shape.spatial; ++k) fault->texel[k] = i[k];
        if (L.shape.layer_axis >= 0) fault->texel[L.shape.spatial] = L.layer;
        return false;
      }
      out[0] = out[1] = out[2] = T(0);
      out[3] = BorderAlphaIsOne(img.format.order) ? T(1) : T(0);
      return true;
    }
    pos[d] = static_cast<uint64_t>(i[d]);
  }
  if (L.shape.layer_axis >= 0) pos[L.shape.layer_axis] = L.layer;
  const uint64_t index =
      (pos[2] * img.extent[1] + pos[1]) * img.extent[0] + pos[0];
  decode(img.format, img.texels.data() + index * img.format.bytes, out);
  return true;
}

}  // namespace

bool SampleFloat(const ImageState& img, const spirv::SamplerDesc& smp,
                 const float* coord, float out[4], SampleFault* fault) {
  Located L;
  if (!LocateAll(img, smp, coord, &L, fault)) return false;
  if (smp.filter == FilterMode::kNearest) {
    const int64_t i[3] = {L.axis[0].i0, L.axis[1].i0, L.axis[2].i0};
    return Fetch(img, smp, L, i, DecodeTexelFloat, out, fault);
  }
  // Linear: sum over the 2^spatial corners, weight = product over axes of
  // (1 - a) for i0 and a for i1. A corner of weight 0 is not read.
  const int n = L.shape.spatial;
  float acc[4] = {0, 0, 0, 0};
  for (int corner = 0; corner < (1 << n); ++corner) {
    int64_t i[3] = {0, 0, 0};
    float w = 1.0f;
    for (int d = 0; d < n; ++d) {
      const bool hi = (corner >> d) & 1;
      i[d] = hi ? L.axis[d].i1 : L.axis[d].i0;
      w *= hi ? L.axis[d].a : 1.0f - L.axis[d].a;
    }
    if (w == 0.0f) continue;
    float t[4];
    if (!Fetch(img, smp, L, i, DecodeTexelFloat, t, fault)) return false;
    for (int c = 0; c < 4; ++c) acc[c] += w * t[c];
  }
  for (int c = 0; c < 4; ++c) out[c] = acc[c];
  return true;
}

bool SampleInt(const ImageState& img, const spirv::SamplerDesc& smp,
               const float* coord, uint32_t out[4], SampleFault* fault) {
  if (smp.filter == FilterMode::kLinear) {
    fault->check = "linear filtering of an integer image";
    fault->axes = 0;
    return false;
  }
  Located L;
  if (!LocateAll(img, smp, coord, &L, fault)) return false;
  const int64_t i[3] = {L.axis[0].i0, L.axis[1].i0, L.axis[2].i0};
  return Fetch(img, smp, L, i, DecodeTexelInt, out, fault);
}

bool TexelOffset(const ImageState& img, const int64_t* c, uint64_t* offset,
                 SampleFault* fault) {
  const Shape shape = ShapeOf(img.desc.dim);
  uint64_t pos[3] = {0, 0, 0};
  bool ok = true;
  for (int d = 0; d < shape.spatial; ++d) {
    ok &= InRange(c[d], img.extent[d]);
    pos[d] = static_cast<uint64_t>(c[d]);
  }
  if (shape.layer_axis >= 0) {
    const int64_t l = c[shape.spatial];
    ok &= InRange(l, img.extent[shape.layer_axis]);
    pos[shape.layer_axis] = static_cast<uint64_t>(l);
  }
  if (!ok) {
    fault->axes = shape.coords;
    for (int d = 0; d < shape.coords; ++d) fault->texel[d] = c[d];
    return false;
  }
  *offset = ((pos[2] * img.extent[1] + pos[1]) * img.extent[0] + pos[0]) *
            img.format.bytes;
  return true;
}

}  // namespace l0spv::oracles::reference
