#include "spirv/launch_spec.h"

#include <charconv>
#include <cstring>
#include <random>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "spirv/binary.h"
#include "spirv/image_json.h"
#include "spirv/json_reader.h"
#include "spirv/numeric_bits.h"

namespace l0spv::spirv {
namespace {

using nlohmann::json;

// Sidecar buffers and --arg buffers share this cap: an interpreter must be
// able to hold them, and a typo ("buf:40000000000") must not OOM the host.
constexpr uint64_t kMaxBufferBytes = uint64_t{1} << 30;

template <typename T>
std::vector<uint8_t> BytesOf(T v) {
  std::vector<uint8_t> out(sizeof(T));
  std::memcpy(out.data(), &v, sizeof(T));
  return out;
}

// Initial contents of a sidecar buffer (`init` already checked).
std::vector<uint8_t> InitBuffer(const std::string& init, uint64_t seed,
                                uint64_t bytes) {
  std::vector<uint8_t> out(bytes, 0);
  if (init == "iota-u8") {
    for (uint64_t i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(i);
  } else if (init == "iota-u32") {
    for (uint64_t i = 0; i + 4 <= bytes; i += 4) {
      const uint32_t v = static_cast<uint32_t>(i / 4);
      std::memcpy(&out[i], &v, 4);
    }
  } else if (init == "iota-f32") {
    for (uint64_t i = 0; i + 4 <= bytes; i += 4) {
      const float v = static_cast<float>(i / 4);
      std::memcpy(&out[i], &v, 4);
    }
  } else if (init == "random") {
    std::mt19937_64 rng(seed);
    for (uint64_t i = 0; i < bytes; i += 8) {
      const uint64_t v = rng();
      std::memcpy(&out[i], &v, std::min<uint64_t>(8, bytes - i));
    }
  }
  return out;
}

absl::StatusOr<uint64_t> ParseSize(absl::string_view text,
                                   absl::string_view spec) {
  uint64_t n = 0;
  if (!absl::SimpleAtoi(text, &n) || n == 0 || n > kMaxBufferBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--arg=", spec, ": expected a size in bytes between 1 and ",
        kMaxBufferBytes));
  }
  return n;
}

// image:DIM:ORDER:TYPE:SIZE[:ACCESS][:seed=N|:@FILE]
absl::StatusOr<KernelArg> ParseImageSpec(absl::string_view spec,
                                         absl::string_view rest) {
  auto bad = [spec](absl::string_view problem) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--arg=", spec, ": ", problem,
        " (expected image:DIM:ORDER:TYPE:WIDTH[xHEIGHT[xDEPTH|xLAYERS]]"
        "[:ACCESS][:seed=N|:@FILE], e.g. image:2d:RGBA:UnormInt8:16x8:"
        "read_only:seed=1)"));
  };
  std::vector<absl::string_view> parts = absl::StrSplit(rest, ':');
  if (parts.size() < 4 || parts.size() > 6) return bad("wrong field count");
  KernelArg arg;
  arg.kind = KernelArg::Kind::kImage;
  ImageDesc& d = arg.image;
  auto dim = ParseImageDim(parts[0]);
  if (!dim.ok()) return bad(dim.status().message());
  d.dim = *dim;
  auto order = ParseChannelOrder(parts[1]);
  if (!order.ok()) return bad(order.status().message());
  d.order = *order;
  auto type = ParseChannelType(parts[2]);
  if (!type.ok()) return bad(type.status().message());
  d.type = *type;
  std::vector<uint64_t> size;
  for (absl::string_view n : absl::StrSplit(parts[3], 'x')) {
    uint64_t v = 0;
    if (!absl::SimpleAtoi(n, &v) || v == 0 || v > (1u << 30))
      return bad(absl::StrCat("'", parts[3], "' is not a size"));
    size.push_back(v);
  }
  if (size.size() != CoordinateCount(d.dim))
    return bad(absl::StrCat("a ", ImageDimName(d.dim), " image takes ",
                            CoordinateCount(d.dim), " size(s)"));
  d.width = size[0];
  if (d.dim == ImageDim::k1DArray) d.array_size = size[1];
  if (d.dim == ImageDim::k2D || d.dim == ImageDim::k2DArray ||
      d.dim == ImageDim::k3D)
    d.height = size[1];
  if (d.dim == ImageDim::k2DArray) d.array_size = size[2];
  if (d.dim == ImageDim::k3D) d.depth = size[2];
  uint64_t seed = 0;
  bool seeded = false;
  std::string file;
  for (size_t i = 4; i < parts.size(); ++i) {
    if (absl::StartsWith(parts[i], "seed=")) {
      if (!absl::SimpleAtoi(parts[i].substr(5), &seed))
        return bad(absl::StrCat("'", parts[i], "' is not seed=NUMBER"));
      seeded = true;
    } else if (absl::StartsWith(parts[i], "@")) {
      file = std::string(parts[i].substr(1));
    } else {
      auto access = ParseImageAccess(parts[i]);
      if (!access.ok()) return bad(access.status().message());
      d.access = *access;
    }
  }
  if (auto s = ValidateImageDesc(d, kMaxBufferBytes); !s.ok())
    return bad(s.message());
  arg.is_result = d.access != ImageAccess::kReadOnly;
  if (!file.empty()) {
    auto bytes = ReadFileBytes(file, kMaxBufferBytes);
    if (!bytes.ok()) return bytes.status();
    if (bytes->size() != ImageBytes(d))
      return bad(absl::StrCat(file, " holds ", bytes->size(),
                              " bytes; the image needs ", ImageBytes(d)));
    arg.bytes = std::move(*bytes);
  } else if (seeded) {
    arg.bytes = ImageTexelsFromSeed(d, seed);
  } else {
    arg.bytes.assign(ImageBytes(d), 0);
  }
  return arg;
}

