// spirv/json_reader.h — the one typed, schema-checked way every on-disk JSON
// document of the project is read (case.json, sidecars, transformation logs,
// campaign state, stats, verdicts, findings, the registry).
//
// Contract:
// - `ReadJsonFile` reads at most `max_bytes` (a FIFO or /dev/zero cannot make
//   it grow without bound) and parses; every error names the file.
// - `JsonReader` wraps one parsed document. Fields are read through
//   `JsonField` cursors; a read of the wrong JSON type, a missing required
//   key, a number out of its range, an unknown enumerant or an array longer
//   than its cap records the *first* such error on the reader and returns a
//   neutral default, so a reader is written straight-line and checks
//   `reader.status()` once at the end. The error is
//     FILE: field 'args[2].type': expected a string, got number 5 (HINT)
//   — what, where, and (HINT, given per document kind) what to do.
// - Optional reads treat an absent key and `null` alike: they return the
//   default. Nothing here throws; no nlohmann exception escapes.
// - `WriteJsonFile` writes atomically (temp + rename) and reports a failed
//   write with errno and path, leaving no temporary behind.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace l0spv::spirv {

// Every JSON document the project writes is far below this.
inline constexpr uint64_t kMaxJsonFileBytes = uint64_t{64} << 20;

absl::StatusOr<nlohmann::json> ReadJsonFile(
    const std::string& path, uint64_t max_bytes = kMaxJsonFileBytes);
// Parses `text`; errors name `where` (a file name or "stdin").
absl::StatusOr<nlohmann::json> ParseJson(absl::string_view text,
                                         const std::string& where);
absl::Status WriteJsonFile(const std::string& path, const nlohmann::json& j);

// "number 5", "string \"x\"", "an array", ... for messages.
std::string DescribeJson(const nlohmann::json& j);

class JsonReader;

// A cursor on one value (or one absent value) of a document.
class JsonField {
 public:
  // Where this value sits ("args[2].type"; "" is the document itself).
  const std::string& path() const { return path_; }
  // True when the key exists and is not null.
  bool present() const { return value_ != nullptr && !value_->is_null(); }
  bool is_object() const { return value_ != nullptr && value_->is_object(); }
  // The value as parsed (null json when absent): for documents kept whole,
  // such as a transformation log inside case.json.
  const nlohmann::json& raw() const;

  // A member of this object (an error when this is present but not an
  // object); absent members give absent fields.
  JsonField operator[](absl::string_view key) const;
  // Requires this value to be an object; records an error otherwise.
  bool ExpectObject() const;
  // Requires the key to be present (and not null).
  JsonField Required(absl::string_view key) const;

  // Typed reads of this value. Absent + no default = "missing" error.
  std::string String() const;
  std::string String(absl::string_view fallback) const;
  std::string NonEmptyString() const;
  uint64_t Uint(uint64_t min = 0,
                uint64_t max = std::numeric_limits<uint64_t>::max()) const;
  uint64_t Uint(uint64_t fallback, uint64_t min, uint64_t max) const;
  int64_t Int(int64_t min, int64_t max) const;
  int64_t Int(int64_t fallback, int64_t min, int64_t max) const;
  double Number(double min, double max) const;
  double Number(double fallback, double min, double max) const;
  bool Bool() const;
  bool Bool(bool fallback) const;
  // One of `names` (the error lists them).
  std::string Enum(std::initializer_list<absl::string_view> names) const;
  std::string Enum(absl::string_view fallback,
                   std::initializer_list<absl::string_view> names) const;
  // The elements of an array of at most `max_size` elements (absent: empty
  // when `required` is false).
  std::vector<JsonField> Array(size_t max_size, bool required = true) const;
  // The members of an object of at most `max_size` members.
  std::vector<std::pair<std::string, JsonField>> Members(
      size_t max_size, bool required = true) const;

  // Records `problem` for this field (first error wins); returns false.
  bool Fail(absl::string_view problem) const;

 private:
  friend class JsonReader;
  JsonField(JsonReader* reader, const nlohmann::json* value, std::string path)
      : reader_(reader), value_(value), path_(std::move(path)) {}
  bool Missing() const;  // records "missing" and returns true when absent
  template <typename T>
  T Integer(T min, T max) const;
  // Present, an array (or object) of at most max_size entries; else records
  // the error (absent is an error only when `required`).
  bool Container(bool array, size_t max_size, bool required) const;

  JsonReader* reader_;
  const nlohmann::json* value_;  // nullptr: absent
  std::string path_;
};

class JsonReader {
 public:
  // `file` names the document in errors; `hint` says what to do about a bad
  // field ("regenerate the case with `l0spv-fuzz generate`").
  JsonReader(std::string file, const nlohmann::json& document,
             std::string hint = "");
  JsonReader(const JsonReader&) = delete;
  JsonReader& operator=(const JsonReader&) = delete;

  JsonField root() { return JsonField(this, &document_, ""); }
  bool ok() const { return status_.ok(); }
  const absl::Status& status() const { return status_; }
  // Records an error not tied to one field's type (a cross-field rule).
  void Fail(absl::string_view path, absl::string_view problem);

 private:
  std::string file_;
  const nlohmann::json& document_;
  std::string hint_;
  absl::Status status_;
};

}  // namespace l0spv::spirv
