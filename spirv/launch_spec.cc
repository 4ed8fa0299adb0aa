#include "spirv/launch_spec.h"

#include <charconv>
#include <cstring>
#include <random>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "spirv/binary.h"

namespace l0spv::spirv {
namespace {

using nlohmann::json;

// Sidecar buffers and --arg buffers share this cap: an interpreter must be
// able to hold them, and a typo ("buf:40000000000") must not OOM the host.
constexpr uint64_t kMaxBufferBytes = uint64_t{1} << 30;

uint16_t FloatToHalfBits(float f) {
  // Round-to-nearest-even conversion of an IEEE binary32 to binary16.
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000;
  const uint32_t exp = (x >> 23) & 0xFF;
  uint32_t mant = x & 0x7FFFFF;
  if (exp == 0xFF) return sign | 0x7C00 | (mant ? 0x200 : 0);
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return sign | 0x7C00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const int shift = 14 - e;
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1FFF;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) ++half;
  return static_cast<uint16_t>(sign | half);
}

template <typename T>
std::vector<uint8_t> BytesOf(T v) {
  std::vector<uint8_t> out(sizeof(T));
  std::memcpy(out.data(), &v, sizeof(T));
  return out;
}

absl::StatusOr<std::vector<uint8_t>> InitBuffer(const json& arg, uint64_t bytes,
                                                const std::string& where) {
  const std::string init = arg.value("init", "zero");
  std::vector<uint8_t> out(bytes, 0);
  if (init == "zero") return out;
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
    std::mt19937_64 rng(arg.value("seed", uint64_t{0}));
    for (uint64_t i = 0; i < bytes; i += 8) {
      const uint64_t v = rng();
      std::memcpy(&out[i], &v, std::min<uint64_t>(8, bytes - i));
    }
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": unknown init \"", init,
                     "\" (zero, iota-u8, iota-u32, iota-f32 or random)"));
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
    return BytesOf(FloatToHalfBits(static_cast<float>(d)));
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

namespace {
absl::StatusOr<TestCase> TestCaseFromSidecarUnchecked(
    const json& sidecar, std::vector<uint32_t> module_words,
    const std::string& where) {
  if (!sidecar.is_object() || !sidecar.contains("kernel") ||
      !sidecar["kernel"].is_string()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": expected an object with a \"kernel\" name"));
  }
  TestCase tc;
  tc.module_words = std::move(module_words);
  tc.entry_point = sidecar["kernel"].get<std::string>();
  auto read_dims = [&](const char* field, std::array<uint64_t, 3>& out,
                       uint32_t* dims) -> absl::Status {
    const json& a = sidecar[field];
    if (!a.is_array() || a.empty() || a.size() > 3 ||
        (dims && *dims != 0 && a.size() != *dims)) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": \"", field, "\" must be an array of 1–3 sizes"));
    }
    for (size_t i = 0; i < a.size(); ++i) {
      if (!a[i].is_number_unsigned())
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": \"", field, "\" entries must be sizes"));
      out[i] = a[i].get<uint64_t>();
    }
    if (dims && *dims == 0) *dims = static_cast<uint32_t>(a.size());
    return absl::OkStatus();
  };
  uint32_t dims = 0;
  if (!sidecar.contains("global")) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": missing \"global\""));
  }
  if (auto s = read_dims("global", tc.nd_range.global, &dims); !s.ok())
    return s;
  tc.nd_range.dims = dims;
  if (sidecar.contains("local")) {
    std::array<uint64_t, 3> local{1, 1, 1};
    if (auto s = read_dims("local", local, &dims); !s.ok()) return s;
    tc.nd_range.local = local;
  }
  if (sidecar.contains("offset")) {
    if (auto s = read_dims("offset", tc.nd_range.offset, &dims); !s.ok())
      return s;
  }
  if (auto s = ValidateNdRange(tc.nd_range); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": ", s.message()));
  }
  const json args = sidecar.value("args", json::array());
  for (size_t i = 0; i < args.size(); ++i) {
    const json& a = args[i];
    const std::string at = absl::StrCat(where, ": args[", i, "]");
    const std::string kind = a.is_object() ? a.value("kind", "") : "";
    KernelArg arg;
    if (kind == "buffer") {
      const uint64_t bytes = a.value("bytes", uint64_t{0});
      if (bytes == 0 || bytes > kMaxBufferBytes) {
        return absl::InvalidArgumentError(
            absl::StrCat(at, ": \"bytes\" must be 1..", kMaxBufferBytes));
      }
      auto data = InitBuffer(a, bytes, at);
      if (!data.ok()) return data.status();
      arg.kind = KernelArg::Kind::kBuffer;
      arg.bytes = std::move(*data);
      arg.is_result = a.value("result", false);
    } else if (kind == "scalar") {
      arg.kind = KernelArg::Kind::kScalar;
      arg.type = a.value("type", "");
      auto bytes = ScalarBytes(arg.type, a.value("value", ""));
      if (!bytes.ok())
        return absl::InvalidArgumentError(
            absl::StrCat(at, ": ", bytes.status().message()));
      arg.bytes = std::move(*bytes);
    } else if (kind == "struct") {
      arg.kind = KernelArg::Kind::kScalar;
      arg.type = "struct";
      const std::string hex = a.value("bytes_hex", "");
      if (hex.empty() || hex.size() % 2 != 0 ||
          hex.find_first_not_of("0123456789abcdefABCDEF") !=
              std::string::npos) {
        return absl::InvalidArgumentError(absl::StrCat(
            at, ": \"bytes_hex\" must be an even-length hex string"));
      }
      for (size_t k = 0; k < hex.size(); k += 2) {
        arg.bytes.push_back(
            static_cast<uint8_t>(std::stoul(hex.substr(k, 2), nullptr, 16)));
      }
    } else if (kind == "local") {
      arg.kind = KernelArg::Kind::kLocal;
      arg.local_bytes = a.value("bytes", uint64_t{0});
      if (arg.local_bytes == 0 || arg.local_bytes > kMaxBufferBytes) {
        return absl::InvalidArgumentError(
            absl::StrCat(at, ": local \"bytes\" must be 1..", kMaxBufferBytes));
      }
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          at, ": unknown kind \"", kind, "\" (buffer, scalar, struct, local)"));
    }
    tc.args.push_back(std::move(arg));
  }
  return tc;
}

}  // namespace

absl::StatusOr<TestCase> TestCaseFromSidecar(const json& sidecar,
                                             std::vector<uint32_t> module_words,
                                             const std::string& where) {
  // Field checks above cover the documented shapes; a value of an
  // unexpected JSON type anywhere else must still be an error, not a throw.
  try {
    return TestCaseFromSidecarUnchecked(sidecar, std::move(module_words),
                                        where);
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": a field has the wrong JSON type (", e.what(),
                     "); see corpora/README.md for the sidecar format"));
  }
}

absl::StatusOr<TestCase> LoadSidecarCase(const std::string& spv_path,
                                         const std::string& sidecar_path) {
  auto module = ReadModuleFile(spv_path);
  if (!module.ok()) return module.status();
  auto text = ReadFileBytes(sidecar_path);
  if (!text.ok()) return text.status();
  const json j = json::parse(text->begin(), text->end(), nullptr, false);
  if (j.is_discarded()) {
    return absl::InvalidArgumentError(
        absl::StrCat(sidecar_path, ": not valid JSON"));
  }
  return TestCaseFromSidecar(j, EncodeModule(*module), sidecar_path);
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
