#include "spirv/test_case.h"

#include <filesystem>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "spirv/binary.h"

namespace l0spv::spirv {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Upper bounds that keep a hostile case.json from exhausting memory.
constexpr uint64_t kMaxWorkItems = uint64_t{1} << 32;
constexpr uint64_t kMaxLocalBytes = uint64_t{1} << 30;
constexpr size_t kMaxArgs = 1024;

absl::Status FieldError(const std::string& dir, const std::string& field,
                        const std::string& problem) {
  return absl::InvalidArgumentError(
      absl::StrCat(dir, "/case.json: field '", field, "': ", problem));
}

absl::StatusOr<std::array<uint64_t, 3>> ReadDims(const std::string& dir,
                                                 const json& j,
                                                 const std::string& field,
                                                 uint32_t dims, uint64_t fill) {
  std::array<uint64_t, 3> out{fill, fill, fill};
  if (!j.is_array() || j.size() != dims) {
    return FieldError(
        dir, field,
        absl::StrCat("expected an array of ", dims, " non-negative integers"));
  }
  for (uint32_t i = 0; i < dims; ++i) {
    if (!j[i].is_number_unsigned()) {
      return FieldError(dir, field, "entries must be non-negative integers");
    }
    out[i] = j[i].get<uint64_t>();
  }
  return out;
}

std::string ArgFile(size_t index) { return absl::StrCat("arg", index, ".bin"); }

}  // namespace

uint64_t GlobalWorkItems(const NdRange& range) {
  return range.global[0] * range.global[1] * range.global[2];
}

absl::Status ValidateNdRange(const NdRange& r) {
  if (r.dims < 1 || r.dims > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("ND-range has ", r.dims, " dimensions; must be 1–3"));
  }
  unsigned __int128 items = 1;
  for (uint32_t d = 0; d < 3; ++d) {
    if (r.global[d] == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("global size in dimension ", d, " is 0"));
    }
    if (r.local && ((*r.local)[d] == 0 || (*r.local)[d] > r.global[d])) {
      return absl::InvalidArgumentError(
          absl::StrCat("local size ", (*r.local)[d], " in dimension ", d,
                       " must be between 1 and the global size ", r.global[d]));
    }
    items *= r.global[d];
  }
  if (items > kMaxWorkItems) {
    return absl::InvalidArgumentError(
        absl::StrCat("ND-range has more than ", kMaxWorkItems, " work-items"));
  }
  return absl::OkStatus();
}

json TestCaseToJson(const TestCase& tc) {
  const NdRange& r = tc.nd_range;
  auto dims = [&r](const std::array<uint64_t, 3>& a) {
    return std::vector<uint64_t>(a.begin(), a.begin() + r.dims);
  };
  json j{{"format", kTestCaseFormat},
         {"entry_point", tc.entry_point},
         {"global", dims(r.global)},
         {"local", r.local ? json(dims(*r.local)) : json(nullptr)},
         {"offset", dims(r.offset)},
         {"profile", tc.profile},
         {"args", json::array()}};
  for (size_t i = 0; i < tc.args.size(); ++i) {
    const KernelArg& a = tc.args[i];
    json aj;
    switch (a.kind) {
      case KernelArg::Kind::kBuffer:
        aj = {{"kind", "buffer"},
              {"file", ArgFile(i)},
              {"bytes", a.bytes.size()},
              {"result", a.is_result}};
        break;
      case KernelArg::Kind::kScalar:
        aj = {{"kind", "scalar"},
              {"bytes_hex", absl::BytesToHexString(absl::string_view(
                                reinterpret_cast<const char*>(a.bytes.data()),
                                a.bytes.size()))}};
        break;
      case KernelArg::Kind::kLocal:
        aj = {{"kind", "local"}, {"bytes", a.local_bytes}};
        break;
    }
    if (!a.type.empty()) aj["type"] = a.type;
    j["args"].push_back(std::move(aj));
  }
  if (!tc.tolerances.empty()) {
    json tolerances = json::array();
    for (const ResultTolerance& t : tc.tolerances) {
      json tj{{"arg", t.arg},           {"type", t.type},
              {"ulp", t.ulp},           {"relative", t.relative},
              {"absolute", t.absolute}, {"record", t.record},
              {"fields", t.fields}};
      if (t.skip) tj["skip"] = true;
      if (!t.reason.empty()) tj["reason"] = t.reason;
      tolerances.push_back(std::move(tj));
    }
    j["tolerances"] = std::move(tolerances);
  }
  if (tc.transformation_log) j["transformation_log"] = *tc.transformation_log;
  return j;
}