// sampler:normalized|unnormalized:ADDRESSING:FILTER
absl::StatusOr<KernelArg> ParseSamplerSpec(absl::string_view spec,
                                           absl::string_view rest) {
  auto bad = [spec](absl::string_view problem) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--arg=", spec, ": ", problem,
        " (expected sampler:normalized|unnormalized:ADDRESSING:FILTER, e.g. "
        "sampler:normalized:ClampToEdge:Linear)"));
  };
  std::vector<absl::string_view> parts = absl::StrSplit(rest, ':');
  if (parts.size() != 3) return bad("wrong field count");
  KernelArg arg;
  arg.kind = KernelArg::Kind::kSampler;
  if (parts[0] != "normalized" && parts[0] != "unnormalized")
    return bad(absl::StrCat("'", parts[0],
                            "' is neither normalized nor unnormalized"));
  arg.sampler.normalized = parts[0] == "normalized";
  auto addressing = ParseAddressingMode(parts[1]);
  if (!addressing.ok()) return bad(addressing.status().message());
  arg.sampler.addressing = *addressing;
  auto filter = ParseFilterMode(parts[2]);
  if (!filter.ok()) return bad(filter.status().message());
  arg.sampler.filter = *filter;
  if (auto s = ValidateSamplerDesc(arg.sampler); !s.ok())
    return bad(s.message());
  return arg;
}

}  // namespace

absl::StatusOr<std::vector<uint8_t>> ScalarBytes(absl::string_view type,
                                                 absl::string_view value) {
  const std::string v(value);
  auto bad = [&]() {
    return absl::InvalidArgumentError(
        absl::StrCat("'", value, "' is not a valid ", type,
                     " value (integers: decimal or 0x hex; floats: decimal)"));
  };
  if (type == "f16" || type == "f32" || type == "f64") {
    double d = 0;
    if (!absl::SimpleAtod(v, &d)) return bad();
    if (type == "f64") return BytesOf(d);
    if (type == "f32") return BytesOf(static_cast<float>(d));
    // Straight from the double: through float would round twice.
    return BytesOf(DoubleToHalf(d, RoundMode::kRte));
  }
  int width = 0;
  const bool is_signed = !type.empty() && type[0] == 'i';
  if (type == "i8" || type == "u8") width = 8;
  if (type == "i16" || type == "u16") width = 16;
  if (type == "i32" || type == "u32") width = 32;
  if (type == "i64" || type == "u64") width = 64;
  if (width == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown scalar type '", type,
        "' (i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64)"));
  }
  uint64_t bits = 0;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
    if (!absl::SimpleHexAtoi(v.substr(2), &bits)) return bad();
  } else if (is_signed) {
    int64_t s = 0;
    if (!absl::SimpleAtoi(v, &s)) return bad();
    if (width < 64 &&
        (s < -(int64_t{1} << (width - 1)) || s >= (int64_t{1} << (width - 1))))
      return bad();
    bits = static_cast<uint64_t>(s);
  } else {
    if (!absl::SimpleAtoi(v, &bits)) return bad();
  }
  if (width < 64 && (bits >> width) != 0 && !is_signed) return bad();
  std::vector<uint8_t> out(width / 8);
  std::memcpy(out.data(), &bits, out.size());  // little-endian host
  return out;
}

