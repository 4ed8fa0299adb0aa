#include "spirv/json_reader.h"

#include <algorithm>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "spirv/binary.h"
#include "spirv/text_bytes.h"

namespace l0spv::spirv {

using nlohmann::json;

absl::StatusOr<json> ParseJson(absl::string_view text,
                               const std::string& where) {
  json j = json::parse(text.begin(), text.end(), nullptr,
                       /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": not valid JSON (", text.size(), " bytes)"));
  }
  return j;
}

absl::StatusOr<json> ReadJsonFile(const std::string& path, uint64_t max_bytes) {
  auto bytes = ReadFileBytes(path, max_bytes);
  if (!bytes.ok()) return bytes.status();
  return ParseJson(
      absl::string_view(reinterpret_cast<const char*>(bytes->data()),
                        bytes->size()),
      path);
}

absl::Status WriteJsonFile(const std::string& path, const json& j) {
  const std::string text = DumpJson(j, 2) + "\n";
  return WriteFileBytes(
      path, std::span<const uint8_t>(
                reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

std::string DescribeJson(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return absl::StrCat("boolean ", j.dump());
    case json::value_t::string: {
      std::string s = j.dump();
      if (s.size() > 40) s = s.substr(0, 37) + "...";
      return absl::StrCat("string ", s);
    }
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return absl::StrCat("number ", j.dump());
    case json::value_t::array:
      return absl::StrCat("an array of ", j.size());
    case json::value_t::object:
      return "an object";
    default:
      return "a binary value";
  }
}

JsonReader::JsonReader(std::string file, const json& document, std::string hint)
    : file_(std::move(file)), document_(document), hint_(std::move(hint)) {}

void JsonReader::Fail(absl::string_view path, absl::string_view problem) {
  if (!status_.ok()) return;
  const std::string where =
      path.empty() ? file_ : absl::StrCat(file_, ": field '", path, "'");
  status_ = absl::InvalidArgumentError(
      absl::StrCat(where, ": ", problem,
                   hint_.empty() ? "" : absl::StrCat(" (", hint_, ")")));
}

const json& JsonField::raw() const {
  static const json* const kNull = new json(nullptr);
  return value_ != nullptr ? *value_ : *kNull;
}

bool JsonField::Fail(absl::string_view problem) const {
  reader_->Fail(path_, problem);
  return false;
}

bool JsonField::Missing() const {
  if (present()) return false;
  Fail("missing (required)");
  return true;
}

bool JsonField::ExpectObject() const {
  if (Missing()) return false;
  if (!value_->is_object())
    return Fail(
        absl::StrCat("expected an object, got ", DescribeJson(*value_)));
  return true;
}

JsonField JsonField::operator[](absl::string_view key) const {
  const std::string path =
      path_.empty() ? std::string(key) : absl::StrCat(path_, ".", key);
  if (!present()) return JsonField(reader_, nullptr, path);
  if (!value_->is_object()) {
    Fail(absl::StrCat("expected an object, got ", DescribeJson(*value_)));
    return JsonField(reader_, nullptr, path);
  }
  auto it = value_->find(key);
  return JsonField(reader_, it == value_->end() ? nullptr : &*it, path);
}

JsonField JsonField::Required(absl::string_view key) const {
  JsonField f = (*this)[key];
  if (ExpectObject()) f.Missing();
  return f;
}

std::string JsonField::String() const {
  if (Missing()) return "";
  if (!value_->is_string()) {
    Fail(absl::StrCat("expected a string, got ", DescribeJson(*value_)));
    return "";
  }
  return value_->get<std::string>();
}

std::string JsonField::String(absl::string_view fallback) const {
  if (!present()) return std::string(fallback);
  return String();
}

std::string JsonField::NonEmptyString() const {
  std::string s = String();
  if (reader_->ok() && s.empty()) Fail("expected a non-empty string");
  return s;
}

// Reads an integer of type T in min..max (the shared body of Uint and Int).
template <typename T>
T JsonField::Integer(T min, T max) const {
  if (Missing()) return min;
  const bool fits =
      std::is_signed_v<T>
          ? (value_->is_number_unsigned()
                 ? value_->get<uint64_t>() <=
                       static_cast<uint64_t>(std::numeric_limits<T>::max())
                 : value_->is_number_integer())
          : (value_->is_number_unsigned() ||
             (value_->is_number_integer() && value_->get<int64_t>() >= 0));
  if (!fits) {
    Fail(absl::StrCat("expected an integer in ", min, "..", max, ", got ",
                      DescribeJson(*value_)));
    return min;
  }
  const T v = value_->get<T>();
  if (v < min || v > max) {
    Fail(absl::StrCat("expected an integer in ", min, "..", max, ", got ", v));
    return min;
  }
  return v;
}

uint64_t JsonField::Uint(uint64_t min, uint64_t max) const {
  return Integer<uint64_t>(min, max);
}

uint64_t JsonField::Uint(uint64_t fallback, uint64_t min, uint64_t max) const {
  if (!present()) return fallback;
  return Uint(min, max);
}

int64_t JsonField::Int(int64_t min, int64_t max) const {
  return Integer<int64_t>(min, max);
}

int64_t JsonField::Int(int64_t fallback, int64_t min, int64_t max) const {
  if (!present()) return fallback;
  return Int(min, max);
}

double JsonField::Number(double min, double max) const {
  if (Missing()) return min;
  if (!value_->is_number()) {
    Fail(absl::StrCat("expected a number in ", min, "..", max, ", got ",
                      DescribeJson(*value_)));
    return min;
  }
  const double v = value_->get<double>();
  if (!(v >= min && v <= max)) {
    Fail(absl::StrCat("expected a number in ", min, "..", max, ", got ",
                      value_->dump()));
    return min;
  }
  return v;
}

double JsonField::Number(double fallback, double min, double max) const {
  if (!present()) return fallback;
  return Number(min, max);
}

bool JsonField::Bool() const {
  if (Missing()) return false;
  if (!value_->is_boolean()) {
    Fail(absl::StrCat("expected true or false, got ", DescribeJson(*value_)));
    return false;
  }
  return value_->get<bool>();
}

bool JsonField::Bool(bool fallback) const {
  if (!present()) return fallback;
  return Bool();
}

std::string JsonField::Enum(
    std::initializer_list<absl::string_view> names) const {
  if (Missing()) return "";
  const std::string list = absl::StrJoin(names, ", ");
  if (!value_->is_string()) {
    Fail(absl::StrCat("expected one of ", list, "; got ",
                      DescribeJson(*value_)));
    return "";
  }
  std::string s = value_->get<std::string>();
  if (std::find(names.begin(), names.end(), s) == names.end()) {
    Fail(absl::StrCat("expected one of ", list, "; got ",
                      DescribeJson(*value_)));
    return "";
  }
  return s;
}

std::string JsonField::Enum(
    absl::string_view fallback,
    std::initializer_list<absl::string_view> names) const {
  if (!present()) return std::string(fallback);
  return Enum(names);
}

bool JsonField::Container(bool array, size_t max_size, bool required) const {
  if (!present()) {
    if (required) Missing();
    return false;
  }
  if (array ? !value_->is_array() : !value_->is_object()) {
    return Fail(absl::StrCat("expected ", array ? "an array" : "an object",
                             ", got ", DescribeJson(*value_)));
  }
  if (value_->size() > max_size) {
    return Fail(absl::StrCat("expected at most ", max_size,
                             array ? " elements" : " members", ", got ",
                             value_->size()));
  }
  return true;
}

std::vector<JsonField> JsonField::Array(size_t max_size, bool required) const {
  std::vector<JsonField> out;
  if (!Container(/*array=*/true, max_size, required)) return out;
  out.reserve(value_->size());
  for (size_t i = 0; i < value_->size(); ++i)
    out.push_back(
        JsonField(reader_, &(*value_)[i], absl::StrCat(path_, "[", i, "]")));
  return out;
}

std::vector<std::pair<std::string, JsonField>> JsonField::Members(
    size_t max_size, bool required) const {
  std::vector<std::pair<std::string, JsonField>> out;
  if (!Container(/*array=*/false, max_size, required)) return out;
  for (auto it = value_->begin(); it != value_->end(); ++it) {
    out.emplace_back(
        it.key(),
        JsonField(
            reader_, &it.value(),
            path_.empty() ? it.key() : absl::StrCat(path_, ".", it.key())));
  }
  return out;
}

}  // namespace l0spv::spirv
