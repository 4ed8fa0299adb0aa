#include "spirv/image_json.h"

#include "absl/strings/str_cat.h"

namespace l0spv::spirv {

nlohmann::json ImageDescToJson(const ImageDesc& d) {
  return {{"dim", ImageDimName(d.dim)},
          {"order", ChannelOrderName(d.order)},
          {"type", ChannelTypeName(d.type)},
          {"width", d.width},
          {"height", d.height},
          {"depth", d.depth},
          {"array_size", d.array_size},
          {"access", ImageAccessName(d.access)}};
}

nlohmann::json SamplerDescToJson(const SamplerDesc& s) {
  return {{"normalized", s.normalized},
          {"addressing", AddressingModeName(s.addressing)},
          {"filter", FilterModeName(s.filter)}};
}

namespace {

// Parses a named enumerant field, failing the field with the parser's text.
template <typename T, typename Parse>
T ReadNamed(JsonField field, T fallback, Parse parse, bool required) {
  if (!required && !field.present()) return fallback;
  const std::string name = field.String();
  if (name.empty()) return fallback;  // String() recorded the problem
  auto v = parse(name);
  if (!v.ok()) {
    field.Fail(v.status().message());
    return fallback;
  }
  return *v;
}

}  // namespace

ImageDesc ReadImageDesc(JsonField f, uint64_t max_bytes) {
  ImageDesc d;
  if (!f.ExpectObject()) return d;
  d.dim = ReadNamed(f["dim"], d.dim, ParseImageDim, true);
  d.order = ReadNamed(f["order"], d.order, ParseChannelOrder, true);
  d.type = ReadNamed(f["type"], d.type, ParseChannelType, true);
  d.width = f["width"].Uint(1, 1 << 30);
  d.height = f["height"].Uint(1, 1, 1 << 30);
  d.depth = f["depth"].Uint(1, 1, 1 << 30);
  d.array_size = f["array_size"].Uint(1, 1, 1 << 30);
  d.access =
      ReadNamed(f["access"], ImageAccess::kReadOnly, ParseImageAccess, false);
  if (auto s = ValidateImageDesc(d, max_bytes); !s.ok()) {
    // The message starts with "image.FIELD: "; point at that field.
    const std::string text(s.message());
    const size_t dot = text.find('.'), colon = text.find(':');
    if (dot != std::string::npos && colon != std::string::npos && dot < colon) {
      f[text.substr(dot + 1, colon - dot - 1)].Fail(text.substr(colon + 2));
    } else {
      f.Fail(text);
    }
  }
  return d;
}

SamplerDesc ReadSamplerDesc(JsonField f) {
  SamplerDesc s;
  if (!f.ExpectObject()) return s;
  s.normalized = f["normalized"].Bool();
  s.addressing =
      ReadNamed(f["addressing"], s.addressing, ParseAddressingMode, true);
  s.filter = ReadNamed(f["filter"], s.filter, ParseFilterMode, true);
  if (auto st = ValidateSamplerDesc(s); !st.ok()) {
    const std::string text(st.message());
    const size_t dot = text.find('.'), colon = text.find(':');
    f[text.substr(dot + 1, colon - dot - 1)].Fail(text.substr(colon + 2));
  }
  return s;
}

}  // namespace l0spv::spirv