absl::StatusOr<KernelArg> ParseArgSpec(absl::string_view spec) {
  const size_t colon = spec.find(':');
  if (colon == absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--arg=", spec,
        ": expected KIND:VALUE (buf:BYTES, buf:@FILE, local:BYTES, u32:7, "
        "f32:1.5, ...)"));
  }
  const absl::string_view kind = spec.substr(0, colon);
  const absl::string_view rest = spec.substr(colon + 1);
  if (kind == "image") return ParseImageSpec(spec, rest);
  if (kind == "sampler") return ParseSamplerSpec(spec, rest);
  KernelArg arg;
  if (kind == "buf") {
    arg.kind = KernelArg::Kind::kBuffer;
    arg.is_result = true;
    if (!rest.empty() && rest[0] == '@') {
      auto bytes = ReadFileBytes(std::string(rest.substr(1)));
      if (!bytes.ok()) return bytes.status();
      if (bytes->empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("--arg=", spec, ": the file is empty"));
      }
      arg.bytes = std::move(*bytes);
    } else {
      auto n = ParseSize(rest, spec);
      if (!n.ok()) return n.status();
      arg.bytes.assign(*n, 0);
    }
    return arg;
  }
  if (kind == "local") {
    arg.kind = KernelArg::Kind::kLocal;
    auto n = ParseSize(rest, spec);
    if (!n.ok()) return n.status();
    arg.local_bytes = *n;
    return arg;
  }
  arg.kind = KernelArg::Kind::kScalar;
  arg.type = std::string(kind);
  auto bytes = ScalarBytes(kind, rest);
  if (!bytes.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--arg=", spec, ": ", bytes.status().message()));
  }
  arg.bytes = std::move(*bytes);
  return arg;
}

