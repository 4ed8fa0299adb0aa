#include "tests/reference/corpus_loader.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "oracles/reference/numeric.h"
#include "spirv/binary.h"

namespace l0spv::oracles::reference::test {
namespace {

uint64_t SplitMix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

absl::StatusOr<std::vector<uint8_t>> ScalarBytes(const std::string& type,
                                                 const std::string& value) {
  std::vector<uint8_t> out;
  auto put = [&out](const void* p, size_t n) {
    out.resize(n);
    std::memcpy(out.data(), p, n);
  };
  if (type == "f16" || type == "f32" || type == "f64") {
    double d;
    if (!absl::SimpleAtod(value, &d)) return absl::InvalidArgumentError(value);
    if (type == "f16") {
      const uint16_t h = DoubleToHalf(d);
      put(&h, 2);
    } else if (type == "f32") {
      const float f = static_cast<float>(d);
      put(&f, 4);
    } else {
      put(&d, 8);
    }
    return out;
  }
  const size_t bytes = type.substr(1) == "8"    ? 1
                       : type.substr(1) == "16" ? 2
                       : type.substr(1) == "32" ? 4
                       : type.substr(1) == "64" ? 8
                                                : 0;
  if (bytes == 0 || (type[0] != 'i' && type[0] != 'u'))
    return absl::InvalidArgumentError(absl::StrCat("scalar type ", type));
  uint64_t v;
  if (type[0] == 'i') {
    int64_t s;
    if (!absl::SimpleAtoi(value, &s)) return absl::InvalidArgumentError(value);
    v = static_cast<uint64_t>(s);
  } else if (!absl::SimpleAtoi(value, &v)) {
    return absl::InvalidArgumentError(value);
  }
  put(&v, bytes);
  return out;
}

}  // namespace

absl::StatusOr<std::vector<CorpusEntry>> ReadManifest(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::vector<CorpusEntry> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    if (f.size() != 3)
      return absl::InvalidArgumentError(
          absl::StrCat("bad manifest line: ", line));
    out.push_back({f[0], f[1], f[2]});
  }
  return out;
}

absl::StatusOr<spirv::TestCase> LoadCorpusCase(const CorpusEntry& entry) {
  auto bytes = spirv::ReadFileBytes(entry.spv_path);
  if (!bytes.ok()) return bytes.status();
  if (bytes->size() % 4 != 0)
    return absl::InvalidArgumentError("module size not a multiple of 4");
  spirv::TestCase tc;
  tc.module_words.resize(bytes->size() / 4);
  std::memcpy(tc.module_words.data(), bytes->data(), bytes->size());
  std::ifstream in(entry.json_path);
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return absl::InvalidArgumentError(
        absl::StrCat(entry.json_path, ": not a JSON object"));
  try {
    tc.entry_point = j.at("kernel").get<std::string>();
    const auto& global = j.at("global");
    tc.nd_range.dims = static_cast<uint32_t>(global.size());
    for (size_t i = 0; i < global.size() && i < 3; ++i)
      tc.nd_range.global[i] = global[i].get<uint64_t>();
    if (j.contains("local")) {
      std::array<uint64_t, 3> l{1, 1, 1};
      for (size_t i = 0; i < j["local"].size() && i < 3; ++i)
        l[i] = j["local"][i].get<uint64_t>();
      tc.nd_range.local = l;
    }
    for (const auto& a : j.at("args")) {
      spirv::KernelArg arg;
      const std::string kind = a.at("kind").get<std::string>();
      if (kind == "buffer") {
        arg.kind = spirv::KernelArg::Kind::kBuffer;
        const size_t n = a.at("bytes").get<size_t>();
        arg.bytes.assign(n, 0);
        const std::string init = a.value("init", "zero");
        if (init == "iota-u8") {
          for (size_t i = 0; i < n; ++i) arg.bytes[i] = static_cast<uint8_t>(i);
        } else if (init == "iota-u32") {
          for (size_t i = 0; i + 4 <= n; i += 4) {
            const uint32_t v = static_cast<uint32_t>(i / 4);
            std::memcpy(&arg.bytes[i], &v, 4);
          }
        } else if (init == "iota-f32") {
          for (size_t i = 0; i + 4 <= n; i += 4) {
            const float v = static_cast<float>(i / 4);
            std::memcpy(&arg.bytes[i], &v, 4);
          }
        } else if (init == "random") {
          uint64_t s = a.value("seed", uint64_t{0});
          for (size_t i = 0; i < n; i += 8) {
            const uint64_t r = SplitMix(s);
            std::memcpy(&arg.bytes[i], &r, std::min<size_t>(8, n - i));
          }
        } else if (init != "zero") {
          return absl::InvalidArgumentError(absl::StrCat("init ", init));
        }
        arg.is_result = a.value("result", false);
      } else if (kind == "scalar") {
        arg.kind = spirv::KernelArg::Kind::kScalar;
        arg.type = a.at("type").get<std::string>();
        auto b = ScalarBytes(arg.type, a.at("value").get<std::string>());
        if (!b.ok()) return b.status();
        arg.bytes = *b;
      } else if (kind == "local") {
        arg.kind = spirv::KernelArg::Kind::kLocal;
        arg.local_bytes = a.at("bytes").get<uint64_t>();
      } else if (kind == "struct") {
        arg.kind = spirv::KernelArg::Kind::kScalar;
        arg.type = "struct";
        const std::string hex = a.at("bytes_hex").get<std::string>();
        for (size_t i = 0; i + 1 < hex.size(); i += 2)
          arg.bytes.push_back(
              static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
      } else {
        return absl::InvalidArgumentError(absl::StrCat("arg kind ", kind));
      }
      tc.args.push_back(std::move(arg));
    }
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(entry.json_path, ": ", e.what()));
  }
  return tc;
}

}  // namespace l0spv::oracles::reference::test