absl::Status WriteTestCase(const TestCase& tc, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat(dir, ": cannot create directory (", ec.message(), ")"));
  }
  if (auto s =
          WriteFileBytes(dir + "/module.spv",
                         WordsToBytes(tc.module_words, Endianness::kLittle));
      !s.ok())
    return s;
  for (size_t i = 0; i < tc.args.size(); ++i) {
    if (tc.args[i].kind != KernelArg::Kind::kBuffer) continue;
    if (auto s = WriteFileBytes(dir + "/" + ArgFile(i), tc.args[i].bytes);
        !s.ok())
      return s;
  }
  const std::string text = TestCaseToJson(tc).dump(2) + "\n";
  return WriteFileBytes(
      dir + "/case.json",
      {reinterpret_cast<const uint8_t*>(text.data()), text.size()});
}

namespace {
// The optional "tolerances" array of case.json.
absl::Status ReadTolerances(const std::string& dir, const json& j,
                            TestCase& tc) {
  if (!j.contains("tolerances")) return absl::OkStatus();
  const json& list = j["tolerances"];
  if (!list.is_array()) {
    return FieldError(dir, "tolerances", "expected an array");
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const json& tj = list[i];
    const std::string field = absl::StrCat("tolerances[", i, "]");
    if (!tj.is_object() || !tj.contains("arg") ||
        !tj["arg"].is_number_unsigned() ||
        tj["arg"].get<uint64_t>() >= tc.args.size() ||
        tc.args[tj["arg"].get<uint64_t>()].kind != KernelArg::Kind::kBuffer) {
      return FieldError(dir, field + ".arg",
                        "expected the index of a buffer argument");
    }
    ResultTolerance t;
    t.arg = tj["arg"].get<uint32_t>();
    t.type = tj.value("type", "f32");
    if (t.type != "f16" && t.type != "f32" && t.type != "f64") {
      return FieldError(dir, field + ".type", "expected f16, f32 or f64");
    }
    for (const char* name : {"ulp", "relative", "absolute"}) {
      if (tj.contains(name) &&
          (!tj[name].is_number() || tj[name].get<double>() < 0)) {
        return FieldError(dir, absl::StrCat(field, ".", name),
                          "expected a non-negative number");
      }
    }
    t.ulp = tj.value("ulp", 0.0);
    t.relative = tj.value("relative", 0.0);
    t.absolute = tj.value("absolute", 0.0);
    if (tj.contains("record") && !tj["record"].is_number_unsigned()) {
      return FieldError(dir, field + ".record", "expected an element count");
    }
    t.record = tj.value("record", uint64_t{0});
    if (tj.contains("fields")) {
      if (!tj["fields"].is_array()) {
        return FieldError(dir, field + ".fields", "expected an array");
      }
      for (const json& f : tj["fields"]) {
        if (!f.is_number_unsigned() ||
            (t.record != 0 && f.get<uint64_t>() >= t.record)) {
          return FieldError(dir, field + ".fields",
                            "expected element positions below \"record\"");
        }
        t.fields.push_back(f.get<uint64_t>());
      }
    }
    t.skip = tj.value("skip", false);
    t.reason = tj.value("reason", "");
    tc.tolerances.push_back(std::move(t));
  }
  return absl::OkStatus();
}
}  // namespace