absl::StatusOr<TestCase> TestCaseFromSidecar(const json& sidecar,
                                             std::vector<uint32_t> module_words,
                                             const std::string& where) {
  JsonReader reader(where, sidecar,
                    "see corpora/README.md for the sidecar format");
  JsonField j = reader.root();
  if (!j.ExpectObject()) return reader.status();
  TestCase tc;
  tc.module_words = std::move(module_words);
  tc.entry_point = j["kernel"].NonEmptyString();
  uint32_t dims = 0;
  auto read_dims = [&](const char* field, std::array<uint64_t, 3>& out) {
    std::vector<JsonField> items = j[field].Array(3);
    if (!reader.ok()) return;
    if (items.empty() || (dims != 0 && items.size() != dims)) {
      j[field].Fail(dims == 0 ? std::string("expected an array of 1–3 sizes")
                              : absl::StrCat("expected ", dims, " sizes"));
      return;
    }
    dims = static_cast<uint32_t>(items.size());
    for (size_t i = 0; i < items.size(); ++i)
      out[i] = items[i].Uint(0, uint64_t{1} << 32);
  };
  read_dims("global", tc.nd_range.global);
  tc.nd_range.dims = dims;
  if (j["local"].present()) {
    std::array<uint64_t, 3> local{1, 1, 1};
    read_dims("local", local);
    tc.nd_range.local = local;
  }
  if (j["offset"].present()) read_dims("offset", tc.nd_range.offset);
  if (!reader.ok()) return reader.status();
  if (auto s = ValidateNdRange(tc.nd_range); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": ", s.message()));
  }
  std::vector<JsonField> args = j["args"].Array(1024, /*required=*/false);
  for (size_t i = 0; i < args.size() && reader.ok(); ++i) {
    JsonField a = args[i];
    if (!a.ExpectObject()) break;
    const std::string at = absl::StrCat(where, ": args[", i, "]");
    const std::string kind = a["kind"].Enum(
        {"buffer", "scalar", "struct", "local", "image", "sampler"});
    KernelArg arg;
    if (kind == "image") {
      arg.kind = KernelArg::Kind::kImage;
      arg.image = ReadImageDesc(a["image"], kMaxBufferBytes);
      const std::string init = a["init"].Enum("zero", {"zero", "random"});
      const uint64_t seed = a["seed"].Uint(0, 0, ~uint64_t{0});
      arg.is_result =
          a["result"].Bool(arg.image.access != ImageAccess::kReadOnly);
      if (!reader.ok()) break;
      arg.bytes = init == "random"
                      ? ImageTexelsFromSeed(arg.image, seed)
                      : std::vector<uint8_t>(ImageBytes(arg.image), 0);
    } else if (kind == "sampler") {
      arg.kind = KernelArg::Kind::kSampler;
      arg.sampler = ReadSamplerDesc(a["sampler"]);
    } else if (kind == "buffer") {
      const uint64_t bytes = a["bytes"].Uint(1, kMaxBufferBytes);
      const std::string init = a["init"].Enum(
          "zero", {"zero", "iota-u8", "iota-u32", "iota-f32", "random"});
      const uint64_t seed = a["seed"].Uint(0, 0, ~uint64_t{0});
      arg.is_result = a["result"].Bool(false);
      if (!reader.ok()) break;
      auto data = InitBuffer(init, seed, bytes);
      arg.kind = KernelArg::Kind::kBuffer;
      arg.bytes = std::move(data);
    } else if (kind == "scalar") {
      arg.kind = KernelArg::Kind::kScalar;
      arg.type = a["type"].String();
      const std::string value = a["value"].String();
      if (!reader.ok()) break;
      auto bytes = ScalarBytes(arg.type, value);
      if (!bytes.ok()) {
        a["value"].Fail(bytes.status().message());
        break;
      }
      arg.bytes = std::move(*bytes);
    } else if (kind == "struct") {
      arg.kind = KernelArg::Kind::kScalar;
      arg.type = "struct";
      const std::string hex = a["bytes_hex"].String();
      if (!reader.ok()) break;
      if (hex.empty() || hex.size() % 2 != 0 || hex.size() > 2 * 4096 ||
          hex.find_first_not_of("0123456789abcdefABCDEF") !=
              std::string::npos) {
        a["bytes_hex"].Fail(
            "expected a non-empty even-length hex string (at most 4096 "
            "bytes)");
        break;
      }
      const std::string raw = absl::HexStringToBytes(hex);
      arg.bytes.assign(raw.begin(), raw.end());
    } else if (kind == "local") {
      arg.kind = KernelArg::Kind::kLocal;
      arg.local_bytes = a["bytes"].Uint(1, kMaxBufferBytes);
    }
    tc.args.push_back(std::move(arg));
  }
  if (!reader.ok()) return reader.status();
  ReadResultTolerances(reader, j["tolerances"], tc);
  if (!reader.ok()) return reader.status();
  return tc;
}

absl::StatusOr<TestCase> LoadSidecarCase(const std::string& spv_path,
                                         const std::string& sidecar_path) {
  auto module = ReadModuleFile(spv_path);
  if (!module.ok()) return module.status();
  auto j = ReadJsonFile(sidecar_path);
  if (!j.ok()) return j.status();
  return TestCaseFromSidecar(*j, EncodeModule(*module), sidecar_path);
}

absl::StatusOr<std::vector<CorpusEntry>> ReadCorpusManifest(
    const std::string& path) {
  auto bytes = ReadFileBytes(path);
  if (!bytes.ok()) return bytes.status();
  std::vector<CorpusEntry> out;
  size_t line_number = 0;
  for (absl::string_view line : absl::StrSplit(
           absl::string_view(reinterpret_cast<const char*>(bytes->data()),
                             bytes->size()),
           '\n', absl::SkipEmpty())) {
    ++line_number;
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (fields.size() != 3) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", line_number,
                       ": expected name<TAB>module.spv<TAB>sidecar.json"));
    }
    out.push_back({fields[0], fields[1], fields[2]});
  }
  return out;
}

}  // namespace l0spv::spirv
