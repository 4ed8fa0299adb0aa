#include "spirv/test_case.h"

#include <filesystem>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "spirv/binary.h"
#include "spirv/image_json.h"
#include "spirv/json_reader.h"
#include "spirv/text_bytes.h"

namespace l0spv::spirv {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Upper bounds that keep a hostile case.json from exhausting memory.
constexpr uint64_t kMaxWorkItems = uint64_t{1} << 32;
constexpr uint64_t kMaxLocalBytes = uint64_t{1} << 30;
constexpr size_t kMaxArgs = 1024;

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
    // Global ids are offset + index: they must fit in 64 bits.
    if (r.offset[d] > ~uint64_t{0} - r.global[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("global offset ", r.offset[d], " + global size ",
                       r.global[d], " in dimension ", d, " overflows 64 bits"));
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
      case KernelArg::Kind::kImage:
        aj = {{"kind", "image"},
              {"file", ArgFile(i)},
              {"bytes", a.bytes.size()},
              {"result", a.is_result},
              {"image", ImageDescToJson(a.image)}};
        break;
      case KernelArg::Kind::kSampler:
        aj = {{"kind", "sampler"}, {"sampler", SamplerDescToJson(a.sampler)}};
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
  if (!tc.linked_modules.empty()) {
    json files = json::array();
    for (size_t i = 0; i < tc.linked_modules.size(); ++i)
      files.push_back(LinkedModuleFile(i));
    j["linked_modules"] = std::move(files);
  }
  return j;
}

std::string LinkedModuleFile(size_t i) {
  return absl::StrCat("module-", i + 1, ".spv");
}

namespace {

// The files of a case beside case.json, by name: module.spv, module-N.spv,
// argN.bin for each buffer and image.
std::vector<std::pair<std::string, std::vector<uint8_t>>> CaseFiles(
    const TestCase& tc) {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> files;
  files.emplace_back("module.spv",
                     WordsToBytes(tc.module_words, Endianness::kLittle));
  for (size_t i = 0; i < tc.linked_modules.size(); ++i) {
    files.emplace_back(LinkedModuleFile(i),
                       WordsToBytes(tc.linked_modules[i], Endianness::kLittle));
  }
  for (size_t i = 0; i < tc.args.size(); ++i) {
    if (tc.args[i].kind == KernelArg::Kind::kBuffer ||
        tc.args[i].kind == KernelArg::Kind::kImage)
      files.emplace_back(ArgFile(i), tc.args[i].bytes);
  }
  return files;
}

}  // namespace

absl::Status WriteTestCase(const TestCase& tc, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat(dir, ": cannot create directory (", ec.message(), ")"));
  }
  for (const auto& [name, bytes] : CaseFiles(tc)) {
    if (auto s = WriteFileBytes(dir + "/" + name, bytes); !s.ok()) return s;
  }
  const std::string text = DumpJson(TestCaseToJson(tc), 2) + "\n";
  return WriteFileBytes(
      dir + "/case.json",
      {reinterpret_cast<const uint8_t*>(text.data()), text.size()});
}

std::string TestCaseToBytes(const TestCase& tc) {
  json files = json::object();
  for (auto& [name, bytes] : CaseFiles(tc))
    files[name] = json::binary(std::move(bytes));
  std::string out;
  json::to_cbor(json{{"case", TestCaseToJson(tc)}, {"files", std::move(files)}},
                out);
  return out;
}

absl::StatusOr<TestCase> TestCaseFromBytes(const std::string& bytes,
                                           const std::string& who) {
  const json whole = json::from_cbor(bytes, /*strict=*/true,
                                     /*allow_exceptions=*/false);
  if (whole.is_discarded() || !whole.is_object() || !whole.contains("case") ||
      !whole.contains("files") || !whole["files"].is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(who, ": not a test case from TestCaseToBytes"));
  }
  const json& files = whole["files"];
  return ReadTestCaseFrom(
      whole["case"], who,
      [&](const std::string& name,
          uint64_t max_bytes) -> absl::StatusOr<std::vector<uint8_t>> {
        const auto it = files.find(name);
        if (it == files.end() || !it->is_binary())
          return absl::NotFoundError(absl::StrCat(who, ": no file ", name));
        const std::vector<uint8_t>& b = it->get_binary();
        if (b.size() > max_bytes)
          return absl::OutOfRangeError(
              absl::StrCat(who, ": ", name, " is over ", max_bytes, " bytes"));
        return b;
      });
}

namespace {

constexpr char kCaseHint[] =
    "docs/case-format.md lists the fields; fix it or regenerate the case";
constexpr size_t kMaxTolerances = 4096;
constexpr size_t kMaxToleranceFields = 1 << 16;

}  // namespace