absl::StatusOr<TestCase> ReadTestCase(const std::string& dir) {
  auto text = ReadFileBytes(dir + "/case.json");
  if (!text.ok()) {
    return absl::NotFoundError(absl::StrCat(
        dir, " is not a test case directory: ", text.status().message()));
  }
  const json j = json::parse(text->begin(), text->end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir, "/case.json: not a JSON object"));
  }
  if (j.value("format", "") != kTestCaseFormat) {
    return FieldError(dir, "format",
                      absl::StrCat("expected \"", kTestCaseFormat, "\""));
  }
  TestCase tc;
  if (!j.contains("entry_point") || !j["entry_point"].is_string() ||
      j["entry_point"].get<std::string>().empty()) {
    return FieldError(dir, "entry_point", "missing or not a non-empty string");
  }
  tc.entry_point = j["entry_point"].get<std::string>();
  if (!j.contains("global") || !j["global"].is_array() || j["global"].empty() ||
      j["global"].size() > 3) {
    return FieldError(dir, "global", "expected an array of 1–3 sizes");
  }
  NdRange& r = tc.nd_range;
  r.dims = static_cast<uint32_t>(j["global"].size());
  auto global = ReadDims(dir, j["global"], "global", r.dims, 1);
  if (!global.ok()) return global.status();
  r.global = *global;
  if (j.contains("local") && !j["local"].is_null()) {
    auto local = ReadDims(dir, j["local"], "local", r.dims, 1);
    if (!local.ok()) return local.status();
    r.local = *local;
  }
  if (j.contains("offset")) {
    auto offset = ReadDims(dir, j["offset"], "offset", r.dims, 0);
    if (!offset.ok()) return offset.status();
    r.offset = *offset;
  }
  if (auto s = ValidateNdRange(r); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir, "/case.json: ", s.message()));
  }
  tc.profile = j.value("profile", "full");
  if (j.contains("transformation_log"))
    tc.transformation_log = j["transformation_log"];

  const json args = j.value("args", json::array());
  if (!args.is_array() || args.size() > kMaxArgs) {
    return FieldError(dir, "args", "expected an array of arguments");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const json& aj = args[i];
    const std::string field = absl::StrCat("args[", i, "]");
    if (!aj.is_object() || !aj.contains("kind") || !aj["kind"].is_string()) {
      return FieldError(dir, field, "expected an object with a \"kind\"");
    }
    KernelArg a;
    a.type = aj.value("type", "");
    const std::string kind = aj["kind"].get<std::string>();
    if (kind == "buffer") {
      a.kind = KernelArg::Kind::kBuffer;
      a.is_result = aj.value("result", false);
      const std::string file = aj.value("file", ArgFile(i));
      if (file.find('/') != std::string::npos) {
        return FieldError(dir, field + ".file",
                          "must be a file name inside the case directory");
      }
      auto bytes = ReadFileBytes(dir + "/" + file);
      if (!bytes.ok()) return bytes.status();
      a.bytes = std::move(*bytes);
      if (aj.contains("bytes") && aj["bytes"].is_number_unsigned() &&
          aj["bytes"].get<uint64_t>() != a.bytes.size()) {
        return FieldError(dir, field,
                          absl::StrCat(file, " holds ", a.bytes.size(),
                                       " bytes but case.json says ",
                                       aj["bytes"].get<uint64_t>()));
      }
    } else if (kind == "scalar") {
      a.kind = KernelArg::Kind::kScalar;
      const std::string hex = aj.value("bytes_hex", "");
      const bool hex_ok =
          !hex.empty() && hex.size() % 2 == 0 &&
          hex.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
      if (!hex_ok) {
        return FieldError(dir, field + ".bytes_hex",
                          "expected a non-empty even-length hex string");
      }
      const std::string raw = absl::HexStringToBytes(hex);
      a.bytes.assign(raw.begin(), raw.end());
    } else if (kind == "local") {
      a.kind = KernelArg::Kind::kLocal;
      if (!aj.contains("bytes") || !aj["bytes"].is_number_unsigned() ||
          aj["bytes"].get<uint64_t>() == 0 ||
          aj["bytes"].get<uint64_t>() > kMaxLocalBytes) {
        return FieldError(dir, field + ".bytes",
                          "expected a local-memory size in bytes (1..1 GiB)");
      }
      a.local_bytes = aj["bytes"].get<uint64_t>();
    } else {
      return FieldError(dir, field + ".kind",
                        absl::StrCat("unknown kind \"", kind,
                                     "\" (buffer, scalar or local)"));
    }
    tc.args.push_back(std::move(a));
  }

  if (auto s = ReadTolerances(dir, j, tc); !s.ok()) return s;

  auto module = ReadFileBytes(dir + "/module.spv");
  if (!module.ok()) return module.status();
  auto parsed = ReadModule(*module);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir, "/module.spv: ", parsed.status().message()));
  }
  tc.module_words = EncodeModule(*parsed);
  return tc;
}

}  // namespace l0spv::spirv