void ReadResultTolerances(JsonReader& reader, JsonField list, TestCase& tc) {
  for (JsonField tj : list.Array(kMaxTolerances, /*required=*/false)) {
    if (!tj.ExpectObject()) return;
    ResultTolerance t;
    const uint64_t arg = tj.Required("arg").Uint(0, kMaxArgs);
    if (!reader.ok()) return;
    if (arg >= tc.args.size() ||
        tc.args[arg].kind != KernelArg::Kind::kBuffer) {
      tj["arg"].Fail(
          absl::StrCat("expected the index of a buffer argument, got ", arg));
      return;
    }
    t.arg = static_cast<uint32_t>(arg);
    t.type = tj["type"].Enum("f32", {"f16", "f32", "f64"});
    constexpr double kMax = 1e300;
    t.ulp = tj["ulp"].Number(0.0, 0.0, kMax);
    t.relative = tj["relative"].Number(0.0, 0.0, kMax);
    t.absolute = tj["absolute"].Number(0.0, 0.0, kMax);
    t.record = tj["record"].Uint(0, 0, kMaxWorkItems);
    for (JsonField f : tj["fields"].Array(kMaxToleranceFields, false)) {
      const uint64_t pos =
          f.Uint(0, t.record == 0 ? kMaxWorkItems : t.record - 1);
      t.fields.push_back(pos);
    }
    t.skip = tj["skip"].Bool(false);
    t.reason = tj["reason"].String("");
    tc.tolerances.push_back(std::move(t));
  }
}

namespace {

absl::StatusOr<std::array<uint64_t, 3>> ReadDimsField(JsonField field,
                                                      uint32_t dims,
                                                      uint64_t fill) {
  std::array<uint64_t, 3> out{fill, fill, fill};
  std::vector<JsonField> items = field.Array(3);
  if (!items.empty() && items.size() != dims) {
    field.Fail(absl::StrCat("expected ", dims,
                            " sizes (one per dimension of \"global\"), got ",
                            items.size()));
    return out;
  }
  for (uint32_t i = 0; i < items.size(); ++i)
    out[i] = items[i].Uint(fill, kMaxWorkItems);
  return out;
}

}  // namespace

absl::StatusOr<TestCase> ReadTestCase(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat(
        dir,
        " is not a test case directory (expected a directory holding "
        "case.json and module.spv)"));
  }
  const std::string path = dir + "/case.json";
  auto parsed = ReadJsonFile(path);
  if (!parsed.ok()) {
    return absl::Status(parsed.status().code(),
                        absl::StrCat(dir, " is not a readable test case: ",
                                     parsed.status().message()));
  }
  return ReadTestCaseFrom(*parsed, dir,
                          [&dir](const std::string& name, uint64_t max_bytes) {
                            return ReadFileInside(dir, name, max_bytes);
                          });
}

absl::StatusOr<TestCase> ReadTestCaseFrom(const nlohmann::json& case_json,
                                          const std::string& dir,
                                          const CaseFileReader& read) {
  const std::string path = dir + "/case.json";
  JsonReader reader(path, case_json, kCaseHint);
  JsonField j = reader.root();
  if (!j.ExpectObject()) return reader.status();
  if (j["format"].String("") != kTestCaseFormat) {
    if (reader.ok())
      j["format"].Fail(absl::StrCat("expected \"", kTestCaseFormat, "\""));
    return reader.status();
  }
  TestCase tc;
  tc.entry_point = j["entry_point"].NonEmptyString();
  NdRange& r = tc.nd_range;
  std::vector<JsonField> global = j["global"].Array(3);
  if (reader.ok() && global.empty())
    j["global"].Fail("expected an array of 1–3 sizes");
  if (!reader.ok()) return reader.status();
  r.dims = static_cast<uint32_t>(global.size());
  for (uint32_t i = 0; i < r.dims; ++i)
    r.global[i] = global[i].Uint(1, kMaxWorkItems);
  if (j["local"].present()) r.local = *ReadDimsField(j["local"], r.dims, 1);
  if (j["offset"].present()) r.offset = *ReadDimsField(j["offset"], r.dims, 0);
  if (!reader.ok()) return reader.status();
  if (auto s = ValidateNdRange(r); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", s.message(), " (", kCaseHint, ")"));
  }
  tc.profile = j["profile"].String("full");
  if (reader.ok() && tc.profile.empty())
    j["profile"].Fail("expected a device profile name");
  if (j["transformation_log"].present()) {
    if (!j["transformation_log"].is_object()) {
      j["transformation_log"].Fail(
          absl::StrCat("expected a transformation log object, got ",
                       DescribeJson(j["transformation_log"].raw())));
    }
    tc.transformation_log = j["transformation_log"].raw();
  }
  std::vector<JsonField> args = j["args"].Array(kMaxArgs, false);
  for (size_t i = 0; i < args.size() && reader.ok(); ++i) {
    JsonField aj = args[i];
    if (!aj.ExpectObject()) break;
    KernelArg a;
    a.type = aj["type"].String("");
    const std::string kind =
        aj["kind"].Enum({"buffer", "scalar", "local", "image", "sampler"});
    if (kind == "image")
      a.image = ReadImageDesc(aj["image"], kMaxInputFileBytes);
    if (kind == "buffer" || kind == "image") {
      a.kind =
          kind == "image" ? KernelArg::Kind::kImage : KernelArg::Kind::kBuffer;
      a.is_result = aj["result"].Bool(false);
      const std::string file = aj["file"].String(ArgFile(i));
      if (!reader.ok()) break;
      if (file.empty() || file.find('/') != std::string::npos || file == "." ||
          file == "..") {
        aj["file"].Fail("must be a file name inside the case directory");
        break;
      }
      const uint64_t declared = aj["bytes"].Uint(0, 0, kMaxInputFileBytes);
      if (!reader.ok()) break;
      auto bytes = read(file, kMaxInputFileBytes);
      if (!bytes.ok()) {
        aj["file"].Fail(bytes.status().message());
        break;
      }
      a.bytes = std::move(*bytes);
      if (aj["bytes"].present() && declared != a.bytes.size()) {
        aj["bytes"].Fail(absl::StrCat(file, " holds ", a.bytes.size(),
                                      " bytes but case.json says ", declared));
      }
      if (reader.ok() && a.kind == KernelArg::Kind::kImage &&
          a.bytes.size() != ImageBytes(a.image)) {
        aj["file"].Fail(absl::StrCat(
            file, " holds ", a.bytes.size(), " bytes but the image (",
            DescribeImage(a.image), ") needs ", ImageBytes(a.image)));
      }
    } else if (kind == "scalar") {
      a.kind = KernelArg::Kind::kScalar;
      const std::string hex = aj["bytes_hex"].String();
      const bool hex_ok =
          !hex.empty() && hex.size() % 2 == 0 && hex.size() <= 2 * 4096 &&
          hex.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
      if (reader.ok() && !hex_ok) {
        aj["bytes_hex"].Fail(
            "expected a non-empty even-length hex string (at most 4096 "
            "bytes)");
      }
      const std::string raw = absl::HexStringToBytes(hex);
      a.bytes.assign(raw.begin(), raw.end());
    } else if (kind == "local") {
      a.kind = KernelArg::Kind::kLocal;
      a.local_bytes = aj["bytes"].Uint(1, kMaxLocalBytes);
    } else if (kind == "sampler") {
      a.kind = KernelArg::Kind::kSampler;
      a.sampler = ReadSamplerDesc(aj["sampler"]);
    }
    tc.args.push_back(std::move(a));
  }
  if (!reader.ok()) return reader.status();
  ReadResultTolerances(reader, j["tolerances"], tc);
  if (!reader.ok()) return reader.status();

  std::vector<std::string> linked_files;
  for (JsonField f : j["linked_modules"].Array(kMaxLinkedModules,
                                               /*required=*/false)) {
    std::string name = f.NonEmptyString();
    if (reader.ok() && (name.find('/') != std::string::npos ||
                        name == "module.spv" || name == "." || name == ".."))
      f.Fail(
          "expected the name of a module file in the case directory "
          "other than module.spv (module-1.spv, module-2.spv, ...)");
    linked_files.push_back(std::move(name));
  }
  if (!reader.ok()) return reader.status();

  const auto read_module =
      [&](const std::string& file) -> absl::StatusOr<std::vector<uint32_t>> {
    auto bytes = read(file, kMaxModuleFileBytes);
    if (!bytes.ok()) return bytes.status();
    auto parsed_module = ReadModule(*bytes);
    if (!parsed_module.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(dir, "/", file, ": ", parsed_module.status().message()));
    }
    return EncodeModule(*parsed_module);
  };
  auto module = read_module("module.spv");
  if (!module.ok()) return module.status();
  tc.module_words = *std::move(module);
  for (const std::string& file : linked_files) {
    auto linked = read_module(file);
    if (!linked.ok()) return linked.status();
    tc.linked_modules.push_back(*std::move(linked));
  }
  return tc;
}

}  // namespace l0spv::spirv
